//! The architecture as a graph: sections of nodes named like the checkpoint's tensors, each node
//! with its output shape at the plan's sequence length and its parameter tensors.
//!
//! A stack of identical layers is one section with a repeat count and `{i}` in its names, so an
//! 80-layer model is as small to hold, count and render as a 2-layer one; [`Graph::tensors`]
//! expands the names when a checkpoint's tensor list has to be matched.

#[macro_use]
mod architecture;

pub mod albert;
mod audio_lm;
mod bailing_hybrid;
pub mod bart;
pub mod bert;
mod bigbird_pegasus;
pub mod blocks;
pub mod bloom;
mod blt;
pub mod canine;
pub mod clip_text;
mod common;
pub mod composite;
mod cpmant;
pub mod dbrx;
pub mod deberta_v2;
pub mod decoder;
mod decoder_common;
pub mod deepseek_v4;
mod deepseek_v4_cache;
mod deepseek_v4_ckpt;
pub mod distilbert;
pub mod doc_text;
pub mod doge_dory;
pub mod dory;
pub mod electra;
mod encoder;
mod encoder_decoder;
pub mod esmc;
mod eurobert;
pub mod falcon;
pub mod fold;
mod fsmt;
pub mod funnel;
pub mod gemma3n;
pub mod gemma4;
pub mod gemma4_assistant;
pub mod gpt2;
pub mod gpt_bigcode;
pub mod gpt_style;
mod gpt_style_arch;
mod hrm_text;
pub mod inkling;
pub mod inkling2;
pub mod intern_vision;
pub mod jamba;
pub mod jetmoe;
pub mod kv;
pub mod layoutlmv3;
mod lilt;
pub mod llama;
pub mod llama4_vision;
mod lxmert;
mod mamba2;
mod mimi;
mod mixers;
mod mllama_text;
pub mod mllama_vision;
mod mobilebert;
mod modernbert;
mod modernvbert;
mod moshi;
pub mod mpnet;
pub mod neomme;
mod nllb_moe;
mod olmo_hybrid;
mod pegasus_x;
mod perceiver;
pub mod phi;
mod privacy_filter;
mod prophetnet;
pub mod quantized;
pub mod qwen3_vision;
pub mod qwen4_exp;
pub mod qwen_vision;
pub mod recurrent_gemma;
mod reformer;
pub mod release;
pub mod rwkv;
pub mod spec;
mod spec_arch;
mod spec_axk2;
mod spec_cache;
mod spec_extras;
mod spec_hybrid;
mod spec_longcat;
mod spec_moe;
pub mod ssm;
pub mod t5;
mod t5_blocks;
pub mod t5gemma;
pub mod vision;
pub mod vit;
pub mod whisper;
pub mod xlm;
pub mod xlnet;
pub mod xlstm;
pub mod zamba;
pub mod zamba2;
pub mod zaya;

mod candidate;
pub use candidate::{Candidate, TensorRun};

use serde::Serialize;

use crate::config::{Defaulted, Dims};

