//! Parameter counts of the classic decoders (GPT-2, GPT-NeoX, OPT, BLOOM, Falcon, Phi), each
//! written out from the config by hand, and the difference from the published checkpoint
//! explained where one is published. Published figures come from
//! tests/fixtures/reference/checkpoints.tsv, not from this code.

mod common;

use common::{plan_id, plan_text, published_counts, reference_config_with};
use modelatlas::estimate::reconcile::{Method, Status};
use modelatlas::page::ModelPage;
use serde_json::json;

fn derived(page: &ModelPage) -> u64 {
    page.params.as_ref().unwrap().derived
}

fn plan_json(config: serde_json::Value) -> ModelPage {
    plan_text(&config.to_string()).unwrap()
}

/// A tensor's shape in the planned graph, by its expanded checkpoint name.
fn shape(page: &ModelPage, name: &str) -> Vec<u64> {
    let g = page.structure.as_ref().unwrap();
    let found = g.tensors().find(|(n, _)| n == name).map(|(_, t)| t.shape.clone());
    found.unwrap_or_else(|| panic!("no tensor {name} in the graph"))
}

fn has_tensor(page: &ModelPage, name: &str) -> bool {
    page.structure.as_ref().unwrap().tensors().any(|(n, _)| n == name)
}

fn linear(inp: u64, out: u64) -> u64 {
    inp * out + out
}

fn layer_norm(h: u64) -> u64 {
    2 * h
}

// ---------------------------------------------------------------------------------------------
// GPT-2

/// ln_1 and ln_2, c_attn (e -> 3e, bias), attn.c_proj (e -> e, bias), mlp.c_fc (e -> inner) and
/// mlp.c_proj (inner -> e), all Conv1D with bias.
fn gpt2_block(e: u64, inner: u64) -> u64 {
    2 * layer_norm(e) + linear(e, 3 * e) + linear(e, e) + linear(e, inner) + linear(inner, e)
}

/// wte + wpe + the blocks + ln_f; the LM head is tied to wte.
fn gpt2_model(vocab: u64, positions: u64, e: u64, layers: u64) -> u64 {
    vocab * e + positions * e + layers * gpt2_block(e, 4 * e) + layer_norm(e)
}

#[test]
fn gpt2_is_124_439_808_parameters_and_its_checkpoint_adds_the_causal_masks() {
    // config.json: vocab 50257, n_positions 1024, n_embd 768, n_layer 12, n_inner null (4 x 768).
    assert_eq!(50_257 * 768, 38_597_376, "wte");
    assert_eq!(1024 * 768, 786_432, "wpe");
    assert_eq!(gpt2_block(768, 3072), 7_087_872);
    let expected = 38_597_376 + 786_432 + 12 * 7_087_872 + 1_536;
    assert_eq!(expected, 124_439_808);
    assert_eq!(gpt2_model(50_257, 1024, 768, 12), expected);

    let page = plan_id("openai-community/gpt2");
    assert_eq!(page.architecture.as_deref(), Some("GPT2LMHeadModel"));
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.derived, expected);
    let published = published_counts()["openai-community/gpt2"];
    assert_eq!(published, 137_022_720);
    assert_eq!(p.checkpoint, Some(published));
    // One [1, 1, 1024, 1024] attn.bias buffer per layer.
    assert_eq!(published - expected, 12 * 1024 * 1024);
    let r = &p.reconciliation;
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.method, Some(Method::Inferred));
    assert_eq!(r.items.len(), 1);
    assert_eq!(r.items[0].label, "causal-mask buffers");
    assert_eq!(r.items[0].scalars, 12_582_912);
    // The twelve buffers, h.0 to h.11, listed as one pattern with their count.
    assert_eq!(r.items[0].tensors, ["h.{0..11}.attn.bias"]);
    assert_eq!(r.items[0].count, 12);

    // Conv1D stores [in, out]; lm_head is an nn.Linear [out, in] tied to wte (listed, counted once).
    assert_eq!(shape(&page, "transformer.h.0.attn.c_attn.weight"), [768, 2304]);
    assert_eq!(shape(&page, "transformer.h.11.mlp.c_proj.weight"), [3072, 768]);
    assert_eq!(shape(&page, "lm_head.weight"), [50_257, 768]);
    assert_eq!(p.tied.len(), 1);
    assert_eq!(
        (p.tied[0].tensor.as_str(), p.tied[0].tied_to.as_str()),
        ("lm_head.weight", "transformer.wte.weight")
    );
    let dims = page.config.as_ref().unwrap();
    assert_eq!(
        (dims.hidden_size, dims.num_kv_heads, dims.intermediate_size, dims.usable_context),
        (768, 12, 3072, 1024)
    );
}

