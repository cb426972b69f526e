//! Encoder types of the BERT lineage described as data: each type is an [`EncoderDesc`], its
//! config class's defaults, its class names, where its encoder lives in a head class
//! (`base_model_prefix`), which head style it builds, and where its LayerNorms sit. One reader
//! (`config/bert.rs`) resolves any of them; one builder (`graph/bert.rs`, from the blocks of
//! `graph/encoder.rs`) plans it. How to add one is in the README ("Adding a model type").

/// BERT heads live under `cls.` (`cls.predictions`, `cls.seq_relationship`) and classify from
/// the pooled vector; RoBERTa heads under `lm_head.` and `classifier.` (a dense + `out_proj`
/// classification head on the first token, no pooler).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Bert,
    Roberta,
}

/// The config class's defaults for the keys every type of the lineage reads.
#[derive(Debug, Clone, Copy)]
pub struct Defaults {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_hidden_layers: u64,
    pub num_attention_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
}

/// `BertConfig`'s defaults, which most of the lineage keeps.
pub const BERT_DEFAULTS: Defaults = Defaults {
    vocab_size: 30522,
    hidden_size: 768,
    num_hidden_layers: 12,
    num_attention_heads: 12,
    intermediate_size: 3072,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
};

/// Where a layer's two LayerNorms sit and what they are called (under `encoder.layer.{i}.`),
/// whether the embeddings end in one, and the final norm after the stack (under the encoder's
/// prefix), if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Norms {
    /// `embeddings.LayerNorm` over the sum of the tables.
    pub embeddings: bool,
    /// Post-LN (BERT): each norm after its residual add. Pre-LN: before its sublayer.
    pub pre: bool,
    pub attention: &'static str,
    pub mlp: &'static str,
    pub last: Option<&'static str>,
}

/// BERT's post-LN layer.
pub const POST_LN: Norms = Norms {
    embeddings: true,
    pre: false,
    attention: "attention.output.LayerNorm",
    mlp: "output.LayerNorm",
    last: None,
};

/// One model type of the lineage.
#[derive(Debug, Clone, Copy)]
pub struct EncoderDesc {
    pub model_type: &'static str,
    /// Class names are this prefix and a head suffix (`Roberta` + `ForMaskedLM`).
    pub classes: &'static str,
    /// The suffix of its causal-LM class (`LMHeadModel` for BERT, `ForCausalLM` elsewhere).
    pub causal_lm: &'static str,
    /// Whether it defines BERT's `ForPreTraining` and `ForNextSentencePrediction`.
    pub pretraining: bool,
    /// `base_model_prefix`: the encoder's module in a head class, with its dot.
    pub module: &'static str,
    /// What a checkpoint's tensor names may be prefixed with when loaded into another class.
    pub prefixes: &'static [&'static str],
    pub style: Style,
    pub defaults: Defaults,
    pub norms: Norms,
    /// ERNIE's `task_type_embeddings`, built when `use_task_id` is set.
    pub task_ids: bool,
}

pub const BERT: EncoderDesc = EncoderDesc {
    model_type: "bert",
    classes: "Bert",
    causal_lm: "LMHeadModel",
    pretraining: true,
    module: "bert.",
    prefixes: &["bert.", "roberta."],
    style: Style::Bert,
    defaults: BERT_DEFAULTS,
    norms: POST_LN,
    task_ids: false,
};

pub const ROBERTA: EncoderDesc = EncoderDesc {
    model_type: "roberta",
    classes: "Roberta",
    causal_lm: "ForCausalLM",
    pretraining: false,
    module: "roberta.",
    style: Style::Roberta,
    defaults: Defaults { vocab_size: 50265, pad_token_id: 1, ..BERT_DEFAULTS },
    ..BERT
};

pub const TYPES: &[EncoderDesc] = &[
    BERT,
    ROBERTA,
    // XLMRobertaConfig keeps BertConfig's vocabulary default, with RoBERTa's padding index.
    EncoderDesc {
        model_type: "xlm-roberta",
        classes: "XLMRoberta",
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "camembert",
        classes: "Camembert",
        prefixes: &["roberta."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "data2vec-text",
        classes: "Data2VecText",
        module: "data2vec_text.",
        prefixes: &["data2vec_text."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    // Pre-LN: a norm before attention and one before the MLP, and one more after the stack
    // (on the model, not the encoder); the embeddings keep theirs.
    EncoderDesc {
        model_type: "roberta-prelayernorm",
        classes: "RobertaPreLayerNorm",
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
        classes: "XLMRobertaXL",
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
        classes: "Ernie",
        causal_lm: "ForCausalLM",
        module: "ernie.",
        prefixes: &["ernie."],
        task_ids: true,
        ..BERT
    },
    // Megatron's pre-LN BERT: no embedding norm, `ln` before each sublayer and after the stack.
    EncoderDesc {
        model_type: "megatron-bert",
        classes: "MegatronBert",
        causal_lm: "ForCausalLM",
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
];

/// The description of a `model_type` of the lineage, if there is one.
pub fn lookup(model_type: &str) -> Option<&'static EncoderDesc> {
    TYPES.iter().find(|d| d.model_type == model_type)
}

/// BERT, RoBERTa and XLM-RoBERTa files load each other's classes (a `bert` config naming
/// `XLMRobertaModel` is planned as that class, with the file's own type's defaults).
pub fn interchangeable(desc: &EncoderDesc) -> impl Iterator<Item = &'static EncoderDesc> {
    let open = TYPES[..3].iter().any(|d| d.model_type == desc.model_type);
    TYPES[..3].iter().filter(move |d| open && d.model_type != desc.model_type)
}
