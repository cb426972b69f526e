//! The Byte Latent Transformer's graph, named as transformers' `BltForCausalLM` (`model.` before
//! each part; the bare `BltModel` drops it): `local_encoder.embed_tokens` and
//! `encoder_hash_tok_embedding`, the frozen `patcher`, `local_encoder.layers` with its
//! `patch_embedding_projection` and `cross_attn_layers`, `global_transformer` (with
//! `token_embedding_projection` when the widths differ), `local_decoder` (projection,
//! cross-attention, layers, `norm`), then `lm_head`.

use super::blocks::{Gqa, embedding, gated_mlp, gqa, linear, rms_norm};
use super::common::{alone, kv_what, lm_head, no_candidates};
use super::kv::{KvGroup, KvLayout};
use super::{Graph, Node, Role, Section};
use crate::config::QkNorm;
use crate::config::blt::{BltConfig, BltStack};

architecture!(
    BltConfig,
    |c| activations: {
        let mut v = vec![
            ("encoder_config.hidden_act", c.encoder.hidden_act.clone()),
            ("global_config.hidden_act", c.global.hidden_act.clone()),
            ("decoder_config.hidden_act", c.decoder.hidden_act.clone()),
        ];
        if c.patcher.is_some() {
            v.push(("patcher_config.hidden_act", "silu".into()));
        }
        v
    },
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        let group = |s: &BltStack, part: &str| KvGroup {
            layers: s.num_layers,
            values_per_token: 2 * s.num_kv_heads * s.head_dim(),
            window: None,
            what: format!("{part} self-attention per byte: {}", kv_what(s.num_kv_heads, s.num_kv_heads * s.head_dim())),
        };
        Some(KvLayout {
            groups: vec![group(&self.encoder, "local encoder"), group(&self.decoder, "local decoder")],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn context_source(&self) -> String {
        "the local encoder's byte positions (encoder_config.max_position_embeddings)".into()
    }
    fn training_notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "Assumed: the sequence is in bytes, and the global transformer's {} layers run over one patch per {} bytes (patch_size; entropy patching varies it per text). Serving: transformers caches the local encoder's and decoder's self-attention per byte (counted here in full, though their attention is masked to local_attention_window_len) and re-runs the global transformer and the cross-attentions over the patches at each step, keeping no cache for them.",
            self.global.num_layers, self.patch_size
        )];
        if self.patcher.is_some() {
            notes.push("The patcher (entropy model) is frozen in transformers (requires_grad False, eval mode); the training figures count it as trainable, so they err large by its gradients and optimizer states.".into());
        }
        notes
    }
);

/// A Llama-style layer of `s` under `l`: RMSNorm, attention without biases, RMSNorm, SwiGLU.
fn layer(s: &BltStack, l: &str, rows: u64) -> Vec<Node> {
    let h = s.hidden_size;
    let mut nodes = vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm", &[rows, h], h)];
    nodes.extend(gqa(&Gqa {
        a: &format!("{l}.self_attn"),
        seq: rows,
        hidden: h,
        heads: s.num_heads,
        kv_heads: s.num_kv_heads,
        head_dim: s.head_dim(),
        qkv_bias: false,
        o_bias: false,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: "causal, rotary".into(),
    }));
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm", &[rows, h], h));
    nodes.extend(gated_mlp(&format!("{l}.mlp"), rows, h, s.intermediate_size, &s.hidden_act, false, false));
    nodes
}

fn layers(s: &BltStack, part: &str, rows: u64) -> Section {
    let l = format!("{part}.layers.{{i}}");
    let nodes = layer(s, &l, rows);
    Section { name: l, role: Role::Layers, repeat: s.num_layers, nodes }
}

