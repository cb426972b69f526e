//! Zamba2 (`zamba2`), with the defaults of transformers 5.24's `Zamba2Config` and its
//! `attribute_map` (`layer_types` -> `layers_block_type`, `head_dim` -> `attention_head_dim`).
//! Every layer holds a Mamba-2 mixer; the `hybrid` layers first run one of `num_mem_blocks`
//! shared transformer blocks (in turn), each with a LoRA-style adapter per use on its MLP's
//! `gate_up_proj` (and on q, k and v under `use_shared_attention_adapter`), then a per-layer
//! `linear`. `__post_init__` derives `attention_hidden_size` (2 x hidden), `attention_head_dim`
//! (2 x hidden / heads) and `hybrid_layer_ids`; a file's own values are set after it, so they win.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify};
use super::spec_hybrid::Mamba2Dims;
use super::{Common, ConfigError, Defaulted, aliased, deserialize_raw, flag, size};

/// `Zamba2Model`, `Zamba2ForCausalLM`, `Zamba2ForSequenceClassification`.
const CLASSES: Classes = Classes {
    prefix: "Zamba2",
    causal_lm: "ForCausalLM",
    token_classification: false,
    question_answering: false,
};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    use_long_context: Option<bool>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    layers_block_type: Option<Vec<String>>,
    layer_types: Option<Vec<String>>,
    hybrid_layer_ids: Option<Vec<u64>>,
    mamba_d_state: Option<u64>,
    mamba_d_conv: Option<u64>,
    mamba_expand: Option<u64>,
    mamba_ngroups: Option<u64>,
    n_mamba_heads: Option<u64>,
    add_bias_linear: Option<bool>,
    intermediate_size: Option<u64>,
    hidden_act: Option<String>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    attention_hidden_size: Option<u64>,
    attention_head_dim: Option<u64>,
    head_dim: Option<u64>,
    num_mem_blocks: Option<u64>,
    use_shared_attention_adapter: Option<bool>,
    adapter_rank: Option<u64>,
    rms_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Zamba2Config {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    /// The shared blocks' input: the hidden state and the embeddings side by side.
    pub attention_hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub context: u64,
    /// Per layer, whether it runs a shared block before its Mamba-2 mixer.
    pub hybrid: Vec<bool>,
    pub mem_blocks: u64,
    pub adapter_rank: u64,
    pub attention_adapters: bool,
    pub mamba: Mamba2Dims,
    /// `add_bias_linear`: biases on the MLP's projections and the mixer's.
    pub bias: bool,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl Zamba2Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 32000, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 2560, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 54, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 32, 1 << 14, &mut d)?;
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, num_heads, 1 << 14, &mut d)?;
        let attention_hidden_size =
            size("attention_hidden_size", raw.attention_hidden_size, 2 * hidden_size, 1 << 19, &mut d)?;
        let head_dim_field = if raw.head_dim.is_some() { "head_dim" } else { "attention_head_dim" };
        let head_dim = aliased(raw.attention_head_dim, raw.head_dim);
        let head_dim = size(head_dim_field, head_dim, 2 * hidden_size / num_heads, 1 << 16, &mut d)?;
        let intermediate_size =
            size("intermediate_size", raw.intermediate_size, 4 * hidden_size, 1 << 22, &mut d)?;
        let long = flag("use_long_context", raw.use_long_context, false, &mut d);
        let context = match long {
            // Zamba2Config.__post_init__ sets 16384 over the file's value.
            true => 16384,
            false => size("max_position_embeddings", raw.max_position_embeddings, 4096, 1 << 30, &mut d)?,
        };
        let hybrid: Vec<bool> = match aliased(raw.layers_block_type, raw.layer_types) {
            // Every type but `hybrid` builds a Mamba-2 layer alone (Zamba2Model.get_layers).
            Some(list) => list.iter().map(|t| t == "hybrid").collect(),
            None => default_layers(),
        };
        // PreTrainedConfig.validate_layer_type: one entry per layer (the default list has 54).
        if hybrid.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "layers_block_type",
                format!("{} entries for {num_layers} layers; Zamba2Config needs one per layer", hybrid.len()),
            ));
        }
        let ids: Vec<u64> = (0..num_layers).filter(|i| hybrid[*i as usize]).collect();
        if raw.hybrid_layer_ids.as_ref().is_some_and(|listed| *listed != ids) {
            // The adapters follow `hybrid_layer_ids`, the blocks `layers_block_type`: a file whose
            // two lists disagree builds adapters no layer reads.
            return Err(ConfigError::field(
                "hybrid_layer_ids",
                "not the hybrid layers layers_block_type lists",
            ));
        }
        let mem_blocks = size("num_mem_blocks", raw.num_mem_blocks, 1, 1 << 10, &mut d)?;
        let adapter_rank = size("adapter_rank", raw.adapter_rank, 128, 1 << 16, &mut d)?;
        let expand = size("mamba_expand", raw.mamba_expand, 2, 64, &mut d)?;
        let heads = size("n_mamba_heads", raw.n_mamba_heads, 8, 1 << 14, &mut d)?;
        let inner = expand * hidden_size;
        if inner % heads != 0 {
            return Err(ConfigError::field(
                "n_mamba_heads",
                format!("{heads} heads do not divide the mixer's {inner} channels"),
            ));
        }
        let bias = flag("add_bias_linear", raw.add_bias_linear, false, &mut d);
        let mamba = Mamba2Dims {
            heads,
            head_dim: inner / heads,
            groups: size("mamba_ngroups", raw.mamba_ngroups, 1, 1 << 10, &mut d)?,
            state: size("mamba_d_state", raw.mamba_d_state, 64, 1 << 14, &mut d)?,
            conv_kernel: size("mamba_d_conv", raw.mamba_d_conv, 4, 1024, &mut d)?,
            inner,
            // Zamba2MambaMixer's conv1d always has a bias, whatever `use_conv_bias` says.
            conv_bias: true,
            proj_bias: bias,
            out_bias: bias,
            gated_norm: true,
        };
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        let pad_token_id = match raw.pad_token_id {
            Some(p) => Some(p),
            None if value.get("pad_token_id").is_some() => None,
            None => Some(0),
        };
        Ok(Zamba2Config {
            class,
            head,
            vocab_size,
            hidden_size,
            attention_hidden_size,
            intermediate_size,
            num_heads,
            num_kv_heads,
            head_dim,
            context,
            hybrid,
            mem_blocks,
            adapter_rank,
            attention_adapters: flag(
                "use_shared_attention_adapter",
                raw.use_shared_attention_adapter,
                false,
                &mut d,
            ),
            mamba,
            bias,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-5),
            pad_token_id,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            hidden_size: self.hidden_size,
            num_layers: self.hybrid.len() as u64,
            num_heads: self.num_heads,
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            intermediate_size: self.intermediate_size,
            vocab_size: self.vocab_size,
            context: self.context,
            usable_context: self.context,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: None,
            experts_per_token: None,
        }
    }
}

/// Zamba2Config's list (54 entries): one Mamba layer, seven runs of five Mamba layers and a hybrid
/// one, four Mamba, a hybrid, three Mamba, a hybrid, two Mamba.
fn default_layers() -> Vec<bool> {
    let run = |mamba: usize, hybrid: bool| std::iter::repeat_n(false, mamba).chain(hybrid.then_some(true));
    let mut list: Vec<bool> = run(1, false).collect();
    (0..7).for_each(|_| list.extend(run(5, true)));
    list.extend(run(4, true).chain(run(3, true)).chain(run(2, false)));
    list
}
