//! GPT-BigCode (`gpt_bigcode`: StarCoder, SantaCoder, WizardCoder): GPT-2's layout (learned
//! positions, LayerNorm, `c_attn`, `c_proj`, `c_fc`) with `nn.Linear` instead of `Conv1D` and one
//! key/value head shared by all query heads (`multi_query`). Read through a key table as the
//! described types are (`config/spec.rs`), with `GPTBigCodeConfig`'s defaults and
//! `attribute_map`.

use serde::Serialize;
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify};
use super::spec::{Dv, Reader, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::{Common, ConfigError, Defaulted};
use Dv::{B, F, Null, S, U};

const KEYS: Spec = Spec {
    model_type: "gpt_bigcode",
    keys: keys![vocab_size: U(50257), n_positions: U(1024), n_embd: U(768), n_layer: U(12), n_head: U(12),
        n_inner: Null, activation_function: S("gelu_pytorch_tanh"), layer_norm_epsilon: F(1e-5),
        pad_token_id: Null, multi_query: B(true), add_cross_attention: B(false),
        tie_word_embeddings: B(true)],
    aliases: &[
        ("hidden_size", "n_embd"),
        ("max_position_embeddings", "n_positions"),
        ("num_attention_heads", "n_head"),
        ("num_hidden_layers", "n_layer"),
    ],
    ..BASE
};

const CLASSES: Classes = Classes {
    prefix: "GPTBigCode",
    causal_lm: "ForCausalLM",
    token_classification: true,
    question_answering: false,
};

#[derive(Debug, Clone, Serialize)]
pub struct GptBigCodeConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub n_positions: u64,
    pub n_embd: u64,
    pub n_layer: u64,
    pub n_head: u64,
    /// 1 with `multi_query`, else every head its own.
    pub kv_heads: u64,
    /// `n_inner`, or 4 x `n_embd` when the file leaves it null.
    pub inner: u64,
    pub activation: String,
    pub layer_norm_epsilon: f64,
    pub tie_word_embeddings: bool,
    /// Each block also attends to an encoder (`crossattention`, `ln_cross_attn`).
    pub add_cross_attention: bool,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

impl GptBigCodeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        static SPEC: Spec = KEYS;
        let mut r = Reader { spec: &SPEC, value, defaulted: vec![] };
        let vocab_size = r.size("vocab_size", 100_000_000)?;
        let n_positions = r.size("n_positions", 1 << 20)?;
        let n_embd = r.size("n_embd", 1 << 18)?;
        let n_layer = r.size("n_layer", 10_000)?;
        let n_head = r.size("n_head", 1 << 16)?;
        if n_embd % n_head != 0 {
            return Err(ConfigError::field("n_embd", format!("{n_embd} does not split into {n_head} heads")));
        }
        let inner = match r.opt_u("n_inner")? {
            Some(n) => super::check_range(super::Limit { field: "n_inner", max: 1 << 22 }, n)?,
            None => {
                r.defaulted.push(Defaulted {
                    field: "n_inner",
                    value: format!("null: 4 x n_embd = {}", 4 * n_embd),
                });
                4 * n_embd
            }
        };
        let multi_query = r.flag("multi_query")?;
        let add_cross_attention = r.flag("add_cross_attention")?;
        if add_cross_attention && multi_query {
            // GPTBigCodeAttention raises NotImplementedError for this pair: no model to count.
            return Err(ConfigError::field(
                "add_cross_attention",
                "cross-attention with multi_query is not implemented by transformers' GPTBigCodeAttention",
            ));
        }
        let tie_word_embeddings = r.flag("tie_word_embeddings")?;
        let activation = r.string("activation_function")?;
        let layer_norm_epsilon = r.float("layer_norm_epsilon")?;
        let pad_token_id = r.opt_u("pad_token_id")?;
        let mut d = r.defaulted;
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(GptBigCodeConfig {
            class,
            head,
            vocab_size,
            n_positions,
            n_embd,
            n_layer,
            n_head,
            kv_heads: if multi_query { 1 } else { n_head },
            inner,
            activation,
            layer_norm_epsilon,
            tie_word_embeddings,
            add_cross_attention,
            pad_token_id,
            defaulted: d,
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.n_embd / self.n_head
    }
}
