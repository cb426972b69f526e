//! Memory as a GPU measures it (issue 12): each finding's figure derived here from the config's
//! numbers and the rule written out beside it, never copied from the program's output.

mod common;

use common::{plan_id, plan_text, repo, snapshot};
use modelatlas::estimate::fit::what_if;
use modelatlas::estimate::training::{self, Transformers};
use modelatlas::model_id::ModelId;
use modelatlas::page::ModelPage;
use modelatlas::plan::{PlanOptions, plan_with};
use modelatlas::source::ModelSource;

const MIB: f64 = 1024.0 * 1024.0;

/// A snapshot config with some keys replaced (the snapshot is inside the repository).
fn hub_config_with(org_name: &str, patch: serde_json::Value) -> String {
    let snaps = repo().join("hub").join(format!("models--{}", org_name.replace('/', "--"))).join("snapshots");
    let dir = std::fs::read_dir(&snaps).unwrap().next().unwrap().unwrap().path();
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json")).unwrap()).unwrap();
    for (k, val) in patch.as_object().unwrap() {
        v[k] = val.clone();
    }
    v.to_string()
}

fn plan_id_with(id: &str, training: training::Options) -> ModelPage {
    let id = ModelId::parse(id).unwrap();
    let files = snapshot().load(&id).unwrap();
    let opts = PlanOptions { training, ..PlanOptions::default() };
    plan_with(&files, None, &opts).unwrap()
}

fn with_recipe(id: &str) -> training::Options {
    training::Options { recipe: training::recipe(id).unwrap(), ..Default::default() }
}

fn t(p: &ModelPage) -> &training::TrainingView {
    p.training.as_ref().unwrap()
}

// --- Sliding windows in the exported formula (the calculator, what-if and the fit) -----------

#[test]
fn mistral_7b_serving_at_32768_tokens_keeps_only_its_4096_token_window_of_kv() {
    let p = plan_id("mistralai/Mistral-7B-v0.1");
    let fit = p.fit.as_ref().unwrap();
    let w = what_if(fit, "serve", "h100-80gb", 1, 32_768).unwrap();
    // bf16 weights: 7,241,732,096 parameters x 2 bytes.
    let weights = 2.0 * 7_241_732_096.0;
    // 32 layers x (8 KV heads x 128 x 2 for keys and values) x 2 bytes = 131,072 bytes per token,
    // every layer windowed at 4,096 tokens: 536,870,912 bytes (0.537 GB), not 4.29 GB.
    assert_eq!(w.allocated_bytes - weights, 4096.0 * 131_072.0);
    assert_eq!(p.serving.as_ref().unwrap().kv.as_ref().unwrap().bytes_at_context_bf16, 4096 * 131_072);
    // The fit's sweep at 32,768 on the H100 uses the same figure: (0.95 x 80 GB - the runtime -
    // 1.05 x weights) / (1.05 x 0.537 GB) sequences.
    let i = fit.sweep_seqs.iter().position(|s| *s == 32_768).unwrap();
    let h100 = fit.cards.iter().find(|c| c.card == "h100-80gb").unwrap();
    let room = 0.95 * 80e9 - (1.05 * weights + 32.0 * MIB + 520.0 * MIB);
    let want = (room / (1.05 * 4096.0 * 131_072.0)).floor() as u64;
    assert_eq!(h100.modes.iter().find(|m| m.mode == "serve").unwrap().sweep[i], want);
}

#[test]
fn gemma_2_9b_at_8192_tokens_caches_2_11_gb_with_half_its_layers_windowed() {
    // google/gemma-2-9b's published config.json (the keys the planner reads).
    let config = r#"{"architectures": ["Gemma2ForCausalLM"], "model_type": "gemma2",
        "hidden_size": 3584, "intermediate_size": 14336, "num_hidden_layers": 42,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 256,
        "vocab_size": 256000, "max_position_embeddings": 8192, "sliding_window": 4096,
        "query_pre_attn_scalar": 256, "final_logit_softcapping": 30.0,
        "attn_logit_softcapping": 50.0, "hidden_activation": "gelu_pytorch_tanh",
        "rms_norm_eps": 1e-06, "tie_word_embeddings": true, "pad_token_id": 0}"#;
    let p = plan_text(config).unwrap();
    let fit = p.fit.as_ref().unwrap();
    let w = what_if(fit, "serve", "a100-80gb", 1, 8192).unwrap();
    let weights = 2.0 * p.params.as_ref().unwrap().derived as f64;
    // Per layer and token: 8 KV heads x 256 x 2 (keys, values) x 2 bytes = 8,192 bytes. 21 global
    // layers keep 8,192 tokens, 21 sliding layers 4,096: 8,192 x 21 x 12,288 = 2,113,929,216
    // bytes (2.11 GB), not 42 x 8,192 x 8,192 = 2.82 GB.
    assert_eq!(w.allocated_bytes - weights, 8192.0 * 21.0 * 12_288.0);
}

