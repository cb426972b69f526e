//! The enc7 encoder types (`config/doc_text.rs`, `layoutlmv3.rs`, `canine.rs`, `esmc.rs`,
//! `clip_text.rs`): each count written out by hand from transformers 5.24's modeling file
//! (embeddings + layers x (attention + MLP + norms) + head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// A linear with its bias.
fn lin(i: u64, o: u64) -> u64 {
    i * o + o
}

/// BERT's post-LN layer: q, k, v and the attention output (h x h with biases), its LayerNorm,
/// the intermediate and output denses, their LayerNorm.
fn bert_layer(h: u64, f: u64) -> u64 {
    4 * lin(h, h) + 2 * h + lin(h, f) + lin(f, h) + 2 * h
}

/// BERT's word, position and token-type tables and their LayerNorm.
fn bert_embeddings(v: u64, h: u64, p: u64, t: u64) -> u64 {
    v * h + p * h + t * h + 2 * h
}

#[test]
fn markuplm_counts_a_tag_and_a_subscript_table_per_depth_and_the_unused_xpath_projection() {
    let (v, h, f, p, layers) = (1000, 64, 128, 40, 2);
    let (depth, unit, tags, subs) = (3, 8, 20, 30);
    // XPathEmbeddings: xpath_unitseq2_embeddings (built, never called), xpath_unitseq2_inner to
    // 4h, inner2emb back to h, and max_depth tag and subscript tables of xpath_unit_hidden_size.
    let xpath =
        lin(depth * unit, h) + lin(depth * unit, 4 * h) + lin(4 * h, h) + depth * (tags + subs) * unit;
    // MarkupLMModel keeps its pooler.
    let expected = bert_embeddings(v, h, p, 2) + xpath + layers * bert_layer(h, f) + lin(h, h);
    let config = json!({"model_type": "markuplm", "architectures": ["MarkupLMModel"], "vocab_size": v,
        "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": 4, "intermediate_size": f,
        "max_position_embeddings": p, "max_depth": depth, "xpath_unit_hidden_size": unit,
        "max_xpath_tag_unit_embeddings": tags, "max_xpath_subs_unit_embeddings": subs});
    assert_eq!(derived(config), expected);
}

