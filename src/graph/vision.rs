//! Vision towers of vision-language models, as transformers 5.x builds them under
//! `model.vision_tower.`: SigLIP (a biased patch convolution, learned positions, LayerNorm layers,
//! an optional attention-pooling head), CLIP (a class token, `pre_layrnorm`) and Pixtral (RMSNorm
//! layers, a gated MLP, no biases, rotary positions), read from `vision_config` with each config
//! class's defaults; errors name the key under `vision_config.`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::blocks::{gated_mlp, layer_norm, linear, rms_norm};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::{ConfigError, Defaulted, deserialize_raw};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TowerKind {
    Siglip,
    Clip,
    Pixtral,
    Qwen2Vl,
    Qwen25Vl,
    Qwen3Vl,
    InternVit,
    Mllama,
    Llama4,
}

#[derive(Debug, Clone, Serialize)]
pub struct VisionTower {
    pub kind: TowerKind,
    pub model_type: String,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_channels: u64,
    pub image_size: u64,
    pub patch_size: u64,
    /// SigLIP's attention-pooling head (`vision_use_head`).
    pub use_head: bool,
    pub hidden_act: String,
    /// Qwen2-VL's and Qwen2.5-VL's merge and output widths (`graph/qwen_vision.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qwen: Option<super::qwen_vision::QwenVision>,
    /// InternViT's switches (`graph/intern_vision.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intern: Option<super::intern_vision::InternVision>,
    /// Llama 3.2 Vision's and Llama 4's (`graph/mllama_vision.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llama: Option<super::mllama_vision::LlamaVision>,
}

#[derive(Debug, Deserialize)]
struct Raw {
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_channels: Option<u64>,
    image_size: Option<u64>,
    patch_size: Option<u64>,
    vision_use_head: Option<bool>,
    hidden_act: Option<String>,
}