#[test]
fn gpt2_large_and_xl_are_derived_from_their_configs() {
    // gpt2-large: n_embd 1280, 36 layers; gpt2-xl: n_embd 1600, 48 layers; both 1024 positions.
    let large = 50_257 * 1280 + 1024 * 1280 + 36 * gpt2_block(1280, 5120) + 2 * 1280;
    assert_eq!(gpt2_block(1280, 5120), 19_677_440);
    assert_eq!(large, 774_030_080);
    assert_eq!(derived(&plan_id("openai-community/gpt2-large")), large);
    let xl = 50_257 * 1600 + 1024 * 1600 + 48 * gpt2_block(1600, 6400) + 2 * 1600;
    assert_eq!(gpt2_block(1600, 6400), 30_740_800);
    assert_eq!(xl, 1_557_611_200);
    assert_eq!(derived(&plan_id("openai-community/gpt2-xl")), xl);
    for id in ["openai-community/gpt2-large", "openai-community/gpt2-xl"] {
        assert!(!published_counts().contains_key(id), "{id}: a published count would be checked here");
    }
}

#[test]
fn gpt2_default_config_is_gpt2_small_as_a_bare_model() {
    // GPT2Config(): vocab 50257, n_positions 1024, n_embd 768, n_layer 12, n_head 12, n_inner None.
    let page = plan_json(json!({"model_type": "gpt2"}));
    assert_eq!(page.architecture.as_deref(), Some("GPT2Model"));
    assert_eq!(derived(&page), gpt2_model(50_257, 1024, 768, 12));
    assert!(has_tensor(&page, "h.0.ln_1.weight"), "the bare model has no transformer. prefix");
    assert!(page.defaulted.iter().any(|d| d.field == "n_inner"));
}

#[test]
fn gpt2_heads_are_sized_from_the_config() {
    let base = gpt2_model(50_257, 1024, 768, 12);
    let labels = json!({"0": "a", "1": "b", "2": "c"});
    let cases = [
        // score: 768 -> 3 labels, no bias.
        ("GPT2ForSequenceClassification", base + 768 * 3, "score.weight"),
        // classifier: 768 -> 3 labels with bias.
        ("GPT2ForTokenClassification", base + linear(768, 3), "classifier.bias"),
        ("GPT2ForQuestionAnswering", base + linear(768, 2), "qa_outputs.weight"),
    ];
    for (class, expected, tensor) in cases {
        let config = reference_config_with(
            "openai-community--gpt2",
            json!({"architectures": [class], "id2label": labels.clone()}),
        );
        let page = plan_text(&config).unwrap();
        assert_eq!(derived(&page), expected, "{class}");
        assert!(has_tensor(&page, tensor), "{class}: {tensor}");
        assert!(has_tensor(&page, "transformer.wte.weight"), "{class}");
    }
    // Aliases from GPT2Config.attribute_map, and an explicit n_inner.
    let page = plan_json(json!({
        "model_type": "gpt2", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
        "max_position_embeddings": 128, "n_inner": 512, "vocab_size": 1000
    }));
    assert_eq!(derived(&page), 1000 * 256 + 128 * 256 + 2 * gpt2_block(256, 512) + 2 * 256);
}

#[test]
fn gpt2_with_cross_attention_adds_a_second_attention_per_block() {
    // ln_cross_attn, q_attn (e -> e), c_attn (e -> 2e for keys and values), c_proj (e -> e).
    let cross = layer_norm(768) + linear(768, 768) + linear(768, 2 * 768) + linear(768, 768);
    let page = plan_json(json!({"model_type": "gpt2", "add_cross_attention": true}));
    assert_eq!(derived(&page), gpt2_model(50_257, 1024, 768, 12) + 12 * cross);
    assert_eq!(shape(&page, "h.3.crossattention.c_attn.weight"), [768, 1536]);
}

