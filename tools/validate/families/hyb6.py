"""Hybrids of linear mixers and attention (helper "hyb6", issue 10): OLMo Hybrid (Gated DeltaNet
beside OLMo 3's attention) and Ling 3 (`bailing_hybrid`: delta attention beside gated latent attention, routed
experts) and Zamba (Mamba layers and one shared transformer block; at least two hybrid layers, as
transformers cannot tie a shared block used once) and Zamba2 (Mamba-2 layers, shared blocks taking
turns, adapters per use). Variations are small sizes unlike any published checkpoint: layers
and their pattern, widths, linear heads and widths, biases, tied and untied heads."""

FAMILIES = ["olmo_hybrid", "bailing_hybrid", "zamba", "zamba2"]

VARIATIONS = {
    "olmo_hybrid": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
             num_attention_heads=4, pad_token_id=0),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2, pad_token_id=0, attention_bias=True,
             tie_word_embeddings=True),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=5,
             num_attention_heads=2, linear_num_key_heads=2, linear_num_value_heads=4,
             linear_key_head_dim=12, linear_value_head_dim=10, linear_conv_kernel_dim=3, pad_token_id=0,
             layer_types=["full_attention", "linear_attention", "linear_attention", "full_attention",
                          "linear_attention"]),
        dict(vocab_size=320, hidden_size=60, intermediate_size=64, num_hidden_layers=2,
             num_attention_heads=3, linear_num_key_heads=5, pad_token_id=0),
    ],
    "bailing_hybrid": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, moe_intermediate_size=32,
             num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=4, head_dim=16,
             num_local_experts=8, num_experts_per_tok=2, n_group=2, topk_group=1, kv_lora_rank=32,
             qk_rope_head_dim=8, qk_nope_head_dim=16, v_head_dim=16, first_k_dense_replace=1,
             layer_group_size=2, pad_token_id=0),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, moe_intermediate_size=24,
             num_hidden_layers=3, num_attention_heads=2, num_key_value_heads=2, head_dim=20,
             num_local_experts=4, num_experts_per_tok=2, n_group=1, topk_group=1, n_shared_experts=2,
             kv_lora_rank=16, q_lora_rank=24, qk_rope_head_dim=4, qk_nope_head_dim=8, v_head_dim=12,
             attention_bias=True, short_conv_kernel_size=3, tie_word_embeddings=True, pad_token_id=0,
             layer_types=["linear_attention", "full_attention", "linear_attention"],
             mlp_layer_types=["sparse", "dense", "sparse"]),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, moe_intermediate_size=16,
             num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2, head_dim=8,
             num_local_experts=4, num_experts_per_tok=1, n_group=1, topk_group=1, n_shared_experts=0,
             kv_lora_rank=8, qk_rope_head_dim=4, qk_nope_head_dim=4, v_head_dim=8,
             first_k_dense_replace=0, layer_group_size=2, pad_token_id=0),
    ],
    "zamba": [
        dict(vocab_size=500, hidden_size=32, intermediate_size=48, num_attention_heads=4,
             num_key_value_heads=4, num_hidden_layers=8, pad_token_id=0),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_attention_heads=4,
             num_key_value_heads=2, attention_head_dim=10, num_hidden_layers=6, n_mamba_heads=3,
             layers_block_type=["mamba", "hybrid", "mamba", "hybrid", "hybrid", "mamba"],
             mamba_dt_rank=5, mamba_conv_bias=False, mamba_proj_bias=True, mamba_d_state=8,
             mamba_d_conv=3, tie_word_embeddings=False, pad_token_id=0),
        dict(vocab_size=257, hidden_size=40, intermediate_size=64, num_attention_heads=2,
             num_key_value_heads=2, num_hidden_layers=10, attn_layer_period=3, attn_layer_offset=1,
             mamba_expand=3, n_mamba_heads=4, pad_token_id=0),
    ],
    "zamba2": [
        dict(vocab_size=500, hidden_size=32, num_hidden_layers=6, num_attention_heads=4,
             n_mamba_heads=4, mamba_d_state=8, adapter_rank=4, pad_token_id=0,
             layers_block_type=["mamba", "hybrid", "mamba", "hybrid", "mamba", "hybrid"]),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=8,
             num_attention_heads=4, num_key_value_heads=2, n_mamba_heads=6, mamba_ngroups=2,
             mamba_d_state=8, mamba_d_conv=3, adapter_rank=6, num_mem_blocks=2,
             use_shared_attention_adapter=True, add_bias_linear=True, tie_word_embeddings=False,
             pad_token_id=0,
             layers_block_type=["hybrid", "mamba", "hybrid", "hybrid", "mamba", "hybrid", "hybrid", "mamba"]),
        dict(vocab_size=257, hidden_size=40, intermediate_size=64, num_hidden_layers=7,
             num_attention_heads=2, mamba_expand=1, n_mamba_heads=5, mamba_d_state=4, adapter_rank=3,
             num_mem_blocks=2, use_shared_attention_adapter=True, pad_token_id=0,
             layers_block_type=["mamba", "hybrid", "hybrid", "mamba", "hybrid", "hybrid", "mamba"]),
    ],
}
