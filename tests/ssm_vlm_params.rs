//! State-space models (mamba, falcon_mamba, mamba2) and vision-language wrappers (gemma3, llava,
//! paligemma, mistral3): every count is written out by hand from the config's numbers or from the
//! config classes' defaults (transformers 5.x `configuration_<type>.py`), and the shapes from
//! the modeling files (`MambaMixer`, `Mamba2Mixer`, `SiglipVisionEmbeddings`, ...).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn page(config: Value) -> modelatlas::page::ModelPage {
    plan_text(&config.to_string()).unwrap()
}

fn derived(config: Value) -> u64 {
    page(config).params.unwrap().derived
}

/// A Mamba layer: the pre-norm, in_proj (h -> 2i), depthwise conv1d (i x 1 x k, bias),
/// x_proj (i -> r + 2n), dt_proj (r -> i, bias), A_log (i x n), D (i), out_proj (i -> h).
fn mamba_layer(h: u64, i: u64, n: u64, r: u64, k: u64) -> u64 {
    h + h * 2 * i + (i * k + i) + i * (r + 2 * n) + (r * i + i) + i * n + i + i * h
}

#[test]
fn the_default_mamba_causal_lm_counts_its_mixers_and_a_tied_head() {
    // MambaConfig(): vocab 50280, hidden 768, expand 2 (i = 1536), state 16, time_step_rank
    // "auto" = ceil(768 / 16) = 48, conv_kernel 4, 32 layers, tie_word_embeddings True.
    let layer = mamba_layer(768, 1536, 16, 48, 4);
    let expected = 50280 * 768 + 32 * layer + 768;
    assert_eq!(derived(json!({"model_type": "mamba", "architectures": ["MambaForCausalLM"]})), expected);
    // transformers 5.24 builds MambaForCausalLM(MambaConfig()) with 159,308,544 parameters.
    assert_eq!(expected, 159_308_544);
}

#[test]
fn falcon_mamba_has_mambas_parameters_its_extra_norms_have_no_weights() {
    // FalconMambaConfig's defaults are MambaConfig's; the RMSNorms on dt, B and C are weightless.
    // Here: hidden 128, expand 3 (i = 384), state 8, rank 7, kernel 3, biases on in/out_proj,
    // none on the convolution, untied, 2 layers, vocab 1000.
    let (h, i, n, r, k) = (128u64, 384u64, 8u64, 7u64, 3u64);
    let layer = mamba_layer(h, i, n, r, k) - i + 2 * i + h; // conv bias off; in_proj, out_proj biases on
    let expected = 1000 * h + 2 * layer + h + 1000 * h;
    let config = json!({"model_type": "falcon_mamba", "architectures": ["FalconMambaForCausalLM"],
        "hidden_size": h, "expand": 3, "state_size": n, "time_step_rank": r, "conv_kernel": k,
        "use_bias": true, "use_conv_bias": false, "tie_word_embeddings": false,
        "num_hidden_layers": 2, "vocab_size": 1000});
    assert_eq!(derived(config), expected);
}

#[test]
fn the_default_mamba2_causal_lm_projects_z_x_b_c_and_dt_at_once() {
    // Mamba2Config(): hidden 4096, expand 2 (i = 8192), 128 heads x 64, 8 groups, state 128,
    // kernel 4, 64 layers, vocab 32768, untied. conv channels = i + 2 x 8 x 128 = 10240;
    // in_proj width = i + 10240 + 128 = 18560; per head dt_bias, A_log, D; gated norm over i.
    let (h, i, heads) = (4096u64, 8192u64, 128u64);
    let conv = i + 2 * 8 * 128;
    let layer = h + h * (i + conv + heads) + (conv * 4 + conv) + 3 * heads + i + i * h;
    let expected = 32768 * h + 64 * layer + h + 32768 * h;
    assert_eq!(derived(json!({"model_type": "mamba2", "architectures": ["Mamba2ForCausalLM"]})), expected);
}

