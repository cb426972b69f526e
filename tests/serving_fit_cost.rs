//! Serving memory, fit per card and cost: each figure derived here from the architecture's
//! published dimensions, independently of the program.

mod common;

use std::path::PathBuf;

use common::{plan_id, plan_text};
use modelatlas::page::ModelPage;

fn llama31_8b() -> ModelPage {
    plan_text(&common::reference_config("meta-llama--Llama-3.1-8B")).unwrap()
}

fn card<'a>(page: &'a ModelPage, id: &str) -> &'a modelatlas::estimate::fit::CardRow {
    page.fit.as_ref().unwrap().cards.iter().find(|c| c.card == id).unwrap()
}

fn mode(
    row: &modelatlas::estimate::fit::CardRow,
    id: &str,
) -> (u64, modelatlas::estimate::fit::Verdict, Vec<u64>) {
    let m = row.modes.iter().find(|m| m.mode == id).unwrap();
    (m.largest_batch, m.verdict, m.sweep.clone())
}

// Llama-3.1-8B: 32 layers, hidden 4096, 32 heads over 8 KV heads of 128, intermediate 14336,
// vocabulary 128256, untied head.
const LLAMA_PARAMS: u64 = 8_030_261_248;
const LLAMA_LAYER_LINEAR: u64 = 32 * (2 * 4096 * 4096 + 2 * 1024 * 4096 + 3 * 4096 * 14336);

#[test]
fn llama_3_8b_caches_131072_bytes_per_token_in_bf16() {
    let page = llama31_8b();
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    // 2 (K and V) x 32 layers x 8 KV heads x 128 head_dim x 2 bytes.
    assert_eq!(kv.bytes_per_token_bf16, 2 * 32 * 8 * 128 * 2);
    assert_eq!(kv.bytes_per_token_bf16, 131_072);
    assert_eq!(kv.bytes_per_token_fp8, 65_536);
    assert_eq!(kv.bytes_at_context_bf16, 131_072 * 131_072);
}

#[test]
fn llama_3_8b_weights_match_vllm_s_14_96_gib_in_bf16_and_quantise_only_the_layers_linears() {
    let page = llama31_8b();
    let s = page.serving.as_ref().unwrap();
    assert_eq!(s.total_params, LLAMA_PARAMS);
    assert_eq!(LLAMA_LAYER_LINEAR, 6_979_321_856);
    assert_eq!(s.quantised_params, LLAMA_LAYER_LINEAR);
    let bf16 = s.weights_at("bf16");
    assert_eq!(bf16, LLAMA_PARAMS as f64 * 2.0);
    // vLLM's start-up log on an A100: "Loading model weights took 14.96 GiB".
    assert_eq!(format!("{:.2}", bf16 / (1u64 << 30) as f64), "14.96");
    let rest = (LLAMA_PARAMS - LLAMA_LAYER_LINEAR) as f64 * 2.0;
    assert_eq!(s.weights_at("int4"), rest + LLAMA_LAYER_LINEAR as f64 * 4.125 / 8.0);
    assert_eq!(s.weights_at("int8"), rest + LLAMA_LAYER_LINEAR as f64 * 8.125 / 8.0);
    assert_eq!(s.weights_at("fp8"), rest + LLAMA_LAYER_LINEAR as f64);
}

#[test]
fn llama_3_8b_on_an_a100_40gb_as_vllm_sizes_it() {
    let page = llama31_8b();
    let v = card(&page, "a100-40gb").vllm.clone().unwrap();
    // 0.9 x 40e9 - 16,060,522,496 bytes of weights.
    let room = 0.9 * 40e9 - LLAMA_PARAMS as f64 * 2.0;
    assert_eq!(v.kv_cache_bytes, room);
    // One sequence at the 131,072-token context holds 131,072 x 131,072 bytes.
    assert_eq!(v.concurrency, room / (131_072.0 * 131_072.0));
    assert_eq!(v.sequences, 1);
    assert_eq!(v.longest_context, 131_072, "the cache holds more than the context: {room} bytes");
    assert!(!v.limited_by_memory);
    // On an L4: 0.9 x 24e9 - weights = 5.54 GB, floor(5.54e9 / 131,072) tokens.
    let l4 = card(&page, "l4-24gb").vllm.clone().unwrap();
    let room = 0.9 * 24e9 - LLAMA_PARAMS as f64 * 2.0;
    assert_eq!(l4.longest_context, (room / 131_072.0).floor() as u64);
    assert!(l4.limited_by_memory);
}

