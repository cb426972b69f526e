//! Decoders of the GPT-2 lineage described in `src/config/spec_gpt_types.rs`: for each, a
//! published config (from `hub/`) or a small one that exercises a switch, with its count written
//! out by hand from the modeling file's modules (transformers 5.24), never read back from the
//! program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn tensors(config: serde_json::Value) -> Vec<(String, Vec<u64>)> {
    let (common, value) = modelatlas::config::parse(&config.to_string()).unwrap();
    let arch =
        (modelatlas::family::info(&common.model_type).unwrap().resolve.unwrap())(&value, &common).unwrap();
    arch.graph(1).tensors().map(|(name, t)| (name, t.shape.clone())).collect()
}

/// An `nn.Linear` (or `Conv1D`) from `i` to `o`, with its bias when `b`.
fn lin(i: u64, o: u64, b: bool) -> u64 {
    i * o + if b { o } else { 0 }
}

/// A LayerNorm's weight and bias.
fn ln(h: u64) -> u64 {
    2 * h
}

#[test]
fn gpt_neo_125m_from_the_snapshot_is_125_198_592() {
    // Its config.json (hub/): vocab 50257, hidden 768, 12 layers, 12 heads, intermediate_size
    // null (4 x 768), 2048 learned positions, tied head. GPTNeoBlock: ln_1, q/k/v without bias,
    // out_proj with bias, ln_2, c_fc and c_proj with bias; then ln_f.
    let (v, h, l, p) = (50257u64, 768u64, 12u64, 2048u64);
    let layer =
        ln(h) + 3 * lin(h, h, false) + lin(h, h, true) + ln(h) + lin(h, 4 * h, true) + lin(4 * h, h, true);
    let total = v * h + p * h + l * layer + ln(h);
    assert_eq!(total, 125_198_592);
    let page = common::plan_id("EleutherAI/gpt-neo-125m");
    assert_eq!(page.params.unwrap().derived, total);
}

#[test]
fn gpt_neo_1_3b_and_2_7b_from_the_snapshot_count_their_wider_stacks() {
    let neo = |v: u64, h: u64, l: u64| {
        let layer = ln(h)
            + 3 * lin(h, h, false)
            + lin(h, h, true)
            + ln(h)
            + lin(h, 4 * h, true)
            + lin(4 * h, h, true);
        v * h + 2048 * h + l * layer + ln(h)
    };
    // 2048 wide, 24 layers; 2560 wide, 32 layers (their config.json in hub/).
    assert_eq!(common::plan_id("EleutherAI/gpt-neo-1.3B").params.unwrap().derived, neo(50257, 2048, 24));
    assert_eq!(common::plan_id("EleutherAI/gpt-neo-2.7B").params.unwrap().derived, neo(50257, 2560, 32));
}

#[test]
fn gpt_neo_heads_are_score_without_bias_and_classifier_and_qa_outputs_with_bias() {
    let base = json!({"model_type": "gpt_neo", "hidden_size": 64, "num_layers": 2, "num_heads": 4,
        "vocab_size": 100, "max_position_embeddings": 32, "attention_types": [[["global", "local"], 1]],
        "num_labels": 3});
    let h = 64u64;
    let layer =
        ln(h) + 3 * lin(h, h, false) + lin(h, h, true) + ln(h) + lin(h, 4 * h, true) + lin(4 * h, h, true);
    let body = 100 * h + 32 * h + 2 * layer + ln(h);
    let with = |class: &str| {
        let mut c = base.clone();
        c["architectures"] = json!([class]);
        derived(c)
    };
    assert_eq!(with("GPTNeoModel"), body);
    assert_eq!(with("GPTNeoForSequenceClassification"), body + lin(h, 3, false));
    assert_eq!(with("GPTNeoForTokenClassification"), body + lin(h, 3, true));
    assert_eq!(with("GPTNeoForQuestionAnswering"), body + lin(h, 2, true));
}

#[test]
fn gpt_neo_attention_types_must_cover_every_layer() {
    // Six layer kinds for twelve layers: GPTNeoConfig's validate_architecture raises.
    let config =
        json!({"model_type": "gpt_neo", "num_layers": 12, "attention_types": [[["global", "local"], 3]]});
    let err = plan_text(&config.to_string()).unwrap_err().to_string();
    assert!(err.contains("attention_types"), "{err}");
}

