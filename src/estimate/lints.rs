//! The verifier: rules with stable IDs (they are public: pages and the JSON link to them, and
//! `site/method.html#lint-<id>` documents each). A rule reads the family-neutral dimensions, the
//! whole config.json as written (keys the dimensions do not carry: `sliding_window`,
//! `rope_scaling`, ...), the published dtype, the card catalogue and the graph's tied tensors,
//! and says what it found, why it matters and what to do.
//!
//! Rules read the raw config defensively: a key of an unexpected type (a `rope_scaling` that is
//! a string, a negative window) is either reported by the rule about that key or ignored, never a
//! panic.

use serde::Serialize;
use serde_json::Value;

use crate::config::Dims;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The model cannot run as configured.
    Error,
    /// It runs, but a number or a behaviour is not what the config suggests.
    Warning,
    /// Worth knowing; nothing is wrong.
    Info,
}

#[derive(Debug, Clone, Serialize)]
pub struct Lint {
    pub id: &'static str,
    pub severity: Severity,
    pub finding: String,
    pub reason: &'static str,
    pub fix: String,
}

/// A rule as the method page documents it: when it fires, why that matters, what to do.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    /// The condition, completing "Fires when ...".
    pub when: &'static str,
    pub reason: &'static str,
    /// The general fix; a finding's own fix names the numbers.
    pub fix: &'static str,
}

impl Rule {
    fn lint(&self, finding: String, fix: String) -> Lint {
        Lint { id: self.id, severity: self.severity, finding, reason: self.reason, fix }
    }
}

