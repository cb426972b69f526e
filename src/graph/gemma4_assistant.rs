//! The graph of Gemma 4's assistant models, named as transformers'
//! `Gemma4AssistantForCausalLM`: the language model under `model.` (every layer reading the main
//! model's keys and values), `pre_projection` (from twice the main model's width), `lm_head`
//! (tied to the embeddings unless the config unties it), `post_projection` (back to the main
//! model's width) and, with ordered embeddings, `masked_embedding.centroids`.

use super::blocks::linear;
use super::kv::KvLayout;
use super::{Candidate, Graph, Role, Section, tied_if};
use crate::config::gemma4_assistant::Gemma4AssistantConfig;

architecture!(
    Gemma4AssistantConfig,
    |c| activations: vec![("text_config.hidden_activation", c.text.hidden_activation.clone())],
    prefixes: ["model."],
    candidates: candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(super::gemma4::kv_layout(&self.text.layers, self.text.sliding_window))
    }
    fn context_source(&self) -> String {
        "the language model's max_position_embeddings; every layer reads the main model's keys and values, so the assistant caches none of its own".into()
    }
);

fn candidates(c: &Gemma4AssistantConfig) -> Vec<Candidate> {
    let mut out = vec![super::gemma4::layer_scalars("model.", c.text.layers.len())];
    if c.centroids.is_some() {
        out.push(Candidate::extra(
            "token ordering of the centroid embedder",
            vec![("masked_embedding.token_ordering".into(), vec![c.text.vocab_size])],
            "the masked embedder registers token_ordering (the vocabulary sorted by centroid) as a persistent buffer: saved with the weights, not a parameter",
        ));
    }
    out
}

pub fn build(c: &Gemma4AssistantConfig, seq: u64) -> Graph {
    let mut g = super::gemma4::build(&c.text, seq);
    let (h, v, bb) = (c.text.hidden_size, c.text.vocab_size, c.backbone_hidden_size);
    let mut nodes =
        vec![linear("pre_projection", "main model's state and embedding to hidden", seq, 2 * bb, h, false)];
    let mut head = linear("lm_head", "logits over the vocabulary", seq, h, v, false);
    head.params[0] = tied_if(c.tie_word_embeddings, "lm_head.weight", &[v, h], "model.embed_tokens.weight");
    nodes.push(head);
    nodes.push(linear("post_projection", "hidden back to the main model's width", seq, h, bb, false));
    if let Some(n) = c.centroids {
        nodes.push(linear(
            "masked_embedding.centroids",
            "centroid logits choosing the tokens scored",
            seq,
            h,
            n,
            false,
        ));
    }
    g.sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes });
    g
}
