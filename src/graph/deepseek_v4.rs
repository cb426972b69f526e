//! The DeepSeek-V4 graph (`config/deepseek_v4.rs`), named as transformers' `DeepseekV4Model`
//! under `model.` in the causal-LM class: per layer a hyper-connection (`attn_hc`), an RMSNorm,
//! attention (a query latent, `q_a_proj` and its norm, `q_b_proj`; one shared key/value head,
//! `kv_proj` and its norm; the compressor of the layer's kind; a sink per head; the grouped
//! output projection `o_a_proj`, `o_b_proj`), another hyper-connection (`ffn_hc`), an RMSNorm,
//! the router, stacked experts and the shared expert; then `hc_head` folding the residual copies
//! into one before the final norm. The cache is in `graph/deepseek_v4_cache.rs`.

use super::blocks::{gated_mlp, linear, rms_norm, stacked_experts, token_embeddings};
use super::decoder::base_prefix;
use super::kv::KvLayout;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::deepseek_v4::{Compress, DeepseekV4Config};

architecture!(
    DeepseekV4Config,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: super::deepseek_v4_ckpt::checkpoint_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(super::deepseek_v4_cache::kv_layout(self))
    }
    fn prediction_layers(&self) -> Option<Graph> {
        super::deepseek_v4_ckpt::prediction_layers(self)
    }
    fn fp8_unconverted(&self) -> Vec<&'static str> {
        // `_keep_in_fp32_modules` and the router, a bare parameter; the head is never converted.
        let kept = ["compressor.kv_proj", "compressor.gate_proj", "indexer.kv_proj", "indexer.gate_proj"];
        kept.into_iter().chain(["scorer.weights_proj", ".mlp.gate", "lm_head"]).collect()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![format!(
            "The residual stream is kept as {} copies (hyper-connections); activations count one, and leave out the compressors' pooled windows.",
            self.hc_mult
        )]
    }
);

/// A hyper-connection `name` over `m` residual copies: `fn` [rows, m x hidden], `base` [rows],
/// `scale` [scales], in float32.
fn hyper(name: &str, what: String, seq: u64, rows: u64, width: u64, scales: u64) -> Node {
    Node::new(name, Op::Linear, what, &[seq, rows]).with([
        Tensor::new(format!("{name}.fn"), &[rows, width]),
        Tensor::new(format!("{name}.base"), &[rows]),
        Tensor::new(format!("{name}.scale"), &[scales]),
    ])
}

/// A compressor's (or its indexer's) projections of each token and its pooling: `kv_proj` and
/// `gate_proj` to `width` (two series where the windows overlap), a learned bias per position
/// in the window, then an RMSNorm of the pooled entry (`norm` wide).
fn pooled(p: &str, seq: u64, h: u64, width: u64, norm: u64, rate: u64) -> Vec<Node> {
    vec![
        linear(&format!("{p}.kv_proj"), "values to pool", seq, h, width, false),
        linear(&format!("{p}.gate_proj"), "pooling weights", seq, h, width, false),
        Node::new(
            p,
            Op::Add,
            format!(
                "softmax-weighted pooling of each {rate} tokens into one entry, a learned bias per position"
            ),
            &[seq.div_ceil(rate), norm],
        )
        .with([Tensor::new(format!("{p}.position_bias"), &[rate, width])]),
        rms_norm(&format!("{p}.kv_norm"), "RMSNorm of the pooled entries", &[seq.div_ceil(rate), norm], norm),
    ]
}

fn attention(c: &DeepseekV4Config, a: &str, kind: Compress, seq: u64) -> Vec<Node> {
    let d = &c.dims;
    let (h, heads, hd, r) = (d.hidden_size, d.num_heads, d.head_dim, c.q_lora_rank);
    let mut nodes = vec![
        linear(&format!("{a}.q_a_proj"), "query down-projection", seq, h, r, false),
        rms_norm(&format!("{a}.q_a_norm"), "RMSNorm of the query latent", &[seq, r], r),
        linear(&format!("{a}.q_b_proj"), "query up-projection", seq, r, heads * hd, false),
        Node::new(
            format!("{a}.q_b_norm"),
            Op::LayerNorm,
            "RMSNorm without weight, per head",
            &[seq, heads * hd],
        ),
        linear(&format!("{a}.kv_proj"), "the shared key/value head", seq, h, hd, false),
        rms_norm(&format!("{a}.kv_norm"), "RMSNorm of the key/value head", &[seq, hd], hd),
    ];
    let p = format!("{a}.compressor");
    match kind {
        Compress::None => {}
        Compress::Heavy => nodes.extend(pooled(&p, seq, h, hd, hd, c.rates.1)),
        Compress::Sparse => {
            let rate = c.rates.0;
            nodes.extend(pooled(&p, seq, h, 2 * hd, hd, rate));
            let i = format!("{p}.indexer");
            let (n, id) = (c.index_heads, c.index_head_dim);
            nodes.extend(pooled(&i, seq, h, 2 * id, id, rate));
            nodes.push(linear(
                &format!("{i}.q_b_proj"),
                "indexer queries from the query latent",
                seq,
                r,
                n * id,
                false,
            ));
            nodes.push(linear(&format!("{i}.scorer.weights_proj"), "indexer head weights", seq, h, n, false));
        }
    }
    let what = match kind {
        Compress::None => format!("window of {} tokens", c.sliding_window),
        Compress::Heavy => {
            format!("window of {} tokens and one entry per {} tokens before it", c.sliding_window, c.rates.1)
        }
        Compress::Sparse => format!(
            "window of {} tokens and the indexer's top entries of one per {} tokens",
            c.sliding_window, c.rates.0
        ),
    };
    let (g, o) = (c.o_groups, c.o_lora_rank);
    nodes.extend([
        Node::new(
            a,
            Op::Attention,
            format!("{heads} query heads x {hd} over one shared key/value head, {what}, rotary, a learned sink logit per head"),
            &[seq, heads * hd],
        )
        .with([Tensor::new(format!("{a}.sinks"), &[heads])]),
        linear(&format!("{a}.o_a_proj"), &format!("output projection of each of {g} head groups"), seq, heads * hd / g, g * o, false),
        linear(&format!("{a}.o_b_proj"), "output projection mixing the groups", seq, g * o, h, false),
    ]);
    nodes
}