const HEADS_DO_NOT_DIVIDE_HIDDEN: Rule = Rule {
    id: "heads-do-not-divide-hidden",
    severity: Severity::Error,
    when: "the attention heads do not divide the hidden size",
    reason: "Multi-head attention reshapes the hidden vector into heads of equal width; transformers raises a ValueError when building the layer.",
    fix: "Choose a head count that divides hidden_size, or a hidden_size that is a multiple of the head count.",
};
const KV_HEADS_DO_NOT_DIVIDE_HEADS: Rule = Rule {
    id: "kv-heads-do-not-divide-heads",
    severity: Severity::Error,
    when: "num_key_value_heads does not divide num_attention_heads (grouped-query attention)",
    reason: "Grouped-query attention repeats each key/value head for num_attention_heads / num_key_value_heads query heads (repeat_kv); with a remainder the key and value tensors do not line up with the queries and the forward pass fails.",
    fix: "Choose a num_key_value_heads that divides num_attention_heads (1 for multi-query attention, the head count for plain multi-head attention).",
};
const PAD_TOKEN_OUTSIDE_VOCAB: Rule = Rule {
    id: "pad-token-outside-vocab",
    severity: Severity::Error,
    when: "the padding token id is not a row of the embedding",
    reason: "The word embedding takes the padding id as its padding_idx, which must index one of its rows; building the model fails.",
    fix: "Set pad_token_id to the tokenizer's padding id, which must be below vocab_size.",
};
const SPECIAL_TOKEN_OUTSIDE_VOCAB: Rule = Rule {
    id: "special-token-outside-vocab",
    severity: Severity::Error,
    when: "bos_token_id, eos_token_id (one or a list) or decoder_start_token_id is not a row of the embedding",
    reason: "Generation feeds the start id (bos, or an encoder-decoder's decoder_start_token_id) into the embedding, and every produced eos back into it; an id past the last row indexes out of range (on a GPU, a device-side assert that ends the process). An eos id the head can never produce also means generation never stops before max_new_tokens.",
    fix: "Set the special token ids to the tokenizer's, which must be below vocab_size (or grow the vocabulary with resize_token_embeddings).",
};
const MOE_TOP_K_EXCEEDS_EXPERTS: Rule = Rule {
    id: "moe-top-k-exceeds-experts",
    severity: Severity::Error,
    when: "a mixture of experts routes each token to more experts than a layer has (num_experts_per_tok above num_local_experts / num_experts / n_routed_experts)",
    reason: "The router picks the top-k experts with torch.topk over the expert scores; k larger than the number of experts raises a RuntimeError on the first forward pass.",
    fix: "Set num_experts_per_tok to at most the number of routed experts (Mixtral: 2 of 8).",
};
const TIED_EMBEDDINGS_SHAPE_MISMATCH: Rule = Rule {
    id: "tied-embeddings-shape-mismatch",
    severity: Severity::Error,
    when: "the output head is tied to the input embedding, but the two do not have the same shape in the class (or tie_word_embeddings is true with a decoder_vocab_size other than vocab_size)",
    reason: "Tying makes the head's weight the very tensor of the embedding (_tie_or_clone_weights assigns it); a head of another shape then multiplies the wrong width or produces logits over the wrong vocabulary, and loading a checkpoint fails on the size mismatch.",
    fix: "Either untie (tie_word_embeddings: false, the head gets its own weights) or give both the same vocabulary and width.",
};
const POSITION_OFFSET_SHORTENS_CONTEXT: Rule = Rule {
    id: "position-offset-shortens-context",
    severity: Severity::Warning,
    when: "RoBERTa-style position ids leave fewer usable positions than max_position_embeddings",
    reason: "RoBERTa-style models number positions from pad_token_id + 1; an input longer than the usable positions indexes past the table and fails. Plans sized at max_position_embeddings (as this page's baseline does, to compare with published calculators) overstate the context by the offset.",
    fix: "Truncate inputs to the usable positions (max_position_embeddings - pad_token_id - 1).",
};
const BF16_ON_CARD_WITHOUT_BF16: Rule = Rule {
    id: "bf16-on-card-without-bf16",
    severity: Severity::Warning,
    when: "the weights are bfloat16 and a card of the catalogue has no native bfloat16 (in the built-in catalogue, the T4: compute capability 7.5)",
    reason: "Cards before Ampere have no bf16 tensor cores: recent PyTorch emulates bf16 there (torch.cuda.is_bf16_supported() counts emulation) at a fraction of the card's float16 speed, and older versions refuse it (transformers' Trainer: \"Your setup doesn't support bf16/gpu\"). A plan that fits such a card in bf16 fits in memory but does not run at the speed planned; converting to float16 instead risks overflow in activations trained in bf16's wider range.",
    fix: "On those cards load in float16 (torch_dtype=torch.float16) and watch for overflow (inf/NaN losses), or use a card with native bf16 (Ampere or later).",
};
const SLIDING_WINDOW_EXCEEDS_CONTEXT: Rule = Rule {
    id: "sliding-window-exceeds-context",
    severity: Severity::Warning,
    when: "a sliding-window attention is in use and its window is at or beyond the model's context (max_position_embeddings)",
    reason: "A query attends to at most the whole context anyway, so a window that is not shorter than the context never slides: the layers are full attention, the KV cache is not capped, and any plan or kernel that expects a short window (a rolling cache, a smaller attention cost) is wrong.",
    fix: "Set sliding_window below max_position_embeddings, or remove it (null, or use_sliding_window: false where the family has that switch) if full attention is meant.",
};
const ROPE_SCALING_INCONSISTENT: Rule = Rule {
    id: "rope-scaling-inconsistent",
    severity: Severity::Warning,
    when: "rope_scaling is not an object, names no or an unknown type, lacks a key its type requires, or its values contradict each other or the context",
    reason: "transformers reads rope_scaling by its type (linear, dynamic, yarn, longrope, llama3): a missing required key raises a KeyError, an unknown type has no frequency function and fails to build, and a factor below 1 or an original length not below max_position_embeddings silently computes frequencies other than the ones the model was trained with.",
    fix: "Write rope_scaling as the model was trained: {\"rope_type\": ..., \"factor\": >= 1, ...} with the keys its type requires (llama3: factor, low_freq_factor < high_freq_factor, original_max_position_embeddings < max_position_embeddings).",
};
const ATTN_SOFTCAPPING_IGNORED_BY_SDPA: Rule = Rule {
    id: "attn-softcapping-ignored-by-sdpa",
    severity: Severity::Warning,
    when: "the attention logits are soft-capped (attn_logit_softcapping, Gemma 2: 50.0, its config class's default when the key is absent)",
    reason: "Soft-capping squashes each attention score through cap x tanh(score / cap) before the softmax. Only the eager, flex and FlashAttention-2 (2.6 or later) paths apply it; PyTorch's SDPA, transformers' default attention, has no such argument and transformers 4.57 drops it silently, so the model computes different attention from the one it was trained with. The eager path materialises the sequence x sequence scores: its activation memory grows with the square of the length (this site's eager figures, not the SDPA ones).",
    fix: "Load with attn_implementation=\"eager\" (or \"flash_attention_2\" with flash-attn 2.6 or later) and plan memory with the eager figures.",
};
const CONTEXT_BEYOND_ROPE_ORIGINAL_LENGTH: Rule = Rule {
    id: "context-beyond-rope-original-length",
    severity: Severity::Warning,
    when: "the config says the model was trained on fewer positions (original_max_position_embeddings) than max_position_embeddings, but no rope scaling stretches the rotary frequencies to cover the rest",
    reason: "Without scaling, positions past the trained length get rotary angles the model never saw; quality collapses beyond it even though nothing fails. The memory plans here assume the whole context is usable.",
    fix: "Add the rope_scaling the model was extended with (for example {\"rope_type\": \"yarn\", \"factor\": max / original, \"original_max_position_embeddings\": original}), or set max_position_embeddings to the original length.",
};
const FP16_WITH_SMALL_LAYER_NORM_EPS: Rule = Rule {
    id: "fp16-with-small-layer-norm-eps",
    severity: Severity::Warning,
    when: "the weights are float16 and the normalisation epsilon is below float16's smallest positive number (2^-24, about 5.96e-8)",
    reason: "An epsilon that small rounds to zero (or to 2^-24) wherever the normalisation runs in float16, so it no longer guards the division: a row of near-constant activations divides by almost nothing and the output overflows to inf/NaN. Kernels that accumulate in float32 hide it; pure float16 code paths do not.",
    fix: "Keep the normalisation in float32 (autocast does for LayerNorm), run in bfloat16, or raise the epsilon to at least 1e-5 when training from scratch.",
};
const LAYER_NORM_EPS_NOT_POSITIVE: Rule = Rule {
    id: "layer-norm-eps-not-positive",
    severity: Severity::Warning,
    when: "the normalisation epsilon is zero, negative or not a number",
    reason: "The epsilon keeps the normalisation's division away from zero; at zero a constant row divides by zero, and a negative epsilon can make the variance plus epsilon negative, whose square root is NaN.",
    fix: "Set the epsilon to a small positive number (1e-5 or 1e-6 are usual).",
};
const DEEP_ATTENTION_DEFAULT_INIT: Rule = Rule {
    id: "deep-attention-default-init",
    severity: Severity::Info,
    when: "a stack of 12 or more attention layers is initialised without depth-scaled residual projections",
    reason: "Residual-branch outputs add up with depth; without scaling, activation variance grows with the number of layers. This matters when training from scratch, not when fine-tuning published weights.",
    fix: "When training from scratch, scale residual output projections by depth: nn.init.normal_(w, std=0.02 / math.sqrt(2 * n_layers)).",
};
const VOCAB_NOT_MULTIPLE_OF_64: Rule = Rule {
    id: "vocab-not-multiple-of-64",
    severity: Severity::Info,
    when: "the vocabulary size is not a multiple of 64",
    reason: "Matrix multiplications with the embedding and the LM head run on tensor cores most efficiently when their dimensions are multiples of 64; the last tile is padded.",
    fix: "When training from scratch, pad the vocabulary to the next multiple of 64 (resize_token_embeddings(pad_to_multiple_of=64)).",
};
const FFN_NOT_MULTIPLE_OF_64: Rule = Rule {
    id: "ffn-not-multiple-of-64",
    severity: Severity::Info,
    when: "the feed-forward width is not a multiple of 64",
    reason: "Feed-forward matrix multiplications whose width is not a multiple of 64 leave tensor-core tiles partly empty.",
    fix: "When designing a model, round the width up to a multiple of 64.",
};
const HEAD_DIM_NOT_MULTIPLE_OF_8: Rule = Rule {
    id: "head-dim-not-multiple-of-8",
    severity: Severity::Info,
    when: "the attention head dimension is not a multiple of 8, or is above 256",
    reason: "FlashAttention-2 and PyTorch's fused SDPA kernels (flash, memory-efficient) need a head dimension that is a multiple of 8 and at most 256; otherwise PyTorch falls back to the math kernel, which materialises the sequence x sequence score matrix: slower, and its activation memory grows with the square of the length (the eager figures here, not the SDPA ones).",
    fix: "When designing a model, choose a head dimension that is a multiple of 8 and at most 256 (64, 128 and 256 are the usual ones).",
};
const UNTIED_HEAD_ON_LARGE_VOCABULARY: Rule = Rule {
    id: "untied-head-on-large-vocabulary",
    severity: Severity::Info,
    when: "the class has an output head onto the vocabulary, not tied to the embedding, and the vocabulary has 100,000 entries or more",
    reason: "An untied head holds its own vocabulary x hidden matrix: with a large vocabulary that is hundreds of millions of parameters, each with its gradient and optimizer states in a full fine-tune, on top of the logits (sequence x vocabulary per sample) that dominate activation memory at short lengths.",
    fix: "Nothing to do when fine-tuning published weights; when training from scratch, consider tying (tie_word_embeddings: true) or a smaller vocabulary. LoRA leaves the head frozen.",
};
const FLOAT32_CHECKPOINT: Rule = Rule {
    id: "float32-checkpoint",
    severity: Severity::Info,
    when: "the weights are published in float32",
    reason: "A float32 checkpoint downloads and loads at twice the bytes of bf16; the memory figures here assume bf16 for serving and for a frozen LoRA base.",
    fix: "Load with torch_dtype=torch.bfloat16 (on cards with bf16) or float16.",
};