/// A resolved config of some family: everything the planner needs from it. Each family's
/// resolved config (in `config/<family>.rs`) implements this in `graph/<family>.rs`.
pub trait Architecture: Send + Sync + std::fmt::Debug {
    /// The class planned: `architectures[0]`, or the family's base model when the file names none.
    fn class(&self) -> &str;
    fn dims(&self) -> Dims;
    /// Values taken from the config class's defaults, not from the file.
    fn defaulted(&self) -> &[Defaulted];
    /// The graph at a sequence length.
    fn graph(&self, seq: u64) -> Graph;
    /// Tensors a checkpoint of this family may hold that the class does not (or the reverse).
    fn checkpoint_candidates(&self) -> Vec<Candidate>;
    /// Prefixes transformers adds or strips when a checkpoint saved from one class is loaded into
    /// another (`bert.`, `model.`).
    fn checkpoint_prefixes(&self) -> Vec<String>;
    /// Whether the family initialises residual projections without depth scaling.
    fn unscaled_residual_init(&self) -> bool;
    /// The KV cache's structure where it differs from a uniform full-attention stack over
    /// `dims()` (sliding windows, latent attention, cross-attention); None: uniform.
    fn kv_layout(&self) -> Option<kv::KvLayout> {
        None
    }
    /// Where `Dims::context` comes from, in words, for the page's sequence-length note.
    fn context_source(&self) -> String {
        "the model's context".into()
    }
    /// Each config field the class looks up in transformers' `ACT2FN` when it builds its layers,
    /// with the name it looks up; empty for a class with a fixed activation (BLOOM).
    fn activations(&self) -> Vec<(&'static str, String)> {
        vec![]
    }
    /// What the training estimate does not model for this architecture, in words for the page
    /// (a state-space scan's saved tensors, a vision tower's activations).
    fn training_notes(&self) -> Vec<String> {
        vec![]
    }
    /// A vision-language model's parts (tower, projector, language model) and image tokens.
    fn vision(&self) -> Option<composite::VisionPart> {
        None
    }
    /// The multi-token-prediction layers a published checkpoint stores beside the class's
    /// weights, which no class loads (DeepSeek-V3.2, GLM-5, Qwen3-Next); None: none.
    fn prediction_layers(&self) -> Option<Graph> {
        None
    }
    /// Modules (by the end of their name) an FP8 checkpoint keeps in full precision whatever its
    /// `modules_to_not_convert` says: the class's `_keep_in_fp32_modules`, a router stored as a
    /// bare parameter, the head transformers never converts.
    fn fp8_unconverted(&self) -> Vec<&'static str> {
        vec![]
    }
    /// The count under transformers 4.x where it differs from the 5.x count the plan follows.
    fn other_release(&self) -> Option<release::ReleaseNote> {
        None
    }
}

/// What a section is for; estimates use it (the baseline memory method sizes embeddings and
/// layers only, LoRA adapts linears in layers only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Embeddings,
    Layers,
    Pooler,
    Head,
    /// A vision-language model's vision tower and projector: run once per image, not per token.
    Vision,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Input,
    Embedding,
    LayerNorm,
    Linear,
    Attention,
    Activation,
    Add,
    /// A 1-D convolution (Whisper's audio front end).
    Conv1d,
    /// A selective state-space scan (Mamba's mixer core).
    Scan,
}

