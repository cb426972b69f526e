//! GPT-NeoX and OPT as rows of [`GptDesc`] (see `config/spec_gpt.rs`): the classic decoders
//! whose hand-written readers and builders were folded onto the GPT-style description, their plans
//! unchanged. Defaults are those of transformers 5.24's `GPTNeoXConfig` and `OPTConfig`.

use super::spec::{Bias, Dv, HeadKind, Spec};
use super::spec_dense::BASE;
use super::spec_gpt::{Act, Buffers, Ffn, GptDesc, OFF, Positions, Qkv, Residual, SizeKeys};
use super::spec_gpt_types::BIOGPT;
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, QuestionAnswering, Sequence, Token};

/// GPT-NeoX (Pythia, GPT-NeoX-20B), with `GPTNeoXConfig`'s defaults (GPT-NeoX-20B's sizes).
pub(super) const GPT_NEOX: GptDesc = GptDesc {
    keys: Spec {
        model_type: "gpt_neox",
        classes: &[
            ("GPTNeoXModel", Model),
            ("GPTNeoXForCausalLM", CausalLm),
            ("GPTNeoXForSequenceClassification", Sequence),
            ("GPTNeoXForTokenClassification", Token),
            ("GPTNeoXForQuestionAnswering", QuestionAnswering),
        ],
        keys: keys![vocab_size: U(50432), hidden_size: U(6144), num_hidden_layers: U(44),
            num_attention_heads: U(64), intermediate_size: U(24576), hidden_act: S("gelu"),
            max_position_embeddings: U(2048), rotary_pct: F(0.25), layer_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), use_parallel_residual: B(true), attention_bias: B(true),
            pad_token_id: Null],
        ..BASE
    },
    sizes: SizeKeys { eps: Some("layer_norm_eps"), ..BIOGPT.sizes },
    base: "gpt_neox.",
    embed: "embed_in",
    scale_key: None,
    positions: Positions::RotaryPct("rotary_pct"),
    layers: "layers",
    attn: "attention",
    qkv: Qkv::Fused("query_key_value"),
    out: "dense",
    qkv_bias: Bias::Key("attention_bias"),
    out_bias: Bias::Key("attention_bias"),
    mlp: ["mlp.dense_h_to_4h", "mlp.dense_4h_to_h"],
    norms: &["input_layernorm", "post_attention_layernorm"],
    residual: Residual::TwoNorms("use_parallel_residual"),
    final_norm: Some("final_layer_norm"),
    lm: "embed_out",
    lm_bias: OFF,
    buffers: Buffers::NeoxMaskAndInvFreq,
    ..BIOGPT
};

/// OPT, with `OPTConfig`'s defaults (OPT-125m's sizes): fairseq's layers under `decoder.`,
/// learned positions offset by 2, and embeddings narrower than the layers where
/// `word_embed_proj_dim` says (OPT-350m).
pub(super) const OPT: GptDesc = GptDesc {
    keys: Spec {
        model_type: "opt",
        classes: &[
            ("OPTModel", Model),
            ("OPTForCausalLM", CausalLm),
            ("OPTForSequenceClassification", Sequence),
            ("OPTForQuestionAnswering", QuestionAnswering),
        ],
        keys: keys![vocab_size: U(50272), hidden_size: U(768), num_hidden_layers: U(12),
            num_attention_heads: U(12), ffn_dim: U(3072), max_position_embeddings: U(2048),
            word_embed_proj_dim: Null, do_layer_norm_before: B(true), pad_token_id: U(1),
            enable_bias: B(true), layer_norm_elementwise_affine: B(true), tie_word_embeddings: B(true),
            activation_function: S("relu")],
        ..BASE
    },
    sizes: SizeKeys { ffn: Ffn::Key("ffn_dim"), act: Act::Key("activation_function"), ..BIOGPT.sizes },
    base: "model.",
    inner: "decoder.",
    scale_key: None,
    embed_width_key: Some("word_embed_proj_dim"),
    affine_key: Some("layer_norm_elementwise_affine"),
    attn_words: Some("causal"),
    final_section: Some("final"),
    qkv_bias: Bias::Key("enable_bias"),
    out_bias: Bias::Key("enable_bias"),
    mlp_bias: Bias::Key("enable_bias"),
    residual: Residual::PreOrPost("do_layer_norm_before"),
    final_norm: Some("final_layer_norm"),
    lm: "lm_head",
    buffers: Buffers::DroppedLmHead,
    ..BIOGPT
};
