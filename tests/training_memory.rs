//! Training memory, each figure derived by hand in the test from the config's numbers and the
//! per-node rules read off transformers 4.57.1 (see tools/validate/activations_report.md), never
//! copied from the program's output.

mod common;

use common::{plan_id, plan_text, reference_config};
use modelatlas::estimate::training::{self, Mode, NF4_BITS_PER_PARAM, RECIPES, Transformers};
use modelatlas::page::ModelPage;

fn training(p: &ModelPage) -> &training::TrainingView {
    p.training.as_ref().expect("a supported model has a training plan")
}

#[test]
fn lora_r16_on_every_linear_of_llama_2_7b_trains_39_976_960_parameters() {
    // 32 layers x (4 attention projections of r x (4096 + 4096)
    //             + gate and up of r x (4096 + 11008) + down of r x (11008 + 4096)).
    let per_layer = 4 * 16 * 8192 + 2 * 16 * 15104 + 16 * 15104;
    assert_eq!(32 * per_layer, 39_976_960);
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    assert_eq!(training(&p).lora.trainable_params, 39_976_960);
    assert_eq!(training(&p).qlora.trainable_params, 39_976_960);
}

#[test]
fn the_default_recipe_is_amp_adamw_at_16_bytes_per_parameter() {
    let r = RECIPES[0];
    assert_eq!(r.id, "amp-adamw");
    assert_eq!((r.weight_bytes, r.grad_bytes, r.state_bytes), (4.0, 4.0, 8.0));
    assert_eq!(r.bytes_per_param(), 16.0);
    let by_id = |id: &str| training::recipe(id).unwrap().bytes_per_param();
    assert_eq!(by_id("bf16-adamw-fp32-states"), 2.0 + 2.0 + 8.0);
    assert_eq!(by_id("bf16-adamw-bf16-states"), 2.0 + 2.0 + 4.0);
    assert_eq!(by_id("amp-sgd-momentum"), 4.0 + 4.0 + 4.0);
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    assert_eq!(training(&p).options.recipe.id, "amp-adamw", "the page states the default");
    assert_eq!(training(&p).recipes.len(), RECIPES.len(), "the page prints every recipe's table row");
}

#[test]
fn xlm_roberta_base_is_planned_at_its_512_usable_tokens_with_768_mb_of_logits() {
    // 514 positions, but numbering starts after the padding index 1: 512 usable tokens.
    // 512 tokens x 250,002 vocabulary x (2 bytes of bf16 logits + 4 of the fp32 log-softmax).
    let want = 512.0 * 250_002.0 * 6.0;
    assert_eq!(want, 768_006_144.0);
    let p = plan_id("FacebookAI/xlm-roberta-base");
    let t = training(&p);
    assert_eq!(t.seq_len, 512);
    assert_eq!(p.memory.as_ref().unwrap().seq_len, 512);
    assert_eq!(t.full.breakdown.logits, want);
    // ... more than the whole encoder's saved activations at that length, weight casts excluded.
    let a = t.activations_sdpa.as_ref().unwrap();
    assert!(a.per_token_bytes * 512.0 < want);
}

#[test]
fn nf4_with_double_quantisation_is_4_127_bits_per_parameter() {
    // 4 bits + an 8-bit absmax per 64 values + an fp32 second-level scale per 256 blocks.
    assert_eq!(NF4_BITS_PER_PARAM, 4.0 + 0.125 + 32.0 / 16384.0);
}

