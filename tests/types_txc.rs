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

/// Each case's keys, set on a config of `model_type`, must fail naming `field`.
fn assert_bad(model_type: &str, cases: &[(Value, &str)]) {
    for (edit, field) in cases {
        let mut config = json!({"model_type": model_type});
        for (k, v) in edit.as_object().unwrap() {
            config[k] = v.clone();
        }
        let err = plan_text(&config.to_string()).unwrap_err().to_string();
        assert!(err.contains(field), "{config}: {err}");
    }
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
    let cases = [
        (
            json!({"audio_config": {"num_attention_heads": 3, "hidden_size": 64}}),
            "audio_config.num_attention_heads",
        ),
        (json!({"audio_config": {"model_type": "whisper"}}), "audio_config.model_type"),
        (json!({"projector_bias": "yes"}), "projector_bias"),
        (json!({"architectures": ["AudioFlamingo3ForCausalLM"]}), "architectures[0]"),
    ];
    assert_bad("audioflamingo3", &cases);
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
    let cases = [
        (json!({"decoder_config": {"intermediate_size": null}}), "decoder_config.intermediate_size"),
        (json!({"encoder_config": {"num_hidden_layers": 0}}), "encoder_config.num_hidden_layers"),
        (json!({"encoder_hash_byte_group_vocab": 0}), "encoder_hash_byte_group_vocab"),
        (
            json!({"architectures": ["BltForCausalLM"], "tie_word_embeddings": true,
                "decoder_config": {"hidden_size": 128}}),
            "tie_word_embeddings",
        ),
    ];
    assert_bad("blt", &cases);
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

/// Mimi's SEANet residual block at `dim` channels (compress 2, kernel 3, no shortcut): a
/// biased conv to dim / 2, a biased 1x1 conv back.
fn mimi_resnet(dim: u64) -> u64 {
    (dim / 2 * dim * 3 + dim / 2) + (dim * dim / 2 + dim)
}

#[test]
fn moshi_with_the_mimi_codec_and_the_depth_decoder_counts_them_all() {
    let config = json!({"model_type": "moshi", "architectures": ["MoshiForConditionalGeneration"],
        "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "ffn_dim": 96, "num_codebooks": 4,
        "depth_decoder_config": {"hidden_size": 32, "num_hidden_layers": 2,
            "num_attention_heads": 4, "ffn_dim": 48},
        "audio_encoder_config": {"model_type": "mimi", "num_quantizers": 8, "codebook_size": 128,
            "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
            "num_key_value_heads": 4, "intermediate_size": 96, "num_filters": 8,
            "upsample_groups": 8, "vector_quantization_hidden_dimension": 32}});
    // Mimi, upsampling_ratios [8, 6, 5, 4] by default, kernels 7 / 3, one residual layer.
    // Encoder: 1 -> 8 channels; per ratio (4, 5, 6, 8 in turn) a residual block at 8 << s and a
    // biased downsampling conv to twice the channels, kernel 2 x ratio; 128 -> 64, kernel 3.
    let seanet_encoder = (8 * 7 + 8)
        + mimi_resnet(8)
        + (16 * 8 * 8 + 16)
        + mimi_resnet(16)
        + (32 * 16 * 10 + 32)
        + mimi_resnet(32)
        + (64 * 32 * 12 + 64)
        + mimi_resnet(64)
        + (128 * 64 * 16 + 128)
        + (64 * 128 * 3 + 64);
    // Decoder: 64 -> 128, kernel 7; per ratio (8, 6, 5, 4) a transposed conv halving the
    // channels ([in, out, 2 x ratio] and a bias) then a residual block; 8 -> 1, kernel 3.
    let seanet_decoder = (128 * 64 * 7 + 128)
        + (128 * 64 * 16 + 64)
        + mimi_resnet(64)
        + (64 * 32 * 12 + 32)
        + mimi_resnet(32)
        + (32 * 16 * 10 + 16)
        + mimi_resnet(16)
        + (16 * 8 * 8 + 8)
        + mimi_resnet(8)
        + (8 * 3 + 1);
    // One transformer layer on each side: q, k, v, o 64 x 64, MLP 64 -> 96 -> 64 (no biases),
    // two LayerNorms (weight, bias), two layer scales.
    let transformers = 2 * (4 * 64 * 64 + 2 * 64 * 96 + 2 * 2 * 64 + 2 * 64);
    // Frame rate 24000 / (960 x 2) = 12.5 against the encoder's ceil(24000 / 960) = 25: the
    // latent stride is 2, so a downsampling conv [64, 64, 4] and an upsampling transposed conv
    // in 8 groups [64, 8, 4], both without bias.
    let resample = 64 * 64 * 4 + 64 * 8 * 4;
    // The quantizer's codebooks are buffers; its width 32 differs from 64, so the semantic and
    // acoustic quantizers each hold a 1x1 input and output projection.
    let quantizer = 2 * (32 * 64 + 64 * 32);
    let mimi = seanet_encoder + seanet_decoder + transformers + resample + quantizer;
    // Audio embeddings: 2 x num_codebooks of audio_vocab_size (the codec's codebook_size 128)
    // + 1 rows x 64.
    let audio_embeddings = 8 * 129 * 64;
    // The text decoder: MoshiForCausalLM as in the test above.
    let text = 1001 * 64 + 2 * (2 * 64 + 4 * 64 * 64 + 64 * 96 + 48 * 64) + 64 + 1000 * 64;
    // Depth decoder (input_size, vocab_size, audio_vocab_size and num_codebooks from the top):
    // text embeddings 1001 x 32, 3 audio embeddings 129 x 32, input projections [4, 32, 64],
    // two layers whose every linear is per codebook ([4, out, in]: q, k, v, o 32 x 32, fc1
    // 32 -> 48, fc2 24 -> 32) with two RMSNorms, heads [4, 128, 32].
    let depth_layer = 2 * 32 + 4 * (4 * 32 * 32) + 4 * 48 * 32 + 4 * 32 * 24;
    let depth = 1001 * 32 + 3 * 129 * 32 + 4 * 32 * 64 + 2 * depth_layer + 4 * 128 * 32;
    let total = mimi + audio_embeddings + text + depth;
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, total);
    // transformers 5.24 builds this model with 878,953 parameters (meta device,
    // MoshiForConditionalGeneration: audio_encoder 513,001, decoder 179,584, depth_decoder
    // 120,320; script of helper txc).
    assert_eq!((mimi, depth, total), (513_001, 120_320, 878_953));
}

#[test]
fn moshi_bad_values_name_their_field() {
    let cases = [
        (json!({"ffn_dim": 97}), "ffn_dim"),
        (json!({"hidden_size": 64, "num_attention_heads": 5}), "num_attention_heads"),
        (
            json!({"architectures": ["MoshiForConditionalGeneration"], "audio_encoder_config": {"codebook_size": 100}}),
            "audio_encoder_config.codebook_size",
        ),
        (json!({"architectures": ["MoshiForConditionalGeneration"]}), "audio_vocab_size"),
    ];
    assert_bad("moshi", &cases);
}
