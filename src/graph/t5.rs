//! The T5-family graph, named as transformers' modules: `shared`,
//! `encoder.block.{i}.layer.0.SelfAttention.q`, `decoder.block.{i}.layer.1.EncDecAttention.o`,
//! `lm_head`. Every linear in the stacks is bias-free and every norm is a scale-only RMSNorm.

use super::kv::KvLayout;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::release::Release;
use crate::config::t5::{BiasLayout, Head, LongAttention, T5Config};

architecture!(
    T5Config,
    // T5Config: `dense_act_fn` is the part after `gated-`, except that `gated-gelu` means
    // `gelu_new` for backward compatibility.
    |c| activations: {
        if c.switch.is_some() {
            return vec![("dense_act_fn", c.feed_forward_proj.clone())];
        }
        let act = if c.feed_forward_proj == "gated-gelu" {
            "gelu_new".to_string()
        } else {
            c.feed_forward_proj.rsplit('-').next().unwrap_or_default().to_string()
        };
        vec![("feed_forward_proj", act)]
    },
    prefixes: ["transformer."],
    candidates: super::t5_blocks::checkpoint_candidates,
    // T5 initialises each projection with std initializer_factor / sqrt(fan-in), not 0.02.
    unscaled_residual_init: false;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = vec!["4.x ties `lm_head` to `shared` only when `tie_word_embeddings` is true; 5.x's T5 config classes always tie it"];
        super::release::note(self, &T5Config { release: Release::V4, ..self.clone() }, why)
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let vpt = 2 * self.num_heads * self.d_kv;
        let what = format!("2 x {} heads x {} d_kv", self.num_heads, self.d_kv);
        if !self.has_decoder() {
            return Some(KvLayout { groups: vec![], cross: None, cross_fixed_len: None, recurrent: None });
        }
        Some(super::t5_blocks::encoder_decoder_kv(self.num_decoder_layers, vpt, &what))
    }
);

/// T5's linears have no bias; its classification head's do.
pub(super) fn linear(name: &str, detail: &str, seq: u64, inp: u64, out: u64) -> Node {
    super::blocks::linear(name, detail, seq, inp, out, false)
}

fn linear_bias(name: &str, detail: &str, rows: u64, inp: u64, out: u64) -> Node {
    super::blocks::linear(name, detail, rows, inp, out, true)
}

fn rms_norm(name: &str, detail: &str, seq: u64, width: u64) -> Node {
    super::blocks::rms_norm(name, &format!("RMSNorm, scale only: {detail}"), &[seq, width], width)
}

/// The prefix under which a head class keeps its base model (`transformer.`).
pub(super) fn base_prefix(c: &T5Config) -> &'static str {
    match c.head {
        Head::SequenceClassification { .. } | Head::TokenClassification { .. } => "transformer.",
        _ => "",
    }
}

pub(super) fn bias_table(name: &str, c: &T5Config, seq: u64) -> Node {
    Node::new(
        name,
        Op::Embedding,
        format!(
            "{} relative-position buckets x {} heads, added to the attention scores",
            c.relative_attention_num_buckets, c.num_heads
        ),
        &[c.num_heads, seq, seq],
    )
    .with([Tensor::new(format!("{name}.weight"), &[c.relative_attention_num_buckets, c.num_heads])])
}

/// q, k, v, o of one attention sub-layer (`SelfAttention` or `EncDecAttention`).
fn attention(c: &T5Config, at: &str, what: &str, seq: u64, own_bias: bool) -> Vec<Node> {
    let (h, inner) = (c.d_model, c.num_heads * c.d_kv);
    let mut nodes = vec![
        linear(&format!("{at}.q"), "query projection", seq, h, inner),
        linear(&format!("{at}.k"), "key projection", seq, h, inner),
        linear(&format!("{at}.v"), "value projection", seq, h, inner),
    ];
    if own_bias {
        nodes.push(bias_table(&format!("{at}.relative_attention_bias"), c, seq));
    }
    nodes.push(Node::new(
        at,
        Op::Attention,
        format!(
            "{} heads x {}, {what}, softmax(QK^T + position bias)V, no 1/sqrt(d) scaling",
            c.num_heads, c.d_kv
        ),
        &[seq, inner],
    ));
    nodes.push(linear(&format!("{at}.o"), "attention output projection", seq, inner, h));
    nodes
}