/// Every rule, most severe first, for the method page.
pub const RULES: &[Rule] = &[
    HEADS_DO_NOT_DIVIDE_HIDDEN,
    KV_HEADS_DO_NOT_DIVIDE_HEADS,
    PAD_TOKEN_OUTSIDE_VOCAB,
    SPECIAL_TOKEN_OUTSIDE_VOCAB,
    MOE_TOP_K_EXCEEDS_EXPERTS,
    TIED_EMBEDDINGS_SHAPE_MISMATCH,
    POSITION_OFFSET_SHORTENS_CONTEXT,
    BF16_ON_CARD_WITHOUT_BF16,
    SLIDING_WINDOW_EXCEEDS_CONTEXT,
    ROPE_SCALING_INCONSISTENT,
    CONTEXT_BEYOND_ROPE_ORIGINAL_LENGTH,
    ATTN_SOFTCAPPING_IGNORED_BY_SDPA,
    FP16_WITH_SMALL_LAYER_NORM_EPS,
    LAYER_NORM_EPS_NOT_POSITIVE,
    DEEP_ATTENTION_DEFAULT_INIT,
    VOCAB_NOT_MULTIPLE_OF_64,
    FFN_NOT_MULTIPLE_OF_64,
    HEAD_DIM_NOT_MULTIPLE_OF_8,
    UNTIED_HEAD_ON_LARGE_VOCABULARY,
    FLOAT32_CHECKPOINT,
];

/// A card of the catalogue, as far as the rules need it.
#[derive(Debug, Clone, Copy)]
pub struct CardBf16<'a> {
    pub name: &'a str,
    pub bf16_native: bool,
}

/// A tensor the graph ties to another, with both shapes (`tied_to_shape` is `None` when the graph
/// has no tensor of that name).
#[derive(Debug, Clone)]
pub struct TiedShape {
    pub tensor: String,
    pub shape: Vec<u64>,
    pub tied_to: String,
    pub tied_to_shape: Option<Vec<u64>>,
}

/// What the rules need to know beyond the dimensions.
pub struct LintInput<'a> {
    pub dims: &'a Dims,
    /// The whole config.json as written.
    pub raw: &'a Value,
    /// `torch_dtype` (or `dtype`) from the config.
    pub torch_dtype: Option<&'a str>,
    /// The published checkpoint's dtype, when known.
    pub checkpoint_dtype: Option<&'a str>,
    /// Whether the family initialises residual projections without depth scaling.
    pub unscaled_residual_init: bool,
    /// The card catalogue the page sizes against.
    pub cards: &'a [CardBf16<'a>],
    /// The graph's tied tensors.
    pub tied: &'a [TiedShape],
    /// The head's projection onto the vocabulary (a tensor of the head whose rows are the
    /// vocabulary), with what it is tied to; `None` for a class without one (a bare encoder, a
    /// classifier).
    pub vocab_head: Option<VocabHead>,
}

/// The head's projection onto the vocabulary.
#[derive(Debug, Clone)]
pub struct VocabHead {
    pub tensor: String,
    pub shape: Vec<u64>,
    pub tied_to: Option<String>,
}

/// The vocabulary size from which an untied head counts as large.
pub const LARGE_VOCABULARY: u64 = 100_000;
/// float16's smallest positive (subnormal) number, 2^-24.
pub const FP16_SMALLEST_POSITIVE: f64 = 5.960_464_477_539_063e-8;

pub fn run(x: &LintInput) -> Vec<Lint> {
    let d = x.dims;
    let mut out = vec![];
    // A head_dim of its own (Kolibri's 48 heads of 128 over hidden 2560) needs no division: only a
    // head width derived from hidden / heads must come out whole.
    if d.num_heads > 0
        && !d.hidden_size.is_multiple_of(d.num_heads)
        && d.head_dim == d.hidden_size / d.num_heads
    {
        out.push(HEADS_DO_NOT_DIVIDE_HIDDEN.lint(
            format!("{} heads do not divide hidden_size {}", d.num_heads, d.hidden_size),
            format!(
                "Choose a head count that divides {} (for example {}), or set hidden_size to a multiple of {}.",
                d.hidden_size,
                largest_divisor_at_most(d.hidden_size, d.num_heads),
                d.num_heads
            ),
        ));
    }
    if d.num_kv_heads > 0 && !d.num_heads.is_multiple_of(d.num_kv_heads) {
        out.push(KV_HEADS_DO_NOT_DIVIDE_HEADS.lint(
            format!(
                "num_key_value_heads {} does not divide num_attention_heads {}",
                d.num_kv_heads, d.num_heads
            ),
            format!(
                "Choose a num_key_value_heads that divides {} (for example {}).",
                d.num_heads,
                largest_divisor_at_most(d.num_heads, d.num_kv_heads)
            ),
        ));
    }
    if let Some(pad) = d.pad_token_id
        && pad >= d.vocab_size
    {
        out.push(PAD_TOKEN_OUTSIDE_VOCAB.lint(
            format!("pad_token_id {pad} is not below vocab_size {}", d.vocab_size),
            PAD_TOKEN_OUTSIDE_VOCAB.fix.into(),
        ));
    }
    if let Some(l) = special_tokens(x) {
        out.push(l);
    }
    if let Some(l) = moe_top_k(x) {
        out.push(l);
    }
    out.extend(tied_mismatches(x));
    if d.usable_context < d.context {
        out.push(POSITION_OFFSET_SHORTENS_CONTEXT.lint(
            format!(
                "max_position_embeddings is {}, but position ids start after the padding id, so at most {} tokens fit",
                d.context, d.usable_context
            ),
            format!("Truncate inputs to {} tokens.", d.usable_context),
        ));
    }
    let bf16 = |s: Option<&str>| s.is_some_and(|s| matches!(s, "bfloat16" | "BF16" | "bf16"));
    if bf16(x.torch_dtype) || bf16(x.checkpoint_dtype) {
        let without: Vec<&str> = x.cards.iter().filter(|c| !c.bf16_native).map(|c| c.name).collect();
        if !without.is_empty() {
            out.push(BF16_ON_CARD_WITHOUT_BF16.lint(
                format!("the weights are bfloat16, which {} cannot run natively", without.join(", ")),
                format!(
                    "On {} load in float16 and watch for overflow, or pick a card with native bf16.",
                    without.join(", ")
                ),
            ));
        }
    }
    if let Some(l) = sliding_window(x) {
        out.push(l);
    }
    if let Some(l) = rope_scaling(x) {
        out.push(l);
    }
    if let Some(l) = rope_original_length(x) {
        out.push(l);
    }
    if let Some(l) = attn_softcapping(x) {
        out.push(l);
    }
    let eps = d.layer_norm_eps;
    let f16 = |s: Option<&str>| s.is_some_and(|s| matches!(s, "float16" | "F16" | "fp16" | "half"));
    if eps.is_finite()
        && eps > 0.0
        && eps < FP16_SMALLEST_POSITIVE
        && (f16(x.torch_dtype) || f16(x.checkpoint_dtype))
    {
        out.push(FP16_WITH_SMALL_LAYER_NORM_EPS.lint(
            format!(
                "the weights are float16 and the normalisation epsilon is {eps:e}, below float16's 2^-24"
            ),
            FP16_WITH_SMALL_LAYER_NORM_EPS.fix.into(),
        ));
    }
    if eps.is_nan() || eps <= 0.0 {
        out.push(
            LAYER_NORM_EPS_NOT_POSITIVE
                .lint(format!("the normalisation epsilon is {eps}"), LAYER_NORM_EPS_NOT_POSITIVE.fix.into()),
        );
    }
    if x.unscaled_residual_init && d.num_layers >= 12 {
        out.push(DEEP_ATTENTION_DEFAULT_INIT.lint(
            format!("{} stacked attention layers initialised with an unscaled normal(0, 0.02)", d.num_layers),
            DEEP_ATTENTION_DEFAULT_INIT.fix.into(),
        ));
    }
    // A model without a vocabulary (ViT: pixels in, vocab_size 0) has no embedding to pad.
    if d.vocab_size > 0 && !d.vocab_size.is_multiple_of(64) {
        let padded = d.vocab_size.div_ceil(64).saturating_mul(64);
        out.push(VOCAB_NOT_MULTIPLE_OF_64.lint(
            format!("vocab_size {} is not a multiple of 64", d.vocab_size),
            format!("When training from scratch, pad the vocabulary to {padded} (resize_token_embeddings(pad_to_multiple_of=64))."),
        ));
    }
    if !d.intermediate_size.is_multiple_of(64) {
        out.push(FFN_NOT_MULTIPLE_OF_64.lint(
            format!("intermediate_size {} is not a multiple of 64", d.intermediate_size),
            format!(
                "When designing a model, round the width to {}.",
                d.intermediate_size.div_ceil(64).saturating_mul(64)
            ),
        ));
    }
    if d.head_dim > 0 && (!d.head_dim.is_multiple_of(8) || d.head_dim > 256) {
        let why = if d.head_dim > 256 { "is above 256" } else { "is not a multiple of 8" };
        out.push(HEAD_DIM_NOT_MULTIPLE_OF_8.lint(
            format!("the attention head dimension {} {why}", d.head_dim),
            format!(
                "When designing a model, use a head dimension of {} instead.",
                d.head_dim.div_ceil(8).saturating_mul(8).min(256)
            ),
        ));
    }
    if let Some(h) = &x.vocab_head
        && h.tied_to.is_none()
        && let [rows, width] = h.shape[..]
        && rows >= LARGE_VOCABULARY
    {
        out.push(UNTIED_HEAD_ON_LARGE_VOCABULARY.lint(
            format!(
                "the untied output head {} holds {} x {} = {} parameters of its own",
                h.tensor,
                thousands(rows),
                thousands(width),
                thousands(rows.saturating_mul(width))
            ),
            UNTIED_HEAD_ON_LARGE_VOCABULARY.fix.into(),
        ));
    }
    let f32 = |s: Option<&str>| s.is_some_and(|s| matches!(s, "float32" | "F32"));
    if f32(x.torch_dtype) || f32(x.checkpoint_dtype) {
        out.push(
            FLOAT32_CHECKPOINT
                .lint("the weights are published in float32".into(), FLOAT32_CHECKPOINT.fix.into()),
        );
    }
    out
}

