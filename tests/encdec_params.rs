//! Parameter counts of the encoder-decoder families (T5, mT5, UMT5, BART, Whisper), each written
//! out from the config by hand. Published figures come from tests/fixtures/reference/checkpoints.tsv,
//! not from this code. Dims.num_layers of an encoder-decoder is the decoder's depth.

mod common;

use common::{plan_id, plan_text, published_counts, reference_config_with};
use modelatlas::estimate::reconcile::Status;
use serde_json::json;

// ---- T5: bias-free linears, scale-only RMSNorms, no position table ----

/// q, k, v (d -> heads x d_kv) and o (heads x d_kv -> d), no biases.
fn t5_attention(d: u64, inner: u64) -> u64 {
    4 * d * inner
}

/// wi (or wi_0 and wi_1 when gated) d -> d_ff, wo d_ff -> d, no biases.
fn t5_ffn(d: u64, ff: u64, gated: bool) -> u64 {
    (if gated { 3 } else { 2 }) * d * ff
}

/// Self-attention and feed-forward, each after an RMSNorm of d scales.
fn t5_encoder_block(d: u64, inner: u64, ff: u64, gated: bool) -> u64 {
    t5_attention(d, inner) + t5_ffn(d, ff, gated) + 2 * d
}

/// Self-attention, cross-attention and feed-forward, three RMSNorms.
fn t5_decoder_block(d: u64, inner: u64, ff: u64, gated: bool) -> u64 {
    2 * t5_attention(d, inner) + t5_ffn(d, ff, gated) + 3 * d
}

/// What a T5/MT5 stack has once: the first block's relative bias table and the final norm.
fn t5_stack_once(d: u64, buckets: u64, heads: u64) -> u64 {
    buckets * heads + d
}

fn derived(config: &str) -> u64 {
    plan_text(config).unwrap().params.unwrap().derived
}

/// The count under transformers 4.x the page states beside the 5.x one, when they differ.
fn derived_4x(config: &str) -> Option<u64> {
    let note = plan_text(config).unwrap().params.unwrap().other_release?;
    assert_eq!(serde_json::to_value(note.release).unwrap(), "4.x");
    Some(note.derived)
}

#[test]
fn t5_small_is_60_506_624() {
    // config.json: vocab 32128, d_model 512, 8 heads x d_kv 64, d_ff 2048, relu, 6 + 6 layers,
    // 32 buckets, tied (T5Config's default): lm_head, encoder/decoder embed_tokens share `shared`.
    let shared = 32_128 * 512;
    assert_eq!(shared, 16_449_536);
    assert_eq!(t5_encoder_block(512, 512, 2048, false), 3_146_752);
    assert_eq!(t5_decoder_block(512, 512, 2048, false), 4_195_840);
    let expected = shared
        + 2 * t5_stack_once(512, 32, 8)
        + 6 * t5_encoder_block(512, 512, 2048, false)
        + 6 * t5_decoder_block(512, 512, 2048, false);
    assert_eq!(expected, 60_506_624);

    let page = plan_id("google-t5/t5-small");
    assert_eq!(page.family, "t5");
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.derived, expected);
    // No published checkpoint count for t5-small (checkpoints.tsv: "not found").
    assert!(!published_counts().contains_key("google-t5/t5-small"));
    assert_eq!(p.reconciliation.status, Status::Unknown);
    let tied: Vec<(&str, &str)> = p.tied.iter().map(|t| (t.tensor.as_str(), t.tied_to.as_str())).collect();
    assert_eq!(
        tied,
        [
            ("encoder.embed_tokens.weight", "shared.weight"),
            ("decoder.embed_tokens.weight", "shared.weight"),
            ("lm_head.weight", "shared.weight")
        ]
    );
    let g = page.structure.as_ref().unwrap();
    let names: Vec<String> = g.tensors().map(|(n, _)| n).collect();
    for name in [
        "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
        "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
        "encoder.block.5.layer.1.DenseReluDense.wi.weight",
        "decoder.block.5.layer.1.EncDecAttention.o.weight",
        "decoder.block.5.layer.2.DenseReluDense.wo.weight",
        "decoder.final_layer_norm.weight",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} missing");
    }
    assert!(
        !names.iter().any(|n| n == "encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight")
    );
    assert_eq!(page.config.as_ref().unwrap().num_layers, 6, "the decoder's depth");
}

