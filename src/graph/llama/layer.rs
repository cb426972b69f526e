//! One decoder layer of the lineage: its norms where the type places them, grouped or latent
//! attention, and a gated or plain MLP or a mixture of experts.

use super::super::Node;
use super::super::blocks::{Gqa, gated_mlp, gqa, linear};
use super::super::mixers::mla;
use super::{hidden_norm, norm_word};
use crate::config::llama::{Attention, DecoderConfig, MlpKind, Moe, MoeStyle, Norms};
use crate::config::spec_mixers::LatentDims;

fn attention_nodes(c: &DecoderConfig, l: &str, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let a = format!("{l}.self_attn");
    match c.attention {
        Attention::Grouped { num_heads, num_kv_heads, head_dim, qkv_bias, o_bias, qk_norm, fused_qkv } => {
            let window = c.sliding_window.map(|w| format!(", window {w}")).unwrap_or_default();
            gqa(&Gqa {
                a: &a,
                seq,
                hidden: h,
                heads: num_heads,
                kv_heads: num_kv_heads,
                head_dim,
                qkv_bias,
                o_bias,
                fused_qkv,
                qk_norm,
                norm_word: norm_word(c),
                what: format!("causal, rotary{window}"),
            })
        }
        Attention::Latent {
            num_heads,
            q_lora_rank,
            kv_lora_rank,
            qk_nope_head_dim,
            qk_rope_head_dim,
            v_head_dim,
            bias,
        } => {
            let d = LatentDims {
                q_lora_rank,
                kv_lora_rank,
                qk_nope_head_dim,
                qk_rope_head_dim,
                v_head_dim,
                index_heads: 0,
                index_head_dim: 0,
            };
            mla(&a, seq, h, num_heads, &d, bias, false)
        }
    }
}

fn mlp(c: &DecoderConfig, prefix: &str, seq: u64, ffn: u64, bias: bool) -> Vec<Node> {
    let h = c.hidden_size;
    match c.desc.mlp {
        MlpKind::Gated => gated_mlp(prefix, seq, h, ffn, &c.hidden_act, bias, c.fused_gate_up),
        MlpKind::Plain { up, down } => vec![
            linear(
                &format!("{prefix}.{up}"),
                &format!("up projection, then {}", c.hidden_act),
                seq,
                h,
                ffn,
                bias,
            ),
            linear(&format!("{prefix}.{down}"), "down projection", seq, ffn, h, bias),
        ],
    }
}

fn moe_nodes(c: &DecoderConfig, m: &Moe, l: &str, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let n = m.num_experts;
    // An unset top-k routes nowhere definite; every expert is then counted as active.
    let k = m.experts_per_token.unwrap_or(n);
    let f = m.expert_intermediate_size;
    let route = format!(
        "router over {n} experts, top {}",
        m.experts_per_token.map_or("unset".to_string(), |k| k.to_string())
    );
    let mut nodes = vec![];
    match m.style {
        MoeStyle::Mixtral => {
            let b = format!("{l}.block_sparse_moe");
            let e = format!("{b}.experts.{{e}}");
            nodes.push(linear(&format!("{b}.gate"), &route, seq, h, n, false));
            nodes.push(linear(&format!("{e}.w1"), "expert gate projection", seq, h, f, false).experts(n, k));
            nodes.push(linear(&format!("{e}.w3"), "expert up projection", seq, h, f, false).experts(n, k));
            nodes.push(linear(&format!("{e}.w2"), "expert down projection", seq, f, h, false).experts(n, k));
        }
        MoeStyle::Qwen | MoeStyle::Deepseek => {
            let b = format!("{l}.mlp");
            let mut gate = linear(&format!("{b}.gate"), &route, seq, h, n, false);
            if m.style == MoeStyle::Deepseek && m.score_correction_bias {
                gate.detail.push_str(", with a score-correction bias buffer");
            }
            nodes.push(gate);
            let bias = c.mlp_bias && m.style == MoeStyle::Deepseek;
            for node in mlp(c, &format!("{b}.experts.{{e}}"), seq, f, bias) {
                nodes.push(node.experts(n, k));
            }
            if let Some(s) = m.shared_intermediate_size {
                let name = if m.style == MoeStyle::Qwen { "shared_expert" } else { "shared_experts" };
                nodes.extend(mlp(c, &format!("{b}.{name}"), seq, s, bias));
            }
            if m.shared_expert_gate {
                nodes.push(linear(
                    &format!("{b}.shared_expert_gate"),
                    "sigmoid gate on the shared expert",
                    seq,
                    h,
                    1,
                    false,
                ));
            }
        }
    }
    nodes
}

pub(super) fn layer_nodes(c: &DecoderConfig, l: &str, sparse: bool, seq: u64) -> Vec<Node> {
    let norm = |name: &str, what: &str| hidden_norm(c, &format!("{l}.{name}"), what, seq);
    let mut nodes = vec![];
    if c.norms != Norms::Post {
        nodes.push(norm("input_layernorm", "before attention"));
    }
    nodes.extend(attention_nodes(c, l, seq));
    match c.norms {
        Norms::Pre => nodes.push(norm("post_attention_layernorm", "residual add, then norm before the MLP")),
        Norms::Sandwich => {
            nodes.push(norm("post_attention_layernorm", "after attention"));
            nodes.push(norm("pre_feedforward_layernorm", "before the MLP"));
        }
        Norms::Post => {
            nodes.push(norm("post_attention_layernorm", "after attention, before the residual add"))
        }
    }
    match (&c.moe, sparse) {
        (Some(m), true) => nodes.extend(moe_nodes(c, m, l, seq)),
        _ => nodes.extend(mlp(c, &format!("{l}.mlp"), seq, c.intermediate_size, c.mlp_bias)),
    }
    match c.norms {
        Norms::Pre => {}
        Norms::Sandwich => nodes.push(norm("post_feedforward_layernorm", "after the MLP")),
        Norms::Post => {
            nodes.push(norm("post_feedforward_layernorm", "after the MLP, before the residual add"))
        }
    }
    nodes
}