#[test]
fn bros_entity_extraction_counts_the_box_projection_the_pooler_and_both_spade_heads() {
    let (v, h, heads, f, p, rel, labels) = (500, 64, 4, 96, 50, 2, 3);
    // bbox_projection: hidden / 4 sinusoid channels to one head's width, no bias.
    let boxes = (h / 4) * (h / heads);
    // initial_token_classifier (two linears); subsequent_token_classifier: query and key of
    // n_relations x hidden, and the dummy node.
    let head = lin(h, h) + lin(h, labels) + 2 * lin(h, rel * h) + h;
    let expected = bert_embeddings(v, h, p, 2) + boxes + 2 * bert_layer(h, f) + lin(h, h) + head;
    let config = json!({"model_type": "bros", "architectures": ["BrosSpadeEEForTokenClassification"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 2, "num_attention_heads": heads,
        "intermediate_size": f, "max_position_embeddings": p, "n_relations": rel, "num_labels": labels});
    assert_eq!(derived(config), expected);
}

#[test]
fn lilt_counts_a_layout_stream_shrunk_by_the_ratio_beside_every_text_layer() {
    let (v, h, f, p, shrink, max_2d, labels) = (501, 96, 250, 40, 3, 77, 3);
    let (w, wf) = (h / shrink, f / shrink); // 32 and 83: the layout stream's widths
    // layout_embeddings: x, y, h, w tables of hidden / 6, box positions and a linear at the
    // layout width, its LayerNorm.
    let layout_embeddings = 4 * max_2d * (h / 6) + p * w + lin(h, w) + 2 * w;
    // Per layer: layout q, k, v, layout_output (dense, LayerNorm), layout_intermediate,
    // layout_output (dense, LayerNorm).
    let layout_layer = 3 * lin(w, w) + lin(w, w) + 2 * w + lin(w, wf) + lin(wf, w) + 2 * w;
    // Sequence classification: no pooler, RoBERTa's dense and out_proj.
    let head = lin(h, h) + lin(h, labels);
    let expected =
        bert_embeddings(v, h, p, 2) + layout_embeddings + 2 * (bert_layer(h, f) + layout_layer) + head;
    let config = json!({"model_type": "lilt", "architectures": ["LiltForSequenceClassification"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": f, "max_position_embeddings": p, "channel_shrink_ratio": shrink,
        "max_2d_position_embeddings": max_2d, "num_labels": labels});
    assert_eq!(derived(config), expected);
}

#[test]
fn layoutlmv3_counts_the_patch_embeddings_and_the_shared_relative_biases_as_transformers_does() {
    let (v, h, heads, f, p, max_2d, coord, shape) = (500, 64, 4, 128, 40, 100, 16, 24);
    let (image, patch, channels) = (32, 8, 3);
    // Text: BERT's three tables and LayerNorm, x and y of coordinate_size, h and w of shape_size.
    let text = bert_embeddings(v, h, p, 2) + 2 * max_2d * coord + 2 * max_2d * shape;
    // Image: the patch convolution, cls_token, pos_embed over (32 / 8)^2 + 1 positions, LayerNorm
    // and norm.
    let side = image / patch;
    let visual = h * channels * patch * patch + h + h + (side * side + 1) * h + 2 * h + 2 * h;
    // rel_pos_bias (32 bins) and rel_pos_x_bias, rel_pos_y_bias (64 bins), no biases; no pooler.
    let biases = heads * 32 + 2 * heads * 64;
    let expected = text + visual + biases + 2 * bert_layer(h, f);
    let config = json!({"model_type": "layoutlmv3", "architectures": ["LayoutLMv3Model"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 2, "num_attention_heads": heads,
        "intermediate_size": f, "max_position_embeddings": p, "max_2d_position_embeddings": max_2d,
        "coordinate_size": coord, "shape_size": shape, "input_size": image, "patch_size": patch});
    assert_eq!(derived(config), expected);
}

#[test]
fn layoutlmv3_token_classification_switches_to_the_two_layer_head_at_ten_labels() {
    let base = json!({"model_type": "layoutlmv3", "architectures": ["LayoutLMv3ForTokenClassification"],
        "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": 96});
    let with = |labels: u64| {
        let mut c = base.clone();
        c["num_labels"] = json!(labels);
        derived(c)
    };
    let h = 64;
    // Under 10 labels a bare linear; from 10 on `LayoutLMv3ClassificationHead` (dense + out_proj).
    assert_eq!(with(10) - with(9), lin(h, h) + lin(h, 10) - lin(h, 9));
}

#[test]
fn canine_counts_hashed_tables_three_encoders_and_both_convolutions() {
    let (h, heads, f, layers, k, buckets, rate, up) = (96, 3, 200, 3, 5, 300, 2, 3);
    // num_hash_functions tables of hidden // k (19) each; positions index the bucket-sized table.
    let embeddings = k * buckets * (h / k) + buckets * h + 16 * h + 2 * h;
    // chars_to_molecules: Conv1d(h, h, rate) and LayerNorm; projection: Conv1d(2h, h, up) and
    // LayerNorm.
    let convs = (h * h * rate + h + 2 * h) + (h * 2 * h * up + h + 2 * h);
    // The initial and final character encoders are one layer each around the deep stack; every
    // class keeps the pooler; multiple choice scores with one output.
    let expected = embeddings + (layers + 2) * bert_layer(h, f) + convs + lin(h, h) + lin(h, 1);
    let config = json!({"model_type": "canine", "architectures": ["CanineForMultipleChoice"],
        "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": heads,
        "intermediate_size": f, "num_hash_functions": k, "num_hash_buckets": buckets,
        "downsampling_rate": rate, "upsampling_kernel_size": up});
    assert_eq!(derived(config), expected);
}

#[test]
fn esmc_masked_lm_counts_whole_vector_qk_norms_without_bias_and_an_untied_decoder() {
    let (v, h, f, layers) = (33, 64, 96, 2);
    // input_layernorm and post_attention_layernorm (weight and bias); q, k, v, o without bias;
    // q_norm and k_norm over the hidden size, weight only; SwiGLU without bias.
    let layer = 2 * h + 4 * h * h + 2 * h + 2 * h + 3 * h * f;
    // The final norm has no bias; lm_head: dense, LayerNorm, a decoder with its bias that
    // nothing ties, even with tie_word_embeddings set.
    let head = lin(h, h) + 2 * h + lin(h, v);
    let expected = v * h + layers * layer + h + head;
    let config = json!({"model_type": "esmc", "architectures": ["EsmcForMaskedLM"], "vocab_size": v,
        "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": 4, "intermediate_size": f,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), expected);
}

/// CLIP's pre-LN layer: layer_norm1, q, k, v and out_proj with biases, layer_norm2, fc1 and fc2.
fn clip_layer(h: u64, f: u64) -> u64 {
    2 * h + 4 * lin(h, h) + 2 * h + lin(h, f) + lin(f, h)
}

#[test]
fn clip_text_with_projection_counts_learned_positions_a_final_norm_and_a_bias_free_projection() {
    let (v, h, f, p, proj, layers) = (1000, 64, 128, 20, 32, 2);
    let expected = v * h + p * h + layers * clip_layer(h, f) + 2 * h + h * proj;
    let config = json!({"model_type": "clip_text_model", "architectures": ["CLIPTextModelWithProjection"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": 4,
        "intermediate_size": f, "max_position_embeddings": p, "projection_dim": proj});
    assert_eq!(derived(config), expected);
}

#[test]
fn tipsv2_text_counts_no_position_table_its_sinusoids_are_a_buffer() {
    let (v, h, f, layers) = (1000, 64, 128, 2);
    let expected = v * h + layers * clip_layer(h, f) + 2 * h;
    let config = json!({"model_type": "tipsv2_text_model", "architectures": ["Tipsv2TextModel"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": 4,
        "intermediate_size": f, "max_position_embeddings": 64});
    assert_eq!(derived(config), expected);
}

#[test]
fn layoutlmv2_is_not_planned_and_its_page_says_detectron2_is_why() {
    let page = plan_text(r#"{"model_type": "layoutlmv2", "architectures": ["LayoutLMv2Model"]}"#).unwrap();
    assert!(page.params.is_none());
    let why = page.unsupported_reason.unwrap();
    assert!(why.contains("detectron2"), "{why}");
}

#[test]
fn classes_a_type_does_not_define_are_refused_naming_the_class() {
    for (model_type, class) in [
        ("markuplm", "MarkupLMForMaskedLM"),
        ("bros", "BrosForSequenceClassification"),
        ("canine", "CanineForMaskedLM"),
        ("tipsv2_text_model", "CLIPTextModelWithProjection"),
    ] {
        let text = json!({"model_type": model_type, "architectures": [class]}).to_string();
        let err = plan_text(&text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains(class), "{model_type}: {err}");
    }
}

#[test]
fn every_key_the_enc7_types_read_set_to_a_bad_value_plans_and_renders_or_is_refused_naming_a_field() {
    let bert = json!({"vocab_size": 300, "hidden_size": 64, "num_hidden_layers": 1,
        "num_attention_heads": 4, "intermediate_size": 96, "max_position_embeddings": 40,
        "type_vocab_size": 2, "hidden_act": "gelu", "layer_norm_eps": 1e-12, "pad_token_id": 0,
        "num_labels": 3});
    let own = [
        (
            "markuplm",
            "MarkupLMForSequenceClassification",
            json!({"max_depth": 4, "xpath_unit_hidden_size": 8,
            "max_xpath_tag_unit_embeddings": 20, "max_xpath_subs_unit_embeddings": 30}),
        ),
        (
            "bros",
            "BrosSpadeEEForTokenClassification",
            json!({"n_relations": 2, "add_cross_attention": false}),
        ),
        (
            "lilt",
            "LiltForSequenceClassification",
            json!({"channel_shrink_ratio": 4, "max_2d_position_embeddings": 50}),
        ),
        (
            "layoutlmv3",
            "LayoutLMv3ForTokenClassification",
            json!({"max_2d_position_embeddings": 50,
            "coordinate_size": 16, "shape_size": 16, "rel_pos_bins": 8, "rel_2d_pos_bins": 8, "input_size": 32,
            "num_channels": 3, "patch_size": 8, "has_relative_attention_bias": true,
            "has_spatial_attention_bias": true, "text_embed": true, "visual_embed": true}),
        ),
        (
            "canine",
            "CanineForQuestionAnswering",
            json!({"downsampling_rate": 2, "upsampling_kernel_size": 3,
            "num_hash_functions": 4, "num_hash_buckets": 100}),
        ),
        (
            "esmc",
            "EsmcForTokenClassification",
            json!({"num_key_value_heads": 4, "head_dim": 16,
            "attention_bias": false, "mlp_bias": false, "token_classification_bias": true}),
        ),
        ("clip_text_model", "CLIPTextModelWithProjection", json!({"projection_dim": 32})),
        ("tipsv2_text_model", "Tipsv2TextModel", json!({})),
    ];
    let bad = [
        json!(0),
        json!(-1),
        json!(1_000_000_000_000_000u64),
        json!(u64::MAX),
        json!(3.5),
        json!("x"),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
    ];
    let renderer = modelatlas::render::Renderer::new();
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    for (model_type, class, keys) in own {
        let mut base = bert.clone();
        base["model_type"] = json!(model_type);
        base["architectures"] = json!([class]);
        for (k, v) in keys.as_object().unwrap() {
            base[k] = v.clone();
        }
        assert!(plan_text(&base.to_string()).is_ok(), "{model_type}: the base config plans");
        for key in base.as_object().unwrap().keys().filter(|k| *k != "model_type") {
            for value in &bad {
                let mut v = base.clone();
                v[key] = value.clone();
                match plan_text(&v.to_string()) {
                    Ok(page) => {
                        if let Err(e) = renderer.model(&page, &manifest.site, "../../") {
                            panic!("{model_type} {key}={value}: {e}");
                        }
                    }
                    Err(e) => {
                        let msg = e.to_string();
                        assert!(msg.contains("field `"), "{model_type} {key}={value}: {msg}");
                    }
                }
            }
        }
    }
}

#[test]
fn markuplm_lilt_and_layoutlmv3_number_positions_after_the_padding_index_and_bros_from_zero() {
    // create_position_ids_from_input_ids: ids start at padding_idx + 1, so of 514 rows with
    // pad_token_id 1, 512 are reachable; BrosTextEmbeddings numbers positions from 0.
    for (model_type, usable) in [("markuplm", 512), ("lilt", 512), ("layoutlmv3", 512), ("bros", 514)] {
        let text = json!({"model_type": model_type, "max_position_embeddings": 514, "pad_token_id": 1});
        let page = plan_text(&text.to_string()).unwrap();
        assert_eq!(page.config.unwrap().usable_context, usable, "{model_type}");
    }
}
