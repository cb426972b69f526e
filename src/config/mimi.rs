//! Kyutai's Mimi audio codec, as Moshi's `audio_encoder_config` nests it (transformers 5.24
//! `configuration_mimi.py`): SEANet convolutions, a transformer after the encoder and before the
//! decoder, a split residual vector quantizer whose codebooks are buffers (not parameters), and
//! the resampling convolutions between the encoder's frame rate and the codec's. Built by
//! `graph/mimi.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{ConfigError, Defaulted, Limit, check_range, deserialize_raw, size};

#[derive(Debug, Clone)]
pub struct MimiConfig {
    pub audio_channels: u64,
    pub hidden_size: u64,
    pub num_filters: u64,
    pub num_residual_layers: u64,
    pub upsampling_ratios: Vec<u64>,
    pub kernel_size: u64,
    pub last_kernel_size: u64,
    pub residual_kernel_size: u64,
    pub compress: u64,
    pub codebook_size: u64,
    pub num_quantizers: u64,
    pub num_semantic_quantizers: u64,
    pub use_conv_shortcut: bool,
    pub vq_hidden: u64,
    pub upsample_groups: u64,
    pub num_layers: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub attention_bias: bool,
    /// The resampling convolutions' stride, when the codec's frame rate differs from the
    /// encoder's (`latent_stride`); None: no resampling layers.
    pub latent_stride: Option<u64>,
    pub has_encoder: bool,
    pub has_decoder: bool,
}

#[derive(Debug, Deserialize)]
struct Raw {
    audio_channels: Option<u64>,
    hidden_size: Option<u64>,
    num_filters: Option<u64>,
    num_residual_layers: Option<u64>,
    upsampling_ratios: Option<Vec<u64>>,
    kernel_size: Option<u64>,
    last_kernel_size: Option<u64>,
    residual_kernel_size: Option<u64>,
    compress: Option<u64>,
    codebook_size: Option<u64>,
    num_quantizers: Option<u64>,
    num_semantic_quantizers: Option<u64>,
    use_conv_shortcut: Option<bool>,
    vector_quantization_hidden_dimension: Option<u64>,
    upsample_groups: Option<u64>,
    num_hidden_layers: Option<u64>,
    intermediate_size: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    attention_bias: Option<bool>,
    sampling_rate: Option<u64>,
}