// ---------------------------------------------------------------------------------------------
// GPT-NeoX

/// Two LayerNorms, fused query_key_value (h -> 3h) and dense (h -> h) with bias, the MLP with bias.
fn neox_layer(h: u64, ffn: u64) -> u64 {
    2 * layer_norm(h) + linear(h, 3 * h) + linear(h, h) + linear(h, ffn) + linear(ffn, h)
}

/// embed_in + layers + final_layer_norm (+ embed_out, untied, no bias, for the causal LM).
fn neox(vocab: u64, h: u64, layers: u64, ffn: u64, causal_lm: bool) -> u64 {
    vocab * h + layers * neox_layer(h, ffn) + layer_norm(h) + if causal_lm { vocab * h } else { 0 }
}

#[test]
fn pythia_160m_and_1b_are_derived_from_their_configs() {
    // pythia-160m: vocab 50304, hidden 768, 12 layers, ffn 3072, tie_word_embeddings false.
    let small = 50_304 * 768 + 12 * neox_layer(768, 3072) + 2 * 768 + 50_304 * 768;
    assert_eq!(small, 162_322_944);
    let page = plan_id("EleutherAI/pythia-160m");
    assert_eq!(derived(&page), small);
    assert_eq!(shape(&page, "gpt_neox.layers.0.attention.query_key_value.weight"), [2304, 768]);
    assert!(page.params.as_ref().unwrap().tied.is_empty(), "embed_out is not tied");
    // pythia-1b: hidden 2048, 16 layers, ffn 8192.
    let big = neox(50_304, 2048, 16, 8192, true);
    assert_eq!(big, 1_011_781_632);
    assert_eq!(derived(&plan_id("EleutherAI/pythia-1b")), big);
    for id in ["EleutherAI/pythia-160m", "EleutherAI/pythia-1b"] {
        assert!(!published_counts().contains_key(id), "{id}: a published count would be checked here");
    }
    // Buffers that pre-4.31 checkpoints store are offered, not counted: a rotary inv_freq of
    // int(64 x 0.25) / 2 = 8 per layer.
    let text = reference_config_with("EleutherAI--pythia-160m", json!({}));
    let (common, value) = modelatlas::config::parse(&text).unwrap();
    let resolve = modelatlas::family::info("gpt_neox").unwrap().resolve.unwrap();
    let candidates = resolve(&value, &common).unwrap().checkpoint_candidates();
    let rotary = candidates.iter().find(|c| c.label == "rotary inv_freq buffers").unwrap();
    assert_eq!(rotary.signed_scalars(), 12 * 8);
    let masks = candidates.iter().find(|c| c.label == "causal-mask buffers").unwrap();
    assert_eq!(masks.signed_scalars(), 12 * 2048 * 2048);
}

#[test]
fn gpt_neox_default_config_is_gpt_neox_20b_as_a_bare_model() {
    // GPTNeoXConfig(): vocab 50432, hidden 6144, 44 layers, ffn 24576, attention_bias true.
    let page = plan_json(json!({"model_type": "gpt_neox"}));
    assert_eq!(page.architecture.as_deref(), Some("GPTNeoXModel"));
    let expected = neox(50_432, 6144, 44, 24_576, false);
    assert_eq!(expected, 50_432 * 6144 + 44 * 453_064_704 + 2 * 6144);
    assert_eq!(derived(&page), expected);
}

#[test]
fn gpt_neox_heads_and_switches() {
    let base = neox(50_304, 768, 12, 3072, false);
    let page = plan_text(&reference_config_with(
        "EleutherAI--pythia-160m",
        json!({"architectures": ["GPTNeoXForSequenceClassification"], "num_labels": 5}),
    ))
    .unwrap();
    assert_eq!(derived(&page), base + 768 * 5, "score, no bias");
    // Without attention biases, query_key_value and dense lose 3h + h per layer; tying removes
    // embed_out from the count.
    let page = plan_text(&reference_config_with(
        "EleutherAI--pythia-160m",
        json!({"attention_bias": false, "tie_word_embeddings": true}),
    ))
    .unwrap();
    assert_eq!(derived(&page), base - 12 * (3 * 768 + 768));
    assert_eq!(page.params.as_ref().unwrap().tied[0].tied_to, "gpt_neox.embed_in.weight");
}

