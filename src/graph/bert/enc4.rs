//! What issue 10's enc4 rows add to the BERT graph: RoCBert's pronunciation and shape tables,
//! RoFormer's frozen sinusoid table in place of learned positions, the projection from narrower
//! embeddings (RemBERT, RoFormer), and RemBERT's masked-LM head.

use super::{layer_norm, linear};
use crate::config::bert::{BertConfig, Head};
use crate::config::encoders::{Mlm, Positions, Rotary, RotaryMlp, SpanConv};
use crate::graph::{Node, Op, Role, Section, Tensor, blocks, embedding};

pub(super) mod enc6;

/// Adjusts the embedding nodes (`input_ids`, word, position, token-type, LayerNorm) in place.
pub(super) fn embeddings(c: &BertConfig, emb: &str, seq: u64, nodes: &mut Vec<Node>) {
    let e = c.embed_width;
    if c.desc.positions != Positions::Learned
        && (c.desc.positions != Positions::Switched || c.rotary_positions)
    {
        nodes.retain(|n| !n.name.ends_with(".position_embeddings"));
    }
    if c.desc.embed_norm_key.is_some() {
        // ESM's norm is `layer_norm`; the rest of the lineage's `LayerNorm`.
        rename(nodes, &format!("{emb}.LayerNorm"), "LayerNorm", "layer_norm");
    }
    if c.type_vocab_size == 0 {
        nodes.retain(|n| !n.name.ends_with(".token_type_embeddings"));
    }
    if let Some(g) = c.glyphs {
        let tables = [
            ("pronunciation_embed", "pronunciations", g.pronunciation_vocab, g.pronunciation_dim),
            ("shape_embed", "glyph shapes", g.shape_vocab, g.shape_dim),
        ];
        let tables = tables.map(|(name, what, rows, width)| {
            embedding(&format!("{emb}.{name}"), format!("{rows} {what}"), seq, rows, width)
        });
        nodes.splice(2..2, tables);
        if let Some(width) = g.map_inputs {
            let at = nodes.len().saturating_sub(1);
            let map = linear(
                &format!("{emb}.map_inputs_layer"),
                "concatenated embeddings to the hidden size",
                seq,
                width,
                e,
            );
            nodes.insert(at, map);
        }
    }
}

/// The linear from the embeddings' width to the hidden size, and RoFormer's sinusoid table.
pub(super) fn projection(c: &BertConfig, p: &str, seq: u64, nodes: &mut Vec<Node>) {
    enc6::embeddings(c, p, seq, nodes);
    if c.desc.positions == Positions::Sinusoid {
        let hd = c.head_dim();
        let rows = c.max_position_embeddings;
        let name = format!("{p}encoder.embed_positions");
        let detail = format!("{rows} positions x {hd}, rotary sinusoids in a frozen weight");
        nodes.push(embedding(&name, detail, seq, rows, hd));
    }
    if let (true, Some(w)) = (c.embed_project, c.desc.embed_width) {
        let name = format!("{p}{}", w.project);
        nodes.push(linear(&name, "embeddings to the hidden size", seq, c.embed_width, c.hidden_size));
    }
}

/// RemBERT's head: dense to `output_embedding_size`, the activation, a LayerNorm, and a decoder
/// with its own weight and bias.
pub(super) fn projected_mlm(c: &BertConfig, seq: u64, out: u64) -> Vec<Node> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let name = "cls.predictions.decoder";
    vec![
        linear("cls.predictions.dense", &format!("dense to {out}, then {}", c.hidden_act), seq, h, out),
        layer_norm("cls.predictions.LayerNorm", "norm", &[seq, out], out),
        Node::new(name, Op::Linear, "logits over the vocabulary", &[seq, v]).with([
            Tensor::new(format!("{name}.weight"), &[v, out]),
            Tensor::new(format!("{name}.bias"), &[v]),
        ]),
    ]
}

/// The rotary encoders' post-LN layer at `l` (`layers.{i}`), as GteLayer builds it.
pub(super) fn rotary_layer(c: &BertConfig, r: Rotary, l: &str, seq: u64) -> Vec<Node> {
    let (h, heads, hd, ffn) = (c.hidden_size, c.num_heads, c.head_dim(), c.intermediate_size);
    let all = heads * hd;
    let b = r.attention_bias;
    let proj = |name: &str, detail: &str, i, o, bias| {
        blocks::linear(&format!("{l}.{name}"), detail, seq, i, o, bias)
    };
    let names = ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"];
    let detail = format!("{heads} heads x {hd}, bidirectional, rotary positions");
    let mut nodes =
        attention(&format!("{l}.self_attn"), detail, seq, h, |i, what| proj(names[i], what, h, all, b));
    nodes.extend([
        proj("self_attn.o_proj", "attention output projection", all, h, b),
        layer_norm(&format!("{l}.post_attention_layernorm"), "residual add, then norm", &[seq, h], h),
    ]);
    let act = &c.hidden_act;
    match r.mlp {
        RotaryMlp::Gated { up_bias, down_bias } => nodes.extend([
            proj("mlp.gate_proj", &format!("gate projection, then {act}"), h, ffn, up_bias),
            proj("mlp.up_proj", "up projection, times the gate", h, ffn, up_bias),
            proj("mlp.down_proj", "down projection", ffn, h, down_bias),
        ]),
        RotaryMlp::Fc => nodes.extend([
            proj("mlp.fc1", &format!("up projection, then {act}"), h, ffn, true),
            proj("mlp.fc2", "down projection", ffn, h, true),
        ]),
    }
    nodes.push(layer_norm(&format!("{l}.post_mlp_layernorm"), "residual add, then norm", &[seq, h], h));
    nodes
}

