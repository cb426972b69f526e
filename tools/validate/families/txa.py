"""DeepSeek-V4 and Qwen4-Exp's language model (helper "txa", issue 10; src/config/deepseek_v4.rs).
Variations are small sizes unlike any published checkpoint: layers, widths, heads, output groups,
attention kinds per layer and their compression rates, hashed and learned routers, hyper-connection
copies, tied and untied."""

FAMILIES = ["deepseek_v4"]

_V4 = dict(vocab_size=1000, hidden_size=64, moe_intermediate_size=32, num_hidden_layers=4,
           num_attention_heads=4, head_dim=32, q_lora_rank=24, n_routed_experts=6,
           num_experts_per_tok=2, o_groups=2, o_lora_rank=16, index_n_heads=2, index_head_dim=8,
           hc_mult=3, sliding_window=16)

VARIATIONS = {
    "deepseek_v4": [
        dict(_V4),
        dict(_V4, num_hidden_layers=5, tie_word_embeddings=True, mlp_bias=True,
             layer_types=["sliding_attention", "compressed_sparse_attention",
                          "heavily_compressed_attention", "sliding_attention",
                          "compressed_sparse_attention"],
             mlp_layer_types=["moe", "hash_moe", "moe", "moe", "hash_moe"]),
        dict(_V4, num_hidden_layers=6, compress_rates={"compressed_sparse_attention": 8,
                                                       "heavily_compressed_attention": 32},
             o_groups=4, hc_mult=1, hidden_act="gelu", num_experts_per_tok=1),
        dict(_V4, num_hidden_layers=3, head_dim=24, index_head_dim=12, index_n_heads=3,
             q_lora_rank=20, num_local_experts=5, intermediate_size=40, hc_mult=2,
             compress_ratios=[4, 0, 128, 4], num_hash_layers=1),
    ],
}
