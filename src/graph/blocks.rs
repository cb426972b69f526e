//! The blocks every architecture is stacked from, written once: linears (and GPT-2's transposed
//! `Conv1D`), LayerNorm and RMSNorm, embeddings, grouped-query attention with its optional q/k
//! norms, gated MLPs, and the heads a decoder class puts on its base model. A family's graph
//! builder chooses blocks and names; it does not repeat their shapes.

use super::{Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::decoder::DecoderHead;

/// An `nn.Linear`: weight `[out, in]`, and a bias when the family has one. `rows` is the output's
/// leading dimension (the sequence, or 1 for a head read at one token).
pub(crate) fn linear(name: &str, detail: &str, rows: u64, inp: u64, out: u64, bias: bool) -> Node {
    let mut node = Node::new(name, Op::Linear, detail, &[rows, out])
        .with([Tensor::new([name, ".weight"].concat(), &[out, inp])]);
    if bias {
        node.params.push(Tensor::new([name, ".bias"].concat(), &[out]));
    }
    node
}

/// GPT-2's `Conv1D`: a linear whose weight is stored `[in, out]`, always with a bias.
pub(crate) fn conv1d(name: &str, detail: &str, seq: u64, inp: u64, out: u64) -> Node {
    Node::new(name, Op::Linear, detail, &[seq, out]).with([
        Tensor::new([name, ".weight"].concat(), &[inp, out]),
        Tensor::new([name, ".bias"].concat(), &[out]),
    ])
}

/// An `nn.LayerNorm` over the last dimension of `shape`; `elementwise_affine=False` leaves it
/// without parameters.
pub(crate) fn layer_norm(name: &str, detail: &str, shape: &[u64], width: u64, affine: bool) -> Node {
    let mut node = Node::new(name, Op::LayerNorm, detail, shape);
    if affine {
        node.params.push(Tensor::new([name, ".weight"].concat(), &[width]));
        node.params.push(Tensor::new([name, ".bias"].concat(), &[width]));
    }
    node
}

/// An RMSNorm: one scale per channel, no bias.
pub(crate) fn rms_norm(name: &str, detail: &str, shape: &[u64], width: u64) -> Node {
    Node::new(name, Op::LayerNorm, detail, shape).with([Tensor::new([name, ".weight"].concat(), &[width])])
}

/// An embedding table `rows x width` as a node named `name` (its tensor is `name.weight`).
pub(crate) fn embedding(name: &str, detail: impl Into<String>, seq: u64, rows: u64, width: u64) -> Node {
    Node::new(name, Op::Embedding, detail, &[seq, width])
        .with([Tensor::new([name, ".weight"].concat(), &[rows, width])])
}

/// An embeddings section under `name`: the token ids, then `nodes` (the tables, their norm).
pub(crate) fn embeddings_section(name: &str, seq: u64, nodes: impl IntoIterator<Item = Node>) -> Section {
    let ids = Node::new("input_ids", Op::Input, "token ids", &[seq]);
    Section {
        name: name.into(),
        role: Role::Embeddings,
        repeat: 1,
        nodes: [ids].into_iter().chain(nodes).collect(),
    }
}

/// The first section of a decoder: the token ids and the embedding table `name` (vocab x width).
pub(crate) fn token_embeddings(name: &str, seq: u64, vocab: u64, width: u64) -> Section {
    embeddings_section(name, seq, [embedding(name, format!("{vocab} tokens"), seq, vocab, width)])
}

/// Grouped-query attention (MHA when `kv_heads == heads`, MQA when it is 1): its projections, its
/// optional q/k norms, the attention itself and the output projection, under `a`
/// (`model.layers.{i}.self_attn`).
pub(crate) struct Gqa<'a> {
    pub a: &'a str,
    pub seq: u64,
    pub hidden: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub qkv_bias: bool,
    pub o_bias: bool,
    /// One `qkv_proj` instead of three (Phi-3).
    pub fused_qkv: bool,
    pub qk_norm: QkNorm,
    /// How the family words its norm (`RMSNorm`, Gemma's `RMSNorm (1 + w)`).
    pub norm_word: &'a str,
    /// What the attention node says after the head counts (`causal, rotary, window 4096`).
    pub what: String,
}

