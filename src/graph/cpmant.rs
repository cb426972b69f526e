//! CPM-Ant's graph, named as `CpmAntForCausalLM`'s modules: `cpmant.input_embedding` (tokens and
//! prompt rows), `cpmant.segment_embedding`, one `cpmant.position_bias` shared by every layer,
//! `cpmant.encoder.layers.{i}.self_att.*` and `.ffn.*`, `cpmant.encoder.output_layernorm` and an
//! untied `lm_head`. The bare `CpmAntModel` drops the `cpmant.`.

use super::blocks::{embedding, linear, rms_norm};
use super::common::no_candidates;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::Dims;
use crate::config::cpmant::CpmAntConfig;

pub fn build(c: &CpmAntConfig, seq: u64) -> Graph {
    let p = if c.causal_lm { "cpmant." } else { "" };
    let (h, inner) = (c.hidden_size, c.num_heads.saturating_mul(c.head_dim));
    let rows = c.vocab_size.saturating_add(c.prompt_rows);
    let bias_rows = c.segment_types.saturating_mul(c.segment_types).saturating_add(c.buckets);
    let at = format!("{p}position_bias");
    let embeddings = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(
            &format!("{p}input_embedding"),
            format!("{} tokens and {} prompt rows", c.vocab_size, c.prompt_rows),
            seq,
            rows,
            h,
        ),
        embedding(
            &format!("{p}segment_embedding"),
            format!("{} segment types", c.segment_types),
            seq,
            c.segment_types,
            h,
        ),
        Node::new(
            &at,
            Op::Embedding,
            "relative position bias per head: segment pairs and distance buckets, shared by all layers",
            &[c.num_heads, seq, seq],
        )
        .with([Tensor::new(format!("{at}.relative_attention_bias"), &[bias_rows, c.num_heads])]),
    ];
    let l = format!("{p}encoder.layers.{{i}}");
    let a = format!("{l}.self_att.self_attention");
    let f = format!("{l}.ffn.ffn");
    let layer = vec![
        rms_norm(
            &format!("{l}.self_att.layernorm_before_attention"),
            "RMS norm before attention",
            &[seq, h],
            h,
        ),
        linear(&format!("{a}.project_q"), "query projection", seq, h, inner, false),
        linear(&format!("{a}.project_k"), "key projection", seq, h, inner, false),
        linear(&format!("{a}.project_v"), "value projection", seq, h, inner, false),
        Node::new(
            &a,
            Op::Attention,
            format!("{} heads x {}, causal, plus the shared position bias", c.num_heads, c.head_dim),
            &[seq, inner],
        ),
        linear(&format!("{a}.attention_out"), "attention output projection", seq, inner, h, false),
        rms_norm(&format!("{l}.ffn.layernorm_before_ffn"), "RMS norm before the feed-forward", &[seq, h], h),
        linear(&format!("{f}.w_in.w_0"), "gate projection, then GELU", seq, h, c.ffn, false),
        linear(&format!("{f}.w_in.w_1"), "up projection", seq, h, c.ffn, false),
        linear(&format!("{f}.w_out"), "down projection", seq, c.ffn, h, false),
    ];
    let last = format!("{p}encoder.output_layernorm");
    let mut sections = vec![
        Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes: embeddings },
        Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes: layer },
        Section {
            name: last.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![rms_norm(&last, "final norm", &[seq, h], h)],
        },
    ];
    if c.causal_lm {
        let node = linear(
            "lm_head",
            "logits over the vocabulary (its own matrix, never tied)",
            seq,
            h,
            c.vocab_size,
            false,
        );
        sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes: vec![node] });
    }
    Graph { seq_len: seq, sections }
}

architecture!(
    CpmAntConfig,
    |_c| activations: vec![],
    prefixes: ["cpmant."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "position_bias_max_distance (relative positions: no fixed context)".into()
    }
);

impl CpmAntConfig {
    fn dims(&self) -> Dims {
        let d = Dims::mha(
            self.hidden_size,
            self.num_layers,
            self.num_heads,
            self.ffn,
            self.vocab_size,
            self.max_distance,
        );
        Dims { head_dim: self.head_dim, layer_norm_eps: 1e-6, ..d }
    }
}