#[test]
fn gpt_j_6b_from_the_snapshot_shares_one_norm_per_layer_and_has_a_biased_untied_head() {
    // Its config.json (hub/): vocab 50400, n_embd 4096, 28 layers, n_inner null (16384), untied.
    // GPTJBlock: ln_1 only (attention and MLP read it in parallel), q/k/v/out_proj without bias,
    // fc_in and fc_out with bias; rotary positions hold no parameters; lm_head has a bias.
    let (v, h, l) = (50400u64, 4096u64, 28u64);
    let layer = ln(h) + 4 * lin(h, h, false) + lin(h, 4 * h, true) + lin(4 * h, h, true);
    let total = v * h + l * layer + ln(h) + lin(h, v, true);
    assert_eq!(total, 6_050_882_784);
    assert_eq!(common::plan_id("EleutherAI/gpt-j-6b").params.unwrap().derived, total);
}

#[test]
fn gptj_tied_keeps_its_lm_head_bias() {
    let c = json!({"model_type": "gptj", "architectures": ["GPTJForCausalLM"], "n_embd": 64, "n_layer": 1,
        "n_head": 4, "vocab_size": 100, "n_positions": 32, "tie_word_embeddings": true});
    let h = 64u64;
    let layer = ln(h) + 4 * lin(h, h, false) + lin(h, 4 * h, true) + lin(4 * h, h, true);
    // The weight is the embedding's; the bias (100) is the head's own.
    assert_eq!(derived(c), 100 * h + layer + ln(h) + 100);
}

#[test]
fn codegen_350m_mono_fuses_qkv_and_otherwise_counts_as_gpt_j() {
    // Salesforce/codegen-350M-mono: vocab 51200, n_embd 1024, 20 layers, 16 heads, untied.
    // CodeGenAttention: qkv_proj (1024 -> 3072) and out_proj, neither biased.
    let (v, h, l) = (51200u64, 1024u64, 20u64);
    let c = json!({"model_type": "codegen", "architectures": ["CodeGenForCausalLM"], "vocab_size": v,
        "n_embd": h, "n_layer": l, "n_head": 16, "n_positions": 2048, "rotary_dim": 32});
    let layer = ln(h) + lin(h, 3 * h, false) + lin(h, h, false) + lin(h, 4 * h, true) + lin(4 * h, h, true);
    let total = v * h + l * layer + ln(h) + lin(h, v, true);
    assert_eq!(total, 356_712_448);
    assert_eq!(derived(c.clone()), total);
    let names: Vec<String> = tensors(c).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"transformer.h.0.attn.qkv_proj.weight".to_string()), "{names:?}");
}

#[test]
fn xglm_564m_from_the_snapshot_has_sinusoidal_positions_without_parameters() {
    // Its config.json (hub/): vocab 256008, d_model 1024, 24 layers, ffn 4096, tied. Each layer:
    // q/k/v/out_proj with bias, self_attn_layer_norm, fc1, fc2, final_layer_norm; then
    // model.layer_norm. The sinusoidal table is a buffer.
    let (v, h, f, l) = (256008u64, 1024u64, 4096u64, 24u64);
    let layer = 4 * lin(h, h, true) + ln(h) + lin(h, f, true) + lin(f, h, true) + ln(h);
    let total = v * h + l * layer + ln(h);
    assert_eq!(total, 564_463_616);
    assert_eq!(common::plan_id("facebook/xglm-564M").params.unwrap().derived, total);
}

#[test]
fn xglm_with_cross_attention_adds_an_encoder_attention_and_its_norm_per_layer() {
    let h = 64u64;
    let c = json!({"model_type": "xglm", "architectures": ["XGLMModel"], "d_model": h, "num_layers": 2,
        "attention_heads": 4, "ffn_dim": 128, "vocab_size": 100});
    let layer = 4 * lin(h, h, true) + ln(h) + lin(h, 128, true) + lin(128, h, true) + ln(h);
    assert_eq!(derived(c.clone()), 100 * h + 2 * layer + ln(h));
    let mut cross = c;
    cross["add_cross_attention"] = json!(true);
    assert_eq!(derived(cross), 100 * h + 2 * (layer + 4 * lin(h, h, true) + ln(h)) + ln(h));
}

#[test]
fn biogpt_from_the_snapshot_offsets_its_learned_positions_by_two() {
    // Its config.json (hub/): vocab 42384, hidden 1024, 24 layers, ffn 4096, 1024 positions
    // (BioGptLearnedPositionalEmbedding keeps 1024 + 2 rows), output_projection tied.
    let (v, h, f, l) = (42384u64, 1024u64, 4096u64, 24u64);
    let layer = 4 * lin(h, h, true) + ln(h) + lin(h, f, true) + lin(f, h, true) + ln(h);
    let total = v * h + (1024 + 2) * h + l * layer + ln(h);
    assert_eq!(total, 346_763_264);
    assert_eq!(common::plan_id("microsoft/biogpt").params.unwrap().derived, total);
}

