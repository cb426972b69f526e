//! The BERT lineage: `bert`, `roberta`, `xlm-roberta` (and the sentence-transformers, e5, bge and
//! reranker checkpoints built on them) and the types described beside them in
//! `config/encoders.rs` (CamemBERT, Data2VecText, ERNIE, the pre-LN RoBERTa-PreLayerNorm,
//! XLM-RoBERTa-XL and Megatron-BERT), read with each config class's defaults.

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::encoders::Style;
use super::encoders::{Conv, EncoderDesc, position_embedding, sizes};
use super::{
    Common, ConfigError, Defaulted, Limit, check_range, class_or, deserialize_raw, flag, num_labels, size,
};

/// Which head modules a class builds on the encoder. The names follow the checkpoint's tensors,
/// and BERT-style and RoBERTa-style heads are built differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    /// The bare encoder with its pooler (`BertModel`).
    Model,
    MaskedLm,
    CausalLm,
    PreTraining,
    NextSentencePrediction,
    SequenceClassification {
        num_labels: u64,
    },
    TokenClassification {
        num_labels: u64,
    },
    QuestionAnswering,
    MultipleChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionEmbedding {
    Absolute,
    /// Shaw et al.: a `distance_embedding` per self-attention layer.
    RelativeKey,
    RelativeKeyQuery,
}

#[derive(Debug, Deserialize)]
struct Raw {
    use_task_id: Option<bool>,
    task_type_vocab_size: Option<u64>,
    max_2d_position_embeddings: Option<u64>,
    conv_window: Option<u64>,
    conv_kernel_size: Option<u64>,
    position_embedding_type: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    layer_norm_eps: Option<f64>,
    hidden_act: Option<String>,
    use_bias: Option<bool>,
    output_embedding_size: Option<u64>,
}

/// A resolved BERT-family config: nothing structural is optional.
#[derive(Debug, Clone, Serialize)]
pub struct BertConfig {
    #[serde(skip)]
    pub desc: &'static EncoderDesc,
    /// The class planned: `architectures[0]`, or the family's base model when the file names none.
    pub class: String,
    pub head: Head,
    pub style: Style,
    /// Outputs of a task head that is sized by `num_labels` but carries no count of its own
    /// (transformers' `qa_outputs` is `Linear(hidden, num_labels)`, 2 by default).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    /// Rows of ERNIE's `task_type_embeddings` (`use_task_id`); None when it builds none.
    pub task_types: Option<u64>,
    /// Rows of each of LayoutLM's four 2-D position tables; None for the other types.
    pub layout_positions: Option<u64>,
    /// Kernel of the depthwise convolution over each head's values (YOSO's `conv_window`,
    /// Nyströmformer's `conv_kernel_size`); None when the layer has none.
    pub conv_kernel: Option<u64>,
    pub position_embedding: PositionEmbedding,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// q, k and v have biases (all but BigBird with `use_bias` false).
    pub qkv_bias: bool,
    /// Width of the embedding tables (the hidden size but for RemBERT's and RoFormer's).
    pub embed_width: u64,
    /// The class projects the embeddings to the hidden size (`EmbedWidth::project`).
    pub embed_project: bool,
    /// RoCBert's pronunciation and shape tables.
    pub glyphs: Option<super::encoders::Glyphs>,
    /// RemBERT's `output_embedding_size`, the width of its masked-LM head.
    pub output_width: Option<u64>,
    /// Each head's width: hidden / heads, or the rotary encoders' `head_dim` when a file sets it.
    pub head_dim: u64,
    /// ESM's `position_embedding_type: rotary`: no position table.
    pub rotary_positions: bool,
    /// The embeddings end in a norm.
    pub embed_norm: bool,
    /// SqueezeBERT's convolution groups (`encoders::GROUP_KEYS`).
    pub groups: Option<[u64; 6]>,
    pub span_conv: Option<super::encoders::SpanConv>,
    /// X-MOD's language adapters.
    pub adapters: Option<super::encoders::Adapters>,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
    /// What the enc6 rows read beyond the lineage's keys (`encoders::finish_enc6`).
    pub enc6: super::encoders::Enc6,
}

/// A supported family whose class the planner does not know is reported, not guessed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("class {0} is not one the planner knows for this family")]
pub struct UnknownClass(pub String);

