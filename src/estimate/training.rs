//! Training memory from the graph: what autograd saves per node under bf16 autocast (SDPA or
//! eager attention), the logits and the loss, the recipe's bytes per parameter, gradient
//! checkpointing, LoRA and QLoRA, and each mode as phases (`memory_model`) whose largest is the
//! peak.
//!
//! The per-node rules were read off transformers 4.57.1 with `saved_tensors_hooks` (see
//! `tools/validate/validate_activations.py` and its report): under autocast with fp32 weights the
//! residual stream stays fp32, every linear saves a bf16 cast of its input and (once per forward)
//! a bf16 cast of its weight, norms save their fp32 input and statistics, SDPA saves q, k, v, its
//! output and the log-sum-exp, eager attention the fp32 softmax and its bf16 cast.

use std::borrow::Cow;

use serde::Serialize;

use super::memory_model::{Coefficients, MemoryModel, Phase};
use crate::config::Dims;
use crate::graph::{Graph, Node, Op, Role};

/// Weights and the arithmetic around them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// fp32 master weights, bf16 autocast for the matmuls.
    AmpFp32Master,
    /// Weights, gradients and activations in bf16.
    PureBf16,
    /// Everything in fp32, no autocast (a Trainer run without `--fp16`/`--bf16`).
    Fp32,
}

impl Precision {
    /// Bytes of one element of a saved activation (a linear's input, an activation's input, q, k
    /// and v): bf16 under autocast and pure bf16, fp32 without autocast.
    pub fn activation_bytes(self) -> f64 {
        match self {
            Precision::AmpFp32Master | Precision::PureBf16 => 2.0,
            Precision::Fp32 => 4.0,
        }
    }

    /// Bytes of the residual stream: fp32 whenever the weights are.
    pub fn residual_bytes(self) -> f64 {
        match self {
            Precision::AmpFp32Master | Precision::Fp32 => 4.0,
            Precision::PureBf16 => 2.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    AdamW,
    AdamWBf16States,
    AdamW8bit,
    SgdMomentum,
    Adafactor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttentionImpl {
    Sdpa,
    Eager,
}

/// A precision recipe: how many bytes each trainable parameter costs, and what the optimizer step
/// allocates for a moment.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Recipe {
    pub id: &'static str,
    pub label: &'static str,
    pub precision: Precision,
    pub optimizer: Optimizer,
    pub weight_bytes: f64,
    pub grad_bytes: f64,
    /// Optimizer states per parameter (Adafactor: see `factored_states`).
    pub state_bytes: f64,
    /// The step's temporary per trainable parameter (foreach AdamW's sqrt of the second moment).
    pub step_transient_bytes: f64,
}

impl Recipe {
    pub fn bytes_per_param(&self) -> f64 {
        self.weight_bytes + self.grad_bytes + self.state_bytes
    }
}

const AMP_ADAMW: Recipe = Recipe {
    id: "amp-adamw",
    label: "AMP (bf16 autocast, fp32 master weights), AdamW with fp32 states",
    precision: Precision::AmpFp32Master,
    optimizer: Optimizer::AdamW,
    weight_bytes: 4.0,
    grad_bytes: 4.0,
    state_bytes: 8.0,
    step_transient_bytes: 4.0,
};

const AMP_ADAMW_8BIT: Recipe = Recipe {
    id: "amp-adamw-8bit",
    label: "AMP, 8-bit AdamW (bitsandbytes, block-wise states)",
    precision: Precision::AmpFp32Master,
    optimizer: Optimizer::AdamW8bit,
    weight_bytes: 4.0,
    grad_bytes: 4.0,
    // Two 8-bit states plus an fp32 absmax per 2,048-value block for each.
    state_bytes: 2.0 + 2.0 * 4.0 / 2048.0,
    step_transient_bytes: 0.0,
};

const AMP_ADAFACTOR: Recipe = Recipe {
    id: "amp-adafactor",
    label: "AMP, Adafactor (factored second moment, no first moment)",
    precision: Precision::AmpFp32Master,
    optimizer: Optimizer::Adafactor,
    weight_bytes: 4.0,
    grad_bytes: 4.0,
    // Counted per tensor from the graph: rows + columns for a matrix, n for a vector.
    state_bytes: 0.0,
    step_transient_bytes: 0.0,
};

/// Every recipe the page prints; the first is the default.
pub const RECIPES: [Recipe; 9] = [
    AMP_ADAMW,
    Recipe {
        id: "bf16-adamw-fp32-states",
        label: "Pure bf16 weights and gradients, AdamW with fp32 states",
        precision: Precision::PureBf16,
        optimizer: Optimizer::AdamW,
        weight_bytes: 2.0,
        grad_bytes: 2.0,
        state_bytes: 8.0,
        step_transient_bytes: 4.0,
    },
    Recipe {
        id: "bf16-adamw-bf16-states",
        label: "Pure bf16 weights, gradients and AdamW states",
        precision: Precision::PureBf16,
        optimizer: Optimizer::AdamWBf16States,
        weight_bytes: 2.0,
        grad_bytes: 2.0,
        state_bytes: 4.0,
        step_transient_bytes: 2.0,
    },
    AMP_ADAMW_8BIT,
    Recipe {
        id: "amp-sgd-momentum",
        label: "AMP, SGD with momentum (one fp32 buffer)",
        precision: Precision::AmpFp32Master,
        optimizer: Optimizer::SgdMomentum,
        weight_bytes: 4.0,
        grad_bytes: 4.0,
        state_bytes: 4.0,
        step_transient_bytes: 0.0,
    },
    AMP_ADAFACTOR,
    Recipe {
        id: "fp32-adamw",
        label: "fp32 throughout (no autocast): weights, gradients, activations, AdamW states",
        precision: Precision::Fp32,
        ..AMP_ADAMW
    },
    Recipe {
        id: "fp32-adamw-8bit",
        label: "fp32 throughout (no autocast), 8-bit AdamW (bitsandbytes, block-wise states)",
        precision: Precision::Fp32,
        ..AMP_ADAMW_8BIT
    },
    Recipe {
        id: "fp32-adafactor",
        label: "fp32 throughout (no autocast), Adafactor (factored second moment, no first moment)",
        precision: Precision::Fp32,
        ..AMP_ADAFACTOR
    },
];

pub fn recipe(id: &str) -> Option<Recipe> {
    RECIPES.iter().copied().find(|r| r.id == id)
}

/// A plan fits a card when its peak (overhead included) is at most this share of the card.
pub const HEADROOM_FRACTION: f64 = 0.95;
/// NF4 with double quantisation: 4 bits, an 8-bit absmax per 64 values, an fp32 scale per 256
/// absmax blocks.
pub const NF4_BITS_PER_PARAM: f64 = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);

/// The transformers release a plan assumes, where releases save different tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Transformers {
    /// The causal-LM loss upcasts the logits and copies the shifted logits; the Trainer's default
    /// AdamW is the foreach implementation (a temporary per parameter in the step).
    #[serde(rename = "4.46")]
    V4_46,
    /// The loss shifts the labels, not the logits; the Trainer's default AdamW is fused (torch
    /// 2.8 and later), with no temporary; T5 still runs eager attention only.
    #[serde(rename = "4.57")]
    V4_57,
    /// As 4.57, and T5 runs through SDPA.
    #[serde(rename = "5.x")]
    V5,
}

impl Transformers {
    pub const ALL: [Transformers; 3] = [Transformers::V4_46, Transformers::V4_57, Transformers::V5];

