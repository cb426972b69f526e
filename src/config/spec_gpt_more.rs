//! More of the GPT-2 lineage as rows of [`GptDesc`] (see `config/spec_gpt.rs`): GPT-1, CTRL, MPT,
//! Persimmon and GPT-NeoX-Japanese. Defaults are those of transformers 5.24's `configuration_<type>.py`; the names and
//! switches those of its `modeling_<type>.py`.

use super::spec::{Dv, HeadKind, Spec};
use super::spec_dense::BASE;
use super::spec_gpt::{Act, Ffn, GptDesc, OFF, ON, Positions, Qkv, Residual, SizeKeys};
use super::spec_gpt_types::{BIOGPT, GPT2_ALIASES, GPT2_SIZES, GPTJ};
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, QuestionAnswering, Sequence, Token};

pub const TYPES: &[GptDesc] = &[
    // OpenAI's GPT-1: post-norm layers of Conv1D projections, no final norm.
    GptDesc {
        keys: Spec {
            model_type: "openai-gpt",
            classes: &[
                ("OpenAIGPTModel", Model),
                ("OpenAIGPTLMHeadModel", CausalLm),
                ("OpenAIGPTForSequenceClassification", Sequence),
            ],
            keys: keys![vocab_size: U(40478), n_positions: U(512), n_embd: U(768), n_layer: U(12),
                n_head: U(12), afn: S("gelu"), layer_norm_epsilon: F(1e-5), pad_token_id: Null,
                tie_word_embeddings: B(true)],
            aliases: GPT2_ALIASES,
            ..BASE
        },
        sizes: SizeKeys { ffn: Ffn::Times4, act: Act::Key("afn"), ..GPT2_SIZES },
        embed: "tokens_embed",
        positions: Positions::Learned { name: "positions_embed", offset: 0 },
        qkv: Qkv::Fused("c_attn"),
        out: "c_proj",
        qkv_bias: ON,
        out_bias: ON,
        conv1d: true,
        mlp: ["mlp.c_fc", "mlp.c_proj"],
        norms: &["ln_1", "ln_2"],
        residual: Residual::PostNorm,
        final_norm: None,
        lm_bias: OFF,
        ..GPTJ
    },
    // Salesforce's CTRL: pre-norm layers of biased nn.Linear, a ReLU MLP of `dff` (no activation
    // key), sinusoidal positions (a buffer), an LM head with a bias tied to `w`, and a
    // sequence classifier named `classifier` without bias.
    GptDesc {
        keys: Spec {
            model_type: "ctrl",
            classes: &[
                ("CTRLModel", Model),
                ("CTRLLMHeadModel", CausalLm),
                ("CTRLForSequenceClassification", Sequence),
            ],
            keys: keys![vocab_size: U(246534), n_positions: U(256), n_embd: U(1280), dff: U(8192),
                n_layer: U(48), n_head: U(16), layer_norm_epsilon: F(1e-6), pad_token_id: Null,
                tie_word_embeddings: B(true)],
            aliases: GPT2_ALIASES,
            ..BASE
        },
        sizes: SizeKeys { ffn: Ffn::Key("dff"), act: Act::Fixed("relu"), ..GPT2_SIZES },
        base: "transformer.",
        embed: "w",
        scale_key: None,
        positions: Positions::Fixed("sinusoidal"),
        layers: "h",
        attn: "multi_head_attention",
        qkv: Qkv::Split(["Wq", "Wk", "Wv"]),
        out: "dense",
        mlp: ["ffn.0", "ffn.2"],
        norms: &["layernorm1", "layernorm2"],
        final_norm: Some("layernorm"),
        lm: "lm_head",
        lm_bias: ON,
        seq_head: "classifier",
        ..BIOGPT
    },
    // MosaicML's MPT: ALiBi (no position parameters), no biases anywhere, LayerNorms without
    // bias, an MLP fixed at 4 x d_model with GELU (`expansion_ratio` is not read). `attn_config`
    // changes no parameter (clipping, softmax scale, dropout).
    GptDesc {
        keys: Spec {
            model_type: "mpt",
            classes: &[
                ("MptModel", Model),
                ("MptForCausalLM", CausalLm),
                ("MptForSequenceClassification", Sequence),
                ("MptForTokenClassification", Token),
                ("MptForQuestionAnswering", QuestionAnswering),
            ],
            keys: keys![d_model: U(2048), n_heads: U(16), n_layers: U(24), max_seq_len: U(2048),
                vocab_size: U(50368), layer_norm_epsilon: F(1e-5), tie_word_embeddings: B(true),
                pad_token_id: Null],
            aliases: &[
                ("num_attention_heads", "n_heads"),
                ("hidden_size", "d_model"),
                ("num_hidden_layers", "n_layers"),
            ],
            ..BASE
        },
        sizes: SizeKeys {
            vocab: "vocab_size",
            hidden: "d_model",
            layers: "n_layers",
            heads: "n_heads",
            ffn: Ffn::Times4,
            positions: "max_seq_len",
            eps: Some("layer_norm_epsilon"),
            act: Act::Fixed("gelu"),
        },
        base: "transformer.",
        embed: "wte",
        scale_key: None,
        positions: Positions::Fixed("ALiBi"),
        layers: "blocks",
        attn: "attn",
        qkv: Qkv::Fused("Wqkv"),
        out: "out_proj",
        qkv_bias: OFF,
        out_bias: OFF,
        mlp: ["ffn.up_proj", "ffn.down_proj"],
        mlp_bias: OFF,
        norms: &["norm_1", "norm_2"],
        norm_bias: false,
        final_norm: Some("norm_f"),
        lm: "lm_head",
        ..BIOGPT
    },
    // Adept's Persimmon: GPT-NeoX's names in sequence, fused and biased q/k/v, a LayerNorm over
    // each head's queries and keys (`qk_layernorm`), rotary on part of each head (its
    // `rope_parameters`, which changes no parameter), an untied LM head, and the generic heads
    // (`score` for tokens too).
    GptDesc {
        keys: Spec {
            model_type: "persimmon",
            classes: &[
                ("PersimmonModel", Model),
                ("PersimmonForCausalLM", CausalLm),
                ("PersimmonForSequenceClassification", Sequence),
                ("PersimmonForTokenClassification", Token),
            ],
            keys: keys![vocab_size: U(262144), hidden_size: U(4096), intermediate_size: U(16384),
                num_hidden_layers: U(36), num_attention_heads: U(64), hidden_act: S("relu2"),
                max_position_embeddings: U(16384), layer_norm_eps: F(1e-5), tie_word_embeddings: B(false),
                qk_layernorm: B(true), pad_token_id: Null],
            ..BASE
        },
        sizes: SizeKeys { eps: Some("layer_norm_eps"), ..BIOGPT.sizes },
        base: "model.",
        embed: "embed_tokens",
        scale_key: None,
        positions: Positions::Fixed("partial rotary"),
        layers: "layers",
        attn: "self_attn",
        qkv: Qkv::Fused("query_key_value"),
        out: "dense",
        mlp: ["mlp.dense_h_to_4h", "mlp.dense_4h_to_h"],
        norms: &["input_layernorm", "post_attention_layernorm"],
        residual: Residual::Sequential,
        final_norm: Some("final_layernorm"),
        lm: "lm_head",
        token_head: "score",
        qk_norm_key: Some("qk_layernorm"),
        ..BIOGPT
    },
    // ABEJA's GPT-NeoX-Japanese: GPT-NeoX's names in sequence, no biases but the last layer's
    // `dense_bias`, an MLP of hidden x `intermediate_multiple_size`, and a tied `embed_out`.
    GptDesc {
        keys: Spec {
            model_type: "gpt_neox_japanese",
            classes: &[("GPTNeoXJapaneseModel", Model), ("GPTNeoXJapaneseForCausalLM", CausalLm)],
            keys: keys![vocab_size: U(32000), hidden_size: U(2560), num_hidden_layers: U(32),
                num_attention_heads: U(32), intermediate_multiple_size: U(4), hidden_act: S("gelu"),
                max_position_embeddings: U(2048), layer_norm_eps: F(1e-5), pad_token_id: Null,
                tie_word_embeddings: B(true)],
            ..BASE
        },
        sizes: SizeKeys {
            ffn: Ffn::HiddenTimes("intermediate_multiple_size"),
            eps: Some("layer_norm_eps"),
            ..BIOGPT.sizes
        },
        base: "gpt_neox_japanese.",
        embed: "embed_in",
        scale_key: None,
        positions: Positions::Fixed("rotary"),
        layers: "layers",
        attn: "attention",
        qkv: Qkv::Fused("query_key_value"),
        out: "dense",
        qkv_bias: OFF,
        out_bias: OFF,
        mlp: ["mlp.dense_h_to_4h", "mlp.dense_4h_to_h"],
        mlp_bias: OFF,
        norms: &["input_layernorm", "post_attention_layernorm"],
        final_norm: Some("final_layer_norm"),
        lm: "embed_out",
        last_out_bias: Some("dense_bias"),
        ..BIOGPT
    },
];
