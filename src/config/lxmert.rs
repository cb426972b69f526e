//! LXMERT (`lxmert`, Tan and Bansal, 2019): BERT's embeddings and `l_layers` language layers, a
//! visual feature encoder (object features and boxes projected to hidden), `r_layers` object
//! layers, `x_layers` cross-modality layers (one cross-attention shared by both directions, then
//! each side's self-attention and feed-forward), a pooler, and the pre-training or QA heads.
//! Built by `graph/lxmert.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::dims::dividing_heads;
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_attention_heads: Option<u64>,
    intermediate_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    type_vocab_size: Option<u64>,
    l_layers: Option<u64>,
    x_layers: Option<u64>,
    r_layers: Option<u64>,
    visual_feat_dim: Option<u64>,
    visual_pos_dim: Option<u64>,
    num_qa_labels: Option<u64>,
    num_object_labels: Option<u64>,
    num_attr_labels: Option<u64>,
    task_obj_predict: Option<bool>,
    task_qa: Option<bool>,
    visual_obj_loss: Option<bool>,
    visual_attr_loss: Option<bool>,
    visual_feat_loss: Option<bool>,
    tie_word_embeddings: Option<bool>,
    hidden_act: Option<String>,
}

/// What `LxmertForPreTraining` adds beside the masked-LM and matching heads (`cls`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreTraining {
    /// `obj_predict_head.decoder_dict`'s outputs by key (`obj`, `attr`, `feat`), when
    /// `task_obj_predict`.
    pub object_heads: Option<Vec<(&'static str, u64)>>,
    /// `answer_head` when `task_qa`.
    pub qa: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LxmertHead {
    None,
    QuestionAnswering,
    PreTraining(PreTraining),
}

#[derive(Debug, Clone)]
pub struct LxmertConfig {
    pub class: String,
    pub head: LxmertHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub ffn: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub l_layers: u64,
    pub x_layers: u64,
    pub r_layers: u64,
    pub visual_feat_dim: u64,
    pub visual_pos_dim: u64,
    pub num_qa_labels: u64,
    pub tie_word_embeddings: bool,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

fn pre_training(raw: &Raw, feat: u64, d: &mut Vec<Defaulted>) -> Result<PreTraining, ConfigError> {
    let object_heads = if flag("task_obj_predict", raw.task_obj_predict, true, d) {
        let mut heads = Vec::new();
        if flag("visual_obj_loss", raw.visual_obj_loss, true, d) {
            heads.push(("obj", size("num_object_labels", raw.num_object_labels, 1600, 1 << 24, d)?));
        }
        if flag("visual_attr_loss", raw.visual_attr_loss, true, d) {
            heads.push(("attr", size("num_attr_labels", raw.num_attr_labels, 400, 1 << 24, d)?));
        }
        if flag("visual_feat_loss", raw.visual_feat_loss, true, d) {
            heads.push(("feat", feat));
        }
        Some(heads)
    } else {
        None
    };
    Ok(PreTraining { object_heads, qa: flag("task_qa", raw.task_qa, true, d) })
}

impl LxmertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "LxmertModel", &mut d);
        let hidden_size = size("hidden_size", raw.hidden_size, 768, 1 << 18, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?;
        // LxmertAttention raises unless the heads divide the hidden size.
        let num_heads = dividing_heads(("num_attention_heads", num_heads), hidden_size)?;
        let visual_feat_dim = size("visual_feat_dim", raw.visual_feat_dim, 2048, 1 << 20, &mut d)?;
        let head = match class.strip_prefix("Lxmert") {
            Some("Model") => LxmertHead::None,
            Some("ForQuestionAnswering") => LxmertHead::QuestionAnswering,
            Some("ForPreTraining") => LxmertHead::PreTraining(pre_training(&raw, visual_feat_dim, &mut d)?),
            _ => return Err(super::read::unknown_class(&class)),
        };
        let qa_used = match &head {
            LxmertHead::QuestionAnswering => true,
            LxmertHead::PreTraining(p) => p.qa,
            LxmertHead::None => false,
        };
        let num_qa_labels =
            if qa_used { size("num_qa_labels", raw.num_qa_labels, 9500, 1 << 24, &mut d)? } else { 0 };
        let positions = size("max_position_embeddings", raw.max_position_embeddings, 512, 1 << 30, &mut d)?;
        Ok(LxmertConfig {
            head,
            vocab_size: size("vocab_size", raw.vocab_size, 30522, 100_000_000, &mut d)?,
            hidden_size,
            num_heads,
            ffn: size("intermediate_size", raw.intermediate_size, 3072, 1 << 22, &mut d)?,
            max_position_embeddings: positions,
            type_vocab_size: size("type_vocab_size", raw.type_vocab_size, 2, 1 << 16, &mut d)?,
            l_layers: size("l_layers", raw.l_layers, 9, 10_000, &mut d)?,
            x_layers: size("x_layers", raw.x_layers, 5, 10_000, &mut d)?,
            r_layers: size("r_layers", raw.r_layers, 5, 10_000, &mut d)?,
            visual_feat_dim,
            visual_pos_dim: size("visual_pos_dim", raw.visual_pos_dim, 4, 1 << 16, &mut d)?,
            num_qa_labels,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            hidden_act: raw.hidden_act.unwrap_or_else(|| {
                d.push(Defaulted { field: "hidden_act", value: "gelu".into() });
                "gelu".into()
            }),
            class,
            defaulted: d,
        })
    }
}