    pub fn id(self) -> &'static str {
        match self {
            Transformers::V4_46 => "4.46",
            Transformers::V4_57 => "4.57",
            Transformers::V5 => "5.x",
        }
    }

    pub fn parse(s: &str) -> Option<Transformers> {
        Transformers::ALL.into_iter().find(|t| t.id() == s || (s.starts_with("5.") && *t == Transformers::V5))
    }
}

/// Dropout probabilities the config sets: with p > 0 every site keeps a 1-byte mask per element
/// for the backward pass.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Dropout {
    /// After the embeddings and on each sub-layer's output (`hidden_dropout_prob`, `resid_pdrop`...).
    pub hidden: f64,
    /// On the attention probabilities (`attention_probs_dropout_prob`, `attn_pdrop`...).
    pub attention: f64,
    /// The config key each was read from.
    pub source: Vec<String>,
}

/// The inputs a training plan is made from.
#[derive(Debug, Clone, Serialize)]
pub struct Options {
    pub recipe: Recipe,
    pub attention: AttentionImpl,
    pub checkpointing: bool,
    pub lora_rank: u64,
    /// Module names (the last part of a node's name) LoRA adapts; empty: every linear of the
    /// layers, the head left out.
    pub lora_targets: Vec<String>,
    /// The transformers release whose saved tensors are counted.
    pub transformers: Transformers,
    /// Read from the config (zero when it sets none).
    pub dropout: Dropout,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            recipe: RECIPES[0],
            attention: AttentionImpl::Sdpa,
            checkpointing: false,
            lora_rank: 16,
            lora_targets: vec![],
            transformers: Transformers::V5,
            dropout: Dropout::default(),
        }
    }
}

/// Families whose transformers classes have no SDPA path in that release: they always run eager
/// attention (T5 gained one in transformers 5).
pub fn eager_only(family: &str, version: Transformers) -> bool {
    match family {
        "t5" | "mt5" | "umt5" => version != Transformers::V5,
        // `_supports_sdpa = False` (or unset) in their 5.x modeling files.
        "longt5" | "switch_transformers" | "nllb-moe" | "pegasus_x" | "fsmt" => true,
        "bigbird_pegasus" | "cpmant" => true,
        _ => matches!(family, "deberta-v2" | "mpnet" | "electra" | "bloom"),
    }
}

/// One node's saved bytes per token for one sample (and per token squared), with its repeat.
#[derive(Debug, Clone, Serialize)]
pub struct NodeActivation {
    pub name: String,
    pub repeat: u64,
    pub per_token_bytes: f64,
    pub per_token_sq_bytes: f64,
    /// Bytes per sample whatever the length (a pooler or classifier on the first token).
    pub per_sample_bytes: f64,
    /// What the node saves, in words (most of them fixed phrases: no copy per node).
    pub saves: Cow<'static, str>,
}

/// What autograd holds at the end of the forward pass, excluding the logits.
#[derive(Debug, Clone, Serialize)]
pub struct Activations {
    pub attention: AttentionImpl,
    /// bf16 casts of the linear weights (AMP only), saved once per forward whatever the batch.
    pub fixed_bytes: f64,
    pub per_token_bytes: f64,
    pub per_token_sq_bytes: f64,
    pub per_sample_bytes: f64,
    pub nodes: Vec<NodeActivation>,
}

impl Activations {
    pub fn coefficients(&self) -> Coefficients {
        Coefficients {
            fixed_bytes: self.fixed_bytes,
            per_sample_bytes: self.per_sample_bytes,
            per_token_bytes: self.per_token_bytes,
            per_token_sq_bytes: self.per_token_sq_bytes,
            ..Coefficients::default()
        }
    }
}

fn weight_of(n: &Node) -> Option<(u64, u64)> {
    n.params.iter().find(|t| t.shape.len() == 2).map(|t| (t.shape[0], t.shape[1]))
}

/// (in, out) widths of a linear; GPT-2's Conv1D stores its weight as [in, out].
fn linear_widths(n: &Node) -> Option<(u64, u64)> {
    let (a, b) = weight_of(n)?;
    let out = n.output.last().copied().unwrap_or(a);
    Some(if a == out { (b, a) } else { (a, b) })
}

/// Whether a node's output is one vector per sample (a pooler on the first token: `[hidden]`, or
/// `[1, labels]` in a graph sized at more than one token).
fn per_sample_output(g: &Graph, n: &Node) -> bool {
    n.output.len() == 1 || (g.seq_len > 1 && n.output.len() == 2 && n.output.first() == Some(&1))
}

/// The activation a linear's detail names after "then ".
fn folded_activation(detail: &str) -> Option<&str> {
    detail.split("then ").nth(1).map(|s| s.trim())
}

/// Bytes per element an activation saves on its bf16 input, and whether it saves its output
/// (so that the next linear's input is already held).
fn activation_cost(act: &str) -> (f64, bool) {
    // Case-insensitive prefixes, without a lowercased copy per node.
    let starts =
        |p: &str| act.as_bytes().get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()));
    if starts("relu") {
        (2.0, true)
    } else if starts("gelu_new") || starts("gelu_fast") {
        // The tanh formula written out in Python: input, tanh, 0.5 x and 1 + tanh.
        (8.0, false)
    } else if starts("quick_gelu") {
        (4.0, false)
    } else {
        (2.0, false)
    }
}

/// Activations per node for the precision the residual stream runs in.
pub fn activations(
    g: &Graph,
    dims: &Dims,
    family: &str,
    precision: Precision,
    attention: AttentionImpl,
    lora: Option<&[String]>,
    opts: &Options,
) -> Activations {
    let facts = GraphFacts::of(g, lora.unwrap_or(&[]));
    activations_of(g, &facts, dims, family, precision, attention, lora, opts, true)
}

/// What [`activations_of`] reads of each node's words (its detail and name), found once per
/// graph: a page asks for four or five sets of the same graph, and a graph of one section per
/// layer has thousands of nodes, each searched for a dozen phrases per set.
struct GraphFacts {
    /// Per section: whether a linear of it is a fused q/k/v projection, and where its nodes'
    /// facts start in `nodes`.
    sections: Vec<(bool, usize)>,
    nodes: Vec<NodeFacts>,
}

#[derive(Clone, Copy, Default)]
struct NodeFacts {
    /// A norm: on the residual stream, an RMSNorm, Gemma's `(1 + w)` scale.
    residual: bool,
    rms: bool,
    one_plus_w: bool,
    /// A linear: the cost of the activation folded into it, whether it is an expert's gate or
    /// down projection or a router, and whether LoRA adapts it (with the graph's targets).
    folded: Option<(f64, bool)>,
    expert_gate: bool,
    expert_down: bool,
    router: bool,
    lora_targeted: bool,
    /// An activation: a gated product (`* up`), and the cost of the activation.
    gated: bool,
    cost: (f64, bool),
    /// An attention: grouped key/value heads, rotary positions.
    kv_heads: bool,
    rotary: bool,
}

