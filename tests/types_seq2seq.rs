//! Parameter counts of the BART lineage described in `config/seq2seq.rs` (mBART, PLBART, MVP,
//! Marian, Pegasus, M2M-100, Blenderbot, BlenderbotSmall), each written out by hand from the
//! type's modeling file for a small config: a shared token table, per stack its positions and
//! norms, BART's layers, and the head.

mod common;

use common::plan_text;

const D: u64 = 64;
const FFN: u64 = 128;
const VOCAB: u64 = 1000;
const POSITIONS: u64 = 128;
const ENC: u64 = 2;
const DEC: u64 = 3;

/// A LayerNorm: a scale and a shift per channel.
const NORM: u64 = 2 * D;

/// q, k, v, out: d -> d with biases.
fn attention() -> u64 {
    4 * (D * D + D)
}

/// fc1 d -> ffn and fc2 ffn -> d, with biases.
fn mlp() -> u64 {
    (D * FFN + FFN) + (FFN * D + D)
}

/// Self-attention and MLP, each with its LayerNorm.
fn encoder_layer() -> u64 {
    attention() + mlp() + 2 * NORM
}

/// Self-attention, cross-attention and MLP, each with its LayerNorm.
fn decoder_layer() -> u64 {
    2 * attention() + mlp() + 3 * NORM
}

/// Both stacks over one shared table, with what each stack holds once (`per_stack`: positions
/// and the norms outside the layers).
fn model(per_stack: u64) -> u64 {
    VOCAB * D + 2 * per_stack + ENC * encoder_layer() + DEC * decoder_layer()
}

fn config(model_type: &str, class: &str, extra: &str) -> String {
    format!(
        r#"{{"model_type": "{model_type}", "architectures": ["{class}"], "d_model": {D},
            "encoder_layers": {ENC}, "decoder_layers": {DEC}, "encoder_ffn_dim": {FFN},
            "decoder_ffn_dim": {FFN}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
            "vocab_size": {VOCAB}, "max_position_embeddings": {POSITIONS}, "pad_token_id": 0 {extra}}}"#
    )
}

fn derived(text: &str) -> u64 {
    plan_text(text).unwrap().params.unwrap().derived
}

#[test]
fn mbart_adds_a_layer_norm_closing_each_stack_to_barts_offset_positions_and_embedding_norm() {
    // MBartLearnedPositionalEmbedding: max_position_embeddings + 2 rows; layernorm_embedding and
    // layer_norm per stack. The LM head is tied to `shared`; final_logits_bias is a buffer.
    let expected = model((POSITIONS + 2) * D + NORM + NORM);
    assert_eq!(derived(&config("mbart", "MBartForConditionalGeneration", "")), expected);
    assert_eq!(derived(&config("mbart", "MBartModel", "")), expected);
}

