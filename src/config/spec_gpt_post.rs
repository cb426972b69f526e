//! Post-norm decoders of the BERT and fairseq lineage as rows of [`GptDesc`] (see
//! `config/spec_gpt.rs`): BertGeneration and TrOCR's text decoder, with learned positions, a
//! LayerNorm over the embeddings and cross-attention. Defaults are those of transformers 5.24's
//! `configuration_<type>.py`; the names and switches those of its `modeling_<type>.py`.

use super::spec::{Bias, Dv, HeadKind, Spec};
use super::spec_dense::BASE;
use super::spec_gpt::{Act, Ffn, GptDesc, ON, Positions, Qkv, Residual, SizeKeys};
use super::spec_gpt_types::BIOGPT;
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[GptDesc] = &[
    // BertGeneration: BERT's post-norm layers (biased q/k/v, output dense and LayerNorm), learned
    // positions and a LayerNorm over the embeddings, no final norm; the decoder's `lm_head.decoder`
    // is tied to the word embeddings and its bias to `lm_head.bias`.
    GptDesc {
        keys: Spec {
            model_type: "bert-generation",
            classes: &[("BertGenerationEncoder", Model), ("BertGenerationDecoder", CausalLm)],
            keys: keys![vocab_size: U(50358), hidden_size: U(1024), num_hidden_layers: U(24),
                num_attention_heads: U(16), intermediate_size: U(4096), hidden_act: S("gelu"),
                max_position_embeddings: U(512), layer_norm_eps: F(1e-12), pad_token_id: U(0),
                add_cross_attention: B(false), tie_word_embeddings: B(true)],
            ..BASE
        },
        sizes: SizeKeys { eps: Some("layer_norm_eps"), ..BIOGPT.sizes },
        base: "bert.",
        embed: "embeddings.word_embeddings",
        embed_norm: Some("embeddings.LayerNorm"),
        scale_key: None,
        positions: Positions::Learned { name: "embeddings.position_embeddings", offset: 0 },
        layers: "encoder.layer",
        attn: "attention",
        qkv: Qkv::Split(["self.query", "self.key", "self.value"]),
        out: "output.dense",
        mlp: ["intermediate.dense", "output.dense"],
        norms: &["attention.output.LayerNorm", "output.LayerNorm"],
        residual: Residual::PostNorm,
        final_norm: None,
        lm: "lm_head.decoder",
        lm_bias: ON,
        lm_side_bias: Some("lm_head.bias"),
        cross: Bias::Key("add_cross_attention"),
        cross_names: ["crossattention", "crossattention.output.LayerNorm"],
        ..BIOGPT
    },
    // TrOCR's text decoder: fairseq's post-norm layers under `model.decoder.`, learned positions
    // offset by 2 (or sinusoidal, no parameters), an optional embeddings LayerNorm, and, as a
    // decoder (TrOCRForCausalLM sets `is_decoder`), cross-attention whose k and v read
    // `cross_attention_hidden_size`.
    GptDesc {
        keys: Spec {
            model_type: "trocr",
            classes: &[("TrOCRForCausalLM", CausalLm)],
            keys: keys![vocab_size: U(50265), d_model: U(1024), decoder_layers: U(12),
                decoder_attention_heads: U(16), decoder_ffn_dim: U(4096), activation_function: S("gelu"),
                max_position_embeddings: U(512), scale_embedding: B(false),
                use_learned_position_embeddings: B(true), layernorm_embedding: B(true), pad_token_id: U(1),
                cross_attention_hidden_size: Null, tie_word_embeddings: B(true)],
            aliases: &[
                ("num_attention_heads", "decoder_attention_heads"),
                ("hidden_size", "d_model"),
                ("num_hidden_layers", "decoder_layers"),
            ],
            ..BASE
        },
        sizes: SizeKeys {
            vocab: "vocab_size",
            hidden: "d_model",
            layers: "decoder_layers",
            heads: "decoder_attention_heads",
            ffn: Ffn::Key("decoder_ffn_dim"),
            positions: "max_position_embeddings",
            eps: None,
            act: Act::Key("activation_function"),
        },
        base: "model.",
        inner: "decoder.",
        positions: Positions::LearnedIf {
            key: "use_learned_position_embeddings",
            name: "embed_positions",
            offset: 2,
        },
        embed_norm: Some("layernorm_embedding"),
        embed_norm_key: Some("layernorm_embedding"),
        norms: &["self_attn_layer_norm", "final_layer_norm"],
        residual: Residual::PostNorm,
        final_norm: None,
        cross: ON,
        cross_width_key: Some("cross_attention_hidden_size"),
        ..BIOGPT
    },
];