impl GraphFacts {
    fn of(g: &Graph, lora_targets: &[String]) -> GraphFacts {
        let mut sections = Vec::with_capacity(g.sections.len());
        let mut nodes = Vec::with_capacity(g.sections.iter().map(|s| s.nodes.len()).sum());
        for s in &g.sections {
            // Read by an attention node only.
            let fused = s.nodes.iter().any(|m| m.op == Op::Attention)
                && s.nodes.iter().any(|m| {
                    m.op == Op::Linear && (m.detail.contains("fused q") || m.detail.contains("fused query"))
                });
            sections.push((fused, nodes.len()));
            for n in &s.nodes {
                let d = n.detail.as_str();
                let mut f = NodeFacts::default();
                match n.op {
                    Op::LayerNorm => {
                        f.residual = d.contains("residual");
                        f.rms = d.contains("RMSNorm");
                        f.one_plus_w = d.contains("(1 + w)");
                    }
                    Op::Linear | Op::Conv1d => {
                        f.folded = folded_activation(d).map(activation_cost);
                        f.expert_gate = d == "expert gate projection";
                        f.expert_down = d == "expert down projection" || n.name.ends_with("down_proj");
                        f.router = d.starts_with("router over");
                        f.lora_targeted = lora_targeted(s.role, n, lora_targets);
                    }
                    Op::Activation => {
                        f.gated = d.contains("* up");
                        f.cost = activation_cost(d);
                    }
                    Op::Attention => {
                        f.kv_heads = d.contains("key/value heads");
                        f.rotary = d.contains("rotary");
                    }
                    _ => {}
                }
                nodes.push(f);
            }
        }
        GraphFacts { sections, nodes }
    }
}