#[test]
fn mt5_base_ties_its_lm_head_under_5x_and_is_582_401_280_under_4x_which_unties_it() {
    // config.json: vocab 250112, d_model 768, 12 heads x 64, d_ff 2048, gated-gelu, 12 + 12 layers,
    // tie_word_embeddings false: under 4.x lm_head is a second vocab x d matrix; 5.x's MT5Config
    // forces tie_word_embeddings to true (configuration_mt5.py), so lm_head shares `shared`.
    let shared = 250_112 * 768;
    assert_eq!(shared, 192_086_016);
    assert_eq!(t5_encoder_block(768, 768, 2048, true), 7_079_424);
    assert_eq!(t5_decoder_block(768, 768, 2048, true), 9_439_488);
    let expected = shared
        + 2 * t5_stack_once(768, 32, 12)
        + 12 * t5_encoder_block(768, 768, 2048, true)
        + 12 * t5_decoder_block(768, 768, 2048, true)
        + 250_112 * 768;
    assert_eq!(expected, 582_401_280);
    let tied = expected - 250_112 * 768;
    assert_eq!(tied, 390_315_264);
    let page = plan_id("google/mt5-base");
    assert_eq!(page.params.as_ref().unwrap().derived, tied);
    assert!(!published_counts().contains_key("google/mt5-base"));
    let p = page.params.unwrap();
    assert_eq!(p.other_release.as_ref().map(|n| n.derived), Some(expected), "4.x counts the untied head");
    assert!(p.tied.iter().any(|t| t.tensor == "lm_head.weight" && t.tied_to == "shared.weight"));
    assert_eq!(p.tied.len(), 3, "the stacks' embed_tokens and lm_head share `shared`");
}