/// A non-negative integer as JSON writes it (`8`, or `8.0` from Python), else `None`.
fn as_count(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| v.as_f64().filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
}

/// The first of `keys` the config writes as a count, with the key.
fn first_count(raw: &Value, keys: &[&'static str]) -> Option<(&'static str, u64)> {
    keys.iter().find_map(|k| raw.get(*k).and_then(as_count).map(|n| (*k, n)))
}

fn special_tokens(x: &LintInput) -> Option<Lint> {
    let vocab = x.dims.vocab_size;
    if vocab == 0 {
        return None;
    }
    let mut outside = vec![];
    for key in ["bos_token_id", "eos_token_id", "decoder_start_token_id"] {
        let ids: Vec<u64> = match x.raw.get(key) {
            Some(Value::Array(a)) => a.iter().filter_map(as_count).collect(),
            Some(v) => as_count(v).into_iter().collect(),
            None => vec![],
        };
        outside.extend(ids.into_iter().filter(|id| *id >= vocab).map(|id| format!("{key} {id}")));
    }
    (!outside.is_empty()).then(|| {
        SPECIAL_TOKEN_OUTSIDE_VOCAB.lint(
            format!("{} not below vocab_size {vocab}", outside.join(", ")),
            format!("Set the special token ids below {vocab}, as the tokenizer numbers them."),
        )
    })
}

fn moe_top_k(x: &LintInput) -> Option<Lint> {
    let d = x.dims;
    // The resolved dimensions first; the raw keys (aliases across families) for what they lack.
    let (k_key, k) = match d.experts_per_token {
        Some(k) => ("num_experts_per_tok", k),
        None => first_count(x.raw, &["num_experts_per_tok", "moe_top_k"])?,
    };
    let (e_key, e) = match d.num_experts {
        Some(e) => ("experts", e),
        None => {
            first_count(x.raw, &["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"])?
        }
    };
    (e > 0 && k > e).then(|| {
        MOE_TOP_K_EXCEEDS_EXPERTS.lint(
            format!("{k_key} {k} is above the {e} routed experts ({e_key}) of a layer"),
            format!("Set {k_key} to at most {e}."),
        )
    })
}

fn tied_mismatches(x: &LintInput) -> Vec<Lint> {
    let mut out = vec![];
    for t in x.tied {
        if let Some(to) = &t.tied_to_shape
            && *to != t.shape
        {
            out.push(TIED_EMBEDDINGS_SHAPE_MISMATCH.lint(
                format!("{} {:?} is tied to {} {:?}", t.tensor, t.shape, t.tied_to, to),
                TIED_EMBEDDINGS_SHAPE_MISMATCH.fix.into(),
            ));
        }
    }
    // Encoder-decoders with a separate target vocabulary (Marian's decoder_vocab_size): a tied
    // head has the shared embedding's rows, not the target vocabulary's.
    let tied =
        x.raw.get("tie_word_embeddings").and_then(Value::as_bool).unwrap_or(x.dims.tie_word_embeddings);
    if tied
        && let Some(dv) = x.raw.get("decoder_vocab_size").and_then(as_count)
        && dv != x.dims.vocab_size
    {
        out.push(TIED_EMBEDDINGS_SHAPE_MISMATCH.lint(
            format!(
                "tie_word_embeddings is true, but decoder_vocab_size {dv} differs from vocab_size {}",
                x.dims.vocab_size
            ),
            TIED_EMBEDDINGS_SHAPE_MISMATCH.fix.into(),
        ));
    }
    out
}

fn sliding_window(x: &LintInput) -> Option<Lint> {
    // Qwen2/Qwen3 keep a window in the file but use it only with use_sliding_window: true (their
    // config class sets it to None otherwise); the other families use it whenever it is set.
    if x.raw.get("use_sliding_window").and_then(Value::as_bool) == Some(false) {
        return None;
    }
    let w = x.raw.get("sliding_window").and_then(as_count)?;
    let ctx = x.dims.context;
    (w > 0 && ctx > 0 && w >= ctx).then(|| {
        SLIDING_WINDOW_EXCEEDS_CONTEXT.lint(
            format!("sliding_window {w} is not shorter than the context of {ctx} positions: the window never slides"),
            format!(
                "Set sliding_window below {ctx} (Mistral 7B v0.1: 4096 of 32768), or set it to null if full attention is meant."
            ),
        )
    })
}

/// The rope types transformers 4.57 has a frequency function for.
const ROPE_TYPES: &[&str] = &["default", "linear", "dynamic", "yarn", "longrope", "llama3"];

fn rope_scaling(x: &LintInput) -> Option<Lint> {
    let rs = x.raw.get("rope_scaling")?;
    let problems = rope_problems(rs, x.dims, x.raw.get("partial_rotary_factor").and_then(Value::as_f64));
    (!problems.is_empty()).then(|| {
        ROPE_SCALING_INCONSISTENT
            .lint(format!("rope_scaling: {}", problems.join("; ")), ROPE_SCALING_INCONSISTENT.fix.into())
    })
}

/// What is wrong with a `rope_scaling` value, in words; empty when nothing is.
fn rope_problems(rs: &Value, d: &Dims, partial_rotary: Option<f64>) -> Vec<String> {
    let obj = match rs {
        Value::Null => return vec![],
        Value::Object(o) => o,
        other => return vec![format!("expected an object or null, found {other}")],
    };
    let mut p = vec![];
    let ty = match obj.get("rope_type").or_else(|| obj.get("type")) {
        None => {
            p.push("names no rope_type (or type)".to_string());
            return p;
        }
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            p.push(format!("rope_type is not a string: {other}"));
            return p;
        }
    };
    // Qwen2-VL writes "mrope", which its config class maps to "default".
    let ty = if ty == "mrope" { "default" } else { ty };
    if !ROPE_TYPES.contains(&ty) {
        p.push(format!("rope_type {ty:?} is not one transformers knows ({})", ROPE_TYPES.join(", ")));
        return p;
    }
    let required: &[&str] = match ty {
        "linear" | "dynamic" | "yarn" => &["factor"],
        "longrope" => &["short_factor", "long_factor"],
        "llama3" => &["factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"],
        _ => &[],
    };
    let missing: Vec<&str> = required.iter().copied().filter(|k| !obj.contains_key(*k)).collect();
    if !missing.is_empty() {
        p.push(format!("rope_type {ty:?} requires {} (missing)", missing.join(", ")));
    }
    let num = |k: &str| obj.get(k).and_then(Value::as_f64);
    if let Some(f) = obj.get("factor")
        && ty != "default"
    {
        match f.as_f64() {
            Some(v) if v >= 1.0 => {}
            _ => p.push(format!("factor must be a number >= 1, found {f}")),
        }
    }
    let orig = obj.get("original_max_position_embeddings");
    if let Some(o) = orig
        && as_count(o).is_none()
    {
        p.push(format!("original_max_position_embeddings must be a whole number, found {o}"));
    }
    let orig = orig.and_then(as_count);
    if ty == "llama3" {
        if let (Some(lo), Some(hi)) = (num("low_freq_factor"), num("high_freq_factor"))
            && hi <= lo
        {
            p.push(format!("high_freq_factor {hi} is not above low_freq_factor {lo}"));
        }
        if let Some(o) = orig
            && o >= d.context
        {
            p.push(format!(
                "original_max_position_embeddings {o} is not below max_position_embeddings {}",
                d.context
            ));
        }
    }
    if ty == "yarn"
        && let (Some(o), Some(f)) = (orig, num("factor"))
        && o > 0
        && f >= 1.0
    {
        let implicit = d.context as f64 / o as f64;
        if (implicit - f).abs() > 1e-9 * f {
            p.push(format!(
                "factor {f} is not max_position_embeddings / original_max_position_embeddings = {} / {o} = {implicit}",
                d.context
            ));
        }
    }
    if let (Some(bf), Some(bs)) = (num("beta_fast"), num("beta_slow"))
        && ty == "yarn"
        && bf < bs
    {
        p.push(format!("beta_fast {bf} is below beta_slow {bs}"));
    }
    if ty == "longrope" {
        // The factors are one per rotary frequency: half the rotary width.
        // partial_rotary_factor is a top-level key (Phi-4-mini: 0.75); rotary width = head_dim x it.
        let partial = partial_rotary.filter(|f| f.is_finite() && *f > 0.0 && *f <= 1.0).unwrap_or(1.0);
        let half = ((d.head_dim as f64 * partial) as u64) / 2;
        for k in ["short_factor", "long_factor"] {
            match obj.get(k) {
                None => {}
                Some(Value::Array(a)) if a.iter().all(Value::is_number) && a.len() as u64 != half => {
                    p.push(format!("{k} has {} entries; the rotary width needs {half}", a.len()));
                }
                Some(Value::Array(a)) if a.iter().all(Value::is_number) => {}
                Some(other) => p.push(format!("{k} must be a list of numbers, found {}", short(other))),
            }
        }
    }
    p
}

