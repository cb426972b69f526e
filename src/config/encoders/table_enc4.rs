//! Rows added for issue 10's enc4 list, each saying what differs from BERT's row.

use super::{BERT, BERT_DEFAULTS, Classes, Defaults, EmbedWidth, EncoderDesc, Mlm, Positions, Style};

/// A causal LM under `ForCausalLM`, no next-sentence class.
const CAUSAL: Classes = Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: false, next_sentence: false };

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
        embed_width: Some(EmbedWidth { key: "embedding_size", default: None, project: "embeddings_project", always: false }),
        positions: Positions::Sinusoid,
        ..BERT
    },
];