#[test]
fn serving_batches_per_card_leave_5_percent_and_grow_with_shorter_sequences() {
    let page = llama31_8b();
    let (batch, verdict, sweep) = mode(card(&page, "a100-40gb"), "serve");
    // As nvidia-smi sees it on an A100: x 1.05 for the allocator's reserve, one 8,519,680-byte
    // cuBLAS workspace and Ampere's 430 MiB context on top of the weights and the cache.
    // floor((0.95 x 40e9 - 1.05 x weights - runtime) / (1.05 x 131,072 x 2048)) at 2048 tokens.
    let runtime = 8_519_680.0 + 430.0 * 1_048_576.0;
    let at = |s: u64| {
        ((0.95 * 40e9 - 1.05 * LLAMA_PARAMS as f64 * 2.0 - runtime) / (1.05 * 131_072.0 * s as f64)).floor()
            as u64
    };
    assert_eq!(batch, at(2048));
    assert_eq!(batch, 73);
    assert_eq!(verdict, modelatlas::estimate::fit::Verdict::Comfortable);
    assert_eq!(page.fit.as_ref().unwrap().sweep_seqs, vec![512, 2048, 8192, 32768, 131072]);
    assert_eq!(sweep, vec![at(512), at(2048), at(8192), at(32768), at(131072)]);
    // The T4's 16 GB cannot hold 16.06 GB of weights: a pipeline of two cards, 16 layers each.
    let (batch, verdict, _) = mode(card(&page, "t4-16gb"), "serve");
    assert_eq!((batch, verdict), (0, modelatlas::estimate::fit::Verdict::DoesNotFit));
    let multi = &page.fit.as_ref().unwrap().multi_card;
    let t4 = multi.iter().find(|m| m.mode == "serve" && m.card == "t4-16gb").unwrap();
    let p = t4.pipeline.as_ref().unwrap();
    assert_eq!(p.layer_cut, vec!["0-15", "16-31"]);
    assert_eq!(p.usd_per_hour, 2.0 * 0.35);
    assert!(t4.fsdp.is_none(), "serving is not sharded by FSDP");
}

#[test]
fn mistral_v0_1_caps_every_layer_s_cache_at_its_4096_token_window() {
    let page = plan_id("mistralai/Mistral-7B-v0.1");
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 131_072);
    // 32,768 tokens of context, but each layer keeps 4,096.
    assert_eq!(kv.context, 32_768);
    assert_eq!(kv.bytes_at_context_bf16, 131_072 * 4096);
}

#[test]
fn gemma_2_caps_only_its_alternate_sliding_layers() {
    // The default Gemma2Config is Gemma 2 2B: 26 layers, 4 KV heads of 256, a 4096 window on
    // every other layer (13 sliding, 13 full), 8192 positions.
    let page = plan_text(r#"{"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"]}"#).unwrap();
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let per_layer = 2 * 4 * 256 * 2;
    assert_eq!(kv.bytes_per_token_bf16, 26 * per_layer);
    assert_eq!(kv.bytes_at_context_bf16, 13 * per_layer * 8192 + 13 * per_layer * 4096);
}

#[test]
fn deepseek_v2_caches_the_latent_and_the_rotary_key_per_layer() {
    // DeepseekV2Config defaults: 32 layers, kv_lora_rank 512, qk_rope_head_dim 64.
    let page =
        plan_text(r#"{"model_type": "deepseek_v2", "architectures": ["DeepseekV2ForCausalLM"]}"#).unwrap();
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 32 * (512 + 64) * 2);
}

#[test]
fn encoder_decoders_cache_the_encoder_s_keys_and_values_in_each_decoder_layer() {
    // t5-small: 6 decoder layers, 8 heads of d_kv 64: self-attention and cross-attention alike.
    let t5 = plan_id("google-t5/t5-small");
    let kv = t5.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 2 * (6 * 2 * 8 * 64) * 2);
    // bart-large: 12 decoder layers of d_model 1024.
    let bart = plan_id("facebook/bart-large");
    let kv = bart.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 2 * (12 * 2 * 1024) * 2);
    assert!(kv.layout.cross.is_some());
}