/// GTE's `lm_head` in place of BERT's `cls`, and Nomic BERT's `transform.layer_norm`.
pub(super) fn head(c: &BertConfig, seq: u64, word_embeddings: &str, nodes: &mut Vec<Node>) {
    let masked = matches!(c.head, Head::MaskedLm | Head::CausalLm);
    if masked && c.desc.mlm == Mlm::Generator {
        let (h, e, v) = (c.hidden_size, c.embed_width, c.vocab_size);
        let mut weight = Tensor::new("generator_lm_head.weight", &[v, e]);
        if c.tie_word_embeddings {
            weight.tied_to = Some(word_embeddings.to_string());
        }
        *nodes = vec![
            linear("generator_predictions.dense", "dense to the embedding width, then GELU", seq, h, e),
            layer_norm("generator_predictions.LayerNorm", "norm", &[seq, e], e),
            Node::new("generator_lm_head", Op::Linear, "logits over the vocabulary", &[seq, v])
                .with([weight, Tensor::new("generator_lm_head.bias", &[v])]),
        ];
    } else if let (true, Mlm::LmHead { bias }) = (masked, c.desc.mlm) {
        let (h, v) = (c.hidden_size, c.vocab_size);
        let mut weight = Tensor::new("lm_head.decoder.weight", &[v, h]);
        if c.tie_word_embeddings {
            weight.tied_to = Some(word_embeddings.to_string());
        }
        *nodes = vec![
            linear("lm_head.dense", "dense, then GELU", seq, h, h),
            layer_norm("lm_head.layer_norm", "norm", &[seq, h], h),
            Node::new("lm_head.decoder", Op::Linear, "logits over the vocabulary", &[seq, v])
                .with([weight, Tensor::new(bias, &[v])]),
        ];
    } else if c.desc.rotary.is_some() {
        rename(nodes, "cls.predictions.transform.LayerNorm", "LayerNorm", "layer_norm");
    }
}

/// Renames the node `name` and its tensors, `from` to `to` in the last part.
fn rename(nodes: &mut [Node], name: &str, from: &str, to: &str) {
    for n in nodes.iter_mut().filter(|n| n.name == name) {
        n.name = format!("{}{to}", &name[..name.len() - from.len()]);
        for t in &mut n.params {
            t.name = t.name.replace(&format!(".{from}."), &format!(".{to}."));
        }
    }
}

/// ESM's contact head, in every class: one logit from each layer's and head's attention map.
pub(super) fn contact_head(c: &BertConfig, p: &str, sections: &mut Vec<Section>) {
    if c.desc.contact_head {
        let name = format!("{p}contact_head.regression");
        let inputs = c.num_layers * c.num_heads;
        let node = linear(&name, "contact logit from every attention map", 1, inputs, 1);
        sections.push(Section { name, role: Role::Head, repeat: 1, nodes: vec![node] });
    }
}

/// X-MOD's adapters, after the layer's MLP: its own norm if asked, then one bottleneck MLP per
/// language (a token runs through its language's only).
pub(super) fn adapters(c: &BertConfig, l: &str, seq: u64, nodes: &mut Vec<Node>) {
    enc6::layer(c, l, seq, nodes);
    let Some(a) = &c.adapters else { return };
    let h = c.hidden_size;
    if a.layer_norm {
        nodes.push(layer_norm(
            &format!("{l}.output.adapter_layer_norm"),
            "norm before the adapter",
            &[seq, h],
            h,
        ));
    }
    for lang in &a.languages {
        let m = format!("{l}.output.adapter_modules.{lang}");
        let act = &c.hidden_act;
        nodes.push(linear(
            &format!("{m}.dense1"),
            &format!("{lang} adapter down, then {act}"),
            seq,
            h,
            a.bottleneck,
        ));
        nodes.push(linear(&format!("{m}.dense2"), &format!("{lang} adapter up"), seq, a.bottleneck, h));
    }
}

