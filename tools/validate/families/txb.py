"""Helper txb's types: gpt-sw3 (GPT-2's config and classes under its own model_type)."""

FAMILIES = ["gpt-sw3"]

EXTRA_CLASSES = {
    "gpt-sw3": ["GPT2ForTokenClassification", "GPT2ForQuestionAnswering", "GPT2DoubleHeadsModel"],
}


def _gpt2(n_embd, n_layer, n_head, vocab, **kw):
    return dict(n_embd=n_embd, n_layer=n_layer, n_head=n_head, vocab_size=vocab, **kw)


VARIATIONS = {
    "gpt-sw3": [
        _gpt2(128, 2, 4, 1000),
        _gpt2(96, 3, 6, 777, n_positions=77, tie_word_embeddings=False),
        _gpt2(64, 1, 2, 300, num_labels=5, n_inner=100),
    ],
}

# Molmo 2's language model (src/config/spec_txb.rs): its only class is the bare model.
FAMILIES += ["molmo2_text"]
_MOLMO = dict(hidden_size=64, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
              intermediate_size=160, num_hidden_layers=2, vocab_size=1000)
VARIATIONS["molmo2_text"] = [
    _MOLMO,
    dict(_MOLMO, qk_norm_type="olmo", attention_bias=True, additional_vocab_size=0),
    dict(_MOLMO, num_key_value_heads=4, head_dim=24, additional_vocab_size=37, norm_after=True,
         num_hidden_layers=3),
    dict(_MOLMO, qk_norm_type="olmo", num_key_value_heads=1, tie_word_embeddings=True),
]

# NeoMME (src/config/neomme.rs, src/graph/neomme.rs): an encoder with its own reader.
FAMILIES += ["neomme"]
EXTRA_CLASSES["neomme"] = ["NeoMMEForRetrieval"]
_NEO = dict(vocab_size=1000, embedding_rank=32, hidden_size=64, intermediate_size=160,
            num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
            patch_size=4, embedding_dim=24)
VARIATIONS["neomme"] = [
    _NEO,
    dict(_NEO, tie_word_embeddings=False, attention_bias=True, mlp_bias=True),
    dict(_NEO, num_hidden_layers=7, num_key_value_heads=1, head_dim=32, hidden_size=48,
         layer_types=["sliding_attention", "full_attention"] * 3 + ["sliding_attention"]),
    dict(_NEO, num_attention_heads=6, head_dim=16, patch_size=8, embedding_rank=100),
]

# Inkling's language model (src/config/inkling.rs, src/graph/inkling.rs).
FAMILIES += ["inkling_text"]
_INK = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=3, num_attention_heads=4,
            num_key_value_heads=2, head_dim=16, swa_num_attention_heads=2,
            swa_num_key_value_heads=1, swa_head_dim=24, sliding_window_size=32, d_rel=4,
            rel_extent=48, intermediate_size=96, moe_intermediate_size=40, n_routed_experts=5,
            num_experts_per_tok=2, n_shared_experts=2)
VARIATIONS["inkling_text"] = [
    _INK,
    dict(_INK, layer_types=["hybrid", "hybrid_sliding", "hybrid"],
         mlp_layer_types=["dense", "sparse", "dense"], conv_kernel_size=3),
    dict(_INK, num_hidden_layers=7, local_layer_ids=[1, 2, 5], dense_mlp_idx=2, n_shared_experts=1),
    dict(_INK, dense_intermediate_size=72, num_hidden_layers=2, dense_mlp_idx=1),
    dict(_INK, num_hidden_layers=6),
]

# Inkling 2's language model (src/config/inkling2.rs, src/graph/inkling2.rs).
FAMILIES += ["inkling2_text"]
_INK2 = dict(vocab_size=1000, unpadded_vocab_size=990, hidden_size=64, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, swa_num_attention_heads=2,
             swa_num_key_value_heads=1, swa_head_dim=24, sliding_window_size=32, d_rel=4,
             rel_extent=48, moe_intermediate_size=40, n_routed_experts=5, num_experts_per_tok=2)
VARIATIONS["inkling2_text"] = [
    _INK2,
    dict(_INK2, layer_types=["hybrid", "hybrid_sliding", "hybrid"], conv_kernel_size=3),
    dict(_INK2, num_hidden_layers=7, unpadded_vocab_size=1000),
    dict(_INK2, layer_types=["hybrid_sliding", "hybrid_sliding", "hybrid"], intermediate_size=24),
]

# Inkling 2 Loop's language model: Inkling 2's reader with the loop's keys (src/config/inkling2_loop.rs).
FAMILIES += ["inkling2_loop_text"]
_LOOP = dict(_INK2, num_hidden_layers=7, n_layers_per_attn_res_block=2, loop_layer_index_start=2,
             loop_layer_index_end=4, loop_num_passes=2, loop_gate_rank=8)
VARIATIONS["inkling2_loop_text"] = [
    _LOOP,
    dict(_LOOP, loop_layer_index_start=3, loop_layer_index_end=6, n_layers_per_attn_res_block=3,
         loop_gate_rank=5, layer_types=["hybrid_sliding", "hybrid"] * 3 + ["hybrid"]),
    dict(_LOOP, loop_layer_index_end=8, num_hidden_layers=6),
    dict(_LOOP, loop_config=dict(core_start=4, core_end=6, num_passes=4, gate_rank=3)),
]