/// Llama-3.1-8B, the question: full fine-tune, AMP with fp32 master weights and AdamW,
/// batch 1, 2048 tokens, SDPA.
#[test]
fn llama_3_1_8b_full_fine_tune_at_2048_tokens_is_derived_node_by_node() {
    let p = plan_text(&reference_config("meta-llama--Llama-3.1-8B")).unwrap();
    let t = training(&p);
    let (h, f, layers, heads, kv_heads, hd, vocab) = (4096.0, 14336.0, 32.0, 32.0, 8.0, 128.0, 128_256.0);
    let (q, kv) = (heads * hd, kv_heads * hd);
    let params = 8_030_261_248.0_f64;
    assert_eq!(p.params.as_ref().unwrap().derived as f64, params);
    // Per layer and token: two RMSNorms (fp32 input, fp32 normalised, fp32 1/rms), q/k/v each
    // saving a bf16 cast of the fp32 input, SDPA's q, k, v, output and log-sum-exp, gate and up
    // each casting the input, then gate, SiLU output, up and the product (the down input).
    let norm = 8.0 * h + 4.0;
    let layer = 2.0 * norm
        + 3.0 * 2.0 * h
        + (2.0 * q + 2.0 * kv + 2.0 * kv + 2.0 * q + 4.0 * heads)
        + 2.0 * 2.0 * h
        + 4.0 * 2.0 * f;
    // Once per model: input ids, rotary cos and sin (fp32), the final norm, the head's input cast.
    let model = 8.0 + 2.0 * 4.0 * hd + norm + 2.0 * h;
    let per_token = layers * layer + model;
    // Weight casts: every linear weight in bf16, once per forward (all but the embedding and
    // the norms' vectors).
    let linear_weights = layers * (h * q + 2.0 * h * kv + q * h + 3.0 * h * f) + vocab * h;
    let acts = 2.0 * linear_weights + 2048.0 * per_token;
    assert_eq!(t.full.breakdown.activations, acts);
    // Allocated bytes: the runtime (context, workspaces, reserve) is added per card by `fit`.
    let persistent = 16.0 * params;
    let logits = 2048.0 * vocab * 6.0;
    let loss = 2048.0 * vocab * 4.0;
    assert_eq!(t.full.peak_bytes, persistent + acts + logits + loss);
    assert_eq!(t.full.peak_phase, "logits and loss");
    // For the record: about 151 GiB.
    let gib = t.full.peak_bytes / (1u64 << 30) as f64;
    assert!((150.0..152.0).contains(&gib), "{gib}");
}

#[test]
fn the_peak_is_the_largest_phase_not_the_sum() {
    let p = plan_text(&reference_config("meta-llama--Llama-3.1-8B")).unwrap();
    let (g, dims) = (p.structure.as_ref().unwrap(), p.config.as_ref().unwrap());
    // Under transformers 4.46 the Trainer's AdamW is the foreach one. Pure bf16 with fp32 Adam
    // states: 12 bytes per parameter persist; the step's fp32 temporary (4 bytes per parameter,
    // 32 GB) outweighs bf16 activations plus logits at 2048 tokens.
    let opts = training::Options { transformers: Transformers::V4_46, ..Default::default() };
    let t = training::view(g, dims, "llama", 2048, opts);
    let row = t.recipes.iter().find(|r| r.id == "bf16-adamw-fp32-states").unwrap();
    assert_eq!(row.full_peak_phase, "optimizer step");
    assert_eq!(row.full_peak_bytes, 16.0 * 8_030_261_248.0);
    let m = &t.full;
    let sum = m.breakdown.weights
        + m.breakdown.gradients
        + m.breakdown.optimizer_states
        + m.breakdown.activations
        + m.breakdown.logits
        + m.breakdown.loss_transient
        + m.breakdown.step_transient;
    assert!(m.peak_bytes < sum, "the step's temporary and the activations never coexist");
}

#[test]
fn gradient_checkpointing_keeps_layer_inputs_and_one_layer() {
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    let t = training(&p);
    let g = p.structure.as_ref().unwrap();
    let dims = p.config.as_ref().unwrap();
    let on = training::Options { checkpointing: true, ..Default::default() };
    let ck = training::mode(g, dims, "llama", &on, Mode::Full, 2048);
    let a = t.activations_sdpa.as_ref().unwrap();
    let layer: f64 =
        a.nodes.iter().filter(|n| n.name.starts_with("model.layers.{i}")).map(|n| n.per_token_bytes).sum();
    let outside: f64 =
        a.nodes.iter().filter(|n| !n.name.starts_with("model.layers.{i}")).map(|n| n.per_token_bytes).sum();
    // 32 layer inputs (fp32 residual stream) + one layer + everything outside the layers.
    let want = a.fixed_bytes + 2048.0 * (32.0 * 4.0 * 4096.0 + layer + outside);
    assert_eq!(ck.breakdown.activations, want);
    // The weight casts stay (autocast caches them for the whole forward); the per-token part
    // drops by more than half.
    assert!(ck.breakdown.activations - a.fixed_bytes < (t.full.breakdown.activations - a.fixed_bytes) / 2.0);
}

