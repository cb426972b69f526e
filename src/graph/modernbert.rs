//! ModernBERT's graph and its decoder's, named as transformers' modules:
//! `model.embeddings.tok_embeddings`, `model.layers.{i}.attn.Wqkv` (the decoder's
//! `attn.q_proj`, `k_proj`, `v_proj`), `mlp.Wi` (input and gate, `2 x intermediate` wide),
//! `model.final_norm`, and the heads' `head.dense` / `head.norm` (the decoder's causal head calls
//! it `lm_head`) before `decoder` or `classifier`. Layer 0 has no `attn_norm` (the embeddings'
//! norm precedes it), so it is a section of its own and the others are named one by one.

use super::blocks::{embedding, linear};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::bert::Head;
use crate::config::modernbert::ModernBertConfig;

architecture!(
    ModernBertConfig,
    |c| activations: vec![
        ("hidden_activation", c.hidden_activation.clone()),
        ("classifier_activation", c.classifier_activation.clone()),
    ],
    prefixes: ["model."],
    candidates: candidates,
    // `_init_weights` scales only by `initializer_range` and the layer count's cutoff, per module
    // kind, not by depth along the residual.
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let c = self;
        if !c.decoder {
            return None;
        }
        let (h, heads) = (c.hidden_size, c.num_heads);
        let what = format!("2 x {heads} heads x {}", h / heads);
        let local = c.local.iter().filter(|l| **l).count() as u64;
        let groups = [(c.num_layers - local, None, "full attention"), (local, Some(c.window), "sliding window")]
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(layers, window, kind)| KvGroup {
                layers,
                values_per_token: 2 * h,
                window,
                what: format!("{kind}: {what}"),
            })
            .collect();
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None })
    }
);

/// A LayerNorm whose bias `norm_bias` switches.
fn norm(c: &ModernBertConfig, name: &str, detail: &str, rows: u64) -> Node {
    let h = c.hidden_size;
    let mut node = Node::new(name, Op::LayerNorm, detail, &[rows, h])
        .with([Tensor::new(format!("{name}.weight"), &[h])]);
    if c.norm_bias {
        node.params.push(Tensor::new(format!("{name}.bias"), &[h]));
    }
    node
}

fn layer(c: &ModernBertConfig, l: &str, first: bool, local: bool, seq: u64) -> Vec<Node> {
    let (h, heads, ffn, ab, mb) =
        (c.hidden_size, c.num_heads, c.intermediate_size, c.attention_bias, c.mlp_bias);
    let a = format!("{l}.attn");
    let mut nodes = vec![];
    if !first {
        nodes.push(norm(c, &format!("{l}.attn_norm"), "norm before attention", seq));
    }
    if c.decoder {
        for (n, what) in [("q_proj", "query"), ("k_proj", "key"), ("v_proj", "value")] {
            nodes.push(linear(&format!("{a}.{n}"), &format!("{what} projection"), seq, h, h, ab));
        }
    } else {
        nodes.push(linear(
            &format!("{a}.Wqkv"),
            "query, key and value projections, fused",
            seq,
            h,
            3 * h,
            ab,
        ));
    }
    let (how, reach) = match (c.decoder, local) {
        (false, false) => ("bidirectional", "global".to_string()),
        (false, true) => ("bidirectional", format!("local, {} tokens around each", c.window)),
        (true, false) => ("causal", "global".to_string()),
        (true, true) => ("causal", format!("local, the last {} tokens", c.window)),
    };
    nodes.extend([
        Node::new(
            &a,
            Op::Attention,
            format!("{heads} heads x {}, {how}, {reach}, rotary", h / heads),
            &[seq, h],
        ),
        linear(&format!("{a}.Wo"), "attention output projection", seq, h, h, ab),
        norm(c, &format!("{l}.mlp_norm"), "residual add, then norm before the MLP", seq),
        linear(
            &format!("{l}.mlp.Wi"),
            &format!("input and gate, then {}(input) x gate", c.hidden_activation),
            seq,
            h,
            2 * ffn,
            mb,
        ),
        linear(&format!("{l}.mlp.Wo"), "down projection", seq, ffn, h, mb),
    ]);
    nodes
}