/// A config class's defaults: hidden, ffn, layers, heads, image, patch, head, activation.
type ClassDefaults = (u64, u64, u64, u64, u64, u64, bool, &'static str);

fn class_defaults(model_type: &str) -> Option<(TowerKind, ClassDefaults)> {
    match model_type {
        "siglip_vision_model" => {
            Some((TowerKind::Siglip, (768, 3072, 12, 12, 224, 16, true, "gelu_pytorch_tanh")))
        }
        "clip_vision_model" => Some((TowerKind::Clip, (768, 3072, 12, 12, 224, 32, false, "quick_gelu"))),
        "pixtral" => Some((TowerKind::Pixtral, (1024, 4096, 24, 16, 1024, 16, false, "gelu"))),
        // Idefics3's and SmolVLM's towers are SigLIP's layers without the pooling head.
        "idefics3_vision" | "smolvlm_vision" => {
            Some((TowerKind::Siglip, (1152, 3072, 12, 16, 224, 32, false, "gelu_pytorch_tanh")))
        }
        _ => None,
    }
}

/// Prefixes a nested config's error with the key it sits under (`vision_config.hidden_size`).
pub(crate) fn nested(key: &str, e: ConfigError) -> ConfigError {
    match e {
        ConfigError::Field { field, reason } => {
            ConfigError::Field { field: format!("{key}.{field}"), reason }
        }
        ConfigError::NotObject => ConfigError::field(key, "expected an object"),
        other => other,
    }
}

impl VisionTower {
    /// Reads `vision_config` (already an object, with the composite's defaults applied where the
    /// file has none).
    pub fn resolve(value: &Value, default_type: &str, d: &mut Vec<Defaulted>) -> Result<Self, ConfigError> {
        let key = "vision_config";
        match default_type {
            t if t.starts_with("qwen") => {
                return super::qwen_vision::resolve(value, default_type, d);
            }
            "internvl_vision" => return super::intern_vision::resolve(value, d),
            "mllama_vision_model" => return super::mllama_vision::resolve(value, d),
            "llama4_vision_model" => return super::llama4_vision::resolve(value, d),
            _ => {}
        }
        let model_type = match value.get("model_type") {
            None => default_type.to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(ConfigError::field(
                    "vision_config.model_type",
                    format!("expected a string, found {other}"),
                ));
            }
        };
        let (kind, (h, f, l, n, img, p, head, act)) = class_defaults(&model_type).ok_or_else(|| {
            ConfigError::field(
                "vision_config.model_type",
                format!("{model_type:?} is not a vision tower the planner knows (siglip_vision_model, clip_vision_model, pixtral, idefics3_vision, smolvlm_vision)"),
            )
        })?;
        let raw: Raw = deserialize_raw(value).map_err(|e| nested(key, e))?;
        let mut local = vec![];
        let sz = |field: &'static str, v: Option<u64>, def: u64, max: u64, local: &mut Vec<Defaulted>| {
            crate::config::size(field, v, def, max, local).map_err(|e| nested(key, e))
        };
        let tower = VisionTower {
            kind,
            hidden_size: sz("hidden_size", raw.hidden_size, h, 1 << 16, &mut local)?,
            intermediate_size: sz("intermediate_size", raw.intermediate_size, f, 1 << 18, &mut local)?,
            num_layers: sz("num_hidden_layers", raw.num_hidden_layers, l, 1000, &mut local)?,
            num_heads: sz("num_attention_heads", raw.num_attention_heads, n, 1 << 12, &mut local)?,
            num_channels: sz("num_channels", raw.num_channels, 3, 64, &mut local)?,
            image_size: sz("image_size", raw.image_size, img, 1 << 15, &mut local)?,
            patch_size: sz("patch_size", raw.patch_size, p, 1 << 10, &mut local)?,
            // Only SigLIP's own config class reads vision_use_head.
            use_head: model_type == "siglip_vision_model" && raw.vision_use_head.unwrap_or(head),
            hidden_act: raw.hidden_act.unwrap_or_else(|| act.into()),
            model_type,
            qwen: None,
            intern: None,
            llama: None,
        };
        // Every defaulted key of the tower is recorded under its nested name.
        d.extend(local.into_iter().map(|x| Defaulted {
            field: nested_name(x.field),
            value: format!("{} (vision_config)", x.value),
        }));
        Ok(tower)
    }

    /// Patches of one image at `image_size` (SigLIP and CLIP position tables are sized by it).
    pub fn patches(&self) -> u64 {
        if let Some(q) = &self.qwen {
            return q.spatial_merge_size * q.spatial_merge_size;
        }
        let side = self.image_size / self.patch_size;
        side * side
    }

    /// The tower's sections under `t` (`model.vision_tower`), sized at one image.
    pub fn sections(&self, t: &str) -> Vec<Section> {
        if let Some(q) = &self.qwen {
            return super::qwen_vision::sections(self, q, t);
        }
        if let Some(x) = &self.intern {
            return super::intern_vision::sections(self, x, t);
        }
        if let Some(x) = &self.llama {
            return x.sections(self, t);
        }
        let (h, f, c, p) = (self.hidden_size, self.intermediate_size, self.num_channels, self.patch_size);
        let tokens = self.patches() + u64::from(self.kind == TowerKind::Clip);
        let shape = [tokens, h];
        let conv = |name: &str, bias: bool| {
            let mut n = Node::new(name, Op::Embedding, format!("{p}x{p} patches of {c} channels"), &shape)
                .with([Tensor::new(format!("{name}.weight"), &[h, c, p, p])]);
            if bias {
                n.params.push(Tensor::new(format!("{name}.bias"), &[h]));
            }
            n
        };
        let mut embed =
            vec![Node::new("pixel_values", Op::Input, "one image", &[c, self.image_size, self.image_size])];
        let mut layer = vec![];
        let mut post = vec![];
        let l = format!("{t}.encoder.layers.{{i}}");
        let attn = |a: &str, o: &str, bias: bool, rows: u64| {
            vec![
                linear(&format!("{a}.q_proj"), "query projection", rows, h, h, bias),
                linear(&format!("{a}.k_proj"), "key projection", rows, h, h, bias),
                linear(&format!("{a}.v_proj"), "value projection", rows, h, h, bias),
                Node::new(a, Op::Attention, format!("{} heads, bidirectional", self.num_heads), &[rows, h]),
                linear(&format!("{a}.{o}"), "attention output projection", rows, h, h, bias),
            ]
        };
        let fc = |m: &str, rows: u64| {
            vec![
                linear(&format!("{m}.fc1"), "MLP up projection", rows, h, f, true),
                Node::new(format!("{m}.act"), Op::Activation, self.hidden_act.clone(), &[rows, f]),
                linear(&format!("{m}.fc2"), "MLP down projection", rows, f, h, true),
            ]
        };
        let pos = |name: String, rows: u64| {
            Node::new(&name, Op::Embedding, "learned positions", &shape)
                .with([Tensor::new(format!("{name}.weight"), &[rows, h])])
        };
        match self.kind {
            TowerKind::Siglip | TowerKind::Clip => {
                let e = format!("{t}.embeddings");
                if self.kind == TowerKind::Clip {
                    embed.push(
                        Node::new(format!("{e}.class_embedding"), Op::Embedding, "class token", &[1, h])
                            .with([Tensor::new(format!("{e}.class_embedding"), &[h])]),
                    );
                    embed.push(conv(&format!("{e}.patch_embedding"), false));
                    embed.push(pos(format!("{e}.position_embedding"), tokens));
                    embed.push(layer_norm(&format!("{t}.pre_layrnorm"), "LayerNorm", &shape, h, true));
                } else {
                    embed.push(conv(&format!("{e}.patch_embedding"), true));
                    embed.push(pos(format!("{e}.position_embedding"), tokens));
                }
                layer.push(layer_norm(
                    &format!("{l}.layer_norm1"),
                    "LayerNorm before attention",
                    &shape,
                    h,
                    true,
                ));
                layer.extend(attn(&format!("{l}.self_attn"), "out_proj", true, tokens));
                layer.push(layer_norm(
                    &format!("{l}.layer_norm2"),
                    "LayerNorm before the MLP",
                    &shape,
                    h,
                    true,
                ));
                layer.extend(fc(&format!("{l}.mlp"), tokens));
                post.push(layer_norm(&format!("{t}.post_layernorm"), "final LayerNorm", &shape, h, true));
                if self.use_head {
                    let hd = format!("{t}.head");
                    post.push(
                        Node::new(
                            format!("{hd}.attention"),
                            Op::Attention,
                            "attention pooling on a probe",
                            &[1, h],
                        )
                        .with([
                            Tensor::new(format!("{hd}.probe"), &[1, 1, h]),
                            Tensor::new(format!("{hd}.attention.in_proj_weight"), &[3 * h, h]),
                            Tensor::new(format!("{hd}.attention.in_proj_bias"), &[3 * h]),
                        ]),
                    );
                    post.push(linear(&format!("{hd}.attention.out_proj"), "pooling output", 1, h, h, true));
                    post.push(layer_norm(&format!("{hd}.layernorm"), "LayerNorm", &[1, h], h, true));
                    post.extend(fc(&format!("{hd}.mlp"), 1));
                }
            }
            TowerKind::Pixtral => {
                embed.push(conv(&format!("{t}.patch_conv"), false));
                embed.push(rms_norm(&format!("{t}.ln_pre"), "RMSNorm", &shape, h));
                let l = format!("{t}.transformer.layers.{{i}}");
                layer.push(rms_norm(&format!("{l}.attention_norm"), "RMSNorm before attention", &shape, h));
                layer.extend(attn(&format!("{l}.attention"), "o_proj", false, tokens));
                layer.push(rms_norm(&format!("{l}.ffn_norm"), "RMSNorm before the MLP", &shape, h));
                let ff = format!("{l}.feed_forward");
                layer.extend(gated_mlp(&ff, tokens, h, f, &self.hidden_act, false, false));
                return vec![section(t.to_string(), 1, embed), section(l, self.num_layers, layer)];
            }
            // The towers of their own files, built above.
            _ => return vec![],
        }
        vec![
            section(format!("{t}.embeddings"), 1, embed),
            section(l, self.num_layers, layer),
            section(format!("{t}.post_layernorm"), 1, post),
        ]
    }
}

fn section(name: String, repeat: u64, nodes: Vec<Node>) -> Section {
    Section { name, role: Role::Vision, repeat, nodes }
}

/// The nested name of a defaulted tower key, as a static string.
fn nested_name(field: &str) -> &'static str {
    match field {
        "hidden_size" => "vision_config.hidden_size",
        "intermediate_size" => "vision_config.intermediate_size",
        "num_hidden_layers" => "vision_config.num_hidden_layers",
        "num_attention_heads" => "vision_config.num_attention_heads",
        "num_channels" => "vision_config.num_channels",
        "image_size" => "vision_config.image_size",
        _ => "vision_config.patch_size",
    }
}