#[test]
fn openai_gpt_from_the_snapshot_is_post_norm_conv1d_without_a_final_norm() {
    // Its config.json (hub/): vocab 40478, n_embd 768, 12 layers, 512 positions, tied. Block:
    // c_attn (Conv1D 768 -> 2304), c_proj, ln_1, c_fc (768 -> 3072), c_proj, ln_2; no ln_f.
    let (v, h, p, l) = (40478u64, 768u64, 512u64, 12u64);
    let layer =
        lin(h, 3 * h, true) + lin(h, h, true) + ln(h) + lin(h, 4 * h, true) + lin(4 * h, h, true) + ln(h);
    let total = v * h + p * h + l * layer;
    assert_eq!(total, 116_534_784);
    assert_eq!(common::plan_id("openai-community/openai-gpt").params.unwrap().derived, total);
    // Conv1D stores its weight [in, out].
    let c = json!({"model_type": "openai-gpt", "n_embd": 64, "n_layer": 1, "n_head": 4, "vocab_size": 100});
    let shapes = tensors(c);
    let attn = shapes.iter().find(|(n, _)| n == "h.0.attn.c_attn.weight").unwrap();
    assert_eq!(attn.1, vec![64, 192]);
}

#[test]
fn ctrl_counts_biased_projections_a_relu_mlp_of_dff_and_a_biased_tied_lm_head() {
    // CTRLConfig's defaults (Salesforce/ctrl): vocab 246534, n_embd 1280, dff 8192, 48 layers,
    // 256 positions in a sinusoidal buffer (no parameters). EncoderLayer: Wq, Wk, Wv, dense, all
    // biased; ffn.0 and ffn.2 biased; layernorm1, layernorm2. Then layernorm; lm_head tied to w
    // but its bias of vocab scalars is its own.
    let (v, h, f, l) = (246_534u64, 1280u64, 8192u64, 48u64);
    let layer = 4 * lin(h, h, true) + lin(h, f, true) + lin(f, h, true) + 2 * ln(h);
    let body = v * h + l * layer + ln(h);
    assert_eq!(derived(json!({"model_type": "ctrl", "architectures": ["CTRLModel"]})), body);
    assert_eq!(derived(json!({"model_type": "ctrl", "architectures": ["CTRLLMHeadModel"]})), body + v);
}

#[test]
fn ctrl_sequence_classifier_is_named_classifier_and_has_no_bias() {
    let c = json!({"model_type": "ctrl", "architectures": ["CTRLForSequenceClassification"],
        "n_embd": 64, "n_layer": 1, "n_head": 4, "dff": 100, "vocab_size": 50, "num_labels": 3});
    let h = 64u64;
    let layer = 4 * lin(h, h, true) + lin(h, 100, true) + lin(100, h, true) + 2 * ln(h);
    assert_eq!(derived(c.clone()), 50 * h + layer + ln(h) + lin(h, 3, false));
    let t = tensors(c);
    assert!(t.iter().any(|(n, s)| n == "classifier.weight" && s == &vec![3, 64]));
    assert!(!t.iter().any(|(n, _)| n.starts_with("classifier.bias") || n.starts_with("score")));
    assert!(t.iter().any(|(n, _)| n == "transformer.h.0.multi_head_attention.Wq.bias"));
}

#[test]
fn mpt_has_no_bias_anywhere_alibi_positions_and_a_4x_mlp_whatever_expansion_ratio_says() {
    // MptConfig's defaults (mpt-1b sizes): d_model 2048, 24 layers, vocab 50368, tied. MptBlock:
    // norm_1 and norm_2 keep only their weight, Wqkv (3h) and out_proj without bias, up_proj to
    // 4h and down_proj without bias. norm_f weight only. No position table (ALiBi).
    let (v, h, l) = (50_368u64, 2048u64, 24u64);
    let layer = h + lin(h, 3 * h, false) + lin(h, h, false) + h + lin(h, 4 * h, false) + lin(4 * h, h, false);
    let body = v * h + l * layer + h;
    assert_eq!(derived(json!({"model_type": "mpt", "architectures": ["MptModel"]})), body);
    let lm = json!({"model_type": "mpt", "architectures": ["MptForCausalLM"], "expansion_ratio": 2,
        "no_bias": false, "attn_config": {"alibi": true, "qk_ln": true}});
    // Tied: the head adds nothing; `expansion_ratio`, `no_bias` and `attn_config` are not read.
    assert_eq!(derived(lm), body);
    let untied =
        json!({"model_type": "mpt", "architectures": ["MptForCausalLM"], "tie_word_embeddings": false});
    assert_eq!(derived(untied), body + v * h);
}