// ---------------------------------------------------------------------------------------------
// OPT

/// self_attn_layer_norm and final_layer_norm, q/k/v/out_proj (h -> h, bias), fc1 and fc2.
fn opt_layer(h: u64, ffn: u64) -> u64 {
    2 * layer_norm(h) + 4 * linear(h, h) + linear(h, ffn) + linear(ffn, h)
}

/// embed_tokens (vocab x word_embed_proj_dim) + positions (max + 2 rows) + layers + the final
/// LayerNorm when there is one + project_in/project_out when the widths differ; lm_head is tied.
fn opt(vocab: u64, h: u64, proj: u64, layers: u64, ffn: u64, final_norm: bool) -> u64 {
    let projections = if proj == h { 0 } else { proj * h + h * proj };
    vocab * proj
        + (2048 + 2) * h
        + layers * opt_layer(h, ffn)
        + if final_norm { layer_norm(h) } else { 0 }
        + projections
}

#[test]
fn opt_125m_and_1_3b_are_derived_from_their_configs() {
    // opt-125m: vocab 50272, hidden 768 = word_embed_proj_dim, 12 layers, ffn 3072, pre-norm.
    let small = 50_272 * 768 + 2050 * 768 + 12 * opt_layer(768, 3072) + 2 * 768;
    assert_eq!(small, 125_239_296);
    let page = plan_id("facebook/opt-125m");
    assert_eq!(derived(&page), small);
    assert_eq!(shape(&page, "model.decoder.embed_positions.weight"), [2050, 768]);
    assert!(has_tensor(&page, "model.decoder.final_layer_norm.weight"));
    assert_eq!(page.params.as_ref().unwrap().tied[0].tied_to, "model.decoder.embed_tokens.weight");
    // opt-1.3b: hidden 2048, 24 layers, ffn 8192.
    let big = opt(50_272, 2048, 2048, 24, 8192, true);
    assert_eq!(big, 1_315_758_080);
    assert_eq!(derived(&plan_id("facebook/opt-1.3b")), big);
    for id in ["facebook/opt-125m", "facebook/opt-1.3b"] {
        assert!(!published_counts().contains_key(id), "{id}: a published count would be checked here");
    }
}

#[test]
fn opt_default_config_is_opt_125m_as_a_bare_model() {
    let page = plan_json(json!({"model_type": "opt"}));
    assert_eq!(page.architecture.as_deref(), Some("OPTModel"));
    assert_eq!(derived(&page), opt(50_272, 768, 768, 12, 3072, true));
    assert!(has_tensor(&page, "decoder.layers.11.fc2.bias"));
    assert_eq!(page.config.as_ref().unwrap().pad_token_id, Some(1));
}

#[test]
fn opt_350m_projects_its_512_wide_embeddings_and_has_no_final_norm() {
    // opt-350m's sizes: hidden 1024, word_embed_proj_dim 512, 24 layers, ffn 4096, post-norm.
    let config = reference_config_with(
        "facebook--opt-125m",
        json!({"hidden_size": 1024, "word_embed_proj_dim": 512, "num_hidden_layers": 24,
               "ffn_dim": 4096, "num_attention_heads": 16, "do_layer_norm_before": false}),
    );
    let page = plan_text(&config).unwrap();
    let expected = 50_272 * 512 + 2050 * 1024 + 24 * opt_layer(1024, 4096) + 512 * 1024 + 1024 * 512;
    assert_eq!(expected, 331_196_416);
    assert_eq!(derived(&page), expected);
    assert_eq!(shape(&page, "model.decoder.project_in.weight"), [1024, 512]);
    assert_eq!(shape(&page, "model.decoder.project_out.weight"), [512, 1024]);
    assert_eq!(shape(&page, "lm_head.weight"), [50_272, 512]);
    assert!(!has_tensor(&page, "model.decoder.final_layer_norm.weight"));
    // The question-answering head reads the projected width.
    let config = reference_config_with(
        "facebook--opt-125m",
        json!({"architectures": ["OPTForQuestionAnswering"], "word_embed_proj_dim": 512, "hidden_size": 1024,
               "num_attention_heads": 16}),
    );
    let page = plan_text(&config).unwrap();
    assert_eq!(derived(&page), opt(50_272, 1024, 512, 12, 3072, true) + linear(512, 2));
}

