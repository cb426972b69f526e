//! Qwen3-VL's and Qwen3.5's vision transformer (`model.visual`), read from the wrapper's own
//! vision class (`Qwen3VLVisionConfig`, `Qwen3VLMoeVisionConfig`, `Qwen3_5VisionConfig`,
//! `Qwen3_5MoeVisionConfig`: a nested `model_type` is not read). Beyond Qwen2-VL's tower: the 3-D
//! patch convolution has a bias; a learned position table (`pos_embed`, `num_position_embeddings`
//! rows, bilinearly resampled to each image's grid) is added to the patches beside the 2-D rotary
//! positions; the blocks are LayerNorm, fused biased qkv, and a biased `linear_fc1` / `linear_fc2`
//! MLP; and Qwen3-VL adds one DeepStack merger per `deepstack_visual_indexes` entry
//! (`deepstack_merger_list`: a LayerNorm over the concatenated patches, then the merger's two
//! linears), whose outputs are added to the language model's first layers. They are counted with
//! the tower; the projector is `visual.merger` (a LayerNorm over the tower's width, then the two
//! linears). Qwen3.5's class has no DeepStack key. Images have no fixed size: the graph's rows are
//! one merged token's patches.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{layer_norm, linear};
use super::qwen_vision::{QwenVision, size, tower};
use super::vision::{TowerKind, VisionTower, nested};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

/// What Qwen3-VL's tower has beyond Qwen2-VL's fields.
#[derive(Debug, Clone, Serialize)]
pub struct Qwen3Extras {
    /// Rows of the learned position table.
    pub num_position_embeddings: u64,
    /// DeepStack mergers (`len(deepstack_visual_indexes)`).
    pub deepstack_mergers: u64,
}

#[derive(Debug, Deserialize)]
struct Raw {
    depth: Option<u64>,
    num_hidden_layers: Option<u64>,
    hidden_size: Option<u64>,
    out_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    in_channels: Option<u64>,
    patch_size: Option<u64>,
    temporal_patch_size: Option<u64>,
    spatial_merge_size: Option<u64>,
    num_position_embeddings: Option<u64>,
    deepstack_visual_indexes: Option<Vec<i64>>,
    hidden_act: Option<String>,
}

/// The vision classes this file reads.
pub fn is_qwen3(model_type: &str) -> bool {
    matches!(model_type, "qwen3_vl_vision" | "qwen3_vl_moe_vision" | "qwen3_5_vision" | "qwen3_5_moe_vision")
}

/// Reads a Qwen3-VL or Qwen3.5 `vision_config` (the classes' defaults are the same; only Qwen3-VL's
/// read `deepstack_visual_indexes`, default `[8, 16, 24]`).
pub fn resolve(value: &Value, model_type: &str, d: &mut Vec<Defaulted>) -> Result<VisionTower, ConfigError> {
    let raw: Raw = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    let sz = size;
    // attribute_map: num_hidden_layers is depth, num_attention_heads is num_heads.
    let depth = sz("depth", raw.depth.or(raw.num_hidden_layers), 27, 1000, d)?;
    let heads = sz("num_heads", raw.num_heads.or(raw.num_attention_heads), 16, 1 << 12, d)?;
    let deepstack_mergers = if model_type.starts_with("qwen3_vl") {
        match raw.deepstack_visual_indexes {
            Some(list) if list.len() > 1000 => {
                return Err(ConfigError::field(
                    "vision_config.deepstack_visual_indexes",
                    format!("{} entries is beyond any real model (at most 1000)", list.len()),
                ));
            }
            Some(list) => list.len() as u64,
            None => {
                d.push(Defaulted {
                    field: "deepstack_visual_indexes",
                    value: "[8, 16, 24] (vision_config)".into(),
                });
                3
            }
        }
    } else {
        0
    };
    let extras = Qwen3Extras {
        num_position_embeddings: sz(
            "num_position_embeddings",
            raw.num_position_embeddings,
            2304,
            1 << 24,
            d,
        )?,
        deepstack_mergers,
    };
    let qwen = QwenVision {
        temporal_patch_size: sz("temporal_patch_size", raw.temporal_patch_size, 2, 64, d)?,
        spatial_merge_size: sz("spatial_merge_size", raw.spatial_merge_size, 2, 64, d)?,
        out_hidden_size: sz("out_hidden_size", raw.out_hidden_size, 3584, 1 << 16, d)?,
        v3: Some(extras),
    };
    let sizes = [
        sz("hidden_size", raw.hidden_size, 1152, 1 << 16, d)?,
        sz("intermediate_size", raw.intermediate_size, 4304, 1 << 18, d)?,
        depth,
        heads,
        sz("in_channels", raw.in_channels, 3, 64, d)?,
        sz("patch_size", raw.patch_size, 16, 1 << 10, d)?,
    ];
    let act = raw.hidden_act.unwrap_or_else(|| "gelu_pytorch_tanh".into());
    Ok(tower(TowerKind::Qwen3Vl, model_type, sizes, act, qwen))
}

/// The learned position table, added to the patches (`pos_embed`).
pub(super) fn positions(x: &Qwen3Extras, t: &str, rows: u64, h: u64) -> Node {
    Node::new(
        format!("{t}.pos_embed"),
        Op::Embedding,
        "learned positions, resampled to the image's grid",
        &[rows, h],
    )
    .with([Tensor::new(format!("{t}.pos_embed.weight"), &[x.num_position_embeddings, h])])
}

/// The DeepStack mergers (`deepstack_merger_list`), none when the list is empty.
pub(super) fn deepstack(v: &VisionTower, q: &QwenVision, x: &Qwen3Extras, t: &str) -> Option<Section> {
    let m = format!("{t}.deepstack_merger_list.{{i}}");
    (x.deepstack_mergers > 0).then(|| Section {
        name: m.clone(),
        role: Role::Vision,
        repeat: x.deepstack_mergers,
        nodes: merger_nodes(v, q, &m, true),
    })
}

/// The patch merger (`visual.merger`): a LayerNorm over the tower's width, then two linears over
/// `spatial_merge_size`² patches concatenated, to the merger's output width.
pub fn merger(v: &VisionTower, q: &QwenVision, m: &str) -> Vec<Node> {
    merger_nodes(v, q, m, false)
}

/// A merger; a DeepStack one norms after the patches are concatenated (`use_postshuffle_norm`).
fn merger_nodes(v: &VisionTower, q: &QwenVision, m: &str, postshuffle: bool) -> Vec<Node> {
    let (h, merge) = (v.hidden_size, q.spatial_merge_size);
    let wide = h * merge * merge;
    let norm = if postshuffle {
        layer_norm(&format!("{m}.norm"), "LayerNorm on the concatenated patches", &[1, wide], wide, true)
    } else {
        layer_norm(&format!("{m}.norm"), "LayerNorm", &[merge * merge, h], h, true)
    };
    vec![
        norm,
        linear(
            &format!("{m}.linear_fc1"),
            &format!("{merge}x{merge} patches concatenated"),
            1,
            wide,
            wide,
            true,
        ),
        Node::new(format!("{m}.act_fn"), Op::Activation, "GELU", &[1, wide]),
        linear(&format!("{m}.linear_fc2"), "to the language model's width", 1, wide, q.out_hidden_size, true),
    ]
}