impl BertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = super::encoders::lookup(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a BERT-family model type"))?;
        let df = desc.defaults;
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let k = df.keys();
        if df.vocab_size == 0 && value.get("vocab_size").is_none_or(Value::is_null) {
            return Err(ConfigError::field("vocab_size", "required: the config class has no default"));
        }
        #[rustfmt::skip]
        let [vocab_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings] = sizes(value, [k[0], k[1], k[2], k[3], k[4], k[5]], &mut d)?;
        // The rotary encoders build an empty token-type table (GTE none) at 0.
        let type_vocab_size = match value.get("type_vocab_size").and_then(Value::as_u64) {
            Some(0) if desc.rotary.is_some() => 0,
            _ if !desc.token_types => 0,
            _ => sizes(value, [k[6]], &mut d)?[0],
        };
        let head_dim = super::encoders::head_dim(desc, value, hidden_size, num_heads)?;
        // ErnieConfig: `use_task_id` off by default, 3 task types.
        let task_types = if desc.task_ids && flag("use_task_id", raw.use_task_id, false, &mut d) {
            Some(size("task_type_vocab_size", raw.task_type_vocab_size, 3, 1 << 20, &mut d)?)
        } else {
            None
        };
        // LayoutLMConfig: 1024 rows per coordinate table.
        let layout_positions = match desc.layout {
            true => Some(size(
                "max_2d_position_embeddings",
                raw.max_2d_position_embeddings,
                1024,
                1 << 20,
                &mut d,
            )?),
            false => None,
        };
        let conv_kernel = match desc.conv {
            Conv::None => None,
            Conv::Window => raw
                .conv_window
                .map(|k| check_range(Limit { field: "conv_window", max: 1 << 16 }, k))
                .transpose()?,
            Conv::Kernel => {
                let raw_kernel = value.get("conv_kernel_size");
                if raw_kernel.is_some_and(|v| v.is_null()) {
                    None
                } else {
                    Some(size("conv_kernel_size", raw.conv_kernel_size, 65, 1 << 16, &mut d)?)
                }
            }
        };
        let (position_embedding, rotary_positions) = match desc.positions {
            super::encoders::Positions::Switched => (
                PositionEmbedding::Absolute,
                super::encoders::rotary_switch(raw.position_embedding_type.as_deref(), &mut d)?,
            ),
            _ => (position_embedding(raw.position_embedding_type.as_deref(), &mut d)?, false),
        };
        let embed_norm = match desc.embed_norm_key {
            Some(key) => super::encoders::boolean(value, key, false, &mut d)?,
            None => desc.norms.embeddings,
        };
        // RemBERT's classes tie nothing, whatever the file says.
        let tie_word_embeddings = desc.mlm != super::encoders::Mlm::Projected
            && flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let labels = num_labels(value)?;
        let pad_token_id = super::read::pad_token_id(raw.pad_token_id, df.pad_token_id, &mut d);
        let layer_norm_eps = raw.layer_norm_eps.unwrap_or(df.layer_norm_eps);
        let hidden_act = raw.hidden_act.unwrap_or_else(|| "gelu".into());
        let qkv_bias = match desc.qkv_bias_key {
            Some(key) => flag(key, raw.use_bias, true, &mut d),
            None => true,
        };
        let (embed_width, embed_project) = super::encoders::embed_width(desc, value, hidden_size, &mut d)?;
        let glyphs = super::encoders::glyphs(desc, value, hidden_size, &mut d)?;
        let adapters = super::encoders::adapters(desc, value, hidden_size, &mut d)?;
        let groups = super::encoders::groups(desc, value, hidden_size, intermediate_size, &mut d)?;
        let span_conv =
            super::encoders::span_conv(desc, value, [hidden_size, num_heads, intermediate_size], &mut d)?;
        let output_width = match desc.mlm {
            super::encoders::Mlm::Projected => {
                Some(size("output_embedding_size", raw.output_embedding_size, 1664, 1 << 18, &mut d)?)
            }
            _ => None,
        };
        let class = class_or(common, &format!("{}Model", desc.classes.prefix), &mut d);
        let (desc, head) = std::iter::once(desc)
            .chain(super::encoders::interchangeable(desc))
            .find_map(|k| super::encoders::match_class(&k.classes, &class).map(|h| (k, h)))
            .ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.clone()).to_string()))?;
        let (head, mut num_labels) = super::encoders::labelled(head, labels, &mut d)?;
        // ConvBERT shares RoFormer's heads but its QA class keeps the file's label count.
        let fixed_qa =
            matches!(desc.style, Style::Yoso | Style::BigBird | Style::RoFormer) && span_conv.is_none();
        if fixed_qa && head == Head::QuestionAnswering {
            // YosoForQuestionAnswering, BigBird's and RoFormer's set `config.num_labels =
            // 2` whatever the file says.
            num_labels = 2;
        }
        Ok(BertConfig {
            desc,
            class,
            head,
            style: desc.style,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            task_types,
            layout_positions,
            conv_kernel,
            position_embedding,
            tie_word_embeddings,
            pad_token_id,
            layer_norm_eps,
            hidden_act,
            qkv_bias,
            embed_width,
            embed_project,
            glyphs,
            output_width,
            head_dim,
            rotary_positions,
            embed_norm,
            adapters,
            groups,
            span_conv,
            release: super::release::Release::V5,
            defaulted: d,
            enc6: Default::default(),
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.head_dim
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            head_dim: self.head_dim(),
            usable_context: self.usable_positions(),
            ..super::encoders::encoder_dims!(self)
        }
    }

    /// RoBERTa-style position ids start after the padding index, so the last
    /// `pad_token_id + 1` rows of the position table can never be reached.
    pub fn usable_positions(&self) -> u64 {
        match self.style {
            Style::Roberta => {
                self.max_position_embeddings.saturating_sub(self.pad_token_id.saturating_add(1))
            }
            Style::Bert | Style::Yoso | Style::BigBird | Style::RoFormer => self.max_position_embeddings,
        }
    }
}

#[cfg(test)]
mod tests;
