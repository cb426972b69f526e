//! The graph of a described GPT-style type (`config/spec_gpt.rs`): token embeddings (and a
//! learned position table), a stack of LayerNorm layers whose attention and MLP are named and
//! switched by the description, a final norm and the class's head.

use super::blocks::{HeadNames, conv1d, embedding, head_section, layer_norm, linear};
use super::decoder::base_prefix;
use super::kv::{KvGroup, KvLayout};
use super::{Architecture, Candidate, Graph, Node, Op, Role, Section};
use crate::config::decoder::DecoderHead;
use crate::config::spec_gpt::{GptConfig, Positions, Qkv, Residual};
use crate::config::{ConfigError, Defaulted, Dims};

impl GptConfig {
    pub fn resolve(value: &serde_json::Value, common: &crate::config::Common) -> Result<Self, ConfigError> {
        let c = Self::read(value, common)?;
        // Each size is bounded alone; their products are measured in floating point first.
        const MAX_SCALARS: f64 = 1e15;
        let g = build(&c, 1);
        let (total, name) = g.approx_scalars();
        if total > MAX_SCALARS {
            let s = c.desc.sizes;
            let field = if name.contains(c.desc.embed) || name == c.desc.lm { s.vocab } else { s.layers };
            return Err(ConfigError::field(
                field,
                format!(
                    "these sizes make a model of about {total:.3e} parameters, beyond any real model (at most {MAX_SCALARS:e})"
                ),
            ));
        }
        Ok(c)
    }
}

/// A projection: `nn.Linear`, or GPT-2's `Conv1D` where the type uses it.
fn proj(c: &GptConfig, name: &str, detail: &str, seq: u64, inp: u64, out: u64, bias: bool) -> Node {
    if c.desc.conv1d { conv1d(name, detail, seq, inp, out) } else { linear(name, detail, seq, inp, out, bias) }
}

/// Self-attention (or cross-attention, `a` then names the module) over every head.
fn attention(c: &GptConfig, a: &str, what: &str, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let mut nodes = match c.desc.qkv {
        Qkv::Fused(name) => vec![proj(c, &format!("{a}.{name}"), "fused q, k, v", seq, h, 3 * h, c.qkv_bias)],
        Qkv::Split(names) => names
            .iter()
            .zip(["query", "key", "value"])
            .map(|(n, w)| proj(c, &format!("{a}.{n}"), &format!("{w} projection"), seq, h, h, c.qkv_bias))
            .collect(),
    };
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

fn self_attention_words(c: &GptConfig) -> String {
    let positions = match c.desc.positions {
        Positions::Learned { .. } => "learned",
        Positions::Fixed(words) => words,
    };
    let local = c.windows.iter().flatten().next();
    match local {
        Some(w) => format!("causal, {positions} positions, global and local (window {w}) layers"),
        None => format!("causal, {positions} positions"),
    }
}

pub fn build(c: &GptConfig, seq: u64) -> Graph {
    let d = c.desc;
    let p = base_prefix(c.head, d.base);
    let h = c.hidden_size;
    let embed = format!("{p}{}", d.embed);
    let scaled = if c.scale_embedding { format!(", scaled by sqrt({h})") } else { String::new() };
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&embed, format!("{} tokens{scaled}", c.vocab_size), seq, c.vocab_size, h),
    ];
    if let Positions::Learned { name, offset } = d.positions {
        let rows = c.max_position_embeddings + offset;
        let more = if offset > 0 { format!(", ids offset by {offset}") } else { String::new() };
        let detail = format!("{} positions, learned{more}", c.max_position_embeddings);
        nodes.push(embedding(&format!("{p}{name}"), detail, seq, rows, h));
    }
    let mut sections = vec![Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes }];

    let l = format!("{p}{}.{{i}}", d.layers);
    let norm = |i: usize, what: &str| {
        let name = d.norms.get(i).copied().unwrap_or("ln");
        layer_norm(&format!("{l}.{name}"), what, &[seq, h], h, true)
    };
    let attn = attention(c, &format!("{l}.{}", d.attn), &self_attention_words(c), seq);
    let ffn = c.intermediate_size;
    let mlp = vec![
        proj(c, &format!("{l}.{}", d.mlp[0]), &format!("up projection, then {}", c.activation), seq, h, ffn, c.mlp_bias),
        proj(c, &format!("{l}.{}", d.mlp[1]), "down projection", seq, ffn, h, c.mlp_bias),
    ];
    let mut layer = vec![];
    match d.residual {
        Residual::Sequential => {
            layer.push(norm(0, "pre-attention norm"));
            layer.extend(attn);
            if c.cross_attention {
                layer.push(layer_norm(&format!("{l}.encoder_attn_layer_norm"), "pre-cross-attention norm", &[seq, h], h, true));
                layer.extend(attention(c, &format!("{l}.encoder_attn"), "over the encoder's states", seq));
            }
            layer.push(norm(1, "pre-MLP norm"));
            layer.extend(mlp);
        }
        Residual::Parallel => {
            layer.push(norm(0, "norm read by attention and MLP alike"));
            layer.extend(attn);
            layer.extend(mlp);
            layer.push(Node::new(format!("{l}.residual"), Op::Add, "x + attention(ln(x)) + mlp(ln(x)), in parallel", &[seq, h]));
        }
        Residual::PostNorm => {
            layer.extend(attn);
            layer.push(norm(0, "post-attention norm of x + attention(x)"));
            layer.extend(mlp);
            layer.push(norm(1, "post-MLP norm"));
        }
    }
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes: layer });
    if let Some(f) = d.final_norm {
        let name = format!("{p}{f}");
        let nodes = vec![layer_norm(&name, "final norm", &[seq, h], h, true)];
        sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    }
    let embed_weight = format!("{embed}.weight");
    let names = HeadNames {
        lm: d.lm,
        lm_bias: c.lm_bias,
        lm_note: String::new(),
        score_rows: None,
        token: "classifier",
        tied_to: c.tie_word_embeddings.then_some(&embed_weight),
    };
    sections.extend(head_section(c.head, &names, seq, h, c.vocab_size));
    Graph { seq_len: seq, sections }
}

impl Architecture for GptConfig {
    fn activations(&self) -> Vec<(&'static str, String)> {
        vec![(self.desc.sizes.act, self.activation.clone())]
    }
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> Dims {
        Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.norm_eps,
            ..Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
    fn defaulted(&self) -> &[Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        let mut out = vec![];
        if self.head == DecoderHead::CausalLm && self.tie_word_embeddings {
            let base = self.desc.base;
            out.push(Candidate::extra(
                "tied LM head stored twice",
                vec![(format!("{}.weight", self.desc.lm), vec![self.vocab_size, self.hidden_size])],
                &format!(
                    "{} is tied to {base}{}, but the checkpoint stores the matrix a second time",
                    self.desc.lm, self.desc.embed
                ),
            ));
        }
        out
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec![self.desc.base.to_string()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let h = self.hidden_size;
        // transformers caches every layer's keys and values whole, local layers included (GPT-Neo
        // masks the window, its cache does not drop the tokens past it).
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * h,
                window: None,
                what: format!("full attention: 2 x {} heads x {}", self.num_heads, self.head_dim()),
            }],
            cross: self.cross_attention.then(|| KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * h,
                window: None,
                what: "cross-attention: the encoder's keys and values".into(),
            }),
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn unscaled_residual_init(&self) -> bool {
        true
    }
}
