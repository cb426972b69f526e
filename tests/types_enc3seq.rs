//! Parameter counts of the T5 lineage described in `config/t5_types.rs` beyond T5 itself
//! (LongT5, Switch Transformers), each written out by hand from the type's modeling file for a
//! small config: one `shared` table, per stack its blocks (bias-free q/k/v/o, scale-only
//! RMSNorms, `wi`/`wo`), a position-bias table in the first block and a closing norm, and the head.

mod common;

use common::plan_text;

const D: u64 = 64;
const HEADS: u64 = 4;
const D_KV: u64 = 16;
const INNER: u64 = HEADS * D_KV;
const FF: u64 = 96;
const VOCAB: u64 = 500;
const BUCKETS: u64 = 32;

/// q, k, v: d -> heads x d_kv; o back; no biases.
const ATTENTION: u64 = 4 * D * INNER;
/// `wi` d -> ff and `wo` ff -> d, no biases (T5's `relu` feed-forward).
const MLP: u64 = 2 * D * FF;
/// An RMSNorm: a scale per channel, no shift.
const NORM: u64 = D;
/// `relative_attention_bias`: an embedding of buckets x heads.
const BIAS_TABLE: u64 = BUCKETS * HEADS;

fn encoder_block() -> u64 {
    ATTENTION + NORM + MLP + NORM
}

fn decoder_block() -> u64 {
    2 * ATTENTION + 2 * NORM + MLP + NORM
}

fn derived(text: &str) -> u64 {
    plan_text(text).unwrap().params.unwrap().derived
}

fn long_t5(class: &str, extra: &str) -> String {
    format!(
        r#"{{"model_type": "longt5", "architectures": ["{class}"], "d_model": {D}, "d_kv": {D_KV},
            "d_ff": {FF}, "num_layers": 3, "num_decoder_layers": 2, "num_heads": {HEADS},
            "vocab_size": {VOCAB} {extra}}}"#
    )
}

#[test]
fn longt5_with_local_attention_counts_as_t5_with_its_tied_head() {
    // LongT5Stack: block i holds a relative_attention_bias when i == 0; LongT5Config forces
    // tie_word_embeddings, so lm_head is `shared`.
    let model =
        VOCAB * D + (3 * encoder_block() + BIAS_TABLE + NORM) + (2 * decoder_block() + BIAS_TABLE + NORM);
    assert_eq!(derived(&long_t5("LongT5ForConditionalGeneration", "")), model);
    assert_eq!(
        derived(&long_t5("LongT5ForConditionalGeneration", r#", "tie_word_embeddings": false"#)),
        model
    );
    assert_eq!(
        derived(&long_t5("LongT5EncoderModel", "")),
        VOCAB * D + 3 * encoder_block() + BIAS_TABLE + NORM
    );
}

#[test]
fn longt5_transient_global_adds_a_global_norm_per_encoder_layer_and_a_global_bias_table() {
    // LongT5TransientGlobalAttention: global_input_layer_norm in every layer,
    // global_relative_attention_bias beside relative_attention_bias in the first.
    let encoder = 3 * (encoder_block() + NORM) + 2 * BIAS_TABLE + NORM;
    let decoder = 2 * decoder_block() + BIAS_TABLE + NORM;
    let extra = r#", "encoder_attention_type": "transient-global""#;
    assert_eq!(derived(&long_t5("LongT5Model", extra)), VOCAB * D + encoder + decoder);
}

fn switch(class: &str, extra: &str) -> String {
    format!(
        r#"{{"model_type": "switch_transformers", "architectures": ["{class}"], "d_model": {D},
            "d_kv": {D_KV}, "d_ff": {FF}, "num_heads": {HEADS}, "vocab_size": {VOCAB},
            "num_experts": 4 {extra}}}"#
    )
}