/// A JSON value for a finding, cut to a readable length.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}...", s.chars().take(40).collect::<String>()) } else { s }
}

fn rope_original_length(x: &LintInput) -> Option<Lint> {
    let rs = x.raw.get("rope_scaling");
    let scaled = match rs {
        None | Some(Value::Null) => false,
        Some(Value::Object(o)) => {
            !matches!(o.get("rope_type").or_else(|| o.get("type")).and_then(Value::as_str), Some("default"))
        }
        // Not an object: rope-scaling-inconsistent reports it.
        Some(_) => return None,
    };
    if scaled {
        return None;
    }
    let from_scaling = rs.and_then(|r| r.get("original_max_position_embeddings")).and_then(as_count);
    let orig = from_scaling.or_else(|| x.raw.get("original_max_position_embeddings").and_then(as_count))?;
    let ctx = x.dims.context;
    (orig > 0 && ctx > orig).then(|| {
        CONTEXT_BEYOND_ROPE_ORIGINAL_LENGTH.lint(
            format!(
                "max_position_embeddings is {ctx}, but original_max_position_embeddings is {orig} and no rope scaling covers the {} positions beyond it",
                ctx - orig
            ),
            format!(
                "Add the rope_scaling the model was extended with (factor {}), or plan at {orig} tokens.",
                ctx as f64 / orig as f64
            ),
        )
    })
}