// ---------------------------------------------------------------------------------------------
// BLOOM

/// input_layernorm, fused query_key_value (h -> 3h), dense, post_attention_layernorm, and the
/// 4h MLP, all with bias.
fn bloom_block(h: u64) -> u64 {
    layer_norm(h) + linear(h, 3 * h) + linear(h, h) + layer_norm(h) + linear(h, 4 * h) + linear(4 * h, h)
}

/// word_embeddings + word_embeddings_layernorm + blocks + ln_f; no position table (ALiBi).
fn bloom(vocab: u64, h: u64, layers: u64) -> u64 {
    vocab * h + layer_norm(h) + layers * bloom_block(h) + layer_norm(h)
}

#[test]
fn bloom_560m_equals_its_published_checkpoint() {
    // bigscience/bloom-560m: vocab 250880, hidden 1024, 24 layers, 16 heads, tied lm_head.
    assert_eq!(bloom_block(1024), 12_596_224);
    let expected = 250_880 * 1024 + 2048 + 24 * 12_596_224 + 2048;
    assert_eq!(expected, bloom(250_880, 1024, 24));
    let page = plan_json(json!({
        "model_type": "bloom", "architectures": ["BloomForCausalLM"], "vocab_size": 250880,
        "hidden_size": 1024, "n_layer": 24, "n_head": 16, "layer_norm_epsilon": 1e-5,
        "apply_residual_connection_post_layernorm": false, "bos_token_id": 1, "eos_token_id": 2,
        "pad_token_id": 3
    }));
    assert_eq!(derived(&page), expected);
    let published = published_counts()["bigscience/bloom-560m"];
    assert_eq!(published, expected, "the F16 checkpoint holds exactly the class's parameters");
    assert_eq!(shape(&page, "transformer.h.23.self_attention.query_key_value.weight"), [3072, 1024]);
    assert_eq!(page.params.as_ref().unwrap().tied[0].tied_to, "transformer.word_embeddings.weight");
}

#[test]
fn bloom_default_config_and_heads() {
    // BloomConfig(): vocab 250880, hidden 64, 2 layers, 8 heads.
    let page = plan_json(json!({"model_type": "bloom"}));
    assert_eq!(page.architecture.as_deref(), Some("BloomModel"));
    assert_eq!(derived(&page), bloom(250_880, 64, 2));
    assert_eq!(derived(&page), 16_156_544);
    let page = plan_json(json!({"model_type": "bloom", "architectures": ["BloomForTokenClassification"],
        "n_embed": 128, "num_hidden_layers": 3, "id2label": {"0": "O", "1": "B", "2": "I", "3": "X"}}));
    assert_eq!(derived(&page), bloom(250_880, 128, 3) + linear(128, 4), "n_embed and the alias are read");
    assert!(has_tensor(&page, "classifier.weight"));
}

// ---------------------------------------------------------------------------------------------
// Falcon

/// The norms (`norms` LayerNorms of width h), fused query_key_value (h -> (heads + 2 kv) x 64),
/// dense and the 4h MLP, none with bias (Falcon's `bias` defaults to false).
fn falcon_layer(h: u64, heads: u64, kv: u64, norms: u64) -> u64 {
    let hd = h / heads;
    norms * layer_norm(h) + h * (heads + 2 * kv) * hd + h * h + h * 4 * h + 4 * h * h
}

#[test]
fn falcon_7b_is_multi_query_with_one_shared_norm() {
    // falcon-7b: vocab 65024, hidden 4544, 71 heads of 64, multi_query, parallel_attn, no bias.
    assert_eq!(falcon_layer(4544, 71, 1, 1), 207_070_080);
    let expected = 65_024 * 4544 + 32 * 207_070_080 + 2 * 4544;
    assert_eq!(expected, 6_921_720_704);
    let page = plan_json(json!({
        "model_type": "falcon", "architectures": ["FalconForCausalLM"], "vocab_size": 65024,
        "hidden_size": 4544, "num_hidden_layers": 32, "num_attention_heads": 71, "multi_query": true,
        "new_decoder_architecture": false, "parallel_attn": true, "bias": false, "alibi": false
    }));
    assert_eq!(derived(&page), expected);
    assert_eq!(shape(&page, "transformer.h.0.self_attention.query_key_value.weight"), [4544 + 2 * 64, 4544]);
    assert!(has_tensor(&page, "transformer.h.0.input_layernorm.weight"));
    assert!(!has_tensor(&page, "transformer.h.0.ln_attn.weight"));
    assert_eq!(page.config.as_ref().unwrap().num_kv_heads, 1);

    // FalconConfig's defaults are falcon-7b's sizes.
    let page = plan_json(json!({"model_type": "falcon"}));
    assert_eq!(page.architecture.as_deref(), Some("FalconModel"));
    assert_eq!(derived(&page), expected);
}

