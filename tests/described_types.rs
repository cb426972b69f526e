//! Model types added as descriptions alone (`src/config/types.rs`): each count is written out by
//! hand from the config's numbers or from the config class's defaults (transformers 5.x,
//! `configuration_<type>.py`), never read back from the program.

mod common;

use common::plan_text;
use modelatlas::config::llama::DecoderConfig;
use modelatlas::config::{ConfigError, parse};
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn resolve(text: &str) -> Result<DecoderConfig, ConfigError> {
    let (common, value) = parse(text)?;
    DecoderConfig::resolve(&value, &common)
}

/// q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h), without biases.
fn attention(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    h * heads * hd + 2 * h * kv * hd + heads * hd * h
}

#[test]
fn the_default_olmo2_causal_lm_has_post_norms_and_qk_norms_over_all_heads() {
    // Olmo2Config(): vocab 50304, hidden 4096, ffn 11008, 32 layers, 32 heads (KV heads = heads),
    // untied, no biases. A layer: attention, q_norm and k_norm over all 32 x 128 = 4096 channels,
    // a gated MLP (3 x 4096 x 11008), and two RMSNorms after the sublayers; no input_layernorm.
    let (v, h, f, l) = (50304u64, 4096u64, 11008u64, 32u64);
    let layer = attention(h, 32, 32, 128) + 2 * h + 3 * h * f + 2 * h;
    let expected = v * h + l * layer + h + v * h;
    assert_eq!(derived(json!({"model_type": "olmo2", "architectures": ["Olmo2ForCausalLM"]})), expected);
}

