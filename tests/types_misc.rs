//! Parameter counts of the one-of-a-kind types (`config/seq2seq_misc.rs`,
//! `config/encoder_decoder.rs`, `config/cpmant.rs`), each written out by hand from the type's
//! modeling file for a small config.

mod common;

use common::plan_text;

fn derived(text: &str) -> u64 {
    plan_text(text).unwrap().params.unwrap().derived
}

const D: u64 = 64;
const VOCAB: u64 = 500;

/// A linear with its bias.
const fn linear(inp: u64, out: u64) -> u64 {
    inp * out + out
}

/// An affine LayerNorm.
const fn ln(width: u64) -> u64 {
    2 * width
}

mod bigbird_pegasus {
    use super::*;

    const FF: u64 = 128;
    const POSITIONS: u64 = 128;

    fn config(class: &str, extra: &str) -> String {
        format!(
            r#"{{"model_type": "bigbird_pegasus", "architectures": ["{class}"], "d_model": {D},
                "encoder_layers": 2, "decoder_layers": 3, "encoder_ffn_dim": {FF},
                "decoder_ffn_dim": {FF}, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
                "vocab_size": {VOCAB}, "max_position_embeddings": {POSITIONS} {extra}}}"#
        )
    }

    /// Four d x d projections, each with a bias only when `use_bias`.
    fn attention(bias: bool) -> u64 {
        4 * (D * D + if bias { D } else { 0 })
    }

    fn encoder_layer(bias: bool) -> u64 {
        // self_attn.self.{query,key,value} + self_attn.output, self_attn_layer_norm, fc1, fc2,
        // final_layer_norm.
        attention(bias) + ln(D) + linear(D, FF) + linear(FF, D) + ln(D)
    }

    fn decoder_layer(bias: bool) -> u64 {
        // self_attn, its norm, encoder_attn, its norm, fc1, fc2, final_layer_norm.
        2 * attention(bias) + 2 * ln(D) + linear(D, FF) + linear(FF, D) + ln(D)
    }

    /// One stack: its learned positions (no offset), its layers and the `layernorm_embedding`
    /// that closes it.
    fn stack(layers: u64, layer: u64) -> u64 {
        POSITIONS * D + layers * layer + ln(D)
    }

    #[test]
    fn bigbird_pegasus_counts_pegasus_stacks_with_bias_free_attention_and_learned_positions() {
        let model = VOCAB * D + stack(2, encoder_layer(false)) + stack(3, decoder_layer(false));
        // The generation head is tied to `shared` (final_logits_bias is a buffer).
        assert_eq!(derived(&config("BigBirdPegasusForConditionalGeneration", "")), model);
        assert_eq!(derived(&config("BigBirdPegasusModel", "")), model);
        // BigBirdPegasusForQuestionAnswering: qa_outputs d -> 2 with a bias.
        assert_eq!(derived(&config("BigBirdPegasusForQuestionAnswering", "")), model + linear(D, 2));
    }

    #[test]
    fn bigbird_pegasus_use_bias_adds_a_bias_to_every_attention_projection() {
        let model = VOCAB * D + stack(2, encoder_layer(true)) + stack(3, decoder_layer(true));
        let extra = r#", "use_bias": true, "attention_type": "original_full""#;
        assert_eq!(derived(&config("BigBirdPegasusModel", extra)), model);
    }

    #[test]
    fn bigbird_pegasus_causal_lm_keeps_its_own_head_even_when_ties_are_asked() {
        // BigBirdPegasusForCausalLM declares no tied weights: the decoder's table and the head
        // are two matrices.
        let decoder = VOCAB * D + stack(3, decoder_layer(false));
        assert_eq!(derived(&config("BigBirdPegasusForCausalLM", "")), decoder + VOCAB * D);
    }
}

mod encoder_decoder {
    use super::*;

    const FF: u64 = 128;
    const POSITIONS: u64 = 64;

    /// BertEmbeddings: words, positions, two token types, LayerNorm.
    fn bert_embeddings(h: u64) -> u64 {
        VOCAB * h + POSITIONS * h + 2 * h + ln(h)
    }

    /// BertAttention: query, key, value, output.dense, output.LayerNorm.
    fn bert_attention(h: u64) -> u64 {
        4 * linear(h, h) + ln(h)
    }

    fn bert_layer(h: u64) -> u64 {
        bert_attention(h) + linear(h, FF) + linear(FF, h) + ln(h)
    }

