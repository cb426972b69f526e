//! RecurrentGemma's graph, named as transformers' `RecurrentGemmaModel` under `model.`:
//! `embed_tokens`, per layer `temporal_pre_norm`, a temporal block (the RG-LRU recurrent block:
//! `linear_y`, `linear_x`, the depthwise `conv_1d`, `rg_lru` with its per-head gate weights,
//! `linear_out`; or local attention: `q_proj`, `k_proj`, `v_proj`, `o_proj` with a bias),
//! `channel_pre_norm` and the gated MLP with biases (`mlp_block`), `final_norm`; the causal-LM
//! head is tied unless the config says otherwise. Serving keeps a KV cache of the window for the
//! attention layers and a fixed state for the recurrent ones.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::common::{alone, lm_head, no_candidates};
use super::kv::{KvGroup, KvLayout, RecurrentState};
use super::mixers::depthwise_conv;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::spec_recur_gemma::RecurrentGemmaConfig;

architecture!(
    RecurrentGemmaConfig,
    |c| activations: vec![("hidden_activation", c.hidden_activation.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        let attention = self.attention_layers.iter().filter(|a| **a).count() as u64;
        let (kv, hd) = (self.num_kv_heads, self.head_dim);
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: attention,
                values_per_token: 2 * kv * hd,
                window: Some(self.attention_window_size),
                what: format!("2 x {kv} KV heads x {hd} head_dim, local attention over {} tokens", self.attention_window_size),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: Some(state(self, self.num_layers - attention)),
        })
    }
    fn context_source(&self) -> String {
        "a recurrent state and a local attention window, which set no length limit: the plan's default length".into()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![RG_LRU_NOTE.into()]
    }
);

const RG_LRU_NOTE: &str = "Not modelled: the tensors the RG-LRU's scan saves for its backward pass. The training figures count the linears, convolution, gates and norms around it, so they are a floor for the recurrent blocks.";

/// `RecurrentGemmaRecurrentBlock._setup_cache`: per recurrent layer and sequence, the
/// convolution's last `conv1d_width - 1` inputs over `hidden_size` channels (as transformers
/// allocates them) and the RG-LRU's state of `lru_width` (float32 in transformers).
pub fn state(c: &RecurrentGemmaConfig, layers: u64) -> RecurrentState {
    let (h, w, lru) = (c.hidden_size, c.conv1d_width.saturating_sub(1), c.lru_width);
    RecurrentState {
        layers,
        conv_values: h * w,
        ssm_values: lru,
        what: format!(
            "conv: {h} channels x {w}; RG-LRU: {lru} (float32 in transformers, counted here at the cache's width)"
        ),
    }
}

pub fn build(c: &RecurrentGemmaConfig, seq: u64) -> Graph {
    let (h, lru, heads) = (c.hidden_size, c.lru_width, c.num_heads);
    let block = lru / heads;
    let mut sections = vec![token_embeddings("model.embed_tokens", seq, c.vocab_size, h)];
    for (i, attention) in c.attention_layers.iter().enumerate() {
        let l = format!("model.layers.{i}");
        let t = format!("{l}.temporal_block");
        let mut nodes = vec![rms_norm(
            &format!("{l}.temporal_pre_norm"),
            "RMSNorm (1 + w) before the temporal block",
            &[seq, h],
            h,
        )];
        if *attention {
            nodes.extend(gqa(&Gqa {
                a: &t,
                seq,
                hidden: h,
                heads,
                kv_heads: c.num_kv_heads,
                head_dim: c.head_dim,
                qkv_bias: c.attention_bias,
                o_bias: true,
                fused_qkv: false,
                qk_norm: QkNorm::None,
                norm_word: "RMSNorm",
                what: format!("causal, half-rotary, local window {}", c.attention_window_size),
            }));
        } else {
            let g = format!("{t}.rg_lru");
            nodes.push(linear(&format!("{t}.linear_y"), "gate branch", seq, h, lru, true));
            nodes.push(linear(&format!("{t}.linear_x"), "recurrent branch", seq, h, lru, true));
            nodes.push(depthwise_conv(
                &format!("{t}.conv_1d"),
                "depthwise causal convolution",
                seq,
                lru,
                c.conv1d_width,
                true,
            ));
            nodes.push(
                Node::new(
                    g.clone(),
                    Op::Scan,
                    format!("RG-LRU: {heads} heads of {block}, block-diagonal gates"),
                    &[seq, lru],
                )
                .with([
                    Tensor::new(format!("{g}.recurrent_param"), &[lru]),
                    Tensor::new(format!("{g}.input_gate_weight"), &[heads, block, block]),
                    Tensor::new(format!("{g}.input_gate_bias"), &[heads, block]),
                    Tensor::new(format!("{g}.recurrent_gate_weight"), &[heads, block, block]),
                    Tensor::new(format!("{g}.recurrent_gate_bias"), &[heads, block]),
                ]),
            );
            nodes.push(linear(&format!("{t}.linear_out"), "recurrent block output", seq, lru, h, true));
        }
        nodes.push(Node::new(format!("{l}.temporal_residual"), Op::Add, "residual add", &[seq, h]));
        nodes.push(rms_norm(
            &format!("{l}.channel_pre_norm"),
            "RMSNorm (1 + w) before the MLP",
            &[seq, h],
            h,
        ));
        nodes.extend(gated_mlp(
            &format!("{l}.mlp_block"),
            seq,
            h,
            c.mlp_width,
            &c.hidden_activation,
            true,
            false,
        ));
        nodes.push(Node::new(format!("{l}.residual"), Op::Add, "residual add", &[seq, h]));
        sections.push(Section { name: l, role: Role::Layers, repeat: 1, nodes });
    }
    sections.push(alone(rms_norm("model.final_norm", "final RMSNorm (1 + w)", &[seq, h], h), Role::Layers));
    if c.causal_lm {
        let (what, tie) = ("logits over the vocabulary, soft-capped", c.tie_word_embeddings);
        let head = lm_head("lm_head", what, [seq, h, c.vocab_size], tie, "model.embed_tokens.weight");
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
