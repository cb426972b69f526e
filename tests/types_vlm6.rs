//! Vision-language wrappers of the vlm6 list: each count written out by hand from the config's
//! numbers and the config classes' defaults (transformers 5.24 `configuration_<type>.py`), the
//! shapes from the modeling files; the sums are checked against transformers on the meta device
//! (tools/validate/params_report_vlm6.md).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn page(config: Value) -> modelatlas::page::ModelPage {
    plan_text(&config.to_string()).unwrap()
}

/// A SigLIP / CLIP encoder layer of width `w`, MLP `f`: two LayerNorms, q/k/v/out with biases,
/// fc1 and fc2 with biases.
fn vit_layer(w: u64, f: u64) -> u64 {
    4 * w + 4 * (w * w + w) + (w * f + f) + (f * w + w)
}

/// The small SigLIP tower: width 64, MLP 128, 2 layers, 64-pixel images in 8-pixel patches
/// (64 patches): biased patch conv, 64 positions, post LayerNorm, no pooling head.
const SIGLIP: u64 = 64 * 3 * 8 * 8
    + 64
    + 64 * 64
    + 2 * (4 * 64 + 4 * (64 * 64 + 64) + (64 * 128 + 128) + (128 * 64 + 64))
    + 2 * 64;

fn siglip() -> Value {
    json!({"model_type": "siglip_vision_model", "hidden_size": 64, "intermediate_size": 128,
        "num_hidden_layers": 2, "num_attention_heads": 4, "image_size": 64, "patch_size": 8,
        "vision_use_head": false})
}

#[test]
fn the_small_siglip_constant_is_its_layers_written_out() {
    assert_eq!(SIGLIP, 64 * 3 * 8 * 8 + 64 + 64 * 64 + 2 * vit_layer(64, 128) + 2 * 64);
}

#[test]
fn aya_vision_shuffles_2x2_patches_through_a_swiglu_into_cohere2() {
    // Projector (downsample_factor 2): 4 x 64 = 256 wide; LayerNorm 256 (weight, bias);
    // linear_1 256 -> alignment_intermediate_size 300 with bias; SwiGLU halves it: linear_2
    // 150 -> 128 with bias.
    let projector = 2 * 256 + (256 * 300 + 300) + (150 * 128 + 128);
    // Cohere2: hidden 128, 4 heads of 32, 2 KV heads: q 128x128, k, v 128x64, o 128x128; a gated
    // MLP 3 x 128 x 256; one bias-free LayerNorm per layer (attention and MLP in parallel);
    // final norm; embeddings 1000 x 128, the LM head tied (AyaVisionConfig's default).
    let layer = 128 * 128 + 2 * 128 * 64 + 128 * 128 + 3 * 128 * 256 + 128;
    let text = 1000 * 128 + 2 * layer + 128;
    let config = json!({"model_type": "aya_vision", "architectures": ["AyaVisionForConditionalGeneration"],
        "text_config": {"model_type": "cohere2", "hidden_size": 128, "intermediate_size": 256,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "vocab_size": 1000},
        "vision_config": siglip(), "alignment_intermediate_size": 300});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, SIGLIP + projector + text);
    // transformers 5.24 builds this model with 603,756 parameters (meta device).
    assert_eq!(SIGLIP + projector + text, 603_756);
    let v = p.vision.unwrap();
    assert_eq!(v.projector_params, projector);
    // Images are tiled by the processor: the config does not fix their token count.
    assert_eq!(v.image_tokens, None);
}

#[test]
fn aya_visions_alignment_width_defaults_to_the_text_width() {
    // No alignment_intermediate_size: getattr falls back to text hidden 128, so linear_1 is
    // 256 -> 128 and linear_2 64 -> 128.
    let projector = 2 * 256 + (256 * 128 + 128) + (64 * 128 + 128);
    let config = json!({"model_type": "aya_vision", "architectures": ["AyaVisionModel"],
        "text_config": {"model_type": "cohere2", "hidden_size": 128, "intermediate_size": 256,
            "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 1000},
        "vision_config": siglip()});
    assert_eq!(page(config).vision.unwrap().projector_params, projector);
}

/// A small Llama text model: hidden 128, ffn 256, 2 layers, 4 heads of 32 over 2 KV heads, vocab
/// 1000: embeddings, per layer q 128x128, k and v 128x64, o 128x128, gated MLP 3 x 128 x 256, two
/// RMSNorms; the final norm.
const LLAMA_SMALL: u64 =
    1000 * 128 + 2 * (128 * 128 + 2 * 128 * 64 + 128 * 128 + 3 * 128 * 256 + 2 * 128) + 128;

fn llama_small() -> Value {
    json!({"model_type": "llama", "hidden_size": 128, "intermediate_size": 256,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "vocab_size": 1000})
}

#[test]
fn idefics3_shuffles_patches_into_one_bias_free_linear_and_unties_its_head() {
    // Idefics3VisionConfig has no pooling head: the small SigLIP constant. Connector
    // (scale_factor 2): proj 4 x 64 = 256 -> 128, no bias. LM head untied (the default):
    // 1000 x 128.
    let connector = 256 * 128;
    let expected = SIGLIP + connector + LLAMA_SMALL + 1000 * 128;
    let config = json!({"model_type": "idefics3", "architectures": ["Idefics3ForConditionalGeneration"],
        "text_config": llama_small(), "vision_config": siglip()});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, expected);
    // transformers 5.24 builds this model with 667,840 parameters (meta device).
    assert_eq!(expected, 667_840);
    let names: Vec<String> = p.structure.unwrap().tensors().map(|(n, _)| n).collect();
    for name in [
        "model.vision_model.encoder.layers.0.self_attn.q_proj.weight",
        "model.connector.modality_projection.proj.weight",
        "model.text_model.layers.0.mlp.gate_proj.weight",
        "lm_head.weight",
    ] {
        assert!(names.contains(&name.to_string()), "{name} missing: {names:?}");
    }
}