#[test]
fn mpt_heads_are_score_without_bias_and_classifier_and_qa_outputs_with_bias() {
    let h = 32u64;
    let layer = h + lin(h, 3 * h, false) + lin(h, h, false) + h + lin(h, 4 * h, false) + lin(4 * h, h, false);
    let body = 40 * h + 2 * layer + h;
    let with = |class: &str| {
        derived(json!({"model_type": "mpt", "architectures": [class], "d_model": 32, "n_layers": 2,
            "n_heads": 4, "vocab_size": 40, "num_labels": 3}))
    };
    assert_eq!(with("MptForSequenceClassification"), body + lin(h, 3, false));
    assert_eq!(with("MptForTokenClassification"), body + lin(h, 3, true));
    assert_eq!(with("MptForQuestionAnswering"), body + lin(h, 2, true));
}

#[test]
fn persimmon_8b_defaults_count_qk_layernorms_per_head_and_an_untied_head() {
    // PersimmonConfig's defaults (adept/persimmon-8b-base): vocab 262144, hidden 4096, 36 layers,
    // 64 heads (head_dim 64), intermediate 16384. Each layer: input_layernorm, query_key_value
    // (3h, biased), q_layernorm and k_layernorm over head_dim, dense (biased),
    // post_attention_layernorm, dense_h_to_4h and dense_4h_to_h (biased). final_layernorm; an
    // untied lm_head without bias.
    let (v, h, f, l, d) = (262_144u64, 4096u64, 16_384u64, 36u64, 64u64);
    let layer =
        ln(h) + lin(h, 3 * h, true) + 2 * ln(d) + lin(h, h, true) + ln(h) + lin(h, f, true) + lin(f, h, true);
    let body = v * h + l * layer + ln(h);
    let lm = derived(json!({"model_type": "persimmon", "architectures": ["PersimmonForCausalLM"]}));
    assert_eq!(lm, body + v * h);
}

#[test]
fn persimmon_without_qk_layernorm_drops_two_norms_per_layer_and_its_token_head_is_score() {
    let (h, d) = (64u64, 16u64);
    let c = |qk: bool, class: &str| {
        json!({"model_type": "persimmon", "architectures": [class], "hidden_size": 64,
            "num_hidden_layers": 3, "num_attention_heads": 4, "intermediate_size": 100,
            "vocab_size": 50, "qk_layernorm": qk, "num_labels": 5})
    };
    assert_eq!(derived(c(true, "PersimmonModel")) - derived(c(false, "PersimmonModel")), 3 * 2 * ln(d));
    let names: Vec<String> =
        tensors(c(false, "PersimmonForTokenClassification")).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"score.bias".to_string()));
    assert_eq!(
        derived(c(false, "PersimmonForTokenClassification")) - derived(c(false, "PersimmonModel")),
        lin(h, 5, true)
    );
}

#[test]
fn gpt_neox_japanese_has_no_biases_but_one_dense_bias_in_its_last_layer() {
    // GPTNeoXJapaneseConfig's defaults (abeja/gpt-neox-japanese-2.7b): vocab 32000, hidden 2560,
    // 32 layers, MLP 4 x 2560 (intermediate_multiple_size). Each layer: input_layernorm,
    // query_key_value (3h) and dense without bias, post_attention_layernorm, dense_h_to_4h and
    // dense_4h_to_h without bias; the last layer's attention also holds dense_bias (h). Then
    // final_layer_norm; embed_out is tied.
    let (v, h, l) = (32_000u64, 2560u64, 32u64);
    let layer = ln(h) + lin(h, 3 * h, false) + lin(h, h, false) + ln(h) + 2 * lin(h, 4 * h, false);
    let total = v * h + l * layer + h + ln(h);
    let c = json!({"model_type": "gpt_neox_japanese", "architectures": ["GPTNeoXJapaneseForCausalLM"]});
    assert_eq!(derived(c.clone()), total);
    let names: Vec<String> = tensors(c).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"gpt_neox_japanese.layers.31.attention.dense_bias".to_string()));
}

#[test]
fn gpt_neox_japanese_mlp_is_hidden_times_intermediate_multiple_size() {
    let c = |m: u64| {
        derived(json!({"model_type": "gpt_neox_japanese", "architectures": ["GPTNeoXJapaneseModel"],
            "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
            "intermediate_multiple_size": m}))
    };
    // Each of 2 layers: up and down projections, 64 x (64 m) each, no bias.
    assert_eq!(c(3) - c(2), 2 * 2 * 64 * 64);
}

