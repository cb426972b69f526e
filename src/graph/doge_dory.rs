//! Doge's graph (and the frame Dory's shares), named as transformers' `DogeModel` under `model.`:
//! `embed_tokens`, per layer `input_layernorm`, attention (`q_proj`, `k_proj`, `v_proj`, the
//! per-head `q_norm` and `k_norm`, the dynamic mask's `A` and `dt_proj`, `o_proj`), the learned
//! `input_residual`, `post_attention_layernorm`, the MLP (with `is_moe` the cross-domain mixture:
//! the gated MLP, `router_gate`, `down_embed`, `up_embed`) and `post_attention_residual`; then
//! `norm` and the class's head.

use super::blocks::{
    Gqa, HeadNames, embedding, gated_mlp, gqa, head_section, linear, rms_norm, token_embeddings,
};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::decoder::DecoderHead;
use crate::config::doge_dory::DogeConfig;

architecture!(
    DogeConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(uniform_kv(self.num_layers, self.num_kv_heads, self.head_dim, self.sliding_window))
    }
);

fn no_candidates(_: &DogeConfig) -> Vec<Candidate> {
    vec![]
}

/// Every layer caching its keys and values, within a window where the config sets one.
pub(crate) fn uniform_kv(layers: u64, kv: u64, hd: u64, window: Option<u64>) -> KvLayout {
    let within = window.map_or(String::new(), |w| format!(", within a window of {w}"));
    KvLayout {
        groups: vec![KvGroup {
            layers,
            values_per_token: 2 * kv * hd,
            window,
            what: format!("2 x {kv} KV heads x {hd} head_dim{within}"),
        }],
        cross: None,
        cross_fixed_len: None,
        recurrent: None,
    }
}

/// The sizes a decoder's frame needs: embeddings, the repeated layer, the final norm, the head.
pub(crate) struct Frame<'a> {
    pub head: DecoderHead,
    pub vocab: u64,
    pub hidden: u64,
    pub layers: u64,
    pub tie: bool,
    /// The final norm's node, given its name.
    pub norm: &'a dyn Fn(&str) -> Node,
}

/// `model.embed_tokens`, `layer` repeated over `model.layers.{i}`, `model.norm`, the class's head
/// (`lm_head`, tied where the config says, or a `score` without bias).
pub(crate) fn frame(f: &Frame, seq: u64, layer: Vec<Node>) -> Graph {
    let p = if f.head == DecoderHead::Model { "" } else { "model." };
    let embed = format!("{p}embed_tokens");
    let tied = format!("{embed}.weight");
    let norm = format!("{p}norm");
    let mut sections = vec![token_embeddings(&embed, seq, f.vocab, f.hidden)];
    sections.push(Section { name: format!("{p}layers.{{i}}"), role: Role::Layers, repeat: f.layers, nodes: layer });
    sections.push(Section { name: norm.clone(), role: Role::Layers, repeat: 1, nodes: vec![(f.norm)(&norm)] });
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: false,
        lm_note: String::new(),
        token: "score",
        score_rows: None,
        tied_to: f.tie.then_some(&tied),
    };
    sections.extend(head_section(f.head, &names, seq, f.hidden, f.vocab));
    Graph { seq_len: seq, sections }
}

/// A bare learned vector on a node (Doge's residual scales, Dory's per-channel scales).
pub(crate) fn scale(name: &str, detail: &str, seq: u64, width: u64) -> Node {
    Node::new(name, Op::Add, detail, &[seq, width]).with([Tensor::new(name, &[width])])
}

