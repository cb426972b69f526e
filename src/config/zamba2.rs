//! Zamba2 (`zamba2`), with the defaults of transformers 5.24's `Zamba2Config`; the keys it shares
//! with Zamba are read in `config/zamba_core.rs`.
//! Every layer holds a Mamba-2 mixer; the `hybrid` layers first run one of `num_mem_blocks`
//! shared transformer blocks (in turn), each with a LoRA-style adapter per use on its MLP's
//! `gate_up_proj` (and on q, k and v under `use_shared_attention_adapter`), then a per-layer
//! `linear`. `__post_init__` derives `attention_hidden_size` (2 x hidden), `attention_head_dim`
//! (2 x hidden / heads) and `hybrid_layer_ids`; a file's own values are set after it, so they win.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::Classes;
use super::spec_hybrid::Mamba2Dims;
use super::zamba_core::{Defaults, ZambaCore};
use super::{Common, ConfigError, Defaulted, deserialize_raw, flag, size};

/// Zamba2Config's defaults; `Zamba2Model`, `Zamba2ForCausalLM`, `Zamba2ForSequenceClassification`.
const DEFAULTS: Defaults = Defaults {
    class: "Zamba2Config",
    classes: Classes {
        prefix: "Zamba2",
        causal_lm: "ForCausalLM",
        token_classification: false,
        question_answering: false,
    },
    hidden: 2560,
    intermediate: None,
    layers: 54,
    heads: 32,
    kv_heads: None,
};

#[derive(Debug, Deserialize)]
struct Raw {
    use_long_context: Option<bool>,
    hybrid_layer_ids: Option<Vec<u64>>,
    mamba_d_state: Option<u64>,
    mamba_d_conv: Option<u64>,
    mamba_expand: Option<u64>,
    mamba_ngroups: Option<u64>,
    n_mamba_heads: Option<u64>,
    add_bias_linear: Option<bool>,
    num_mem_blocks: Option<u64>,
    use_shared_attention_adapter: Option<bool>,
    adapter_rank: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Zamba2Config {
    pub class: String,
    #[serde(flatten)]
    pub core: ZambaCore,
    pub mem_blocks: u64,
    pub adapter_rank: u64,
    pub attention_adapters: bool,
    pub mamba: Mamba2Dims,
    /// `add_bias_linear`: biases on the MLP's projections and the mixer's.
    pub bias: bool,
    pub defaulted: Vec<Defaulted>,
}

impl Zamba2Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let (class, mut core) =
            ZambaCore::read(value, common, &DEFAULTS, &|_, _| Ok(default_layers()), &mut d)?;
        if flag("use_long_context", raw.use_long_context, false, &mut d) {
            // Zamba2Config.__post_init__ sets 16384 over the file's value.
            core.context = 16384;
        }
        let ids: Vec<u64> = (0..core.hybrid.len() as u64).filter(|i| core.hybrid[*i as usize]).collect();
        if raw.hybrid_layer_ids.as_ref().is_some_and(|listed| *listed != ids) {
            // The adapters follow `hybrid_layer_ids`, the blocks `layers_block_type`: a file whose
            // two lists disagree builds adapters no layer reads.
            return Err(ConfigError::field(
                "hybrid_layer_ids",
                "not the hybrid layers layers_block_type lists",
            ));
        }
        let mem_blocks = size("num_mem_blocks", raw.num_mem_blocks, 1, 1 << 10, &mut d)?;
        // Each use's block lists the adapters of every use of its turn: uses x uses / blocks in
        // all, which a file of thousands of hybrid layers would make too many to plan.
        let slots = core.uses() * core.uses().div_ceil(mem_blocks);
        if slots > 1 << 14 {
            return Err(ConfigError::field(
                "layers_block_type",
                format!(
                    "{} hybrid layers over {mem_blocks} blocks store {slots} adapters; at most 16384 are planned",
                    core.uses()
                ),
            ));
        }
        let adapter_rank = size("adapter_rank", raw.adapter_rank, 128, 1 << 16, &mut d)?;
        let expand = size("mamba_expand", raw.mamba_expand, 2, 64, &mut d)?;
        let heads = size("n_mamba_heads", raw.n_mamba_heads, 8, 1 << 14, &mut d)?;
        let inner = expand * core.hidden_size;
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
        let attention_adapters =
            flag("use_shared_attention_adapter", raw.use_shared_attention_adapter, false, &mut d);
        Ok(Zamba2Config {
            class,
            core,
            mem_blocks,
            adapter_rank,
            attention_adapters,
            mamba,
            bias,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.core.dims()
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