#[test]
fn mamba_serving_keeps_a_fixed_recurrent_state_per_sequence_instead_of_a_kv_cache() {
    // Default Mamba: per layer conv_states 1536 x 4 = 6144 values and ssm_states 1536 x 16 =
    // 24576; 32 layers: 32 x 30720 = 983,040 values, 1,966,080 bytes in bf16, whatever the length.
    let p = page(json!({"model_type": "mamba", "architectures": ["MambaForCausalLM"]}));
    let kv = p.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (32, 6144, 24576));
    assert!(kv.layout.groups.is_empty());
    assert_eq!(kv.bytes_at_context_bf16, 1_966_080);
    assert_eq!(kv.layout.values(1), kv.layout.values(100_000));
    let notes = &p.training.as_ref().unwrap().assumptions;
    assert!(notes.iter().any(|n| n.contains("selective scan")), "{notes:?}");
}

#[test]
fn mamba2_state_is_heads_by_head_dim_by_state_size() {
    // Default Mamba-2: conv 10240 x 4 = 40960, scan 128 x 64 x 128 = 1,048,576 per layer.
    let p = page(json!({"model_type": "mamba2"}));
    let state = p.serving.unwrap().kv.unwrap().layout.recurrent.unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (64, 40960, 1_048_576));
}

/// A SigLIP or CLIP encoder layer of width w and MLP f: two LayerNorms, four biased w x w
/// projections, fc1 and fc2 with biases.
fn vit_layer(w: u64, f: u64) -> u64 {
    4 * w + 4 * (w * w + w) + (w * f + f) + (f * w + w)
}

/// A small text model: hidden 128, ffn 256, 2 layers, 4 heads of 32 over 2 KV heads, vocab 1000.
fn small_text(model_type: &str) -> Value {
    json!({"model_type": model_type, "hidden_size": 128, "intermediate_size": 256,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32,
        "vocab_size": 1000})
}

/// Its attention (q 128x128, k and v 128x64, o 128x128) and gated MLP (3 x 128 x 256).
const SMALL_ATTN_MLP: u64 = 128 * 128 + 2 * 128 * 64 + 128 * 128 + 3 * 128 * 256;

#[test]
fn a_small_gemma3_counts_siglip_the_soft_token_projector_and_the_text_decoder() {
    // SigLIP: width 64, MLP 128, 2 layers, 64-pixel images in 8-pixel patches = 64 patches:
    // patch conv 64 x 3 x 8 x 8 + bias, 64 positions, post LayerNorm; no pooling head.
    let vision = 64 * 3 * 8 * 8 + 64 + 64 * 64 + 2 * vit_layer(64, 128) + 2 * 64;
    // Projector: mm_soft_emb_norm (64) and mm_input_projection_weight 64 x 128.
    let projector = 64 + 64 * 128;
    // Gemma 3 text layers: attention, q_norm and k_norm (32 each), MLP, four norms; tied head.
    let text = 1000 * 128 + 2 * (SMALL_ATTN_MLP + 2 * 32 + 4 * 128) + 128;
    let config = json!({"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
        "text_config": small_text("gemma3_text"),
        "vision_config": {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "image_size": 64, "patch_size": 8, "vision_use_head": false},
        "mm_tokens_per_image": 16});
    let p = page(config.clone());
    assert_eq!(p.params.as_ref().unwrap().derived, vision + projector + text);
    // Gemma3ForSequenceClassification: the same model under `model.` and a bias-free score
    // over the text width for PretrainedConfig's default two labels, 2 x 128.
    let mut classifier = config;
    classifier["architectures"] = json!(["Gemma3ForSequenceClassification"]);
    assert_eq!(derived(classifier), vision + projector + text + 2 * 128);
    let part = p.vision.unwrap();
    assert_eq!(
        (part.tower_params, part.projector_params, part.language_model_params),
        (vision, projector, text)
    );
    // 16 image tokens x 2 layers x (2 x 2 KV heads x 32) values x 2 bytes.
    assert_eq!(part.image_tokens, Some(16));
    assert_eq!(part.kv_bytes_per_image_bf16, Some(16 * 2 * 128 * 2));
}

