//! The architecture families the site groups models by, keyed by config.json's `model_type`, and
//! how they derive from each other.
// A part of the in-browser planner (`TABLES`) leaves some tables, and so their resolvers, unused.
#![cfg_attr(any(feature = "wasm-part-a", feature = "wasm-part-b", feature = "wasm-part-c"), allow(dead_code))]

use serde::Serialize;
use serde_json::Value;

use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

mod described;
mod described_dec5;
mod described_dense;
mod described_enc2;
mod described_enc4;
mod described_enc6;
mod described_enc7;
mod described_gemma;
mod described_gpt;
mod described_hybrid;
mod described_mbert;
mod described_misc;
mod described_misc6;
mod described_moe3;
mod described_newdec;
mod described_recur;
mod described_txa;
mod described_txb;
mod described_txc;
mod described_vla;
mod described_vlb;
mod seq2seq;
pub use described::not_yet;

/// Reads a family's config (the whole JSON value) into its resolved, planable form.
pub type Resolver = fn(&Value, &Common) -> Result<Box<dyn Architecture>, ConfigError>;

fn boxed<T: Architecture + 'static>(r: Result<T, ConfigError>) -> Result<Box<dyn Architecture>, ConfigError> {
    r.map(|a| Box::new(a) as Box<dyn Architecture>)
}

fn bert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::bert::BertConfig::resolve(v, c))
}

/// A type of the BERT lineage described in `config/encoders.rs`.
const fn encoder(key: Str, name: Str, from: Str, summary: Str) -> FamilyInfo {
    let derives_from = Some(from);
    FamilyInfo { key, name, derives_from, summary, kind: ModelKind::Encoder, resolve: Some(bert) }
}

type Str = &'static str;

fn gpt2(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::gpt2::Gpt2Config::resolve(v, c))
}

/// GPT-NeoX and OPT, described in `config/spec_gpt_types.rs`.
fn gpt_style(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::spec_gpt::GptConfig::resolve(v, c))
}

fn bloom(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::bloom::BloomConfig::resolve(v, c))
}

fn falcon(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::falcon::FalconConfig::resolve(v, c))
}

fn phi(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::phi::PhiConfig::resolve(v, c))
}

fn t5(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::t5::T5Config::resolve(v, c))
}

fn bart(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::bart::BartConfig::resolve(v, c))
}

fn whisper(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::whisper::WhisperConfig::resolve(v, c))
}

fn distilbert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::distilbert::DistilBertConfig::resolve(v, c))
}

fn albert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::albert::AlbertConfig::resolve(v, c))
}

fn electra(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::electra::ElectraConfig::resolve(v, c))
}

fn deberta_v2(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::deberta_v2::DebertaV2Config::resolve(v, c))
}

fn mpnet(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::mpnet::MpnetConfig::resolve(v, c))
}

fn vit(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::vit::VitConfig::resolve(v, c))
}

fn decoder(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::llama::DecoderConfig::resolve(v, c))
}

/// Resolves, then refuses sizes whose product no machine holds (see `graph::ssm::check_scale`).
pub(crate) fn scaled<T: Architecture + 'static>(
    r: Result<T, ConfigError>,
    field: &'static str,
) -> Result<Box<dyn Architecture>, ConfigError> {
    let a = r?;
    crate::graph::ssm::check_scale(&a.graph(1), field)?;
    boxed(Ok(a))
}

fn ssm(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::ssm::SsmConfig::resolve(v, c), "hidden_size")
}

fn jamba(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::jamba::JambaConfig::resolve(v, c), "num_hidden_layers")
}

pub(super) fn composite(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::composite::CompositeConfig::resolve(v, c), "vision_config.hidden_size")
}

/// What a family's stack is, for serving: an encoder keeps no KV cache; a decoder caches its own
/// keys and values; an encoder-decoder caches the decoder's and, per decoder layer, the encoder's
/// (cross-attention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelKind {
    Encoder,
    Decoder,
    EncoderDecoder,
}

#[derive(Debug, Clone, Serialize)]
pub struct FamilyInfo {
    /// `model_type` as written in config.json; also the family page's file name.
    pub key: &'static str,
    pub name: &'static str,
    /// The family this one's architecture was derived from (RoBERTa from BERT).
    pub derives_from: Option<&'static str>,
    pub summary: &'static str,
    /// Encoder, decoder or encoder-decoder: whether serving keeps a KV cache, and of what.
    pub kind: ModelKind,
    /// How to plan it; families known by name but not planned yet have none.
    #[serde(skip)]
    pub resolve: Option<Resolver>,
}