#[test]
fn gradient_checkpointing_recomputes_the_largest_single_layer_when_layers_differ() {
    // GLM-4.7-Flash (published config.json): 47 layers of width 2048, the first dense
    // (`first_k_dense_replace` 1), the other 46 mixtures of experts. Checkpointing keeps each
    // layer's input (the fp32 residual stream, 4 bytes) and recomputes one layer at a time, so the
    // per-token activations are: 47 inputs + the largest one layer + everything outside the layers.
    let p = plan_id("zai-org/GLM-4.7-Flash");
    let t = training(&p);
    let g = p.structure.as_ref().unwrap();
    let dims = p.config.as_ref().unwrap();
    let on = training::Options { checkpointing: true, ..Default::default() };
    let ck = training::mode(g, dims, "glm4_moe_lite", &on, Mode::Full, 2048);
    let a = t.activations_sdpa.as_ref().unwrap();
    // Each node's layer, read from its name: `model.layers.<k>.` or the folded `model.layers.{i}.`.
    let layer_of =
        |name: &str| name.strip_prefix("model.layers.").and_then(|r| r.split('.').next()).map(str::to_owned);
    let mut per_layer: std::collections::BTreeMap<String, f64> = Default::default();
    let mut outside = 0.0;
    for n in &a.nodes {
        match layer_of(&n.name) {
            Some(k) => *per_layer.entry(k).or_default() += n.per_token_bytes,
            None => outside += n.repeat as f64 * n.per_token_bytes,
        }
    }
    let largest = per_layer.values().cloned().fold(0.0, f64::max);
    let want = a.fixed_bytes + 2048.0 * (47.0 * 4.0 * 2048.0 + largest + outside);
    // Layer 3 is one layer: a name test that let it claim layers 30 to 39 counted eleven.
    assert_eq!(ck.breakdown.activations, want);
}

#[test]
fn t5_runs_eager_attention_before_transformers_5_and_sdpa_in_5() {
    let p = plan_id("google-t5/t5-small");
    let (g, dims) = (p.structure.as_ref().unwrap(), p.config.as_ref().unwrap());
    // t5-small's config: dropout_rate 0.1, on the hidden states and the attention probabilities.
    let dropout = modelatlas::plan::dropout(&serde_json::json!({"dropout_rate": 0.1}));
    let opts = |v| training::Options { transformers: v, dropout: dropout.clone(), ..Default::default() };
    let old = training::view(g, dims, "t5", 512, opts(Transformers::V4_57));
    assert!(old.activations_sdpa.is_none());
    assert_eq!(old.options.attention, training::AttentionImpl::Eager);
    // 6 encoder self-attentions, 6 decoder self- and 6 cross-attentions: 8 heads x (4 + 2) bytes
    // each (the fp32 softmax and its bf16 cast), plus the probabilities' dropout mask (1 byte;
    // the matmul keeps the bf16 cast of the dropped probabilities instead of the softmax's cast),
    // plus the int64 relative-position buckets of each stack (8 bytes).
    assert_eq!(old.activations_eager.per_token_sq_bytes, 18.0 * 8.0 * (6.0 + 1.0) + 2.0 * 8.0);
    // transformers 5: SDPA. No score matrix per layer; what grows with the square is each
    // stack's position bias plus the mask, SDPA's attention bias (fp32 under autocast): the
    // encoder's, the decoder's self- and cross-attention's, 8 heads x 4 bytes each, and the buckets.
    let new = training::view(g, dims, "t5", 512, opts(Transformers::V5));
    assert_eq!(new.options.attention, training::AttentionImpl::Sdpa);
    assert_eq!(new.activations_sdpa.as_ref().unwrap().per_token_sq_bytes, 3.0 * 8.0 * 4.0 + 2.0 * 8.0);
    // The default is the current release.
    assert_eq!(training(&p).options.transformers, Transformers::V5);
}

#[test]
fn mixtral_counts_only_the_routed_tokens_of_each_expert() {
    let p = plan_id("mistralai/Mixtral-8x7B-v0.1");
    let t = training(&p);
    let a = t.activations_sdpa.as_ref().unwrap();
    // w1 for 2 of 8 experts per token: each slot casts the input (2 x 4096) and keeps gate, SiLU
    // output and up (3 x 2 x 14336).
    let w1 = a.nodes.iter().find(|n| n.name.ends_with("experts.{e}.w1")).unwrap();
    assert_eq!(w1.per_token_bytes, 2.0 * (2.0 * 4096.0 + 6.0 * 14336.0));
}

