//! Parameter counts of the ModernBERT family, EuroBERT, UltraBERT and MobileBERT, each written
//! out by hand from transformers 5.24's modeling files (`modeling_modernbert.py`,
//! `modeling_modernbert_decoder.py`, `modeling_eurobert.py`, `modeling_ultrabert.py`,
//! `modeling_mobilebert.py`), with the figure transformers builds on the meta device quoted
//! beside each derivation.

mod common;

use common::{plan_id, plan_text};
use serde_json::json;

/// nn.Linear(i, o) with its bias.
fn linear(i: u64, o: u64) -> u64 {
    i * o + o
}

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

#[test]
fn modernbert_base_counts_a_fused_qkv_a_glu_mlp_and_no_attention_norm_in_its_first_layer() {
    // ModernBertConfig's defaults (ModernBERT-base): vocab 50368, 768 wide, 22 layers, 12 heads,
    // intermediate 1152; no bias anywhere (norm_bias, attention_bias, mlp_bias false), so each
    // LayerNorm is its weight alone.
    let (v, h, f, layers) = (50368, 768, 1152, 22);
    let embeddings = v * h + h; // tok_embeddings, norm
    // attn.Wqkv (h -> 3h), attn.Wo, mlp_norm, mlp.Wi (h -> 2f: input and gate), mlp.Wo (f -> h).
    let layer = h * 3 * h + h * h + h + h * 2 * f + f * h;
    // Layer 0's attn_norm is nn.Identity (the embeddings' norm precedes it).
    let model = embeddings + layers * layer + (layers - 1) * h + h; // ... + final_norm
    assert_eq!(model, 149_014_272); // transformers: ModernBertModel()
    // ForMaskedLM: head.dense (no bias: classifier_bias false), head.norm, decoder tied to the
    // token embeddings with its own bias (decoder_bias true).
    let mlm = model + h * h + h + v;
    assert_eq!(mlm, 149_655_232); // transformers: ModernBertForMaskedLM()
    assert_eq!(derived(json!({"model_type": "modernbert"})), model);
    assert_eq!(derived(json!({"model_type": "modernbert", "architectures": ["ModernBertForMaskedLM"]})), mlm);
    // ForMultipleChoice: the head, then a classifier to one score with its bias.
    let choice = json!({"model_type": "modernbert", "architectures": ["ModernBertForMultipleChoice"]});
    assert_eq!(derived(choice), model + h * h + h + linear(h, 1));
}

#[test]
fn modernbert_decoder_splits_its_projections_and_caches_half_the_local_window() {
    let (v, h, f, layers) = (500, 64, 96, 3);
    let config = json!({"model_type": "modernbert-decoder", "architectures": ["ModernBertDecoderForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_attention_heads": 4, "num_hidden_layers": layers,
        "intermediate_size": f, "tie_word_embeddings": false, "norm_bias": true, "pad_token_id": 0});
    let norm = 2 * h; // norm_bias true: weight and bias
    // q_proj, k_proj, v_proj, Wo (no bias), mlp_norm, Wi (h -> 2f), Wo (f -> h); attn_norm from layer 1.
    let layer = 4 * h * h + norm + h * 2 * f + f * h;
    let model = v * h + norm + layers * layer + (layers - 1) * norm + norm;
    // lm_head.dense (no bias), lm_head.norm, an untied decoder with its bias.
    let expected = model + h * h + norm + v * h + v;
    assert_eq!(expected, 174_068); // transformers: ModernBertDecoderForCausalLM on the meta device
    let plan = plan_text(&config.to_string()).unwrap();
    assert_eq!(plan.params.unwrap().derived, expected);
    // Layers 1 and 2 attend locally (global every third, from layer 0); ModernBertDecoderConfig's
    // sliding_window is local_attention // 2 = 64, what DynamicCache keeps for them.
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let windows: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.window)).collect();
    assert_eq!(windows, [(1, None), (2, Some(64))]);
}

