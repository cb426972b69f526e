//! Rows added for issue 10's enc2 list: Longformer and BigBird, each saying what differs from
//! RoBERTa's or BERT's row.

use super::{BERT, BERT_DEFAULTS, Classes, Defaults, EncoderDesc, ROBERTA, Style};

pub const TYPES: &[EncoderDesc] = &[
    // RoBERTa's embeddings and heads; each layer adds global q, k and v projections. The
    // sliding window (`attention_window`) shapes no parameter.
    EncoderDesc {
        model_type: "longformer",
        classes: Classes { prefix: "Longformer", causal_lm: None, pretraining: false, next_sentence: false },
        module: "longformer.",
        prefixes: &["longformer."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        global_attention: true,
        ..ROBERTA
    },
    // Block-sparse attention over the same q, k, v as BERT's (biases under `use_bias`).
    EncoderDesc {
        model_type: "big_bird",
        classes: Classes {
            prefix: "BigBird",
            causal_lm: Some("ForCausalLM"),
            pretraining: true,
            next_sentence: false,
        },
        prefixes: &["bert."],
        style: Style::BigBird,
        defaults: Defaults { vocab_size: 50358, max_position_embeddings: 4096, ..BERT_DEFAULTS },
        qkv_bias_key: Some("use_bias"),
        ..BERT
    },
];