pub const FAMILIES: &[FamilyInfo] = &[
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "bert",
        kind: ModelKind::Encoder,
        name: "BERT",
        derives_from: None,
        summary: "Bidirectional post-LayerNorm transformer encoder with learned absolute positions and token-type embeddings (Devlin et al., 2018). Sentence-transformers, bge and MiniLM embedders reuse it.",
        resolve: Some(bert),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "roberta",
        kind: ModelKind::Encoder,
        name: "RoBERTa",
        derives_from: Some("bert"),
        summary: "BERT's architecture retrained without next-sentence prediction, with a byte-level BPE vocabulary; position ids start after the padding id (Liu et al., 2019).",
        resolve: Some(bert),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "xlm-roberta",
        kind: ModelKind::Encoder,
        name: "XLM-RoBERTa",
        derives_from: Some("roberta"),
        summary: "RoBERTa trained on 100 languages with a 250k SentencePiece vocabulary (Conneau et al., 2019); e5 multilingual and bge rerankers build on it.",
        resolve: Some(bert),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "camembert",
        "CamemBERT",
        "roberta",
        "RoBERTa's architecture trained on French text with a SentencePiece vocabulary (Martin et al., 2020).",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "data2vec-text",
        "Data2Vec (text)",
        "roberta",
        "RoBERTa's architecture trained to predict its own teacher's representations of masked text (Baevski et al., 2022).",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "roberta-prelayernorm",
        "RoBERTa-PreLayerNorm",
        "roberta",
        "RoBERTa with each LayerNorm moved before its sublayer and one more after the stack, as fairseq's pre-LN encoders (efficient_mlm).",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "xlm-roberta-xl",
        "XLM-RoBERTa-XL",
        "xlm-roberta",
        "XLM-RoBERTa scaled to 3.5B and 10.7B parameters with pre-LN layers, no embedding norm and a final norm after the stack (Goyal et al., 2021).",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "ernie",
        "ERNIE",
        "bert",
        "Baidu's ERNIE 1.0 to 3.0 encoders (2019-2021): BERT's layers and heads, with an optional task-type embedding table (`use_task_id`).",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "ibert",
        "I-BERT",
        "roberta",
        "RoBERTa with integer-only arithmetic for inference (Kim et al., 2021): the same parameters, with quantisation scales and integer weights kept as buffers.",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "layoutlm",
        "LayoutLM",
        "bert",
        "BERT for scanned documents (Xu et al., 2020): each token's bounding box adds four 2-D position embeddings (x, y, height, width); every class keeps the pooler.",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "yoso",
        "YOSO",
        "bert",
        "You Only Sample (Almost) Once (Zeng et al., 2021): BERT's layers with attention estimated by Bernoulli sampling over LSH buckets; the same parameters, no pooler.",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "mra",
        "MRA",
        "bert",
        "Multi-resolution analysis attention (Zeng et al., 2022): BERT's layers with block-sparse attention chosen by a multi-resolution approximation; YOSO's heads.",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "nystromformer",
        "Nyströmformer",
        "bert",
        "Nyström-approximated self-attention (Xiong et al., 2021) with a depthwise convolution over each head's values; YOSO's heads.",
    ),
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    encoder(
        "megatron-bert",
        "Megatron-BERT",
        "bert",
        "NVIDIA's Megatron-LM BERT (Shoeybi et al., 2019): pre-LN layers, no embedding norm, a final norm after the stack, BERT's heads.",
    ),
    #[cfg(not(feature = "wasm-part-c"))]
    FamilyInfo {
        key: "gpt2",
        kind: ModelKind::Decoder,
        name: "GPT-2",
        derives_from: None,
        summary: "Pre-LayerNorm causal transformer decoder with learned absolute positions, fused Conv1D attention projections and an LM head tied to the token embeddings (Radford et al., 2019).",
        resolve: Some(gpt2),
    },
    #[cfg(not(feature = "wasm-part-c"))]
    FamilyInfo {
        key: "gpt_neox",
        kind: ModelKind::Decoder,
        name: "GPT-NeoX",
        derives_from: Some("gpt2"),
        summary: "EleutherAI's decoder (GPT-NeoX-20B, Pythia): rotary positions on part of each head, fused query_key_value, attention and MLP in parallel residual branches, an untied output matrix (Black et al., 2022).",
        resolve: Some(gpt_style),
    },
    #[cfg(not(feature = "wasm-part-c"))]
    FamilyInfo {
        key: "opt",
        kind: ModelKind::Decoder,
        name: "OPT",
        derives_from: Some("gpt2"),
        summary: "Meta's open decoder suite (Zhang et al., 2022): GPT-style with ReLU MLPs, learned positions offset by two, and an optional projection between embedding width and hidden size.",
        resolve: Some(gpt_style),
    },
    // In part B for balance: no VLM plans it as its text model.
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "bloom",
        kind: ModelKind::Decoder,
        name: "BLOOM",
        derives_from: Some("gpt2"),
        summary: "BigScience's multilingual decoder (2022): ALiBi attention biases instead of a position table, a LayerNorm on the embeddings, fused query_key_value and a 250k vocabulary.",
        resolve: Some(bloom),
    },
    // In part B for balance: no VLM plans it as its text model.
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "falcon",
        kind: ModelKind::Decoder,
        name: "Falcon",
        derives_from: Some("gpt_neox"),
        summary: "TII's decoder (2023): rotary positions, parallel attention and MLP, multi-query attention (Falcon-7B) or grouped key/value heads with separate norms (the new decoder architecture of Falcon-40B/180B), no biases.",
        resolve: Some(falcon),
    },
    // In part B for balance: no VLM plans it as its text model.
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "phi",
        kind: ModelKind::Decoder,
        name: "Phi",
        derives_from: Some("gpt_neox"),
        summary: "Microsoft's small decoders phi-1, phi-1.5 and phi-2 (2023): partial rotary positions, attention and MLP in parallel on one LayerNorm, biases throughout, an LM head with its own bias.",
        resolve: Some(phi),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "t5",
        kind: ModelKind::EncoderDecoder,
        name: "T5",
        derives_from: None,
        summary: "Encoder-decoder with pre-RMSNorm, bias-free linears and bucketed relative position biases shared across layers; every task is text-to-text (Raffel et al., 2019).",
        resolve: Some(t5),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mt5",
        kind: ModelKind::EncoderDecoder,
        name: "mT5",
        derives_from: Some("t5"),
        summary: "T5 v1.1 (gated-GELU feed-forward, untied LM head) trained on 101 languages with a 250k SentencePiece vocabulary (Xue et al., 2020).",
        resolve: Some(t5),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "umt5",
        kind: ModelKind::EncoderDecoder,
        name: "UMT5",
        derives_from: Some("mt5"),
        summary: "mT5 with a relative position bias in every self-attention layer instead of the first only, trained with UniMax language sampling (Chung et al., 2023).",
        resolve: Some(t5),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "bart",
        kind: ModelKind::EncoderDecoder,
        name: "BART",
        derives_from: None,
        summary: "Post-LayerNorm encoder-decoder pre-trained as a denoising autoencoder, with learned positions offset by 2 and one embedding table shared by both stacks and the LM head (Lewis et al., 2019).",
        resolve: Some(bart),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "whisper",
        kind: ModelKind::EncoderDecoder,
        name: "Whisper",
        derives_from: None,
        summary: "Speech encoder-decoder: two convolutions over a log-mel spectrogram, a pre-LayerNorm encoder with fixed sinusoidal positions and a text decoder with learned ones (Radford et al., 2022).",
        resolve: Some(whisper),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "distilbert",
        kind: ModelKind::Encoder,
        name: "DistilBERT",
        derives_from: Some("bert"),
        summary: "BERT distilled to half the depth, without token types or pooler, trained to match bert-base's outputs (Sanh et al., 2019).",
        resolve: Some(distilbert),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "albert",
        kind: ModelKind::Encoder,
        name: "ALBERT",
        derives_from: Some("bert"),
        summary: "BERT with factorised embeddings and one set of layer weights shared across depth, trained with sentence-order prediction (Lan et al., 2019).",
        resolve: Some(albert),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "electra",
        kind: ModelKind::Encoder,
        name: "ELECTRA",
        derives_from: Some("bert"),
        summary: "A BERT encoder trained to detect tokens replaced by a small generator rather than to predict masked ones (Clark et al., 2020).",
        resolve: Some(electra),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "deberta-v2",
        kind: ModelKind::Encoder,
        name: "DeBERTa-v2",
        derives_from: Some("bert"),
        summary: "An encoder with disentangled attention over content and bucketed relative positions; DeBERTa-v3 keeps the architecture and trains it ELECTRA-style (He et al., 2020, 2021).",
        resolve: Some(deberta_v2),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mpnet",
        kind: ModelKind::Encoder,
        name: "MPNet",
        derives_from: Some("bert"),
        summary: "A BERT-shaped encoder trained with masked and permuted language modelling, with a relative position bias shared by all layers (Song et al., 2020); all-mpnet-base-v2 builds on it.",
        resolve: Some(mpnet),
    },
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "vit",
        kind: ModelKind::Encoder,
        name: "ViT",
        derives_from: None,
        summary: "A pre-LayerNorm transformer encoder over 16x16 image patches with a [CLS] token and learned positions (Dosovitskiy et al., 2020).",
        resolve: Some(vit),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "llama",
        kind: ModelKind::Decoder,
        name: "Llama",
        derives_from: None,
        summary: "Pre-norm decoder with RMSNorm, rotary positions, a SwiGLU MLP and grouped-query attention from Llama 2 70B and Llama 3 on (Touvron et al., 2023); the template most open decoders follow.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mistral",
        kind: ModelKind::Decoder,
        name: "Mistral",
        derives_from: Some("llama"),
        summary: "Llama's decoder with grouped-query attention and a sliding attention window (Jiang et al., 2023).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mixtral",
        kind: ModelKind::Decoder,
        name: "Mixtral",
        derives_from: Some("mistral"),
        summary: "Mistral with each MLP replaced by a sparse mixture of eight SwiGLU experts, two per token (Jiang et al., 2024).",
        resolve: Some(decoder),
    },
    // In part C too: the audio language models (`audioflamingo3`) plan their Qwen2 through it.
    #[cfg(not(feature = "wasm-part-b"))]
    FamilyInfo {
        key: "qwen2",
        kind: ModelKind::Decoder,
        name: "Qwen2",
        derives_from: Some("llama"),
        summary: "Llama's decoder with biases on the query, key and value projections and a 152k vocabulary (Qwen2 and Qwen2.5).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "qwen2_moe",
        kind: ModelKind::Decoder,
        name: "Qwen2-MoE",
        derives_from: Some("qwen2"),
        summary: "Qwen2 with mixture-of-experts MLPs: many small routed experts plus a gated shared expert.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "qwen3",
        kind: ModelKind::Decoder,
        name: "Qwen3",
        derives_from: Some("qwen2"),
        summary: "Qwen2 without the q/k/v biases, with RMSNorm on each query and key head and an explicit head_dim.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "qwen3_moe",
        kind: ModelKind::Decoder,
        name: "Qwen3-MoE",
        derives_from: Some("qwen3"),
        summary: "Qwen3 with mixture-of-experts MLPs of many small routed experts and no shared expert.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "gemma",
        kind: ModelKind::Decoder,
        name: "Gemma",
        derives_from: Some("llama"),
        summary: "Llama-like decoder with GeGLU, 256-wide heads, (1 + w) RMSNorm, scaled and tied embeddings (Gemma Team, 2024).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "gemma2",
        kind: ModelKind::Decoder,
        name: "Gemma 2",
        derives_from: Some("gemma"),
        summary: "Gemma with norms before and after both sublayers, sliding-window attention on alternate layers and logit soft-capping.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "gemma3_text",
        kind: ModelKind::Decoder,
        name: "Gemma 3 (text)",
        derives_from: Some("gemma2"),
        summary: "Gemma 2's layers with RMSNorm on query and key heads and five sliding-window layers per full one; the text decoder of Gemma 3.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "phi3",
        kind: ModelKind::Decoder,
        name: "Phi-3",
        derives_from: Some("llama"),
        summary: "Llama-like decoder with a fused qkv_proj and a fused gate_up_proj (Abdin et al., 2024).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "deepseek_v2",
        kind: ModelKind::Decoder,
        name: "DeepSeek-V2",
        derives_from: Some("llama"),
        summary: "Decoder with multi-head latent attention (keys and values through a low-rank latent) and mixture-of-experts MLPs with shared experts (DeepSeek-AI, 2024).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "deepseek_v3",
        kind: ModelKind::Decoder,
        name: "DeepSeek-V3",
        derives_from: Some("deepseek_v2"),
        summary: "DeepSeek-V2's latent attention and shared-expert MoE with 256 routed experts and a bias-corrected router after three dense layers (DeepSeek-AI, 2024).",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "granite",
        kind: ModelKind::Decoder,
        name: "Granite",
        derives_from: Some("llama"),
        summary: "IBM's decoder (Granite 3): Llama's layers with multipliers on the embeddings, residuals, attention scores and logits, which change no shape.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "olmo2",
        kind: ModelKind::Decoder,
        name: "OLMo 2",
        derives_from: Some("llama"),
        summary: "AI2's open decoder (OLMo 2, 2024): RMSNorm after attention and after the MLP instead of before, and RMSNorm over all query and all key heads.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "olmo3",
        kind: ModelKind::Decoder,
        name: "OLMo 3",
        derives_from: Some("olmo2"),
        summary: "AI2's OLMo 3 (2025): OLMo 2's layers with a sliding attention window on three layers of every four.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "seed_oss",
        kind: ModelKind::Decoder,
        name: "Seed-OSS",
        derives_from: Some("llama"),
        summary: "ByteDance Seed's open decoder (Seed-OSS-36B, 2025): Llama's layers with biases on the query, key and value projections and 80 query heads over 8 key/value heads.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "smollm3",
        kind: ModelKind::Decoder,
        name: "SmolLM3",
        derives_from: Some("llama"),
        summary: "Hugging Face's small decoder (SmolLM3, 2025): Llama's layers with grouped-query attention, tied embeddings and no rotary positions on every fourth layer.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "starcoder2",
        kind: ModelKind::Decoder,
        name: "StarCoder2",
        derives_from: Some("llama"),
        summary: "BigCode's code decoders (StarCoder2, 2024): grouped-query attention with rotary positions, LayerNorm with biases, a plain GELU MLP and biases throughout.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "ministral",
        kind: ModelKind::Decoder,
        name: "Ministral",
        derives_from: Some("mistral"),
        summary: "Mistral AI's small decoders (Ministral 8B, 2024): Mistral's layers with a sliding window per layer type.",
        resolve: Some(decoder),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mamba",
        kind: ModelKind::Decoder,
        name: "Mamba",
        derives_from: None,
        summary: "A selective state-space model (Gu and Dao, 2023): each layer is a gated causal convolution and an input-dependent scan instead of attention, so generation keeps a fixed-size state per sequence instead of a KV cache.",
        resolve: Some(ssm),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "falcon_mamba",
        kind: ModelKind::Decoder,
        name: "Falcon Mamba",
        derives_from: Some("mamba"),
        summary: "TII's Mamba (Falcon Mamba 7B, 2024): Mamba's layers with weightless RMSNorms on the scan's dt, B and C.",
        resolve: Some(ssm),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mamba2",
        kind: ModelKind::Decoder,
        name: "Mamba-2",
        derives_from: Some("mamba"),
        summary: "Mamba with a multi-head scan whose A is a scalar per head and whose B and C are shared in groups, computed as structured state-space duality (Dao and Gu, 2024); Codestral Mamba uses it.",
        resolve: Some(ssm),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "jamba",
        kind: ModelKind::Decoder,
        name: "Jamba",
        derives_from: Some("mamba"),
        summary: "AI21's hybrid (Lieber et al., 2024): Mamba layers with one attention layer in eight and a mixture of 16 experts, 2 per token, in every other MLP; serving keeps a KV cache for the attention layers only and a fixed state for the rest.",
        resolve: Some(jamba),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "gemma3",
        kind: ModelKind::Decoder,
        name: "Gemma 3",
        derives_from: Some("gemma3_text"),
        summary: "Gemma 3's vision-language model (Gemma Team, 2025): a SigLIP vision tower whose patches are pooled to 256 soft tokens per image and projected into the Gemma 3 text decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "llava",
        kind: ModelKind::Decoder,
        name: "LLaVA",
        derives_from: Some("llama"),
        summary: "Visual instruction tuning (Liu et al., 2023): a CLIP vision tower's patch features through a two-layer MLP projector into a Llama-family decoder, 576 tokens per 336-pixel image.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "llava_next",
        kind: ModelKind::Decoder,
        name: "LLaVA-NeXT",
        derives_from: Some("llava"),
        summary: "LLaVA-1.6 (Liu et al., 2024): LLaVA's CLIP tower and MLP projector over any-resolution tiles of an image, with a learned newline token after each row of patches.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "llava_next_video",
        kind: ModelKind::Decoder,
        name: "LLaVA-NeXT-Video",
        derives_from: Some("llava_next"),
        summary: "LLaVA-NeXT for video (Zhang et al., 2024): LLaVA-NeXT's CLIP tower, MLP projector and image newline, with each frame's patches pooled spatially before the decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "llava_onevision",
        kind: ModelKind::Decoder,
        name: "LLaVA-OneVision",
        derives_from: Some("llava_next"),
        summary: "LLaVA-OneVision (Li et al., 2024): a SigLIP tower over any-resolution tiles, LLaVA's two-layer MLP projector and an image newline, into a Qwen2 decoder; one model for single images, several images and video.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "paligemma",
        kind: ModelKind::Decoder,
        name: "PaliGemma",
        derives_from: Some("gemma"),
        summary: "Google's PaliGemma (2024): a SigLIP-So400m vision tower and one linear projection into a Gemma decoder, one token per image patch.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "mistral3",
        kind: ModelKind::Decoder,
        name: "Mistral 3 (vision)",
        derives_from: Some("mistral"),
        summary: "Mistral Small 3.1's vision-language model (2025): a Pixtral vision encoder at native resolution, a 2x2 patch merger and an MLP projector into a Mistral decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "aya_vision",
        kind: ModelKind::Decoder,
        name: "Aya Vision",
        derives_from: Some("cohere2"),
        summary: "Cohere's Aya Vision (2025): a SigLIP2 vision tower over image tiles, 2x2 patches pixel-shuffled into one token through a SwiGLU projector, into a Command R7B (Cohere2) decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "idefics3",
        kind: ModelKind::Decoder,
        name: "Idefics3",
        derives_from: Some("llama"),
        summary: "Hugging Face's Idefics3 (Laurençon et al., 2024): a SigLIP vision encoder over image tiles, 2x2 patches pixel-shuffled into one token by a single linear connector, into a Llama 3 decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "smolvlm",
        kind: ModelKind::Decoder,
        name: "SmolVLM",
        derives_from: Some("idefics3"),
        summary: "Hugging Face's small vision-language models (Marafioti et al., 2025): Idefics3's SigLIP tower and pixel-shuffle connector, usually a 4x4 shuffle, into a SmolLM2 (Llama) decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "qwen2_vl",
        kind: ModelKind::Decoder,
        name: "Qwen2-VL",
        derives_from: Some("qwen2"),
        summary: "Qwen2-VL (Wang et al., 2024): a ViT with 2-D rotary positions over images at their own resolution, 2x2 patches merged by an MLP into a Qwen2 decoder with multimodal rotary positions (M-RoPE).",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "qwen2_5_vl",
        kind: ModelKind::Decoder,
        name: "Qwen2.5-VL",
        derives_from: Some("qwen2_vl"),
        summary: "Qwen2.5-VL (Bai et al., 2025): Qwen2-VL's design with a vision transformer of RMSNorms, gated MLPs and windowed attention in most blocks, into a Qwen2.5 decoder.",
        resolve: Some(composite),
    },
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    FamilyInfo {
        key: "internvl",
        kind: ModelKind::Decoder,
        name: "InternVL",
        derives_from: Some("qwen2"),
        summary: "Shanghai AI Lab's InternVL (Chen et al., 2024; InternVL3, 2025): an InternViT vision encoder over image tiles, 2x2 patches pixel-shuffled through a LayerNorm and two-layer MLP into a Qwen2 or Llama decoder.",
        resolve: Some(composite),
    },
];