    fn bert(h: u64, layers: u64, extra: &str) -> String {
        format!(
            r#"{{"model_type": "bert", "vocab_size": {VOCAB}, "hidden_size": {h},
                "num_hidden_layers": {layers}, "num_attention_heads": 4, "intermediate_size": {FF},
                "max_position_embeddings": {POSITIONS} {extra}}}"#
        )
    }

    fn config(encoder: &str, decoder: &str) -> String {
        format!(r#"{{"model_type": "encoder-decoder", "encoder": {encoder}, "decoder": {decoder}}}"#)
    }

    const DECODER: &str = r#", "is_decoder": true, "add_cross_attention": true"#;

    #[test]
    fn bert2bert_counts_a_bert_model_and_a_bert_lm_head_model_with_cross_attention() {
        // Encoder: BertModel with its pooler (dense d -> d with bias).
        let encoder = bert_embeddings(D) + 2 * bert_layer(D) + linear(D, D);
        // Decoder: BertLMHeadModel, no pooler; each layer also holds `crossattention`, a second
        // BertAttention; cls.predictions: transform.dense, transform.LayerNorm, the output bias,
        // its decoder tied to the word embeddings.
        let decoder =
            bert_embeddings(D) + 3 * (bert_layer(D) + bert_attention(D)) + linear(D, D) + ln(D) + VOCAB;
        let text = config(&bert(D, 2, ""), &bert(D, 3, DECODER));
        assert_eq!(derived(&text), encoder + decoder);
    }

    #[test]
    fn encoder_decoder_projects_the_encoder_states_when_the_widths_differ() {
        let wide = 96;
        let encoder = bert_embeddings(wide) + bert_layer(wide) + linear(wide, wide);
        let decoder = bert_embeddings(D) + (bert_layer(D) + bert_attention(D)) + linear(D, D) + ln(D) + VOCAB;
        let text = config(&bert(wide, 1, ""), &bert(D, 1, DECODER));
        // enc_to_dec_proj: encoder width -> decoder width, with a bias.
        assert_eq!(derived(&text), encoder + linear(wide, D) + decoder);
    }

    #[test]
    fn a_decoder_without_add_cross_attention_gets_none() {
        let encoder = bert_embeddings(D) + bert_layer(D) + linear(D, D);
        let decoder = bert_embeddings(D) + bert_layer(D) + linear(D, D) + ln(D) + VOCAB;
        assert_eq!(derived(&config(&bert(D, 1, ""), &bert(D, 1, ""))), encoder + decoder);
    }

    #[test]
    fn the_default_encoder_decoder_is_bert_base_twice_as_bert2bert() {
        // BertConfig's defaults: vocab 30522, hidden 768, 12 layers, ffn 3072, 512 positions.
        let (v, h, f, p) = (30522, 768, 3072, 512);
        let embeddings = v * h + p * h + 2 * h + ln(h);
        let attention = 4 * linear(h, h) + ln(h);
        let layer = attention + linear(h, f) + linear(f, h) + ln(h);
        let encoder = embeddings + 12 * layer + linear(h, h);
        let decoder = embeddings + 12 * (layer + attention) + linear(h, h) + ln(h) + v;
        assert_eq!(encoder + decoder, 247_363_386, "the sum written out");
        assert_eq!(derived(r#"{"model_type": "encoder-decoder"}"#), encoder + decoder);
    }
}

mod cpmant {
    use super::*;

    #[test]
    fn cpmant_counts_prompt_rows_a_shared_position_bias_and_an_untied_head() {
        let (h, heads, dim_head, ff, layers) = (64, 4, 16, 128, 2);
        let (prompt_types, prompt_length, segments, buckets) = (3, 5, 4, 32);
        let text = format!(
            r#"{{"model_type": "cpmant", "architectures": ["CpmAntForCausalLM"], "vocab_size": {VOCAB},
                "hidden_size": {h}, "num_attention_heads": {heads}, "dim_head": {dim_head},
                "dim_ff": {ff}, "num_hidden_layers": {layers}, "prompt_types": {prompt_types},
                "prompt_length": {prompt_length}, "segment_types": {segments},
                "position_bias_num_buckets": {buckets}}}"#
        );
        let inner = heads * dim_head;
        // input_embedding: the vocabulary and the prompt rows; segment_embedding; position_bias:
        // segment pairs and buckets, one column per head.
        let embeddings = (VOCAB + prompt_types * prompt_length) * h
            + segments * h
            + (segments * segments + buckets) * heads;
        // Two scale-only norms, bias-free q/k/v/out, gated w_0/w_1 and w_out.
        let layer = 2 * h + 3 * h * inner + inner * h + 2 * h * ff + ff * h;
        let model = embeddings + layers * layer + h;
        assert_eq!(derived(&text), model + VOCAB * h);
        assert_eq!(derived(&text.replace("CpmAntForCausalLM", "CpmAntModel")), model);
    }
}

mod hrm_text {
    use super::*;

    #[test]
    fn hrm_text_counts_two_stacks_once_however_many_cycles_run_them() {
        let (h, heads, head_dim, ff, per_stack) = (64, 4, 16, 128, 2);
        let text = format!(
            r#"{{"model_type": "hrm_text", "architectures": ["HrmTextForCausalLM"], "vocab_size": {VOCAB},
                "hidden_size": {h}, "intermediate_size": {ff}, "num_hidden_layers": {per_stack},
                "num_attention_heads": {heads}, "head_dim": {head_dim}, "H_cycles": 2, "L_cycles": 3}}"#
        );
        let inner = heads * head_dim;
        // q, k, v and the sigmoid gate_proj: h -> inner; o_proj back; gate/up/down; no biases
        // and weightless RMS norms.
        let layer = 4 * h * inner + inner * h + 3 * h * ff;
        // embed_tokens, z_L_init (a frozen parameter of width h), L_module and H_module.
        let model = VOCAB * h + h + 2 * per_stack * layer;
        // The head is untied by default (HrmTextConfig: tie_word_embeddings false).
        assert_eq!(derived(&text), model + VOCAB * h);
        // A saved config carries the per-stack count beside the inflated slot count
        // (2 x 2 x (3 + 1) = 16): the parameters follow num_layers_per_stack.
        let saved = text.replace(
            &format!(r#""num_hidden_layers": {per_stack}"#),
            &format!(r#""num_hidden_layers": 16, "num_layers_per_stack": {per_stack}"#),
        );
        assert_eq!(derived(&saved), model + VOCAB * h);
        assert_eq!(derived(&text.replace("HrmTextForCausalLM", "HrmTextModel")), model);
    }
}