#[test]
fn smolvlm_reads_its_own_tower_class_whatever_the_nested_model_type_says() {
    // SmolVLMConfig's vision_config is always SmolVLMVisionConfig: a nested "siglip_vision_model"
    // with vision_use_head true still builds no pooling head. scale_factor 4: proj 16 x 64 =
    // 1024 -> 128, no bias; the head tied by the top-level flag.
    let mut vision = siglip();
    vision["vision_use_head"] = json!(true);
    let connector = 1024 * 128;
    let config = json!({"model_type": "smolvlm", "architectures": ["SmolVLMForConditionalGeneration"],
        "text_config": llama_small(), "vision_config": vision, "scale_factor": 4,
        "tie_word_embeddings": true});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, SIGLIP + connector + LLAMA_SMALL);
    // transformers 5.24 builds this model with 638,144 parameters (meta device).
    assert_eq!(SIGLIP + connector + LLAMA_SMALL, 638_144);
    assert_eq!(p.vision.unwrap().projector_params, connector);
}

/// A Qwen2 layer of the small text model: q 128x128 + bias, k and v 128x64 + bias, o 128x128
/// (no bias), gated MLP 3 x 128 x 256, two RMSNorms.
const QWEN2_LAYER: u64 = (128 * 128 + 128) + 2 * (128 * 64 + 64) + 128 * 128 + 3 * 128 * 256 + 2 * 128;

#[test]
fn qwen2_vl_counts_its_vit_the_patch_merger_and_a_qwen2_decoder() {
    // Vision: embed_dim 64, mlp_ratio 3 (fc 192), depth 2, 8-pixel patches over 2 frames, 3
    // channels: Conv3d 64 x 3 x 2 x 8 x 8, no bias; per block two LayerNorms (2 x 128), qkv
    // 64 -> 192 + bias, proj 64 -> 64 + bias, fc1 64 -> 192 + bias, fc2 192 -> 64 + bias.
    let block = 2 * 128 + (64 * 192 + 192) + (64 * 64 + 64) + (64 * 192 + 192) + (192 * 64 + 64);
    let tower = 64 * 3 * 2 * 8 * 8 + 2 * block;
    // Merger (spatial_merge_size 2): ln_q LayerNorm 64 (2 x 64); 4 x 64 = 256 -> 256 + bias;
    // 256 -> vision hidden_size 128 + bias.
    let merger = 2 * 64 + (256 * 256 + 256) + (256 * 128 + 128);
    // Text: embeddings 1000 x 128, 2 layers, final norm; lm_head untied (the default) 1000 x 128.
    let text = 1000 * 128 + 2 * QWEN2_LAYER + 128 + 1000 * 128;
    let config = json!({"model_type": "qwen2_vl", "architectures": ["Qwen2VLForConditionalGeneration"],
        "text_config": {"vocab_size": 1000, "hidden_size": 128, "intermediate_size": 256,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2},
        "vision_config": {"depth": 2, "embed_dim": 64, "hidden_size": 128, "num_heads": 4,
            "mlp_ratio": 3, "patch_size": 8}});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, tower + merger + text);
    // transformers 5.24 builds this model with 758,912 parameters (meta device).
    assert_eq!(tower + merger + text, 758_912);
    let v = p.vision.unwrap();
    assert_eq!((v.tower_params, v.projector_params), (tower, merger));
    // Images keep their own resolution: neither a size nor a token count is a config fact.
    assert_eq!((v.image_size, v.image_tokens), (0, None));
}