fn feed_forward(c: &T5Config, at: &str, seq: u64) -> Vec<Node> {
    let (h, ff) = (c.d_model, c.d_ff);
    let act = if c.switch.is_some() {
        &c.feed_forward_proj
    } else {
        c.feed_forward_proj.rsplit('-').next().unwrap_or_default()
    };
    let mut nodes = if c.gated {
        vec![
            linear(&format!("{at}.wi_0"), &format!("gate projection, then {act}"), seq, h, ff),
            linear(&format!("{at}.wi_1"), "up projection, multiplied by the gate", seq, h, ff),
        ]
    } else {
        vec![linear(&format!("{at}.wi"), &format!("up projection, then {act}"), seq, h, ff)]
    };
    nodes.push(linear(&format!("{at}.wo"), "down projection", seq, ff, h));
    nodes
}

/// The module name of a stack's self-attention: LongT5's encoder names it by its kind.
fn self_attention_name(c: &T5Config, decoder: bool) -> &'static str {
    match c.long_attention {
        Some(LongAttention::Local) if !decoder => "LocalSelfAttention",
        Some(LongAttention::TransientGlobal) if !decoder => "TransientGlobalSelfAttention",
        _ => "SelfAttention",
    }
}

/// One block's nodes; `sparse` makes its feed-forward Switch's experts.
fn block(c: &T5Config, b: &str, decoder: bool, sparse: bool, seq: u64) -> Vec<Node> {
    let first_only = c.bias_layout == BiasLayout::FirstLayer;
    let mask = if decoder { "causal" } else { "bidirectional" };
    let at = format!("{b}.layer.0.{}", self_attention_name(c, decoder));
    let mut nodes = attention(c, &at, mask, seq, !first_only);
    if c.long_attention == Some(LongAttention::TransientGlobal) && !decoder {
        nodes.push(rms_norm(
            &format!("{at}.global_input_layer_norm"),
            "before the global aggregates",
            seq,
            c.d_model,
        ));
    }
    nodes.push(rms_norm(&format!("{b}.layer.0.layer_norm"), "before self-attention", seq, c.d_model));
    let mut ff_index = 1;
    if decoder {
        nodes.extend(attention(
            c,
            &format!("{b}.layer.1.EncDecAttention"),
            "over the encoder's output",
            seq,
            false,
        ));
        nodes.push(rms_norm(&format!("{b}.layer.1.layer_norm"), "before cross-attention", seq, c.d_model));
        ff_index = 2;
    }
    match c.switch {
        Some(s) if sparse => {
            nodes.extend(super::t5_blocks::switch_experts(c, s, &format!("{b}.layer.{ff_index}.mlp"), seq))
        }
        Some(_) => nodes.extend(feed_forward(c, &format!("{b}.layer.{ff_index}.mlp"), seq)),
        None => nodes.extend(feed_forward(c, &format!("{b}.layer.{ff_index}.DenseReluDense"), seq)),
    }
    nodes.push(rms_norm(
        &format!("{b}.layer.{ff_index}.layer_norm"),
        "before the feed-forward",
        seq,
        c.d_model,
    ));
    nodes
}

