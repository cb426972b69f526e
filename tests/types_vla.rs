//! Llama 3.2 Vision (`mllama`) and Llama 4 (`llama4`): each count written out by hand from the
//! config's numbers and the config classes' defaults (transformers 5.24
//! `configuration_mllama.py`, `configuration_llama4.py`), the shapes from the modeling files; the
//! sums are checked against transformers on the meta device (tools/validate/params_report_vla.md).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn page(config: Value) -> modelatlas::page::ModelPage {
    plan_text(&config.to_string()).unwrap()
}

fn names(p: modelatlas::page::ModelPage) -> Vec<String> {
    p.structure.unwrap().tensors().map(|(n, _)| n).collect()
}

/// Mllama's small text model: vocab 1000, hidden 64, MLP 128, 4 layers, 4 heads of 16 over 2 KV
/// heads (32 wide), layer 1 cross-attending.
fn mllama_text() -> Value {
    json!({"vocab_size": 1000, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "cross_attention_layers": [1],
        "pad_token_id": 0})
}

/// Mllama's small tower: width 32, MLP 64, 2 local layers and 1 global, 4 heads, 28-pixel tiles
/// of 14-pixel patches, 4 tiles (the default), vision_output_dim 96.
fn mllama_vision() -> Value {
    json!({"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
        "num_global_layers": 1, "attention_heads": 4, "image_size": 28, "patch_size": 14,
        "vision_output_dim": 96})
}

// Text: embeddings (1000 + 8) x 64 = 64,512. A self-attention layer: q 64x64, k and v 64x32, o
// 64x64 (12,288), gated MLP 3 x 64 x 128 (24,576), two RMSNorms (128): 36,992; three of them. The
// cross-attention layer: the same projections and MLP, q_norm and k_norm of head_dim 16, the
// attention and MLP gates (1 each): 37,026. Final norm 64.
const MLLAMA_TEXT_MODEL: u64 = 1008 * 64 + 3 * 36_992 + (12_288 + 2 * 16 + 2 + 24_576 + 128) + 64;

#[test]
fn mllama_counts_its_two_stage_tower_the_projector_and_the_cross_attention_layers() {
    // Tower: 2x2 patches + class token = 5 positions a tile; 8 aspect ratios (the default list),
    // so tile tables of 9 rows. Patch conv 32 x 3 x 14 x 14 (no bias) = 18,816; class token 32;
    // gated positions: gate 1, 5 x 32 = 160, tile table 9 x (4 x 5 x 32) = 5,760; pre- and
    // post-tile embeddings 9 x (4 x 32) + gate 1 = 1,153 each; layernorm_pre and _post 2 x 64. A
    // layer: two LayerNorms 128, q/k/v/o 4 x 32 x 32 (no bias), fc1 32 x 64 + 64, fc2 64 x 32 +
    // 32: 8,416; the global layer adds its two gates.
    let layer = 128 + 4 * 32 * 32 + (32 * 64 + 64) + (64 * 32 + 32);
    assert_eq!(layer, 8_416);
    let tower = 18_816 + 32 + (1 + 160 + 5_760) + 2 * 1_153 + 2 * 64 + 2 * layer + (layer + 2);
    // Projector: vision_output_dim 96 -> 64 with bias. LM head 1000 x 64, never tied.
    let projector = 96 * 64 + 64;
    let expected = tower + projector + MLLAMA_TEXT_MODEL + 1000 * 64;
    let config = json!({"model_type": "mllama", "architectures": ["MllamaForConditionalGeneration"],
        "text_config": mllama_text(), "vision_config": mllama_vision(), "tie_word_embeddings": true});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    // transformers 5.24 builds this model with 335,239 parameters (meta device,
    // params_report_vla.md, var 1).
    assert_eq!(expected, 335_239);
    let v = p.vision.as_ref().unwrap();
    assert_eq!((v.tower_params, v.projector_params), (tower, projector));
    // One <|image|> token in the text; 4 tiles x 5 patch states in the one cross-attention layer.
    assert_eq!(v.image_tokens, Some(1));
    let kv = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((kv.groups[0].layers, kv.groups[0].values_per_token), (3, 2 * 2 * 16));
    assert_eq!(kv.cross.as_ref().map(|c| c.layers), Some(1));
    assert_eq!(kv.cross_fixed_len, Some(4 * 5));
    assert_eq!(v.kv_bytes_per_image_bf16, Some(2 * (3 * 64 + 4 * 5 * 64)));
    let names = names(p);
    for name in [
        "model.vision_model.gated_positional_embedding.tile_embedding.weight",
        "model.vision_model.global_transformer.layers.0.gate_ffn",
        "model.multi_modal_projector.bias",
        "model.language_model.layers.1.cross_attn.k_norm.weight",
        "model.language_model.layers.1.cross_attn_attn_gate",
        "model.language_model.layers.2.self_attn.q_proj.weight",
        "lm_head.weight",
    ] {
        assert!(names.contains(&name.to_string()), "{name} missing");
    }
}