impl MimiConfig {
    /// Reads the codec's config (an object); errors name the key as written in it.
    pub fn resolve(value: &Value, d: &mut Vec<Defaulted>) -> Result<Self, ConfigError> {
        let r: Raw = deserialize_raw(value)?;
        let hidden_size = size("hidden_size", r.hidden_size, 512, 1 << 16, d)?;
        let num_heads = size("num_attention_heads", r.num_attention_heads, 8, 1 << 12, d)?;
        if hidden_size % num_heads != 0 {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{num_heads} heads do not divide hidden_size {hidden_size}"),
            ));
        }
        let head_dim = size("head_dim", Some(r.head_dim.unwrap_or(hidden_size / num_heads)), 0, 1 << 14, d)?;
        // `upsampling_ratios if upsampling_ratios else [8, 6, 5, 4]`.
        let ratios = match r.upsampling_ratios {
            Some(v) if !v.is_empty() => v,
            _ => vec![8, 6, 5, 4],
        };
        if ratios.len() > 16 || ratios.iter().any(|&x| x == 0 || x > 1 << 10) {
            return Err(ConfigError::field("upsampling_ratios", "expected at most 16 ratios from 1 to 1024"));
        }
        let num_quantizers = size("num_quantizers", r.num_quantizers, 32, 1 << 12, d)?;
        let num_semantic_quantizers = r.num_semantic_quantizers.unwrap_or(1);
        if num_semantic_quantizers >= num_quantizers {
            return Err(ConfigError::field(
                "num_semantic_quantizers",
                format!("{num_semantic_quantizers} is not fewer than num_quantizers {num_quantizers}"),
            ));
        }
        let codebook_size = size("codebook_size", r.codebook_size, 2048, 1 << 24, d)?;
        if !codebook_size.is_power_of_two() {
            return Err(ConfigError::field("codebook_size", format!("{codebook_size} is not a power of 2")));
        }
        // frame_size: the encoder's strides (the ratios) and the downsampling's 2.
        let hop: u64 = ratios.iter().product();
        let sampling_rate = size("sampling_rate", r.sampling_rate, 24_000, 1 << 24, d)?;
        // A written frame rate (`frame_rate`, saved back as `_frame_rate`) wins over the one
        // computed from the strides.
        let written =
            ["_frame_rate", "frame_rate"].iter().find_map(|k| value.get(*k).and_then(Value::as_f64));
        let frame_rate = written.unwrap_or(sampling_rate as f64 / (2 * hop) as f64);
        let encodec_frame_rate = (sampling_rate as f64 / hop as f64).ceil();
        let latent_stride = if frame_rate != encodec_frame_rate {
            let stride = encodec_frame_rate / frame_rate;
            if !(stride.is_finite() && (1.0..=1024.0).contains(&stride)) {
                return Err(ConfigError::field(
                    "sampling_rate",
                    format!("{sampling_rate} over upsampling_ratios gives no usable latent stride"),
                ));
            }
            Some(stride.trunc() as u64)
        } else {
            None
        };
        let upsample_groups = size("upsample_groups", r.upsample_groups, 512, 1 << 16, d)?;
        let has_encoder = !matches!(value.get("encoder_config"), Some(Value::Null));
        let has_decoder = !matches!(value.get("decoder_config"), Some(Value::Null));
        if has_decoder && latent_stride.is_some() && hidden_size % upsample_groups != 0 {
            return Err(ConfigError::field(
                "upsample_groups",
                format!("{upsample_groups} groups do not divide hidden_size {hidden_size}"),
            ));
        }
        let num_filters = size("num_filters", r.num_filters, 64, 1 << 14, d)?;
        let compress = size("compress", r.compress, 2, 1 << 10, d)?;
        Ok(MimiConfig {
            audio_channels: size("audio_channels", r.audio_channels, 1, 64, d)?,
            hidden_size,
            num_filters,
            num_residual_layers: check_range(
                Limit { field: "num_residual_layers", max: 64 },
                r.num_residual_layers.unwrap_or(1).max(1),
            )
            .map(|_| r.num_residual_layers.unwrap_or(1))?,
            upsampling_ratios: ratios,
            kernel_size: size("kernel_size", r.kernel_size, 7, 1 << 10, d)?,
            last_kernel_size: size("last_kernel_size", r.last_kernel_size, 3, 1 << 10, d)?,
            residual_kernel_size: size("residual_kernel_size", r.residual_kernel_size, 3, 1 << 10, d)?,
            compress,
            codebook_size,
            num_quantizers,
            num_semantic_quantizers,
            use_conv_shortcut: r.use_conv_shortcut.unwrap_or(false),
            vq_hidden: size(
                "vector_quantization_hidden_dimension",
                r.vector_quantization_hidden_dimension,
                256,
                1 << 16,
                d,
            )?,
            upsample_groups,
            num_layers: check_range(
                Limit { field: "num_hidden_layers", max: 10_000 },
                r.num_hidden_layers.unwrap_or(8).max(1),
            )
            .map(|_| r.num_hidden_layers.unwrap_or(8))?,
            intermediate_size: size("intermediate_size", r.intermediate_size, 2048, 1 << 20, d)?,
            num_heads,
            num_kv_heads: size("num_key_value_heads", r.num_key_value_heads, 8, 1 << 12, d)?,
            head_dim,
            attention_bias: r.attention_bias.unwrap_or(false),
            latent_stride,
            has_encoder,
            has_decoder,
        })
    }
}