pub(crate) fn gqa(g: &Gqa) -> Vec<Node> {
    let (a, seq, h) = (g.a, g.seq, g.hidden);
    let q = g.heads * g.head_dim;
    let kv = g.kv_heads * g.head_dim;
    let mut nodes = if g.fused_qkv {
        vec![linear(
            &format!("{a}.qkv_proj"),
            "fused query, key and value projection",
            seq,
            h,
            q + 2 * kv,
            g.qkv_bias,
        )]
    } else {
        vec![
            linear(&format!("{a}.q_proj"), "query projection", seq, h, q, g.qkv_bias),
            linear(&format!("{a}.k_proj"), "key projection", seq, h, kv, g.qkv_bias),
            linear(&format!("{a}.v_proj"), "value projection", seq, h, kv, g.qkv_bias),
        ]
    };
    let (q_width, k_width, q_what, k_what) = match g.qk_norm {
        QkNorm::None => (0, 0, "", ""),
        QkNorm::PerHead => (g.head_dim, g.head_dim, "per query head", "per key head"),
        QkNorm::Full => (q, kv, "over all query heads", "over all key heads"),
    };
    if g.qk_norm != QkNorm::None {
        let word = g.norm_word;
        nodes.push(rms_norm(&format!("{a}.q_norm"), &format!("{word}, {q_what}"), &[seq, q], q_width));
        nodes.push(rms_norm(&format!("{a}.k_norm"), &format!("{word}, {k_what}"), &[seq, kv], k_width));
    }
    nodes.push(Node::new(
        a,
        Op::Attention,
        format!("{} query heads x {} over {} key/value heads, {}", g.heads, g.head_dim, g.kv_heads, g.what),
        &[seq, q],
    ));
    nodes.push(linear(&format!("{a}.o_proj"), "attention output projection", seq, q, h, g.o_bias));
    nodes
}

/// A gated MLP at `prefix`: `gate_proj`, `up_proj`, `act_fn`, `down_proj`, or with `fused` Phi-3's
/// `gate_up_proj`.
pub(crate) fn gated_mlp(
    prefix: &str,
    seq: u64,
    hidden: u64,
    ffn: u64,
    act: &str,
    bias: bool,
    fused: bool,
) -> Vec<Node> {
    let h = hidden;
    let act = Node::new(format!("{prefix}.act_fn"), Op::Activation, format!("{act}(gate) * up"), &[seq, ffn]);
    if fused {
        return vec![
            linear(&format!("{prefix}.gate_up_proj"), "fused gate and up projection", seq, h, 2 * ffn, bias),
            act,
            linear(&format!("{prefix}.down_proj"), "down projection", seq, ffn, h, bias),
        ];
    }
    vec![
        linear(&format!("{prefix}.gate_proj"), "gate projection", seq, h, ffn, bias),
        linear(&format!("{prefix}.up_proj"), "up projection", seq, h, ffn, bias),
        act,
        linear(&format!("{prefix}.down_proj"), "down projection", seq, ffn, h, bias),
    ]
}

/// How a family names and builds its heads.
pub(crate) struct HeadNames<'a> {
    /// `lm_head`, or GPT-NeoX's `embed_out`.
    pub lm: &'a str,
    /// Phi's LM head has a bias; the others do not.
    pub lm_bias: bool,
    /// What the LM head says after "logits over the vocabulary" (Gemma 2's soft-capping).
    pub lm_note: String,
    /// `classifier`, or `score` (both with bias).
    pub token: &'a str,
    /// The sequence classifier's output rows: 1 (read at the last non-padding token), or the
    /// sequence where a family's page has always shown it per token.
    pub score_rows: Option<u64>,
    /// The word-embedding matrix the LM head is tied to, when it is tied.
    pub tied_to: Option<&'a str>,
}

