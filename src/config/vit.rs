//! ViT: a pre-LayerNorm transformer encoder over image patches (Dosovitskiy et al., 2020).
//! Defaults are those of transformers' `ViTConfig` (ViT-B/16 at 224 pixels). It has no
//! vocabulary: its input is pixels, cut into `patch_size` squares by a strided convolution.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::UnknownClass;
use super::{Common, ConfigError, Defaulted, Limit, check_range, class_or, flag, num_labels, size};

/// `image_size` and `patch_size` are an int or a (height, width) pair.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged)]
enum Side {
    Square(u64),
    Pair([u64; 2]),
}

impl Side {
    fn hw(self) -> (u64, u64) {
        match self {
            Side::Square(s) => (s, s),
            Side::Pair([h, w]) => (h, w),
        }
    }
}

/// Image and patch sides are kept to 65,536 pixels and channels to 1,024, so that the patch
/// projection (hidden x channels x patch x patch) stays far from overflow.
const MAX_SIDE: u64 = 1 << 16;

#[derive(Debug, Deserialize)]
struct Raw {
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    intermediate_size: Option<u64>,
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    image_size: Option<Side>,
    patch_size: Option<Side>,
    num_channels: Option<u64>,
    qkv_bias: Option<bool>,
    encoder_stride: Option<u64>,
    pooler_output_size: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VitHead {
    /// `ViTModel`, with its pooler.
    Model,
    /// `ViTForImageClassification`: no pooler; a classifier on the first token when
    /// `num_labels` > 0, an identity otherwise.
    ImageClassification { num_labels: u64 },
    /// `ViTForMaskedImageModeling`: a mask token and a 1x1-convolution pixel decoder.
    MaskedImageModeling,
}

#[derive(Debug, Clone, Serialize)]
pub struct VitConfig {
    pub class: String,
    pub head: VitHead,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub image_size: (u64, u64),
    pub patch_size: (u64, u64),
    pub num_channels: u64,
    pub qkv_bias: bool,
    pub encoder_stride: u64,
    pub pooler_output_size: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl VitConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let hidden_size = size("hidden_size", raw.hidden_size, 768, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 12, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 3072, 1 << 22, &mut d)?;
        let image = raw.image_size.unwrap_or_else(|| {
            d.push(Defaulted { field: "image_size", value: "224".into() });
            Side::Square(224)
        });
        let patch = raw.patch_size.unwrap_or_else(|| {
            d.push(Defaulted { field: "patch_size", value: "16".into() });
            Side::Square(16)
        });
        let (ih, iw) = image.hw();
        let (ph, pw) = patch.hw();
        let image_size = (
            check_range(Limit { field: "image_size", max: MAX_SIDE }, ih)?,
            check_range(Limit { field: "image_size", max: MAX_SIDE }, iw)?,
        );
        let patch_size = (
            check_range(Limit { field: "patch_size", max: MAX_SIDE }, ph)?,
            check_range(Limit { field: "patch_size", max: MAX_SIDE }, pw)?,
        );
        if ph > ih || pw > iw {
            return Err(ConfigError::field(
                "patch_size",
                format!(
                    "a {ph}x{pw} patch does not fit in a {ih}x{iw} image: there would be no patch to embed"
                ),
            ));
        }
        let num_channels = size("num_channels", raw.num_channels, 3, 1 << 10, &mut d)?;
        let qkv_bias = flag("qkv_bias", raw.qkv_bias, true, &mut d);
        let encoder_stride = size("encoder_stride", raw.encoder_stride, 16, 1 << 10, &mut d)?;
        // `pooler_output_size` falls back to the hidden size when unset (or null / 0).
        let pooler_output_size = match raw.pooler_output_size {
            Some(n) if n > 0 => check_range(Limit { field: "pooler_output_size", max: 1 << 18 }, n)?,
            _ => hidden_size,
        };
        let layer_norm_eps = raw.layer_norm_eps.unwrap_or(1e-12);
        let hidden_act = raw.hidden_act.unwrap_or_else(|| "gelu".into());
        let class = class_or(common, "ViTModel", &mut d);
        let head = match class.as_str() {
            "ViTModel" => VitHead::Model,
            "ViTForImageClassification" => {
                let (n, was_defaulted) = num_labels(value)?;
                if was_defaulted {
                    d.push(Defaulted { field: "num_labels", value: n.to_string() });
                }
                if n > 1 << 20 {
                    return Err(ConfigError::field(
                        "num_labels",
                        format!("{n} labels is not a usable classifier"),
                    ));
                }
                VitHead::ImageClassification { num_labels: n }
            }
            "ViTForMaskedImageModeling" => VitHead::MaskedImageModeling,
            _ => return Err(ConfigError::field("architectures[0]", UnknownClass(class).to_string())),
        };
        Ok(VitConfig {
            class,
            head,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            image_size,
            patch_size,
            num_channels,
            qkv_bias,
            encoder_stride,
            pooler_output_size,
            layer_norm_eps,
            hidden_act,
            defaulted: d,
        })
    }

    /// `(image height // patch height) * (image width // patch width)`, as ViTPatchEmbeddings.
    pub fn num_patches(&self) -> u64 {
        (self.image_size.0 / self.patch_size.0) * (self.image_size.1 / self.patch_size.1)
    }

    pub fn dims(&self) -> super::Dims {
        let tokens = self.num_patches() + 1;
        // No token vocabulary: the input is pixels. The lints that read a vocabulary skip 0.
        // The sequence is the patches plus the [CLS] token; the position table has exactly
        // that many rows (other resolutions need `interpolate_pos_encoding`).
        super::Dims {
            layer_norm_eps: self.layer_norm_eps,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.intermediate_size,
                0,
                tokens,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(vit, VitConfig);

    #[test]
    fn sizes_may_be_pairs() {
        let c = vit(r#"{"model_type": "vit", "image_size": [384, 224], "patch_size": 32}"#).unwrap();
        assert_eq!(c.num_patches(), 12 * 7);
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "vit", "patch_size": 0}"#, "patch_size"),
            (r#"{"model_type": "vit", "image_size": 8, "patch_size": 16}"#, "patch_size"),
            (r#"{"model_type": "vit", "image_size": "224"}"#, "image_size"),
            (r#"{"model_type": "vit", "num_channels": 0}"#, "num_channels"),
            (r#"{"model_type": "vit", "image_size": 1048576, "patch_size": 1048576}"#, "image_size"),
            (r#"{"model_type": "vit", "architectures": ["ViTForMaskedLM"]}"#, "architectures[0]"),
        ] {
            crate::config::testing::assert_field(vit(text), text, field);
        }
    }
}