#[test]
fn falcon_sizes_its_mlp_from_the_hidden_size_keyword() {
    // FalconConfig computes ffn_hidden_size = 4 x hidden_size before the legacy n_embed replaces
    // hidden_size: with n_embed alone the MLP keeps 4 x 4544.
    let page = plan_json(json!({"model_type": "falcon", "n_embed": 256, "num_attention_heads": 4,
        "num_hidden_layers": 1, "vocab_size": 100}));
    let (h, ffn) = (256, 4 * 4544);
    let layer = layer_norm(h) + h * (h + 2 * 64) + h * h + h * ffn + ffn * h;
    assert_eq!(derived(&page), 100 * h + layer + layer_norm(h));
}

#[test]
fn falcon_40b_groups_eight_kv_heads_with_separate_norms() {
    // falcon-40b: hidden 8192, 60 layers, 128 heads of 64, 8 kv heads, new decoder architecture.
    assert_eq!(falcon_layer(8192, 128, 8, 2), 679_510_016);
    let expected = 65_024 * 8192 + 60 * 679_510_016 + 2 * 8192;
    let page = plan_json(json!({
        "model_type": "falcon", "architectures": ["FalconForCausalLM"], "vocab_size": 65024,
        "hidden_size": 8192, "num_hidden_layers": 60, "num_attention_heads": 128, "num_kv_heads": 8,
        "new_decoder_architecture": true, "parallel_attn": true, "bias": false, "alibi": false
    }));
    assert_eq!(derived(&page), expected);
    assert_eq!(
        shape(&page, "transformer.h.0.self_attention.query_key_value.weight"),
        [(128 + 16) * 64, 8192]
    );
    assert!(has_tensor(&page, "transformer.h.59.ln_mlp.bias"));
    assert_eq!(page.config.as_ref().unwrap().num_kv_heads, 8);

    // Sequential blocks with biases and full multi-head attention (falcon-rw style) add a second
    // norm and every bias; a classifier head sits on top.
    let page = plan_json(json!({
        "model_type": "falcon", "architectures": ["FalconForSequenceClassification"], "vocab_size": 1000,
        "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4, "multi_query": false,
        "parallel_attn": false, "bias": true, "alibi": true, "num_labels": 3
    }));
    let h = 256;
    let layer = 2 * layer_norm(h) + linear(h, 3 * h) + linear(h, h) + linear(h, 4 * h) + linear(4 * h, h);
    assert_eq!(derived(&page), 1000 * h + 2 * layer + layer_norm(h) + h * 3);
}

// ---------------------------------------------------------------------------------------------
// Phi

/// input_layernorm, q/k/v/dense (h -> h, bias), fc1 and fc2 with bias.
fn phi_layer(h: u64, ffn: u64) -> u64 {
    layer_norm(h) + 4 * linear(h, h) + linear(h, ffn) + linear(ffn, h)
}

/// embed_tokens + layers + final_layernorm (+ lm_head with its bias, untied, for the causal LM).
fn phi(vocab: u64, h: u64, layers: u64, ffn: u64, causal_lm: bool) -> u64 {
    vocab * h + layers * phi_layer(h, ffn) + layer_norm(h) + if causal_lm { linear(h, vocab) } else { 0 }
}

#[test]
fn phi_default_config_is_phi_1_5_as_a_bare_model() {
    // PhiConfig(): vocab 51200, hidden 2048, ffn 8192, 24 layers, 32 heads, untied.
    let page = plan_json(json!({"model_type": "phi"}));
    assert_eq!(page.architecture.as_deref(), Some("PhiModel"));
    assert_eq!(derived(&page), phi(51_200, 2048, 24, 8192, false));
    assert_eq!(derived(&page), 1_313_361_920);
    let page = plan_json(json!({"model_type": "phi", "architectures": ["PhiForCausalLM"]}));
    assert_eq!(derived(&page), 1_313_361_920 + 2048 * 51_200 + 51_200);
    assert_eq!(shape(&page, "lm_head.bias"), [51_200]);
}