#[test]
fn bert_generation_decoder_is_bert_post_norm_with_a_tied_head_whose_bias_counts_once() {
    // BertGenerationConfig's defaults: vocab 50358, hidden 1024, 24 layers, intermediate 4096,
    // 512 learned positions. Embeddings: word, position, LayerNorm. Each layer: query, key,
    // value, output.dense (biased), attention.output.LayerNorm, intermediate.dense and
    // output.dense (biased), output.LayerNorm. No final norm. lm_head.decoder is tied to the word
    // embeddings; its bias (vocab) is tied to lm_head.bias, so one vocab-wide bias.
    let (v, h, f, l) = (50_358u64, 1024u64, 4096u64, 24u64);
    let layer = 4 * lin(h, h, true) + ln(h) + lin(h, f, true) + lin(f, h, true) + ln(h);
    let body = v * h + 512 * h + ln(h) + l * layer;
    let c = |class: &str, tied: bool| {
        derived(json!({"model_type": "bert-generation", "architectures": [class],
            "tie_word_embeddings": tied}))
    };
    assert_eq!(c("BertGenerationEncoder", true), body);
    assert_eq!(c("BertGenerationDecoder", true), body + v);
    // Untied: the decoder's own weight and bias, and lm_head.bias beside them.
    assert_eq!(c("BertGenerationDecoder", false), body + v * h + v + v);
}

#[test]
fn bert_generation_cross_attention_adds_bert_named_attention_and_norm_per_layer() {
    let (h, l) = (64u64, 2u64);
    let c = |cross: bool| {
        json!({"model_type": "bert-generation", "architectures": ["BertGenerationDecoder"],
            "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 100, "vocab_size": 50, "is_decoder": true,
            "add_cross_attention": cross})
    };
    assert_eq!(derived(c(true)) - derived(c(false)), l * (4 * lin(h, h, true) + ln(h)));
    let names: Vec<String> = tensors(c(true)).into_iter().map(|(n, _)| n).collect();
    for n in [
        "bert.encoder.layer.1.crossattention.self.query.weight",
        "bert.encoder.layer.1.crossattention.output.dense.bias",
        "bert.encoder.layer.1.crossattention.output.LayerNorm.weight",
        "bert.embeddings.LayerNorm.bias",
    ] {
        assert!(names.contains(&n.to_string()), "{n} missing");
    }
}

#[test]
fn trocr_causal_lm_always_has_cross_attention_reading_the_encoders_width() {
    // TrOCRConfig's defaults: vocab 50265, d_model 1024, 12 layers, ffn 4096, 512 learned
    // positions offset by 2, layernorm_embedding. TrOCRForCausalLM sets is_decoder, so each layer
    // holds self_attn (q, k, v, out, biased), self_attn_layer_norm, encoder_attn (the same),
    // encoder_attn_layer_norm, fc1, fc2 (biased), final_layer_norm. No final norm; the output
    // projection is tied.
    let (v, h, f, l) = (50_265u64, 1024u64, 4096u64, 12u64);
    let attn = 4 * lin(h, h, true);
    let layer = attn + ln(h) + attn + ln(h) + lin(h, f, true) + lin(f, h, true) + ln(h);
    let total = v * h + (512 + 2) * h + ln(h) + l * layer;
    assert_eq!(derived(json!({"model_type": "trocr", "architectures": ["TrOCRForCausalLM"]})), total);
}

#[test]
fn trocr_cross_attention_keys_and_values_read_cross_attention_hidden_size() {
    let c = |extra: serde_json::Value| {
        let mut c = json!({"model_type": "trocr", "architectures": ["TrOCRForCausalLM"], "d_model": 64,
            "decoder_layers": 2, "decoder_attention_heads": 4, "decoder_ffn_dim": 100,
            "vocab_size": 50, "max_position_embeddings": 30});
        for (k, v) in extra.as_object().unwrap() {
            c[k] = v.clone();
        }
        derived(c)
    };
    // Per layer, k_proj and v_proj of encoder_attn read 48 instead of 64 inputs (bias unchanged).
    assert_eq!(c(json!({})) - c(json!({"cross_attention_hidden_size": 48})), 2 * 2 * (64 - 48) * 64);
    // Sinusoidal positions (no table of 30 + 2 rows) and no embeddings LayerNorm.
    let fixed = json!({"use_learned_position_embeddings": false, "layernorm_embedding": false});
    assert_eq!(c(json!({})) - c(fixed), 32 * 64 + ln(64));
}
