//! The rows: each type of the BERT lineage, saying only what differs from BERT's or RoBERTa's.

use super::{BERT, BERT_DEFAULTS, Classes, Conv, Defaults, EncoderDesc, Norms, ROBERTA, Style};

/// RoBERTa's classes: a causal LM, no pre-training or next-sentence classes.
pub(super) const ROBERTA_CLASSES: Classes =
    Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: false, next_sentence: false };

/// BERT's classes with a causal LM named as RoBERTa names it (ERNIE, Megatron-BERT).
const BERT_CLASSES: Classes =
    Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: true, next_sentence: true };

/// YOSO's classes: no causal LM, no pre-training heads.
const YOSO_CLASSES: Classes =
    Classes { prefix: "", causal_lm: None, pretraining: false, next_sentence: false };

/// `YosoConfig`'s defaults (RoBERTa's vocabulary, 4096 positions, one token type).
const YOSO_DEFAULTS: Defaults = Defaults {
    vocab_size: 50265,
    max_position_embeddings: 4096,
    type_vocab_size: 1,
    pad_token_id: 1,
    ..BERT_DEFAULTS
};

pub const TYPES: &[EncoderDesc] = &[
    // Rows 0 to 2 stay BERT, RoBERTa and XLM-RoBERTa (`interchangeable`).
    BERT,
    ROBERTA,
    // XLMRobertaConfig keeps BertConfig's vocabulary default, with RoBERTa's padding index.
    EncoderDesc {
        model_type: "xlm-roberta",
        classes: Classes { prefix: "XLMRoberta", ..ROBERTA_CLASSES },
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "camembert",
        classes: Classes { prefix: "Camembert", ..ROBERTA_CLASSES },
        prefixes: &["roberta."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "data2vec-text",
        classes: Classes { prefix: "Data2VecText", ..ROBERTA_CLASSES },
        module: "data2vec_text.",
        prefixes: &["data2vec_text."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    // Pre-LN: a norm before attention and one before the MLP, and one more after the stack
    // (on the model, not the encoder); the embeddings keep theirs.
    EncoderDesc {
        model_type: "roberta-prelayernorm",
        classes: Classes { prefix: "RobertaPreLayerNorm", ..ROBERTA_CLASSES },
        module: "roberta_prelayernorm.",
        prefixes: &["roberta_prelayernorm."],
        norms: Norms {
            embeddings: true,
            pre: true,
            attention: "attention.LayerNorm",
            mlp: "intermediate.LayerNorm",
            last: Some("LayerNorm"),
        },
        ..ROBERTA
    },
    // Pre-LN without an embedding norm; the last norm is the encoder's.
    EncoderDesc {
        model_type: "xlm-roberta-xl",
        classes: Classes { prefix: "XLMRobertaXL", ..ROBERTA_CLASSES },
        prefixes: &["roberta."],
        defaults: Defaults {
            vocab_size: 250880,
            hidden_size: 2560,
            num_hidden_layers: 36,
            num_attention_heads: 32,
            intermediate_size: 10240,
            max_position_embeddings: 514,
            type_vocab_size: 1,
            pad_token_id: 1,
            layer_norm_eps: 1e-5,
        },
        norms: Norms {
            embeddings: false,
            pre: true,
            attention: "attention.self_attn_layer_norm",
            mlp: "LayerNorm",
            last: Some("encoder.LayerNorm"),
        },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "ernie",
        classes: Classes { prefix: "Ernie", ..BERT_CLASSES },
        module: "ernie.",
        prefixes: &["ernie."],
        task_ids: true,
        ..BERT
    },
    // Megatron's pre-LN BERT: no embedding norm, `ln` before each sublayer and after the stack.
    EncoderDesc {
        model_type: "megatron-bert",
        classes: Classes { prefix: "MegatronBert", ..BERT_CLASSES },
        prefixes: &["bert."],
        defaults: Defaults {
            vocab_size: 29056,
            hidden_size: 1024,
            num_hidden_layers: 24,
            num_attention_heads: 16,
            intermediate_size: 4096,
            ..BERT_DEFAULTS
        },
        norms: Norms {
            embeddings: false,
            pre: true,
            attention: "attention.ln",
            mlp: "ln",
            last: Some("encoder.ln"),
        },
        ..BERT
    },
    // I-BERT's integer-only modules hold the same parameters as RoBERTa's; their scales and
    // integer weights are buffers.
    EncoderDesc {
        model_type: "ibert",
        classes: Classes { prefix: "IBert", causal_lm: None, ..ROBERTA_CLASSES },
        module: "ibert.",
        prefixes: &["ibert."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "layoutlm",
        classes: Classes { prefix: "LayoutLM", causal_lm: None, pretraining: false, next_sentence: false },
        module: "layoutlm.",
        prefixes: &["layoutlm."],
        layout: true,
        pooler_always: true,
        ..BERT
    },
    EncoderDesc {
        model_type: "yoso",
        classes: Classes { prefix: "Yoso", ..YOSO_CLASSES },
        module: "yoso.",
        prefixes: &["yoso."],
        style: Style::Yoso,
        defaults: YOSO_DEFAULTS,
        position_offset: 2,
        conv: Conv::Window,
        ..BERT
    },
    EncoderDesc {
        model_type: "mra",
        classes: Classes { prefix: "Mra", ..YOSO_CLASSES },
        module: "mra.",
        prefixes: &["mra."],
        style: Style::Yoso,
        defaults: Defaults { max_position_embeddings: 512, layer_norm_eps: 1e-5, ..YOSO_DEFAULTS },
        position_offset: 2,
        ..BERT
    },
    EncoderDesc {
        model_type: "nystromformer",
        classes: Classes { prefix: "Nystromformer", ..YOSO_CLASSES },
        module: "nystromformer.",
        prefixes: &["nystromformer."],
        style: Style::Yoso,
        defaults: Defaults {
            vocab_size: 30000,
            max_position_embeddings: 510,
            type_vocab_size: 2,
            layer_norm_eps: 1e-5,
            ..YOSO_DEFAULTS
        },
        position_offset: 2,
        conv: Conv::Kernel,
        ..BERT
    },
];

/// The description of a `model_type` of the lineage, if there is one.
pub fn lookup(model_type: &str) -> Option<&'static EncoderDesc> {
    let rows = TYPES.iter().chain(super::table_enc2::TYPES);
    let rows = rows.chain(super::table_enc6::TYPES);
    rows.chain(super::table_enc4::TYPES).find(|d| d.model_type == model_type)
}

/// BERT, RoBERTa and XLM-RoBERTa files load each other's classes (a `bert` config naming
/// `XLMRobertaModel` is planned as that class, with the file's own type's defaults).
pub fn interchangeable(desc: &EncoderDesc) -> impl Iterator<Item = &'static EncoderDesc> {
    let open = TYPES[..3].iter().any(|d| d.model_type == desc.model_type);
    TYPES[..3].iter().filter(move |d| open && d.model_type != desc.model_type)
}
