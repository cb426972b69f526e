//! Qwen2-VL's and Qwen2.5-VL's vision transformers (`model.visual`), read from their own config
//! classes (`Qwen2VLVisionConfig`, `Qwen2_5_VLVisionConfig`: a nested `model_type` is not read):
//! a bias-free 3-D patch convolution over `temporal_patch_size` frames, rotary positions (no
//! weights), blocks of fused-qkv attention and an MLP (Qwen2-VL: LayerNorms and fc1/fc2 at
//! `mlp_ratio`; Qwen2.5-VL: RMSNorms and a biased gated MLP), and the patch merger that is the
//! projector (`visual.merger`, built in `graph/composite.rs`). Images have no fixed size: the
//! graph's rows are one merged token's patches.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{gated_mlp, layer_norm, linear, rms_norm};
use super::vision::{TowerKind, VisionTower, nested};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

/// What a Qwen tower has beyond the common fields.
#[derive(Debug, Clone, Serialize)]
pub struct QwenVision {
    pub temporal_patch_size: u64,
    pub spatial_merge_size: u64,
    /// The merger's output width (Qwen2-VL's `hidden_size`, Qwen2.5-VL's `out_hidden_size`).
    pub out_hidden_size: u64,
    /// Qwen3-VL's and Qwen3.5's position table and DeepStack mergers (`graph/qwen3_vision.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v3: Option<super::qwen3_vision::Qwen3Extras>,
}

#[derive(Debug, Deserialize)]
struct Raw {
    depth: Option<u64>,
    num_hidden_layers: Option<u64>,
    embed_dim: Option<u64>,
    hidden_size: Option<u64>,
    out_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    mlp_ratio: Option<u64>,
    num_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    in_channels: Option<u64>,
    patch_size: Option<u64>,
    temporal_patch_size: Option<u64>,
    spatial_merge_size: Option<u64>,
    hidden_act: Option<String>,
}

/// A size under `vision_config`, its errors and defaults named so.
pub(super) fn size(
    field: &'static str,
    v: Option<u64>,
    def: u64,
    max: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    let mut local = vec![];
    let n = crate::config::size(field, v, def, max, &mut local).map_err(|e| nested("vision_config", e))?;
    d.extend(
        local
            .into_iter()
            .map(|x| Defaulted { field: x.field, value: format!("{} (vision_config)", x.value) }),
    );
    Ok(n)
}

/// Reads a Qwen `vision_config` (`qwen2_vl_vision` or `qwen2_5_vl_vision`; Qwen3-VL's and
/// Qwen3.5's classes in `qwen3_vision.rs`).
pub fn resolve(value: &Value, model_type: &str, d: &mut Vec<Defaulted>) -> Result<VisionTower, ConfigError> {
    if super::qwen3_vision::is_qwen3(model_type) {
        return super::qwen3_vision::resolve(value, model_type, d);
    }
    let raw: Raw = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    let two_five = model_type == "qwen2_5_vl_vision";
    let sz = size;
    // attribute_map: num_hidden_layers is depth, num_attention_heads is num_heads.
    let depth = sz("depth", raw.depth.or(raw.num_hidden_layers), 32, 1000, d)?;
    let heads = sz("num_heads", raw.num_heads.or(raw.num_attention_heads), 16, 1 << 12, d)?;
    let (width, ffn, out) = if two_five {
        let w = sz("hidden_size", raw.hidden_size, 3584, 1 << 16, d)?;
        (
            w,
            sz("intermediate_size", raw.intermediate_size, 3420, 1 << 18, d)?,
            sz("out_hidden_size", raw.out_hidden_size, 3584, 1 << 16, d)?,
        )
    } else {
        let w = sz("embed_dim", raw.embed_dim, 1280, 1 << 16, d)?;
        let ratio = sz("mlp_ratio", raw.mlp_ratio, 4, 64, d)?;
        (w, w * ratio, sz("hidden_size", raw.hidden_size, 3584, 1 << 16, d)?)
    };
    let extras = QwenVision {
        temporal_patch_size: sz("temporal_patch_size", raw.temporal_patch_size, 2, 64, d)?,
        spatial_merge_size: sz("spatial_merge_size", raw.spatial_merge_size, 2, 64, d)?,
        out_hidden_size: out,
        v3: None,
    };
    let act = raw.hidden_act.unwrap_or_else(|| if two_five { "silu" } else { "quick_gelu" }.into());
    let kind = if two_five { TowerKind::Qwen25Vl } else { TowerKind::Qwen2Vl };
    let channels = sz("in_channels", raw.in_channels, 3, 64, d)?;
    let patch = sz("patch_size", raw.patch_size, 14, 1 << 10, d)?;
    Ok(tower(kind, model_type, [width, ffn, depth, heads, channels, patch], act, extras))
}