#[test]
fn mllama_for_causal_lm_on_the_wrapper_config_is_the_text_model_alone() {
    // MllamaForCausalLM(MllamaConfig) builds get_text_config(): the text model and its head, no
    // cross-attention cache without images.
    let config = json!({"model_type": "mllama", "architectures": ["MllamaForCausalLM"],
        "text_config": mllama_text(), "vision_config": mllama_vision()});
    let p = page(config);
    // transformers 5.24: 276,578 (meta device, params_report_vla.md).
    assert_eq!(p.params.as_ref().unwrap().derived, MLLAMA_TEXT_MODEL + 1000 * 64);
    assert_eq!(MLLAMA_TEXT_MODEL + 1000 * 64, 276_578);
    assert!(p.vision.is_none());
    let kv = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert!(kv.cross.is_none());
    assert!(names(p).contains(&"model.layers.1.cross_attn.q_proj.weight".to_string()));
}

#[test]
fn llama4_keeps_its_causal_lm_whole_and_ties_the_head_by_the_text_flag_alone() {
    // Text (llama4_text): embeddings 1000 x 64; per layer q 64x64, k and v 64x32, o 64x64
    // (12,288; its q/k L2 norm has no weights), the router 64 x 2, stacked experts gate_up
    // 2 x 64 x 64 and down 2 x 32 x 64, a shared expert 3 x 64 x 32, two RMSNorms: 30,976; final
    // norm; lm_head tied by text_config's flag (the top-level false is not read).
    let layer = 12_288 + 64 * 2 + 2 * 64 * 64 + 2 * 32 * 64 + 3 * 64 * 32 + 128;
    assert_eq!(layer, 30_976);
    let text = 1000 * 64 + 2 * layer + 64;
    // Tower: 2x2 patches + class token = 5 positions. Unfold linear 3 x 14 x 14 -> 32 (no bias);
    // class 32; positions 5 x 32; layernorm_pre and _post 2 x 64; a layer: two LayerNorms 128,
    // q/k/v/o 4 x (32 x 32 + 32), fc1 32 x 128 + 128, fc2 128 x 32 + 32 (12,704); the adapter
    // fc1 128 -> 16, fc2 16 -> 16 (no bias). Projector 48 -> 64, no bias.
    let tower = 588 * 32 + 32 + 160 + 128 + 2 * 12_704 + 128 * 16 + 16 * 16;
    let projector = 48 * 64;
    let config = json!({"model_type": "llama4", "architectures": ["Llama4ForConditionalGeneration"],
        "tie_word_embeddings": false,
        "text_config": {"vocab_size": 1000, "hidden_size": 64, "intermediate_size": 32,
            "intermediate_size_mlp": 96, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "num_local_experts": 2,
            "tie_word_embeddings": true},
        "vision_config": {"hidden_size": 32, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "image_size": 28, "patch_size": 14, "vision_output_dim": 48,
            "projector_input_dim": 16, "projector_output_dim": 16}});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, tower + projector + text);
    // Untied, transformers 5.24 counts 239,936 (params_report_vla.md, var 1): 64,000 more.
    assert_eq!(tower + projector + text + 1000 * 64, 239_936);
    let g = p.structure.as_ref().unwrap();
    let tied: Vec<_> = g.tied_tensors().map(|(n, t)| (n, t.tied_to.clone())).collect();
    assert_eq!(
        tied,
        [(
            "language_model.lm_head.weight".to_string(),
            Some("language_model.model.embed_tokens.weight".into())
        )]
    );
    let names = names(p);
    for name in [
        "vision_model.patch_embedding.linear.weight",
        "vision_model.model.layers.1.self_attn.o_proj.bias",
        "vision_model.vision_adapter.mlp.fc2.weight",
        "multi_modal_projector.linear_1.weight",
        "language_model.model.layers.0.feed_forward.router.weight",
    ] {
        assert!(names.contains(&name.to_string()), "{name} missing");
    }
}