/// SqueezeBERT's layer: q, k and v, then the post-attention, intermediate and output
/// convolutions, each 1 wide over `groups` groups (weight `[out, in / groups, 1]`, a bias), the
/// post-attention and output ones followed by a LayerNorm after the residual add.
pub(super) fn grouped_layer(c: &BertConfig, groups: [u64; 6], l: &str, seq: u64) -> Vec<Node> {
    let (h, ffn, heads, hd) = (c.hidden_size, c.intermediate_size, c.num_heads, c.head_dim());
    let [q, k, v, post, mid, out] = groups;
    let conv = |name: &str, detail: &str, i: u64, o: u64, g: u64| {
        let name = format!("{l}.{name}");
        let detail = format!("{detail}, 1-wide convolution in {g} groups");
        Node::new(&name, Op::Linear, detail, &[seq, o]).with([
            Tensor::new(format!("{name}.weight"), &[o, i / g, 1]),
            Tensor::new(format!("{name}.bias"), &[o]),
        ])
    };
    let act = &c.hidden_act;
    let names = [("attention.query", q), ("attention.key", k), ("attention.value", v)];
    let detail = format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V");
    let mut nodes = attention(&format!("{l}.attention"), detail, seq, h, |i, what| {
        let (name, g) = names[i];
        conv(name, what, h, h, g)
    });
    nodes.extend([
        conv("post_attention.conv1d", "attention output projection", h, h, post),
        layer_norm(&format!("{l}.post_attention.layernorm"), "residual add, then norm", &[seq, h], h),
        conv("intermediate.conv1d", &format!("up projection, then {act}"), h, ffn, mid),
        conv("output.conv1d", "down projection", ffn, h, out),
        layer_norm(&format!("{l}.output.layernorm"), "residual add, then norm", &[seq, h], h),
    ]);
    nodes
}

/// q, k and v, each made by `proj` from its index and what it projects, then the attention.
fn attention(name: &str, detail: String, seq: u64, h: u64, proj: impl Fn(usize, &str) -> Node) -> Vec<Node> {
    let mut nodes: Vec<Node> = ["query projection", "key projection", "value projection"]
        .iter()
        .enumerate()
        .map(|(i, w)| proj(i, w))
        .collect();
    nodes.push(Node::new(name, Op::Attention, detail, &[seq, h]));
    nodes
}

/// ConvBERT's layer: self-attention over `heads` heads of `head_size` (half the usual width)
/// beside span-based dynamic convolution (a separable convolution over the keys, a linear making
/// each head's kernel, a linear for the convolved values), then BERT's output, norm and MLP, the
/// MLP's linears grouped (`[groups, in / groups, out / groups]` and a bias) when `num_groups` > 1.
pub(super) fn span_conv_layer(c: &BertConfig, s: SpanConv, l: &str, seq: u64) -> Vec<Node> {
    let (h, ffn) = (c.hidden_size, c.intermediate_size);
    let all = s.heads * s.head_size;
    let at = format!("{l}.attention.self");
    let detail =
        format!("{} heads x {} beside as many convolution heads of {}", s.heads, s.head_size, s.kernel);
    let mut nodes = attention(&at, detail, seq, h, |i, what| {
        linear(&format!("{at}.{}", ["query", "key", "value"][i]), what, seq, h, all)
    });
    let sep = format!("{at}.key_conv_attn_layer");
    nodes.extend([
        Node::new(
            &sep,
            Op::Linear,
            format!("separable convolution over the keys, kernel {}", s.kernel),
            &[seq, all],
        )
        .with([
            Tensor::new(format!("{sep}.depthwise.weight"), &[h, 1, s.kernel]),
            Tensor::new(format!("{sep}.pointwise.weight"), &[all, h, 1]),
            Tensor::new(format!("{sep}.bias"), &[all, 1]),
        ]),
        linear(
            &format!("{at}.conv_kernel_layer"),
            "a kernel per head and token",
            seq,
            all,
            s.heads * s.kernel,
        ),
        linear(&format!("{at}.conv_out_layer"), "values for the convolution", seq, h, all),
        linear(&format!("{l}.attention.output.dense"), "attention output projection", seq, h, h),
        layer_norm(&format!("{l}.attention.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
    ]);
    let grouped = |name: String, detail: &str, i: u64, o: u64| {
        if s.groups == 1 {
            return linear(&name, detail, seq, i, o);
        }
        let g = s.groups;
        Node::new(&name, Op::Linear, format!("{detail}, in {g} groups"), &[seq, o]).with([
            Tensor::new(format!("{name}.weight"), &[g, i / g, o / g]),
            Tensor::new(format!("{name}.bias"), &[o]),
        ])
    };
    nodes.extend([
        grouped(format!("{l}.intermediate.dense"), &format!("up projection, then {}", c.hidden_act), h, ffn),
        grouped(format!("{l}.output.dense"), "down projection", ffn, h),
        layer_norm(&format!("{l}.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
    ]);
    nodes
}