/// A Qwen tower from its sizes (hidden, MLP, depth, heads, channels, patch): no image size (the
/// processor resizes each image within its pixel bounds, not a config fact), no pooling head.
pub(super) fn tower(
    kind: TowerKind,
    model_type: &str,
    [hidden_size, intermediate_size, num_layers, num_heads, num_channels, patch_size]: [u64; 6],
    hidden_act: String,
    qwen: QwenVision,
) -> VisionTower {
    VisionTower {
        kind,
        model_type: model_type.to_string(),
        hidden_size,
        intermediate_size,
        num_layers,
        num_heads,
        num_channels,
        image_size: 0,
        patch_size,
        use_head: false,
        hidden_act,
        qwen: Some(qwen),
        intern: None,
        llama: None,
    }
}

/// The tower's sections under `t` (`model.visual`), at one merged token's patches. Qwen3-VL's
/// (`graph/qwen3_vision.rs`) adds a bias to the patch convolution, the learned position table,
/// `linear_fc1` / `linear_fc2` names and its DeepStack mergers.
pub fn sections(v: &VisionTower, q: &QwenVision, t: &str) -> Vec<Section> {
    let (h, f, c, p, tp) =
        (v.hidden_size, v.intermediate_size, v.num_channels, v.patch_size, q.temporal_patch_size);
    let rows = q.spatial_merge_size * q.spatial_merge_size;
    let mut conv = vec![Tensor::new(format!("{t}.patch_embed.proj.weight"), &[h, c, tp, p, p])];
    if q.v3.is_some() {
        conv.push(Tensor::new(format!("{t}.patch_embed.proj.bias"), &[h]));
    }
    let mut embed = vec![
        Node::new("pixel_values", Op::Input, "patches of any image, flattened", &[rows, c * tp * p * p]),
        Node::new(
            format!("{t}.patch_embed.proj"),
            Op::Embedding,
            format!("{tp}x{p}x{p} patches of {c} channels"),
            &[rows, h],
        )
        .with(conv),
    ];
    embed.extend(q.v3.as_ref().map(|x| super::qwen3_vision::positions(x, t, rows, h)));
    let l = format!("{t}.blocks.{{i}}");
    let two_five = v.kind == TowerKind::Qwen25Vl;
    let norm = |name: &str, what: &str| {
        if two_five {
            rms_norm(name, what, &[rows, h], h)
        } else {
            layer_norm(name, what, &[rows, h], h, true)
        }
    };
    let mut layer = vec![
        norm(&format!("{l}.norm1"), "norm before attention"),
        linear(&format!("{l}.attn.qkv"), "fused query, key, value", rows, h, 3 * h, true),
        Node::new(
            format!("{l}.attn"),
            Op::Attention,
            format!("{} heads, 2-D rotary", v.num_heads),
            &[rows, h],
        ),
        linear(&format!("{l}.attn.proj"), "attention output projection", rows, h, h, true),
        norm(&format!("{l}.norm2"), "norm before the MLP"),
    ];
    let (up, down) = if q.v3.is_some() { ("linear_fc1", "linear_fc2") } else { ("fc1", "fc2") };
    if two_five {
        layer.extend(gated_mlp(&format!("{l}.mlp"), rows, h, f, &v.hidden_act, true, false));
    } else {
        layer.push(linear(&format!("{l}.mlp.{up}"), "MLP up projection", rows, h, f, true));
        layer.push(Node::new(format!("{l}.mlp.act"), Op::Activation, v.hidden_act.clone(), &[rows, f]));
        layer.push(linear(&format!("{l}.mlp.{down}"), "MLP down projection", rows, f, h, true));
    }
    let mut out = vec![
        Section { name: format!("{t}.patch_embed"), role: Role::Vision, repeat: 1, nodes: embed },
        Section { name: l, role: Role::Vision, repeat: v.num_layers, nodes: layer },
    ];
    out.extend(q.v3.as_ref().and_then(|x| super::qwen3_vision::deepstack(v, q, x, t)));
    out
}

/// The patch merger (`visual.merger`): a norm over the tower's width, then two linears over
/// `spatial_merge_size`² patches concatenated, to the merger's output width.
pub fn merger(v: &VisionTower, q: &QwenVision, m: &str) -> Vec<Node> {
    if q.v3.is_some() {
        return super::qwen3_vision::merger(v, q, m);
    }
    let (h, merge) = (v.hidden_size, q.spatial_merge_size);
    let wide = h * merge * merge;
    let ln = if v.kind == TowerKind::Qwen25Vl {
        rms_norm(&format!("{m}.ln_q"), "RMSNorm", &[merge * merge, h], h)
    } else {
        layer_norm(&format!("{m}.ln_q"), "LayerNorm", &[merge * merge, h], h, true)
    };
    vec![
        ln,
        linear(&format!("{m}.mlp.0"), &format!("{merge}x{merge} patches concatenated"), 1, wide, wide, true),
        Node::new(format!("{m}.mlp.1"), Op::Activation, "GELU", &[1, wide]),
        linear(&format!("{m}.mlp.2"), "to the language model's width", 1, wide, q.out_hidden_size, true),
    ]
}