#[test]
fn eurobert_is_llamas_layers_under_a_dense_and_classifier_head() {
    // EuroBERT-210m's shape from EuroBertConfig's defaults: vocab 128256, 768 wide, 12 layers,
    // 12 heads (as many KV heads, head_dim 64), intermediate 3072, no biases.
    let (v, h, f) = (128256, 768, 3072);
    let layer = 2 * h + 4 * h * h + 3 * h * f; // two RMSNorms, q/k/v/o, gate/up/down
    let model = v * h + 12 * layer + h;
    assert_eq!(model, 211_766_016); // transformers: EuroBertModel()
    assert_eq!(derived(json!({"model_type": "eurobert"})), model);
    // Grouped-query attention (one KV head of 16) and EuroBERT's sequence head: dense (h -> h,
    // with bias), GELU, classifier.
    let (v, h, f, kv) = (500, 64, 96, 16);
    let config = json!({"model_type": "eurobert", "architectures": ["EuroBertForSequenceClassification"],
        "vocab_size": v, "hidden_size": h, "num_attention_heads": 4, "num_key_value_heads": 1,
        "num_hidden_layers": 2, "intermediate_size": f, "num_labels": 3, "pad_token_id": 0});
    let layer = 2 * h + (h * h + 2 * h * kv + h * h) + 3 * h * f;
    let expected = v * h + 2 * layer + h + linear(h, h) + linear(h, 3);
    assert_eq!(expected, 94_019); // transformers, meta device
    assert_eq!(derived(config), expected);
}

#[test]
fn ultrabert_masked_lm_passes_through_its_prediction_head_width() {
    let (v, h, f, kv, p) = (500, 64, 96, 32, 32);
    let config = json!({"model_type": "ultrabert", "architectures": ["UltrabertForMaskedLM"],
        "vocab_size": v, "hidden_size": h, "num_attention_heads": 4, "num_key_value_heads": 2,
        "num_hidden_layers": 2, "intermediate_size": f, "prediction_head_size": p});
    let layer = 2 * h + (h * h + 2 * h * kv + h * h) + 3 * h * f;
    // head.linear1 (h -> p), head.linear2 (p -> h), both without bias; head.decoder untied
    // (tie_word_embeddings defaults to false), no bias.
    let expected = v * h + 2 * layer + h + h * p + p * h + v * h;
    assert_eq!(expected, 129_856); // transformers, meta device
    assert_eq!(derived(config), expected);
}

#[test]
fn mobilebert_uncased_counts_its_bottlenecks_stacked_ffns_and_the_mlm_heads_extra_columns() {
    // google/mobilebert-uncased (the snapshot's config): vocab 30522, hidden 512, embedding 128
    // over trigrams, true_hidden_size 128, intermediate 512, 24 layers, 4 feed-forward networks,
    // NoNorm (weight and bias), no pooler dense (classifier_activation false), tied.
    let (v, h, e, t, f) = (30522, 512, 128, 128, 512);
    let norm = |w: u64| 2 * w;
    let embeddings = v * e + linear(3 * e, h) + 512 * h + 2 * h + norm(h);
    let bottleneck = linear(h, t) + norm(t); // bottleneck.input, and .attention (shared q/k)
    let attention = linear(t, t) + linear(t, t) + linear(h, t) + linear(t, t) + norm(t);
    let ffn = linear(t, f) + linear(f, t) + norm(t); // 3 in `ffn`, 1 as intermediate + output
    let layer = 2 * bottleneck + attention + 4 * ffn + linear(t, h) + norm(h);
    // cls.predictions: transform (dense, LayerNorm), `dense` [h - e, v] without bias, the decoder
    // tied to the word embeddings and its bias to cls.predictions.bias; cls.seq_relationship.
    let head = linear(h, h) + norm(h) + (h - e) * v + v + linear(h, 2);
    let expected = embeddings + 24 * layer + head;
    // transformers: MobileBertForPreTraining from this config (params_report_mbert6.md's hub row).
    assert_eq!(expected, 36_597_564);
    assert_eq!(plan_id("google/mobilebert-uncased").params.unwrap().derived, expected);
}