#[test]
fn every_supported_reference_page_states_its_assumptions_and_overhead() {
    for id in
        ["FacebookAI/xlm-roberta-base", "google-t5/t5-small", "facebook/bart-large", "milandean/gemma-7b"]
    {
        let p = plan_id(id);
        let t = training(&p);
        assert!(t.assumptions.iter().any(|a| a.contains("torch.cuda.max_memory_allocated")), "{id}");
        assert!(t.assumptions.iter().any(|a| a.contains("transformers 5.x assumed")), "{id}");
        assert!(t.full.peak_bytes > 0.0 && t.lora.peak_bytes < t.full.peak_bytes, "{id}");
        assert!(t.qlora.peak_bytes < t.lora.peak_bytes, "{id}");
    }
}

#[test]
fn lora_over_a_frozen_bf16_base_saves_bf16_activations_and_no_weight_casts() {
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    let t = training(&p);
    let (h, f, layers, heads, hd, r) = (4096.0, 11008.0, 32.0, 32.0, 128.0, 16.0);
    let q = heads * hd; // no grouped heads in Llama-2-7B
    // Per layer and token, in bf16: each RMSNorm keeps an fp32 copy of its input and the fp32
    // 1/rms (4h + 4; its frozen scale needs nothing else); q, k and v's adapters share one saved input
    // (2h); SDPA keeps q, k, v, the output (which o_proj's adapter reuses) and the log-sum-exp;
    // gate and up's adapters share one input (2h); the MLP keeps gate, SiLU output and up (6f)
    // and the product for down's adapter (2f); each of the 7 adapters' B keeps A's output (2r).
    let layer = 2.0 * (4.0 * h + 4.0)
        + 2.0 * h
        + (2.0 * q + 4.0 * q + 2.0 * q + 4.0 * heads)
        + 2.0 * h
        + 6.0 * f
        + 2.0 * f
        + 7.0 * 2.0 * r;
    // Once: input ids, bf16 rotary cos and sin, the final norm; the frozen head keeps nothing.
    let model = 8.0 + 2.0 * 2.0 * hd + (4.0 * h + 4.0);
    // Under autocast the fp32 adapters' weights are saved as bf16 casts, once per forward.
    let adapter_casts = 2.0 * 39_976_960.0;
    // The first layer's first norm saves nothing: no gradient flows back past the first adapter.
    let first_norm = 4.0 * h + 4.0;
    assert_eq!(t.lora.breakdown.activations, adapter_casts + 2048.0 * (layers * layer + model - first_norm));
    // The frozen base is 2 bytes per parameter; the adapters 16 under the default recipe.
    let base = 2.0 * 6_738_415_616.0;
    assert_eq!(t.lora.breakdown.weights, base + 4.0 * 39_976_960.0);
    assert_eq!(t.lora.breakdown.optimizer_states, 8.0 * 39_976_960.0);
}

#[test]
fn eager_attention_keeps_the_fp32_softmax_and_its_bf16_cast_per_layer() {
    let p = plan_text(&reference_config("meta-llama--Llama-3.1-8B")).unwrap();
    let t = training(&p);
    // SDPA keeps no score matrix; eager keeps (4 + 2) bytes x 32 heads x seq per token, per layer.
    assert_eq!(t.activations_sdpa.as_ref().unwrap().per_token_sq_bytes, 0.0);
    assert_eq!(t.activations_eager.per_token_sq_bytes, 32.0 * 6.0 * 32.0);
}

#[test]
fn lora_targets_that_match_nothing_train_nothing_and_still_plan() {
    let p = plan_id("meta-llama/Llama-2-7b-hf");
    let g = p.structure.as_ref().unwrap();
    let dims = p.config.as_ref().unwrap();
    let none = training::Options { lora_targets: vec!["no_such_module".into()], ..Default::default() };
    let m = training::mode(g, dims, "llama", &none, Mode::Lora, 2048);
    assert_eq!(m.trainable_params, 0);
    assert!(m.peak_bytes.is_finite() && m.peak_bytes > 0.0);
    // Only q and v adapted: 32 x 2 x 16 x (4096 + 4096).
    let qv = training::Options { lora_targets: vec!["q_proj".into(), "v_proj".into()], ..Default::default() };
    let m = training::mode(g, dims, "llama", &qv, Mode::Lora, 2048);
    assert_eq!(m.trainable_params, 32 * 2 * 16 * 8192);
}