impl Op {
    pub fn label(self) -> &'static str {
        match self {
            Op::Input => "Input",
            Op::Embedding => "Embedding",
            Op::LayerNorm => "LayerNorm",
            Op::Linear => "Linear",
            Op::Attention => "Attention",
            Op::Activation => "Activation",
            Op::Add => "Add",
            Op::Conv1d => "Conv1d",
            Op::Scan => "Scan",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Tensor {
    /// The checkpoint's name for it, with `{i}` standing for the layer index in a repeated section.
    pub name: String,
    pub shape: Vec<u64>,
    /// Set when this tensor is the same storage as another (a tied LM head): it is listed where
    /// the class has it, and counted once, at the tensor it is tied to.
    pub tied_to: Option<String>,
}

impl Tensor {
    pub fn new(name: impl Into<String>, shape: &[u64]) -> Self {
        Tensor { name: name.into(), shape: shape.to_vec(), tied_to: None }
    }

    pub fn numel(&self) -> u64 {
        self.shape.iter().product()
    }
}

#[derive(Debug, Clone)]
pub struct Node {
    pub name: String,
    pub op: Op,
    /// What the node computes, in words (`q, k, v: 12 heads x 64`, `GELU`).
    pub detail: String,
    /// Output shape for one sequence (the batch dimension left out).
    pub output: Vec<u64>,
    pub params: Vec<Tensor>,
    /// Identical copies of this node (MoE experts, named with `{e}`), and how many of them one
    /// token uses.
    pub copies: u64,
    pub active_copies: u64,
}

impl Node {
    pub fn new(name: impl Into<String>, op: Op, detail: impl Into<String>, output: &[u64]) -> Self {
        Node {
            name: name.into(),
            op,
            detail: detail.into(),
            output: output.to_vec(),
            params: vec![],
            copies: 1,
            active_copies: 1,
        }
    }

    /// `copies` experts named with `{e}`, of which each token uses `active`.
    pub fn experts(mut self, copies: u64, active: u64) -> Self {
        self.copies = copies;
        self.active_copies = active;
        self
    }

    pub fn with(mut self, tensors: impl IntoIterator<Item = Tensor>) -> Self {
        self.params.extend(tensors);
        self
    }

    fn own_params(&self) -> u64 {
        self.params.iter().filter(|t| t.tied_to.is_none()).map(Tensor::numel).sum()
    }

    /// Scalars this node owns, all copies (tied tensors are counted where they are tied to).
    pub fn param_count(&self) -> u64 {
        self.copies * self.own_params()
    }

    /// Scalars one token's forward pass uses.
    pub fn active_param_count(&self) -> u64 {
        self.active_copies * self.own_params()
    }
}

/// Serialised with its parameter count, so that readers of the JSON need not multiply shapes.
impl Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Node", 8)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("op", &self.op)?;
        st.serialize_field("detail", &self.detail)?;
        st.serialize_field("output", &self.output)?;
        st.serialize_field("params", &self.params)?;
        st.serialize_field("copies", &self.copies)?;
        st.serialize_field("active_copies", &self.active_copies)?;
        st.serialize_field("param_count", &self.param_count())?;
        st.end()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Section {
    /// `roberta.encoder.layer.{i}` for a repeated block, a plain prefix otherwise.
    pub name: String,
    pub role: Role,
    pub repeat: u64,
    pub nodes: Vec<Node>,
}

impl Section {
    pub fn param_count(&self) -> u64 {
        self.repeat * self.nodes.iter().map(Node::param_count).sum::<u64>()
    }

    pub fn active_param_count(&self) -> u64 {
        self.repeat * self.nodes.iter().map(Node::active_param_count).sum::<u64>()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Graph {
    /// The sequence length the shapes are given at.
    pub seq_len: u64,
    pub sections: Vec<Section>,
}

impl Graph {
    pub fn param_count(&self) -> u64 {
        self.sections.iter().map(Section::param_count).sum()
    }

    /// Parameters one token's forward pass touches (all of them, for a dense model).
    pub fn active_param_count(&self) -> u64 {
        self.sections.iter().map(Section::active_param_count).sum()
    }

    pub fn param_count_where(&self, keep: impl Fn(Role) -> bool) -> u64 {
        self.sections.iter().filter(|s| keep(s.role)).map(Section::param_count).sum()
    }

    /// The parameter count in floating point, and the node holding the most: sizes whose integer
    /// product would overflow are measured here before anything is counted exactly.
    pub fn approx_scalars(&self) -> (f64, &str) {
        let mut total = 0.0;
        let mut largest = (0.0, "");
        for s in &self.sections {
            for n in &s.nodes {
                let each: f64 =
                    n.params.iter().map(|t| t.shape.iter().map(|&x| x as f64).product::<f64>()).sum();
                let part = s.repeat as f64 * n.copies as f64 * each;
                total += part;
                if part > largest.0 {
                    largest = (part, n.name.as_str());
                }
            }
        }
        (total, largest.1)
    }

    /// Nodes counted with their repeats.
    pub fn node_count(&self) -> u64 {
        self.sections.iter().map(|s| s.repeat * s.nodes.len() as u64).sum()
    }

    /// Every parameter tensor with its layer and expert indices filled in.
    pub fn tensors(&self) -> impl Iterator<Item = (String, &Tensor)> + '_ {
        self.tensors_where(|_| true)
    }

    /// The tensors tied to another, named. A model with thousands of experts has hundreds of
    /// thousands of tensors and a handful of ties: only the kept ones are named.
    pub fn tied_tensors(&self) -> impl Iterator<Item = (String, &Tensor)> + '_ {
        self.tensors_where(|t| t.tied_to.is_some())
    }

    fn tensors_where(
        &self,
        keep: impl Fn(&Tensor) -> bool + Copy + 'static,
    ) -> impl Iterator<Item = (String, &Tensor)> + '_ {
        // Only the nodes (and sections) with a kept tensor are walked through their layers and
        // experts: the few tied tensors of a mixture of experts are not looked for in every copy
        // of every expert.
        let kept = move |n: &Node| n.params.iter().any(keep);
        self.sections.iter().filter(move |s| s.nodes.iter().any(kept)).flat_map(move |s| {
            (0..s.repeat).flat_map(move |i| {
                s.nodes.iter().filter(move |n| kept(n)).flat_map(move |n| {
                    (0..n.copies).flat_map(move |e| {
                        n.params.iter().filter(move |t| keep(t)).map(move |t| (expand(&t.name, i, e), t))
                    })
                })
            })
        })
    }

    /// The shape of the tensor with this (expanded) name, without naming every other tensor.
    pub fn shape_of(&self, name: &str) -> Option<&[u64]> {
        for s in &self.sections {
            for n in &s.nodes {
                for t in &n.params {
                    let literal = t.name.split('{').next().unwrap_or("");
                    if !name.starts_with(literal) {
                        continue;
                    }
                    if !t.name.contains('{') {
                        if t.name == name {
                            return Some(&t.shape);
                        }
                        continue;
                    }
                    for i in 0..s.repeat {
                        for e in 0..n.copies {
                            if expand(&t.name, i, e) == name {
                                return Some(&t.shape);
                            }
                        }
                    }
                }
            }
        }
        None
    }
}

/// A tensor name template with its layer (`{i}`) and expert (`{e}`) indices filled in.
pub(crate) fn expand(template: &str, i: u64, e: u64) -> String {
    let mut out = String::with_capacity(template.len() + 8);
    expand_into(&mut out, template, i, e);
    out
}

/// [`expand`], appended to `out`: one pass and no allocation of its own. A model with hundreds of
/// experts names hundreds of thousands of tensors this way (the FP8 block scales of DeepSeek-V3
/// took a sixth of a build's time through two `str::replace` and two `to_string` per name).
pub(crate) fn expand_into(out: &mut String, template: &str, i: u64, e: u64) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        if let Some(tail) = after.strip_prefix("{i}") {
            push_decimal(out, i);
            rest = tail;
        } else if let Some(tail) = after.strip_prefix("{e}") {
            push_decimal(out, e);
            rest = tail;
        } else {
            out.push('{');
            rest = &after[1..];
        }
    }
    out.push_str(rest);
}