#[test]
fn llama4_scout_plans_to_its_published_checkpoint_total() {
    // The tower written out from the published config: width 1408, MLP 5632, 34 layers, 336-pixel
    // tiles of 14 (577 positions), adapter 5632 -> 4096 and 4096 -> 4096, projector 4096 -> 5120.
    let layer = 4 * 1408 + 4 * (1408 * 1408 + 1408) + (1408 * 5632 + 5632) + (5632 * 1408 + 1408);
    let tower = 588 * 1408 + 1408 + 577 * 1408 + 4 * 1408 + 34 * layer + 5632 * 4096 + 4096 * 4096;
    let p = common::plan_id("meta-llama/Llama-4-Scout-17B-16E-Instruct");
    assert!(p.supported);
    let v = p.vision.as_ref().unwrap();
    assert_eq!((v.tower_params, v.projector_params), (tower, 4096 * 5120));
    let published = common::published_counts()["meta-llama/Llama-4-Scout-17B-16E-Instruct"];
    assert_eq!(p.params.unwrap().derived, published);
}

#[test]
fn llama4_has_no_bare_model_class() {
    let config = json!({"model_type": "llama4", "architectures": ["Llama4Model"]});
    let err = plan_text(&config.to_string()).unwrap_err().to_string();
    assert!(err.contains("architectures[0]"), "{err}");
}

#[test]
fn every_key_of_scouts_config_and_of_its_sub_configs_set_to_a_bad_value_plans_or_fails_cleanly() {
    let text =
        std::fs::read_to_string(common::snapshot_config_path("meta-llama--Llama-4-Scout-17B-16E-Instruct"))
            .unwrap();
    let base: Value = serde_json::from_str(&text).unwrap();
    let bad =
        [json!(0), json!(-1), json!(u64::MAX), json!(3.5), json!("x"), json!(null), json!([]), json!({})];
    let mut cases = vec![];
    for (model_type, class) in
        [("llama4", "Llama4ForConditionalGeneration"), ("mllama", "MllamaForConditionalGeneration")]
    {
        let mut v = base.clone();
        v["model_type"] = json!(model_type);
        v["architectures"] = json!([class]);
        if model_type == "mllama" {
            v["text_config"] = json!({"cross_attention_layers": [1, 3]});
            v["vision_config"] = json!({"max_num_tiles": 4, "supported_aspect_ratios": [[1, 1]]});
        }
        cases.push(v);
    }
    for v in cases {
        for sub in [None, Some("text_config"), Some("vision_config")] {
            let keys: Vec<String> = match sub {
                None => v.as_object().unwrap().keys().cloned().collect(),
                Some(s) => v[s].as_object().unwrap().keys().cloned().collect(),
            };
            for key in keys {
                for value in &bad {
                    let mut w = v.clone();
                    match sub {
                        None => w[&key] = value.clone(),
                        Some(s) => w[s][&key] = value.clone(),
                    }
                    if let Ok(p) = plan_text(&w.to_string()) {
                        assert!(p.params.is_some() || !p.supported, "{sub:?} {key}={value}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_pages_of_both_wrappers_and_their_text_models_render() {
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    let renderer = modelatlas::render::Renderer::new();
    let pages = [
        common::plan_id("meta-llama/Llama-4-Scout-17B-16E-Instruct"),
        page(json!({"model_type": "llama4", "architectures": ["Llama4ForCausalLM"]})),
        page(json!({"model_type": "mllama", "architectures": ["MllamaForConditionalGeneration"]})),
        page(json!({"model_type": "mllama", "architectures": ["MllamaForCausalLM"]})),
        page(json!({"model_type": "mllama"})),
    ];
    for p in &pages {
        assert!(p.supported, "{}", p.family);
        let out = renderer.model(p, &manifest.site, "../../").unwrap();
        assert!(!out.html.is_empty() && !out.markdown.is_empty());
    }
}
