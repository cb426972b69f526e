//! Helper txb's types: each count written out by hand from transformers 5.24's modeling file, or
//! quoted from transformers (the comment says how it was obtained), never read back from the
//! program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

#[test]
fn gpt_sw3_is_read_as_gpt2_under_its_own_model_type() {
    // GPT2Config's defaults (transformers maps `gpt-sw3` onto it): vocab 50257, 1024 positions,
    // 768 wide, 12 layers, MLP 4 x 768; GPT2LMHeadModel ties its head to `wte`.
    let (v, p, h, l) = (50_257u64, 1024u64, 768u64, 12u64);
    let f = 4 * h;
    // Per block: ln_1 and ln_2 (2h each), c_attn (h x 3h + 3h), c_proj (h x h + h),
    // mlp.c_fc (h x f + f), mlp.c_proj (f x h + h).
    let block = 2 * (2 * h) + (h * 3 * h + 3 * h) + (h * h + h) + (h * f + f) + (f * h + h);
    let expected = v * h + p * h + l * block + 2 * h;
    assert_eq!(expected, 124_439_808); // GPT2LMHeadModel(GPT2Config()), transformers 5.24, meta device
    let config = json!({"model_type": "gpt-sw3", "architectures": ["GPT2LMHeadModel"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn molmo2_text_embeds_its_additional_rows_and_norms_whole_projections_under_olmo() {
    let (v, extra, h, heads, kv, hd, f, l) = (1000u64, 128u64, 64u64, 4u64, 1u64, 16u64, 160u64, 2u64);
    // Molmo2TextModel: embed_tokens over vocab + additional_vocab_size (128 by default).
    let embed = (v + extra) * h;
    // Molmo2Attention: q/k/v with the `attention_bias` bias, o_proj without; under `olmo` the
    // q_norm spans heads x head_dim and the k_norm kv heads x head_dim.
    let attn = (h * heads * hd + heads * hd) + 2 * (h * kv * hd + kv * hd) + heads * hd * h;
    let qk_norms = heads * hd + kv * hd;
    // Gated MLP without biases, input_layernorm and post_attention_layernorm (h each).
    let layer = attn + qk_norms + 3 * h * f + 2 * h;
    let expected = embed + l * layer + h;
    // Molmo2TextModel(Molmo2TextConfig(hidden_size=64, num_attention_heads=4,
    // num_key_value_heads=1, head_dim=16, intermediate_size=160, num_hidden_layers=2,
    // vocab_size=1000, qk_norm_type="olmo", attention_bias=True)) on the meta device,
    // transformers 5.24: 154,784 parameters.
    assert_eq!(expected, 154_784);
    let config = json!({"model_type": "molmo2_text", "architectures": ["Molmo2TextModel"],
        "hidden_size": h, "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": hd,
        "intermediate_size": f, "num_hidden_layers": l, "vocab_size": v, "qk_norm_type": "olmo",
        "qkv_bias": true});
    assert_eq!(derived(config), expected);
}

#[test]
fn neomme_counts_its_factorized_embedding_patch_stem_value_table_and_untied_decoder() {
    let (v, r, h, f, l) = (1000u64, 32u64, 64u64, 160u64, 3u64);
    let (heads, kv, hd, patch) = (4u64, 2u64, 16u64, 4u64);
    // NeoMMEEmbeddings: word_embeddings (v x r) and embedding_projection (r -> h, no bias).
    let embed = v * r + r * h;
    // NeoMMEPatchEmbeddings over a flattened patch of 3 x patch^2: LayerNorm (weight and bias),
    // up_proj (-> 2h, no bias), down_proj (2h -> h with a bias).
    let pd = 3 * patch * patch;
    let stem = 2 * pd + pd * 2 * h + (2 * h * h + h);
    // value_embeddings: v x (kv heads x head_dim).
    let values = v * kv * hd;
    // A layer: q, k, v without bias, exclusive_self_attention.alpha (one per head), the output
    // gate's gate_proj (h -> heads x hd) and o_proj, the ReLU² MLP's up and down, `lambdas` (2);
    // its norms hold no weight.
    let layer = h * heads * hd + 2 * h * kv * hd + heads + 2 * h * heads * hd + 2 * h * f + 2;
    // NeoMMEForMaskedLM untied: unembedding_projection (h x r) and lm_head (r -> v).
    let head = h * r + r * v;
    let expected = embed + stem + values + l * layer + head;
    // NeoMMEForMaskedLM(NeoMMEConfig(vocab_size=1000, embedding_rank=32, hidden_size=64,
    // intermediate_size=160, num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2,
    // head_dim=16, patch_size=4, tie_word_embeddings=False)) on the meta device, after
    // tie_weights(), transformers 5.24: 225,202 parameters.
    assert_eq!(expected, 225_202);
    let config = json!({"model_type": "neomme", "architectures": ["NeoMMEForMaskedLM"],
        "vocab_size": v, "embedding_rank": r, "hidden_size": h, "intermediate_size": f,
        "num_hidden_layers": l, "num_attention_heads": heads, "num_key_value_heads": kv,
        "head_dim": hd, "patch_size": patch, "tie_word_embeddings": false});
    assert_eq!(derived(config), expected);
    // Tied (the class's default), both decoder matrices are the embedding's own.
    let tied = json!({"model_type": "neomme", "architectures": ["NeoMMEForMaskedLM"],
        "vocab_size": v, "embedding_rank": r, "hidden_size": h, "intermediate_size": f,
        "num_hidden_layers": l, "num_attention_heads": heads, "num_key_value_heads": kv,
        "head_dim": hd, "patch_size": patch});
    assert_eq!(derived(tied), expected - head);
}

/// An Inkling attention block (modeling_inkling.py): q, k, v, r and o projections without bias
/// (`r_proj`: hidden to heads x d_rel), `k_sconv` and `v_sconv` (depthwise, `[kv x hd, 1, k]`),
/// q_norm and k_norm (head_dim each), `rel_logits_proj.proj` (d_rel x extent), and the layer's
/// `attn_sconv` (`[h, 1, k]`).
fn inkling_attention(h: u64, heads: u64, kv: u64, hd: u64, d_rel: u64, extent: u64, k: u64) -> u64 {
    let (q, kvw) = (heads * hd, kv * hd);
    h * q + 2 * h * kvw + h * heads * d_rel + q * h + 2 * kvw * k + 2 * hd + d_rel * extent + h * k
}

#[test]
fn inkling_text_counts_full_and_sliding_attention_convolutions_and_shared_experts() {
    let (v, h, k, d_rel) = (1000u64, 64u64, 3u64, 4u64);
    // Layers 0 and 2: full attention (4 heads over 2 x 16, extent rel_extent 48), dense MLP
    // (gate/up/down at 96 and its `global_scale`).
    let full = inkling_attention(h, 4, 2, 16, d_rel, 48, k) + 3 * h * 96 + 1;
    // Layer 1: sliding attention (2 heads over 1 x 24, extent the window 32), routed experts:
    // gate (5 routed + 2 shared rows, and `global_scale`), stacked gate_up [5, 80, h] and down
    // [5, h, 40], shared experts' gate, up and down [2, 40, h] each.
    let sparse = inkling_attention(h, 2, 1, 24, d_rel, 32, k)
        + ((5 + 2) * h + 1)
        + (5 * 2 * 40 * h + 5 * h * 40)
        + 3 * (2 * 40 * h);
    // Each layer's two RMSNorms and its `mlp_sconv`.
    let per_layer = 2 * h + h * k;
    let layers = 2 * (full + per_layer) + (sparse + per_layer);
    // embed_tokens and its embed_norm; the final norm; an lm_head never tied.
    let expected = (v * h + h) + layers + h + v * h;
    // InklingForCausalLM(InklingTextConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=3,
    // num_attention_heads=4, num_key_value_heads=2, head_dim=16, swa_num_attention_heads=2,
    // swa_num_key_value_heads=1, swa_head_dim=24, sliding_window_size=32, d_rel=4,
    // rel_extent=48, intermediate_size=96, moe_intermediate_size=40, n_routed_experts=5,
    // num_experts_per_tok=2, n_shared_experts=2, layer_types=["hybrid", "hybrid_sliding",
    // "hybrid"], mlp_layer_types=["dense", "sparse", "dense"], conv_kernel_size=3)) on the meta
    // device, transformers 5.24: 258,243 parameters.
    assert_eq!(expected, 258_243);
    let config = json!({"model_type": "inkling_text", "architectures": ["InklingForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 3, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "swa_num_attention_heads": 2,
        "swa_num_key_value_heads": 1, "swa_head_dim": 24, "sliding_window": 32, "d_rel": d_rel,
        "rel_extent": 48, "intermediate_size": 96, "moe_intermediate_size": 40,
        "num_local_experts": 5, "num_experts_per_tok": 2, "n_shared_experts": 2,
        "layer_types": ["hybrid", "hybrid_sliding", "hybrid"],
        "mlp_layer_types": ["dense", "sparse", "dense"], "sconv_kernel_size": k});
    assert_eq!(derived(config), expected);
}

/// An Inkling 2 attention block (modeling_inkling2.py) of `heads` over `kv` x `hd`: q_proj's
/// linear and its scale `[heads, hd]`; k_proj and v_proj each a linear and a short convolution,
/// dynamic on full layers (`static_weight` `[k, kv x hd]` and `weight_proj`, hidden to kv x k),
/// depthwise `[kv x hd, 1, k]` on sliding ones; relative_position_bias's linear (hidden to heads
/// x d_rel), scale `[heads, d_rel]` and bank `[d_rel, extent]`; sink_proj (hidden to heads); the
/// gated o_proj's gate_proj and linear.
fn inkling2_attention(
    h: u64,
    (heads, kv, hd): (u64, u64, u64),
    d_rel: u64,
    extent: u64,
    k: u64,
    full: bool,
) -> u64 {
    let (q, kvw) = (heads * hd, kv * hd);
    let conv = if full { k * kvw + h * kv * k } else { kvw * k };
    (h * q + heads * hd)
        + 2 * (h * kvw + conv)
        + (h * heads * d_rel + heads * d_rel + d_rel * extent)
        + h * heads
        + 2 * h * q
}

#[test]
fn inkling2_text_counts_dynamic_convolutions_attention_residuals_and_an_unpadded_head() {
    let (v, unpadded, h, k, d_rel, e, w) = (1000u64, 990u64, 64u64, 3u64, 4u64, 5u64, 40u64);
    // Every layer: post-attention and post-MLP convolutions (`[h, 1, k]`), `mlp_input.query`
    // (h), the router (experts x h) and the stacked experts (gate_up [e, 2w, h], down [e, h, w]).
    let common = 2 * h * k + h + e * h + (e * 2 * w * h + e * h * w);
    // Full layers (0 and 2): 4 heads over 2 x 16, extent rel_extent 48, q/k/v input norms and
    // the post-attention norm; layer 2's `attention_input` holds three queries [3, h].
    let full = inkling2_attention(h, (4, 2, 16), d_rel, 48, k, true) + 4 * h + common;
    // Layer 1, sliding: 2 heads over 1 x 24, extent the window 32, two norms, one query.
    let sliding = inkling2_attention(h, (2, 1, 24), d_rel, 32, k, false) + 2 * h + common + h;
    let layers = full + sliding + (full + 3 * h);
    // embed_tokens and embed_norm; the final norm and `final_input.query`; lm_head over the
    // unpadded vocabulary, never tied.
    let expected = (v * h + h) + layers + 2 * h + unpadded * h;
    // Inkling2ForCausalLM(Inkling2TextConfig(vocab_size=1000, unpadded_vocab_size=990,
    // hidden_size=64, num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2,
    // head_dim=16, swa_num_attention_heads=2, swa_num_key_value_heads=1, swa_head_dim=24,
    // sliding_window_size=32, d_rel=4, rel_extent=48, moe_intermediate_size=40,
    // n_routed_experts=5, num_experts_per_tok=2, layer_types=["hybrid", "hybrid_sliding",
    // "hybrid"], conv_kernel_size=3)) on the meta device, transformers 5.24: 297,000 parameters.
    assert_eq!(expected, 297_000);
    let config = json!({"model_type": "inkling2_text", "architectures": ["Inkling2ForCausalLM"],
        "vocab_size": v, "unpadded_vocab_size": unpadded, "hidden_size": h,
        "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "swa_num_attention_heads": 2, "swa_num_key_value_heads": 1, "swa_head_dim": 24,
        "sliding_window_size": 32, "d_rel": d_rel, "rel_extent": 48, "intermediate_size": w,
        "n_routed_experts": e, "num_experts_per_tok": 2,
        "layer_types": ["hybrid", "hybrid_sliding", "hybrid"], "conv_kernel_size": k});
    assert_eq!(derived(config), expected);
}

#[test]
fn inkling2_loop_text_adds_message_gates_to_its_looped_layers_and_their_queries() {
    let (v, unpadded, h, k, d_rel, e, w, rank) = (1000u64, 990u64, 64u64, 4u64, 4u64, 5u64, 40u64, 8u64);
    let common = 2 * h * k + h + e * h + (e * 2 * w * h + e * h * w);
    // Seven layers, full on the sixth (index 5) by default, the others sliding; every layer but
    // the first holds `attention_input` (three queries on the full layer).
    let sliding = inkling2_attention(h, (2, 1, 24), d_rel, 32, k, false) + 2 * h + common;
    let full = inkling2_attention(h, (4, 2, 16), d_rel, 48, k, true) + 4 * h + common + 3 * h;
    let layers = sliding + 5 * (sliding + h) + full;
    // Layers 2 and 3 are looped: four message gates each, `down_proj` (2h to the rank) and the
    // forget and message gates (rank to h); `message_input.query` is [end - start, 4, h].
    let gates = 2 * 4 * (2 * h * rank + 2 * rank * h);
    let messages = (4 - 2) * 4 * h;
    let expected = (v * h + h) + layers + gates + 2 * h + messages + unpadded * h;
    // Inkling2LoopForCausalLM(Inkling2LoopTextConfig(vocab_size=1000, unpadded_vocab_size=990,
    // hidden_size=64, num_hidden_layers=7, num_attention_heads=4, num_key_value_heads=2,
    // head_dim=16, swa_num_attention_heads=2, swa_num_key_value_heads=1, swa_head_dim=24,
    // sliding_window_size=32, d_rel=4, rel_extent=48, moe_intermediate_size=40,
    // n_routed_experts=5, num_experts_per_tok=2, n_layers_per_attn_res_block=2,
    // loop_layer_index_start=2, loop_layer_index_end=4, loop_num_passes=2, loop_gate_rank=8)) on
    // the meta device, transformers 5.24 (tools/validate/params_report_txb.md, var 1): 520,096.
    assert_eq!(expected, 520_096);
    let config = json!({"model_type": "inkling2_loop_text", "architectures": ["Inkling2LoopForCausalLM"],
        "vocab_size": v, "unpadded_vocab_size": unpadded, "hidden_size": h,
        "num_hidden_layers": 7, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "swa_num_attention_heads": 2, "swa_num_key_value_heads": 1, "swa_head_dim": 24,
        "sliding_window_size": 32, "d_rel": d_rel, "rel_extent": 48, "moe_intermediate_size": w,
        "n_routed_experts": e, "num_experts_per_tok": 2, "n_layers_per_attn_res_block": 2,
        "loop_config": {"core_start": 2, "core_end": 4, "num_passes": 2, "gate_rank": rank}});
    assert_eq!(derived(config), expected);
}