/// `n` in decimal, appended without the formatting machinery (`write!` was a third of naming a
/// tensor).
pub(crate) fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits only: always UTF-8, copied in one go.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// A name template split once at its `{i}` and `{e}` slots: naming a tensor per layer and expert
/// from it copies the literal parts and writes the numbers, with no search of the template per
/// name (an FP8 mixture of experts names tens of thousands of block scales this way).
pub(crate) struct NameTemplate<'a> {
    parts: Vec<NamePart<'a>>,
    literal_len: usize,
}

enum NamePart<'a> {
    Literal(&'a str),
    Layer,
    Expert,
}

impl<'a> NameTemplate<'a> {
    /// Splits as [`expand_into`] reads: `{i}` and `{e}` are slots, any other `{` is literal.
    pub(crate) fn new(template: &'a str) -> Self {
        let mut parts = vec![];
        let mut rest = template;
        let mut literal_start = 0;
        let mut pos = 0;
        while let Some(at) = rest.find('{') {
            let after = &rest[at..];
            let slot = if after.starts_with("{i}") {
                Some(NamePart::Layer)
            } else if after.starts_with("{e}") {
                Some(NamePart::Expert)
            } else {
                None
            };
            match slot {
                Some(slot) => {
                    if literal_start < pos + at {
                        parts.push(NamePart::Literal(&template[literal_start..pos + at]));
                    }
                    parts.push(slot);
                    pos += at + 3;
                    literal_start = pos;
                    rest = &after[3..];
                }
                None => {
                    pos += at + 1;
                    rest = &after[1..];
                }
            }
        }
        if literal_start < template.len() {
            parts.push(NamePart::Literal(&template[literal_start..]));
        }
        let literal_len = parts.iter().map(|p| if let NamePart::Literal(s) = p { s.len() } else { 0 }).sum();
        NameTemplate { parts, literal_len }
    }

