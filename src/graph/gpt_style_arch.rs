//! What a described GPT-style type answers beyond its graph (`graph/gpt_style.rs`): its sizes,
//! the checkpoint candidates its description names, and its KV cache.

use super::gpt_style::build;
use super::kv::{KvGroup, KvLayout};
use super::{Architecture, Candidate, Graph};
use crate::config::decoder::DecoderHead;
use crate::config::spec::HeadKind;
use crate::config::spec_gpt::{Act, Buffers, GptConfig};
use crate::config::{Defaulted, Dims};

impl Architecture for GptConfig {
    fn activations(&self) -> Vec<(&'static str, String)> {
        match self.desc.sizes.act {
            Act::Key(key) => vec![(key, self.activation.clone())],
            // Fixed by the modeling code: nothing in the file to check.
            Act::Fixed(_) => vec![],
        }
    }
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> Dims {
        Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.norm_eps,
            ..crate::config::mha_dims!(self)
        }
    }
    fn defaulted(&self) -> &[Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        let d = self.desc;
        let mut out = match d.buffers {
            Buffers::NeoxMaskAndInvFreq => neox_buffers(self),
            Buffers::None | Buffers::DroppedLmHead => vec![],
        };
        let lm = vec![(format!("{}.weight", d.lm), vec![self.vocab_size, self.embed_width])];
        if self.head == DecoderHead::CausalLm && self.tie_word_embeddings {
            out.push(Candidate::extra(
                &format!("tied {} stored twice", d.lm),
                lm.clone(),
                &format!(
                    "{} is tied to {}{}{}, but the checkpoint stores the matrix a second time",
                    d.lm, d.base, d.inner, d.embed
                ),
            ));
        }
        if d.buffers == Buffers::DroppedLmHead && self.head != DecoderHead::CausalLm {
            let causal =
                d.keys.classes.iter().find(|(_, k)| *k == HeadKind::CausalLm).map_or("", |(c, _)| *c);
            let why = format!("the language-model head of the {causal} checkpoint, which this class drops");
            out.push(Candidate::extra("LM head", lm, &why));
        }
        out
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec![self.desc.base.to_string()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        // Without cross-attention every layer caches its keys and values whole, which the uniform
        // layout says: GPT-Neo's local layers mask the window, its cache keeps the tokens past it.
        if !self.cross_attention {
            return None;
        }
        let h = self.hidden_size;
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * h,
                window: None,
                what: format!("full attention: 2 x {} heads x {}", self.num_heads, self.head_dim()),
            }],
            cross: Some(KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * h,
                window: None,
                what: "cross-attention: the encoder's keys and values".into(),
            }),
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn unscaled_residual_init(&self) -> bool {
        true
    }
}

/// Checkpoints converted with transformers before 4.31 (the Pythia suite among them) store each
/// attention layer's buffers with the weights.
fn neox_buffers(c: &GptConfig) -> Vec<Candidate> {
    let n = c.max_position_embeddings;
    let layers = 0..c.num_layers;
    let (base, attn) = (c.desc.base, c.desc.attn);
    vec![
        Candidate::extra(
            "causal-mask buffers",
            layers
                .clone()
                .map(|i| (format!("{base}{}.{i}.{attn}.bias", c.desc.layers), vec![1, 1, n, n]))
                .collect(),
            "each attention layer's lower-triangular mask buffer [1, 1, max_positions, max_positions], not a parameter; saved by transformers before 4.31 (with the scalar `attention.masked_bias`, which has no dimension and is not counted)",
        ),
        Candidate::extra(
            "rotary inv_freq buffers",
            layers
                .map(|i| {
                    let name = format!("{base}{}.{i}.{attn}.rotary_emb.inv_freq", c.desc.layers);
                    (name, vec![c.rotary_ndims.unwrap_or(0).div_ceil(2)])
                })
                .collect(),
            "each attention layer's rotary frequencies (one per pair of rotated dimensions), a buffer, not a parameter; saved by transformers before 4.31",
        ),
    ]
}