#[test]
fn an_encoder_has_no_kv_cache_and_says_what_it_costs_instead() {
    let page = plan_id("FacebookAI/xlm-roberta-base");
    let s = page.serving.as_ref().unwrap();
    assert!(s.kv.is_none());
    // One layer's residual, q, k, v, attention output (5 x 768) and intermediate (3072), bf16.
    assert_eq!(s.encoder_working_bytes_per_token, Some((5 * 768 + 3072) * 2));
    assert!(card(&page, "t4-16gb").vllm.is_none());
    assert!(page.cost.as_ref().unwrap().serving.is_none(), "no decoding to rate");
    let md =
        modelatlas::render::Renderer::new().plan(&page, modelatlas::render::PlanFormat::Markdown).unwrap();
    assert!(md.contains("No KV cache: this is an encoder."), "the page says so");
    assert!(!md.contains("bytes per token** in bf16"), "and prints no KV figure");
}

#[test]
fn a_training_run_costs_six_n_t_plus_causal_attention_on_the_cheapest_card() {
    let page = llama31_8b();
    let c = &page.cost.as_ref().unwrap().training;
    // 10 epochs x 50,000 samples x 2048 tokens.
    let tokens: u64 = 10 * 50_000 * 2048;
    assert_eq!(c.tokens, tokens);
    assert_eq!(c.dense_flops, 6.0 * LLAMA_PARAMS as f64 * tokens as f64);
    // 12 x 2048 x (32 x 128) x 32 layers per token, halved for causal attention.
    assert_eq!(c.attention_flops, 12.0 * 2048.0 * 4096.0 * 32.0 * tokens as f64 / 2.0);
    let cheapest = c.cheapest.as_ref().unwrap();
    let all = &c.by_card;
    assert!(all.iter().all(|x| x.usd.0 >= cheapest.usd.0));
    // Its hours: total / (cards x dense peak x 55%) and / 35%.
    let peak = cheapest.tflops * 1e12 * cheapest.cards as f64;
    assert_eq!(cheapest.hours.0, c.total_flops / (peak * 0.55) / 3600.0);
    assert_eq!(cheapest.hours.1, c.total_flops / (peak * 0.35) / 3600.0);
}

#[test]
fn decode_is_bandwidth_over_the_bytes_read_per_token() {
    let page = llama31_8b();
    let s = page.cost.as_ref().unwrap().serving.as_ref().unwrap();
    let h100 = s.by_card.iter().find(|c| c.card == "h100-80gb").unwrap();
    // bf16 weights + the KV cache at 2048 tokens, read once per token, at 3,350 GB/s.
    let read = LLAMA_PARAMS as f64 * 2.0 + 131_072.0 * 2048.0;
    assert_eq!(h100.decode_tokens_per_s_bf16, 3350e9 / read);
}

