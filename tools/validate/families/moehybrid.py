"""Mixture-of-experts, latent-attention and hybrid (linear-attention / state-space) decoder types
(helper "moehybrid", issue 10). Variations are small sizes unlike any published checkpoint: layers,
widths, heads, experts, shared experts, dense layers, layer patterns, tied and untied."""

FAMILIES = [
    "glm4_moe_lite", "deepseek_v32", "glm_moe_dsa",
    "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text",
    "flex_olmo", "exaone_moe", "dots1",
]

EXTRA_CLASSES = {
    "qwen3_next": ["Qwen3NextForTokenClassification"],
}

_LATENT = dict(hidden_size=64, intermediate_size=96, moe_intermediate_size=32, num_hidden_layers=3,
               num_attention_heads=4, num_key_value_heads=4, n_routed_experts=6, num_experts_per_tok=2,
               kv_lora_rank=24, q_lora_rank=40, qk_rope_head_dim=8, qk_nope_head_dim=16,
               v_head_dim=12, vocab_size=500)

# dots1's own defaults leave n_routed_experts None, which transformers 5.24 cannot build: the
# variations set it.
VARIATIONS = {
    "glm4_moe_lite": [
        _LATENT,
        dict(_LATENT, q_lora_rank=None, n_shared_experts=2, tie_word_embeddings=True,
             attention_bias=True),
        dict(_LATENT, mlp_layer_types=["dense", "dense", "sparse"], num_hidden_layers=3),
    ],
    "deepseek_v32": [
        dict(_LATENT, index_n_heads=4, index_head_dim=16, first_k_dense_replace=1),
        dict(_LATENT, index_n_heads=2, index_head_dim=8, first_k_dense_replace=0,
             n_shared_experts=2, attention_bias=True, tie_word_embeddings=True),
    ],
    "glm_moe_dsa": [
        dict(_LATENT, index_n_heads=4, index_head_dim=16, first_k_dense_replace=1),
        dict(_LATENT, index_n_heads=2, index_head_dim=8, first_k_dense_replace=2,
             indexer_types=["full", "shared", "full"]),
        dict(_LATENT, index_n_heads=2, index_head_dim=8, num_hidden_layers=4,
             index_topk_pattern="FSSF"),
    ],
    "qwen3_next": [
        dict(hidden_size=64, intermediate_size=96, num_hidden_layers=4, num_attention_heads=4,
             num_key_value_heads=2, head_dim=16, linear_num_key_heads=2, linear_num_value_heads=4,
             linear_key_head_dim=8, linear_value_head_dim=12, num_experts=6, num_experts_per_tok=2,
             moe_intermediate_size=24, shared_expert_intermediate_size=40, vocab_size=500),
        dict(hidden_size=48, intermediate_size=80, num_hidden_layers=5, num_attention_heads=2,
             num_key_value_heads=1, head_dim=24, linear_num_key_heads=1, linear_num_value_heads=2,
             linear_key_head_dim=16, linear_value_head_dim=16, linear_conv_kernel_dim=3,
             num_experts=4, num_experts_per_tok=1, moe_intermediate_size=16, decoder_sparse_step=2,
             mlp_only_layers=[3], full_attention_interval=2, tie_word_embeddings=True,
             vocab_size=300),
    ],
    "qwen3_5_text": [
        dict(hidden_size=64, intermediate_size=96, num_hidden_layers=4, num_attention_heads=4,
             num_key_value_heads=2, head_dim=16, linear_num_key_heads=2, linear_num_value_heads=4,
             linear_key_head_dim=8, linear_value_head_dim=12, vocab_size=500),
        dict(hidden_size=48, intermediate_size=80, num_hidden_layers=3, num_attention_heads=2,
             num_key_value_heads=2, head_dim=24, linear_num_key_heads=1, linear_num_value_heads=1,
             linear_key_head_dim=16, linear_value_head_dim=32, linear_conv_kernel_dim=2,
             layer_types=["full_attention", "linear_attention", "full_attention"],
             tie_word_embeddings=True, vocab_size=300),
    ],
    "qwen3_5_moe_text": [
        dict(hidden_size=64, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
             head_dim=16, linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=8,
             linear_value_head_dim=12, num_experts=6, num_experts_per_tok=2,
             moe_intermediate_size=24, shared_expert_intermediate_size=40, vocab_size=500),
    ],
    "flex_olmo": [
        dict(hidden_size=64, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, num_experts=5, num_experts_per_tok=2, vocab_size=500,
             pad_token_id=0),
        dict(hidden_size=96, intermediate_size=32, num_hidden_layers=3, num_attention_heads=6,
             num_experts=3, num_experts_per_tok=1, tie_word_embeddings=True, attention_bias=True,
             vocab_size=300, pad_token_id=1),
    ],
    "exaone_moe": [
        dict(hidden_size=64, intermediate_size=96, moe_intermediate_size=24, num_hidden_layers=4,
             num_attention_heads=4, num_key_value_heads=2, num_experts=6, num_experts_per_tok=2,
             vocab_size=500),
        dict(hidden_size=48, intermediate_size=80, moe_intermediate_size=16, num_hidden_layers=3,
             num_attention_heads=2, num_key_value_heads=1, num_experts=4, num_experts_per_tok=1,
             num_shared_experts=2, first_k_dense_replace=2, sliding_window=16,
             tie_word_embeddings=True, vocab_size=300),
    ],
    "dots1": [
        dict(hidden_size=64, intermediate_size=96, moe_intermediate_size=24, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2, n_routed_experts=6, n_shared_experts=1,
             num_experts_per_tok=2, first_k_dense_replace=1, vocab_size=500),
        dict(hidden_size=48, intermediate_size=80, moe_intermediate_size=16, num_hidden_layers=2,
             num_attention_heads=2, n_routed_experts=4, n_shared_experts=2, num_experts_per_tok=1,
             max_window_layers=1, tie_word_embeddings=True, vocab_size=300),
    ],
}
