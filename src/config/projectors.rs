//! Projector settings of the vision-language wrappers that read more than a flag or two (read by
//! `composite.rs`).

use serde_json::Value;

use super::composite::{Projector, top_size};
use super::{ConfigError, Defaulted};
use crate::graph::mllama_vision::LlamaVision;
use crate::graph::vision::VisionTower;

/// A pixel-shuffle factor (2 by default in every config that has one).
pub(super) fn shuffle_factor(
    value: &Value,
    key: &'static str,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    let factor = top_size(value, key, 2, d)?;
    if factor > 64 {
        return Err(ConfigError::field(key, format!("{factor} is beyond any real model (at most 64)")));
    }
    Ok(factor)
}

/// Aya Vision's projector. An image is tiled by its processor, so its token count is not a
/// config fact: none is given.
pub(super) fn aya(
    value: &Value,
    text_hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<(Projector, Option<(u64, String)>), ConfigError> {
    match value.get("vision_feature_select_strategy") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if s == "default" || s == "full" => {}
        Some(other) => {
            return Err(ConfigError::field(
                "vision_feature_select_strategy",
                format!("expected \"default\" or \"full\" (transformers refuses others), found {other}"),
            ));
        }
    }
    let factor = shuffle_factor(value, "downsample_factor", d)?;
    // Not a declared field: the projector reads it with getattr, defaulting to the text width.
    let intermediate = top_size(value, "alignment_intermediate_size", text_hidden, d)?;
    Ok((Projector::PixelShuffleSwiglu { factor, intermediate }, None))
}

/// InternVL's projector: the shuffle is `int(1 / downsample_ratio)` patches a side. Tiling
/// (`crop_to_patches`) is the processor's, so an image's token count is not a config fact.
pub(super) fn internvl(value: &Value) -> Result<(Projector, Option<(u64, String)>), ConfigError> {
    let ratio = match value.get("downsample_ratio") {
        None | Some(Value::Null) => 0.5,
        Some(v) => v
            .as_f64()
            .ok_or_else(|| ConfigError::field("downsample_ratio", format!("expected a number, found {v}")))?,
    };
    let side = 1.0 / ratio;
    if !(side.is_finite() && (1.0..65.0).contains(&side)) {
        return Err(ConfigError::field(
            "downsample_ratio",
            format!("{ratio} shuffles no whole number of patches from 1 to 64 a side"),
        ));
    }
    // int() in Python truncates; side is within 1..65 here.
    Ok((Projector::InternMlp { factor: side.trunc() as u64 }, None))
}

/// LLaVA-NeXT-Video's `vision_resampler`: average or max pooling has no weights; "conv" pools
/// with a biased convolution (`spatial_pool_stride`, `spatial_pool_out_channels`, read with
/// getattr and defaulting to the tower's width).
pub(super) fn video_pool(
    value: &Value,
    mlp: Projector,
    vision_hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Projector, ConfigError> {
    let mode = match value.get("spatial_pool_mode") {
        None | Some(Value::Null) => "average",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(ConfigError::field("spatial_pool_mode", format!("expected a string, found {other}")));
        }
    };
    let stride = shuffle_factor(value, "spatial_pool_stride", d)?;
    match (mode, mlp) {
        ("average" | "max", mlp) => Ok(mlp),
        ("conv", Projector::Mlp2 { bias, feature_layers, .. }) => {
            let out = top_size(value, "spatial_pool_out_channels", vision_hidden, d)?;
            Ok(Projector::PooledMlp2 { bias, feature_layers, stride, out })
        }
        (other, _) => Err(ConfigError::field(
            "spatial_pool_mode",
            format!("{other:?} is not one transformers builds (average, max, conv)"),
        )),
    }
}

/// Mllama's projector (biased, the module itself) and Llama 4's (`linear_1`, no bias, whatever
/// `multi_modal_projector_bias` says). An Mllama image is one `<|image|>` token in the text, its
/// patch states cross-attended; a Llama 4 image is tiled by its processor, so its token count is
/// not a config fact.
pub(super) fn vision_output(v: &VisionTower) -> (Projector, Option<(u64, String)>) {
    match &v.llama {
        Some(LlamaVision::Mllama(m)) => (
            Projector::VisionOutput { input: m.vision_output_dim, bias: true, sub: "" },
            Some((
                1,
                "one <|image|> token per image; its max_num_tiles x ((image_size / patch_size)² + 1) patch states are cached by the cross-attention layers".into(),
            )),
        ),
        Some(LlamaVision::Llama4(x)) => {
            (Projector::VisionOutput { input: x.vision_output_dim, bias: false, sub: ".linear_1" }, None)
        }
        None => (Projector::VisionOutput { input: v.hidden_size, bias: false, sub: "" }, None),
    }
}
