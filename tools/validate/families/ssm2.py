"""Mamba-2 hybrids (helper "ssm2", issue 10: src/config/spec_hybrid.rs): Bamba, Granite 4.0 and
Nemotron-H. Variations are small sizes unlike any published checkpoint: layers, widths, heads,
Mamba heads and groups, state, kernel, biases, layer patterns, experts, tied and untied."""

FAMILIES = ["bamba", "granitemoehybrid", "nemotron_h"]

_MAMBA = dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
              num_attention_heads=4, num_key_value_heads=2, mamba_n_heads=8, mamba_n_groups=2,
              mamba_d_state=16, mamba_d_conv=3, mamba_expand=2)

VARIATIONS = {
    "bamba": [
        dict(_MAMBA, attn_layer_indices=[1]),
        dict(_MAMBA, attn_layer_indices=[0, 3], mamba_conv_bias=False, mamba_proj_bias=True,
             tie_word_embeddings=True, mlp_bias=True, attention_bias=True),
        dict(_MAMBA, num_hidden_layers=3, mamba_n_heads=4, mamba_d_head=32, mamba_n_groups=1,
             mamba_expand=2, hidden_size=64, head_dim=24),
        dict(_MAMBA, hidden_size=48, mamba_n_heads=6, mamba_expand=3, num_attention_heads=3,
             num_key_value_heads=1),
    ],
    "granitemoehybrid": [
        dict(_MAMBA, num_local_experts=4, num_experts_per_tok=2, shared_intermediate_size=40,
             layer_types=["mamba", "attention", "mamba", "mamba"]),
        dict(_MAMBA, num_local_experts=3, num_experts_per_tok=1, shared_intermediate_size=24,
             layer_types=["linear_attention", "full_attention", "full_attention", "linear_attention"],
             tie_word_embeddings=True, mamba_proj_bias=True, attention_bias=True),
        dict(_MAMBA, num_local_experts=5, num_experts_per_tok=2, shared_intermediate_size=32,
             num_hidden_layers=3, mamba_conv_bias=False),
    ],
    "nemotron_h": [
        dict(vocab_size=500, hidden_size=64, num_attention_heads=4, num_key_value_heads=2,
             head_dim=16, intermediate_size=96, mamba_num_heads=8, mamba_head_dim=16, n_groups=2,
             ssm_state_size=16, conv_kernel=3, n_routed_experts=4, num_experts_per_tok=2,
             moe_intermediate_size=24, moe_shared_expert_intermediate_size=40,
             layers_block_type=["linear_attention", "moe", "full_attention", "mlp", "linear_attention"]),
        dict(vocab_size=300, hidden_size=48, num_attention_heads=2, num_key_value_heads=1,
             head_dim=32, intermediate_size=80, mamba_num_heads=4, mamba_head_dim=20, n_groups=1,
             ssm_state_size=8, conv_kernel=4, n_routed_experts=6, num_experts_per_tok=3,
             moe_intermediate_size=16, moe_shared_expert_intermediate_size=24, moe_latent_size=12,
             use_bias=True, use_conv_bias=False, mlp_bias=True, tie_word_embeddings=True,
             hybrid_override_pattern="ME*EM"),
    ],
}

FAMILIES += ["falcon_h1"]

VARIATIONS["granitemoehybrid"] += [
    # Granite 4.0's dense hybrids (num_local_experts 0): the shared MLP alone after each mixer.
    dict(_MAMBA, num_local_experts=0, shared_intermediate_size=40,
         layer_types=["mamba", "attention", "mamba", "attention"]),
    dict(_MAMBA, num_local_experts=0, shared_intermediate_size=56, num_hidden_layers=2,
         layer_types=["attention", "attention"], tie_word_embeddings=True),
]

VARIATIONS["falcon_h1"] = [
    dict(_MAMBA, mamba_d_ssm=96, mamba_n_heads=6),
    dict(_MAMBA, mamba_d_ssm=None, mamba_rms_norm=True, projectors_bias=True, mamba_proj_bias=True,
         mamba_conv_bias=False, attention_bias=True, mlp_bias=True, tie_word_embeddings=True),
    dict(_MAMBA, num_hidden_layers=3, mamba_d_ssm=64, mamba_n_heads=4, mamba_d_head=16,
         mamba_n_groups=1, mamba_rms_norm=True, head_dim=24),
]

FAMILIES += ["kimi_linear"]

_KIMI = dict(vocab_size=500, hidden_size=64, intermediate_size=96, moe_intermediate_size=24,
             num_hidden_layers=5, num_attention_heads=4, num_key_value_heads=4, kv_lora_rank=24,
             qk_rope_head_dim=8, qk_nope_head_dim=16, v_head_dim=12, num_local_experts=6,
             num_experts_per_tok=2, linear_head_dim=16, linear_num_heads=4,
             linear_conv_kernel_dim=3, pad_token_id=0)

VARIATIONS["kimi_linear"] = [
    _KIMI,
    dict(_KIMI, q_lora_rank=40, n_shared_experts=2, attention_bias=True, tie_word_embeddings=True,
         layer_types=["full_attention", "linear_attention", "linear_attention", "full_attention",
                      "linear_attention"]),
    dict(_KIMI, mlp_layer_types=["dense", "sparse", "dense", "sparse", "sparse"],
         linear_attn_config={"full_attn_layers": [2, 5], "kda_layers": [1, 3, 4], "head_dim": 8,
                             "num_heads": 6, "short_conv_kernel_size": 2}),
]

FAMILIES += ["lfm2"]

_LFM = dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
            num_attention_heads=4, num_key_value_heads=2, block_multiple_of=16)

VARIATIONS["lfm2"] = [
    dict(_LFM, full_attn_idxs=[1, 3]),
    dict(_LFM, layer_types=["conv", "conv", "full_attention", "conv"], conv_bias=True,
         conv_L_cache=4, block_ffn_dim_multiplier=1.5, tie_word_embeddings=False),
    dict(_LFM, full_attn_idxs=[2], block_auto_adjust_ff_dim=False, intermediate_size=100),
    dict(_LFM, full_attn_idxs=[0], block_ffn_dim_multiplier=0.8, intermediate_size=200),
]

FAMILIES += ["lfm2_moe"]

# Lfm2MoeConfig's own default leaves layer_types None, which Lfm2MoeDecoderLayer indexes:
# transformers 5.24 cannot build it (the default rows error on its side); the variations set it.

VARIATIONS["lfm2_moe"] = [
    dict(_LFM, moe_intermediate_size=24, num_experts=6, num_experts_per_tok=2, num_dense_layers=1,
         layer_types=["conv", "full_attention", "conv", "conv"]),
    dict(_LFM, moe_intermediate_size=16, num_experts=4, num_experts_per_tok=1, num_dense_layers=0,
         conv_bias=True, conv_L_cache=2, tie_word_embeddings=False,
         layer_types=["full_attention", "conv", "conv", "full_attention"]),
]