fn attn_softcapping(x: &LintInput) -> Option<Lint> {
    let cap = match x.raw.get("attn_logit_softcapping") {
        Some(v) => v.as_f64()?,
        // Gemma2Config defaults it to 50.0; Gemma 3's class defaults it to None.
        None if x.raw.get("model_type").and_then(Value::as_str) == Some("gemma2") => 50.0,
        None => return None,
    };
    cap.is_finite().then(|| {
        ATTN_SOFTCAPPING_IGNORED_BY_SDPA.lint(
            format!("attention logits are soft-capped at {cap}, which SDPA ignores"),
            ATTN_SOFTCAPPING_IGNORED_BY_SDPA.fix.into(),
        )
    })
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn largest_divisor_at_most(n: u64, at_most: u64) -> u64 {
    (1..=at_most.min(n)).rev().find(|k| n.is_multiple_of(*k)).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dims() -> Dims {
        // A BERT-base-shaped encoder: 64-wide heads, every head its own key and value.
        let base = Dims::mha(768, 6, 12, 3072, 32000, 512);
        Dims { pad_token_id: Some(0), tie_word_embeddings: true, layer_norm_eps: 1e-12, ..base }
    }

    const ALL_NATIVE: &[CardBf16<'static>] = &[
        CardBf16 { name: "L4 24 GB", bf16_native: true },
        CardBf16 { name: "A100 40 GB", bf16_native: true },
    ];
    const WITH_T4: &[CardBf16<'static>] = &[
        CardBf16 { name: "T4 16 GB", bf16_native: false },
        CardBf16 { name: "L4 24 GB", bf16_native: true },
    ];

    /// One configuration to verify: the clean base unless a field says otherwise.
    struct Case {
        dims: Dims,
        raw: Value,
        dtype: Option<&'static str>,
        checkpoint_dtype: Option<&'static str>,
        unscaled: bool,
        cards: &'static [CardBf16<'static>],
        tied: Vec<TiedShape>,
        vocab_head: Option<VocabHead>,
    }

    fn case() -> Case {
        Case {
            dims: dims(),
            raw: json!({}),
            dtype: Some("bfloat16"),
            checkpoint_dtype: None,
            unscaled: false,
            cards: ALL_NATIVE,
            tied: vec![],
            vocab_head: None,
        }
    }

    impl Case {
        fn lints(&self) -> Vec<Lint> {
            run(&LintInput {
                dims: &self.dims,
                raw: &self.raw,
                torch_dtype: self.dtype,
                checkpoint_dtype: self.checkpoint_dtype,
                unscaled_residual_init: self.unscaled,
                cards: self.cards,
                tied: &self.tied,
                vocab_head: self.vocab_head.clone(),
            })
        }
        fn ids(&self) -> Vec<&'static str> {
            self.lints().into_iter().map(|l| l.id).collect()
        }
    }

    fn head(shape: &[u64], embedding: &[u64]) -> Vec<TiedShape> {
        vec![TiedShape {
            tensor: "lm_head.weight".into(),
            shape: shape.to_vec(),
            tied_to: "model.embed_tokens.weight".into(),
            tied_to_shape: Some(embedding.to_vec()),
        }]
    }

    fn lm_head(shape: &[u64], tied_to: Option<&str>) -> Option<VocabHead> {
        Some(VocabHead {
            tensor: "lm_head.weight".into(),
            shape: shape.to_vec(),
            tied_to: tied_to.map(Into::into),
        })
    }

    /// For every rule: a configuration that triggers it and only it, and a near miss that does not.
    fn cases() -> Vec<(&'static str, Case, Case)> {
        vec![
            (
                "heads-do-not-divide-hidden",
                // 770 / 12 leaves 2; 768 / 12 = 64.
                Case { dims: Dims { hidden_size: 770, ..dims() }, ..case() },
                Case { dims: Dims { hidden_size: 768, ..dims() }, ..case() },
            ),
            (
                "kv-heads-do-not-divide-heads",
                // 12 query heads cannot be grouped over 5 key/value heads; over 4, three each.
                Case { dims: Dims { num_kv_heads: 5, ..dims() }, ..case() },
                Case { dims: Dims { num_kv_heads: 4, ..dims() }, ..case() },
            ),
            (
                "pad-token-outside-vocab",
                // Rows 0..31999: 32000 is past the last.
                Case { dims: Dims { pad_token_id: Some(32000), ..dims() }, ..case() },
                Case { dims: Dims { pad_token_id: Some(31999), ..dims() }, ..case() },
            ),
            (
                "special-token-outside-vocab",
                // Rows 0..31999; eos may be a list (Llama 3.1 Instruct writes three).
                Case { raw: json!({"bos_token_id": 1, "eos_token_id": [2, 32000]}), ..case() },
                Case { raw: json!({"bos_token_id": 1, "eos_token_id": [2, 31999]}), ..case() },
            ),
            (
                "moe-top-k-exceeds-experts",
                // Mixtral's 8 experts with 9 chosen per token; 8 of 8 is dense but legal.
                Case { dims: Dims { num_experts: Some(8), experts_per_token: Some(9), ..dims() }, ..case() },
                Case { dims: Dims { num_experts: Some(8), experts_per_token: Some(8), ..dims() }, ..case() },
            ),
            (
                "tied-embeddings-shape-mismatch",
                Case { tied: head(&[32000, 1024], &[32000, 768]), ..case() },
                Case { tied: head(&[32000, 768], &[32000, 768]), ..case() },
            ),
            (
                "position-offset-shortens-context",
                // RoBERTa: 514 positions, padding id 1, numbering from 2: 512 usable.
                Case { dims: Dims { context: 514, usable_context: 512, ..dims() }, ..case() },
                Case { dims: Dims { context: 512, usable_context: 512, ..dims() }, ..case() },
            ),
            (
                "bf16-on-card-without-bf16",
                Case { cards: WITH_T4, ..case() },
                Case {
                    cards: WITH_T4,
                    dtype: Some("float16"),
                    dims: Dims { layer_norm_eps: 1e-5, ..dims() },
                    ..case()
                },
            ),
            (
                "sliding-window-exceeds-context",
                Case { raw: json!({"sliding_window": 512}), ..case() },
                // Mistral 7B v0.1's proportion: 4096 of 32768, here 256 of 512.
                Case { raw: json!({"sliding_window": 256}), ..case() },
            ),
            (
                "rope-scaling-inconsistent",
                // Llama 3.1's scaling with the low and high frequency factors swapped.
                Case {
                    dims: Dims { context: 131072, usable_context: 131072, ..dims() },
                    raw: json!({"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0,
                        "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}}),
                    ..case()
                },
                Case {
                    dims: Dims { context: 131072, usable_context: 131072, ..dims() },
                    raw: json!({"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                        "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}),
                    ..case()
                },
            ),
            (
                "context-beyond-rope-original-length",
                // Phi-3-mini-128k's lengths with its longrope scaling removed.
                Case {
                    dims: Dims { context: 131072, usable_context: 131072, ..dims() },
                    raw: json!({"original_max_position_embeddings": 4096, "rope_scaling": null}),
                    ..case()
                },
                Case {
                    dims: Dims { context: 4096, usable_context: 4096, ..dims() },
                    raw: json!({"original_max_position_embeddings": 4096, "rope_scaling": null}),
                    ..case()
                },
            ),
            (
                "attn-softcapping-ignored-by-sdpa",
                // Gemma 2 writes 50.0; Gemma 3 writes null.
                Case { raw: json!({"attn_logit_softcapping": 50.0}), ..case() },
                Case { raw: json!({"attn_logit_softcapping": null}), ..case() },
            ),
            (
                "fp16-with-small-layer-norm-eps",
                // BERT's 1e-12 in float16; 1e-5 is far above 2^-24.
                Case { dtype: Some("float16"), ..case() },
                Case { dtype: Some("float16"), dims: Dims { layer_norm_eps: 1e-5, ..dims() }, ..case() },
            ),
            (
                "layer-norm-eps-not-positive",
                Case { dims: Dims { layer_norm_eps: -1e-5, ..dims() }, ..case() },
                Case { dims: Dims { layer_norm_eps: 1e-5, ..dims() }, ..case() },
            ),
            (
                "deep-attention-default-init",
                Case { dims: Dims { num_layers: 12, ..dims() }, unscaled: true, ..case() },
                Case { dims: Dims { num_layers: 11, ..dims() }, unscaled: true, ..case() },
            ),
            (
                "vocab-not-multiple-of-64",
                // BERT's 30522 = 64 x 476 + 58; 30528 = 64 x 477.
                Case { dims: Dims { vocab_size: 30522, ..dims() }, ..case() },
                Case { dims: Dims { vocab_size: 30528, ..dims() }, ..case() },
            ),
            (
                "ffn-not-multiple-of-64",
                Case { dims: Dims { intermediate_size: 3000, ..dims() }, ..case() },
                Case { dims: Dims { intermediate_size: 3008, ..dims() }, ..case() },
            ),
            (
                "head-dim-not-multiple-of-8",
                Case { dims: Dims { head_dim: 60, ..dims() }, ..case() },
                Case { dims: Dims { head_dim: 256, ..dims() }, ..case() },
            ),
            (
                "untied-head-on-large-vocabulary",
                Case { vocab_head: lm_head(&[100_032, 768], None), ..case() },
                Case { vocab_head: lm_head(&[100_032, 768], Some("model.embed_tokens.weight")), ..case() },
            ),
            (
                "float32-checkpoint",
                Case { dtype: Some("float32"), ..case() },
                Case { dtype: None, checkpoint_dtype: Some("BF16"), ..case() },
            ),
        ]
    }

    #[test]
    fn a_clean_config_raises_nothing() {
        assert!(case().ids().is_empty(), "{:?}", case().ids());
    }

    #[test]
    fn each_rule_fires_on_its_own_condition_and_not_on_its_near_miss() {
        let cases = cases();
        for (id, fires, near_miss) in &cases {
            assert_eq!(fires.ids(), vec![*id], "{id} should fire alone");
            assert!(near_miss.ids().is_empty(), "{id}'s near miss raised {:?}", near_miss.ids());
        }
        let tested: Vec<&str> = cases.iter().map(|c| c.0).collect();
        let documented: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        assert_eq!(tested, documented, "every rule has a case, in the order of RULES");
    }

    #[test]
    fn there_are_at_least_twelve_rules_with_unique_ids_and_the_original_seven_keep_theirs() {
        let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        assert!(ids.len() >= 12);
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        for public in [
            "heads-do-not-divide-hidden",
            "pad-token-outside-vocab",
            "position-offset-shortens-context",
            "deep-attention-default-init",
            "vocab-not-multiple-of-64",
            "ffn-not-multiple-of-64",
            "float32-checkpoint",
        ] {
            assert!(ids.contains(&public), "{public}");
        }
    }

    #[test]
    fn a_finding_carries_its_rules_severity_and_reason() {
        for (id, fires, _) in cases() {
            let rule = RULES.iter().find(|r| r.id == id).map(|r| (r.severity, r.reason));
            let lint = fires.lints().remove(0);
            assert_eq!(Some((lint.severity, lint.reason)), rule, "{id}");
        }
    }

    #[test]
    fn the_bf16_warning_names_the_cards_without_bf16_and_reads_the_published_dtype_too() {
        let l = Case { cards: WITH_T4, dtype: None, checkpoint_dtype: Some("BF16"), ..case() }.lints();
        assert_eq!(l.len(), 1);
        assert!(l[0].finding.contains("T4 16 GB") && !l[0].finding.contains("L4"), "{}", l[0].finding);
    }

    #[test]
    fn a_window_equal_to_the_context_never_slides() {
        assert_eq!(
            Case { raw: json!({"sliding_window": 512}), ..case() }.ids(),
            vec!["sliding-window-exceeds-context"]
        );
    }

    #[test]
    fn a_window_switched_off_is_not_checked() {
        // Qwen2.5-0.5B: sliding_window 32768 = max_position_embeddings, use_sliding_window false.
        let raw = json!({"sliding_window": 512, "use_sliding_window": false});
        assert!(Case { raw, ..case() }.ids().is_empty());
        let raw = json!({"sliding_window": null});
        assert!(Case { raw, ..case() }.ids().is_empty());
    }

    #[test]
    fn moe_keys_are_read_from_the_raw_config_when_the_dimensions_lack_them() {
        for raw in [
            json!({"num_local_experts": 8, "num_experts_per_tok": 10}),
            json!({"num_experts": 60, "num_experts_per_tok": 64}),
            json!({"n_routed_experts": 256, "num_experts_per_tok": 257}),
        ] {
            assert_eq!(Case { raw, ..case() }.ids(), vec!["moe-top-k-exceeds-experts"]);
        }
        assert!(
            Case { raw: json!({"num_experts": 60, "num_experts_per_tok": 4}), ..case() }.ids().is_empty()
        );
    }

    #[test]
    fn rope_scaling_problems_are_each_named() {
        let ctx = Dims { context: 32768, usable_context: 32768, ..dims() };
        let problems = |rs: Value| rope_problems(&rs, &ctx, None);
        assert!(problems(json!(null)).is_empty());
        assert!(problems(json!({"type": "linear", "factor": 8.0})).is_empty());
        assert!(problems(json!({"rope_type": "dynamic", "factor": 2.0})).is_empty());
        // YaRN's factor is max / original: 32768 / 8192 = 4.
        assert!(
            problems(json!({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192}))
                .is_empty()
        );
        let one = |rs: Value, needle: &str| {
            let p = problems(rs);
            assert_eq!(p.len(), 1, "{p:?}");
            assert!(p[0].contains(needle), "{p:?} should mention {needle}");
        };
        one(json!("linear"), "expected an object");
        one(json!([8.0]), "expected an object");
        one(json!({"factor": 8.0}), "names no rope_type");
        one(json!({"rope_type": 3}), "not a string");
        one(json!({"rope_type": "ntk-by-parts", "factor": 2.0}), "not one transformers knows");
        one(json!({"rope_type": "linear"}), "requires factor");
        one(json!({"rope_type": "linear", "factor": 0.5}), "factor must be a number >= 1");
        one(json!({"rope_type": "linear", "factor": "8"}), "factor must be a number >= 1");
        one(json!({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8192}), "= 4");
        one(json!({"rope_type": "yarn", "factor": 4.0, "beta_fast": 1.0, "beta_slow": 32.0}), "beta_fast");
        one(
            json!({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                "original_max_position_embeddings": 32768}),
            "not below max_position_embeddings 32768",
        );
        one(
            json!({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                "original_max_position_embeddings": -5}),
            "whole number",
        );
        // head_dim 64: 32 rotary frequencies, so 32 factors each.
        let factors = |n: usize| vec![1.0; n];
        assert!(
            problems(
                json!({"rope_type": "longrope", "short_factor": factors(32), "long_factor": factors(32)})
            )
            .is_empty()
        );
        one(
            json!({"rope_type": "longrope", "short_factor": factors(32), "long_factor": factors(48)}),
            "needs 32",
        );
        one(
            json!({"rope_type": "longrope", "short_factor": factors(32), "long_factor": "x"}),
            "list of numbers",
        );
    }

    #[test]
    fn a_scaled_context_is_not_an_unscaled_one() {
        // Phi-3-mini-128k: 131072 positions over 4096 trained, with longrope scaling.
        let d = Dims { context: 131072, usable_context: 131072, head_dim: 96, ..dims() };
        let raw = json!({"original_max_position_embeddings": 4096,
            "rope_scaling": {"type": "longrope", "short_factor": vec![1.0; 48], "long_factor": vec![1.0; 48]}});
        assert!(Case { dims: d, raw, ..case() }.ids().is_empty());
    }

    #[test]
    fn gemma_2_caps_its_attention_logits_by_default() {
        let raw = json!({"model_type": "gemma2"});
        assert_eq!(Case { raw, ..case() }.ids(), vec!["attn-softcapping-ignored-by-sdpa"]);
        let raw = json!({"model_type": "gemma3_text"});
        assert!(Case { raw, ..case() }.ids().is_empty());
    }

    #[test]
    fn the_untied_head_finding_counts_its_parameters() {
        // Qwen3-8B: 151,936 x 4,096 = 151,936 x 4,000 + 151,936 x 96 = 607,744,000 + 14,585,856.
        let l = Case { vocab_head: lm_head(&[151_936, 4096], None), ..case() }.lints();
        assert_eq!(l.len(), 1, "{l:?}");
        assert!(
            l[0].finding.contains("lm_head.weight holds 151,936 x 4,096 = 622,329,856"),
            "{}",
            l[0].finding
        );
    }

    #[test]
    fn a_class_without_a_vocabulary_head_has_no_head_to_tie() {
        // A classifier over an untied 151,936-token model: its head is num_labels x hidden.
        let d = Dims { vocab_size: 151_936, tie_word_embeddings: false, ..dims() };
        assert!(Case { dims: d, vocab_head: None, ..case() }.ids().is_empty());
    }

    #[test]
    fn every_special_token_outside_the_vocabulary_is_named() {
        let raw = json!({"bos_token_id": 32000, "eos_token_id": 40000, "decoder_start_token_id": 5});
        let l = Case { raw, ..case() }.lints();
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].finding, "bos_token_id 32000, eos_token_id 40000 not below vocab_size 32000");
        // A negative or null id is not an index (some configs write -1 or null for "none").
        assert!(Case { raw: json!({"eos_token_id": -1, "bos_token_id": null}), ..case() }.ids().is_empty());
    }

    #[test]
    fn a_separate_decoder_vocabulary_cannot_be_tied() {
        let raw = json!({"tie_word_embeddings": true, "decoder_vocab_size": 58101});
        assert_eq!(Case { raw, ..case() }.ids(), vec!["tied-embeddings-shape-mismatch"]);
        let raw = json!({"tie_word_embeddings": false, "decoder_vocab_size": 58101});
        assert!(Case { raw, ..case() }.ids().is_empty());
    }

    #[test]
    fn odd_values_never_panic() {
        let odd = [
            json!(null),
            json!(-1),
            json!(0),
            json!(1.5),
            json!(-1e308),
            json!(1e308),
            json!(u64::MAX),
            json!("8"),
            json!([]),
            json!([1, "a", null]),
            json!({}),
            json!({"rope_type": null}),
            json!({"type": "yarn", "factor": null, "original_max_position_embeddings": 0}),
            json!({"rope_type": "longrope", "short_factor": null, "long_factor": [null]}),
            json!({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": "a", "high_freq_factor": []}),
        ];
        let keys = [
            "rope_scaling",
            "sliding_window",
            "use_sliding_window",
            "original_max_position_embeddings",
            "num_experts_per_tok",
            "num_local_experts",
            "num_experts",
            "decoder_vocab_size",
            "tie_word_embeddings",
            "attn_logit_softcapping",
            "model_type",
            "bos_token_id",
            "eos_token_id",
            "decoder_start_token_id",
            "partial_rotary_factor",
        ];
        let odd_dims = [
            dims(),
            Dims { num_heads: 0, num_kv_heads: 0, head_dim: 0, ..dims() },
            Dims { context: 0, usable_context: 0, vocab_size: 0, pad_token_id: None, ..dims() },
            Dims { layer_norm_eps: f64::NAN, ..dims() },
            Dims { layer_norm_eps: f64::INFINITY, ..dims() },
            Dims { vocab_size: u64::MAX, hidden_size: u64::MAX, tie_word_embeddings: false, ..dims() },
            Dims { num_experts: Some(0), experts_per_token: Some(u64::MAX), ..dims() },
        ];
        for d in &odd_dims {
            for k in keys {
                for v in &odd {
                    let mut raw = json!({});
                    raw[k] = v.clone();
                    for dtype in [None, Some("float16"), Some("bfloat16"), Some("")] {
                        let _ = Case { dims: d.clone(), raw: raw.clone(), dtype, cards: WITH_T4, ..case() }
                            .lints();
                    }
                }
            }
            let _ = Case { dims: d.clone(), raw: json!([1, 2]), ..case() }.lints();
            for shape in [vec![], vec![u64::MAX, u64::MAX], vec![u64::MAX], vec![1, 2, 3]] {
                let _ = Case { dims: d.clone(), vocab_head: lm_head(&shape, None), ..case() }.lints();
            }
            let _ = Case { dims: d.clone(), raw: json!("config"), ..case() }.lints();
        }
    }

    #[test]
    fn a_model_without_a_vocabulary_raises_no_vocabulary_rule() {
        assert!(
            Case { dims: Dims { vocab_size: 0, pad_token_id: None, ..dims() }, ..case() }.ids().is_empty()
        );
    }

    #[test]
    fn the_divisor_hint_is_a_real_divisor() {
        assert_eq!(largest_divisor_at_most(770, 12), 11);
        assert_eq!(largest_divisor_at_most(12, 5), 4);
    }
}