fn layer(c: &DeepseekV4Config, l: &str, i: usize, seq: u64) -> Vec<Node> {
    let kind = c.attention.get(i).copied().unwrap_or(Compress::None);
    layer_of(c, l, kind, c.hashed.get(i).copied().unwrap_or(false), seq)
}

/// A layer of attention `kind`, its experts picked by a token-id table where `hashed`.
pub(super) fn layer_of(c: &DeepseekV4Config, l: &str, kind: Compress, hashed: bool, seq: u64) -> Vec<Node> {
    let d = &c.dims;
    let (h, m) = (d.hidden_size, c.hc_mult);
    let (n, k) = (d.num_experts.unwrap_or(1), d.experts_per_token.unwrap_or(1));
    let mix = |name: &str| {
        let what = format!("hyper-connection mixing {m} residual copies");
        hyper(&format!("{l}.{name}"), what, seq, (2 + m) * m, m * h, 3)
    };
    let mut nodes = vec![
        mix("attn_hc"),
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h),
    ];
    nodes.extend(attention(c, &format!("{l}.self_attn"), kind, seq));
    nodes.push(mix("ffn_hc"));
    nodes.push(rms_norm(
        &format!("{l}.post_attention_layernorm"),
        "RMSNorm before the experts",
        &[seq, h],
        h,
    ));
    let router = match hashed {
        true => format!("expert scores over {n} experts, the {k} experts from a token-id table"),
        false => format!("router over {n} experts, top {k}"),
    };
    nodes.push(linear(&format!("{l}.mlp.gate"), &router, seq, h, n, false));
    nodes.extend(stacked_experts(&format!("{l}.mlp.experts"), seq, h, d.intermediate_size, n, k));
    nodes.extend(gated_mlp(
        &format!("{l}.mlp.shared_experts"),
        seq,
        h,
        d.intermediate_size,
        &c.hidden_act,
        c.mlp_bias,
        false,
    ));
    nodes
}

/// `hc_head` under `name`, folding the residual copies into one (`hc_fn` [m, m x hidden],
/// `hc_base` [m], `hc_scale` [1]).
pub(super) fn hc_head(name: &str, seq: u64, h: u64, m: u64) -> Node {
    Node::new(name, Op::Linear, format!("folds {m} residual copies into one"), &[seq, h]).with([
        Tensor::new(format!("{name}.hc_fn"), &[m, m * h]),
        Tensor::new(format!("{name}.hc_base"), &[m]),
        Tensor::new(format!("{name}.hc_scale"), &[1]),
    ])
}

pub fn build(c: &DeepseekV4Config, seq: u64) -> Graph {
    let p = base_prefix(c.head, "model.");
    let d = &c.dims;
    let (h, v, m) = (d.hidden_size, d.vocab_size, c.hc_mult);
    let embed = format!("{p}embed_tokens");
    let embed_weight = format!("{embed}.weight");
    let mut sections = vec![token_embeddings(&embed, seq, v, h)];
    let kind = |i: usize| (c.attention.get(i).copied(), c.hashed.get(i).copied());
    sections.extend(super::common::layer_sections(p, d.num_layers, kind, |l, i| layer(c, l, i, seq)));
    let fold = hc_head(&format!("{p}hc_head"), seq, h, m);
    let norm = format!("{p}norm");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![fold, rms_norm(&norm, "final RMSNorm", &[seq, h], h)],
    });
    let tied = d.tie_word_embeddings;
    sections.extend(super::common::decoder_head(c.head, &embed_weight, tied, false, seq, h, v));
    Graph { seq_len: seq, sections }
}