/// One stack's sections: the shared position-bias table of the first block (T5, MT5), the
/// blocks (a run of like blocks from block 0 repeats with `{i}`, later ones that differ from it
/// are named one by one), and the final norm.
fn stack(c: &T5Config, p: &str, decoder: bool, seq: u64) -> Vec<Section> {
    let which = if decoder { "decoder" } else { "encoder" };
    let mut sections = vec![];
    if c.bias_layout == BiasLayout::FirstLayer {
        let at = format!("{p}{which}.block.0.layer.0.{}", self_attention_name(c, decoder));
        let mut nodes = vec![bias_table(&format!("{at}.relative_attention_bias"), c, seq)];
        if c.long_attention == Some(LongAttention::TransientGlobal) && !decoder {
            nodes.push(bias_table(&format!("{at}.global_relative_attention_bias"), c, seq));
        }
        sections.push(Section { name: at.clone(), role: Role::Layers, repeat: 1, nodes });
    }
    let layers = if decoder { c.num_decoder_layers } else { c.num_layers };
    sections.extend(super::t5_blocks::layer_runs(
        &format!("{p}{which}.block"),
        layers,
        |i| c.switch.is_some_and(|s| s.is_sparse(decoder, i)),
        |b, sparse| block(c, b, decoder, sparse, seq),
    ));
    let norm = format!("{p}{which}.final_layer_norm");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![rms_norm(&norm, "the stack's output", seq, c.d_model)],
    });
    sections
}

pub fn build(c: &T5Config, seq: u64) -> Graph {
    let p = base_prefix(c);
    let (h, v) = (c.d_model, c.vocab_size);
    let shared = format!("{p}shared.weight");
    let tied_embed = |which: &str| {
        let name = format!("{p}{which}.embed_tokens");
        let mut t = Tensor::new(format!("{name}.weight"), &[v, h]);
        // 4.x hands each stack `shared` itself; 5.x ties them by the head's rule (always for the
        // types whose config forces the tie, by the flag for Switch).
        if c.release == Release::V4 || c.ties_head() {
            t.tied_to = Some(shared.clone());
        }
        Node::new(name, Op::Embedding, "the shared table", &[seq, h]).with([t])
    };
    let mut emb = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        Node::new(format!("{p}shared"), Op::Embedding, format!("{v} tokens, no positions"), &[seq, h])
            .with([Tensor::new(&shared, &[v, h])]),
        tied_embed("encoder"),
    ];
    if c.has_decoder() {
        emb.push(Node::new("decoder_input_ids", Op::Input, "decoder token ids", &[seq]));
        emb.push(tied_embed("decoder"));
    }
    let mut sections =
        vec![Section { name: format!("{p}shared"), role: Role::Embeddings, repeat: 1, nodes: emb }];
    sections.extend(stack(c, p, false, seq));
    if c.has_decoder() {
        sections.extend(stack(c, p, true, seq));
    }
    let head: Vec<Node> = match c.head {
        Head::Model | Head::Encoder => vec![],
        Head::ConditionalGeneration => {
            let mut w = Tensor::new("lm_head.weight", &[v, h]);
            if c.ties_head() {
                w.tied_to = Some(shared.clone());
            }
            let detail = if c.tie_word_embeddings {
                "logits over the vocabulary (tied: output scaled by d_model^-0.5 first)"
            } else {
                "logits over the vocabulary"
            };
            vec![Node::new("lm_head", Op::Linear, detail, &[seq, v]).with([w])]
        }
        Head::SequenceClassification { num_labels } => vec![
            linear_bias("classification_head.dense", "the last eos token's state, dense then tanh", 1, h, h),
            linear_bias("classification_head.out_proj", "labels", 1, h, num_labels),
        ],
        Head::TokenClassification { num_labels } => {
            vec![linear_bias("classifier", "a label per token", seq, h, num_labels)]
        }
        Head::QuestionAnswering { num_labels } => {
            vec![linear_bias("qa_outputs", "span start and end logits", seq, h, num_labels)]
        }
    };
    if let Some(first) = head.first() {
        let name = first.name.split('.').next().unwrap_or_default().to_string();
        sections.push(Section { name, role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}
