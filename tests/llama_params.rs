//! Parameter counts of the Llama lineage and its mixtures of experts, each written out by hand
//! from the config's numbers (or the config class's defaults, transformers 4.57.1), and checked
//! against the published checkpoint where tests/fixtures/reference/checkpoints.tsv has one.

mod common;

use common::{plan_id, plan_text, published_counts, reference_config_with};
use modelatlas::config::llama::DecoderConfig;
use modelatlas::config::{ConfigError, parse};
use modelatlas::estimate::reconcile::{Method, Status};
use modelatlas::page::ModelPage;
use serde_json::json;

/// q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h), with the biases the family has.
fn attention(h: u64, heads: u64, kv: u64, hd: u64, qkv_bias: bool, o_bias: bool) -> u64 {
    let weights = h * heads * hd + 2 * h * kv * hd + heads * hd * h;
    let qkv_b = if qkv_bias { heads * hd + 2 * kv * hd } else { 0 };
    let o_b = if o_bias { h } else { 0 };
    weights + qkv_b + o_b
}

/// gate and up (h x ffn each), down (ffn x h).
fn gated_mlp(h: u64, ffn: u64) -> u64 {
    3 * h * ffn
}

/// A pre-norm layer: RMSNorm weights (h each) before attention and before the MLP.
fn llama_layer(h: u64, heads: u64, kv: u64, hd: u64, ffn: u64) -> u64 {
    attention(h, heads, kv, hd, false, false) + gated_mlp(h, ffn) + 2 * h
}

/// Token embeddings plus the final RMSNorm.
fn embeddings_and_norm(vocab: u64, h: u64) -> u64 {
    vocab * h + h
}

fn lm_head(vocab: u64, h: u64) -> u64 {
    vocab * h
}

fn params(page: &ModelPage) -> &modelatlas::page::ParamsView {
    page.params.as_ref().unwrap()
}

fn tensor_names(page: &ModelPage) -> Vec<String> {
    page.structure.as_ref().unwrap().tensors().map(|(n, _)| n).collect()
}

fn resolve(text: &str) -> Result<DecoderConfig, ConfigError> {
    let (common, value) = parse(text)?;
    DecoderConfig::resolve(&value, &common)
}

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

// ---------------------------------------------------------------- llama

#[test]
fn llama_2_7b_is_6_738_415_616_and_its_checkpoint_adds_the_rotary_buffers() {
    // vocab 32000, hidden 4096, 32 layers of 32 heads x 128 (no GQA), ffn 11008, untied.
    let layer = llama_layer(4096, 32, 32, 128, 11008);
    assert_eq!(layer, 202_383_360);
    let expected = embeddings_and_norm(32000, 4096) + 32 * layer + lm_head(32000, 4096);
    assert_eq!(expected, 6_738_415_616);

    let p = plan_id("meta-llama/Llama-2-7b-hf");
    let p = params(&p);
    assert_eq!(p.derived, expected);
    let published = published_counts()["meta-llama/Llama-2-7b-hf"];
    assert_eq!(published, 6_738_417_664);
    // 32 layers x inv_freq[head_dim / 2 = 64].
    assert_eq!(published - expected, 32 * 64);
    let r = &p.reconciliation;
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.method, Some(Method::Inferred));
    assert_eq!(r.items.len(), 1);
    assert_eq!(r.items[0].label, "rotary inv_freq buffers");
    assert_eq!(r.items[0].scalars, 2048);
    // One buffer per layer, 0 to 31, listed as one pattern.
    assert_eq!(r.items[0].tensors, ["model.layers.{0..31}.self_attn.rotary_emb.inv_freq"]);
    assert_eq!(r.items[0].count, 32);
}

#[test]
fn the_nousresearch_mirror_index_names_the_32_inv_freq_buffers() {
    let expected =
        embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 32, 128, 11008) + lm_head(32000, 4096);
    let page = plan_id("NousResearch/Llama-2-7b-hf");
    let p = params(&page);
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["NousResearch/Llama-2-7b-hf"] - expected, 2048);
    let r = &p.reconciliation;
    assert_eq!(r.method, Some(Method::IndexNames), "the snapshot carries the index's tensor names");
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.unexplained, Some(0));
    assert_eq!(r.items.len(), 1, "{:?}", r.items);
    assert_eq!(r.items[0].count, 32);
    assert_eq!(r.items[0].tensors, ["model.layers.{0..31}.self_attn.rotary_emb.inv_freq"]);
    assert_eq!(r.items[0].scalars, 32 * 64);
    // Every other tensor of the index is a tensor of the class, by name.
    let names = tensor_names(&page);
    for n in [
        "model.embed_tokens.weight",
        "model.layers.31.mlp.down_proj.weight",
        "model.norm.weight",
        "lm_head.weight",
    ] {
        assert!(names.iter().any(|x| x == n), "{n}");
    }
}

