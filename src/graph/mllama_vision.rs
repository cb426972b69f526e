//! Llama 3.2 Vision's tower (`MllamaVisionModel` under `model.vision_model`), read from its own
//! config class (`MllamaVisionConfig`: a nested `model_type` is not read): a bias-free patch
//! convolution, a class token, gated position embeddings (one table for a tile's patches, one per
//! aspect ratio for all tiles' patches), gated tile embeddings before and after the first encoder,
//! a local encoder of `num_hidden_layers` and a global encoder of `num_global_layers` whose layers
//! gate their attention and MLP outputs. Its layers (bias-free attention, a biased fc1/fc2 MLP,
//! two LayerNorms) are Llama 4's tower's too (`graph/llama4_vision.rs`), which calls
//! [`encoder_layer`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{layer_norm, linear};
use super::qwen_vision::size;
use super::vision::{TowerKind, VisionTower, nested};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

/// What Llama 3.2 Vision's and Llama 4's towers have beyond the common fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlamaVision {
    Mllama(MllamaVision),
    Llama4(super::llama4_vision::Llama4Vision),
}

#[derive(Debug, Clone, Serialize)]
pub struct MllamaVision {
    pub global_layers: u64,
    pub max_num_tiles: u64,
    /// `len(supported_aspect_ratios)`: the tile-embedding tables hold one more row.
    pub aspect_ratios: u64,
    /// The projector's input width (the last state and the intermediate layers' concatenated).
    pub vision_output_dim: u64,
}

/// The keys both towers' config classes read alike.
#[derive(Debug, Deserialize)]
struct Sizes {
    hidden_size: Option<u64>,
    hidden_act: Option<String>,
    num_hidden_layers: Option<u64>,
    num_channels: Option<u64>,
    intermediate_size: Option<u64>,
    vision_output_dim: Option<u64>,
    image_size: Option<u64>,
    patch_size: Option<u64>,
}

