//! Full fp32 training (no autocast): the `fp32-*` recipes. Each figure is derived here from the
//! config's numbers and the rule written out beside it, never copied from the program's output.
//! The per-node rules were checked on the CPU against what autograd saves for fp32 weights
//! without autocast (`tools/validate/validate_activations.py --fp32`, report in
//! `tools/validate/activations_report_fp32.md`).

mod common;

use common::{plan_id, repo, snapshot};
use modelatlas::estimate::training::{self, Precision, Transformers};
use modelatlas::model_id::ModelId;
use modelatlas::page::ModelPage;
use modelatlas::plan::{PlanOptions, plan_with};
use modelatlas::source::ModelSource;
use std::path::PathBuf;

fn options(recipe: &str) -> training::Options {
    training::Options { recipe: training::recipe(recipe).unwrap(), ..Default::default() }
}

fn plan_id_with(id: &str, training: training::Options) -> ModelPage {
    let id = ModelId::parse(id).unwrap();
    let files = snapshot().load(&id).unwrap();
    let opts = PlanOptions { training, ..PlanOptions::default() };
    plan_with(&files, None, &opts).unwrap()
}

/// bert-base-uncased from the snapshot with its dropout set to 0.
fn bert_base_without_dropout(training: training::Options) -> ModelPage {
    let snaps = repo().join("hub/models--google-bert--bert-base-uncased/snapshots");
    let dir = std::fs::read_dir(&snaps).unwrap().next().unwrap().unwrap().path();
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json")).unwrap()).unwrap();
    v["hidden_dropout_prob"] = 0.0.into();
    v["attention_probs_dropout_prob"] = 0.0.into();
    let files = modelatlas::source::ModelFiles {
        label: "test/bert-base-no-dropout".into(),
        config_text: v.to_string(),
        config_path: PathBuf::from("test/config.json"),
        commit: None,
        meta: None,
        index_tensor_names: None,
    };
    let opts = PlanOptions { training, ..PlanOptions::default() };
    plan_with(&files, None, &opts).unwrap()
}

fn t(p: &ModelPage) -> &training::TrainingView {
    p.training.as_ref().unwrap()
}

#[test]
fn the_fp32_recipes_are_selectable_and_keep_weights_gradients_and_states_in_fp32() {
    let by_id = |id: &str| training::recipe(id).unwrap_or_else(|| panic!("{id}"));
    // AdamW: fp32 weights (4) + fp32 gradients (4) + two fp32 moments (8) = 16 bytes.
    assert_eq!(by_id("fp32-adamw").bytes_per_param(), 4.0 + 4.0 + 8.0);
    // bitsandbytes 8-bit AdamW: two 1-byte states and an fp32 absmax per 2,048-value block each.
    assert_eq!(by_id("fp32-adamw-8bit").bytes_per_param(), 4.0 + 4.0 + 2.0 + 2.0 * 4.0 / 2048.0);
    for id in ["fp32-adamw", "fp32-adamw-8bit", "fp32-adafactor"] {
        assert_eq!(by_id(id).precision, Precision::Fp32, "{id}");
    }
    // Every page prints them in its recipe table, which the calculator offers.
    let p = plan_id("google-bert/bert-base-uncased");
    for id in ["fp32-adamw", "fp32-adamw-8bit", "fp32-adafactor"] {
        assert!(t(&p).recipes.iter().any(|r| r.id == id), "{id}");
    }
}

#[test]
fn fp32_training_saves_no_weight_casts() {
    // Under autocast every linear weight is cast to bf16 once per forward and saved (2 bytes per
    // weight); without autocast the fp32 weights are used as they are.
    let amp = bert_base_without_dropout(training::Options::default());
    let fp32 = bert_base_without_dropout(options("fp32-adamw"));
    assert!(
        t(&amp).full.memory.phases[0].coefficients.fixed_bytes > 16.0 * t(&amp).full.trainable_params as f64
    );
    let a = t(&fp32).activations_sdpa.as_ref().unwrap();
    assert_eq!(a.fixed_bytes, 0.0);
    // Persistent: 16 bytes per parameter, all of them trainable.
    let params = t(&fp32).full.trainable_params as f64;
    assert_eq!(
        t(&fp32).full.breakdown.weights
            + t(&fp32).full.breakdown.gradients
            + t(&fp32).full.breakdown.optimizer_states,
        16.0 * params
    );
}

#[test]
fn an_fp32_bert_layer_saves_every_activation_in_fp32_derived_node_by_node() {
    // bert-base: hidden 768, intermediate 3,072, 12 heads, 12 layers, post-LN, GELU (erf).
    let (h, f, heads) = (768.0, 3072.0, 12.0);
    let p = bert_base_without_dropout(options("fp32-adamw"));
    let layer_sum = |a: &training::Activations, sq: bool| -> f64 {
        a.nodes
            .iter()
            .filter(|n| n.name.starts_with("bert.encoder.layer.{i}"))
            .map(|n| if sq { n.per_token_sq_bytes } else { n.per_token_bytes })
            .sum()
    };
    // Per token, every element 4 bytes: q/k/v share one saved input (4h); SDPA keeps q, k, v and
    // its output (16h) and an fp32 log-sum-exp per head; the output projection reads SDPA's
    // output (already held); each LayerNorm keeps its fp32 input and mean and 1/std (4h + 8, two
    // of them); the intermediate projection its input (4h); GELU its input (4f); the output
    // projection GELU's output (4f).
    let sdpa = 4.0 * h + 16.0 * h + 4.0 * heads + 2.0 * (4.0 * h + 8.0) + 4.0 * h + 4.0 * f + 4.0 * f;
    assert_eq!(sdpa, 49_216.0);
    assert_eq!(layer_sum(t(&p).activations_sdpa.as_ref().unwrap(), false), sdpa);
    // Eager: q, k, v for the two matmuls (12h), the output projection's own input (4h), no
    // log-sum-exp; per score, the fp32 softmax the second matmul reads as it is (4 per head, no
    // bf16 cast).
    let eager = 4.0 * h + 12.0 * h + 4.0 * h + 2.0 * (4.0 * h + 8.0) + 4.0 * h + 4.0 * f + 4.0 * f;
    assert_eq!(layer_sum(&t(&p).activations_eager, false), eager);
    assert_eq!(layer_sum(&t(&p).activations_eager, true), 4.0 * heads);
}