#[test]
fn llama_3_1_8b_uses_eight_key_value_heads_and_equals_its_checkpoint() {
    // Not carried in the snapshot: rebuilt from its published dimensions (tests/common).
    let config = reference_config_with("meta-llama--Llama-3.1-8B", json!({}));
    // vocab 128256, hidden 4096, 32 layers, 32 query heads over 8 KV heads of 128, ffn 14336.
    let layer = llama_layer(4096, 32, 8, 128, 14336);
    assert_eq!(attention(4096, 32, 8, 128, false, false), 41_943_040);
    let expected = embeddings_and_norm(128_256, 4096) + 32 * layer + lm_head(128_256, 4096);
    assert_eq!(expected, 8_030_261_248);
    let page = plan_text(&config).unwrap();
    assert_eq!(params(&page).derived, expected);
    assert_eq!(published_counts()["meta-llama/Llama-3.1-8B"], expected);
    let dims = page.config.as_ref().unwrap();
    assert_eq!((dims.num_heads, dims.num_kv_heads, dims.head_dim), (32, 8, 128));
    assert_eq!(dims.usable_context, 131_072);
    // rope_scaling carries no parameter, but is kept in the resolved config.
    let c = resolve(&config).unwrap();
    assert_eq!(c.rope_scaling.as_ref().unwrap()["rope_type"], "llama3");
}

#[test]
fn llama_2_70b_differs_from_its_checkpoint_by_80_inv_freq_buffers() {
    let config = reference_config_with("meta-llama--Llama-2-70b-hf", json!({}));
    // hidden 8192, 80 layers, 64 heads over 8 KV heads of 128, ffn 28672.
    let expected =
        embeddings_and_norm(32000, 8192) + 80 * llama_layer(8192, 64, 8, 128, 28672) + lm_head(32000, 8192);
    assert_eq!(expected, 68_976_648_192);
    assert_eq!(plan_text(&config).unwrap().params.unwrap().derived, expected);
    assert_eq!(published_counts()["meta-llama/Llama-2-70b-hf"] - expected, 80 * 64);
}

#[test]
fn the_default_llama_config_is_a_7b_llama_model_without_the_lm_head() {
    // LlamaConfig(): vocab 32000, hidden 4096, ffn 11008, 32 layers, 32 heads, KV heads = heads,
    // tie_word_embeddings false; no architectures: LlamaModel.
    let expected = embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 32, 128, 11008);
    let page = plan_text(r#"{"model_type": "llama"}"#).unwrap();
    assert_eq!(page.architecture.as_deref(), Some("LlamaModel"));
    assert_eq!(params(&page).derived, expected);
    assert!(tensor_names(&page).contains(&"layers.0.self_attn.q_proj.weight".to_string()));
    assert!(page.defaulted.iter().any(|d| d.field == "num_key_value_heads" && d.value == "32"));
    assert_eq!(page.config.as_ref().unwrap().pad_token_id, None);
}

#[test]
fn llama_heads_and_biases_are_sized_from_the_config() {
    let base = embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 32, 128, 11008);
    let cfg = |patch: serde_json::Value| reference_config_with("meta-llama--Llama-2-7b-hf", patch);
    // Sequence classification: score (labels x h), no bias; the LM head is dropped.
    let seq = plan_text(&cfg(json!({"architectures": ["LlamaForSequenceClassification"], "id2label": {"0": "a", "1": "b", "2": "c"}}))).unwrap();
    assert_eq!(params(&seq).derived, base + 3 * 4096);
    assert!(tensor_names(&seq).contains(&"score.weight".to_string()));
    // A checkpoint saved from the causal-LM class carries the untied LM head this class drops.
    let c = resolve(&cfg(json!({"architectures": ["LlamaForSequenceClassification"]}))).unwrap();
    let candidates = modelatlas::graph::Architecture::checkpoint_candidates(&c);
    let head = candidates.iter().find(|c| c.label == "causal-LM head").unwrap();
    assert_eq!(head.signed_scalars(), (32000 * 4096) as i64);
    // Token classification: score with a bias.
    assert_eq!(
        derived(
            serde_json::from_str(&cfg(
                json!({"architectures": ["LlamaForTokenClassification"], "num_labels": 5})
            ))
            .unwrap()
        ),
        base + 5 * 4096 + 5
    );
    // Question answering keeps the decoder under `transformer.` (backward compatibility).
    let qa = plan_text(&cfg(json!({"architectures": ["LlamaForQuestionAnswering"]}))).unwrap();
    assert_eq!(params(&qa).derived, base + 2 * 4096 + 2);
    assert!(tensor_names(&qa).contains(&"transformer.layers.0.self_attn.q_proj.weight".to_string()));
    // attention_bias on q, k, v and o; mlp_bias on gate, up and down.
    let biased = cfg(json!({"attention_bias": true, "mlp_bias": true}));
    let biases = 32 * ((3 * 4096 + 4096) + (2 * 11008 + 4096));
    assert_eq!(derived(serde_json::from_str(&biased).unwrap()), base + lm_head(32000, 4096) + biases);
    // An explicit head_dim decouples the heads from the hidden size.
    let hd = cfg(json!({"head_dim": 64}));
    let expected = embeddings_and_norm(32000, 4096)
        + 32 * (attention(4096, 32, 32, 64, false, false) + gated_mlp(4096, 11008) + 2 * 4096)
        + lm_head(32000, 4096);
    assert_eq!(derived(serde_json::from_str(&hd).unwrap()), expected);
}

