//! Gemma 3n's language model graph, named as transformers' `Gemma3nTextModel` (under `model.` in
//! `Gemma3nForCausalLM`): `embed_tokens`, the per-layer embeddings (`embed_tokens_per_layer`,
//! `per_layer_model_projection`, `per_layer_projection_norm`), AltUp's `altup_projections`, per
//! layer Gemma 4's attention (no key/value projections on the shared layers) between four norms,
//! the gated `mlp`, `altup` (`correct_output_scale`, `correction_coefs`, `prediction_coefs`,
//! `modality_router`, `router_norm`), `laurel` (`linear_left`, `linear_right`,
//! `post_laurel_norm`) and the per-layer input's gate, projection and norm; then
//! `altup_unembed_projections`, `norm` and the tied `lm_head`.

use super::blocks::{gated_mlp, linear, token_embeddings};
use super::doge_dory::{Tail, norm_and_head};
use super::gemma4::{attention, kv_layout, layer_sections, norm, per_layer_embeddings, per_layer_input};
use super::kv::KvLayout;
use super::{Candidate, Graph, Node, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::gemma3n::Gemma3nConfig;
use crate::config::gemma4::G4Layer;

architecture!(
    Gemma3nConfig,
    |c| activations: vec![("hidden_activation", c.hidden_activation.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(&self.layers, self.sliding_window))
    }
);

fn no_candidates(_: &Gemma3nConfig) -> Vec<Candidate> {
    vec![]
}

fn layer(c: &Gemma3nConfig, l: &str, g: &G4Layer, seq: u64) -> Vec<Node> {
    let (h, n, p, rank) = (c.hidden_size, c.altup_num_inputs, c.hidden_size_per_layer_input, c.laurel_rank);
    let a = format!("{l}.altup");
    let mut nodes = vec![
        linear(&format!("{a}.modality_router"), "AltUp router over the inputs", seq, h, n, false),
        norm(&format!("{a}.router_norm"), "before the AltUp router", seq, h),
        linear(&format!("{a}.prediction_coefs"), "AltUp prediction coefficients", seq, n, n * n, false),
        norm(&format!("{l}.input_layernorm"), "before attention", seq, h),
    ];
    let lr = format!("{l}.laurel");
    nodes.push(linear(&format!("{lr}.linear_left"), "LAuReL low-rank residual, down", seq, h, rank, false));
    nodes.push(linear(&format!("{lr}.linear_right"), "LAuReL low-rank residual, up", seq, rank, h, false));
    nodes.push(norm(&format!("{lr}.post_laurel_norm"), "after LAuReL", seq, h));
    nodes.extend(attention(&format!("{l}.self_attn"), g, c.num_heads, h, c.attention_bias, seq));
    nodes.push(norm(&format!("{l}.post_attention_layernorm"), "after attention", seq, h));
    nodes.push(norm(&format!("{l}.pre_feedforward_layernorm"), "before the MLP", seq, h));
    nodes.extend(gated_mlp(&format!("{l}.mlp"), seq, h, g.ffn, &c.hidden_activation, false, false));
    nodes.push(norm(&format!("{l}.post_feedforward_layernorm"), "after the MLP", seq, h));
    nodes.push(
        linear(&format!("{a}.correction_coefs"), "AltUp correction coefficients", seq, n, n, false)
            .with([Tensor::new(format!("{a}.correct_output_scale"), &[h])]),
    );
    nodes.extend(per_layer_input(l, seq, h, p));
    nodes
}

/// AltUp's projections of the hidden state to and from its other inputs, one per extra input.
fn altup_projections(name: &str, what: &str, seq: u64, h: u64, n: u64) -> Node {
    let mut node = linear(&format!("{name}.{{e}}"), what, seq, h, h, false);
    node.copies = n.saturating_sub(1);
    node.active_copies = node.copies;
    node
}

pub fn build(c: &Gemma3nConfig, seq: u64) -> Graph {
    let p = if c.head == DecoderHead::Model { "" } else { "model." };
    let (h, n) = (c.hidden_size, c.altup_num_inputs);
    let mut sections = vec![token_embeddings(&format!("{p}embed_tokens"), seq, c.vocab_size, h)];
    let altup = altup_projections(
        &format!("{p}altup_projections"),
        "AltUp: the hidden state to another input",
        seq,
        h,
        n,
    );
    let per_layer = (c.vocab_size_per_layer_input, c.hidden_size_per_layer_input);
    sections.push(per_layer_embeddings(p, seq, h, c.layers.len() as u64, per_layer, vec![altup]));
    sections.extend(layer_sections(&c.layers, p, |l, g| layer(c, l, g, seq)));
    let t = Tail {
        head: c.head,
        vocab: c.vocab_size,
        hidden: h,
        tie: c.tie_word_embeddings,
        lm_note: ", soft-capped",
    };
    let unembed =
        altup_projections(&format!("{p}altup_unembed_projections"), "AltUp: another input back", seq, h, n);
    sections.extend(norm_and_head(&t, p, seq, vec![unembed, norm(&format!("{p}norm"), "final", seq, h)]));
    Graph { seq_len: seq, sections }
}
