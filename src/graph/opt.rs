//! The OPT graph, named as transformers' `OPTModel` (`decoder.embed_tokens`,
//! `decoder.layers.{i}.self_attn.q_proj`) under `model.` in head classes.

use super::decoder::{HeadNames, base_prefix, embedding, head_section, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::decoder::DecoderHead;
use crate::config::opt::{OptConfig, POSITION_OFFSET};

architecture!(
    OptConfig,
    |c| activations: vec![("activation_function", c.activation.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

pub fn build(c: &OptConfig, seq: u64) -> Graph {
    let p = format!("{}decoder.", base_prefix(c.head, "model."));
    let h = c.hidden_size;
    let w = c.word_embed_proj_dim;
    let affine = c.layer_norm_elementwise_affine;
    let embed_tokens = format!("{p}embed_tokens.weight");
    let positions = c.max_position_embeddings + POSITION_OFFSET;
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}embed_tokens"), format!("{} tokens", c.vocab_size), seq, c.vocab_size, w),
    ];
    if c.projects() {
        nodes.push(linear(
            &format!("{p}project_in"),
            "token embeddings up to the hidden size",
            seq,
            w,
            h,
            false,
        ));
    }
    nodes.push(embedding(
        &format!("{p}embed_positions"),
        format!("{} positions, learned, ids offset by {POSITION_OFFSET}", c.max_position_embeddings),
        seq,
        positions,
        h,
    ));
    let mut sections =
        vec![Section { name: format!("{p}embed_tokens"), role: Role::Embeddings, repeat: 1, nodes }];

    let l = format!("{p}layers.{{i}}");
    let b = c.enable_bias;
    let norm = if c.do_layer_norm_before { "pre-norm" } else { "post-norm" };
    let nodes = vec![
        layer_norm(&format!("{l}.self_attn_layer_norm"), &format!("attention {norm}"), seq, h, affine),
        linear(&format!("{l}.self_attn.q_proj"), "query projection", seq, h, h, b),
        linear(&format!("{l}.self_attn.k_proj"), "key projection", seq, h, h, b),
        linear(&format!("{l}.self_attn.v_proj"), "value projection", seq, h, h, b),
        Node::new(
            format!("{l}.self_attn"),
            Op::Attention,
            format!("{} heads x {}, causal", c.num_heads, h / c.num_heads),
            &[seq, h],
        ),
        linear(&format!("{l}.self_attn.out_proj"), "attention output projection", seq, h, h, b),
        layer_norm(&format!("{l}.final_layer_norm"), &format!("MLP {norm}"), seq, h, affine),
        linear(&format!("{l}.fc1"), &format!("up projection, then {}", c.activation), seq, h, c.ffn_dim, b),
        linear(&format!("{l}.fc2"), "down projection", seq, c.ffn_dim, h, b),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });

    let mut tail = vec![];
    if c.has_final_layer_norm() {
        tail.push(layer_norm(&format!("{p}final_layer_norm"), "final norm", seq, h, affine));
    }
    if c.projects() {
        tail.push(linear(
            &format!("{p}project_out"),
            "hidden size down to the embedding width",
            seq,
            h,
            w,
            false,
        ));
    }
    if !tail.is_empty() {
        sections.push(Section { name: format!("{p}final"), role: Role::Layers, repeat: 1, nodes: tail });
    }
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: false,
        lm_note: String::new(),
        score_rows: None,
        token: "classifier",
        tied_to: c.tie_word_embeddings.then_some(&embed_tokens),
    };
    sections.extend(head_section(c.head, &names, seq, w, c.vocab_size));
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &OptConfig) -> Vec<Candidate> {
    let mut out = vec![];
    if c.head == DecoderHead::CausalLm && c.tie_word_embeddings {
        out.push(Candidate::extra(
            "tied lm_head stored twice",
            vec![("lm_head.weight".into(), vec![c.vocab_size, c.word_embed_proj_dim])],
            "lm_head is tied to model.decoder.embed_tokens, but the checkpoint stores the matrix a second time",
        ));
    }
    if c.head != DecoderHead::CausalLm {
        out.push(Candidate::extra(
            "LM head",
            vec![("lm_head.weight".into(), vec![c.vocab_size, c.word_embed_proj_dim])],
            "the language-model head of the OPTForCausalLM checkpoint, which this class drops",
        ));
    }
    out
}
