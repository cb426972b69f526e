//! Helper txc's types: each count written out by hand from the config's numbers and the config
//! classes' defaults (transformers 5.24 `configuration_<type>.py`), the shapes from the modeling
//! files; the sums are checked against transformers on the meta device
//! (tools/validate/params_report_txc.md).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn page(config: Value) -> modelatlas::page::ModelPage {
    plan_text(&config.to_string()).unwrap()
}

fn small_audio_lm(model_type: &str, class: &str) -> Value {
    json!({"model_type": model_type, "architectures": [class],
        "audio_config": {"model_type": "audioflamingo3_encoder", "num_hidden_layers": 2,
            "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128,
            "num_mel_bins": 16, "max_source_positions": 30},
        "text_config": {"model_type": "qwen2", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 96,
            "vocab_size": 1000, "tie_word_embeddings": true},
        "tie_word_embeddings": true})
}

/// The small audio tower: Whisper's encoder at width 64, 16 mel bins, 30 frames, 2 layers of MLP
/// 128, then its LayerNorm (the average pooling has no weights).
const TOWER: u64 = (64 * 16 * 3 + 64) // conv1, kernel 3
    + (64 * 64 * 3 + 64) // conv2, kernel 3, stride 2
    + 30 * 64 // embed_positions (frozen, still a parameter)
    + 2 * (2 * 64 // self_attn_layer_norm
        + (64 * 64 + 64) + 64 * 64 + (64 * 64 + 64) + (64 * 64 + 64) // q, k (no bias), v, out
        + 2 * 64 // final_layer_norm
        + (64 * 128 + 128) + (128 * 64 + 64)) // fc1, fc2
    + 2 * 64; // layer_norm

/// Qwen2 at hidden 64, 4 heads of 16 over 2 KV heads, MLP 96, vocab 1000: q, k, v with biases,
/// o without; a gated MLP; two RMSNorms per layer; the final norm.
const QWEN2_BODY: u64 =
    1000 * 64 + 2 * ((64 * 64 + 64) + 2 * (64 * 32 + 32) + 64 * 64 + 3 * 64 * 96 + 2 * 64) + 64;

#[test]
fn audioflamingo3_counts_whisper_tower_projector_and_an_untied_head() {
    // Projector: linear_1 64 -> 64 and linear_2 64 -> 64, both with bias (projector_bias).
    let projector = 2 * (64 * 64 + 64);
    // `_tied_weights_keys = None`: lm_head (1000 x 64) stays its own matrix though both flags
    // ask for a tie.
    let head = 1000 * 64;
    let p = page(small_audio_lm("audioflamingo3", "AudioFlamingo3ForConditionalGeneration"));
    assert_eq!(p.params.unwrap().derived, TOWER + projector + QWEN2_BODY + head);
    // transformers 5.24 builds this model with 282,688 parameters (meta device,
    // AudioFlamingo3ForConditionalGeneration, tie_weights() called; /tmp script of helper txc).
    assert_eq!(TOWER + projector + QWEN2_BODY + head, 282_688);
}

#[test]
fn musicflamingo_is_audio_flamingo_3s_weights_without_a_head_in_its_bare_model() {
    // The rotary time embedding holds buffers only; MusicFlamingoModel has no lm_head.
    let mut config = small_audio_lm("musicflamingo", "MusicFlamingoModel");
    config["projector_bias"] = json!(false);
    let projector = 2 * 64 * 64;
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, TOWER + projector + QWEN2_BODY);
}

#[test]
fn audio_lm_bad_values_name_their_field() {
    for (edit, field) in [
        (
            json!({"audio_config": {"num_attention_heads": 3, "hidden_size": 64}}),
            "audio_config.num_attention_heads",
        ),
        (json!({"audio_config": {"model_type": "whisper"}}), "audio_config.model_type"),
        (json!({"projector_bias": "yes"}), "projector_bias"),
        (json!({"architectures": ["AudioFlamingo3ForCausalLM"]}), "architectures[0]"),
    ] {
        let mut config = json!({"model_type": "audioflamingo3"});
        for (k, v) in edit.as_object().unwrap() {
            config[k] = v.clone();
        }
        let err = plan_text(&config.to_string()).unwrap_err().to_string();
        assert!(err.contains(field), "{config}: {err}");
    }
}

/// A BLT layer of width `h`, `heads` query heads over `kv` key/value heads, SwiGLU `ffn`: two
/// RMSNorms, q/k/v/o without biases, gate/up/down.
fn blt_layer(h: u64, heads: u64, kv: u64, ffn: u64) -> u64 {
    let hd = h / heads;
    2 * h + h * heads * hd + 2 * h * kv * hd + heads * hd * h + 3 * h * ffn
}

/// A BLT cross-attention of width `h` (multi-head): q_norm and k_norm, q/k/v/o without biases.
fn blt_cross(h: u64) -> u64 {
    2 * h + 4 * h * h
}