/// [`activations`]; without `named` each node's name and what it saves are left empty (the same
/// figures, in the same order: a set read only for its totals names no node).
#[allow(clippy::too_many_arguments)]
fn activations_of(
    g: &Graph,
    facts: &GraphFacts,
    dims: &Dims,
    family: &str,
    precision: Precision,
    attention: AttentionImpl,
    lora: Option<&[String]>,
    opts: &Options,
    named: bool,
) -> Activations {
    // Only the dropout probabilities and the transformers release are read from the options: the
    // precision, attention and LoRA targets vary by caller (every recipe's row, both attentions).
    let (dropout, version) = (&opts.dropout, opts.transformers);
    let t5_like = matches!(family, "t5" | "mt5" | "umt5" | "longt5" | "switch_transformers");
    let hidden_dropout = dropout.hidden > 0.0;
    // Gemma 2 passes an explicit mask (sliding and full layers) and soft-caps, so SDPA gets keys
    // and values repeated to every head and saves the mask.
    let gemma2 = family == "gemma2";
    let mut sq_model = 0.0;
    // Under LoRA nothing needs a gradient before the first adapter: the norms there save nothing.
    let mut trainable_seen = lora.is_none();
    // Bytes of the residual stream: fp32 under autocast with fp32 weights, bf16 otherwise.
    let r = precision.residual_bytes();
    // Bytes of a saved activation element: what the bf16 figures below scale by.
    let e = precision.activation_bytes();
    let ef = e / 2.0;
    let amp = precision == Precision::AmpFp32Master;
    let fp32 = precision == Precision::Fp32;
    let mut nodes = vec![];
    let mut fixed = 0.0;
    let mut rotary = false;
    let vocab = dims.vocab_size;
    // A vision tower runs per image, not per token: left to the architecture's notes.
    let sections = g.sections.iter().zip(&facts.sections).filter(|(s, _)| s.role != Role::Vision);
    for (s, &(fused, first)) in sections {
        let has_act_node = s.nodes.iter().any(|n| n.op == Op::Activation);
        // Whether the previous node's output is a bf16 tensor already saved (SDPA's output,
        // ReLU's output), and the previous linear's input width (siblings share one input).
        let mut prev_saved = false;
        let mut prev_linear_in: Option<u64> = None;
        let mut prev_op = Op::Input;
        let mut seen_attention = false;
        for (n, f) in s.nodes.iter().zip(&facts.nodes[first..]) {
            let w = n.output.last().copied().unwrap_or(0) as f64;
            // A pooler or sequence classifier reads the first token only: its output has one row
            // whatever the sequence, so it costs bytes per sample, not per token.
            let per_sequence =
                matches!(n.op, Op::Linear | Op::Conv1d | Op::Activation) && per_sample_output(g, n);
            let slots = n.active_copies as f64;
            let (mut pt, mut sq, mut saves) = (0.0, 0.0, Cow::Borrowed(""));
            match n.op {
                Op::Input => {
                    pt = 8.0;
                    saves = "int64 indices (once, for the embedding's backward)".into();
                }
                Op::Embedding => {
                    // (a frozen table under LoRA saves no indices).
                    if n.output.len() == 3 && lora.is_none() {
                        // T5's relative position buckets: int64 indices, seq x seq, once per stack.
                        pt = 0.0;
                        sq = 8.0;
                        saves = "int64 relative-position buckets (seq x seq)".into();
                    }
                }
                Op::LayerNorm if !trainable_seen && s.repeat == 1 => {
                    saves = "nothing: no gradient flows this far back under LoRA".into();
                }
                Op::LayerNorm => {
                    let bf16_in =
                        matches!(prev_op, Op::Linear | Op::Activation) && !f.residual && s.role == Role::Head;
                    if f.rms {
                        // One fp32 1/rms per normalised group: per head for Qwen3's q/k norms.
                        let norm_width = n.params.first().and_then(|t| t.shape.first()).copied().unwrap_or(0);
                        let groups = if norm_width > 0 { (w / norm_width as f64).max(1.0) } else { 1.0 };
                        if f.one_plus_w {
                            // Gemma's norm multiplies by (1 + w), an fp32 vector it saves.
                            fixed += 4.0 * w * s.repeat as f64;
                        }
                        if lora.is_some() {
                            // A frozen scale needs no normalised value for its gradient.
                            pt = 4.0 * w + 4.0 * groups;
                            saves =
                                "fp32 copy of the input, fp32 1/rms (the frozen scale keeps nothing)".into();
                        } else if amp || fp32 || f.one_plus_w {
                            // Gemma's norm scales in fp32 before casting back: fp32 either way.
                            pt = 8.0 * w + 4.0 * groups;
                            saves = "fp32 input, fp32 normalised, fp32 1/rms".into();
                        } else {
                            pt = 6.0 * w + 4.0 * groups;
                            saves = "fp32 copy of the input, bf16 normalised, fp32 1/rms".into();
                        }
                    } else {
                        let ib = if bf16_in { e } else { r };
                        pt = ib * w + 8.0;
                        saves = "its input, fp32 mean and 1/std".into();
                    }
                    prev_saved = false;
                    prev_linear_in = None;
                }
                Op::Linear | Op::Conv1d => {
                    let Some((inp, out)) = linear_widths(n) else { continue };
                    let is_logits = s.role == Role::Head && out == vocab;
                    let shared = !amp && prev_op == Op::Linear && prev_linear_in == Some(inp) && !prev_saved;
                    // At most seven phrases: held in place, joined only for a named set.
                    let mut words: [&'static str; 7] = [""; 7];
                    let mut said = 0;
                    let mut say = |w: &'static str| {
                        words[said] = w;
                        said += 1;
                    };
                    // Under LoRA a frozen linear saves no input (its weight needs no gradient);
                    // an adapted one's A saves it.
                    let frozen_only = lora.is_some() && !f.lora_targeted;
                    if !frozen_only {
                        trainable_seen = true;
                    }
                    if !prev_saved && !shared && !frozen_only {
                        pt += e * inp as f64;
                        say(if amp {
                            "bf16 cast of its input"
                        } else if fp32 {
                            "its fp32 input"
                        } else {
                            "its bf16 input"
                        });
                    }
                    if amp && lora.is_none() {
                        fixed += 2.0 * inp as f64 * out as f64 * n.copies as f64 * s.repeat as f64;
                        say("bf16 cast of its weight (once per forward)");
                    }
                    if lora.is_some() {
                        say("LoRA: frozen weight, the adapters' rank-wide outputs counted separately");
                    }
                    prev_saved = false;
                    if let Some((bytes, keeps_output)) = f.folded.filter(|_| !is_logits) {
                        pt += bytes * ef * out as f64;
                        // T5 casts the activation to the output weight's dtype first: a new copy
                        // (measured: not over LoRA's frozen bf16 base, nor in fp32, where the
                        // dtypes already agree).
                        prev_saved = keeps_output && !(t5_like && lora.is_none() && !fp32);
                        say("its activation's saved tensors");
                    }
                    // Mixtral's experts have no activation node: SiLU(w1) * w3 saves the gate, the
                    // SiLU output and the up projection.
                    if !has_act_node && f.expert_gate {
                        pt += 6.0 * ef * out as f64;
                        say("gate, SiLU output and up for the product");
                    }
                    if n.copies > 1 {
                        // Routed tokens only: per slot the gathered fp32 hidden state, the bf16
                        // expert output, its routing weight and token index.
                        if f.expert_down {
                            pt += 4.0 * out as f64 + e * out as f64 + 12.0;
                            say("routing: gathered input, weighted output, index");
                        }
                    }
                    if f.router {
                        let k = dims.experts_per_token.unwrap_or(1) as f64;
                        pt += 4.0 * out as f64 + 8.0 * k + 4.0;
                        say("router softmax and top-k");
                    }
                    pt *= slots;
                    saves = match &words[..said] {
                        _ if !named => Cow::Borrowed(""),
                        [one] => Cow::Borrowed(*one),
                        words => Cow::Owned(words.join("; ")),
                    };
                    prev_linear_in = Some(inp);
                }
                Op::Activation => {
                    if f.gated {
                        pt = 6.0 * ef * w * slots;
                        saves = "gate (the activation's input), activation output, up".into();
                    } else {
                        let (b, keeps) = f.cost;
                        pt = b * ef * w * slots;
                        prev_saved = keeps;
                        saves = "its input".into();
                    }
                    prev_linear_in = None;
                }
                Op::Attention => {
                    let q = w;
                    let head_dim = if dims.head_dim > 0 { dims.head_dim } else { 1 };
                    let heads = (n.output.last().copied().unwrap_or(0) / head_dim).max(1) as f64;
                    let kv_heads = if f.kv_heads { dims.num_kv_heads.max(1) as f64 } else { heads };
                    let kv = if gemma2 { q } else { kv_heads * head_dim as f64 };
                    if f.rotary {
                        rotary = true;
                    }
                    match attention {
                        AttentionImpl::Sdpa => {
                            if fused {
                                // The fused projection's output holds k and v; q and the output
                                // are separate copies (measured on GPT-2).
                                pt = e * (q + 2.0 * kv) + 3.0 * e * q + 4.0 * heads;
                            } else {
                                pt = e * q + 2.0 * e * kv + e * q + 4.0 * heads;
                            }
                            saves =
                                "bf16 q, k, v (at the key/value heads' width), the output, fp32 log-sum-exp"
                                    .into();
                            if t5_like {
                                // T5's position bias (plus the mask, batch-wide) is SDPA's
                                // attention bias: one per stack and attention kind, shared by
                                // the layers, kept for the backward pass.
                                sq_model += r * heads;
                                if named {
                                    saves.to_mut().push_str("; the stack's position bias is counted once");
                                }
                            }
                            prev_saved = true;
                        }
                        AttentionImpl::Eager => {
                            // Keys and values repeated to the query heads, the fp32 softmax and
                            // its bf16 cast (heads x seq per token).
                            pt = if fused { e * (q + 2.0 * kv) + 2.0 * e * q } else { 3.0 * e * q };
                            // The softmax is fp32 (4 bytes, plus its bf16 cast for the second
                            // matmul: 6) where the family asks for fp32 or, under autocast, where
                            // an fp32 mask is added to the scores; otherwise it stays bf16 and
                            // the second matmul reuses it (2).
                            let explicit_fp32 = t5_like
                                || f.kv_heads
                                || matches!(family, "gpt-neox" | "gpt_neox" | "phi" | "opt" | "bloom");
                            let unmasked =
                                matches!(family, "bart" | "whisper") && !n.detail.contains("causal");
                            // Without autocast the fp32 softmax is the second matmul's input as it
                            // is: no cast (4).
                            let per_elem = if fp32 {
                                4.0
                            } else if explicit_fp32 || (amp && !unmasked) {
                                6.0
                            } else {
                                2.0
                            };
                            sq = per_elem * heads;
                            if gemma2 {
                                // tanh soft-capping of the scores keeps its output.
                                sq += e * heads;
                            }
                            if dropout.attention > 0.0 {
                                // Dropout on the probabilities: a 1-byte mask per score, and the
                                // second matmul keeps the dropped probabilities instead of
                                // reusing the softmax's output (under autocast it keeps their
                                // bf16 cast, already counted in the 6).
                                let per_score = if fp32 {
                                    1.0 + 4.0
                                } else if per_elem > 2.0 {
                                    1.0
                                } else {
                                    3.0
                                };
                                sq += heads * per_score;
                            }
                            if matches!(family, "gpt2" | "gpt-sw3") && version != Transformers::V5 {
                                // Each layer's causal-mask buffer (positions x positions, bool),
                                // which `torch.where` saves; transformers 5 builds the mask once
                                // through its mask interface and keeps no such buffer (measured
                                // with 5.24: `tools/validate/activations_report_fp32.md`).
                                fixed += dims.context as f64 * dims.context as f64 * s.repeat as f64;
                            }
                            saves =
                                "q, k, v repeated to every head, fp32 softmax and its bf16 cast (s^2)".into();
                            prev_saved = false;
                        }
                    }
                    prev_linear_in = None;
                }
                Op::Add => {
                    saves = "nothing (an add saves no tensor)".into();
                }
                Op::Scan => {
                    saves = "not modelled (see the notes)".into();
                }
            }
            if hidden_dropout && s.role == Role::Layers && n.op == Op::Attention {
                // Each sub-layer's output dropout keeps a 1-byte mask per element: this attention
                // block's, and (counted with the layer's first attention) the feed-forward's.
                let first = !seen_attention;
                seen_attention = true;
                pt += dims.hidden_size as f64 * if first { 2.0 } else { 1.0 };
                if named {
                    saves.to_mut().push_str(if first {
                        "; dropout masks on the attention's and the feed-forward's outputs"
                    } else {
                        "; dropout mask on the attention's output"
                    });
                }
            }
            prev_op = n.op;
            let per_sample = if per_sequence { std::mem::take(&mut pt) } else { 0.0 };
            // The first instance of a repeated layer's leading norm saves nothing under LoRA.
            let repeat = if n.op == Op::LayerNorm && !trainable_seen { s.repeat - 1 } else { s.repeat };
            if (pt > 0.0 || sq > 0.0 || per_sample > 0.0) && repeat > 0 {
                nodes.push(NodeActivation {
                    name: if named { n.name.clone() } else { String::new() },
                    repeat,
                    per_token_bytes: pt,
                    per_token_sq_bytes: sq,
                    per_sample_bytes: per_sample,
                    saves,
                });
            }
        }
        if hidden_dropout && lora.is_none() && s.role == Role::Embeddings {
            nodes.push(NodeActivation {
                name: if named { format!("{} dropout", s.name) } else { String::new() },
                repeat: 1,
                per_token_bytes: dims.hidden_size as f64,
                per_token_sq_bytes: 0.0,
                per_sample_bytes: 0.0,
                saves: "dropout mask on the embeddings (1 byte per element)".into(),
            });
        }
    }
    if t5_like && attention == AttentionImpl::Sdpa && sq_model > 0.0 {
        nodes.push(NodeActivation {
            name: "position bias".into(),
            repeat: 1,
            per_token_bytes: 0.0,
            per_token_sq_bytes: sq_model,
            per_sample_bytes: 0.0,
            saves:
                "each stack's relative-position bias plus the mask (heads x seq x seq), SDPA's attention bias"
                    .into(),
        });
    }
    if gemma2 {
        // The sliding and the full mask, bf16, shared by the layers of each kind.
        sq_model += if attention == AttentionImpl::Sdpa { 4.0 } else { 0.0 };
        nodes.push(NodeActivation {
            name: "lm_head soft-capping".into(),
            repeat: 1,
            per_token_bytes: e * dims.vocab_size as f64,
            per_token_sq_bytes: sq_model,
            per_sample_bytes: 0.0,
            saves: "tanh output of the final logit soft-capping (bf16), and the attention masks (seq x seq)"
                .into(),
        });
    }
    if rotary {
        nodes.push(NodeActivation {
            name: "rotary cos and sin".into(),
            repeat: 1,
            per_token_bytes: 2.0 * r * dims.head_dim as f64,
            per_token_sq_bytes: 0.0,
            per_sample_bytes: 0.0,
            saves: "cos and sin, shared by every layer".into(),
        });
    }
    let per_token_bytes = nodes.iter().map(|n| n.repeat as f64 * n.per_token_bytes).sum();
    let per_token_sq_bytes = nodes.iter().map(|n| n.repeat as f64 * n.per_token_sq_bytes).sum();
    let per_sample_bytes = nodes.iter().map(|n| n.repeat as f64 * n.per_sample_bytes).sum();
    Activations {
        attention,
        fixed_bytes: fixed,
        per_token_bytes,
        per_token_sq_bytes,
        per_sample_bytes,
        nodes,
    }
}