#[test]
fn a_small_llava_counts_clip_with_its_class_token_and_a_two_layer_projector() {
    // CLIP: width 64, MLP 128, 2 layers, 56-pixel images in 14-pixel patches = 16 patches + the
    // class token = 17 positions; class_embedding, a bias-free patch conv, pre and post LayerNorms.
    let vision = 64 + 64 * 3 * 14 * 14 + 17 * 64 + 2 * 64 + 2 * vit_layer(64, 128) + 2 * 64;
    // multimodal_projector_bias defaults to True: linear_1 64 -> 128, linear_2 128 -> 128.
    let projector = (64 * 128 + 128) + (128 * 128 + 128);
    // Llama text: two norms per layer, final norm, untied LM head (LlavaConfig ties nothing).
    let text = 1000 * 128 + 2 * (SMALL_ATTN_MLP + 2 * 128) + 128 + 1000 * 128;
    let config = json!({"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"],
        "text_config": small_text("llama"),
        "vision_config": {"model_type": "clip_vision_model", "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "image_size": 56, "patch_size": 14}});
    assert_eq!(derived(config), vision + projector + text);
}

#[test]
fn llava_ties_its_head_when_a_pre_v5_file_says_so_in_text_config() {
    // LlavaConfig forwards text_config.tie_word_embeddings to the top level: the head's
    // 1000 x 128 is then the embedding's.
    let mut text = small_text("llama");
    let base = json!({"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"],
        "text_config": text.clone()});
    text["tie_word_embeddings"] = json!(true);
    let tied = json!({"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"],
        "text_config": text});
    assert_eq!(derived(base) - derived(tied), 1000 * 128);
}

#[test]
fn a_small_mistral3_counts_pixtral_and_the_patch_merger() {
    // Pixtral: width 64, MLP 160, 3 layers, no biases: patch conv 64 x 3 x 14 x 14, ln_pre, and
    // per layer two RMSNorms, q k v o (64 x 64 each), gate/up/down (3 x 64 x 160).
    let vision = 64 * 3 * 14 * 14 + 64 + 3 * (2 * 64 + 4 * 64 * 64 + 3 * 64 * 160);
    // Projector: norm 64, merging_layer 64 x (64 x 2 x 2), linear_1 64 -> 128, linear_2 128 ->
    // 128, no biases (multimodal_projector_bias False).
    let projector = 64 + 64 * 256 + 64 * 128 + 128 * 128;
    // Mistral text, head tied: Mistral3Config's tie_word_embeddings defaults to True in 5.x.
    let text = 1000 * 128 + 2 * (SMALL_ATTN_MLP + 2 * 128) + 128;
    let config = json!({"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
        "text_config": small_text("mistral"),
        "vision_config": {"model_type": "pixtral", "hidden_size": 64, "intermediate_size": 160,
            "num_hidden_layers": 3, "num_attention_heads": 4, "head_dim": 16, "image_size": 112,
            "patch_size": 14}});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, vision + projector + text);
    // Pixtral's image tokens follow each image's size: the config does not fix them.
    assert_eq!(p.vision.unwrap().image_tokens, None);
}

#[test]
fn paligemma_projects_to_projection_dim_and_takes_one_token_per_patch() {
    // SigLIP with its pooling head on: probe (64), in_proj 3 x 64 x 64 + bias, out_proj, a
    // LayerNorm and an MLP. Projector: linear 64 -> 128 with bias. Gemma text, tied, two norms.
    let head = 64 + (3 * 64 * 64 + 3 * 64) + (64 * 64 + 64) + 2 * 64 + (64 * 128 + 128) + (128 * 64 + 64);
    let vision = 64 * 3 * 8 * 8 + 64 + 64 * 64 + 2 * vit_layer(64, 128) + 2 * 64 + head;
    let projector = 64 * 128 + 128;
    let text = 1000 * 128 + 2 * (SMALL_ATTN_MLP + 2 * 128) + 128;
    let config = json!({"model_type": "paligemma", "architectures": ["PaliGemmaForConditionalGeneration"],
        "text_config": small_text("gemma"), "projection_dim": 128,
        "vision_config": {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "image_size": 64, "patch_size": 8, "vision_use_head": true}});
    let p = page(config);
    assert_eq!(p.params.unwrap().derived, vision + projector + text);
    // (64 / 8)² = 64 image tokens.
    assert_eq!(p.vision.unwrap().image_tokens, Some(64));
}

