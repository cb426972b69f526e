//! Recurrent and hybrid types (`config/spec_recur.rs`): each count written out by hand from
//! transformers 5.24's modeling file (embeddings + layers x (mixer + MLP + norms) + final norm +
//! head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// RWKV-4's block (modeling_rwkv.py): ln1 and ln2 (weight and bias, 2h each); time mixing's
/// three `time_mix` vectors (h each), key, value and receptance (h x a each), `time_decay` and
/// `time_first` (a each), output (a x h); channel mixing's two `time_mix` vectors, key (h x f),
/// receptance (h x h), value (f x h).
fn rwkv_block(h: u64, a: u64, f: u64) -> u64 {
    let norms = 2 * 2 * h;
    let time_mixing = 3 * h + 3 * h * a + 2 * a + a * h;
    let channel_mixing = 2 * h + h * f + h * h + f * h;
    norms + time_mixing + channel_mixing
}

#[test]
fn rwkv_counts_time_and_channel_mixing_the_first_blocks_pre_ln_and_an_untied_head() {
    let (v, h, layers) = (50277, 2560, 32);
    // attention_hidden_size and intermediate_size None: hidden and 4 x hidden.
    let per_block = rwkv_block(h, h, 4 * h);
    let expected = v * h + 2 * h + layers * per_block + 2 * h + v * h;
    let config = json!({"model_type": "rwkv", "architectures": ["RwkvForCausalLM"], "vocab_size": v,
        "hidden_size": h, "num_hidden_layers": layers, "context_length": 1024});
    assert_eq!(derived(config), expected);
}

#[test]
fn rwkv_reads_its_own_attention_and_mlp_widths_and_the_bare_model_has_no_head() {
    let (v, h, a, f, layers) = (300, 48, 32, 80, 2);
    let expected = v * h + 2 * h + layers * rwkv_block(h, a, f) + 2 * h;
    let config = json!({"model_type": "rwkv", "architectures": ["RwkvModel"], "vocab_size": v,
        "hidden_size": h, "num_hidden_layers": layers, "attention_hidden_size": a,
        "intermediate_size": f});
    assert_eq!(derived(config), expected);
}

#[test]
fn rwkv_serves_five_hidden_vectors_per_block_instead_of_a_kv_cache() {
    let (h, layers) = (64, 3);
    let config = json!({"model_type": "rwkv", "architectures": ["RwkvForCausalLM"], "vocab_size": 500,
        "hidden_size": h, "num_hidden_layers": layers});
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 0);
    // RwkvModel.forward's state: five [batch, hidden, layers] tensors.
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!(state.layers * (state.conv_values + state.ssm_values), 5 * h * layers);
}