pub fn info(key: &str) -> Option<&'static FamilyInfo> {
    all().find(|f| f.key == key)
}

/// The family tables a build holds. The CLI and the site hold them all. The in-browser planner
/// ships as three WebAssembly modules, each under the page's size budget (`tools/build-wasm.sh`):
/// part C (`wasm-part-c`) holds only the tables of the types added on 5 December (`described_txa`,
/// `_txb`, `_txc`) and Qwen2, which its audio language models plan inside them;
/// feature `wasm-part-a` leaves out the encoder and encoder-decoder families (and, for balance,
/// Falcon, Phi and BLOOM), `wasm-part-b` the decoder and vision-language ones (tables here,
/// entries of `FAMILIES` above); a family left out leaves its resolver unreferenced, so the linker
/// drops its code. GPT-2, GPT-NeoX, OPT and
/// `described_gpt` (BertGeneration) are in both: `encoder-decoder` (part B) plans GPT-2 and
/// BertGeneration decoders. A family's answer depends only on its own entry and on the families
/// its resolver plans inside it (a VLM's `text_config`: part A's decoders; an encoder-decoder's
/// parts: part B's encoders), so each part holds those; only an encoder-decoder whose *encoder*
/// is of a part-A-only type (a decoder's AutoModel, which transformers allows) is refused by part
/// B and planned by the CLI. `static/planner.js` routes a config to part B when part A does not
/// know its family.
const TABLES: &[&[FamilyInfo]] = &[
    FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_dense::FAMILIES,
    #[cfg(not(feature = "wasm-part-c"))]
    described_gpt::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_hybrid::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    seq2seq::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_enc2::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_enc4::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_enc6::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_enc6::SPEC_FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_newdec::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_dec5::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_moe3::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_misc::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_recur::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_mbert::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_enc7::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_gemma::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-c")))]
    described_misc6::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_vlb::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-b", feature = "wasm-part-c")))]
    described_vla::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-b")))]
    described_txa::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-b")))]
    described_txb::FAMILIES,
    #[cfg(not(any(feature = "wasm-part-a", feature = "wasm-part-b")))]
    described_txc::FAMILIES,
];