#[test]
fn phi_2_like_config_and_heads() {
    // phi-2: hidden 2560, ffn 10240, 32 layers, 32 heads, partial_rotary_factor 0.4.
    let config = json!({
        "model_type": "phi", "architectures": ["PhiForCausalLM"], "vocab_size": 51200,
        "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 32,
        "num_attention_heads": 32, "partial_rotary_factor": 0.4, "tie_word_embeddings": false
    });
    let page = plan_json(config.clone());
    let expected = phi(51_200, 2560, 32, 10_240, true);
    assert_eq!(expected, 2_779_683_840);
    assert_eq!(derived(&page), expected);
    assert!(has_tensor(&page, "model.layers.31.self_attn.dense.bias"));

    let mut token = config.clone();
    token["architectures"] = json!(["PhiForTokenClassification"]);
    token["num_labels"] = json!(7);
    let page = plan_json(token);
    assert_eq!(derived(&page), phi(51_200, 2560, 32, 10_240, false) + linear(2560, 7), "score with bias");
    assert!(has_tensor(&page, "score.bias"));

    // Grouped key/value heads and qk_layernorm (per-head norms of hidden / heads).
    let mut gqa = config;
    gqa["num_key_value_heads"] = json!(8);
    gqa["qk_layernorm"] = json!(true);
    let page = plan_json(gqa);
    let kv = 8 * 80;
    let layer = layer_norm(2560)
        + 2 * linear(2560, 2560)
        + 2 * linear(2560, kv)
        + 2 * layer_norm(80)
        + linear(2560, 10_240)
        + linear(10_240, 2560);
    assert_eq!(derived(&page), 51_200 * 2560 + 32 * layer + layer_norm(2560) + linear(2560, 51_200));
    assert_eq!(page.config.as_ref().unwrap().num_kv_heads, 8);
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn bad_configs_name_the_field() {
    for (config, field) in [
        (json!({"model_type": "gpt2", "n_embd": 0}), "n_embd"),
        (json!({"model_type": "gpt_neox", "intermediate_size": "big"}), "intermediate_size"),
        (json!({"model_type": "opt", "architectures": ["OPTForTokenClassification"]}), "architectures[0]"),
        (json!({"model_type": "bloom", "n_layer": -1}), "n_layer"),
        (json!({"model_type": "falcon", "num_ln_in_parallel_attn": 3}), "num_ln_in_parallel_attn"),
        (json!({"model_type": "phi", "partial_rotary_factor": 2.0}), "partial_rotary_factor"),
        (
            json!({"model_type": "phi", "architectures": ["PhiForSequenceClassification"], "num_labels": 0}),
            "num_labels",
        ),
    ] {
        let err = plan_text(&config.to_string()).unwrap_err();
        match err.error {
            modelatlas::config::ConfigError::Field { field: f, .. } => assert_eq!(f, field, "{config}"),
            other => panic!("{config}: {other:?}"),
        }
    }
}

#[test]
fn gpt2_double_heads_adds_a_one_score_summary() {
    // GPT2DoubleHeadsModel sets num_labels = 1: the summary is a 768 -> 1 linear with bias.
    let config =
        reference_config_with("openai-community--gpt2", json!({"architectures": ["GPT2DoubleHeadsModel"]}));
    let page = plan_text(&config).unwrap();
    assert_eq!(derived(&page), gpt2_model(50_257, 1024, 768, 12) + linear(768, 1));
    assert_eq!(shape(&page, "multiple_choice_head.summary.weight"), [1, 768]);
    // Without projecting to labels the summary keeps the hidden width.
    let config = reference_config_with(
        "openai-community--gpt2",
        json!({"architectures": ["GPT2DoubleHeadsModel"], "summary_proj_to_labels": false}),
    );
    assert_eq!(derived(&plan_text(&config).unwrap()), gpt2_model(50_257, 1024, 768, 12) + linear(768, 768));
}
