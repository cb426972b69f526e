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

/// xLSTM's block (modeling_xlstm.py, `weight_mode` "single", no biases): norm_mlstm (h); q and k
/// (h x qk each), v and ogate_preact (h x v each), igate_preact and fgate_preact (h x heads, with
/// their biases); multihead_norm (v); out_proj (v x h); norm_ffn (h); proj_up_gate and proj_up
/// (h x f each), proj_down (f x h).
fn xlstm_block(h: u64, heads: u64, qk: u64, v: u64, f: u64) -> u64 {
    let mlstm = 2 * h * qk + 2 * h * v + 2 * (h * heads + heads) + v + v * h;
    h + mlstm + h + 3 * h * f
}

#[test]
fn xlstm_counts_mlstm_blocks_with_their_widths_from_the_factors_and_an_untied_head() {
    let (vocab, h, heads, blocks) = (500, 64, 4, 3);
    // qk_dim_factor 0.5, v_dim_factor 1: q/k 32 wide, v 64; ffn_proj_factor 2.667: 170.69
    // rounded up to a multiple of 64 is 192.
    let (qk, v, f) = (32, 64, 192);
    // xLSTMForCausalLM declares no tied weights: its lm_head is its own even when the flag ties.
    let expected = vocab * h + blocks * xlstm_block(h, heads, qk, v, f) + h + h * vocab;
    let config = json!({"model_type": "xlstm", "architectures": ["xLSTMForCausalLM"],
        "vocab_size": vocab, "hidden_size": h, "num_blocks": blocks, "num_heads": heads,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), expected);
}

#[test]
fn xlstm_serves_each_heads_matrix_memory_instead_of_a_kv_cache() {
    let (h, heads, blocks) = (64, 4, 3);
    let config = json!({"model_type": "xlstm", "architectures": ["xLSTMForCausalLM"],
        "vocab_size": 500, "hidden_size": h, "num_hidden_layers": blocks, "num_heads": heads});
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 0);
    // xLSTMCache per block sizes heads by xLSTMConfig.qk_head_dim and v_head_dim, whose widths
    // round up to a multiple of 64 (unlike the layer's): q/k 32 -> 64, v 64; 16 each per head.
    // C [heads, 16, 16], n [heads, 16], m [heads, 1].
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!(state.layers * (state.conv_values + state.ssm_values), blocks * heads * (16 * 16 + 16 + 1));
}

/// RecurrentGemma's recurrent temporal block (modeling_recurrent_gemma.py): linear_y and
/// linear_x (h x lru + lru each), conv_1d (lru x k + lru), the RG-LRU's recurrent_param (lru)
/// and two block-diagonal gates (heads x (lru/heads)² weights, heads x lru/heads biases each),
/// linear_out (lru x h + h).
fn rg_lru_block(h: u64, lru: u64, heads: u64, k: u64) -> u64 {
    let b = lru / heads;
    2 * (h * lru + lru) + (lru * k + lru) + lru + 2 * (heads * b * b + heads * b) + (lru * h + h)
}

/// Its attention block: q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h + h), no
/// q/k/v biases by default.
fn rg_attention(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h * heads * hd + 2 * h * kv * hd + h
}

/// Two norms and the gated MLP with biases at half `intermediate_size`.
fn rg_rest(h: u64, inter: u64) -> u64 {
    let f = inter / 2;
    2 * h + 3 * h * f + 2 * f + h
}

#[test]
fn recurrent_gemma_cycles_two_recurrent_blocks_and_one_local_attention_with_a_tied_head() {
    let (v, h, inter, heads, kv) = (500, 64, 192, 4, 1);
    // Five layers of the default ("recurrent", "recurrent", "attention") cycle: R R A R R.
    let expected = v * h
        + 4 * (rg_lru_block(h, h, heads, 4) + rg_rest(h, inter))
        + (rg_attention(h, heads, kv, h / heads) + rg_rest(h, inter))
        + h;
    let config = json!({"model_type": "recurrent_gemma", "architectures": ["RecurrentGemmaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": inter, "num_hidden_layers": 5,
        "num_attention_heads": heads, "num_key_value_heads": kv, "attention_window_size": 32});
    let plan = plan_text(&config.to_string()).unwrap();
    assert_eq!(plan.params.as_ref().unwrap().derived, expected);
    // Serving: the attention layer caches 2 x 1 x 16 values per token up to its window; the
    // four recurrent layers keep 64 x 3 conv values and 64 RG-LRU values per sequence.
    let layout = &plan.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    let g = &layout.groups[0];
    assert_eq!((g.layers, g.values_per_token, g.window), (1, 32, Some(32)));
    let state = layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (4, 64 * 3, 64));
}

#[test]
fn recurrent_gemma_reads_its_lru_width_and_block_types_and_unties_on_request() {
    let (v, h, inter, heads, lru) = (300, 48, 100, 4, 64);
    // block_types (recurrent, attention) over five layers: R A R A R; kv heads default to heads.
    let expected = v * h
        + 3 * (rg_lru_block(h, lru, heads, 3) + rg_rest(h, inter))
        + 2 * (rg_attention(h, heads, heads, h / heads) + rg_rest(h, inter))
        + h
        + v * h;
    let config = json!({"model_type": "recurrent_gemma", "architectures": ["RecurrentGemmaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": inter, "num_hidden_layers": 5,
        "num_attention_heads": heads, "lru_width": lru, "conv1d_width": 3,
        "block_types": ["recurrent", "attention"], "tie_word_embeddings": false});
    assert_eq!(derived(config), expected);
}

#[test]
fn lfm3_counts_short_convolutions_gated_attention_and_sandwich_norms() {
    let (v, h, f, heads, kv, hd) = (500, 64, 96, 4, 2, 16);
    // Per layer: four RMSNorms (operator, ffn, post-operator, post-ffn) and w1, w3, w2 (3 h f).
    let rest = 4 * h + 3 * h * f;
    // Conv layer: in_proj (h x 3h), conv (h x 3 kernel), out_proj (h x h), no biases.
    let conv = 3 * h * h + h * 3 + h * h;
    // Attention: q, o (h x heads*hd), k, v (h x kv*hd), q/k norms (hd each), g_proj (h x heads).
    let attn = 2 * h * heads * hd + 2 * h * kv * hd + 2 * hd + h * heads;
    // Default layer_types over six layers: conv conv full conv sliding conv.
    let expected = v * h + 4 * (conv + rest) + 2 * (attn + rest) + h;
    let config = json!({"model_type": "lfm3", "architectures": ["Lfm3ForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 6, "num_attention_heads": heads,
        "num_key_value_heads": kv, "head_dim": hd, "conv_L_cache": 3, "pad_token_id": 0});
    assert_eq!(derived(config), expected);
}