/// Every family of this build: those above and the described types' (`family/described*.rs`).
pub fn all() -> impl Iterator<Item = &'static FamilyInfo> {
    TABLES.iter().flat_map(|t| t.iter())
}

/// The family a model is filed under. A supported `model_type` is its own key. Any other gets its
/// [`slug`], kept apart from every supported key: transformers matches `model_type` exactly
/// (`CONFIG_MAPPING["Qwen2"]` is a KeyError), so a `"Qwen2"` config, planned as unsupported, must
/// not be listed on the Qwen2 page, whose file name its slug would otherwise share.
pub fn key(model_type: &str) -> String {
    if info(model_type).is_some() {
        return model_type.to_string();
    }
    let s = slug(model_type);
    if info(&s).is_some() { format!("{s}-unsupported") } else { s }
}

/// A family key is used as a file name; `model_type` values are plain identifiers, but a config
/// can hold anything, so anything else maps to a safe slug.
pub fn slug(model_type: &str) -> String {
    let mut s = String::with_capacity(model_type.len());
    for c in model_type.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '_' { c.to_ascii_lowercase() } else { '-' };
        if !(c == '-' && (s.is_empty() || s.ends_with('-'))) {
            s.push(c);
        }
    }
    let s = s.trim_end_matches('-');
    if s.is_empty() { "unknown".into() } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    #[test]
    fn model_types_become_safe_file_names() {
        assert_eq!(super::slug("xlm-roberta"), "xlm-roberta");
        assert_eq!(super::slug("gpt_neox"), "gpt_neox");
        assert_eq!(super::slug("../<x>"), "x");
        assert_eq!(super::slug("..."), "unknown");
    }

    #[test]
    fn a_model_type_that_differs_from_a_supported_one_only_by_case_is_filed_apart_from_it() {
        assert_eq!(super::key("qwen2"), "qwen2");
        assert_eq!(super::key("Qwen2"), "qwen2-unsupported");
        assert_eq!(super::key("QWEN2"), "qwen2-unsupported");
        // Punctuation that slugs away cannot reach a supported page either.
        assert_eq!(super::key("qwen2!"), "qwen2-unsupported");
        assert_eq!(super::key("Zamba3"), "zamba3");
    }

    #[test]
    fn no_two_tables_hold_the_same_family() {
        // `info` takes the first entry of a key: one key, one entry, whichever tables a build holds.
        let mut keys: Vec<&str> = super::all().map(|f| f.key).collect();
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn every_supported_key_is_its_own_slug() {
        for f in super::all() {
            assert_eq!(super::slug(f.key), f.key);
            assert_eq!(super::key(f.key), f.key);
        }
    }
}
