//! InternVL's vision tower, InternViT (`InternVLVisionModel` under `model.vision_tower`), read from
//! its own config class (`InternVLVisionConfig`: a nested `model_type` is not read): a class token
//! (and a mask token if `use_mask_token`), a biased patch convolution, learned positions for the
//! patches and the class token, layers of q/k/v (`attention_bias`), an optional RMSNorm on q and
//! k over the full width, a biased output projection, an fc1/fc2 MLP, two norms (`norm_type`) and
//! two layer-scale vectors; a final LayerNorm unless `use_mean_pooling`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{layer_norm, linear, rms_norm};
use super::vision::{TowerKind, VisionTower, nested};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

/// InternViT's switches beyond the common fields.
#[derive(Debug, Clone, Serialize)]
pub struct InternVision {
    pub attention_bias: bool,
    pub qk_norm: bool,
    pub rms_norm: bool,
    pub mask_token: bool,
    pub absolute_positions: bool,
    pub mean_pooling: bool,
}

#[derive(Debug, Deserialize)]
struct Raw {
    image_size: Option<Value>,
    patch_size: Option<Value>,
    norm_type: Option<String>,
    attention_bias: Option<bool>,
    use_qk_norm: Option<bool>,
    use_mask_token: Option<bool>,
    use_absolute_position_embeddings: Option<bool>,
    use_mean_pooling: Option<bool>,
    hidden_act: Option<String>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_channels: Option<u64>,
}

/// A size given as one integer or a square `[a, a]` pair (the class stores a pair).
fn square(key: &'static str, v: Option<&Value>) -> Result<Option<u64>, ConfigError> {
    let bad = |v: &Value| ConfigError::field(key, format!("expected an integer or a square pair, found {v}"));
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => match a.as_slice() {
            [x, y] if x == y => x.as_u64().map(Some).ok_or_else(|| bad(x)),
            _ => Err(bad(&Value::Array(a.clone()))),
        },
        Some(v) => v.as_u64().map(Some).ok_or_else(|| bad(v)),
    }
}

pub fn resolve(value: &Value, d: &mut Vec<Defaulted>) -> Result<VisionTower, ConfigError> {
    let raw: Raw = deserialize_raw(value).map_err(|e| nested("vision_config", e))?;
    let sz = super::qwen_vision::size;
    let rms_norm = match raw.norm_type.as_deref() {
        None | Some("layer_norm") => false,
        Some("rms_norm") => true,
        Some(other) => {
            return Err(ConfigError::field(
                "vision_config.norm_type",
                format!("{other:?} is not one InternVL builds (layer_norm, rms_norm)"),
            ));
        }
    };
    let image = square("vision_config.image_size", raw.image_size.as_ref())?;
    let patch = square("vision_config.patch_size", raw.patch_size.as_ref())?;
    Ok(VisionTower {
        kind: TowerKind::InternVit,
        model_type: "internvl_vision".into(),
        hidden_size: sz("hidden_size", raw.hidden_size, 1024, 1 << 16, d)?,
        intermediate_size: sz("intermediate_size", raw.intermediate_size, 4096, 1 << 18, d)?,
        num_layers: sz("num_hidden_layers", raw.num_hidden_layers, 24, 1000, d)?,
        num_heads: sz("num_attention_heads", raw.num_attention_heads, 16, 1 << 12, d)?,
        num_channels: sz("num_channels", raw.num_channels, 3, 64, d)?,
        image_size: sz("image_size", image, 448, 1 << 15, d)?,
        patch_size: sz("patch_size", patch, 14, 1 << 10, d)?,
        use_head: false,
        hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
        qwen: None,
        llama: None,
        intern: Some(InternVision {
            attention_bias: raw.attention_bias.unwrap_or(false),
            qk_norm: raw.use_qk_norm.unwrap_or(false),
            rms_norm,
            mask_token: raw.use_mask_token.unwrap_or(false),
            absolute_positions: raw.use_absolute_position_embeddings.unwrap_or(true),
            mean_pooling: raw.use_mean_pooling.unwrap_or(true),
        }),
    })
}