#[test]
fn fp32_attention_dropout_keeps_a_mask_and_the_dropped_fp32_probabilities_per_score() {
    // bert-base-uncased sets attention_probs_dropout_prob 0.1: per score, a 1-byte mask and the
    // dropped fp32 probabilities the second matmul reads (4), 12 layers x 12 heads.
    let with = plan_id_with("google-bert/bert-base-uncased", options("fp32-adamw"));
    let without = bert_base_without_dropout(options("fp32-adamw"));
    let sq = |p: &ModelPage| t(p).activations_eager.per_token_sq_bytes;
    assert_eq!(sq(&with) - sq(&without), 12.0 * 12.0 * (1.0 + 4.0));
}

#[test]
fn an_fp32_loss_keeps_fp32_logits_and_log_softmax_with_no_upcast_copy() {
    // BertForMaskedLM at 512 tokens, vocabulary 30,522: fp32 logits (4) and the fp32
    // log-softmax (4) kept; the cross-entropy needs no cast.
    let p = plan_id_with("google-bert/bert-base-uncased", options("fp32-adamw"));
    assert_eq!(t(&p).full.breakdown.logits, 512.0 * 30_522.0 * 8.0);
    assert_eq!(t(&p).full.breakdown.loss_transient, 0.0);
    // A causal LM's `logits.float()` returns the fp32 logits themselves: no copy after 4.46,
    // and 4.46's shifted `.contiguous()` copy (4 bytes) before. Llama-2-7B, 2,048 x 32,000.
    for (version, copy) in [(Transformers::V4_46, 4.0), (Transformers::V4_57, 0.0), (Transformers::V5, 0.0)] {
        let o = training::Options { transformers: version, ..options("fp32-adamw") };
        let p = plan_id_with("meta-llama/Llama-2-7b-hf", o);
        assert_eq!(t(&p).full.breakdown.logits, 2048.0 * 32_000.0 * 8.0);
        assert_eq!(t(&p).full.breakdown.loss_transient, 2048.0 * 32_000.0 * copy, "{version:?}");
    }
}

#[test]
fn gpt2_eager_keeps_each_layers_causal_mask_buffer_before_transformers_5_only() {
    // transformers 4.x's GPT-2 attention selects the scores with each layer's registered causal
    // mask (1,024 x 1,024 bools, one byte each), which `torch.where` saves; transformers 5 builds
    // the mask once and registers none. 12 layers x 1,024 x 1,024 = 12,582,912 bytes.
    let fixed = |version| {
        let o = training::Options { transformers: version, ..Default::default() };
        t(&plan_id_with("openai-community/gpt2", o)).activations_eager.fixed_bytes
    };
    assert_eq!(fixed(Transformers::V4_57) - fixed(Transformers::V5), 12.0 * 1024.0 * 1024.0);
    assert_eq!(fixed(Transformers::V4_46), fixed(Transformers::V4_57));
}

/// `modelatlas what-if` on the validation table's BERT-large config and V100 card, as
/// `tools/validate/validation_table.py` asks it: the reserved figure in MiB.
fn bert_large_v100_reserved_mib(args: &[&str]) -> f64 {
    let dir = repo().join("tools/validate");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(repo())
        .args(["what-if"])
        .arg(dir.join("configs/bert-large-uncased-seqcls.json"))
        .args([
            "--attention",
            "eager",
            "--transformers",
            "4.57",
            "--seq",
            "512",
            "--card",
            "v100-16gb",
            "--cards",
        ])
        .arg(dir.join("cards_validation.toml"))
        .args(["--mode", "full"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["reserved_bytes"].as_f64().unwrap() / (1024.0 * 1024.0)
}

#[test]
fn bert_large_fp32_fine_tunes_at_batch_1_within_3_percent_of_the_published_v100_runs() {
    // huggingface/transformers `docs/source/en/perf_train_gpu_one.mdx` at 98513dfd ("Efficient
    // Training on a Single GPU"): BertForSequenceClassification from bert-large-uncased, 512
    // tokens, fp32, AdamW, on a V100 16 GB, nvidia-smi: 8,681 MiB at batch 1 (accumulation 4),
    // 6,775 MiB with gradient checkpointing; the same page measures the bare CUDA context at
    // 1,343 MiB, added to the plan's reserved figure as the table does.
    let context = 1343.0;
    for (args, published) in [
        (&["--recipe", "fp32-adamw", "--batch", "1"][..], 8681.0),
        (&["--recipe", "fp32-adamw", "--batch", "1", "--checkpointing"][..], 6775.0),
    ] {
        let plan = bert_large_v100_reserved_mib(args) + context;
        let error = (plan - published) / published;
        assert!(
            error.abs() < 0.03,
            "{args:?}: plan {plan:.0} MiB, published {published} MiB, {:+.1}%",
            error * 100.0
        );
    }
}
