//! The graph of a described GPT-style type (`config/spec_gpt.rs`): token embeddings (and a
//! learned position table), a stack of LayerNorm layers whose attention and MLP are named and
//! switched by the description, a final norm and the class's head.

use super::blocks::{HeadNames, conv1d, embedding, head_section, layer_norm, linear, rms_norm};
use super::decoder::base_prefix;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::ConfigError;
use crate::config::decoder::DecoderHead;
use crate::config::spec_gpt::{GptConfig, Positions, Qkv, Residual};

impl GptConfig {
    pub fn resolve(value: &serde_json::Value, common: &crate::config::Common) -> Result<Self, ConfigError> {
        let c = Self::read(value, common)?;
        let (s, desc) = (c.desc.sizes, c.desc);
        let field =
            |name: &str| if name.contains(desc.embed) || name == desc.lm { s.vocab } else { s.layers };
        super::common::check_scale(&build(&c, 1), field)?;
        Ok(c)
    }
}

/// A projection: `nn.Linear`, or GPT-2's `Conv1D` where the type uses it.
fn proj(c: &GptConfig, name: &str, detail: &str, seq: u64, inp: u64, out: u64, bias: bool) -> Node {
    if c.desc.conv1d {
        conv1d(name, detail, seq, inp, out)
    } else {
        linear(name, detail, seq, inp, out, bias)
    }
}

/// Self-attention (or cross-attention, `a` then names the module) over every head.
/// `kv_in` is the width the key and value projections read (the encoder's, for cross-attention).
fn attention(c: &GptConfig, a: &str, what: &str, seq: u64, kv_in: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let mut nodes = match c.desc.qkv {
        Qkv::Fused(name) => vec![proj(c, &format!("{a}.{name}"), "fused q, k, v", seq, h, 3 * h, c.qkv_bias)],
        Qkv::Split(names) => names
            .iter()
            .zip(["query", "key", "value"])
            .map(|(n, w)| {
                let inp = if w == "query" { h } else { kv_in };
                proj(c, &format!("{a}.{n}"), &format!("{w} projection"), seq, inp, h, c.qkv_bias)
            })
            .collect(),
    };
    if c.qk_norm {
        let d = c.head_dim();
        for (n, w) in [("q_layernorm", "queries"), ("k_layernorm", "keys")] {
            let what = format!("LayerNorm over each head's {w}");
            nodes.push(layer_norm(&format!("{a}.{n}"), &what, &[seq, h], d, true));
        }
    }
    nodes.push(Node::new(
        a,
        Op::Attention,
        format!("{} heads x {}, {what}", c.num_heads, c.head_dim()),
        &[seq, h],
    ));
    let out = format!("{a}.{}", c.desc.out);
    nodes.push(proj(c, &out, "attention output projection", seq, h, h, c.out_bias));
    nodes
}

/// A LayerNorm of the type's kind: with weight and bias, weight only (MPT), or none.
fn ln(c: &GptConfig, name: &str, what: &str, seq: u64) -> Node {
    let h = c.hidden_size;
    if c.affine && !c.desc.norm_bias {
        rms_norm(name, &format!("{what}, LayerNorm without bias"), &[seq, h], h)
    } else {
        layer_norm(name, what, &[seq, h], h, c.affine)
    }
}

fn self_attention_words(c: &GptConfig) -> String {
    if let Some(words) = c.desc.attn_words {
        return words.to_string();
    }
    let positions = match c.desc.positions {
        Positions::Learned { .. } => "learned",
        Positions::LearnedIf { .. } if c.learned_positions => "learned",
        Positions::LearnedIf { .. } => "sinusoidal",
        Positions::Fixed(words) => words,
        Positions::RotaryPct(_) => {
            let n = c.rotary_ndims.unwrap_or(0);
            return format!("causal, rotary on the first {n} dimensions of each head");
        }
    };
    let local = c.windows.iter().flatten().next();
    match local {
        Some(w) => format!("causal, {positions} positions, global and local (window {w}) layers"),
        None => format!("causal, {positions} positions"),
    }
}