pub fn build(c: &DogeConfig, seq: u64) -> Graph {
    let p = if c.head == DecoderHead::Model { "" } else { "model." };
    let l = format!("{p}layers.{{i}}");
    let (h, a) = (c.hidden_size, format!("{p}layers.{{i}}.self_attn"));
    let (kv, hd, bias) = (c.num_kv_heads, c.head_dim, c.attention_bias);
    let mut nodes = vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h)];
    let mut attn = gqa(&Gqa {
        a: &a,
        seq,
        hidden: h,
        heads: c.num_heads,
        kv_heads: kv,
        head_dim: hd,
        qkv_bias: bias,
        o_bias: bias,
        fused_qkv: false,
        qk_norm: QkNorm::PerHead,
        norm_word: "RMSNorm",
        what: "causal, rotary, a dynamic mask from the values".into(),
    });
    // The dynamic mask: one logit per key/value head from the values, scaled by exp(A).
    let mut dt = linear(&format!("{a}.dt_proj"), "dynamic mask logits per key/value head", seq, kv * hd, kv, bias);
    dt.params.push(Tensor::new(format!("{a}.A"), &[kv]));
    let at = attn.len().saturating_sub(2);
    attn.insert(at, dt);
    nodes.extend(attn);
    nodes.push(scale(&format!("{l}.input_residual"), "learned residual scale after attention", seq, h));
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    let m = format!("{l}.mlp");
    let ffn = c.intermediate_size;
    nodes.extend(gated_mlp(&m, seq, h, ffn, &c.hidden_act, c.mlp_bias, false));
    if let Some((n, k)) = c.experts {
        let keys = n.isqrt();
        nodes.push(linear(&format!("{m}.router_gate"), "product-key router, two sets of keys", seq, h, 2 * keys, false));
        nodes.push(embedding(&format!("{m}.down_embed"), format!("{n} experts' input rows, {k} per token"), seq, n, h));
        nodes.push(embedding(&format!("{m}.up_embed"), format!("{n} experts' output rows, {k} per token"), seq, n, h));
    }
    nodes.push(scale(&format!("{l}.post_attention_residual"), "learned residual scale after the MLP", seq, h));
    let norm = |n: &str| rms_norm(n, "final RMSNorm", &[seq, h], h);
    let f = Frame { head: c.head, vocab: c.vocab_size, hidden: h, layers: c.num_layers, tie: c.tie_word_embeddings, norm: &norm };
    frame(&f, seq, nodes)
}

mod dory {
    //! Dory's graph, named as transformers' `DoryModel` under `model.`: `embed_tokens`, per layer
    //! attention (`q_proj`, `k_proj`, `v_proj`, `gate_proj`, `o_proj`, the scales `sqk` and
    //! `s_gate`), the MLP (`gate_proj`, `up_proj`, `down_proj`, the scales `suv_gate` and
    //! `suv_up`) and the step sizes `lambda_1` and `lambda_2`; every norm an L2 normalisation
    //! without parameters; `lm_head` with its `logit_scale`.

    use super::super::blocks::{gated_mlp, linear};
    use super::super::kv::{KvGroup, KvLayout};
    use super::super::{Candidate, Graph, Node, Op, Tensor};
    use super::{Frame, frame, scale};
    use crate::config::decoder::DecoderHead;
    use crate::config::doge_dory::DoryConfig;

    architecture!(
        DoryConfig,
        |c| activations: vec![("hidden_act", c.hidden_act.clone())],
        prefixes: ["model."],
        candidates: no_candidates,
        unscaled_residual_init: false;
        fn kv_layout(&self) -> Option<KvLayout> {
            Some(kv_layout(self))
        }
        fn training_notes(&self) -> Vec<String> {
            vec![format!(
                "Not modelled: the looped layers' further runs. Layers {} to {} run {} times each, and the training figures count their activations once, so they are a floor.",
                self.recurrent.0,
                self.recurrent.0 + self.recurrent.1,
                self.loops
            )]
        }
    );

    fn no_candidates(_: &DoryConfig) -> Vec<Candidate> {
        vec![]
    }

