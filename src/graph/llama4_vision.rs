//! Llama 4's vision tower (`Llama4VisionModel` under `vision_model`), read from its own config
//! class (`Llama4VisionConfig`: a nested `model_type` is not read): patches unfolded and
//! projected by a bias-free linear, a class token, learned positions for the patches and the class
//! token, 2-D rotary positions (no weights), Llama 3.2 Vision's encoder layers with biased
//! attention (`model.layers.{i}`), then the vision adapter: patches pixel-shuffled by
//! `pixel_shuffle_ratio` and a bias-free two-linear MLP (`intermediate_size` to
//! `projector_input_dim`, then `projector_output_dim` square).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{layer_norm, linear};
use super::mllama_vision::{LlamaVision, encoder_layer, table, tower};
use super::qwen_vision::size;
use super::vision::{TowerKind, VisionTower, nested};
use super::{Node, Op, Role, Section};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

#[derive(Debug, Clone, Serialize)]
pub struct Llama4Vision {
    /// The projector's input width.
    pub vision_output_dim: u64,
    pub projector_input_dim: u64,
    pub projector_output_dim: u64,
    pub pixel_shuffle_ratio: f64,
}

#[derive(Debug, Deserialize)]
struct Raw {
    num_attention_heads: Option<u64>,
    pixel_shuffle_ratio: Option<f64>,
    projector_input_dim: Option<u64>,
    projector_output_dim: Option<u64>,
}

pub fn resolve(value: &Value, d: &mut Vec<Defaulted>) -> Result<VisionTower, ConfigError> {
    let raw: Raw = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    let ratio = raw.pixel_shuffle_ratio.unwrap_or(0.5);
    // The adapter divides by ratio² when it is built: zero fails there.
    if !(ratio.is_finite() && ratio > 0.0 && ratio <= 64.0) {
        return Err(ConfigError::field(
            "vision_config.pixel_shuffle_ratio",
            format!("{ratio} is not a shuffle ratio transformers builds (above 0, at most 64 here)"),
        ));
    }
    let heads = ("num_attention_heads", raw.num_attention_heads, 16);
    tower(value, (TowerKind::Llama4, "llama4_vision_model"), [768, 5632, 34], heads, d, |out, d| {
        Ok(LlamaVision::Llama4(Llama4Vision {
            vision_output_dim: out,
            projector_input_dim: size("projector_input_dim", raw.projector_input_dim, 4096, 1 << 20, d)?,
            projector_output_dim: size("projector_output_dim", raw.projector_output_dim, 4096, 1 << 20, d)?,
            pixel_shuffle_ratio: ratio,
        }))
    })
}

/// The tower's sections under `t` (`vision_model`), at one tile of `image_size`.
pub fn sections(v: &VisionTower, x: &Llama4Vision, t: &str) -> Vec<Section> {
    let (h, f, c, p) = (v.hidden_size, v.intermediate_size, v.num_channels, v.patch_size);
    let rows = v.patches() + 1;
    let shape = [rows, h];
    let unfold = format!("{t}.patch_embedding.linear");
    let embed = vec![
        Node::new("pixel_values", Op::Input, "one tile", &[c, v.image_size, v.image_size]),
        linear(&unfold, &format!("{p}x{p} patches of {c} channels, unfolded"), rows - 1, c * p * p, h, false),
        table(format!("{t}.class_embedding"), "class token", &[1, h], &[h]),
        table(format!("{t}.positional_embedding_vlm"), "learned positions", &shape, &[rows, h]),
        layer_norm(&format!("{t}.layernorm_pre"), "LayerNorm", &shape, h, true),
    ];
    let l = format!("{t}.model.layers.{{i}}");
    // Pixel shuffle: ratio x ratio of the patch grid, channels / ratio².
    let side = v.image_size / v.patch_size;
    let shuffled = ((side as f64 * x.pixel_shuffle_ratio) as u64).pow(2);
    let a = format!("{t}.vision_adapter.mlp");
    let (pi, po) = (x.projector_input_dim, x.projector_output_dim);
    let post = vec![
        layer_norm(&format!("{t}.layernorm_post"), "LayerNorm", &shape, h, true),
        linear(&format!("{a}.fc1"), "patches pixel-shuffled, then up", shuffled, f, pi, false),
        Node::new(format!("{a}.act"), Op::Activation, "GELU", &[shuffled, pi]),
        linear(&format!("{a}.fc2"), "then GELU again", shuffled, po, po, false),
    ];
    vec![
        Section { name: format!("{t}.embeddings"), role: Role::Vision, repeat: 1, nodes: embed },
        Section {
            name: l.clone(),
            role: Role::Vision,
            repeat: v.num_layers,
            nodes: encoder_layer(v, &l, rows, true),
        },
        Section { name: format!("{t}.vision_adapter"), role: Role::Vision, repeat: 1, nodes: post },
    ]
}