pub fn build(c: &GptConfig, seq: u64) -> Graph {
    let d = c.desc;
    let p = format!("{}{}", base_prefix(c.head, d.base), d.inner);
    let (h, w) = (c.hidden_size, c.embed_width);
    let embed = format!("{p}{}", d.embed);
    let scaled = if c.scale_embedding { format!(", scaled by sqrt({h})") } else { String::new() };
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&embed, format!("{} tokens{scaled}", c.vocab_size), seq, c.vocab_size, w),
    ];
    if w != h {
        let what = "token embeddings up to the hidden size";
        nodes.push(linear(&format!("{p}project_in"), what, seq, w, h, false));
    }
    if let (Positions::Learned { name, offset } | Positions::LearnedIf { name, offset, .. }, true) =
        (d.positions, c.learned_positions)
    {
        let rows = c.max_position_embeddings + offset;
        let more = if offset > 0 { format!(", ids offset by {offset}") } else { String::new() };
        let detail = format!("{} positions, learned{more}", c.max_position_embeddings);
        nodes.push(embedding(&format!("{p}{name}"), detail, seq, rows, h));
    }
    if let Some(n) = d.embed_norm.filter(|_| c.embed_norm) {
        nodes.push(ln(c, &format!("{p}{n}"), "norm of the summed embeddings", seq));
    }
    let mut sections = vec![Section { name: embed.clone(), role: Role::Embeddings, repeat: 1, nodes }];

    let l = format!("{p}{}.{{i}}", d.layers);
    let norm = |i: usize, what: &str| {
        let name = d.norms.get(i).copied().unwrap_or("ln");
        ln(c, &format!("{l}.{name}"), what, seq)
    };
    let attn = attention(c, &format!("{l}.{}", d.attn), &self_attention_words(c), seq, h);
    let ffn = c.intermediate_size;
    let mlp = vec![
        proj(
            c,
            &format!("{l}.{}", d.mlp[0]),
            &format!("up projection, then {}", c.activation),
            seq,
            h,
            ffn,
            c.mlp_bias,
        ),
        proj(c, &format!("{l}.{}", d.mlp[1]), "down projection", seq, ffn, h, c.mlp_bias),
    ];
    let mut layer = vec![];
    match d.residual {
        Residual::PreOrPost(_) => {
            let how = if c.post_norm { "post-norm" } else { "pre-norm" };
            layer.push(norm(0, &format!("attention {how}")));
            layer.extend(attn);
            layer.push(norm(1, &format!("MLP {how}")));
            layer.extend(mlp);
        }
        Residual::Sequential | Residual::TwoNorms(_) => {
            layer.push(norm(0, "pre-attention norm"));
            layer.extend(attn);
            if c.cross_attention {
                let [module, norm] = d.cross_names;
                let what = "pre-cross-attention norm";
                layer.push(layer_norm(&format!("{l}.{norm}"), what, &[seq, h], h, true));
                layer.extend(attention(
                    c,
                    &format!("{l}.{module}"),
                    "over the encoder's states",
                    seq,
                    c.cross_width,
                ));
            }
            layer.push(norm(1, "pre-MLP norm"));
            layer.extend(mlp);
            if let Residual::TwoNorms(_) = d.residual {
                let how = if c.parallel {
                    "x + attention(ln1(x)) + mlp(ln2(x)), in parallel"
                } else {
                    "x + attention(ln1(x)), then + mlp(ln2(.)), in sequence"
                };
                layer.push(Node::new(format!("{l}.residual"), Op::Add, how, &[seq, h]));
            }
        }
        Residual::Parallel => {
            layer.push(norm(0, "norm read by attention and MLP alike"));
            layer.extend(attn);
            layer.extend(mlp);
            layer.push(Node::new(
                format!("{l}.residual"),
                Op::Add,
                "x + attention(ln(x)) + mlp(ln(x)), in parallel",
                &[seq, h],
            ));
        }
        Residual::PostNorm => {
            layer.extend(attn);
            layer.push(norm(0, "post-attention norm of x + attention(x)"));
            if c.cross_attention {
                let [module, norm] = d.cross_names;
                layer.extend(attention(
                    c,
                    &format!("{l}.{module}"),
                    "over the encoder's states",
                    seq,
                    c.cross_width,
                ));
                layer.push(ln(c, &format!("{l}.{norm}"), "post-cross-attention norm", seq));
            }
            layer.extend(mlp);
            layer.push(norm(1, "post-MLP norm"));
        }
    }
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes: layer });
    if let Some(bias) = d.last_out_bias {
        let last = c.num_layers.saturating_sub(1);
        let name = format!("{p}{}.{last}.{}.{bias}", d.layers, d.attn);
        let node = Node::new(&name, Op::Add, "the last layer's attention output bias", &[seq, h])
            .with([Tensor::new(name.clone(), &[h])]);
        sections.push(Section { name, role: Role::Layers, repeat: 1, nodes: vec![node] });
    }
    let mut tail = vec![];
    if let Some(f) = d.final_norm.filter(|_| c.final_norm) {
        tail.push(ln(c, &format!("{p}{f}"), "final norm", seq));
    }
    if w != h {
        let what = "hidden size down to the embedding width";
        tail.push(linear(&format!("{p}project_out"), what, seq, h, w, false));
    }
    if let Some(first) = tail.first() {
        let name = d.final_section.map_or_else(|| first.name.clone(), |n| format!("{p}{n}"));
        sections.push(Section { name, role: Role::Layers, repeat: 1, nodes: tail });
    }
    let embed_weight = format!("{embed}.weight");
    let names = HeadNames {
        lm: d.lm,
        lm_bias: c.lm_bias,
        lm_note: String::new(),
        score_rows: None,
        token: d.token_head,
        tied_to: c.tie_word_embeddings.then_some(&embed_weight),
    };
    match c.head {
        DecoderHead::SequenceClassification { num_labels } if d.seq_head != "score" => {
            let what = "labels, read at the last non-padding token";
            let node = linear(d.seq_head, what, 1, w, num_labels, false);
            sections.push(Section {
                name: node.name.clone(),
                role: Role::Head,
                repeat: 1,
                nodes: vec![node],
            });
        }
        _ => sections.extend(head_section(c.head, &names, seq, w, c.vocab_size)),
    }
    if let (Some(side), DecoderHead::CausalLm, false) = (d.lm_side_bias, c.head, c.tie_word_embeddings)
        && let Some(head) = sections.last_mut().and_then(|s| s.nodes.last_mut())
    {
        head.params.push(Tensor::new(side.to_string(), &[c.vocab_size]));
    }
    Graph { seq_len: seq, sections }
}
