//! Rows added for issue 10's enc6 list, each saying what differs from BERT's row. Their configs
//! are read by `read_enc6::finish_enc6`.

use super::read_enc6::LINEAGE;
use super::{BERT, BERT_DEFAULTS, Classes, Defaults, Enc6Desc, EncoderDesc, Heads, Style};

/// Every class the modeling file defines has a pooler-free or pooled head of BERT's kinds.
const BERT_LIKE: Classes = Classes { prefix: "", causal_lm: None, pretraining: true, next_sentence: true };

pub const TYPES: &[EncoderDesc] = &[
    // BERT's tables, then a LayerNorm and a projection; each layer a Fourier transform (no
    // weights) under a LayerNorm, and BERT's MLP. A pooler in every class; no heads key.
    EncoderDesc {
        model_type: "fnet",
        classes: Classes { prefix: "FNet", ..BERT_LIKE },
        module: "fnet.",
        prefixes: &["fnet."],
        defaults: Defaults { vocab_size: 32000, type_vocab_size: 4, pad_token_id: 3, ..BERT_DEFAULTS },
        pooler_always: true,
        enc6: Enc6Desc {
            mixer: true,
            embed_projection: Some("projection"),
            unread: &["num_attention_heads", "position_embedding_type"],
            act: "gelu_new",
            ..LINEAGE
        },
        ..BERT
    },
    // BERT's encoder without a pooler (as RoFormer's style has none); question answering and
    // pre-training select spans with the question-aware head.
    EncoderDesc {
        model_type: "splinter",
        classes: Classes { prefix: "Splinter", ..BERT_LIKE },
        module: "splinter.",
        prefixes: &["splinter."],
        style: Style::RoFormer,
        enc6: Enc6Desc {
            only: Some(&["Model", "ForQuestionAnswering", "ForPreTraining"]),
            heads: Heads::Splinter,
            unread: &["position_embedding_type"],
            ..LINEAGE
        },
        ..BERT
    },
    // BERT's layers; seven token-type tables (segment, column, row, previous answer, column
    // rank, inverse column rank, numeric relation) in place of one; cell selection heads.
    EncoderDesc {
        model_type: "tapas",
        classes: Classes { prefix: "Tapas", ..BERT_LIKE },
        module: "tapas.",
        prefixes: &["tapas."],
        defaults: Defaults { max_position_embeddings: 1024, ..BERT_DEFAULTS },
        token_types: false,
        enc6: Enc6Desc {
            type_tables: Some(&[3, 256, 256, 2, 256, 256, 10]),
            only: Some(&["Model", "ForMaskedLM", "ForQuestionAnswering", "ForSequenceClassification"]),
            heads: Heads::Tapas,
            unread: &["position_embedding_type", "type_vocab_size"],
            ..LINEAGE
        },
        ..BERT
    },
    // RoBERTa's tables and position ids; entity tables beside them, entity-aware queries, and
    // heads of its own (`Heads::Luke`); a pooler in every class but token classification and
    // question answering.
    EncoderDesc {
        model_type: "luke",
        classes: Classes { prefix: "Luke", causal_lm: None, pretraining: false, next_sentence: false },
        module: "luke.",
        prefixes: &["luke."],
        style: Style::Roberta,
        defaults: Defaults { vocab_size: 50267, pad_token_id: 1, ..BERT_DEFAULTS },
        enc6: Enc6Desc {
            only: Some(&[
                "Model",
                "ForMaskedLM",
                "ForSequenceClassification",
                "ForTokenClassification",
                "ForQuestionAnswering",
                "ForMultipleChoice",
            ]),
            heads: Heads::Luke,
            unread: &["position_embedding_type"],
            ..LINEAGE
        },
        ..BERT
    },
];