#[test]
fn a_flat_qwen2_5_vl_file_gives_its_top_level_keys_to_the_text_model_and_ignores_head_dim() {
    // Vision 2.5: hidden 64, gated MLP 96, depth 2: Conv3d 64 x 3 x 2 x 8 x 8; per block two
    // RMSNorms (2 x 64), qkv 64 -> 192 + bias, proj + bias, gate and up 64 -> 96 + bias, down
    // 96 -> 64 + bias. Merger: ln_q RMSNorm 64, 256 -> 256 + bias, 256 -> out_hidden_size 128
    // + bias.
    let block = 2 * 64 + (64 * 192 + 192) + (64 * 64 + 64) + 2 * (64 * 96 + 96) + (96 * 64 + 64);
    let tower = 64 * 3 * 2 * 8 * 8 + 2 * block;
    let merger = 64 + (256 * 256 + 256) + (256 * 128 + 128);
    // Text from the top level: 3 layers; head_dim 48 is ignored (head width 128 / 4 = 32);
    // lm_head untied.
    let text = 1000 * 128 + 3 * QWEN2_LAYER + 128 + 1000 * 128;
    let config = json!({"model_type": "qwen2_5_vl", "architectures": ["Qwen2_5_VLForConditionalGeneration"],
        "vocab_size": 1000, "hidden_size": 128, "intermediate_size": 256, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 48,
        "vision_config": {"depth": 2, "hidden_size": 64, "out_hidden_size": 128,
            "intermediate_size": 96, "num_heads": 4, "patch_size": 8}});
    assert_eq!(page(config).params.unwrap().derived, tower + merger + text);
    // transformers 5.24 builds this model with 894,272 parameters (meta device).
    assert_eq!(tower + merger + text, 894_272);
}

#[test]
fn a_qwen_vl_page_says_its_images_keep_their_resolution_instead_of_a_size() {
    use modelatlas::manifest::SiteSettings;
    use modelatlas::render::Renderer;
    let p = page(json!({"model_type": "qwen2_vl", "architectures": ["Qwen2VLForConditionalGeneration"],
        "text_config": {"vocab_size": 1000, "hidden_size": 128, "intermediate_size": 256,
            "num_hidden_layers": 2, "num_attention_heads": 4},
        "vision_config": {"depth": 2, "embed_dim": 64, "hidden_size": 128, "patch_size": 8}}));
    let site = SiteSettings { title: "modelatlas".into(), base_url: "https://example.org/".into() };
    let html = Renderer::new().model(&p, &site, "../../").unwrap().html;
    assert!(html.contains("images at their own resolution in 8-pixel patches"), "{html}");
    assert!(!html.contains("0×0"), "{html}");
}

#[test]
fn internvl_counts_internvit_with_its_switches_the_shuffle_mlp_and_a_tied_qwen2() {
    // InternViT: width 64, MLP 128, 2 layers, 64-pixel images given as [64, 64] in [8, 8]
    // patches (64 patches). Embeddings: cls_token 64, biased Conv2d 64 x 3 x 8 x 8 + 64,
    // positions (64 + 1) x 64. Per layer (attention_bias, use_qk_norm, norm_type rms_norm): two
    // RMSNorms (2 x 64), q/k/v 3 x (64 x 64 + 64), q_norm and k_norm over the full width
    // (2 x 64), projection_layer 64 x 64 + 64, lambda_1 and lambda_2 (2 x 64), fc1 64 -> 128 +
    // bias, fc2 128 -> 64 + bias. use_mean_pooling false: a final LayerNorm (2 x 64).
    let layer =
        2 * 64 + 3 * (64 * 64 + 64) + 2 * 64 + (64 * 64 + 64) + 2 * 64 + (64 * 128 + 128) + (128 * 64 + 64);
    let tower = 64 + (64 * 3 * 8 * 8 + 64) + 65 * 64 + 2 * layer + 2 * 64;
    // Projector (downsample_ratio 0.5: int(1 / 0.5) = 2): LayerNorm over 4 x 64 = 256 (2 x 256),
    // linear_1 256 -> 128 + bias, linear_2 128 -> 128 + bias.
    let projector = 2 * 256 + (256 * 128 + 128) + (128 * 128 + 128);
    // Qwen2 text, tied (InternVLConfig's default).
    let text = 1000 * 128 + 2 * QWEN2_LAYER + 128;
    let config = json!({"model_type": "internvl", "architectures": ["InternVLForConditionalGeneration"],
        "text_config": {"model_type": "qwen2", "hidden_size": 128, "intermediate_size": 256,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "vocab_size": 1000},
        "vision_config": {"model_type": "intern_vit_6b", "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "image_size": [64, 64],
            "patch_size": [8, 8], "attention_bias": true, "use_qk_norm": true,
            "norm_type": "rms_norm", "use_mean_pooling": false}});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, tower + projector + text);
    // transformers 5.24 builds this model with 557,888 parameters (meta device).
    assert_eq!(tower + projector + text, 557_888);
    let v = p.vision.unwrap();
    assert_eq!((v.tower_params, v.projector_params, v.image_size, v.patch_size), (tower, projector, 64, 8));
}
