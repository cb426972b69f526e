//! Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE: each count written out by hand from the
//! config's numbers and the config classes' defaults (transformers 5.24 `configuration_<type>.py`),
//! the shapes from the modeling files; the sums are checked against transformers on the meta
//! device (tools/validate/params_report_vlb.md), and the published configs in `hub/` against
//! their checkpoints' totals (tests/fixtures/reference/checkpoints.tsv).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn page(config: Value) -> modelatlas::page::ModelPage {
    plan_text(&config.to_string()).unwrap()
}

/// The small tower: hidden 64, MLP 96, depth 2, 4 heads, 8-pixel patches over 2 frames of 3
/// channels, merge 2, 64 learned positions, output width 128.
fn vision() -> Value {
    json!({"depth": 2, "hidden_size": 64, "intermediate_size": 96, "num_heads": 4,
        "out_hidden_size": 128, "num_position_embeddings": 64, "patch_size": 8})
}

/// Its patch embedding (Conv3d 64 x 3 x 2 x 8 x 8 with a bias), position table (64 x 64) and two
/// blocks: LayerNorms norm1, norm2 (2 x 2 x 64), qkv 64 -> 192 + bias, proj 64 -> 64 + bias,
/// linear_fc1 64 -> 96 + bias, linear_fc2 96 -> 64 + bias.
const TOWER: u64 = (64 * 3 * 2 * 8 * 8 + 64)
    + 64 * 64
    + 2 * (2 * 128 + (64 * 192 + 192) + (64 * 64 + 64) + (64 * 96 + 96) + (96 * 64 + 64));

/// `visual.merger`: LayerNorm over 64 (weight, bias), 4 x 64 = 256 -> 256 + bias, 256 -> 128 + bias.
const MERGER: u64 = 2 * 64 + (256 * 256 + 256) + (256 * 128 + 128);

/// A DeepStack merger: the same, its LayerNorm over the 256 concatenated values.
const DEEPSTACK: u64 = 2 * 256 + (256 * 256 + 256) + (256 * 128 + 128);

/// The small text model: vocab 1000, hidden 128, MLP 256, 2 layers, 4 heads of 32 over 2 KV heads.
fn text() -> Value {
    json!({"vocab_size": 1000, "hidden_size": 128, "intermediate_size": 256, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32})
}

/// Qwen3's attention of the small text model: q 128 -> 128, k and v 128 -> 64, o 128 -> 128, no
/// biases, q and k RMSNorms over a head (32 each).
const QWEN3_ATTENTION: u64 = 128 * 128 + 2 * 128 * 64 + 128 * 128 + 2 * 32;

#[test]
fn qwen3_vl_counts_learned_positions_a_deepstack_merger_and_a_qwen3_decoder() {
    // One DeepStack index: one merger beside visual.merger. Text: Qwen3 layers (attention, a gated
    // MLP 3 x 128 x 256, two RMSNorms), embeddings 1000 x 128, final norm; lm_head untied
    // (Qwen3VLConfig's tie_word_embeddings is False).
    let layer = QWEN3_ATTENTION + 3 * 128 * 256 + 2 * 128;
    let lm = 1000 * 128 + 2 * layer + 128 + 1000 * 128;
    let mut v = vision();
    v["deepstack_visual_indexes"] = json!([1]);
    let config = json!({"model_type": "qwen3_vl", "architectures": ["Qwen3VLForConditionalGeneration"],
        "text_config": text(), "vision_config": v});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, TOWER + DEEPSTACK + MERGER + lm);
    // transformers 5.24 builds this model with 837,120 parameters (meta device; the report's
    // qwen3_vl var 1 row).
    assert_eq!(TOWER + DEEPSTACK + MERGER + lm, 837_120);
    let part = p.vision.unwrap();
    // The DeepStack mergers are counted with the tower; the projector is visual.merger.
    assert_eq!((part.tower_params, part.projector_params), (TOWER + DEEPSTACK, MERGER));
    assert_eq!((part.image_size, part.image_tokens), (0, None));
}

#[test]
fn qwen3_vl_moe_stacks_its_experts_and_takes_a_deepstack_merger_per_index() {
    // Text: the attention, a router 4 x 128, stacked experts gate_up [4, 2 x 64, 128] and down
    // [4, 128, 64], two RMSNorms per layer; embeddings, final norm, lm_head untied.
    let layer = QWEN3_ATTENTION + 4 * 128 + 4 * 2 * 64 * 128 + 4 * 128 * 64 + 2 * 128;
    let lm = 1000 * 128 + 2 * layer + 128 + 1000 * 128;
    let mut t = text();
    t["num_experts"] = json!(4);
    t["num_experts_per_tok"] = json!(2);
    t["moe_intermediate_size"] = json!(64);
    let mut v = vision();
    v["deepstack_visual_indexes"] = json!([0, 1]);
    let config = json!({"model_type": "qwen3_vl_moe",
        "architectures": ["Qwen3VLMoeForConditionalGeneration"], "text_config": t, "vision_config": v});
    assert_eq!(page(config).params.unwrap().derived, TOWER + 2 * DEEPSTACK + MERGER + lm);
    // transformers 5.24: 937,344 (meta device; the report's qwen3_vl_moe var 1 row).
    assert_eq!(TOWER + 2 * DEEPSTACK + MERGER + lm, 937_344);
}