#[test]
fn a_wrappers_bare_model_names_the_language_model_without_the_model_prefix() {
    let p = page(json!({"model_type": "llava", "architectures": ["LlavaModel"],
        "text_config": small_text("llama")}));
    let names: Vec<String> = p.structure.unwrap().tensors().map(|(n, _)| n).collect();
    assert!(names.contains(&"language_model.layers.0.self_attn.q_proj.weight".to_string()), "{names:?}");
    assert!(names.contains(&"vision_tower.encoder.layers.0.mlp.fc1.weight".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("lm_head")), "{names:?}");
}

#[test]
fn a_small_jamba_alternates_mamba_and_attention_and_routes_every_other_mlp() {
    // hidden 128, ffn 256, 4 layers; attention where i % 2 == 1 (layers 1, 3), Mamba elsewhere;
    // experts where i % 2 == 0 (layers 0, 2: 4 experts, 2 per token), dense MLPs elsewhere.
    // Mamba: expand 2 (i = 256), state 8, conv 4, dt rank ceil(128 / 16) = 8, with RMSNorms on
    // dt (8), B (8) and C (8); no in/out biases, a conv bias.
    let (h, i, n, r) = (128u64, 256u64, 8u64, 8u64);
    let mamba = h * 2 * i + (i * 4 + i) + i * (r + 2 * n) + (r + 2 * n) + (r * i + i) + i * n + i + i * h;
    let attention = h * 128 + 2 * h * 64 + 128 * h;
    let dense = 3 * h * 256;
    let moe = 4 * h + 4 * dense;
    let norms = 2 * h;
    let expected = 1000 * h + 2 * (mamba + moe + norms) + 2 * (attention + dense + norms) + h + 1000 * h;
    let config = json!({"model_type": "jamba", "architectures": ["JambaForCausalLM"], "hidden_size": h,
        "intermediate_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
        "num_key_value_heads": 2, "num_experts": 4, "num_experts_per_tok": 2, "vocab_size": 1000,
        "attn_layer_period": 2, "attn_layer_offset": 1, "expert_layer_period": 2,
        "expert_layer_offset": 0, "mamba_d_state": n});
    let p = page(config);
    let params = p.params.as_ref().unwrap();
    assert_eq!(params.derived, expected);
    // One token uses 2 of the 4 experts in each routed layer.
    assert_eq!(params.active, expected - 2 * 2 * dense);
    // Serving: the two attention layers cache 2 x 2 KV heads x 32 per token; the two Mamba
    // layers keep 256 x 4 conv and 256 x 8 scan values per sequence.
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups[0].layers, layout.groups[0].values_per_token), (2, 128));
    let state = layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (2, 1024, 2048));
    assert_eq!(layout.values(10), 2 * 128 * 10 + 2 * (1024 + 2048));
}

#[test]
fn state_space_and_vision_language_pages_say_the_state_and_the_parts() {
    let renderer = modelatlas::render::Renderer::new();
    let site = modelatlas::manifest::SiteSettings {
        title: "modelatlas".into(),
        base_url: "https://example.org/atlas/".into(),
    };
    let mamba = renderer.model(&page(json!({"model_type": "mamba"})), &site, "../../").unwrap();
    for text in [&mamba.html, &mamba.markdown] {
        assert!(text.contains("recurrent state"), "{text}");
    }
    assert!(!mamba.json.contains("\"vision\""));
    let gemma3 = page(json!({"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
        "text_config": small_text("gemma3_text")}));
    let files = renderer.model(&gemma3, &site, "../../").unwrap();
    for text in [&files.html, &files.markdown] {
        assert!(text.contains("vision-language model") && text.contains("256 tokens"), "{text}");
    }
    // A text-only model's JSON has no vision part and its KV layout no recurrent state.
    let llama = renderer.model(&page(json!({"model_type": "llama"})), &site, "../../").unwrap();
    assert!(!llama.json.contains("\"vision\"") && !llama.json.contains("\"recurrent\""));
}
