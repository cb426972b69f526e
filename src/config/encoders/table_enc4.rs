//! Rows added for issue 10's enc4 list, each saying what differs from BERT's row.

use super::{
    BERT, BERT_DEFAULTS, Classes, Defaults, EmbedWidth, EncoderDesc, Mlm, Norms, Positions, ROBERTA, Rotary,
    RotaryMlp, Style,
};

/// Masked LM and task heads only.
const NO_LM: Classes = Classes { prefix: "", causal_lm: None, pretraining: false, next_sentence: false };

/// A causal LM under `ForCausalLM`, no next-sentence class.
const CAUSAL: Classes =
    Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: false, next_sentence: false };

pub const TYPES: &[EncoderDesc] = &[
    // BERT's layers; pronunciation and shape tables beside the word table, concatenated and
    // mapped back to the hidden size. Its pre-training class has the MLM head only.
    EncoderDesc {
        model_type: "roc_bert",
        classes: Classes { prefix: "RoCBert", pretraining: true, ..CAUSAL },
        module: "roc_bert.",
        prefixes: &["roc_bert."],
        glyphs: true,
        nsp: false,
        ..BERT
    },
    // Tables of `input_embedding_size` mapped up by the encoder; a head of its own width whose
    // decoder no class ties.
    EncoderDesc {
        model_type: "rembert",
        classes: Classes { prefix: "RemBert", ..CAUSAL },
        module: "rembert.",
        prefixes: &["rembert."],
        defaults: Defaults {
            vocab_size: 250300,
            hidden_size: 1152,
            num_hidden_layers: 32,
            num_attention_heads: 18,
            intermediate_size: 4608,
            ..BERT_DEFAULTS
        },
        embed_width: Some(EmbedWidth {
            key: "input_embedding_size",
            default: Some(256),
            project: "encoder.embedding_hidden_mapping_in",
            always: true,
        }),
        mlm: Mlm::Projected,
        ..BERT
    },
    // Rotary positions (their sinusoids a frozen table), no learned position table, no pooler;
    // `embedding_size` (the hidden size when null) projected up when it differs.
    EncoderDesc {
        model_type: "roformer",
        classes: Classes { prefix: "RoFormer", ..CAUSAL },
        module: "roformer.",
        prefixes: &["roformer."],
        style: Style::RoFormer,
        defaults: Defaults { vocab_size: 50000, max_position_embeddings: 1536, ..BERT_DEFAULTS },
        embed_width: Some(EmbedWidth {
            key: "embedding_size",
            default: None,
            project: "embeddings_project",
            always: false,
        }),
        positions: Positions::Sinusoid,
        ..BERT
    },
    // Post-LN layers under `layers.{i}` with rotary positions, a gated MLP whose down
    // projection alone has a bias, and no position table; RoBERTa-like `lm_head` whose decoder
    // keeps its own bias. The bare model has no pooler; sequence classification pools.
    EncoderDesc {
        model_type: "gte",
        classes: Classes { prefix: "Gte", ..NO_LM },
        module: "gte.",
        prefixes: &["gte."],
        defaults: Defaults {
            vocab_size: 250048,
            max_position_embeddings: 8192,
            type_vocab_size: 1,
            pad_token_id: 1,
            ..BERT_DEFAULTS
        },
        positions: Positions::Rotary,
        mlm: Mlm::LmHead { bias: "lm_head.decoder.bias" },
        rotary: Some(Rotary {
            attention_bias: true,
            mlp: RotaryMlp::Gated { up_bias: false, down_bias: true },
        }),
        bare_pooler: false,
        ..BERT
    },
    // GTE's layer without any bias; BERT's `cls` head.
    EncoderDesc {
        model_type: "nomic_bert",
        classes: Classes { prefix: "NomicBert", ..NO_LM },
        module: "nomic_bert.",
        prefixes: &["nomic_bert."],
        defaults: Defaults { vocab_size: 30528, max_position_embeddings: 2048, ..BERT_DEFAULTS },
        positions: Positions::Rotary,
        rotary: Some(Rotary {
            attention_bias: false,
            mlp: RotaryMlp::Gated { up_bias: false, down_bias: false },
        }),
        bare_pooler: false,
        ..BERT
    },
    // GTE's layer with `fc1`/`fc2`; XLM-RoBERTa's tables (no positions) and heads, under
    // `roberta.`.
    EncoderDesc {
        model_type: "jina_embeddings_v3",
        classes: Classes { prefix: "JinaEmbeddingsV3", ..NO_LM },
        prefixes: &["roberta."],
        defaults: Defaults {
            vocab_size: 250002,
            hidden_size: 1024,
            num_hidden_layers: 24,
            num_attention_heads: 16,
            intermediate_size: 4096,
            max_position_embeddings: 8194,
            type_vocab_size: 1,
            pad_token_id: 1,
            layer_norm_eps: 1e-5,
        },
        positions: Positions::Rotary,
        rotary: Some(Rotary { attention_bias: true, mlp: RotaryMlp::Fc }),
        ..ROBERTA
    },
    // Pre-LN BERT layers (`attention.LayerNorm`, the layer's `LayerNorm`, a final
    // `emb_layer_norm_after`), no token types, a learned or rotary position table, an
    // embedding norm only under `emb_layer_norm_before`, and a contact head in every class.
    // EsmConfig has no vocabulary default (0 here: a file must give one); its pad index is None,
    // taken as ESM-2's 1 for the positions RoBERTa-style ids can reach.
    EncoderDesc {
        model_type: "esm",
        classes: Classes { prefix: "Esm", ..NO_LM },
        module: "esm.",
        prefixes: &["esm."],
        defaults: Defaults { vocab_size: 0, max_position_embeddings: 1026, pad_token_id: 1, ..BERT_DEFAULTS },
        norms: Norms {
            embeddings: true,
            pre: true,
            attention: "attention.LayerNorm",
            mlp: "LayerNorm",
            last: Some("encoder.emb_layer_norm_after"),
        },
        positions: Positions::Switched,
        mlm: Mlm::LmHead { bias: "lm_head.bias" },
        embed_norm_key: Some("emb_layer_norm_before"),
        contact_head: true,
        token_types: false,
        ..ROBERTA
    },
    // RoBERTa's layers and heads (XmodConfig keeps BERT's vocabulary default) with a bottleneck
    // adapter per language after each MLP.
    EncoderDesc {
        model_type: "xmod",
        classes: Classes { prefix: "Xmod", ..super::table::ROBERTA_CLASSES },
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        adapters: true,
        ..ROBERTA
    },
    // BERT's tables and heads, a pooler under every class, and layers of grouped convolutions.
    EncoderDesc {
        model_type: "squeezebert",
        classes: Classes { prefix: "SqueezeBert", ..NO_LM },
        module: "transformer.",
        prefixes: &["transformer."],
        pooler_always: true,
        grouped: true,
        ..BERT
    },
    // ELECTRA's tables (`embedding_size`, 768 by default, projected up when it differs) and
    // generator head, RoFormer's classification heads, and mixed attention.
    EncoderDesc {
        model_type: "convbert",
        classes: Classes { prefix: "ConvBert", ..NO_LM },
        module: "convbert.",
        prefixes: &["convbert."],
        style: Style::RoFormer,
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        embed_width: Some(EmbedWidth {
            key: "embedding_size",
            default: Some(768),
            project: "embeddings_project",
            always: false,
        }),
        mlm: Mlm::Generator,
        span_conv: true,
        ..BERT
    },
];