/// Whether a node belongs to a section: its name is the section's or continues it after a dot, so
/// that `model.layers.3` does not claim the nodes of `model.layers.30` to `model.layers.39`.
fn in_section(node: &str, section: &str) -> bool {
    node.strip_prefix(section).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// With gradient checkpointing each layer keeps only its input (the residual stream), and one
/// layer's activations exist at a time during the recomputation.
fn checkpointed(a: &Activations, g: &Graph, dims: &Dims, r: f64) -> Coefficients {
    let layer_sections: Vec<&str> = g
        .sections
        .iter()
        .filter(|s| s.role == Role::Layers && s.nodes.iter().any(|n| n.op == Op::Attention))
        .map(|s| s.name.as_str())
        .collect();
    let in_layers = |n: &NodeActivation| layer_sections.iter().any(|s| in_section(&n.name, s));
    let outside: f64 =
        a.nodes.iter().filter(|n| !in_layers(n)).map(|n| n.repeat as f64 * n.per_token_bytes).sum();
    let outside_sq: f64 =
        a.nodes.iter().filter(|n| !in_layers(n)).map(|n| n.repeat as f64 * n.per_token_sq_bytes).sum();
    let mut one_layer: f64 = 0.0;
    let mut one_layer_sq: f64 = 0.0;
    let mut layers = 0u64;
    for s in g.sections.iter().filter(|s| layer_sections.contains(&s.name.as_str())) {
        layers += s.repeat;
        let pt: f64 =
            a.nodes.iter().filter(|n| in_section(&n.name, &s.name)).map(|n| n.per_token_bytes).sum();
        let sq: f64 =
            a.nodes.iter().filter(|n| in_section(&n.name, &s.name)).map(|n| n.per_token_sq_bytes).sum();
        one_layer = one_layer.max(pt);
        one_layer_sq = one_layer_sq.max(sq);
    }
    Coefficients {
        fixed_bytes: a.fixed_bytes,
        per_token_bytes: outside + one_layer + layers as f64 * r * dims.hidden_size as f64,
        per_token_sq_bytes: outside_sq + one_layer_sq,
        // Pooler and classifier nodes are outside the layers.
        per_sample_bytes: a.per_sample_bytes,
        ..Coefficients::default()
    }
}

/// Whether LoRA adapts this linear: the layers' (and pooler's) linears named in `targets`, all of
/// them when `targets` is empty.
fn lora_targeted(role: Role, n: &Node, targets: &[String]) -> bool {
    if !matches!(role, Role::Layers | Role::Pooler) || n.op != Op::Linear {
        return false;
    }
    let short = n.name.rsplit('.').next().unwrap_or(&n.name);
    targets.is_empty() || targets.iter().any(|t| t == short)
}

/// Parameters LoRA adds: r x (in + out) for every adapted linear, every copy and repeat.
pub fn lora_params(g: &Graph, rank: u64, targets: &[String]) -> u64 {
    let mut total: u64 = 0;
    for s in g.sections.iter().filter(|s| matches!(s.role, Role::Layers | Role::Pooler)) {
        for n in s.nodes.iter().filter(|n| matches!(n.op, Op::Linear)) {
            let short = n.name.rsplit('.').next().unwrap_or(&n.name);
            if !targets.is_empty() && !targets.iter().any(|t| t == short) {
                continue;
            }
            if let Some((inp, out)) = linear_widths(n) {
                total = total.saturating_add(
                    s.repeat
                        .saturating_mul(n.copies)
                        .saturating_mul(rank)
                        .saturating_mul(inp.saturating_add(out)),
                );
            }
        }
    }
    total
}

/// Extra saved bytes per token of the adapters: A saves its input, B saves A's output.
fn lora_activation_per_token(g: &Graph, rank: u64, targets: &[String]) -> f64 {
    let mut total = 0.0;
    for s in g.sections.iter().filter(|s| matches!(s.role, Role::Layers | Role::Pooler)) {
        for n in s.nodes.iter().filter(|n| matches!(n.op, Op::Linear)) {
            let short = n.name.rsplit('.').next().unwrap_or(&n.name);
            if !targets.is_empty() && !targets.iter().any(|t| t == short) {
                continue;
            }
            if linear_widths(n).is_some() {
                total += s.repeat as f64 * n.active_copies as f64 * 2.0 * rank as f64;
            }
        }
    }
    total
}

/// Parameters of the linears in the layers (what QLoRA quantises).
fn layer_linear_params(g: &Graph) -> u64 {
    g.sections
        .iter()
        .filter(|s| matches!(s.role, Role::Layers | Role::Pooler))
        .map(|s| {
            s.repeat
                * s.nodes
                    .iter()
                    .filter(|n| n.op == Op::Linear)
                    .map(|n| n.copies * weight_of(n).map_or(0, |(a, b)| a * b))
                    .sum::<u64>()
        })
        .sum()
}

fn largest_linear(g: &Graph) -> u64 {
    g.sections
        .iter()
        .filter(|s| matches!(s.role, Role::Layers | Role::Pooler))
        .flat_map(|s| s.nodes.iter())
        .filter(|n| n.op == Op::Linear)
        .filter_map(|n| weight_of(n).map(|(a, b)| a * b))
        .max()
        .unwrap_or(0)
}

/// Adafactor's factored states: rows + columns for each matrix, the full size of a vector.
pub fn factored_states(g: &Graph) -> f64 {
    let mut n = 0u64;
    for s in &g.sections {
        for node in &s.nodes {
            for t in node.params.iter().filter(|t| t.tied_to.is_none()) {
                let each = if t.shape.len() >= 2 {
                    t.shape[0] + t.shape[1..].iter().product::<u64>()
                } else {
                    t.numel()
                };
                n += s.repeat * node.copies * each;
            }
        }
    }
    4.0 * n as f64
}

/// What the head's output and the loss hold: the logits with the log-softmax the cross-entropy
/// keeps (to the end of the step), and the copies that exist only while the loss is computed.
#[derive(Debug, Clone, Serialize)]
pub struct LossCost {
    /// Outputs of the head: the vocabulary for a language-model head, the labels for a
    /// classifier, 0 for a bare model (no head, no loss).
    pub width: u64,
    /// Whether the head scores every token (a language model, token classification) or one
    /// vector per sample (sequence classification, multiple choice).
    pub per_token: bool,
    pub kept: Coefficients,
    pub transient: Coefficients,
    pub rule: String,
}

/// The head's logits and the loss, from the graph's head: its last linear's output width, and
/// whether it has a row per token. A causal language model's loss upcasts the logits to fp32
/// (transformers' `ForCausalLMLoss`; 4.46 also copies the shifted logits, later releases shift the
/// labels); a masked-LM, seq2seq or classification loss calls the cross-entropy on the logits as
/// they are, which autocast runs in fp32 and pure bf16 leaves in bf16.
pub fn loss_cost(g: &Graph, family: &str, precision: Precision, version: Transformers) -> LossCost {
    let head = g
        .sections
        .iter()
        .filter(|s| s.role == Role::Head)
        .flat_map(|s| s.nodes.iter())
        .rfind(|n| matches!(n.op, Op::Linear | Op::Conv1d));
    let Some((_, width)) = head.and_then(linear_widths) else {
        return LossCost {
            width: 0,
            per_token: false,
            kept: Coefficients::default(),
            transient: Coefficients::default(),
            rule: "No head: the class returns hidden states and computes no loss.".into(),
        };
    };
    let per_token = !head.is_some_and(|n| per_sample_output(g, n));
    let v = width as f64;
    let causal = crate::family::info(family).is_some_and(|f| f.kind == crate::family::ModelKind::Decoder);
    let (kept, transient, rule) = if precision == Precision::Fp32 {
        // Without autocast the logits are fp32 already: `.float()` returns the same tensor, so
        // only 4.46's shifted contiguous copy is a new one.
        let shifted = causal && version == Transformers::V4_46;
        (
            8.0 * v,
            if shifted { 4.0 * v } else { 0.0 },
            if shifted {
                "fp32 cross-entropy (no autocast, transformers 4.46): fp32 logits and the fp32 log-softmax kept, (4 + 4) x outputs; while the loss runs, the shifted contiguous copy, 4 x outputs"
            } else {
                "fp32 cross-entropy (no autocast): fp32 logits and the fp32 log-softmax kept, (4 + 4) x outputs; no upcast copy"
            },
        )
    } else if causal {
        let shifted = version == Transformers::V4_46;
        (
            6.0 * v,
            if shifted { 8.0 * v } else { 4.0 * v },
            if shifted {
                "causal LM loss (transformers 4.46): bf16 logits and the fp32 log-softmax kept, (2 + 4) x outputs per token; while the loss runs, the fp32 upcast and its shifted contiguous copy, 8 x outputs"
            } else {
                "causal LM loss: bf16 logits and the fp32 log-softmax kept, (2 + 4) x outputs per token; while the loss runs, the fp32 upcast, 4 x outputs (the labels are shifted, not the logits)"
            },
        )
    } else if precision == Precision::AmpFp32Master {
        (
            6.0 * v,
            4.0 * v,
            "cross-entropy under autocast: bf16 logits and the fp32 log-softmax kept, (2 + 4) x outputs; while the loss runs, the fp32 cast of the logits, 4 x outputs",
        )
    } else {
        (
            4.0 * v,
            0.0,
            "cross-entropy in pure bf16 (no upcast): bf16 logits and the bf16 log-softmax kept, (2 + 2) x outputs",
        )
    };
    let coefficients = |b: f64| {
        if per_token {
            Coefficients { per_token_bytes: b, ..Coefficients::default() }
        } else {
            Coefficients { per_sample_bytes: b, ..Coefficients::default() }
        }
    };
    LossCost {
        width,
        per_token,
        kept: coefficients(kept),
        transient: coefficients(transient),
        rule: format!(
            "{rule}; {} outputs {}.",
            width,
            if per_token { "per token" } else { "per sample (the head reads one vector per sample)" }
        ),
    }
}

/// The optimizer step's temporary per trainable parameter: foreach AdamW (the Trainer's default
/// up to transformers 4.5x) allocates the square root of the second moment for every parameter at
/// once; the fused AdamW later releases default to (torch 2.8 and later) updates in place.
pub fn step_transient_bytes(rec: &Recipe, version: Transformers) -> f64 {
    match (rec.optimizer, version) {
        (Optimizer::AdamW | Optimizer::AdamWBf16States, Transformers::V4_46) => rec.step_transient_bytes,
        _ => 0.0,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Full,
    Lora,
    Qlora,
}

/// One mode's bytes at a batch and length, item by item.
#[derive(Debug, Clone, Serialize)]
pub struct Breakdown {
    pub weights: f64,
    pub gradients: f64,
    pub optimizer_states: f64,
    pub activations: f64,
    pub logits: f64,
    pub loss_transient: f64,
    pub step_transient: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModeTraining {
    pub mode: Mode,
    pub label: String,
    pub trainable_params: u64,
    /// (item, bytes per parameter, parameters it applies to).
    pub bytes_per_param: Vec<(String, f64, u64)>,
    pub batch: u64,
    pub seq_len: u64,
    pub breakdown: Breakdown,
    pub peak_bytes: f64,
    pub peak_phase: String,
    /// The same phases as the fit's mode (`fit.modes[].model`), which the JSON carries once.
    #[serde(skip_serializing)]
    pub memory: MemoryModel,
}

/// The precision a mode's activations run in, and whether LoRA's adapters are on.
fn mode_precision(rec: &Recipe, mode: Mode) -> (Precision, bool) {
    match mode {
        Mode::Full => (rec.precision, false),
        Mode::Lora | Mode::Qlora => (Precision::PureBf16, true),
    }
}

/// Builds a mode's phases and its batch-1 breakdown at `seq`.
pub fn mode(g: &Graph, dims: &Dims, family: &str, opts: &Options, mode: Mode, seq: u64) -> ModeTraining {
    let (precision, lora) = mode_precision(&opts.recipe, mode);
    let acts = activations(
        g,
        dims,
        family,
        precision,
        opts.attention,
        lora.then_some(opts.lora_targets.as_slice()),
        opts,
    );
    mode_with(g, g.param_count(), dims, family, opts, mode, seq, &acts)
}

/// The activations of one graph under one set of options, each computed once: a page asks for
/// fourteen (nine recipes, three modes, both attentions) that differ only in their precision,
/// attention and whether LoRA is on, which give four or five distinct ones. Per node they were a
/// tenth of a build's time.
struct ActivationMemo<'a> {
    g: &'a Graph,
    dims: &'a Dims,
    family: &'a str,
    opts: &'a Options,
    facts: GraphFacts,
    /// `g.param_count()`.
    total: u64,
    /// Each set with whether its nodes are named.
    done: Vec<((Precision, AttentionImpl, bool), bool, Activations)>,
}

impl<'a> ActivationMemo<'a> {
    /// Whether a set's nodes are read: those the view keeps (without LoRA, in the page's
    /// precision: [`ActivationMemo::take`]) and, under gradient checkpointing, every set. The
    /// others give their totals only, and naming their nodes was most of their cost.
    fn named(&self, precision: Precision, lora: bool) -> bool {
        self.opts.checkpointing || (!lora && precision == self.opts.recipe.precision)
    }

    fn compute(
        &self,
        precision: Precision,
        attention: AttentionImpl,
        lora: bool,
        named: bool,
    ) -> Activations {
        let lora_targets = lora.then_some(self.opts.lora_targets.as_slice());
        let (g, facts) = (self.g, &self.facts);
        activations_of(g, facts, self.dims, self.family, precision, attention, lora_targets, self.opts, named)
    }

    fn get(&mut self, precision: Precision, attention: AttentionImpl, lora: bool) -> &Activations {
        let key = (precision, attention, lora);
        let at = match self.done.iter().position(|(k, _, _)| *k == key) {
            Some(at) => at,
            None => {
                let named = self.named(precision, lora);
                let acts = self.compute(precision, attention, lora, named);
                self.done.push((key, named, acts));
                self.done.len() - 1
            }
        };
        &self.done[at].2
    }

    /// The activations without LoRA, named, moved out of the memo (the view keeps them; a copy
    /// of every node's entry faulted in fresh pages).
    fn take(&mut self, precision: Precision, attention: AttentionImpl) -> Activations {
        let key = (precision, attention, false);
        match self.done.iter().position(|(k, named, _)| *k == key && *named) {
            Some(at) => self.done.swap_remove(at).2,
            None => self.compute(precision, attention, false, true),
        }
    }

    /// [`mode`], its activations from the memo (`opts` differs from the memo's only in its
    /// recipe, which the activations do not read).
    fn mode(&mut self, opts: &Options, m: Mode, seq: u64) -> ModeTraining {
        let (precision, lora) = mode_precision(&opts.recipe, m);
        let (g, total, dims, family) = (self.g, self.total, self.dims, self.family);
        let acts = self.get(precision, opts.attention, lora);
        mode_with(g, total, dims, family, opts, m, seq, acts)
    }
}

/// A mode's phases from its activations; `total` is `g.param_count()` (counted once per view,
/// not once per recipe and mode).
#[allow(clippy::too_many_arguments)]
fn mode_with(
    g: &Graph,
    total: u64,
    dims: &Dims,
    family: &str,
    opts: &Options,
    mode: Mode,
    seq: u64,
    acts: &Activations,
) -> ModeTraining {
    let rec = opts.recipe;
    let (precision, lora) = mode_precision(&rec, mode);
    let r = precision.residual_bytes();
    let mut act = if opts.checkpointing { checkpointed(acts, g, dims, r) } else { acts.coefficients() };
    let (trainable, weights, mut table) = match mode {
        Mode::Full => (total, rec.weight_bytes * total as f64, vec![]),
        Mode::Lora => {
            let t = lora_params(g, opts.lora_rank, &opts.lora_targets);
            (
                t,
                2.0 * total as f64 + rec.weight_bytes * t as f64,
                vec![("frozen base, bf16".to_string(), 2.0, total)],
            )
        }
        Mode::Qlora => {
            let t = lora_params(g, opts.lora_rank, &opts.lora_targets);
            let q = layer_linear_params(g);
            let rest = total - q.min(total);
            (
                t,
                NF4_BITS_PER_PARAM / 8.0 * q as f64 + 2.0 * rest as f64 + rec.weight_bytes * t as f64,
                vec![
                    (
                        "frozen linears of the layers, NF4 with double quantisation".to_string(),
                        NF4_BITS_PER_PARAM / 8.0,
                        q,
                    ),
                    ("frozen rest (embeddings, norms, head), bf16".to_string(), 2.0, rest),
                ],
            )
        }
    };
    if lora {
        act.per_token_bytes += lora_activation_per_token(g, opts.lora_rank, &opts.lora_targets);
    }
    if lora && rec.precision == Precision::AmpFp32Master {
        // Under autocast the fp32 adapters' weights are cast to bf16 and saved, like any linear's.
        act.fixed_bytes += 2.0 * trainable as f64;
    }
    if mode == Mode::Qlora {
        // One linear dequantised to bf16 at a time.
        act.fixed_bytes += 2.0 * largest_linear(g) as f64;
    }
    let states = match rec.optimizer {
        Optimizer::Adafactor => {
            if mode == Mode::Full {
                factored_states(g)
            } else {
                4.0 * trainable as f64
            }
        }
        _ => rec.state_bytes * trainable as f64,
    };
    let adapter = if mode == Mode::Full { "trainable" } else { "adapters" };
    table.push((format!("{adapter}: weights"), rec.weight_bytes, trainable));
    table.push((format!("{adapter}: gradients"), rec.grad_bytes, trainable));
    table.push((
        format!("{adapter}: optimizer states"),
        if trainable > 0 { states / trainable as f64 } else { 0.0 },
        trainable,
    ));
    let grads = rec.grad_bytes * trainable as f64;
    // What torch allocates; the runtime's own memory (context, workspaces, the allocator's
    // reserve) is added per card by `runtime`.
    let persistent = weights + grads + states;
    let step = step_transient_bytes(&rec, opts.transformers) * trainable as f64;
    // The loss runs under autocast whenever the recipe does (LoRA's adapters included), whatever
    // the frozen base's dtype.
    let head = loss_cost(g, family, rec.precision, opts.transformers);
    let (logits, loss) = (head.kept, head.transient);
    let fixed = |b: f64| Coefficients { fixed_bytes: b, ..Coefficients::default() };
    let memory = MemoryModel {
        phases: vec![
            Phase { name: "forward end".into(), coefficients: fixed(persistent).plus(act) },
            Phase {
                name: "logits and loss".into(),
                coefficients: fixed(persistent).plus(act).plus(logits).plus(loss),
            },
            Phase { name: "optimizer step".into(), coefficients: fixed(persistent + step) },
        ],
    };
    let (peak_bytes, phase) = memory.peak(1, seq);
    let peak_phase = phase.to_string();
    let label = match mode {
        Mode::Full => format!("Full fine-tune, {}", rec.label),
        Mode::Lora => format!("LoRA r={} over a frozen bf16 base, adapters: {}", opts.lora_rank, rec.label),
        Mode::Qlora => format!("QLoRA r={} over an NF4 base, adapters: {}", opts.lora_rank, rec.label),
    };
    ModeTraining {
        mode,
        label,
        trainable_params: trainable,
        bytes_per_param: table,
        batch: 1,
        seq_len: seq,
        breakdown: Breakdown {
            weights,
            gradients: grads,
            optimizer_states: states,
            activations: act.bytes(1, seq),
            logits: logits.bytes(1, seq),
            loss_transient: loss.bytes(1, seq),
            step_transient: step,
        },
        peak_bytes,
        peak_phase,
        memory,
    }
}

/// A recipe's line in the page's table: its bytes per parameter and the full fine-tune's peak.
#[derive(Debug, Clone, Serialize)]
pub struct RecipeRow {
    pub id: &'static str,
    pub label: &'static str,
    pub weight_bytes: f64,
    pub grad_bytes: f64,
    pub state_bytes: f64,
    pub step_transient_bytes: f64,
    pub full_peak_bytes: f64,
    pub full_peak_phase: String,
    /// The full fine-tune's phases under this recipe, for the page's calculator.
    pub full_memory: MemoryModel,
}

#[derive(Debug, Clone, Serialize)]
pub struct TrainingView {
    pub method: &'static str,
    pub options: Options,
    pub seq_len: u64,
    /// Which figure the phases are, and what the runtime adds per card (`fit.runtime_rule`).
    pub figure: &'static str,
    pub headroom_fraction: f64,
    pub nf4_bits_per_param: f64,
    pub full: ModeTraining,
    pub lora: ModeTraining,
    pub qlora: ModeTraining,
    pub recipes: Vec<RecipeRow>,
    /// Activations of the full fine-tune's precision with SDPA and with eager attention.
    pub activations_sdpa: Option<Activations>,
    pub activations_eager: Activations,
    pub assumptions: Vec<String>,
}

pub fn view(g: &Graph, dims: &Dims, family: &str, seq: u64, mut opts: Options) -> TrainingView {
    let eager_forced = eager_only(family, opts.transformers);
    if eager_forced {
        opts.attention = AttentionImpl::Eager;
    }
    let facts = GraphFacts::of(g, &opts.lora_targets);
    let total = g.param_count();
    let mut memo = ActivationMemo { g, dims, family, opts: &opts, facts, total, done: vec![] };
    let recipes = RECIPES
        .iter()
        .map(|r| {
            let o = Options { recipe: *r, ..opts.clone() };
            let m = memo.mode(&o, Mode::Full, seq);
            RecipeRow {
                id: r.id,
                label: r.label,
                weight_bytes: r.weight_bytes,
                grad_bytes: r.grad_bytes,
                state_bytes: if r.optimizer == Optimizer::Adafactor {
                    m.breakdown.optimizer_states / total.max(1) as f64
                } else {
                    r.state_bytes
                },
                step_transient_bytes: r.step_transient_bytes,
                full_peak_bytes: m.peak_bytes,
                full_peak_phase: m.peak_phase,
                full_memory: m.memory,
            }
        })
        .collect();
    let p = opts.recipe.precision;
    let mut assumptions = vec![
        format!("Recipe: {} ({} bytes per trainable parameter).", opts.recipe.label, opts.recipe.bytes_per_param()),
        format!("transformers {} assumed (--transformers 4.46|4.57|5.x): it decides the loss's copies of the logits, the Trainer's default AdamW (foreach up to 4.46, with a temporary per parameter in the step; fused after, with none) and whether T5 runs SDPA (5.x) or eager attention.", opts.transformers.id()),
        "Activations are what autograd saves for the backward pass, counted per node as transformers saves them under bf16 autocast (read off 4.57): the residual stream stays fp32 when the weights are fp32, every linear saves a bf16 cast of its input, and a bf16 cast of each linear weight is saved once per forward (2 bytes per weight, whatever the batch).".into(),
        if eager_forced {
            format!("transformers has no SDPA path for {family}: eager attention, whose fp32 softmax and its bf16 cast grow with the square of the sequence.")
        } else {
            "Attention is SDPA (flash or memory-efficient kernel): q, k and v at their own widths (grouped key/value heads are not repeated), the output and the fp32 log-sum-exp, no score matrix. On CUDA, transformers repeats grouped keys and values when it cannot pass enable_gqa; CPU validation keeps them grouped.".into()
        },
        if opts.dropout.hidden > 0.0 || opts.dropout.attention > 0.0 {
            format!("Dropout from the config ({}): hidden p = {}, attention p = {}. Each hidden site (the embeddings, each attention block's and each feed-forward's output) keeps a 1-byte mask per element; on the attention probabilities eager attention keeps a 1-byte mask per score and the dropped probabilities for the second matmul; SDPA's kernels regenerate their mask from the RNG state and keep none.", opts.dropout.source.join(", "), opts.dropout.hidden, opts.dropout.attention)
        } else {
            "Dropout off (the config sets p = 0 or none): no masks.".into()
        },
        format!("Logits and loss: {}", loss_cost(g, family, p, opts.transformers).rule),
        "Peak = persistent (weights, gradients, optimizer states) + the largest transient: the activations at the end of the forward pass, plus the logits and the loss, or the optimizer step's temporary. Gradients are counted as persistent (they are when accumulated or zeroed without set_to_none).".into(),
        format!("These are the bytes torch allocates (torch.cuda.max_memory_allocated). {} A plan fits a card when that figure is at most {:.0}% of the card's memory.", super::runtime::RULE, HEADROOM_FRACTION * 100.0),
        format!("LoRA: rank {} on {}, a frozen bf16 base, adapters trained under the recipe; the base's activations run in bf16, frozen linears and norm scales save nothing for their weights, nothing is saved before the first adapter, A saves its input, B the rank-wide output, and under autocast each adapter weight's bf16 cast.", opts.lora_rank, if opts.lora_targets.is_empty() { "every linear of the layers (the head left out)".to_string() } else { opts.lora_targets.join(", ") }),
        format!("QLoRA: the layers' linears in NF4 with double quantisation ({NF4_BITS_PER_PARAM:.4} bits per parameter: 4 bits, an 8-bit absmax per 64 values, an fp32 scale per 256 blocks), the rest in bf16, one linear dequantised to bf16 at a time."),
        if opts.checkpointing {
            "Gradient checkpointing on: each layer keeps its input; one layer's activations are recomputed at a time.".into()
        } else {
            "Gradient checkpointing off.".into()
        },
        "Mixture of experts: an expert's activations are counted for the tokens routed to it (top-k slots per token); every expert's weight cast is counted.".into(),
    ];
    if p == Precision::PureBf16 {
        assumptions.push("Pure bf16: no weight casts; the residual stream is bf16.".into());
    }
    if p == Precision::Fp32 {
        assumptions.push("fp32 without autocast: no weight casts; every saved activation is fp32 (twice the bf16 bytes), the softmax feeds the second matmul as it is, the logits are fp32 with no upcast copy.".into());
    }
    let full = memo.mode(&opts, Mode::Full, seq);
    let lora = memo.mode(&opts, Mode::Lora, seq);
    let qlora = memo.mode(&opts, Mode::Qlora, seq);
    let activations_sdpa = (!eager_forced).then(|| memo.take(p, AttentionImpl::Sdpa));
    let activations_eager = memo.take(p, AttentionImpl::Eager);
    TrainingView {
        method: "training-v1",
        figure: "allocated (torch.cuda.max_memory_allocated); per card, fit adds the allocator's reserve, the cuBLAS workspaces and the CUDA context to give the nvidia-smi figure",
        seq_len: seq,
        headroom_fraction: HEADROOM_FRACTION,
        nf4_bits_per_param: NF4_BITS_PER_PARAM,
        full,
        lora,
        qlora,
        recipes,
        activations_sdpa,
        activations_eager,
        assumptions,
        options: opts,
    }
}
