//! Published configs of the new model types, planned from the snapshot (`hub/`) and compared with
//! figures published for the same checkpoints: the Hub's `safetensors.total` where a source quotes
//! it, otherwise the module counts third parties printed, or a count written out here by hand.
//! Provenance of every config and figure: `tests/fixtures/reference/SOURCES.md` and
//! `tools/validate/published_configs.md`.

mod common;

fn derived(id: &str) -> u64 {
    let page = common::plan_id(id);
    assert!(page.supported, "{id}: {} is not planned", page.family);
    page.params.unwrap().derived
}

#[test]
fn olmoe_1b_7b_0924_derives_the_total_its_model_card_gives_at_the_hash_matched_revision() {
    // Generated model card (GitHub code-index file 65751399759), revision 6d84c485, the same
    // revision whose config.json hash dinoml/model-configs-rs records: "6,919,161,856 parameters
    // (safetensors metadata)", BF16.
    assert_eq!(derived("allenai/OLMoE-1B-7B-0924"), 6_919_161_856);
    let page = common::plan_id("allenai/OLMoE-1B-7B-0924");
    assert_eq!(page.params.unwrap().checkpoint, Some(6_919_161_856));
}

#[test]
fn mamba_130m_hf_derives_its_hand_count_and_the_module_count_published_for_it() {
    // Config: hidden 768, 24 layers, state 16, expand 2 (inner 1536), conv 4, dt rank 48, vocab
    // 50280, tied head. A layer: norm (768), in_proj (768 x 2 x 1536), conv1d (1536 x 4 + bias
    // 1536), x_proj (1536 x (48 + 2 x 16)), dt_proj (48 x 1536 + bias 1536), A_log (1536 x 16),
    // D (1536), out_proj (1536 x 768).
    let (h, inner, state, rank, conv, v, layers) = (768u64, 1536u64, 16u64, 48u64, 4u64, 50_280u64, 24u64);
    let layer = h
        + h * 2 * inner
        + inner * conv
        + inner
        + inner * (rank + 2 * state)
        + rank * inner
        + inner
        + inner * state
        + inner
        + inner * h;
    let expected = v * h + layers * layer + h;
    assert_eq!(derived("state-spaces/mamba-130m-hf"), expected);
    // The same figure as printed by two third parties for the loaded model: an R script's table of
    // model sizes ("mamba-130m-hf"="129135360", code-index file 49071488734) and a runtime that
    // asserts sum(p.numel()) == 129135360 with the head tied (code-index file 71178565889).
    assert_eq!(expected, 129_135_360);
}

#[test]
fn llava_1_5_7b_hf_derives_the_module_count_two_sources_give() {
    // A test that builds LlavaForConditionalGeneration from LlavaConfig.from_pretrained(
    // "llava-hf/llava-1.5-7b-hf") and asserts 7063427072 parameters (code-index file
    // 4065502446), and a write-up that sums numel over the loaded model: "# 7063427072"
    // (code-index file 53760140093). No checkpoint total was found.
    assert_eq!(derived("llava-hf/llava-1.5-7b-hf"), 7_063_427_072);
}

#[test]
fn santacoder_derives_gpt2_shapes_with_one_key_value_head() {
    // GPTBigCode, multi_query: c_attn projects to 2048 query channels plus one key and one value
    // head of 128 (2048 / 16); learned positions (2048); LayerNorms with bias; tied head.
    let (v, h, f, pos, layers, head) = (49_280u64, 2048u64, 8192u64, 2048u64, 24u64, 128u64);
    let c_attn = h * (h + 2 * head) + (h + 2 * head);
    let layer = 2 * (2 * h) + c_attn + (h * h + h) + (h * f + f) + (f * h + h);
    let expected = v * h + pos * h + layers * layer + 2 * h;
    assert_eq!(derived("bigcode/gpt_bigcode-santacoder"), expected);
}

#[test]
fn glm_4_9b_chat_hf_derives_the_parameter_count_chatglm_prints_for_the_same_weights() {
    // GLM-4-9B-chat as THUDM first published it (remote code, the weights this -hf repository
    // converts) prints "9399951392 parameters, 9399951360 (100.00%) are trainable" (GitHub
    // code-index file 29151670186; the 32 others are a rotary buffer) and "with 9399951360 (9.4B)
    // parameters" (code-index file 42305816254). No checkpoint total of the -hf repository was found.
    assert_eq!(derived("THUDM/glm-4-9b-chat-hf"), 9_399_951_360);
}

#[test]
fn falcon_mamba_7b_reads_the_published_intermediate_size_over_expand() {
    // The published config says expand 16 and intermediate_size 8192: transformers sets the file's
    // intermediate_size after computing expand x hidden_size, and FalconMamba's mixer reads it.
    // A layer: RMSNorm (4096), in_proj (4096 x 2 x 8192), conv1d (8192 x 4 + 8192), x_proj
    // (8192 x (256 + 2 x 16)), dt_proj (256 x 8192 + 8192), A_log (8192 x 16), D (8192), out_proj
    // (8192 x 4096); the scan's own RMSNorms have no weights. Vocab 65024, untied head, 64 layers.
    let (h, inner, state, rank, conv, v, layers) = (4096u64, 8192u64, 16u64, 256u64, 4u64, 65_024u64, 64u64);
    let layer = h
        + h * 2 * inner
        + inner * conv
        + inner
        + inner * (rank + 2 * state)
        + rank * inner
        + inner
        + inner * state
        + inner
        + inner * h;
    assert_eq!(derived("tiiuae/falcon-mamba-7b"), 2 * v * h + layers * layer + h);
}