/// The tower's sections under `t` (`model.vision_tower`), sized at one image.
pub fn sections(v: &VisionTower, x: &InternVision, t: &str) -> Vec<Section> {
    let (h, f, c, p) = (v.hidden_size, v.intermediate_size, v.num_channels, v.patch_size);
    let rows = v.patches() + 1;
    let shape = [rows, h];
    let e = format!("{t}.embeddings");
    let conv = format!("{e}.patch_embeddings.projection");
    let mut tokens = vec![Tensor::new(format!("{e}.cls_token"), &[1, 1, h])];
    if x.mask_token {
        tokens.push(Tensor::new(format!("{e}.mask_token"), &[1, 1, h]));
    }
    let mut embed = vec![
        Node::new("pixel_values", Op::Input, "one image", &[c, v.image_size, v.image_size]),
        Node::new(format!("{e}.cls_token"), Op::Embedding, "class token", &[1, h]).with(tokens),
        Node::new(&conv, Op::Embedding, format!("{p}x{p} patches of {c} channels"), &[rows - 1, h]).with([
            Tensor::new(format!("{conv}.weight"), &[h, c, p, p]),
            Tensor::new(format!("{conv}.bias"), &[h]),
        ]),
    ];
    if x.absolute_positions {
        embed.push(
            Node::new(format!("{e}.position_embeddings"), Op::Embedding, "learned positions", &shape)
                .with([Tensor::new(format!("{e}.position_embeddings"), &[1, rows, h])]),
        );
    }
    let l = format!("{t}.encoder.layer.{{i}}");
    let norm = |name: String, what: &str| {
        if x.rms_norm { rms_norm(&name, what, &shape, h) } else { layer_norm(&name, what, &shape, h, true) }
    };
    let a = format!("{l}.attention");
    let mut layer = vec![norm(format!("{l}.layernorm_before"), "norm before attention")];
    for (m, what) in
        [("q_proj", "query projection"), ("k_proj", "key projection"), ("v_proj", "value projection")]
    {
        layer.push(linear(&format!("{a}.{m}"), what, rows, h, h, x.attention_bias));
    }
    if x.qk_norm {
        layer.push(rms_norm(&format!("{a}.q_norm"), "RMSNorm on queries, full width", &shape, h));
        layer.push(rms_norm(&format!("{a}.k_norm"), "RMSNorm on keys, full width", &shape, h));
    }
    layer.extend([
        Node::new(&a, Op::Attention, format!("{} heads, bidirectional", v.num_heads), &shape),
        linear(&format!("{a}.projection_layer"), "attention output projection", rows, h, h, true),
        Node::new(format!("{l}.lambda_1"), Op::Add, "layer scale, then the residual add", &shape)
            .with([Tensor::new(format!("{l}.lambda_1"), &[h])]),
        norm(format!("{l}.layernorm_after"), "norm before the MLP"),
        linear(&format!("{l}.mlp.fc1"), "MLP up projection", rows, h, f, true),
        Node::new(format!("{l}.mlp.act"), Op::Activation, v.hidden_act.clone(), &[rows, f]),
        linear(&format!("{l}.mlp.fc2"), "MLP down projection", rows, f, h, true),
        Node::new(format!("{l}.lambda_2"), Op::Add, "layer scale, then the residual add", &shape)
            .with([Tensor::new(format!("{l}.lambda_2"), &[h])]),
    ]);
    let mut out = vec![
        Section { name: e, role: Role::Vision, repeat: 1, nodes: embed },
        Section { name: l, role: Role::Vision, repeat: v.num_layers, nodes: layer },
    ];
    if !x.mean_pooling {
        let n = layer_norm(&format!("{t}.layernorm"), "final LayerNorm", &shape, h, true);
        out.push(Section { name: format!("{t}.layernorm"), role: Role::Vision, repeat: 1, nodes: vec![n] });
    }
    out
}
