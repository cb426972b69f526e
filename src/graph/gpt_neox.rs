//! The GPT-NeoX graph, named as transformers' `GPTNeoXModel` (`embed_in`,
//! `layers.{i}.attention.query_key_value`, `final_layer_norm`) under `gpt_neox.` in head classes;
//! the LM head is `embed_out`.

use super::decoder::{HeadNames, base_prefix, embedding, head_section, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::decoder::DecoderHead;
use crate::config::gpt_neox::GptNeoxConfig;

architecture!(
    GptNeoxConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["gpt_neox."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

pub fn build(c: &GptNeoxConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "gpt_neox.");
    let h = c.hidden_size;
    let embed_in = format!("{p}embed_in.weight");
    let mut sections = vec![Section {
        name: format!("{p}embed_in"),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new("input_ids", Op::Input, "token ids", &[seq]),
            embedding(&format!("{p}embed_in"), format!("{} tokens", c.vocab_size), seq, c.vocab_size, h),
        ],
    }];
    let l = format!("{p}layers.{{i}}");
    let bias = c.attention_bias;
    let residual = if c.use_parallel_residual {
        "x + attention(ln1(x)) + mlp(ln2(x)), in parallel"
    } else {
        "x + attention(ln1(x)), then + mlp(ln2(.)), in sequence"
    };
    let nodes = vec![
        layer_norm(&format!("{l}.input_layernorm"), "pre-attention norm", seq, h, true),
        linear(&format!("{l}.attention.query_key_value"), "fused q, k, v", seq, h, 3 * h, bias),
        Node::new(
            format!("{l}.attention"),
            Op::Attention,
            format!(
                "{} heads x {}, causal, rotary on the first {} dimensions of each head",
                c.num_heads,
                c.head_dim(),
                c.rotary_ndims()
            ),
            &[seq, h],
        ),
        linear(&format!("{l}.attention.dense"), "attention output projection", seq, h, h, bias),
        layer_norm(&format!("{l}.post_attention_layernorm"), "pre-MLP norm", seq, h, true),
        linear(
            &format!("{l}.mlp.dense_h_to_4h"),
            &format!("up projection, then {}", c.hidden_act),
            seq,
            h,
            c.intermediate_size,
            true,
        ),
        linear(&format!("{l}.mlp.dense_4h_to_h"), "down projection", seq, c.intermediate_size, h, true),
        Node::new(format!("{l}.residual"), Op::Add, residual, &[seq, h]),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(Section {
        name: format!("{p}final_layer_norm"),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![layer_norm(&format!("{p}final_layer_norm"), "final norm", seq, h, true)],
    });
    let names = HeadNames {
        lm: "embed_out",
        lm_bias: false,
        lm_note: String::new(),
        score_rows: None,
        token: "classifier",
        tied_to: c.tie_word_embeddings.then_some(&embed_in),
    };
    sections.extend(head_section(c.head, &names, seq, h, c.vocab_size));
    Graph { seq_len: seq, sections }
}

/// Checkpoints converted with transformers before 4.31 (the Pythia suite among them) store each
/// attention layer's buffers with the weights.
pub fn checkpoint_candidates(c: &GptNeoxConfig) -> Vec<Candidate> {
    let n = c.max_position_embeddings;
    let layers = 0..c.num_layers;
    let mut out = vec![
        Candidate::extra(
            "causal-mask buffers",
            layers
                .clone()
                .map(|i| (format!("gpt_neox.layers.{i}.attention.bias"), vec![1, 1, n, n]))
                .collect(),
            "each attention layer's lower-triangular mask buffer [1, 1, max_positions, max_positions], not a parameter; saved by transformers before 4.31 (with the scalar `attention.masked_bias`, which has no dimension and is not counted)",
        ),
        Candidate::extra(
            "rotary inv_freq buffers",
            layers
                .map(|i| {
                    (
                        format!("gpt_neox.layers.{i}.attention.rotary_emb.inv_freq"),
                        vec![c.rotary_ndims().div_ceil(2)],
                    )
                })
                .collect(),
            "each attention layer's rotary frequencies (one per pair of rotated dimensions), a buffer, not a parameter; saved by transformers before 4.31",
        ),
    ];
    if c.head == DecoderHead::CausalLm && c.tie_word_embeddings {
        out.push(Candidate::extra(
            "tied embed_out stored twice",
            vec![("embed_out.weight".into(), vec![c.vocab_size, c.hidden_size])],
            "embed_out is tied to gpt_neox.embed_in, but the checkpoint stores the matrix a second time",
        ));
    }
    out
}