#[test]
fn olmo2_names_its_norms_after_the_sublayers() {
    let page = plan_text(r#"{"model_type": "olmo2", "num_hidden_layers": 1}"#).unwrap();
    let names: Vec<String> = page.structure.unwrap().tensors().map(|(n, _)| n).collect();
    assert!(names.contains(&"layers.0.post_feedforward_layernorm.weight".to_string()), "{names:?}");
    assert!(names.contains(&"layers.0.self_attn.q_norm.weight".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("input_layernorm")), "{names:?}");
}

#[test]
fn a_small_grouped_olmo2_sizes_its_key_norm_by_the_key_heads() {
    // 8 heads of 16 over 2 KV heads: q_norm 128 channels, k_norm 32; tied LM head.
    let (v, h, f) = (1000u64, 128u64, 256u64);
    let layer = attention(h, 8, 2, 16) + 8 * 16 + 2 * 16 + 3 * h * f + 2 * h;
    let expected = v * h + 3 * layer + h;
    let config = json!({"model_type": "olmo2", "architectures": ["Olmo2ForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 3, "num_attention_heads": 8,
        "num_key_value_heads": 2, "tie_word_embeddings": true});
    assert_eq!(derived(config), expected);
}

#[test]
fn granite_counts_as_llama_with_its_multipliers_changing_no_shape() {
    // Granite-3-style sizes: vocab 49155, hidden 2048, 40 layers, 32 heads over 8 KV heads of 64,
    // ffn 8192, tied; multipliers are scalars in the forward pass, not parameters.
    let (v, h, f, l) = (49155u64, 2048u64, 8192u64, 40u64);
    let layer = attention(h, 32, 8, 64) + 3 * h * f + 2 * h;
    let config = json!({"model_type": "granite", "architectures": ["GraniteForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l, "num_attention_heads": 32,
        "num_key_value_heads": 8, "tie_word_embeddings": true, "embedding_multiplier": 12.0,
        "residual_multiplier": 0.22, "attention_multiplier": 0.015625, "logits_scaling": 8.0});
    assert_eq!(derived(config), v * h + l * layer + h);
}

#[test]
fn a_head_class_a_type_does_not_define_is_an_error_on_architectures() {
    // modeling_granite.py defines GraniteModel and GraniteForCausalLM only.
    let err = resolve(r#"{"model_type": "granite", "architectures": ["GraniteForSequenceClassification"]}"#)
        .unwrap_err();
    assert!(matches!(&err, ConfigError::Field { field, .. } if field == "architectures[0]"), "{err}");
}

#[test]
fn seed_oss_reads_the_output_projection_bias_from_its_own_key() {
    // attention_bias false, attention_out_bias true: only o_proj has a bias (h per layer).
    let (v, h, f) = (640u64, 96u64, 160u64);
    let layer = attention(h, 3, 1, 32) + h + 3 * h * f + 2 * h;
    let config = json!({"model_type": "seed_oss", "architectures": ["SeedOssModel"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2, "num_attention_heads": 3,
        "num_key_value_heads": 1, "head_dim": 32, "attention_bias": false, "attention_out_bias": true});
    assert_eq!(derived(config), v * h + 2 * layer + h);
}

#[test]
fn the_default_seed_oss_has_biases_on_q_k_and_v_only() {
    // SeedOssConfig(): vocab 155136, hidden 4096, ffn 27648, 64 layers, 80 heads of 128 over 8 KV
    // heads, attention_bias true, attention_out_bias false, untied.
    let (v, h, f, l) = (155136u64, 4096u64, 27648u64, 64u64);
    let layer = attention(h, 80, 8, 128) + (80 + 16) * 128 + 3 * h * f + 2 * h;
    let expected = v * h + l * layer + h + v * h;
    assert_eq!(derived(json!({"model_type": "seed_oss", "architectures": ["SeedOssForCausalLM"]})), expected);
}

#[test]
fn smollm3_ties_its_head_by_default() {
    // SmolLM3Config(): vocab 128256, hidden 2048, ffn 11008, 36 layers, 16 heads of 128 over 4 KV
    // heads, tie_word_embeddings true.
    let (v, h, f, l) = (128256u64, 2048u64, 11008u64, 36u64);
    let layer = attention(h, 16, 4, 128) + 3 * h * f + 2 * h;
    let expected = v * h + l * layer + h;
    assert_eq!(derived(json!({"model_type": "smollm3", "architectures": ["SmolLM3ForCausalLM"]})), expected);
}

#[test]
fn ministral_added_by_following_the_readme_counts_as_mistral_under_its_own_classes() {
    // MinistralConfig(): Mistral 7B's sizes (vocab 32000, hidden 4096, ffn 14336, 32 layers, 32
    // heads of 128 over 8 KV heads, untied); MinistralModel has no LM head.
    let (v, h, f, l) = (32000u64, 4096u64, 14336u64, 32u64);
    let layer = attention(h, 32, 8, 128) + 3 * h * f + 2 * h;
    assert_eq!(derived(json!({"model_type": "ministral"})), v * h + l * layer + h);
    let c = resolve(r#"{"model_type": "ministral", "architectures": ["MinistralForQuestionAnswering"]}"#)
        .unwrap();
    assert_eq!(c.sliding_window, Some(4096));
}

#[test]
fn starcoder2_stacks_layernorms_and_a_plain_mlp_with_biases_throughout() {
    // Starcoder2Config(): vocab 49152, hidden 3072, ffn 12288, 30 layers, 24 heads of 128 over 2
    // KV heads, use_bias true, tied. A layer: q, k, v, o with biases; two LayerNorms (weight and
    // bias, 2 x 3072 each); c_fc (3072 x 12288 + 12288) and c_proj (12288 x 3072 + 3072).
    let (v, h, f, l) = (49152u64, 3072u64, 12288u64, 30u64);
    let attn = attention(h, 24, 2, 128) + (24 + 2 * 2) * 128 + h;
    let layer = attn + 2 * (2 * h) + (h * f + f) + (f * h + h);
    let expected = v * h + l * layer + 2 * h;
    assert_eq!(
        derived(json!({"model_type": "starcoder2", "architectures": ["Starcoder2ForCausalLM"]})),
        expected
    );
}

#[test]
fn olmo3_slides_on_three_layers_of_four_and_counts_as_olmo2() {
    // Olmo3Config() with 8 layers: layer_types default to sliding unless (i + 1) % 4 == 0, so
    // layers 3 and 7 attend fully; the window is 4096. Its layers are OLMo 2's (see above).
    let c = resolve(r#"{"model_type": "olmo3", "num_hidden_layers": 8}"#).unwrap();
    let full: Vec<usize> =
        c.layer_types.iter().enumerate().filter(|(_, t)| *t == "full_attention").map(|(i, _)| i).collect();
    assert_eq!(full, vec![3, 7]);
    assert_eq!(c.sliding_window, Some(4096));
    let (v, h, f) = (50304u64, 4096u64, 11008u64);
    let layer = attention(h, 32, 32, 128) + 2 * h + 3 * h * f + 2 * h;
    let config =
        json!({"model_type": "olmo3", "architectures": ["Olmo3ForCausalLM"], "num_hidden_layers": 8});
    assert_eq!(derived(config), v * h + 8 * layer + h + v * h);
}

#[test]
fn granite_3_3_8b_instruct_from_the_snapshot_is_8_170_864_640() {
    // Its config.json (hub/, source in its modelatlas.json): vocab 49159, hidden 4096, 40 layers,
    // 32 heads of 128 over 8 KV heads, ffn 12800, tied. Per layer: q and o 4096 x 4096 each, k
    // and v 4096 x 1024 each (41,943,040), MLP 3 x 4096 x 12800 (157,286,400), two norms (8,192):
    // 199,237,632; x 40 = 7,969,505,280; + embeddings 201,355,264 + final norm 4,096.
    let page = common::plan_id("ibm-granite/granite-3.3-8b-instruct");
    assert_eq!(page.params.unwrap().derived, 8_170_864_640);
}

#[test]
fn granite_3_3_8b_instruct_from_the_snapshot_equals_its_published_checkpoint() {
    // The Hub's safetensors.total for the checkpoint (tests/fixtures/reference/checkpoints.tsv):
    // 8,170,864,640, the sum written out in the test above; tied, so no lm_head is stored.
    let page = common::plan_id("ibm-granite/granite-3.3-8b-instruct");
    let p = page.params.unwrap();
    assert_eq!(p.checkpoint, Some(common::published_counts()["ibm-granite/granite-3.3-8b-instruct"]));
    assert_eq!(p.derived, 8_170_864_640);
}

#[test]
fn olmo_2_1124_7b_instruct_from_the_snapshot_is_7_298_617_344_as_published() {
    // Its config.json (hub/): vocab 100352, hidden 4096, 32 layers, 32 heads of 128 (no GQA), ffn
    // 11008, untied. Per layer: q, k, v, o 4 x 4096 x 4096 (67,108,864); q_norm and k_norm over
    // 4096 channels each (8,192); MLP 3 x 4096 x 11008 (135,266,304); two post-norms (8,192):
    // 202,391,552; x 32 = 6,476,529,664. Embeddings and lm_head 2 x 100352 x 4096 (822,083,584),
    // final norm 4,096: 7,298,617,344, the Hub's safetensors.total (checkpoints.tsv).
    let page = common::plan_id("allenai/OLMo-2-1124-7B-Instruct");
    assert!(page.supported);
    let p = page.params.unwrap();
    assert_eq!(p.derived, 7_298_617_344);
    assert_eq!(p.checkpoint, Some(common::published_counts()["allenai/OLMo-2-1124-7B-Instruct"]));
}

#[test]
fn smollm3_3b_from_the_snapshot_is_3_075_098_624_as_published() {
    // Its config.json (hub/): vocab 128256, hidden 2048, 36 layers, 16 heads of 128 over 4 KV heads,
    // ffn 11008, no tie_word_embeddings key (SmolLM3Config ties by default). Per layer: q and o
    // 2 x 2048 x 2048 (8,388,608), k and v 2 x 2048 x 512 (2,097,152), MLP 3 x 2048 x 11008
    // (67,633,152), two norms (4,096): 78,123,008; x 36 = 2,812,428,288. Embeddings 128256 x 2048
    // (262,668,288), final norm 2,048: 3,075,098,624, the Hub's safetensors.total.
    let page = common::plan_id("HuggingFaceTB/SmolLM3-3B");
    assert!(page.supported);
    let p = page.params.unwrap();
    assert_eq!(p.derived, 3_075_098_624);
    assert_eq!(p.checkpoint, Some(common::published_counts()["HuggingFaceTB/SmolLM3-3B"]));
}

#[test]
fn starcoder2_15b_from_the_snapshot_is_15_957_889_024_as_published() {
    // Its config.json (hub/): vocab 49152, hidden 6144, 40 layers, 48 heads of 128 over 4 KV heads,
    // ffn 24576, use_bias, untied. Per layer: q and o 2 x 6144 x 6144 (75,497,472), k and v
    // 2 x 6144 x 512 (6,291,456), their biases 6144 + 2 x 512 + 6144 (13,312); c_fc and c_proj
    // 2 x 6144 x 24576 (301,989,888) with biases 24576 + 6144 (30,720); two LayerNorms with
    // biases (24,576): 383,847,424; x 40 = 15,353,896,960. Embeddings and lm_head
    // 2 x 49152 x 6144 (603,979,776), final LayerNorm 12,288: 15,957,889,024, the safetensors
    // total a published model card gives (checkpoints.tsv).
    let page = common::plan_id("bigcode/starcoder2-15b");
    assert!(page.supported);
    let p = page.params.unwrap();
    assert_eq!(p.derived, 15_957_889_024);
    assert_eq!(p.checkpoint, Some(common::published_counts()["bigcode/starcoder2-15b"]));
}