#[test]
fn switch_transformers_puts_top1_experts_in_every_nth_feed_forward() {
    // 4 encoder layers, 2 sparse: step 4 // 2 = 2, sparse where i % 2 == 1 (layers 1, 3);
    // 5 decoder layers, 1 sparse: step 5, sparse at layer 1. A sparse layer's feed-forward is a
    // router (d -> 4 experts, no bias) and 4 copies of wi/wo in place of one.
    let sparse_extra = (4 * D) + 3 * MLP;
    let encoder = 4 * encoder_block() + 2 * sparse_extra + BIAS_TABLE + NORM;
    let decoder = 5 * decoder_block() + sparse_extra + BIAS_TABLE + NORM;
    let extra = r#", "num_layers": 4, "num_decoder_layers": 5, "num_sparse_encoder_layers": 2,
        "num_sparse_decoder_layers": 1"#;
    let page = plan_text(&switch("SwitchTransformersForConditionalGeneration", extra)).unwrap();
    let p = page.params.unwrap();
    assert_eq!(p.derived, VOCAB * D + encoder + decoder);
    // Each token uses one expert: three of the four copies idle in each of the 3 sparse layers.
    assert_eq!(p.active, p.derived - 3 * 3 * MLP);
}

#[test]
fn switch_transformers_unties_its_tables_by_the_flag_and_defaults_its_decoder_depth_to_12() {
    // SwitchTransformersConfig: num_decoder_layers defaults to 12 (not num_layers), and with
    // num_sparse_*_layers at 3 the step is 12 // 3 = 4: sparse layers 1, 5, 9 in each stack.
    // The flag unties lm_head (d -> vocab, no bias) and, in transformers 5.x, each stack's
    // embed_tokens from `shared`: three more tables.
    let per_stack_sparse = 3 * ((4 * D) + 3 * MLP);
    let encoder = 2 * encoder_block() + BIAS_TABLE + NORM;
    let decoder = 12 * decoder_block() + per_stack_sparse + BIAS_TABLE + NORM;
    let extra = r#", "num_layers": 2, "num_sparse_encoder_layers": 0, "tie_word_embeddings": false"#;
    // num_sparse_encoder_layers 0 sets the step to num_layers (2): layer 1 is sparse.
    let encoder = encoder + (4 * D) + 3 * MLP;
    assert_eq!(
        derived(&switch("SwitchTransformersForConditionalGeneration", extra)),
        VOCAB * D + encoder + decoder + 3 * VOCAB * D
    );
}

#[test]
fn longt5_refuses_an_encoder_attention_type_it_does_not_define() {
    let err = plan_text(&long_t5("LongT5Model", r#", "encoder_attention_type": "global""#)).unwrap_err();
    assert!(err.to_string().contains("encoder_attention_type"), "{err}");
}

#[test]
fn nllb_moe_puts_top2_experts_in_every_nth_feed_forward_of_m2m100s_stacks() {
    // NllbMoe layers: q/k/v/out with biases, LayerNorms (scale and shift) before self-attention,
    // cross-attention and the feed-forward; fc1/fc2 with biases; a LayerNorm closing each stack;
    // sinusoidal positions in a buffer (no parameters). Layer i is sparse when (i + 1) % step == 0:
    // encoder step 2 of 4 layers (1, 3), decoder step 3 of 3 layers (2). A sparse layer holds a
    // router (d -> 4 experts, no bias) and 4 copies of fc1/fc2.
    let (d, ffn, vocab, experts) = (64u64, 128u64, 1000u64, 4u64);
    let attention = 4 * (d * d + d);
    let mlp = (d * ffn + ffn) + (ffn * d + d);
    let norm = 2 * d;
    let encoder_layer = attention + mlp + 2 * norm;
    let decoder_layer = 2 * attention + mlp + 3 * norm;
    let sparse_extra = d * experts + (experts - 1) * mlp;
    let encoder = 4 * encoder_layer + 2 * sparse_extra + norm;
    let decoder = 3 * decoder_layer + sparse_extra + norm;
    let config = format!(
        r#"{{"model_type": "nllb-moe", "architectures": ["NllbMoeForConditionalGeneration"],
            "d_model": {d}, "encoder_layers": 4, "decoder_layers": 3, "encoder_ffn_dim": {ffn},
            "decoder_ffn_dim": {ffn}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
            "vocab_size": {vocab}, "num_experts": {experts}, "encoder_sparse_step": 2,
            "decoder_sparse_step": 3}}"#
    );
    let p = plan_text(&config).unwrap().params.unwrap();
    // One shared table, tied to both stacks and the head.
    assert_eq!(p.derived, vocab * d + encoder + decoder);
    // Each token uses two experts: two of the four copies idle in each of the 3 sparse layers.
    assert_eq!(p.active, p.derived - 3 * 2 * mlp);
}