    /// The name for layer `i`, expert `e`: the same string as [`expand`].
    pub(crate) fn expand(&self, i: u64, e: u64) -> String {
        let mut out = String::with_capacity(self.literal_len + 8);
        for p in &self.parts {
            match p {
                NamePart::Literal(s) => out.push_str(s),
                NamePart::Layer => push_decimal(&mut out, i),
                NamePart::Expert => push_decimal(&mut out, e),
            }
        }
        out
    }
}

pub(crate) use blocks::embedding;

/// A tensor that is tied to `to` only when `tie` holds; an own parameter otherwise.
pub(crate) fn tied_if(tie: bool, name: impl Into<String>, shape: &[u64], to: impl Into<String>) -> Tensor {
    let mut t = Tensor::new(name, shape);
    if tie {
        t.tied_to = Some(to.into());
    }
    t
}

/// Shorthand for candidate tensor lists.
pub(crate) fn shapes<const N: usize>(items: [(String, &[u64]); N]) -> Vec<(String, Vec<u64>)> {
    items.into_iter().map(|(n, s)| (n, s.to_vec())).collect()
}

#[cfg(test)]
mod expand_tests {
    use super::expand;

    #[test]
    fn expanding_a_name_fills_every_layer_and_expert_index_and_leaves_other_braces_alone() {
        assert_eq!(
            expand("model.layers.{i}.mlp.experts.{e}.w1.weight", 60, 255),
            "model.layers.60.mlp.experts.255.w1.weight"
        );
        assert_eq!(expand("h.{i}.attn.{i}.x", 3, 0), "h.3.attn.3.x");
        assert_eq!(expand("lm_head.weight", 7, 7), "lm_head.weight");
        assert_eq!(expand("a.{x}.{i", 1, 2), "a.{x}.{i");
        assert_eq!(expand("{{i}}{e}{", 10, 0), "{10}0{");
        assert_eq!(expand("", 1, 1), "");
    }
}

#[cfg(test)]
mod name_template_tests {
    use super::{NameTemplate, expand};

    #[test]
    fn a_split_template_names_every_tensor_as_the_one_pass_expansion_does() {
        // Written out by hand: `{i}` and `{e}` are slots, any other brace is kept as it is.
        let cases = [
            (
                "model.layers.{i}.mlp.experts.{e}.down_proj.weight_scale_inv",
                60,
                255,
                "model.layers.60.mlp.experts.255.down_proj.weight_scale_inv",
            ),
            ("{i}{e}", 0, 7, "07"),
            ("lm_head.weight", 3, 4, "lm_head.weight"),
            ("a{x}.{{i}}.{e", 12, 0, "a{x}.{12}.{e"),
            ("h.{i}", u64::MAX, 0, "h.18446744073709551615"),
        ];
        for (template, i, e, want) in cases {
            assert_eq!(NameTemplate::new(template).expand(i, e), want, "{template}");
            assert_eq!(expand(template, i, e), want, "{template}");
        }
    }
}