#[test]
fn blt_counts_hash_embeddings_patcher_and_three_stacks() {
    let config = json!({"model_type": "blt", "architectures": ["BltForCausalLM"],
        "encoder_config": {"hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2},
        "global_config": {"hidden_size": 128, "num_attention_heads": 4, "num_hidden_layers": 2,
            "intermediate_size": 200},
        "decoder_config": {"hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
            "intermediate_size": 96, "hidden_size_global": 128},
        "patcher_config": {"hidden_size": 32, "num_attention_heads": 2, "num_hidden_layers": 1,
            "intermediate_size": 48},
        "encoder_hash_byte_group_vocab": 100, "encoder_hash_byte_group_size": [3, 4]});
    // Embeddings: 260 bytes x 64; hash tables 1 function x 2 n-gram sizes x 100 rows x 64.
    let embeddings = 260 * 64 + 2 * 100 * 64;
    // Local encoder: MLP int(8 * 64 / 3) = 170; patch projection 64 -> 64 x cross_attn_k 2; one
    // cross-attention (cross_attn_all_layers false by default).
    let encoder = 2 * blt_layer(64, 4, 4, 170) + 64 * 128 + blt_cross(64);
    // Global: 64 x cross_attn_k 2 = 128 is its width, so no token_embedding_projection.
    let global = 2 * blt_layer(128, 4, 4, 200);
    // Local decoder: projection from hidden_size_global 128 to 64 x 2, a cross-attention per
    // layer (true by default), its layers, its norm.
    let decoder = 128 * 128 + 2 * blt_cross(64) + 2 * blt_layer(64, 4, 4, 96) + 64;
    // Patcher: 260 x 32 embeddings, one layer, norm, its own 260 x 32 head.
    let patcher = 260 * 32 + blt_layer(32, 2, 2, 48) + 32 + 260 * 32;
    // lm_head 260 x 64, untied (tie_word_embeddings false by default).
    let head = 260 * 64;
    let total = embeddings + encoder + global + decoder + patcher + head;
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, total);
    // transformers 5.24 builds this model with 599,072 parameters (meta device, BltForCausalLM,
    // tie_weights() called; script of helper txc).
    assert_eq!(total, 599_072);
}

#[test]
fn blt_bad_values_name_their_field() {
    for (edit, field) in [
        (json!({"decoder_config": {"intermediate_size": null}}), "decoder_config.intermediate_size"),
        (json!({"encoder_config": {"num_hidden_layers": 0}}), "encoder_config.num_hidden_layers"),
        (json!({"encoder_hash_byte_group_vocab": 0}), "encoder_hash_byte_group_vocab"),
        (
            json!({"architectures": ["BltForCausalLM"], "tie_word_embeddings": true,
                "decoder_config": {"hidden_size": 128}}),
            "tie_word_embeddings",
        ),
    ] {
        let mut config = json!({"model_type": "blt"});
        for (k, v) in edit.as_object().unwrap() {
            config[k] = v.clone();
        }
        let err = plan_text(&config.to_string()).unwrap_err().to_string();
        assert!(err.contains(field), "{config}: {err}");
    }
}

#[test]
fn moshi_text_decoder_counts_a_padding_row_and_a_half_width_fc2() {
    let config = json!({"model_type": "moshi", "architectures": ["MoshiForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "ffn_dim": 96});
    // embed_tokens: vocab_size + 1 rows x 64.
    let embed = 1001 * 64;
    // A layer: two RMSNorms; q, k, v, o 64 x 64 (4 heads of 16, KV heads default to 4), no
    // biases; fc1 64 -> 96 (gate and value), fc2 from half of it, 48 -> 64.
    let layer = 2 * 64 + 4 * 64 * 64 + 64 * 96 + 48 * 64;
    // The final norm, and lm_head 1000 x 64, never tied.
    let total = embed + 2 * layer + 64 + 1000 * 64;
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, total);
    // transformers 5.24 builds this model with 179,584 parameters (meta device, MoshiForCausalLM).
    assert_eq!(total, 179_584);
}

#[test]
fn moshi_with_the_codec_is_unsupported_with_why() {
    let p = page(json!({"model_type": "moshi", "architectures": ["MoshiForConditionalGeneration"]}));
    assert!(!p.supported);
    assert!(p.unsupported_reason.unwrap().contains("Mimi audio codec"));
}

#[test]
fn moshi_bad_values_name_their_field() {
    for (edit, field) in [
        (json!({"ffn_dim": 97}), "ffn_dim"),
        (json!({"hidden_size": 64, "num_attention_heads": 5}), "num_attention_heads"),
    ] {
        let mut config = json!({"model_type": "moshi"});
        for (k, v) in edit.as_object().unwrap() {
            config[k] = v.clone();
        }
        let err = plan_text(&config.to_string()).unwrap_err().to_string();
        assert!(err.contains(field), "{config}: {err}");
    }
}