#[test]
fn switch_transformers_takes_the_sparse_step_a_saved_config_writes_over_the_one_it_would_compute() {
    // save_pretrained writes encoder_sparse_step; from_pretrained keeps it. Here 3 layers with 3
    // sparse would make step 1 (all sparse), but the written step 2 makes only layer 1 sparse.
    let extra = r#", "num_layers": 3, "num_decoder_layers": 1, "num_sparse_encoder_layers": 3,
        "encoder_sparse_step": 2, "decoder_sparse_step": 0"#;
    let encoder = 3 * encoder_block() + (4 * D) + 3 * MLP + BIAS_TABLE + NORM;
    assert_eq!(derived(&switch("SwitchTransformersEncoderModel", extra)), VOCAB * D + encoder);
}

#[test]
fn fsmt_holds_a_source_table_a_target_table_and_an_output_projection_of_its_own() {
    // FSMTEncoder/FSMTDecoder: embed_tokens of src_vocab_size and tgt_vocab_size rows; positions
    // in a frozen nn.Embedding weight of max_position_embeddings + pad_token_id + 1 rows per
    // stack; BART's post-LN layers (q/k/v/out and fc1/fc2 with biases, LayerNorms with a shift);
    // the decoder's output_projection (d -> tgt vocab, no bias), untied by default.
    let (d, ffn, src, tgt, positions, pad) = (64u64, 128u64, 1000u64, 700u64, 128u64, 1u64);
    let attention = 4 * (d * d + d);
    let mlp = (d * ffn + ffn) + (ffn * d + d);
    let norm = 2 * d;
    let encoder_layer = attention + mlp + 2 * norm;
    let decoder_layer = 2 * attention + mlp + 3 * norm;
    let position_rows = positions + pad + 1;
    let config = |class: &str| {
        format!(
            r#"{{"model_type": "fsmt", "architectures": ["{class}"], "d_model": {d},
                "encoder_layers": 2, "decoder_layers": 3, "encoder_ffn_dim": {ffn},
                "decoder_ffn_dim": {ffn}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
                "src_vocab_size": {src}, "tgt_vocab_size": {tgt}, "max_position_embeddings": {positions},
                "pad_token_id": {pad}}}"#
        )
    };
    let expected =
        src * d + tgt * d + 2 * position_rows * d + 2 * encoder_layer + 3 * decoder_layer + tgt * d;
    assert_eq!(derived(&config("FSMTForConditionalGeneration")), expected);
    // FSMTModel holds the same modules, output_projection included.
    assert_eq!(derived(&config("FSMTModel")), expected);
}

#[test]
fn fsmt_refuses_to_tie_a_source_table_to_a_target_table_of_another_size() {
    let text = r#"{"model_type": "fsmt", "src_vocab_size": 100, "tgt_vocab_size": 200, "tie_word_embeddings": true}"#;
    let err = plan_text(text).unwrap_err();
    assert!(err.to_string().contains("tie_word_embeddings"), "{err}");
}

#[test]
fn pegasus_x_drops_attention_biases_and_adds_global_tokens_with_their_own_norm() {
    // PegasusX: q/k/v/out without biases in both stacks; fc1/fc2 with biases; pre-LN LayerNorms
    // (scale and shift) and one closing each stack; the encoder's embed_global of
    // num_global_tokens rows and a global_self_attn_layer_norm in each encoder layer;
    // sinusoidal positions in a buffer; one shared table tied to both stacks and lm_head.
    let (d, ffn, vocab, global) = (64u64, 128u64, 1000u64, 8u64);
    let attention = 4 * d * d;
    let mlp = (d * ffn + ffn) + (ffn * d + d);
    let norm = 2 * d;
    let encoder = 2 * (attention + mlp + 3 * norm) + norm + global * d;
    let decoder = 3 * (2 * attention + mlp + 3 * norm) + norm;
    let config = format!(
        r#"{{"model_type": "pegasus_x", "architectures": ["PegasusXForConditionalGeneration"],
            "d_model": {d}, "encoder_layers": 2, "decoder_layers": 3, "encoder_ffn_dim": {ffn},
            "decoder_ffn_dim": {ffn}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
            "vocab_size": {vocab}, "num_global_tokens": {global}}}"#
    );
    assert_eq!(derived(&config), vocab * d + encoder + decoder);
}