#[test]
fn a_user_cards_file_adds_a_card_to_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let file: PathBuf = dir.path().join("my.toml");
    std::fs::write(
        &file,
        r#"[[card]]
id = "mine-32gb"
name = "Mine 32 GB"
memory_gb = 32
bandwidth_gbs = 1000
bf16_tflops = 100
fp16_tflops = 100
bf16_native = true
price_usd_per_hour = 0.5
spec_source = "my datasheet"
price_source = "my price list"
price_as_of = "2026-12"
"#,
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(common::repo())
        .args(["plan", "mistralai/Mistral-7B-v0.1", "--format", "json", "--cards"])
        .arg(&file)
        .args(["--epochs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cost"]["training"]["epochs"], 1);
    // 1 epoch x 50,000 samples x 2,048 tokens x 6 x the parameters (dense FLOPs).
    let params = v["params"]["active"].as_f64().unwrap();
    assert_eq!(v["cost"]["training"]["dense_flops"].as_f64().unwrap(), 6.0 * params * 50_000.0 * 2048.0);
    // The JSON's per-card rows are computed from the site's cards.json (schema_version 4); the
    // card reaches the fit, which what-if evaluates on it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(common::repo())
        .args([
            "what-if",
            "mistralai/Mistral-7B-v0.1",
            "--mode",
            "lora",
            "--card",
            "mine-32gb",
            "--batch",
            "1",
        ])
        .arg("--cards")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let w: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(w["card"], "mine-32gb");
    assert_eq!(w["share"].as_f64().unwrap(), w["peak_bytes"].as_f64().unwrap() / 32e9);
}

#[test]
fn a_bad_cards_file_is_an_error_that_names_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.toml");
    std::fs::write(&file, "[[card]]\nid = \"x\"\nname = \"X\"\nmemory_gb = 32\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(common::repo())
        .args(["plan", "mistralai/Mistral-7B-v0.1", "--cards"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.toml") && err.contains("bandwidth_gbs"), "{err}");
}

#[test]
fn mixtral_s_pages_show_serving_fit_multi_card_and_cost() {
    let page = plan_id("mistralai/Mixtral-8x7B-v0.1");
    let md =
        modelatlas::render::Renderer::new().plan(&page, modelatlas::render::PlanFormat::Markdown).unwrap();
    // The twin's answer on top, its fit table, and one line each for serving and cost; a mode that
    // no single card holds names the cheapest split instead.
    for section in [
        "| Batch 1 at ",
        "| Card | Full | LoRA | QLoRA | Serve |",
        "Serving weights:",
        "no single card",
        "cheapest on",
    ] {
        assert!(md.contains(section), "{section}");
    }
    // 93.4 GB of bf16 weights fit no 80 GB card: the serve mode needs a pipeline of two there.
    let multi = &page.fit.as_ref().unwrap().multi_card;
    let a100 = multi.iter().find(|m| m.mode == "serve" && m.card == "a100-80gb").unwrap();
    assert_eq!(a100.pipeline.as_ref().unwrap().layer_cut, vec!["0-15", "16-31"]);
    // Decoding reads the weights one token uses (2 experts of 8 per layer: 12,879,925,248
    // parameters, 2 bytes each) and the KV cache at 2048 tokens.
    let s = page.cost.as_ref().unwrap().serving.as_ref().unwrap();
    let expected = 12_879_925_248.0 * 2.0 + 131_072.0 * 2048.0;
    assert!(
        (s.bytes_read_per_token_bf16 - expected).abs() / expected < 1e-12,
        "{}",
        s.bytes_read_per_token_bf16
    );
}

#[test]
#[allow(clippy::identity_op)] // the single key/value head written out
fn multi_query_attention_caches_one_key_value_head() {
    // Falcon-7B: 32 layers, 71 query heads of 64 over a single key/value head (multi_query).
    let page = plan_text(
        r#"{"model_type": "falcon", "architectures": ["FalconForCausalLM"], "hidden_size": 4544,
            "num_attention_heads": 71, "num_hidden_layers": 32, "multi_query": true,
            "new_decoder_architecture": false, "parallel_attn": true, "vocab_size": 65024}"#,
    )
    .unwrap();
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 2 * 32 * 1 * 64 * 2);
}
