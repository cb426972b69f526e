"""More mixture-of-experts and latent-attention decoder types (helper "moe3", issue 10;
src/config/spec_moe3.rs). Variations are small sizes unlike any published checkpoint: layers,
widths, heads, KV heads, experts, shared experts, dense layers, tied and untied.

Transformers 5.24 cannot build two defaults: HunYuanMoEV1Config leaves `head_dim` None, which its
rotary embedding raises to a power, and DbrxAttention reads `attn_config.rope_theta`, which
DbrxAttentionConfig no longer defines; the variations set both."""

FAMILIES = ["hunyuan_v1_moe", "sarvam_moe", "solar_open", "sarvam_mla", "youtu", "minicpm3", "hy_v3", "afmoe", "minimax", "dbrx", "jetmoe", "cohere2_moe"]

EXTRA_CLASSES = {
    "sarvam_mla": ["DeepseekV3ForTokenClassification"],
    "minimax": ["MiniMaxForTokenClassification"],
}

_LATENT = dict(hidden_size=64, intermediate_size=96, moe_intermediate_size=32, num_hidden_layers=3,
               num_attention_heads=4, num_key_value_heads=4, n_routed_experts=6, num_experts_per_tok=2,
               kv_lora_rank=24, qk_rope_head_dim=8, qk_nope_head_dim=16, v_head_dim=12,
               vocab_size=500)

VARIATIONS = {
    "hunyuan_v1_moe": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=48, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, num_experts=6, moe_topk=2, head_dim=16),
        dict(vocab_size=300, hidden_size=96, intermediate_size=40, num_hidden_layers=3,
             num_attention_heads=6, num_experts=4, moe_topk=1, head_dim=8, attention_bias=True,
             tie_word_embeddings=True),
    ],
    "sarvam_moe": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, moe_intermediate_size=24,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
             n_routed_experts=6, num_experts_per_tok=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, moe_intermediate_size=16,
             num_hidden_layers=4, num_attention_heads=2, num_key_value_heads=1, head_dim=24,
             n_routed_experts=4, num_experts_per_tok=1, n_shared_experts=2,
             first_k_dense_replace=2, use_qk_norm=False, attention_bias=True,
             tie_word_embeddings=True),
    ],
    "solar_open": [
        dict(vocab_size=500, hidden_size=64, moe_intermediate_size=24, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, n_routed_experts=6,
             num_experts_per_tok=2),
        dict(vocab_size=300, hidden_size=48, moe_intermediate_size=16, num_hidden_layers=3,
             num_attention_heads=2, num_key_value_heads=1, head_dim=32, n_routed_experts=4,
             num_experts_per_tok=1, n_shared_experts=2, attention_bias=True,
             tie_word_embeddings=True),
    ],
    "sarvam_mla": [
        _LATENT,
        dict(_LATENT, q_lora_rank=40, n_shared_experts=2, first_k_dense_replace=2,
             attention_bias=True, tie_word_embeddings=True),
    ],
    "youtu": [
        dict(_LATENT, q_lora_rank=40),
        dict(_LATENT, q_lora_rank=None, num_hidden_layers=2, attention_bias=True,
             tie_word_embeddings=False),
    ],
    "minicpm3": [
        dict(_LATENT, q_lora_rank=40, v_head_dim=None),
        dict(_LATENT, q_lora_rank=None, num_hidden_layers=2, attention_bias=True, mlp_bias=True,
             tie_word_embeddings=False),
    ],
    "hy_v3": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, moe_intermediate_size=24,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
             num_experts=6, num_experts_per_tok=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, moe_intermediate_size=16,
             num_hidden_layers=3, num_attention_heads=2, num_key_value_heads=1, head_dim=24,
             num_experts=4, num_experts_per_tok=1, num_shared_experts=2, attention_bias=True,
             mlp_bias=True, tie_word_embeddings=True,
             mlp_layer_types=["sparse", "dense", "sparse"]),
    ],
    "afmoe": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, moe_intermediate_size=24,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
             num_experts=6, num_experts_per_tok=2, sliding_window=16),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, moe_intermediate_size=16,
             num_hidden_layers=4, num_attention_heads=2, head_dim=24, num_experts=4,
             num_experts_per_tok=1, num_shared_experts=1, num_dense_layers=2,
             global_attn_every_n_layers=2, tie_word_embeddings=True),
    ],
    "minimax": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=48, num_hidden_layers=4,
             num_attention_heads=4, num_key_value_heads=2, num_local_experts=6,
             num_experts_per_tok=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=32, num_hidden_layers=3,
             num_attention_heads=2, num_key_value_heads=1, head_dim=16, num_local_experts=4,
             num_experts_per_tok=1, tie_word_embeddings=True,
             layer_types=["linear_attention", "linear_attention", "full_attention"]),
    ],
    "dbrx": [
        dict(vocab_size=500, d_model=64, n_heads=4, n_layers=2,
             attn_config=dict(kv_n_heads=2, rope_theta=10000.0), ffn_config=dict(ffn_hidden_size=48, moe_num_experts=6,
                                                             moe_top_k=2)),
        dict(vocab_size=300, d_model=48, n_heads=6, n_layers=3, attn_config=dict(kv_n_heads=1, rope_theta=500000.0),
             ffn_config=dict(ffn_hidden_size=32, moe_num_experts=4, moe_top_k=1)),
    ],
    "jetmoe": [
        dict(vocab_size=500, hidden_size=64, num_hidden_layers=2, num_key_value_heads=2,
             kv_channels=16, intermediate_size=48, num_local_experts=6, num_experts_per_tok=2),
        dict(vocab_size=300, hidden_size=48, num_hidden_layers=3, num_key_value_heads=3,
             kv_channels=8, intermediate_size=32, num_local_experts=4, num_experts_per_tok=1,
             tie_word_embeddings=False),
    ],
    "cohere2_moe": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=48, num_hidden_layers=4,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, num_experts=6,
             num_experts_per_tok=2, sliding_window=16),
        dict(vocab_size=300, hidden_size=48, intermediate_size=32, num_hidden_layers=3,
             num_attention_heads=2, num_key_value_heads=1, head_dim=24, num_experts=4,
             num_experts_per_tok=1, num_shared_experts=2, prefix_dense_intermediate_size=40,
             mlp_layer_types=["dense", "sparse", "sparse"], rms_norm_eps=1e-6,
             tie_word_embeddings=False),
    ],
}