/// A tower read as both config classes read it: `defaults` are the class's width, MLP and
/// layers; `heads` the heads' key, value and default (a width they do not divide has no
/// `head_dim`); `llama` what the class reads beyond, given `vision_output_dim`.
pub(super) fn tower(
    value: &Value,
    (kind, model_type): (TowerKind, &str),
    [hidden, ffn, layers]: [u64; 3],
    (field, heads, default_heads): (&'static str, Option<u64>, u64),
    d: &mut Vec<Defaulted>,
    llama: impl FnOnce(u64, &mut Vec<Defaulted>) -> Result<LlamaVision, ConfigError>,
) -> Result<VisionTower, ConfigError> {
    let raw: Sizes = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    let hidden = size("hidden_size", raw.hidden_size, hidden, 1 << 16, d)?;
    let heads = size(field, heads, default_heads, 1 << 12, d)?;
    let output = size("vision_output_dim", raw.vision_output_dim, 7680, 1 << 20, d)?;
    Ok(VisionTower {
        kind,
        model_type: model_type.into(),
        hidden_size: hidden,
        intermediate_size: size("intermediate_size", raw.intermediate_size, ffn, 1 << 18, d)?,
        num_layers: size("num_hidden_layers", raw.num_hidden_layers, layers, 1000, d)?,
        num_heads: crate::config::dividing_heads((field, heads), hidden)
            .map_err(|e| nested("vision_config", e))?,
        num_channels: size("num_channels", raw.num_channels, 3, 64, d)?,
        image_size: size("image_size", raw.image_size, 448, 1 << 15, d)?,
        patch_size: size("patch_size", raw.patch_size, 14, 1 << 10, d)?,
        use_head: false,
        hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
        qwen: None,
        intern: None,
        llama: Some(llama(output, d)?),
    })
}

#[derive(Debug, Deserialize)]
struct Raw {
    num_global_layers: Option<u64>,
    attention_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    max_num_tiles: Option<u64>,
    supported_aspect_ratios: Option<Vec<Vec<u64>>>,
}

pub fn resolve(value: &Value, d: &mut Vec<Defaulted>) -> Result<VisionTower, ConfigError> {
    let raw: Raw = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    // attribute_map: num_attention_heads is attention_heads.
    let heads = ("attention_heads", raw.num_attention_heads.or(raw.attention_heads), 16);
    let tower = tower(
        value,
        (TowerKind::Mllama, "mllama_vision_model"),
        [1280, 5120, 32],
        heads,
        d,
        |out, d| {
            let tiles = size("max_num_tiles", raw.max_num_tiles, 4, 1 << 10, d)?;
            let aspect_ratios = match raw.supported_aspect_ratios {
                Some(list) => list.len() as u64,
                // MllamaVisionConfig.validate_architecture: the default list is for 4 tiles only.
                None if tiles != 4 => {
                    return Err(ConfigError::field(
                        "vision_config.max_num_tiles",
                        format!(
                            "{tiles} tiles with the default supported_aspect_ratios, which transformers refuses (they are for 4)"
                        ),
                    ));
                }
                None => 8,
            };
            let global_layers = size("num_global_layers", raw.num_global_layers, 8, 1000, d)?;
            Ok(LlamaVision::Mllama(MllamaVision {
                global_layers,
                max_num_tiles: tiles,
                aspect_ratios,
                vision_output_dim: out,
            }))
        },
    )?;
    // Every tile's patch states are cached by each cross-attention layer.
    match tower.cross_tokens() {
        Some(n) if n > 1 << 24 => Err(ConfigError::field(
            "vision_config.image_size",
            format!("{n} patch states an image is beyond any real model (at most 2^24)"),
        )),
        _ => Ok(tower),
    }
}

/// One encoder layer under `l`: LayerNorm, q/k/v/o (`attn_bias`), LayerNorm, fc1/fc2 (biased).
pub(super) fn encoder_layer(v: &VisionTower, l: &str, rows: u64, attn_bias: bool) -> Vec<Node> {
    let (h, f) = (v.hidden_size, v.intermediate_size);
    let shape = [rows, h];
    let a = format!("{l}.self_attn");
    vec![
        layer_norm(&format!("{l}.input_layernorm"), "LayerNorm before attention", &shape, h, true),
        linear(&format!("{a}.q_proj"), "query projection", rows, h, h, attn_bias),
        linear(&format!("{a}.k_proj"), "key projection", rows, h, h, attn_bias),
        linear(&format!("{a}.v_proj"), "value projection", rows, h, h, attn_bias),
        Node::new(&a, Op::Attention, format!("{} heads, bidirectional", v.num_heads), &shape),
        linear(&format!("{a}.o_proj"), "attention output projection", rows, h, h, attn_bias),
        layer_norm(&format!("{l}.post_attention_layernorm"), "LayerNorm before the MLP", &shape, h, true),
        linear(&format!("{l}.mlp.fc1"), "MLP up projection", rows, h, f, true),
        Node::new(format!("{l}.mlp.act"), Op::Activation, v.hidden_act.clone(), &[rows, f]),
        linear(&format!("{l}.mlp.fc2"), "MLP down projection", rows, f, h, true),
    ]
}

/// A learned table or scalar `name` (one tensor of `shape`), as a node of output `out`.
pub(super) fn table(name: String, what: &str, out: &[u64], shape: &[u64]) -> Node {
    Node::new(&name, Op::Embedding, what, out).with([Tensor::new(name.clone(), shape)])
}

/// A tile embedding: one row per aspect ratio (plus one), every tile's vector in it, and its gate.
fn tile_embedding(t: &str, what: &str, out: &[u64], rows: u64, width: u64) -> Node {
    Node::new(t, Op::Embedding, what, out).with([
        Tensor::new(format!("{t}.embedding.weight"), &[rows, width]),
        Tensor::new(format!("{t}.gate"), &[1]),
    ])
}

fn section(name: String, repeat: u64, nodes: Vec<Node>) -> Section {
    Section { name, role: Role::Vision, repeat, nodes }
}

/// The tower's sections under `t` (`model.vision_model`), at one image of `max_num_tiles` tiles.
pub fn sections(v: &VisionTower, m: &MllamaVision, t: &str) -> Vec<Section> {
    let (h, c, p) = (v.hidden_size, v.num_channels, v.patch_size);
    let per_tile = v.patches() + 1;
    let rows = m.max_num_tiles * per_tile;
    let shape = [rows, h];
    let ratios = m.aspect_ratios + 1;
    let g = format!("{t}.gated_positional_embedding");
    let embed = vec![
        Node::new(
            "pixel_values",
            Op::Input,
            "one image's tiles",
            &[m.max_num_tiles, c, v.image_size, v.image_size],
        ),
        table(
            format!("{t}.patch_embedding.weight"),
            &format!("{p}x{p} patches of {c} channels"),
            &shape,
            &[h, c, p, p],
        ),
        table(format!("{t}.class_embedding"), "class token per tile", &[m.max_num_tiles, h], &[h]),
        tile_embedding(
            &format!("{t}.pre_tile_positional_embedding"),
            "gated tile embedding per aspect ratio",
            &shape,
            ratios,
            m.max_num_tiles * h,
        ),
        Node::new(
            &g,
            Op::Embedding,
            "gated positions: per patch, and per aspect ratio for all tiles",
            &shape,
        )
        .with([
            Tensor::new(format!("{g}.gate"), &[1]),
            Tensor::new(format!("{g}.embedding"), &[per_tile, h]),
            Tensor::new(format!("{g}.tile_embedding.weight"), &[ratios, m.max_num_tiles * per_tile * h]),
        ]),
        layer_norm(&format!("{t}.layernorm_pre"), "LayerNorm", &shape, h, true),
    ];
    let local = format!("{t}.transformer.layers.{{i}}");
    let global = format!("{t}.global_transformer.layers.{{i}}");
    let between = vec![
        layer_norm(&format!("{t}.layernorm_post"), "LayerNorm", &shape, h, true),
        tile_embedding(
            &format!("{t}.post_tile_positional_embedding"),
            "gated tile embedding per aspect ratio",
            &shape,
            ratios,
            m.max_num_tiles * h,
        ),
    ];
    let mut global_layer = encoder_layer(v, &global, rows, false);
    global_layer.insert(6, table(format!("{global}.gate_attn"), "tanh gate on attention", &shape, &[1]));
    global_layer.push(table(format!("{global}.gate_ffn"), "tanh gate on the MLP", &shape, &[1]));
    vec![
        section(format!("{t}.embeddings"), 1, embed),
        section(local.clone(), v.num_layers, encoder_layer(v, &local, rows, false)),
        section(format!("{t}.layernorm_post"), 1, between),
        section(global, m.global_layers, global_layer),
    ]
}

impl LlamaVision {
    /// The tower's sections under `t`.
    pub(super) fn sections(&self, v: &VisionTower, t: &str) -> Vec<Section> {
        match self {
            LlamaVision::Mllama(m) => sections(v, m, t),
            LlamaVision::Llama4(x) => super::llama4_vision::sections(v, x, t),
        }
    }
}

impl VisionTower {
    /// Llama 3.2 Vision: the patch states one image leaves in each cross-attention layer's
    /// cache, `max_num_tiles x ((image_size / patch_size)² + 1)`; none for other towers.
    pub fn cross_tokens(&self) -> Option<u64> {
        match &self.llama {
            Some(LlamaVision::Mllama(m)) => Some(m.max_num_tiles * (self.patches() + 1)),
            _ => None,
        }
    }
}