#[test]
fn t5_mt5_and_umt5_defaults_follow_their_config_classes() {
    // T5Config(): vocab 32128, d_model 512, d_kv 64, 8 heads, d_ff 2048, relu, 6 + 6 layers;
    // no architectures -> T5Model (no LM head).
    let t5 = 32_128 * 512
        + 2 * t5_stack_once(512, 32, 8)
        + 6 * t5_encoder_block(512, 512, 2048, false)
        + 6 * t5_decoder_block(512, 512, 2048, false);
    assert_eq!(derived(r#"{"model_type": "t5"}"#), t5);

    // MT5Config(): vocab 250112, d_model 512, 6 heads x 64 (inner 384), d_ff 1024, gated-gelu,
    // 8 + 8 layers -> MT5Model.
    let mt5_blocks = 8 * t5_encoder_block(512, 384, 1024, true) + 8 * t5_decoder_block(512, 384, 1024, true);
    let mt5 = 250_112 * 512 + 2 * t5_stack_once(512, 32, 6) + mt5_blocks;
    // 128,057,344 + 2 x 704 + 8 x 2,360,320 + 8 x 3,147,264
    assert_eq!(mt5, 172_119_424);
    assert_eq!(derived(r#"{"model_type": "mt5"}"#), mt5);

    // UMT5Config(): MT5's sizes, but a 32 x 6 bias table in every self-attention (16 of them)
    // instead of one per stack.
    let umt5 = 250_112 * 512 + 16 * (32 * 6) + 2 * 512 + mt5_blocks;
    assert_eq!(umt5, mt5 + 14 * 32 * 6);
    assert_eq!(derived(r#"{"model_type": "umt5"}"#), umt5);
}

#[test]
fn t5_heads_are_sized_from_the_config() {
    let shared = 32_128 * 512;
    let encoder = t5_stack_once(512, 32, 8) + 6 * t5_encoder_block(512, 512, 2048, false);
    let decoder = t5_stack_once(512, 32, 8) + 6 * t5_decoder_block(512, 512, 2048, false);
    let cases = [
        // 5.x's T5Config forces the tie whatever the file says (4.x: see below).
        (json!({"tie_word_embeddings": false}), shared + encoder + decoder),
        (json!({"architectures": ["T5EncoderModel"]}), shared + encoder),
        // T5ClassificationHead: dense d x d + d, out_proj d x labels + labels.
        (
            json!({"architectures": ["T5ForSequenceClassification"], "id2label": {"0": "a", "1": "b", "2": "c"}}),
            shared + encoder + decoder + (512 * 512 + 512) + (512 * 3 + 3),
        ),
        // On the encoder alone.
        (
            json!({"architectures": ["T5ForTokenClassification"], "num_labels": 9}),
            shared + encoder + (512 * 9 + 9),
        ),
        // qa_outputs: d -> num_labels (2 by default), with bias.
        (json!({"architectures": ["T5ForQuestionAnswering"]}), shared + encoder + decoder + (512 * 2 + 2)),
    ];
    for (patch, expected) in cases {
        let config = reference_config_with("google-t5--t5-small", patch.clone());
        assert_eq!(derived(&config), expected, "{patch}");
    }
    // Under 4.x the untied lm_head is its own matrix; the page says so beside the 5.x count.
    let untied = reference_config_with("google-t5--t5-small", json!({"tie_word_embeddings": false}));
    assert_eq!(derived_4x(&untied), Some(shared + encoder + decoder + 32_128 * 512));
    let tied = reference_config_with("google-t5--t5-small", json!({}));
    assert_eq!(derived_4x(&tied), None, "tied: both releases count the same");
    // Head classes keep the model under `transformer.`.
    let config =
        reference_config_with("google-t5--t5-small", json!({"architectures": ["T5ForTokenClassification"]}));
    let page = plan_text(&config).unwrap();
    let names: Vec<String> = page.structure.unwrap().tensors().map(|(n, _)| n).collect();
    assert!(names.contains(&"transformer.shared.weight".to_string()));
    assert!(names.contains(&"classifier.weight".to_string()));
    assert_eq!(page.config.unwrap().num_layers, 6, "no decoder: the encoder's depth");
}

#[test]
fn t5_d_kv_times_heads_need_not_equal_d_model() {
    // inner = 4 heads x 32 = 128 while d_model is 512: q, k, v are 512 -> 128, o 128 -> 512.
    let config = r#"{"model_type": "t5", "architectures": ["T5EncoderModel"], "num_heads": 4, "d_kv": 32}"#;
    let expected = 32_128 * 512 + t5_stack_once(512, 32, 4) + 6 * t5_encoder_block(512, 128, 2048, false);
    assert_eq!(derived(config), expected);
}

// ---- BART: biased linears, post-LayerNorm, learned positions with 2 offset rows ----

/// q, k, v, out (d x d + d each), two LayerNorms (2d each), fc1 and fc2.
fn bart_encoder_layer(d: u64, ffn: u64) -> u64 {
    4 * (d * d + d) + 2 * (2 * d) + (d * ffn + ffn) + (ffn * d + d)
}

/// Self- and cross-attention, three LayerNorms, fc1 and fc2.
fn bart_decoder_layer(d: u64, ffn: u64) -> u64 {
    8 * (d * d + d) + 3 * (2 * d) + (d * ffn + ffn) + (ffn * d + d)
}

/// A stack's own embeddings: (max_position_embeddings + 2) learned positions and
/// layernorm_embedding; its embed_tokens is `shared`.
fn bart_stack_embeddings(positions: u64, d: u64) -> u64 {
    (positions + 2) * d + 2 * d
}

fn bart_model(vocab: u64, positions: u64, d: u64, layers: (u64, u64), ffn: u64) -> u64 {
    vocab * d
        + 2 * bart_stack_embeddings(positions, d)
        + layers.0 * bart_encoder_layer(d, ffn)
        + layers.1 * bart_decoder_layer(d, ffn)
}

#[test]
fn bart_base_and_large_models_are_derived_by_hand() {
    // bart-base: vocab 50265, 1024 positions, d_model 768, 6 + 6 layers, ffn 3072; BartModel.
    assert_eq!(bart_encoder_layer(768, 3072), 7_087_872);
    assert_eq!(bart_decoder_layer(768, 3072), 9_451_776);
    let base = bart_model(50_265, 1024, 768, (6, 6), 3072);
    assert_eq!(base, 139_420_416);
    let page = plan_id("facebook/bart-base");
    assert_eq!(page.params.as_ref().unwrap().derived, base);
    assert!(!published_counts().contains_key("facebook/bart-base"));
    assert_eq!(page.config.as_ref().unwrap().usable_context, 1024);
    let names: Vec<String> = page.structure.unwrap().tensors().map(|(n, _)| n).collect();
    assert!(names.contains(&"encoder.layernorm_embedding.bias".to_string()));
    assert!(names.contains(&"decoder.layers.5.encoder_attn.k_proj.bias".to_string()));

    // bart-large: d_model 1024, 12 + 12 layers, ffn 4096.
    let large = bart_model(50_265, 1024, 1024, (12, 12), 4096);
    assert_eq!(large, 406_291_456);
    assert_eq!(plan_id("facebook/bart-large").params.unwrap().derived, large);
    assert!(!published_counts().contains_key("facebook/bart-large"));
}

#[test]
fn bart_default_config_is_bart_large_sized() {
    // BartConfig(): vocab 50265, 1024 positions, d_model 1024, 12 + 12 layers, ffn 4096 -> BartModel.
    assert_eq!(derived(r#"{"model_type": "bart"}"#), bart_model(50_265, 1024, 1024, (12, 12), 4096));
}

#[test]
fn bart_heads_and_the_final_logits_bias_buffer() {
    let base = bart_model(50_265, 1024, 768, (6, 6), 3072);
    let cases = [
        // lm_head is tied to shared; final_logits_bias is a buffer, not a parameter.
        (json!({"architectures": ["BartForConditionalGeneration"]}), base),
        // Untied under 5.x: lm_head, and each stack's embed_tokens apart from `shared`.
        (
            json!({"architectures": ["BartForConditionalGeneration"], "tie_word_embeddings": false}),
            base + 3 * 50_265 * 768,
        ),
        // BartClassificationHead with the config's 3 labels (id2label).
        (
            json!({"architectures": ["BartForSequenceClassification"]}),
            base + (768 * 768 + 768) + (768 * 3 + 3),
        ),
        // BartForQuestionAnswering forces 2 labels.
        (json!({"architectures": ["BartForQuestionAnswering"]}), base + 768 * 2 + 2),
        // The decoder alone, with its own token table (lm_head tied to it).
        (
            json!({"architectures": ["BartForCausalLM"]}),
            50_265 * 768 + bart_stack_embeddings(1024, 768) + 6 * bart_decoder_layer(768, 3072),
        ),
    ];
    for (patch, expected) in cases {
        let config = reference_config_with("facebook--bart-base", patch.clone());
        assert_eq!(derived(&config), expected, "{patch}");
    }
    // 4.x keeps the stacks on `shared` whatever the flag: only lm_head is added.
    let untied = reference_config_with(
        "facebook--bart-base",
        json!({"architectures": ["BartForConditionalGeneration"], "tie_word_embeddings": false}),
    );
    assert_eq!(derived_4x(&untied), Some(base + 50_265 * 768));
    let config = reference_config_with(
        "facebook--bart-base",
        json!({"architectures": ["BartForConditionalGeneration"]}),
    );
    let (common, value) = modelatlas::config::parse(&config).unwrap();
    let arch = (modelatlas::family::info("bart").unwrap().resolve.unwrap())(&value, &common).unwrap();
    let buffer =
        arch.checkpoint_candidates().into_iter().find(|c| c.label == "final_logits_bias buffer").unwrap();
    assert_eq!(buffer.tensors, [("final_logits_bias".to_string(), vec![1, 50_265])]);
    assert!(buffer.in_checkpoint_only);
    let g = arch.graph(16);
    assert!(g.tensors().all(|(n, _)| n != "final_logits_bias"));
    assert!(
        g.tensors()
            .any(|(n, t)| n == "lm_head.weight" && t.tied_to.as_deref() == Some("model.shared.weight"))
    );
}

// ---- Whisper: conv front end, biased linears except the key projections, pre-LayerNorm ----

/// conv1 (mel -> d, kernel 3) and conv2 (d -> d, kernel 3), each with a bias.
fn whisper_convs(mel: u64, d: u64) -> u64 {
    (d * mel * 3 + d) + (d * d * 3 + d)
}

/// q, v, out with biases, k without.
fn whisper_attention(d: u64) -> u64 {
    4 * d * d + 3 * d
}

fn whisper_encoder_layer(d: u64, ffn: u64) -> u64 {
    whisper_attention(d) + 2 * (2 * d) + (d * ffn + ffn) + (ffn * d + d)
}

fn whisper_decoder_layer(d: u64, ffn: u64) -> u64 {
    2 * whisper_attention(d) + 3 * (2 * d) + (d * ffn + ffn) + (ffn * d + d)
}

/// Encoder: convs, frozen sinusoidal positions (a parameter in 4.57.1: nn.Embedding with
/// requires_grad False), layers, final LayerNorm. Decoder: tokens, learned positions, layers,
/// final LayerNorm.
fn whisper_model(vocab: u64, mel: u64, d: u64, layers: u64, ffn: u64, src: u64, tgt: u64) -> u64 {
    let encoder = whisper_convs(mel, d) + src * d + layers * whisper_encoder_layer(d, ffn) + 2 * d;
    let decoder = vocab * d + tgt * d + layers * whisper_decoder_layer(d, ffn) + 2 * d;
    encoder + decoder
}

/// whisper-small's published dimensions: d_model 768, 12 + 12 layers, 12 heads, ffn 3072,
/// vocab 51865, 80 mel bins, 1500 source and 448 target positions.
fn whisper_small(patch: serde_json::Value) -> String {
    let mut v = json!({
        "model_type": "whisper", "architectures": ["WhisperForConditionalGeneration"],
        "d_model": 768, "encoder_layers": 12, "decoder_layers": 12,
        "encoder_attention_heads": 12, "decoder_attention_heads": 12,
        "encoder_ffn_dim": 3072, "decoder_ffn_dim": 3072, "vocab_size": 51865, "num_mel_bins": 80,
        "max_source_positions": 1500, "max_target_positions": 448
    });
    for (k, val) in patch.as_object().unwrap() {
        v[k] = val.clone();
    }
    v.to_string()
}

#[test]
fn whisper_small_equals_its_published_checkpoint() {
    assert_eq!(whisper_encoder_layer(768, 3072), 7_087_104);
    assert_eq!(whisper_decoder_layer(768, 3072), 9_450_240);
    // proj_out is tied to the decoder's token table (PretrainedConfig ties by default).
    let expected = whisper_model(51_865, 80, 768, 12, 3072, 1500, 448);
    assert_eq!(expected, 241_734_912);
    assert_eq!(published_counts()["openai/whisper-small"], expected, "the checkpoint holds exactly these");
    let page = plan_text(&whisper_small(json!({}))).unwrap();
    assert_eq!(page.family, "whisper");
    assert_eq!(page.params.as_ref().unwrap().derived, expected);
    let tied = &page.params.as_ref().unwrap().tied;
    assert_eq!(tied.len(), 1);
    assert_eq!(
        (tied[0].tensor.as_str(), tied[0].tied_to.as_str()),
        ("proj_out.weight", "model.decoder.embed_tokens.weight")
    );
    let dims = page.config.unwrap();
    assert_eq!((dims.num_layers, dims.context), (12, 448), "the decoder's depth and token positions");
    let names: Vec<String> = page.structure.unwrap().tensors().map(|(n, _)| n).collect();
    assert!(names.contains(&"model.encoder.embed_positions.weight".to_string()));
    assert!(names.contains(&"model.encoder.conv2.bias".to_string()));
    assert!(!names.contains(&"model.encoder.layers.0.self_attn.k_proj.bias".to_string()));
    assert!(names.contains(&"model.decoder.layers.11.encoder_attn.q_proj.bias".to_string()));
}

#[test]
fn whisper_default_config_is_whisper_tiny_sized() {
    // WhisperConfig(): vocab 51865, 80 mel bins, d_model 384, 4 + 4 layers, ffn 1536, 1500 / 448
    // positions -> WhisperModel (no proj_out).
    let expected = whisper_model(51_865, 80, 384, 4, 1536, 1500, 448);
    assert_eq!(expected, 37_760_640);
    assert_eq!(derived(r#"{"model_type": "whisper"}"#), expected);
}

#[test]
fn whisper_heads_are_sized_from_the_config() {
    let model = whisper_model(51_865, 80, 768, 12, 3072, 1500, 448);
    assert_eq!(derived(&whisper_small(json!({"tie_word_embeddings": false}))), model + 51_865 * 768);
    let encoder = whisper_convs(80, 768) + 1500 * 768 + 12 * whisper_encoder_layer(768, 3072) + 2 * 768;
    // projector d -> 256, classifier 256 -> labels, and with the weighted layer sum a weight for
    // each of the 12 layers plus the embeddings.
    let classify = json!({"architectures": ["WhisperForAudioClassification"], "num_labels": 5, "use_weighted_layer_sum": true});
    assert_eq!(derived(&whisper_small(classify)), encoder + (768 * 256 + 256) + (256 * 5 + 5) + 13);
    let decoder = 51_865 * 768 + 448 * 768 + 12 * whisper_decoder_layer(768, 3072) + 2 * 768;
    assert_eq!(derived(&whisper_small(json!({"architectures": ["WhisperForCausalLM"]}))), decoder);
}

#[test]
fn bad_encoder_decoder_configs_name_the_field() {
    for (config, field) in [
        (r#"{"model_type": "t5", "num_heads": 0}"#, "num_heads"),
        (r#"{"model_type": "mt5", "feed_forward_proj": "gated-gelu-x"}"#, "feed_forward_proj"),
        (r#"{"model_type": "bart", "decoder_ffn_dim": -1}"#, "decoder_ffn_dim"),
        (r#"{"model_type": "whisper", "encoder_layers": 0}"#, "encoder_layers"),
        (r#"{"model_type": "whisper", "architectures": ["BartModel"]}"#, "architectures[0]"),
    ] {
        match plan_text(config) {
            Err(e) => {
                let modelatlas::config::ConfigError::Field { field: f, .. } = e.error else {
                    panic!("{config}: {e}")
                };
                assert_eq!(f, field, "{config}");
            }
            Ok(_) => panic!("{config}: expected an error on {field}"),
        }
    }
}