/// The prediction head (`head` or `lm_head`): dense, activation, norm, read at `rows` positions.
pub(crate) fn prediction_head(c: &ModernBertConfig, name: &str, rows: u64) -> Vec<Node> {
    let h = c.hidden_size;
    vec![
        linear(
            &format!("{name}.dense"),
            &format!("dense, then {}", c.classifier_activation),
            rows,
            h,
            h,
            c.classifier_bias,
        ),
        norm(c, &format!("{name}.norm"), "norm", rows),
    ]
}

fn head_sections(c: &ModernBertConfig, seq: u64, embed: &str) -> Vec<Section> {
    let (h, v, n) = (c.hidden_size, c.vocab_size, c.num_labels);
    let section = |name: &str, nodes| Section { name: name.into(), role: Role::Head, repeat: 1, nodes };
    let classify = |what: &str, rows: u64, out: u64, bias: bool| {
        let mut nodes = prediction_head(c, "head", rows);
        nodes.push(linear("classifier", what, rows, h, out, bias));
        vec![section("head", nodes)]
    };
    match c.head {
        Head::Model | Head::PreTraining | Head::NextSentencePrediction => vec![],
        Head::MaskedLm | Head::CausalLm => {
            let name = if c.decoder { "lm_head" } else { "head" };
            let mut decoder = Node::new("decoder", Op::Linear, "logits over the vocabulary", &[seq, v])
                .with([tied_if(c.tie_word_embeddings, "decoder.weight", &[v, h], format!("{embed}.weight"))]);
            if c.decoder_bias {
                decoder.params.push(Tensor::new("decoder.bias", &[v]));
            }
            vec![section(name, prediction_head(c, name, seq)), section("decoder", vec![decoder])]
        }
        // The decoder's classifier follows `classifier_bias`; the encoder's always has a bias.
        Head::SequenceClassification { .. } => {
            classify("labels, from the pooled state", 1, n, !c.decoder || c.classifier_bias)
        }
        Head::TokenClassification { .. } => classify("a label per token", seq, n, true),
        Head::QuestionAnswering => classify("span start and end logits", seq, n, true),
        Head::MultipleChoice => classify("a score per choice", 1, 1, true),
    }
}

pub fn build(c: &ModernBertConfig, seq: u64) -> Graph {
    let p = if c.head == Head::Model { "" } else { "model." };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let embed = format!("{emb}.tok_embeddings");
    let mut sections = vec![super::blocks::embeddings_section(
        &emb,
        seq,
        [
            embedding(&embed, format!("{v} tokens"), seq, v, h),
            norm(c, &format!("{emb}.norm"), "token embeddings, normalised", seq),
        ],
    )];
    for (i, local) in c.local.iter().enumerate() {
        let l = format!("{p}layers.{i}");
        let nodes = layer(c, &l, i == 0, *local, seq);
        sections.push(Section { name: l, role: Role::Layers, repeat: 1, nodes });
    }
    let f = format!("{p}final_norm");
    sections.push(Section {
        name: f.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![norm(c, &f, "final", seq)],
    });
    sections.extend(head_sections(c, seq, &embed));
    Graph { seq_len: seq, sections }
}

fn candidates(c: &ModernBertConfig) -> Vec<Candidate> {
    let lm = matches!(c.head, Head::MaskedLm | Head::CausalLm);
    if !(lm && c.tie_word_embeddings) {
        return vec![];
    }
    let (h, v) = (c.hidden_size, c.vocab_size);
    vec![Candidate::extra(
        "tied decoder stored twice",
        vec![("decoder.weight".into(), vec![v, h])],
        "the decoder is tied to the token embeddings, but the checkpoint stores the matrix a second time",
    )]
}
