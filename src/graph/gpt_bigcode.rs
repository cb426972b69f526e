//! The GPT-BigCode graph, named as transformers' `GPTBigCodeModel` (`wte`, `wpe`,
//! `h.{i}.attn.c_attn`, `ln_f`) under `transformer.` in head classes; `nn.Linear` weights
//! `[out, in]`, and `c_attn` fuses the queries with one shared key and value head under
//! `multi_query`.

use super::blocks::{ln_f_and_head, wte_wpe_section};
use super::common::{gpt_cross_attention, tied_lm_head_stored_twice};
use super::decoder::{base_prefix, layer_norm, linear};
use super::kv::{KvGroup, KvLayout};
use super::{Architecture, Candidate, Graph, Node, Op, Role, Section};
use crate::config::gpt_bigcode::GptBigCodeConfig;
use crate::config::{Defaulted, Dims};

impl Architecture for GptBigCodeConfig {
    fn activations(&self) -> Vec<(&'static str, String)> {
        vec![("activation_function", self.activation.clone())]
    }
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> Dims {
        Dims {
            hidden_size: self.n_embd,
            num_layers: self.n_layer,
            num_heads: self.n_head,
            num_kv_heads: self.kv_heads,
            head_dim: self.head_dim(),
            intermediate_size: self.inner,
            vocab_size: self.vocab_size,
            context: self.n_positions,
            usable_context: self.n_positions,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            num_experts: None,
            experts_per_token: None,
        }
    }
    fn defaulted(&self) -> &[Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        let tied = "lm_head is tied to transformer.wte";
        tied_lm_head_stored_twice(self.head, self.tie_word_embeddings, self.vocab_size, self.n_embd, tied)
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec!["transformer.".into()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let (kv, hd) = (self.kv_heads, self.head_dim());
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.n_layer,
                values_per_token: 2 * kv * hd,
                window: None,
                what: format!("full attention: 2 x {kv} KV heads x {hd} head_dim"),
            }],
            // The encoder's keys and values, per decoder layer, when the blocks cross-attend.
            cross: self.add_cross_attention.then(|| KvGroup {
                layers: self.n_layer,
                values_per_token: 2 * self.n_embd,
                window: None,
                what: "cross-attention: the encoder's keys and values".into(),
            }),
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn unscaled_residual_init(&self) -> bool {
        // GPTBigCodePreTrainedModel scales c_proj's init by 1/sqrt(2 x n_layer), as GPT-2 does.
        false
    }
}

pub fn build(c: &GptBigCodeConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "transformer.");
    let e = c.n_embd;
    let wte = format!("{p}wte.weight");
    let mut sections = vec![wte_wpe_section(p, c.vocab_size, c.n_positions, e, seq)];
    let l = format!("{p}h.{{i}}");
    let (hd, kv) = (c.head_dim(), c.kv_heads);
    let mut nodes = vec![
        layer_norm(&format!("{l}.ln_1"), "pre-attention norm", seq, e, true),
        linear(
            &format!("{l}.attn.c_attn"),
            &format!("fused q and {kv} shared k, v heads"),
            seq,
            e,
            e + 2 * kv * hd,
            true,
        ),
        Node::new(
            format!("{l}.attn"),
            Op::Attention,
            format!("{} query heads x {hd} over {kv} key/value heads, causal, learned positions", c.n_head),
            &[seq, e],
        ),
        linear(&format!("{l}.attn.c_proj"), "attention output projection", seq, e, e, true),
    ];
    if c.add_cross_attention {
        nodes.extend(gpt_cross_attention(&l, seq, e, |n, d, i, o| linear(n, d, seq, i, o, true)));
    }
    nodes.extend([
        layer_norm(&format!("{l}.ln_2"), "pre-MLP norm", seq, e, true),
        linear(
            &format!("{l}.mlp.c_fc"),
            &format!("up projection, then {}", c.activation),
            seq,
            e,
            c.inner,
            true,
        ),
        linear(&format!("{l}.mlp.c_proj"), "down projection", seq, c.inner, e, true),
    ]);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.n_layer, nodes });
    let tied = c.tie_word_embeddings.then_some(wte.as_str());
    sections.extend(ln_f_and_head(p, c.head, tied, seq, e, c.vocab_size));
    Graph { seq_len: seq, sections }
}
