"""The newest decoders (helper "dec5", issue 10; src/config/spec_dec5.rs). Variations are small
sizes unlike any published checkpoint: layers, widths, heads, experts, shared experts, dense and
sparse layers, tied and untied."""

FAMILIES = ["axk1", "lara_mini"]

EXTRA_CLASSES = {
    "axk1": ["AXK1ForTokenClassification"],
}

_MLA = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
            num_attention_heads=4, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=24,
            qk_rope_head_dim=8, qk_nope_head_dim=12, v_head_dim=10, moe_intermediate_size=32,
            n_routed_experts=6, num_experts_per_tok=2, n_group=2, topk_group=1)

_LARA = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=5, num_attention_heads=4,
             num_key_value_heads=2, head_dim=16, linear_conv_kernel_dim=3, linear_key_head_dim=8,
             linear_value_head_dim=12, linear_num_key_heads=2, linear_num_value_heads=4,
             moe_intermediate_size=32, shared_expert_intermediate_size=40, num_experts=6,
             num_experts_per_tok=2, sliding_window=16)

VARIATIONS = {
    "axk1": [
        dict(_MLA),
        dict(_MLA, n_shared_experts=2, attention_bias=True, tie_word_embeddings=True),
        dict(_MLA, num_hidden_layers=5, first_k_dense_replace=2, moe_layer_freq=2),
        dict(_MLA, n_shared_experts=0, mlp_layer_types=["sparse", "dense", "sparse"]),
    ],
    "lara_mini": [
        dict(_LARA),
        dict(_LARA, num_hidden_layers=3, tie_word_embeddings=False, attention_bias=True,
             layer_types=["full_attention", "linear_attention", "sliding_attention"]),
        dict(_LARA, num_hidden_layers=7, num_key_value_heads=1, head_dim=8),
    ],
}