#[test]
fn bad_llama_configs_name_the_field() {
    for (text, field) in [
        (r#"{"model_type": "llama", "num_attention_heads": 0}"#, "num_attention_heads"),
        (r#"{"model_type": "llama", "hidden_size": "4096"}"#, "hidden_size"),
        (r#"{"model_type": "llama", "num_key_value_heads": -8}"#, "num_key_value_heads"),
        (r#"{"model_type": "llama", "vocab_size": 1000000000000}"#, "vocab_size"),
        (r#"{"model_type": "llama", "rope_scaling": 2.0}"#, "rope_scaling"),
        (r#"{"model_type": "llama", "architectures": ["LlamaForMaskedLM"]}"#, "architectures[0]"),
        (r#"{"model_type": "gemma", "architectures": ["GemmaForQuestionAnswering"]}"#, "architectures[0]"),
        (r#"{"model_type": "mixtral", "num_experts_per_tok": 9}"#, "num_experts_per_tok"),
        (
            r#"{"model_type": "gemma2", "num_hidden_layers": 2, "layer_types": ["full_attention"]}"#,
            "layer_types",
        ),
    ] {
        match resolve(text) {
            Err(ConfigError::Field { field: f, .. }) => assert_eq!(f, field, "{text}"),
            other => panic!("{text}: expected an error on {field}, got {other:?}"),
        }
    }
}

#[test]
fn each_family_reads_only_the_keys_its_class_reads() {
    // LlamaConfig has no experts: a malformed expert count is never looked at.
    assert!(resolve(r#"{"model_type": "llama", "num_local_experts": "eight"}"#).is_ok());
    // MistralAttention builds its projections without biases whatever attention_bias says.
    let base = embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 8, 128, 14336);
    assert_eq!(derived(json!({"model_type": "mistral", "attention_bias": true})), base);
    // Gemma's MLP reads hidden_act; Gemma-2's reads hidden_activation.
    let gemma =
        resolve(r#"{"model_type": "gemma", "hidden_act": "gelu", "hidden_activation": "relu"}"#).unwrap();
    assert_eq!(gemma.hidden_act, "gelu");
    let gemma2 =
        resolve(r#"{"model_type": "gemma2", "hidden_act": "gelu", "hidden_activation": "relu"}"#).unwrap();
    assert_eq!(gemma2.hidden_act, "relu");
}

// ---------------------------------------------------------------- mistral, mixtral

#[test]
fn mistral_7b_equals_its_checkpoint_and_records_its_window() {
    // vocab 32000, hidden 4096, 32 layers, 32 heads over 8 KV heads of 128, ffn 14336.
    let expected =
        embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 8, 128, 14336) + lm_head(32000, 4096);
    assert_eq!(expected, 7_241_732_096);
    let page = plan_id("mistralai/Mistral-7B-v0.1");
    assert_eq!(params(&page).derived, expected);
    assert_eq!(published_counts()["mistralai/Mistral-7B-v0.1"], expected);
    assert_eq!(params(&page).reconciliation.status, Status::Equal);
    let c = resolve(&reference_config_with("mistralai--Mistral-7B-v0.1", json!({}))).unwrap();
    assert_eq!(c.sliding_window, Some(4096));
}

#[test]
fn the_default_mistral_config_and_its_classifier() {
    // MistralConfig(): the 7B's sizes (KV heads 8, ffn 14336); MistralModel has no LM head.
    let base = embeddings_and_norm(32000, 4096) + 32 * llama_layer(4096, 32, 8, 128, 14336);
    assert_eq!(derived(json!({"model_type": "mistral"})), base);
    assert_eq!(
        derived(json!({"model_type": "mistral", "architectures": ["MistralForSequenceClassification"]})),
        base + 2 * 4096
    );
    let c = resolve(r#"{"model_type": "mistral"}"#).unwrap();
    assert_eq!((c.sliding_window, c.max_position_embeddings), (Some(4096), 4096 * 32));
}

/// One Mixtral layer: attention, two norms, the router (h x experts) and `experts` SwiGLU experts.
fn mixtral_layer(h: u64, heads: u64, kv: u64, hd: u64, ffn: u64, experts: u64) -> u64 {
    attention(h, heads, kv, hd, false, false) + 2 * h + h * experts + experts * gated_mlp(h, ffn)
}

#[test]
fn mixtral_8x7b_is_46_702_792_704_in_total_and_uses_two_experts_per_token() {
    let expected = embeddings_and_norm(32000, 4096)
        + 32 * mixtral_layer(4096, 32, 8, 128, 14336, 8)
        + lm_head(32000, 4096);
    assert_eq!(expected, 46_702_792_704);
    let page = plan_id("mistralai/Mixtral-8x7B-v0.1");
    let p = params(&page);
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["mistralai/Mixtral-8x7B-v0.1"], expected);
    assert_eq!(p.reconciliation.status, Status::Equal);
    assert_eq!(p.reconciliation.method, Some(Method::IndexNames), "995 tensor names, all the class's");
    // Each token runs 2 of the 8 experts: 6 experts' worth per layer are idle.
    let active = expected - 32 * 6 * gated_mlp(4096, 14336);
    // Mistral AI announces "12.9B active parameters".
    assert_eq!((active + 50_000_000) / 100_000_000, 129);
    assert_eq!(p.active, active);
    let dims = page.config.as_ref().unwrap();
    assert_eq!((dims.num_experts, dims.experts_per_token), (Some(8), Some(2)));
    assert!(
        tensor_names(&page).contains(&"model.layers.31.block_sparse_moe.experts.7.w2.weight".to_string())
    );
}

#[test]
fn the_default_mixtral_config_and_its_classifier() {
    // MixtralConfig(): 8 experts of 14336, top 2, 8 KV heads; MixtralModel.
    let base = embeddings_and_norm(32000, 4096) + 32 * mixtral_layer(4096, 32, 8, 128, 14336, 8);
    assert_eq!(derived(json!({"model_type": "mixtral"})), base);
    let seq = json!({"model_type": "mixtral", "architectures": ["MixtralForSequenceClassification"], "num_labels": 4});
    assert_eq!(derived(seq), base + 4 * 4096);
}

// ---------------------------------------------------------------- qwen2, qwen2_moe

#[test]
fn qwen2_5_0_5b_has_qkv_biases_and_tied_embeddings() {
    // vocab 151936, hidden 896, 24 layers, 14 heads over 2 KV heads of 64, ffn 4864; biases on
    // q, k and v only; the LM head is the embedding matrix.
    let layer = attention(896, 14, 2, 64, true, false) + gated_mlp(896, 4864) + 2 * 896;
    let expected = embeddings_and_norm(151_936, 896) + 24 * layer;
    assert_eq!(expected, 494_032_768);
    let page = plan_id("Qwen/Qwen2.5-0.5B");
    let p = params(&page);
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["Qwen/Qwen2.5-0.5B"], expected);
    assert_eq!(p.tied.len(), 1);
    assert_eq!(p.tied[0].tensor, "lm_head.weight");
    // use_sliding_window is false: the window is not used.
    assert_eq!(
        resolve(&reference_config_with("Qwen--Qwen2.5-0.5B", json!({}))).unwrap().sliding_window,
        None
    );
}

#[test]
fn the_default_qwen2_config_and_its_heads() {
    // Qwen2Config(): vocab 151936, hidden 4096, ffn 22016, 32 layers, 32 heads, 32 KV heads, untied.
    let base = embeddings_and_norm(151_936, 4096)
        + 32 * (attention(4096, 32, 32, 128, true, false) + gated_mlp(4096, 22016) + 2 * 4096);
    assert_eq!(derived(json!({"model_type": "qwen2"})), base);
    assert_eq!(
        derived(json!({"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"]})),
        base + lm_head(151_936, 4096)
    );
    let qa = plan_text(
        &json!({"model_type": "qwen2", "architectures": ["Qwen2ForQuestionAnswering"]}).to_string(),
    )
    .unwrap();
    assert_eq!(params(&qa).derived, base + 2 * 4096 + 2);
    assert!(tensor_names(&qa).contains(&"transformer.embed_tokens.weight".to_string()));
}

/// Qwen2-MoE's sparse MLP: router (h x experts), experts, the shared expert and its h -> 1 gate.
fn qwen2_moe_mlp(h: u64, experts: u64, moe_ffn: u64, shared_ffn: u64) -> u64 {
    h * experts + experts * gated_mlp(h, moe_ffn) + gated_mlp(h, shared_ffn) + h
}

#[test]
fn the_default_qwen2_moe_config_has_60_experts_and_a_gated_shared_expert() {
    // Qwen2MoeConfig(): vocab 151936, hidden 2048, 24 layers, 16 heads (KV 16) of 128, qkv bias,
    // 60 experts of 1408, top 4, shared expert 5632, every layer sparse.
    let attn = attention(2048, 16, 16, 128, true, false) + 2 * 2048;
    let layer = attn + qwen2_moe_mlp(2048, 60, 1408, 5632);
    let base = embeddings_and_norm(151_936, 2048) + 24 * layer;
    let page = plan_text(r#"{"model_type": "qwen2_moe", "architectures": ["Qwen2MoeForCausalLM"]}"#).unwrap();
    let p = params(&page);
    assert_eq!(p.derived, base + lm_head(151_936, 2048));
    assert_eq!(p.active, base + lm_head(151_936, 2048) - 24 * 56 * gated_mlp(2048, 1408));
    let names = tensor_names(&page);
    for n in [
        "model.layers.0.mlp.shared_expert_gate.weight",
        "model.layers.0.mlp.experts.59.down_proj.weight",
        "model.layers.23.mlp.shared_expert.up_proj.weight",
    ] {
        assert!(names.iter().any(|x| x == n), "{n}");
    }
    let dims = page.config.as_ref().unwrap();
    assert_eq!((dims.num_experts, dims.experts_per_token), (Some(60), Some(4)));
}

#[test]
fn qwen2_moe_dense_layers_follow_decoder_sparse_step_and_mlp_only_layers() {
    // 4 layers; step 2 makes layers 1 and 3 sparse; mlp_only_layers [3] makes 3 dense again.
    let config = json!({"model_type": "qwen2_moe", "num_hidden_layers": 4, "decoder_sparse_step": 2, "mlp_only_layers": [3], "qkv_bias": false});
    let attn = attention(2048, 16, 16, 128, false, false) + 2 * 2048;
    let dense = attn + gated_mlp(2048, 5632);
    let sparse = attn + qwen2_moe_mlp(2048, 60, 1408, 5632);
    let page = plan_text(&config.to_string()).unwrap();
    assert_eq!(params(&page).derived, embeddings_and_norm(151_936, 2048) + 3 * dense + sparse);
    let names = tensor_names(&page);
    assert!(names.contains(&"layers.1.mlp.experts.0.gate_proj.weight".to_string()));
    assert!(names.contains(&"layers.3.mlp.gate_proj.weight".to_string()));
    assert!(!names.iter().any(|n| n.contains("q_proj.bias")));
}

// ---------------------------------------------------------------- qwen3, qwen3_moe

/// A Qwen3 layer: attention without biases, RMSNorm over head_dim on queries and keys.
fn qwen3_layer(h: u64, heads: u64, kv: u64, hd: u64, ffn: u64) -> u64 {
    llama_layer(h, heads, kv, hd, ffn) + 2 * hd
}

#[test]
fn qwen3_8b_equals_its_checkpoint() {
    // vocab 151936, hidden 4096, 36 layers, 32 heads over 8 KV heads of head_dim 128, ffn 12288.
    let expected = embeddings_and_norm(151_936, 4096)
        + 36 * qwen3_layer(4096, 32, 8, 128, 12288)
        + lm_head(151_936, 4096);
    assert_eq!(expected, 8_190_735_360);
    let page = plan_id("Qwen/Qwen3-8B");
    assert_eq!(params(&page).derived, expected);
    assert_eq!(published_counts()["Qwen/Qwen3-8B"], expected);
    assert!(tensor_names(&page).contains(&"model.layers.35.self_attn.k_norm.weight".to_string()));
}

#[test]
fn the_default_qwen3_config_and_its_classifier() {
    // Qwen3Config(): vocab 151936, hidden 4096, ffn 22016, 32 layers, 32 heads, 32 KV heads,
    // head_dim 128 (a default of its own), untied.
    let base = embeddings_and_norm(151_936, 4096) + 32 * qwen3_layer(4096, 32, 32, 128, 22016);
    assert_eq!(derived(json!({"model_type": "qwen3"})), base);
    assert_eq!(
        derived(json!({"model_type": "qwen3", "architectures": ["Qwen3ForSequenceClassification"]})),
        base + 2 * 4096
    );
    // head_dim stays 128 when the hidden size changes.
    let c = resolve(r#"{"model_type": "qwen3", "hidden_size": 2048}"#).unwrap();
    assert_eq!(c.dims().head_dim, 128);
}

#[test]
fn the_default_qwen3_moe_config_has_128_experts_and_no_shared_expert() {
    // Qwen3MoeConfig(): vocab 151936, hidden 2048, 24 layers, 32 heads over 4 KV heads of
    // 2048 / 32 = 64, 128 experts of 768, top 8.
    let layer = qwen3_layer(2048, 32, 4, 64, 0) + 2048 * 128 + 128 * gated_mlp(2048, 768);
    let base = embeddings_and_norm(151_936, 2048) + 24 * layer;
    let page = plan_text(r#"{"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"]}"#).unwrap();
    let p = params(&page);
    assert_eq!(p.derived, base + lm_head(151_936, 2048));
    assert_eq!(p.active, base + lm_head(151_936, 2048) - 24 * 120 * gated_mlp(2048, 768));
    assert!(!tensor_names(&page).iter().any(|n| n.contains("shared_expert")));
}

// ---------------------------------------------------------------- gemma, gemma2, gemma3_text

#[test]
fn gemma_2b_mirrors_equal_the_published_2_506_172_416() {
    // vocab 256000, hidden 2048, 18 layers, 8 heads of 256 over 1 KV head, ffn 16384, tied.
    let expected = embeddings_and_norm(256_000, 2048) + 18 * llama_layer(2048, 8, 1, 256, 16384);
    assert_eq!(expected, 2_506_172_416);
    let published = published_counts();
    for id in ["mfuntowicz/gemma-2b", "alpindale/gemma-2b-it"] {
        let page = plan_id(id);
        assert_eq!(params(&page).derived, expected, "{id}");
        assert!(params(&page).tied.iter().any(|t| t.tensor == "lm_head.weight"), "{id}");
    }
    assert_eq!(published["google/gemma-2b"], expected);
    assert_eq!(published["alpindale/gemma-2b-it"], expected);
    assert_eq!(params(&plan_id("alpindale/gemma-2b-it")).reconciliation.status, Status::Equal);
}

#[test]
fn gemma_7b_mirror_equals_the_published_8_537_680_896_as_does_the_default_gemma_config() {
    // vocab 256000, hidden 3072, 28 layers, 16 heads of 256 (16 KV heads: q is 4096 wide, more
    // than the hidden size), ffn 24576, tied.
    let expected = embeddings_and_norm(256_000, 3072) + 28 * llama_layer(3072, 16, 16, 256, 24576);
    assert_eq!(expected, 8_537_680_896);
    assert_eq!(params(&plan_id("milandean/gemma-7b")).derived, expected);
    assert_eq!(published_counts()["milandean/gemma-7b"], expected);
    // GemmaConfig()'s defaults are the 7B's sizes; GemmaModel has no LM head (tied anyway).
    assert_eq!(derived(json!({"model_type": "gemma"})), expected);
    let seq =
        json!({"model_type": "gemma", "architectures": ["GemmaForTokenClassification"], "num_labels": 7});
    assert_eq!(derived(seq), expected + 7 * 3072 + 7);
}

/// A Gemma-2 layer: four RMSNorms (before and after attention and the MLP).
fn gemma2_layer(h: u64, heads: u64, kv: u64, hd: u64, ffn: u64) -> u64 {
    attention(h, heads, kv, hd, false, false) + gated_mlp(h, ffn) + 4 * h
}

#[test]
fn the_default_gemma2_config_is_gemma_2_2b_and_equals_its_published_count() {
    // Gemma2Config(): vocab 256000, hidden 2304, 26 layers, 8 heads of 256 over 4 KV heads,
    // ffn 9216, tied; the sizes of google/gemma-2-2b.
    let expected = embeddings_and_norm(256_000, 2304) + 26 * gemma2_layer(2304, 8, 4, 256, 9216);
    assert_eq!(expected, 2_614_341_888);
    assert_eq!(published_counts()["google/gemma-2-2b"], expected);
    assert_eq!(derived(json!({"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"]})), expected);
    let c = resolve(r#"{"model_type": "gemma2"}"#).unwrap();
    assert_eq!(c.layer_types[0], "sliding_attention");
    assert_eq!(c.layer_types[1], "full_attention");
    assert_eq!((c.attn_logit_softcapping, c.final_logit_softcapping), (Some(50.0), Some(30.0)));
    let seq = json!({"model_type": "gemma2", "architectures": ["Gemma2ForSequenceClassification"]});
    assert_eq!(derived(seq), expected + 2 * 2304);
}

#[test]
fn the_default_gemma3_text_config_adds_query_and_key_norms() {
    // Gemma3TextConfig(): vocab 262208, hidden 2304, 26 layers, 8 heads of 256 over 4 KV heads,
    // ffn 9216, tied; q_norm and k_norm over head_dim.
    let layer = gemma2_layer(2304, 8, 4, 256, 9216) + 2 * 256;
    let expected = embeddings_and_norm(262_208, 2304) + 26 * layer;
    let page = plan_text(r#"{"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"]}"#).unwrap();
    assert_eq!(params(&page).derived, expected);
    assert!(tensor_names(&page).contains(&"model.layers.0.self_attn.q_norm.weight".to_string()));
    assert_eq!(derived(json!({"model_type": "gemma3_text"})), expected);
    let seq = json!({"model_type": "gemma3_text", "architectures": ["Gemma3TextForSequenceClassification"], "num_labels": 3});
    assert_eq!(derived(seq), expected + 3 * 2304);
    // Five sliding layers, then a full one.
    let c = resolve(r#"{"model_type": "gemma3_text"}"#).unwrap();
    assert_eq!(c.layer_types.iter().filter(|t| *t == "full_attention").count(), 4);
    assert_eq!(c.layer_types[5], "full_attention");
}

// ---------------------------------------------------------------- phi3

#[test]
fn the_default_phi3_config_is_phi_3_mini_and_equals_its_published_count() {
    // Phi3Config(): vocab 32064, hidden 3072, 32 layers, 32 heads (KV = heads) of 96, ffn 8192,
    // untied; qkv_proj (h x 3h) and gate_up_proj (h x 2 ffn) fused, no biases.
    let qkv = 3072 * (3072 + 2 * 3072);
    let layer = qkv + 3072 * 3072 + 3072 * 2 * 8192 + 8192 * 3072 + 2 * 3072;
    let expected = embeddings_and_norm(32064, 3072) + 32 * layer + lm_head(32064, 3072);
    assert_eq!(expected, 3_821_079_552);
    assert_eq!(published_counts()["microsoft/Phi-3-mini-4k-instruct"], expected);
    let page = plan_text(r#"{"model_type": "phi3", "architectures": ["Phi3ForCausalLM"]}"#).unwrap();
    assert_eq!(params(&page).derived, expected);
    let names = tensor_names(&page);
    assert!(names.contains(&"model.layers.0.self_attn.qkv_proj.weight".to_string()));
    assert!(names.contains(&"model.layers.0.mlp.gate_up_proj.weight".to_string()));
    assert_eq!(derived(json!({"model_type": "phi3"})), expected - lm_head(32064, 3072));
    assert_eq!(page.config.as_ref().unwrap().pad_token_id, Some(32000));
}

// ---------------------------------------------------------------- deepseek_v2, deepseek_v3

/// Multi-head latent attention: q (direct, or down to q_lora_rank, RMSNorm, up), the key/value
/// latent with the shared rotary key, its RMSNorm, the up-projection to keys and values, o.
fn mla(h: u64, heads: u64, q_lora: Option<u64>, kv_lora: u64, nope: u64, rope: u64, v: u64) -> u64 {
    let q = match q_lora {
        None => h * heads * (nope + rope),
        Some(r) => h * r + r + r * heads * (nope + rope),
    };
    q + h * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v) + heads * v * h
}

#[test]
fn the_default_deepseek_v2_config_is_all_moe_with_two_shared_experts() {
    // DeepseekV2Config() of transformers 5.x: vocab 102400 (4.x: 32000), hidden 4096, 32 layers,
    // 32 heads, q_lora_rank 1536,
    // kv_lora_rank 512, nope 128, rope 64, v 128; first_k_dense_replace 0, so every layer is
    // MoE: 64 routed experts of 1407, the gate (64 x h), shared experts of 2 x 1407.
    let attn = mla(4096, 32, Some(1536), 512, 128, 64, 128);
    let moe = 64 * 4096 + 64 * gated_mlp(4096, 1407) + gated_mlp(4096, 2 * 1407);
    let expected = embeddings_and_norm(102400, 4096) + 32 * (attn + moe + 2 * 4096);
    let page = plan_text(r#"{"model_type": "deepseek_v2"}"#).unwrap();
    let p = params(&page);
    assert_eq!(p.derived, expected);
    // num_experts_per_tok defaults to None: no top-k, so every expert counts as active.
    assert_eq!(p.active, expected);
    assert_eq!(page.config.as_ref().unwrap().experts_per_token, None);
    assert!(page.defaulted.iter().any(|d| d.field == "num_experts_per_tok" && d.value == "null"));
}

#[test]
fn deepseek_v2_lite_style_config_projects_queries_directly() {
    // q_lora_rank null -> q_proj; first dense layer with ffn 10944; 64 experts of 1408, top 6.
    let config = json!({
        "model_type": "deepseek_v2", "architectures": ["DeepseekV2ForCausalLM"], "vocab_size": 102400,
        "hidden_size": 2048, "num_hidden_layers": 27, "num_attention_heads": 16, "q_lora_rank": null,
        "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
        "intermediate_size": 10944, "moe_intermediate_size": 1408, "n_routed_experts": 64,
        "n_shared_experts": 2, "num_experts_per_tok": 6, "first_k_dense_replace": 1
    });
    let attn = mla(2048, 16, None, 512, 128, 64, 128) + 2 * 2048;
    let dense = attn + gated_mlp(2048, 10944);
    let moe = attn + 64 * 2048 + 64 * gated_mlp(2048, 1408) + gated_mlp(2048, 2 * 1408);
    let expected = embeddings_and_norm(102_400, 2048) + dense + 26 * moe + lm_head(102_400, 2048);
    // DeepSeek-V2-Lite is announced as 15.7B parameters.
    assert_eq!((expected + 50_000_000) / 100_000_000, 157);
    let page = plan_text(&config.to_string()).unwrap();
    let p = params(&page);
    assert_eq!(p.derived, expected);
    assert_eq!(p.active, expected - 26 * 58 * gated_mlp(2048, 1408));
    let names = tensor_names(&page);
    assert!(names.contains(&"model.layers.0.self_attn.q_proj.weight".to_string()));
    assert!(names.contains(&"model.layers.0.mlp.down_proj.weight".to_string()));
    assert!(names.contains(&"model.layers.26.mlp.shared_experts.gate_proj.weight".to_string()));
}

#[test]
fn the_default_deepseek_v3_config_and_its_buffered_router_bias() {
    // DeepseekV3Config(): vocab 129280, hidden 7168, 61 layers, 128 heads, q_lora 1536, kv_lora
    // 512, nope 128, rope 64, v 128; 3 dense layers (ffn 18432), then 58 MoE layers of 256
    // experts of 2048 (top 8) and one shared expert of 2048.
    let attn = mla(7168, 128, Some(1536), 512, 128, 64, 128) + 2 * 7168;
    let dense = attn + gated_mlp(7168, 18432);
    let moe = attn + 256 * 7168 + 256 * gated_mlp(7168, 2048) + gated_mlp(7168, 2048);
    let expected = embeddings_and_norm(129_280, 7168) + 3 * dense + 58 * moe + lm_head(129_280, 7168);
    // DeepSeek-V3 is announced as 671B parameters, 37B active per token, without its
    // multi-token-prediction module.
    assert_eq!(expected / 1_000_000_000, 671);
    assert_eq!((expected - 58 * 248 * gated_mlp(7168, 2048)) / 1_000_000_000, 37);
    let page =
        plan_text(r#"{"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"]}"#).unwrap();
    let p = params(&page);
    assert_eq!(p.derived, expected);
    assert_eq!(p.active, expected - 58 * 248 * gated_mlp(7168, 2048));
    // e_score_correction_bias is a persistent buffer: in checkpoints, not among the parameters.
    assert!(!tensor_names(&page).iter().any(|n| n.contains("e_score_correction_bias")));
    let c = resolve(r#"{"model_type": "deepseek_v3"}"#).unwrap();
    let candidates = modelatlas::graph::Architecture::checkpoint_candidates(&c);
    let bias = candidates.iter().find(|c| c.label == "router score-correction biases").unwrap();
    assert_eq!(bias.tensors.len(), 58);
    assert_eq!(bias.tensors[0], ("model.layers.3.mlp.gate.e_score_correction_bias".to_string(), vec![256]));
    let seq = json!({"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForSequenceClassification"]});
    assert_eq!(derived(seq), expected - lm_head(129_280, 7168) + 2 * 7168);
}

#[test]
fn a_qwen3_moe_config_saved_by_transformers_5_counts_its_experts_from_num_local_experts() {
    // Qwen3MoeConfig(num_experts=4, ...).save_pretrained() under transformers 5.24 writes the
    // count as `num_local_experts` (its `attribute_map` makes `num_experts` the alias), so the
    // file has no `num_experts` and the class default (128) must not be used. Vocab 1000,
    // hidden 128, 2 layers, 4 heads of 32 over 2 KV heads with per-head q/k norms, 4 experts of
    // 64, untied: 552,704, which transformers also counts on the meta device.
    let (v, h) = (1000u64, 128u64);
    let attn = h * 128 + 2 * h * 64 + 128 * h + 2 * 32;
    let moe = 4 * h + 4 * gated_mlp(h, 64);
    let expected = v * h + 2 * (attn + moe + 2 * h) + h + v * h;
    assert_eq!(expected, 552_704);
    let page = plan_text(
        r#"{"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"], "vocab_size": 1000,
            "hidden_size": 128, "intermediate_size": 256, "moe_intermediate_size": 64,
            "num_local_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32,
            "tie_word_embeddings": false}"#,
    )
    .unwrap();
    assert_eq!(params(&page).derived, expected);
}