#[test]
fn mobilebert_without_bottleneck_runs_at_the_hidden_width() {
    // use_bottleneck false: true_hidden_size is hidden, no bottleneck linears; one FFN; the
    // pooler's dense is there (classifier_activation defaults to true) under sequence
    // classification.
    let (v, h, e, f) = (300, 48, 16, 40);
    let config = json!({"model_type": "mobilebert", "architectures": ["MobileBertForSequenceClassification"],
        "vocab_size": v, "hidden_size": h, "embedding_size": e, "intermediate_size": f,
        "num_hidden_layers": 2, "num_attention_heads": 4, "use_bottleneck": false,
        "num_feedforward_networks": 1, "trigram_input": false, "num_labels": 3});
    let embeddings = v * e + linear(e, h) + 512 * h + 2 * h + 2 * h;
    let layer = 4 * linear(h, h) + 2 * h + linear(h, f) + linear(f, h) + 2 * h;
    assert_eq!(derived(config), embeddings + 2 * layer + linear(h, h) + linear(h, 3));
}

/// SigLIP's vision transformer of width `h`, MLP `f`, `layers` layers over `patches` patches of
/// 16x16x3, with its attention-pooling head: patch convolution (with bias), position table,
/// per layer two LayerNorms, q/k/v/out_proj and fc1/fc2 (all with bias), post_layernorm; the
/// head's probe, fused in_proj, out_proj, LayerNorm and MLP.
fn siglip(h: u64, f: u64, layers: u64, patches: u64) -> u64 {
    let embeddings = h * 3 * 16 * 16 + h + patches * h;
    let layer = 2 * 2 * h + 4 * linear(h, h) + linear(h, f) + linear(f, h);
    let head = h + 3 * h * h + 3 * h + linear(h, h) + 2 * h + linear(h, f) + linear(f, h);
    embeddings + layers * layer + 2 * h + head
}

#[test]
fn modernvbert_projects_pixel_shuffled_patches_into_modernbert() {
    // Tower 32 wide, one layer, 64x64 images of 16x16 patches (16 patches); pixel_shuffle_factor
    // 4 makes one token of 16 patches: modality_projection [64, 32 x 16], no bias.
    let vision = siglip(32, 48, 1, 16);
    let connector = 32 * 16 * 64;
    // ModernBertModel: 500 x 64 tokens, 2 layers of width 64 (MLP 96), bias-free norms.
    let (v, h, f) = (500, 64, 96);
    let layer = h * 3 * h + h * h + h + h * 2 * f + f * h;
    let text = v * h + h + 2 * layer + h + h;
    // projection_head (dense without bias, norm) and an untied lm_head (the top-level
    // tie_word_embeddings defaults to false) with its bias (text decoder_bias true).
    let head = h * h + h + v * h + v;
    let expected = vision + connector + text + head;
    assert_eq!(expected, 211_540); // transformers: ModernVBertForMaskedLM, meta device
    let config = json!({"model_type": "modernvbert", "architectures": ["ModernVBertForMaskedLM"],
        "text_config": {"vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
            "num_attention_heads": 4, "pad_token_id": 0},
        "vision_config": {"hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 1,
            "num_attention_heads": 2, "image_size": 64, "patch_size": 16}});
    assert_eq!(derived(config), expected);
}

#[test]
fn ultravbert_normalises_the_image_tokens_into_ultrabert() {
    let vision = siglip(32, 48, 1, 16);
    let connector = 32 * 16 * 64 + 64; // modality_projection, then an RMSNorm over the text width
    let (v, h, f, kv) = (500, 64, 96, 32);
    let layer = 2 * h + (h * h + 2 * h * kv + h * h) + 3 * h * f;
    let text = v * h + 2 * layer + h;
    let expected = vision + connector + text + linear(h, 5); // classifier, no head before it
    assert_eq!(expected, 167_077); // transformers: UltraVBertForTokenClassification, meta device
    let config = json!({"model_type": "ultravbert", "architectures": ["UltraVBertForTokenClassification"],
        "num_labels": 5,
        "text_config": {"vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "prediction_head_size": 32},
        "vision_config": {"hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 1,
            "num_attention_heads": 2, "image_size": 64, "patch_size": 16}});
    assert_eq!(derived(config), expected);
}
