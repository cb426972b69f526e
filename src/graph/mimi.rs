//! The Mimi codec's weights under `p` (Moshi's `audio_encoder`), named as transformers'
//! `MimiModel`: `encoder.encoder_seanet`, `encoder.encoder_transformer`, `encoder.downsample`,
//! `quantizer` (only its projections hold weights: the codebooks are buffers),
//! `decoder.upsample`, `decoder.decoder_transformer`, `decoder.decoder_seanet`. Sections of role
//! `vision`: the codec runs per audio frame, beside the language model.

use super::blocks::{layer_norm, linear};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::mimi::MimiConfig;

/// A convolution's weight and bias: `[out, in / groups, k]` (transposed: `[in, out / groups, k]`).
fn conv(name: &str, [inp, out, k, groups]: [u64; 4], bias: bool, transposed: bool) -> Node {
    let shape = if transposed { [inp, out / groups, k] } else { [out, inp / groups, k] };
    let mut tensors = vec![Tensor::new(format!("{name}.conv.weight"), &shape)];
    if bias {
        tensors.push(Tensor::new(format!("{name}.conv.bias"), &[out]));
    }
    Node::new(name, Op::Conv1d, format!("{inp} -> {out} channels, kernel {k}"), &[out]).with(tensors)
}

/// SEANet's residual block at `dim` channels: kernel `residual_kernel_size` down to
/// `dim / compress`, kernel 1 back, and a 1x1 shortcut when `use_conv_shortcut`.
fn resnet(c: &MimiConfig, name: &str, dim: u64) -> Vec<Node> {
    let hidden = dim / c.compress;
    let mut nodes = vec![
        conv(&format!("{name}.block.1"), [dim, hidden, c.residual_kernel_size, 1], true, false),
        conv(&format!("{name}.block.3"), [hidden, dim, 1, 1], true, false),
    ];
    if c.use_conv_shortcut {
        nodes.push(conv(&format!("{name}.shortcut"), [dim, dim, 1, 1], true, false));
    }
    nodes
}

fn seanet_encoder(c: &MimiConfig, s: &str) -> Vec<Node> {
    let nf = c.num_filters;
    let mut nodes =
        vec![conv(&format!("{s}.layers.0"), [c.audio_channels, nf, c.kernel_size, 1], true, false)];
    let (mut index, mut scale) = (1, 1);
    for &ratio in c.upsampling_ratios.iter().rev() {
        let cs = scale * nf;
        for _ in 0..c.num_residual_layers {
            nodes.extend(resnet(c, &format!("{s}.layers.{index}"), cs));
            index += 1;
        }
        nodes.push(conv(&format!("{s}.layers.{}", index + 1), [cs, 2 * cs, 2 * ratio, 1], true, false));
        index += 2;
        scale *= 2;
    }
    let last = [scale * nf, c.hidden_size, c.last_kernel_size, 1];
    nodes.push(conv(&format!("{s}.layers.{}", index + 1), last, true, false));
    nodes
}

fn seanet_decoder(c: &MimiConfig, s: &str) -> Vec<Node> {
    let nf = c.num_filters;
    let mut scale = 1u64 << c.upsampling_ratios.len();
    let mut nodes =
        vec![conv(&format!("{s}.layers.0"), [c.hidden_size, scale * nf, c.kernel_size, 1], true, false)];
    let mut index = 1;
    for &ratio in &c.upsampling_ratios {
        let cs = scale * nf;
        nodes.push(conv(&format!("{s}.layers.{}", index + 1), [cs, cs / 2, 2 * ratio, 1], true, true));
        index += 2;
        for _ in 0..c.num_residual_layers {
            nodes.extend(resnet(c, &format!("{s}.layers.{index}"), cs / 2));
            index += 1;
        }
        scale /= 2;
    }
    let last = [nf, c.audio_channels, c.last_kernel_size, 1];
    nodes.push(conv(&format!("{s}.layers.{}", index + 1), last, true, false));
    nodes
}

/// A transformer layer of the codec: LayerNorms, attention (`attention_bias`), a plain MLP
/// without biases, a learned scale on each residual branch.
fn transformer_layer(c: &MimiConfig, l: &str) -> Vec<Node> {
    let (h, q, kv, b) =
        (c.hidden_size, c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim, c.attention_bias);
    let a = format!("{l}.self_attn");
    let scale = |name: &str| {
        Node::new(format!("{l}.{name}"), Op::Add, "learned residual scale", &[h])
            .with([Tensor::new(format!("{l}.{name}.scale"), &[h])])
    };
    vec![
        layer_norm(&format!("{l}.input_layernorm"), "LayerNorm", &[h], h, true),
        linear(&format!("{a}.q_proj"), "query projection", 1, h, q, b),
        linear(&format!("{a}.k_proj"), "key projection", 1, h, kv, b),
        linear(&format!("{a}.v_proj"), "value projection", 1, h, kv, b),
        linear(&format!("{a}.o_proj"), "attention output projection", 1, q, h, b),
        scale("self_attn_layer_scale"),
        layer_norm(&format!("{l}.post_attention_layernorm"), "LayerNorm", &[h], h, true),
        linear(&format!("{l}.mlp.fc1"), "MLP up", 1, h, c.intermediate_size, false),
        linear(&format!("{l}.mlp.fc2"), "MLP down", 1, c.intermediate_size, h, false),
        scale("mlp_layer_scale"),
    ]
}

fn section(name: String, repeat: u64, nodes: Vec<Node>) -> Section {
    Section { name, role: Role::Vision, repeat, nodes }
}

/// The codec's sections under `p` (`audio_encoder`).
pub fn sections(c: &MimiConfig, p: &str) -> Vec<Section> {
    let h = c.hidden_size;
    let mut out = vec![];
    if c.has_encoder {
        let e = format!("{p}.encoder");
        out.push(section(
            format!("{e}.encoder_seanet"),
            1,
            seanet_encoder(c, &format!("{e}.encoder_seanet")),
        ));
        let l = format!("{e}.encoder_transformer.layers.{{i}}");
        out.push(section(l.clone(), c.num_layers, transformer_layer(c, &l)));
        if let Some(st) = c.latent_stride {
            out.push(section(
                format!("{e}.downsample"),
                1,
                vec![conv(&format!("{e}.downsample"), [h, h, 2 * st, 1], false, false)],
            ));
        }
    }
    let q = format!("{p}.quantizer");
    let mut projections = vec![];
    if c.vq_hidden != h {
        for rvq in ["semantic_residual_vector_quantizer", "acoustic_residual_vector_quantizer"] {
            for (name, inp, out) in [("input_proj", h, c.vq_hidden), ("output_proj", c.vq_hidden, h)] {
                let n = format!("{q}.{rvq}.{name}");
                projections.push(
                    Node::new(&n, Op::Conv1d, "1x1 projection", &[out])
                        .with([Tensor::new(format!("{n}.weight"), &[out, inp, 1])]),
                );
            }
        }
    }
    out.push(section(q, 1, projections));
    if c.has_decoder {
        let d = format!("{p}.decoder");
        if let Some(st) = c.latent_stride {
            let up = conv(&format!("{d}.upsample"), [h, h, 2 * st, c.upsample_groups], false, true);
            out.push(section(format!("{d}.upsample"), 1, vec![up]));
        }
        let l = format!("{d}.decoder_transformer.layers.{{i}}");
        out.push(section(l.clone(), c.num_layers, transformer_layer(c, &l)));
        out.push(section(
            format!("{d}.decoder_seanet"),
            1,
            seanet_decoder(c, &format!("{d}.decoder_seanet")),
        ));
    }
    out
}