    /// Each layer's cache, by window; with "per_loop" each further loop caches the looped layers
    /// again (`DoryModel.forward` appends copies of their cache layers).
    fn kv_layout(c: &DoryConfig) -> KvLayout {
        let (start, looped) = (c.recurrent.0 as usize, c.recurrent.1 as usize);
        let extra = if c.cache_per_loop { c.loops - 1 } else { 0 };
        let vpt = 2 * c.num_kv_heads * c.head_dim;
        let mut groups: Vec<KvGroup> = vec![];
        for (i, s) in c.sliding.iter().enumerate() {
            let copies = if (start..start + looped).contains(&i) { 1 + extra } else { 1 };
            let w = s.then_some(c.sliding_window);
            match groups.iter_mut().find(|g| g.window == w) {
                Some(g) => g.layers += copies,
                None => {
                    let kind = if *s { "sliding" } else { "full" };
                    let what = format!(
                        "{kind} layers: 2 x {} KV heads x {} head_dim; the looped layers once per loop where the cache is per_loop",
                        c.num_kv_heads, c.head_dim
                    );
                    groups.push(KvGroup { layers: copies, values_per_token: vpt, window: w, what });
                }
            }
        }
        KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None }
    }

    fn l2(name: &str, what: &str, seq: u64, width: u64) -> Node {
        Node::new(name, Op::LayerNorm, format!("L2 normalisation, no parameters, {what}"), &[seq, width])
    }

    pub fn build(c: &DoryConfig, seq: u64) -> Graph {
        let p = if c.head == DecoderHead::Model { "" } else { "model." };
        let l = format!("{p}layers.{{i}}");
        let (h, a, m) = (c.hidden_size, format!("{l}.self_attn"), format!("{l}.mlp"));
        let (q, kv, bias) = (c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim, c.attention_bias);
        let mut nodes = vec![l2(&format!("{l}.input_layernorm"), "before attention", seq, h)];
        nodes.push(linear(&format!("{a}.q_proj"), "query projection", seq, h, q, bias));
        nodes.push(linear(&format!("{a}.k_proj"), "key projection", seq, h, kv, bias));
        nodes.push(linear(&format!("{a}.v_proj"), "value projection", seq, h, kv, bias));
        nodes.push(scale(&format!("{a}.sqk"), "learned query/key scale", seq, q));
        nodes.push(Node::new(
            a.clone(),
            Op::Attention,
            format!("{} query heads x {} over {} key/value heads, sliding or full by layer_types", c.num_heads, c.head_dim, c.num_kv_heads),
            &[seq, q],
        ));
        nodes.push(
            linear(&format!("{a}.gate_proj"), "sigmoid output gate", seq, h, q, false)
                .with([Tensor::new(format!("{a}.s_gate"), &[q])]),
        );
        nodes.push(linear(&format!("{a}.o_proj"), "attention output projection", seq, q, h, bias));
        nodes.push(l2(&format!("{l}.post_attention_layernorm"), "after attention", seq, h));
        nodes.push(scale(&format!("{l}.lambda_1"), "learned step toward the attention output", seq, h));
        nodes.push(l2(&format!("{l}.pre_feedforward_layernorm"), "before the MLP", seq, h));
        let f = c.intermediate_size;
        let mut mlp = gated_mlp(&m, seq, h, f, &c.hidden_act, c.mlp_bias, false);
        if let Some(up) = mlp.get_mut(1) {
            up.params.push(Tensor::new(format!("{m}.suv_gate"), &[f]));
            up.params.push(Tensor::new(format!("{m}.suv_up"), &[f]));
        }
        nodes.extend(mlp);
        nodes.push(l2(&format!("{l}.post_feedforward_layernorm"), "after the MLP", seq, h));
        nodes.push(scale(&format!("{l}.lambda_2"), "learned step toward the MLP output", seq, h));
        let norm = |n: &str| l2(n, "final", seq, h);
        let layers = c.sliding.len() as u64;
        let f = Frame { head: c.head, vocab: c.vocab_size, hidden: h, layers, tie: c.tie_word_embeddings, norm: &norm };
        let mut g = frame(&f, seq, nodes);
        if let Some(head) = g.sections.last_mut().and_then(|s| s.nodes.first_mut()).filter(|n| n.name == "lm_head") {
            head.params.push(Tensor::new("lm_head.logit_scale", &[c.vocab_size]));
        }
        g
    }
}