/// The local stacks' cross-attention between bytes and patches: RMSNorm on the queries and on
/// the keys' source, then attention without biases at the stack's width.
fn cross_attention(s: &BltStack, part: &str, rows: u64, what: &str) -> Section {
    let (h, hd) = (s.hidden_size, s.head_dim());
    let a = format!("{part}.cross_attn_layers.{{i}}");
    let mut nodes = vec![rms_norm(&format!("{a}.q_norm"), "RMSNorm on the queries' source", &[rows, h], h)];
    let mut attention = gqa(&Gqa {
        a: &a,
        seq: rows,
        hidden: h,
        heads: s.num_heads,
        kv_heads: s.num_kv_heads,
        head_dim: hd,
        qkv_bias: false,
        o_bias: false,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: what.into(),
    });
    attention.insert(1, rms_norm(&format!("{a}.k_norm"), "RMSNorm on the keys' source", &[rows, h], h));
    nodes.extend(attention);
    let repeat = if s.cross_attn_all_layers { s.num_layers } else { 1 };
    Section { name: a, role: Role::Layers, repeat, nodes }
}

pub fn build(c: &BltConfig, seq: u64) -> Graph {
    let p = if c.causal_lm { "model." } else { "" };
    let (e, g, d) = (&c.encoder, &c.global, &c.decoder);
    let patches = seq.div_ceil(c.patch_size);
    let enc = format!("{p}local_encoder");
    let tokens = format!("{enc}.embed_tokens.weight");
    let mut sections = vec![Section {
        name: format!("{p}embeddings"),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new("input_ids", super::Op::Input, "byte ids", &[seq]),
            embedding(
                &format!("{enc}.embed_tokens"),
                format!("{} bytes", e.vocab_size),
                seq,
                e.vocab_size,
                e.hidden_size,
            ),
            embedding(
                &format!("{p}encoder_hash_tok_embedding"),
                format!("{} hash tables of byte n-grams, summed", c.hash_tables),
                seq,
                c.hash_rows,
                e.hidden_size,
            ),
        ],
    }];
    if let Some(pt) = &c.patcher {
        let pp = format!("{p}patcher");
        sections.push(Section {
            name: pp.clone(),
            role: Role::Embeddings,
            repeat: 1,
            nodes: vec![embedding(
                &format!("{pp}.embed_tokens"),
                "the entropy model's bytes",
                seq,
                pt.vocab_size,
                pt.hidden_size,
            )],
        });
        sections.push(layers(pt, &pp, seq));
        let norm = rms_norm(&format!("{pp}.norm"), "RMSNorm", &[seq, pt.hidden_size], pt.hidden_size);
        let head = linear(
            &format!("{pp}.lm_head"),
            "next-byte entropy, for patch boundaries",
            seq,
            pt.hidden_size,
            pt.vocab_size,
            false,
        );
        sections.push(Section {
            name: format!("{pp}.head"),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![norm, head],
        });
    }
    sections.push(layers(e, &enc, seq));
    let (eh, k) = (e.hidden_size, e.cross_attn_k);
    sections.push(alone(
        linear(
            &format!("{enc}.patch_embedding_projection"),
            "bytes max-pooled per patch, widened",
            patches,
            eh,
            eh * k,
            false,
        ),
        Role::Layers,
    ));
    sections.push(cross_attention(e, &enc, patches * k, "patches attend to their bytes"));
    let gt = format!("{p}global_transformer");
    if let Some(width) = c.global_projection() {
        sections.push(alone(
            linear(
                &format!("{gt}.token_embedding_projection"),
                "patch states to the global width",
                patches,
                width,
                g.hidden_size,
                false,
            ),
            Role::Layers,
        ));
    }
    sections.push(layers(g, &gt, patches));
    let dec = format!("{p}local_decoder");
    let (dh, dk) = (d.hidden_size, d.cross_attn_k);
    sections.push(alone(
        linear(
            &format!("{dec}.patch_embedding_projection"),
            "global patch states to the decoder",
            patches,
            d.hidden_size_global,
            dh * dk,
            false,
        ),
        Role::Layers,
    ));
    sections.push(cross_attention(d, &dec, seq, "bytes attend to the patches"));
    sections.push(layers(d, &dec, seq));
    sections.push(alone(rms_norm(&format!("{dec}.norm"), "RMSNorm", &[seq, dh], dh), Role::Layers));
    if c.causal_lm {
        let head = lm_head(
            "lm_head",
            "logits over the bytes",
            [seq, dh, c.vocab_size],
            c.tie_word_embeddings,
            &tokens,
        );
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