// --- Classification heads ----------------------------------------------------------------------

#[test]
fn a_sequence_classifier_pays_for_its_labels_per_sample_not_a_vocabulary_per_token() {
    let config = hub_config_with(
        "google-bert/bert-base-uncased",
        serde_json::json!({"architectures": ["BertForSequenceClassification"]}),
    );
    let p = plan_text(&config).unwrap();
    let tr = t(&p);
    // Two labels (the default): bf16 logits and the fp32 log-softmax, (2 + 4) x 2 bytes per
    // sample; the fp32 cast while the loss runs, 4 x 2. No 6 x 30,522 bytes per token.
    assert_eq!(tr.full.breakdown.logits, 12.0);
    assert_eq!(tr.full.breakdown.loss_transient, 8.0);
    // The pooler and the classifier read the first token: bytes per sample, none per token.
    let a = tr.activations_sdpa.as_ref().unwrap();
    for name in ["bert.pooler.dense", "classifier"] {
        let n = a.nodes.iter().find(|n| n.name == name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(n.per_token_bytes, 0.0, "{name}");
        // Its bf16 input cast: 2 x 768 (the pooler also keeps its tanh's input, 2 x 768).
        assert_eq!(
            n.per_sample_bytes,
            if name == "classifier" { 2.0 * 768.0 } else { 4.0 * 768.0 },
            "{name}"
        );
    }
}

#[test]
fn a_bare_encoder_has_no_head_and_computes_no_loss() {
    let p = plan_id("sentence-transformers/all-MiniLM-L6-v2");
    assert_eq!(t(&p).full.breakdown.logits, 0.0);
    assert_eq!(t(&p).full.breakdown.loss_transient, 0.0);
}

// --- Dropout -------------------------------------------------------------------------------------

#[test]
fn bert_base_dropout_keeps_a_one_byte_mask_per_element_at_each_site() {
    // bert-base-uncased: hidden_dropout_prob 0.1, attention_probs_dropout_prob 0.1.
    let with = plan_id("google-bert/bert-base-uncased");
    let without = plan_text(&hub_config_with(
        "google-bert/bert-base-uncased",
        serde_json::json!({"hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0}),
    ))
    .unwrap();
    let (a, b) = (t(&with), t(&without));
    assert_eq!(a.options.dropout.hidden, 0.1);
    // Per token: 12 layers x 2 sites (attention output, feed-forward output) x 768 + the
    // embeddings' 768, one byte each = 19,200 bytes.
    let sdpa = |v: &training::TrainingView| v.activations_sdpa.as_ref().unwrap().per_token_bytes;
    assert_eq!(sdpa(a) - sdpa(b), 12.0 * 2.0 * 768.0 + 768.0);
    // Eager attention: a 1-byte mask per score, 12 layers x 12 heads (the fp32 softmax stays
    // saved; the matmul keeps the bf16 cast of the dropped probabilities instead of the softmax's).
    assert_eq!(a.activations_eager.per_token_sq_bytes - b.activations_eager.per_token_sq_bytes, 144.0);
}

#[test]
fn gpt2_resid_and_embedding_dropout_add_masks_per_layer() {
    let with = plan_id("openai-community/gpt2");
    let without = plan_text(&hub_config_with(
        "openai-community/gpt2",
        serde_json::json!({"resid_pdrop": 0.0, "embd_pdrop": 0.0, "attn_pdrop": 0.0}),
    ))
    .unwrap();
    let sdpa = |p: &ModelPage| t(p).activations_sdpa.as_ref().unwrap().per_token_bytes;
    // 12 layers x 2 residual dropouts x 768 + the embedding dropout's 768.
    assert_eq!(sdpa(&with) - sdpa(&without), 12.0 * 2.0 * 768.0 + 768.0);
}

#[test]
fn a_dropout_that_is_not_a_probability_counts_as_none() {
    let d = modelatlas::plan::dropout(&serde_json::json!({"hidden_dropout_prob": "x", "attn_pdrop": 1.5}));
    assert_eq!((d.hidden, d.attention), (0.0, 0.0));
}

// --- Losses --------------------------------------------------------------------------------------

#[test]
fn under_pure_bf16_mlm_and_t5_keep_a_bf16_log_softmax_and_causal_lms_upcast() {
    // BertForMaskedLM at 512 tokens, vocabulary 30,522: bf16 logits + bf16 log-softmax, no fp32
    // copy (the MLM loss calls the cross-entropy on the logits as they are).
    let p = plan_id_with("google-bert/bert-base-uncased", with_recipe("bf16-adamw-fp32-states"));
    assert_eq!(t(&p).full.breakdown.logits, 512.0 * 30_522.0 * 4.0);
    assert_eq!(t(&p).full.breakdown.loss_transient, 0.0);
    // T5 at 512 tokens, vocabulary 32,128: the same.
    let p = plan_id_with("google-t5/t5-small", with_recipe("bf16-adamw-fp32-states"));
    assert_eq!(t(&p).full.breakdown.logits, 512.0 * 32_128.0 * 4.0);
    // Under autocast the cross-entropy runs in fp32: (2 + 4) kept, 4 while the loss runs.
    let p = plan_id("google-bert/bert-base-uncased");
    assert_eq!(t(&p).full.breakdown.logits, 512.0 * 30_522.0 * 6.0);
    assert_eq!(t(&p).full.breakdown.loss_transient, 512.0 * 30_522.0 * 4.0);
    // A causal LM's loss upcasts explicitly, pure bf16 or not: Llama-2-7B, 2,048 x 32,000.
    let p = plan_id_with("meta-llama/Llama-2-7b-hf", with_recipe("bf16-adamw-fp32-states"));
    assert_eq!(t(&p).full.breakdown.logits, 2048.0 * 32_000.0 * 6.0);
    assert_eq!(t(&p).full.breakdown.loss_transient, 2048.0 * 32_000.0 * 4.0);
}

#[test]
fn transformers_4_46_copies_the_shifted_fp32_logits_and_later_releases_shift_the_labels() {
    let v = |tv| training::Options { transformers: tv, ..Default::default() };
    // Llama-2-7B at 2,048 tokens, vocabulary 32,000: the fp32 upcast (4 bytes) and, in 4.46,
    // its shifted `.contiguous()` copy (4 more).
    let old = plan_id_with("meta-llama/Llama-2-7b-hf", v(Transformers::V4_46));
    assert_eq!(t(&old).full.breakdown.loss_transient, 2048.0 * 32_000.0 * 8.0);
    for tv in [Transformers::V4_57, Transformers::V5] {
        let p = plan_id_with("meta-llama/Llama-2-7b-hf", v(tv));
        assert_eq!(t(&p).full.breakdown.loss_transient, 2048.0 * 32_000.0 * 4.0);
    }
}

// --- Qwen3's q/k norms ---------------------------------------------------------------------------

#[test]
fn qwen3_q_and_k_norms_save_an_fp32_inverse_rms_per_head() {
    let p = plan_id("Qwen/Qwen3-8B");
    let a = t(&p).activations_sdpa.as_ref().unwrap();
    let node = |suffix: &str| a.nodes.iter().find(|n| n.name.ends_with(suffix)).unwrap().per_token_bytes;
    // Under autocast: fp32 input and normalised (8 bytes per value) and an fp32 1/rms per head:
    // 32 query heads x 128, 8 key heads x 128.
    assert_eq!(node("q_norm"), 8.0 * 4096.0 + 4.0 * 32.0);
    assert_eq!(node("k_norm"), 8.0 * 1024.0 + 4.0 * 8.0);
}

// --- The optimizer step --------------------------------------------------------------------------

#[test]
fn the_fused_adamw_step_has_no_temporary_and_foreach_has_four_bytes_per_parameter() {
    let params = 6_738_415_616.0;
    let v = |tv| training::Options { transformers: tv, ..Default::default() };
    let old = plan_id_with("meta-llama/Llama-2-7b-hf", v(Transformers::V4_46));
    assert_eq!(t(&old).full.breakdown.step_transient, 4.0 * params);
    let new = plan_id_with("meta-llama/Llama-2-7b-hf", v(Transformers::V4_57));
    assert_eq!(t(&new).full.breakdown.step_transient, 0.0);
}

// --- The runtime: allocated, reserved, nvidia-smi ------------------------------------------------

#[test]
fn what_if_gives_allocated_reserved_and_nvidia_smi_and_the_verdict_uses_nvidia_smi() {
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    let fit = p.fit.as_ref().unwrap();
    for (card, ws, ctx) in [("a100-80gb", 8_519_680.0, 430.0 * MIB), ("h100-80gb", 33_554_432.0, 520.0 * MIB)]
    {
        let w = what_if(fit, "lora", card, 2, 1024).unwrap();
        // reserved = allocated x 1.05 + two workspaces (forward and backward threads).
        assert!((w.reserved_bytes - (w.allocated_bytes * 1.05 + 2.0 * ws)).abs() < 1.0, "{card}");
        assert!((w.peak_bytes - (w.reserved_bytes + ctx)).abs() < 1.0, "{card}");
        assert!((w.share - w.peak_bytes / 80e9).abs() < 1e-12);
        // The fit table's batch-1 figure is the same formula at the plan's length.
        let row = fit.cards.iter().find(|c| c.card == card).unwrap();
        let b1 = what_if(fit, "lora", card, 1, fit.seq_len).unwrap();
        let cm = row.modes.iter().find(|m| m.mode == "lora").unwrap();
        assert!((cm.batch1_nvidia_smi_bytes - b1.peak_bytes).abs() < 1.0, "{card}");
    }
    // Serving holds one workspace.
    let s = what_if(fit, "serve", "a100-80gb", 1, 1024).unwrap();
    assert!((s.reserved_bytes - (s.allocated_bytes * 1.05 + 8_519_680.0)).abs() < 1.0);
}

#[test]
fn every_page_says_which_figure_it_predicts_and_the_transformers_release() {
    let p = plan_id("Qwen/Qwen2.5-0.5B");
    let tr = t(&p);
    assert!(tr.figure.contains("torch.cuda.max_memory_allocated"));
    assert!(p.fit.as_ref().unwrap().runtime_rule.contains("nvidia-smi"));
    assert!(tr.assumptions.iter().any(|a| a.starts_with("transformers 5.x assumed")));
}

// --- Sequence lengths ----------------------------------------------------------------------------

#[test]
fn a_vit_is_planned_at_every_patch_even_beyond_2048_tokens() {
    // 1,024-pixel images in 16-pixel patches: 64 x 64 = 4,096 patches + the class token.
    let config = r#"{"architectures": ["ViTForImageClassification"], "model_type": "vit",
        "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
        "intermediate_size": 3072, "image_size": 1024, "patch_size": 16, "num_channels": 3}"#;
    let p = plan_text(config).unwrap();
    assert_eq!(p.memory.as_ref().unwrap().seq_len, 4097);
    assert_eq!(t(&p).seq_len, 4097);
}

#[test]
fn roberta_is_planned_at_its_512_usable_positions_not_514() {
    let p = plan_id("FacebookAI/roberta-base");
    assert_eq!(p.memory.as_ref().unwrap().seq_len, 512);
    assert!(p.memory.as_ref().unwrap().seq_len_reason.contains("512 usable"));
}

// --- The published validation table ----------------------------------------------------------

#[test]
fn the_method_page_carries_the_validation_table_as_tools_validate_has_it() {
    let table = std::fs::read_to_string(repo().join("tools/validate/validation_table.md")).unwrap();
    let method = std::fs::read_to_string(repo().join("templates/method.md.j2")).unwrap();
    assert!(method.contains(table.trim()), "regenerate both with tools/validate/validation_table.py");
    // Every row names its source, its measured figure and which figure it is, and either the
    // plan's figure with the error or why it cannot be matched.
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| #")).collect();
    assert_eq!(rows.len(), 22);
    for r in &rows {
        assert!(r.contains(" at ") && (r.contains('%') || r.contains("cannot be matched")), "{r}");
    }
    assert!(table.contains("median error"));
}