/// The head section of a class, none for the bare model. `width` is the hidden state the head
/// reads (OPT's `word_embed_proj_dim`). The section is named after its node, so the breakdown
/// reads `lm_head`, `score`, ...
pub(crate) fn head_section(
    head: DecoderHead,
    names: &HeadNames,
    seq: u64,
    width: u64,
    vocab: u64,
) -> Option<Section> {
    let node = match head {
        DecoderHead::Model => return None,
        DecoderHead::CausalLm => {
            let detail = format!("logits over the vocabulary{}", names.lm_note);
            let mut node = linear(names.lm, &detail, seq, width, vocab, names.lm_bias);
            if let Some(target) = names.tied_to {
                node.params[0].tied_to = Some(target.to_string());
            }
            node
        }
        DecoderHead::SequenceClassification { num_labels } => linear(
            "score",
            "labels, read at the last non-padding token",
            names.score_rows.unwrap_or(1),
            width,
            num_labels,
            false,
        ),
        DecoderHead::TokenClassification { num_labels } => {
            linear(names.token, "a label per token", seq, width, num_labels, true)
        }
        DecoderHead::QuestionAnswering => {
            linear("qa_outputs", "span start and end logits", seq, width, 2, true)
        }
    };
    Some(Section { name: node.name.clone(), role: Role::Head, repeat: 1, nodes: vec![node] })
}

/// The end of a GPT-2-style decoder (GPT-2, GPT-BigCode, Falcon, BLOOM): `{prefix}ln_f`, then the
/// class's head (`lm_head`, tied to `tied_to` when given, or a `score`/`classifier` head).
pub(crate) fn ln_f_and_head(
    prefix: &str,
    head: DecoderHead,
    tied_to: Option<&str>,
    seq: u64,
    width: u64,
    vocab: u64,
) -> Vec<Section> {
    let ln_f = layer_norm(&format!("{prefix}ln_f"), "final norm", &[seq, width], width, true);
    norm_and_head(ln_f, (head, "classifier"), tied_to, seq, width, vocab)
}

/// The final norm, a section of its own, then the head class's `lm_head` (tied to `tied_to` when
/// given, without bias) or its `token` head (`score`, `classifier`).
pub(crate) fn norm_and_head(
    norm: Node,
    (head, token): (DecoderHead, &'static str),
    tied_to: Option<&str>,
    seq: u64,
    h: u64,
    v: u64,
) -> Vec<Section> {
    let mut sections =
        vec![Section { name: norm.name.clone(), role: Role::Layers, repeat: 1, nodes: vec![norm] }];
    let names =
        HeadNames { lm: "lm_head", lm_bias: false, lm_note: String::new(), token, score_rows: None, tied_to };
    sections.extend(head_section(head, &names, seq, h, v));
    sections
}

/// Token embeddings and learned absolute positions (`{prefix}wte`, `{prefix}wpe`), after the ids:
/// GPT-2's and GPT-BigCode's first section.
pub(crate) fn wte_wpe_section(prefix: &str, vocab: u64, positions: u64, width: u64, seq: u64) -> Section {
    Section {
        name: format!("{prefix}embeddings"),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new("input_ids", Op::Input, "token ids", &[seq]),
            embedding(&format!("{prefix}wte"), format!("{vocab} tokens"), seq, vocab, width),
            embedding(
                &format!("{prefix}wpe"),
                format!("{positions} positions, learned"),
                seq,
                positions,
                width,
            ),
        ],
    }
}

/// Stacked experts under `e` (`mlp.experts`): one `[experts, 2 x ffn, hidden]` `gate_up_proj`
/// and one `[experts, hidden, ffn]` `down_proj`, `[{e}]` naming an expert's slice; `n` experts,
/// `k` per token.
pub(crate) fn stacked_experts(e: &str, seq: u64, hidden: u64, ffn: u64, n: u64, k: u64) -> [Node; 2] {
    let slice = |name: &str, out: u64, inp: u64, what: &str| {
        Node::new(format!("{e}.{name}"), Op::Linear, what, &[seq, out])
            .with([Tensor::new(format!("{e}.{name}[{{e}}]"), &[out, inp])])
            .experts(n, k)
    };
    [
        slice("gate_up_proj", 2 * ffn, hidden, "stacked experts' gate and up projection"),
        slice("down_proj", hidden, ffn, "stacked experts' down projection"),
    ]
}
