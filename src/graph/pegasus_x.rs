//! PEGASUS-X's graph: Pegasus's stacks (`graph/bart.rs`) with no bias on any attention
//! projection, the encoder's global tokens (`encoder.embed_global`) and the norm they get in each
//! encoder layer (`global_self_attn_layer_norm`).

use super::bart::{decoder_layer, encoder_embeddings, encoder_layer, layer_norm, stack_embeddings};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::pegasus_x::PegasusXConfig;

super::nllb_moe::bart_extension!(PegasusXConfig);

/// PegasusXAttention and PegasusXGlobalLocalAttention build q/k/v/out with `bias=False`.
fn without_attention_biases(mut nodes: Vec<Node>) -> Vec<Node> {
    for n in nodes.iter_mut().filter(|n| n.name.contains("attn.")) {
        n.params.retain(|t| !t.name.ends_with(".bias"));
    }
    nodes
}

/// A stack's layers (pre-LN) and its closing `layer_norm`.
fn stack(s: &str, repeat: u64, nodes: Vec<Node>, h: u64, seq: u64) -> Vec<Section> {
    let norm = format!("{s}.layer_norm");
    vec![
        Section { name: format!("{s}.layers.{{i}}"), role: Role::Layers, repeat, nodes },
        Section {
            name: norm.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![layer_norm(&norm, "the stack's output", seq, h)],
        },
    ]
}

pub fn build(c: &PegasusXConfig, seq: u64) -> Graph {
    let b = &c.bart;
    let p = b.base_prefix();
    let (h, act) = (b.d_model, b.activation_function.as_str());
    let shared = format!("{p}shared.weight");
    let (e, dec) = (format!("{p}encoder"), format!("{p}decoder"));
    let mut embeddings = encoder_embeddings(b, p, &shared, seq);
    let g = format!("{e}.embed_global");
    let what = format!("{} global tokens, learned", c.num_global_tokens);
    embeddings.nodes.push(
        Node::new(&g, Op::Embedding, what, &[c.num_global_tokens, h])
            .with([Tensor::new(format!("{g}.weight"), &[c.num_global_tokens, h])]),
    );
    let l = format!("{e}.layers.{{i}}");
    let mut layer = encoder_layer(&l, seq, h, b.encoder_attention_heads, b.encoder_ffn_dim, act, false);
    let at = layer.iter().position(|n| n.name.ends_with("self_attn_layer_norm")).map_or(0, |i| i + 1);
    let what = "the global tokens' norm before self-attention";
    layer.insert(at, layer_norm(&format!("{l}.global_self_attn_layer_norm"), what, seq, h));
    let mut sections = vec![embeddings];
    sections.extend(stack(&e, b.encoder_layers, without_attention_biases(layer), h, seq));
    let mut nodes = vec![Node::new("decoder_input_ids", Op::Input, "decoder token ids", &[seq])];
    nodes.extend(stack_embeddings(b, &dec, seq, Some(&shared)));
    sections.push(Section { name: dec.clone(), role: Role::Embeddings, repeat: 1, nodes });
    let l = format!("{dec}.layers.{{i}}");
    let layer = decoder_layer(&l, seq, h, b.decoder_attention_heads, b.decoder_ffn_dim, act, false);
    sections.extend(stack(&dec, b.decoder_layers, without_attention_biases(layer), h, seq));
    sections.extend(super::nllb_moe::lm_head(b, shared, seq));
    Graph { seq_len: seq, sections }
}