/// Qwen3.5's small text model: a Gated DeltaNet layer then a full-attention layer.
fn qwen3_5_text() -> Value {
    let mut t = text();
    for (k, n) in [
        ("linear_key_head_dim", 16),
        ("linear_value_head_dim", 16),
        ("linear_num_key_heads", 2),
        ("linear_num_value_heads", 4),
    ] {
        t[k] = json!(n);
    }
    t["layer_types"] = json!(["linear_attention", "full_attention"]);
    t
}

/// Its parameters without a head. Gated DeltaNet: key width 2 x 16 = 32, value width 4 x 16 = 64;
/// in_proj_qkv 128 -> 32 + 32 + 64, in_proj_z 128 -> 64, in_proj_b and in_proj_a 128 -> 4, a
/// depthwise conv over the 128 q/k/v channels (kernel 4, no bias), dt_bias and A_log (4 each), the
/// gated norm over a value head (16), out_proj 64 -> 128. Gated attention: q 128 -> 4 x 32 x 2,
/// k and v 128 -> 64, o 128 -> 128, q and k norms (32 each). Each layer: a gated MLP 3 x 128 x 256
/// and two norms; embeddings 1000 x 128 and the final norm.
const QWEN3_5_TEXT: u64 = (128 * 128 + 128 * 64 + 2 * 128 * 4 + 128 * 4 + 2 * 4 + 16 + 64 * 128)
    + (128 * 256 + 2 * 128 * 64 + 128 * 128 + 2 * 32)
    + 2 * (3 * 128 * 256 + 2 * 128)
    + 1000 * 128
    + 128;

#[test]
fn qwen3_5_token_classification_puts_a_biased_score_on_the_whole_model() {
    // Qwen3.5's tower has no DeepStack; Qwen3_5ForTokenClassification keeps the tower and merger
    // under `model.` and adds score 128 -> 2 labels with a bias.
    let config = json!({"model_type": "qwen3_5", "architectures": ["Qwen3_5ForTokenClassification"],
        "text_config": qwen3_5_text(), "vision_config": vision(), "tie_word_embeddings": true});
    let total = TOWER + MERGER + QWEN3_5_TEXT + (128 * 2 + 2);
    assert_eq!(page(config).params.unwrap().derived, total);
    // transformers 5.24: 611,674 (meta device, Qwen3_5ForTokenClassification on this config).
    assert_eq!(total, 611_674);
}

#[test]
fn qwen3_5_for_causal_lm_builds_the_text_model_alone_tied_by_its_own_flag() {
    // AutoModelForCausalLM reads the text config: no tower; the top-level tie flag does not reach
    // it, text_config's (Qwen3_5TextConfig default False) leaves lm_head 1000 x 128 untied.
    let config = json!({"model_type": "qwen3_5", "architectures": ["Qwen3_5ForCausalLM"],
        "text_config": qwen3_5_text(), "vision_config": vision(), "tie_word_embeddings": true});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, QWEN3_5_TEXT + 1000 * 128);
    // transformers 5.24: 553,176 (meta device, AutoModelForCausalLM.from_config on this config).
    assert_eq!(QWEN3_5_TEXT + 1000 * 128, 553_176);
    assert!(p.vision.is_none());
}

#[test]
fn the_published_qwen3_vl_configs_derive_their_checkpoints_totals() {
    let published = common::published_counts();
    for id in ["Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-30B-A3B-Instruct"] {
        let p = common::plan_id(id);
        assert!(p.supported, "{id}");
        // checkpoints.tsv: 8,767,123,696 and 31,070,754,032, sums of numel over the safetensors.
        assert_eq!(p.params.unwrap().derived, published[id], "{id}");
    }
    assert_eq!(published["Qwen/Qwen3-VL-8B-Instruct"], 8_767_123_696);
    assert_eq!(published["Qwen/Qwen3-VL-30B-A3B-Instruct"], 31_070_754_032);
}

#[test]
fn qwen3_6_27b_derives_its_checkpoint_less_the_mtp_weights_transformers_does_not_load() {
    // The checkpoint (27,781,427,952, checkpoints.tsv) also stores `mtp.`: fc 2 x 5120 -> 5120,
    // three norms of 5120, one full-attention layer (q 5120 -> 24 x 256 x 2, k and v 5120 -> 4 x
    // 256, o 6144 -> 5120, q and k norms of 256, two norms of 5120, MLP 3 x 5120 x 17408), which
    // Qwen3_5ForConditionalGeneration ignores (`_keys_to_ignore_on_load_unexpected`).
    let mtp = 2 * 5120 * 5120
        + 3 * 5120
        + (5120 * 12288 + 2 * 5120 * 1024 + 6144 * 5120 + 2 * 256 + 2 * 5120 + 3 * 5120 * 17408);
    assert_eq!(mtp, 424_699_392);
    let p = common::plan_id("Qwen/Qwen3.6-27B");
    let params = p.params.unwrap();
    assert_eq!(params.checkpoint, Some(27_781_427_952));
    assert_eq!(params.derived, 27_781_427_952 - mtp);
    assert_eq!(params.reconciliation.unexplained, Some(0));
}