#[test]
fn plbart_is_barts_layout_with_its_classification_head() {
    // PLBartClassificationHead: dense d -> d and out_proj d -> num_labels, with biases.
    let expected = model((POSITIONS + 2) * D + NORM) + (D * D + D) + (D * 5 + 5);
    let text = config("plbart", "PLBartForSequenceClassification", r#", "num_labels": 5"#);
    assert_eq!(derived(&text), expected);
}

#[test]
fn pegasus_holds_its_sinusoids_as_an_embedding_weight_and_has_no_embedding_norm() {
    // PegasusSinusoidalPositionalEmbedding is an nn.Embedding: max_position_embeddings rows, no
    // offset, counted by model.parameters(); each stack closes with layer_norm.
    let expected = model(POSITIONS * D + NORM);
    assert_eq!(derived(&config("pegasus", "PegasusForConditionalGeneration", "")), expected);
}

#[test]
fn marian_is_post_ln_with_sinusoid_weights_and_no_extra_norms() {
    let expected = model(POSITIONS * D);
    assert_eq!(derived(&config("marian", "MarianMTModel", "")), expected);
    // Untied (5.x): lm_head and each stack's embed_tokens apart from `shared`.
    let untied = config("marian", "MarianMTModel", r#", "tie_word_embeddings": false"#);
    assert_eq!(derived(&untied), expected + 3 * VOCAB * D);
}

#[test]
fn m2m_100_keeps_its_sinusoids_in_a_buffer() {
    // M2M100SinusoidalPositionalEmbedding registers `weights` as a buffer: no position parameter.
    let expected = model(NORM);
    assert_eq!(derived(&config("m2m_100", "M2M100ForConditionalGeneration", "")), expected);
}

#[test]
fn blenderbot_and_blenderbot_small_learn_positions_without_offset() {
    // Blenderbot: pre-LN, a layer_norm per stack; BlenderbotSmall: post-LN, layernorm_embedding.
    let positions = POSITIONS * D;
    assert_eq!(
        derived(&config("blenderbot", "BlenderbotForConditionalGeneration", "")),
        model(positions + NORM)
    );
    assert_eq!(
        derived(&config("blenderbot-small", "BlenderbotSmallForConditionalGeneration", "")),
        model(positions + NORM)
    );
    // ForCausalLM: the decoder alone, its own token table, the LM head tied to it.
    let causal = VOCAB * D + positions + NORM + DEC * decoder_layer();
    assert_eq!(derived(&config("blenderbot", "BlenderbotForCausalLM", "")), causal);
}

#[test]
fn mvp_prompts_live_in_the_decoder_of_mvp_model_only() {
    // MvpPrompt: prompt_embedding (len x d), prompt_trans.0 d -> mid and prompt_trans.2
    // mid -> decoder_layers x 2 x d, with biases; self- and cross-attention prompts. MvpModel
    // hands `use_prompt` to the encoder as its embedding table, so the encoder has none.
    let (len, mid) = (7, 11);
    let prompt = len * D + (D * mid + mid) + (mid * DEC * 2 * D + DEC * 2 * D);
    let plain = model((POSITIONS + 2) * D + NORM);
    let extra = format!(r#", "use_prompt": true, "prompt_length": {len}, "prompt_mid_dim": {mid}"#);
    assert_eq!(derived(&config("mvp", "MvpForConditionalGeneration", &extra)), plain + 2 * prompt);
    assert_eq!(derived(&config("mvp", "MvpForConditionalGeneration", "")), plain);
    // MvpForCausalLM builds MvpDecoder(config) without prompts.
    let causal = VOCAB * D + (POSITIONS + 2) * D + NORM + DEC * decoder_layer();
    assert_eq!(derived(&config("mvp", "MvpForCausalLM", &extra)), causal);
}

#[test]
fn led_has_longformer_attention_in_the_encoder_and_positions_per_stack() {
    // LEDEncoderSelfAttention: query, key, value and query_global, key_global, value_global
    // (d -> d with biases), then output (d -> d): 7 linears instead of BART's 4. Learned positions
    // without offset: max_encoder_position_embeddings rows in the encoder, the decoder's own in the
    // decoder; layernorm_embedding per stack, post-LN.
    let (enc_pos, dec_pos) = (256, 64);
    let longformer_layer = 7 * (D * D + D) + mlp() + 2 * NORM;
    let expected = VOCAB * D
        + (enc_pos * D + NORM)
        + (dec_pos * D + NORM)
        + ENC * longformer_layer
        + DEC * decoder_layer();
    let text = format!(
        r#"{{"model_type": "led", "architectures": ["LEDForConditionalGeneration"], "d_model": {D},
            "encoder_layers": {ENC}, "decoder_layers": {DEC}, "encoder_ffn_dim": {FFN},
            "decoder_ffn_dim": {FFN}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
            "vocab_size": {VOCAB}, "max_encoder_position_embeddings": {enc_pos},
            "max_decoder_position_embeddings": {dec_pos}, "attention_window": 16}}"#
    );
    assert_eq!(derived(&text), expected);
}
