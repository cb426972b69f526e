"""DeepSeek-V4 and Qwen4-Exp's language model (helper "txa", issue 10; src/config/deepseek_v4.rs).
Variations are small sizes unlike any published checkpoint: layers, widths, heads, output groups,
attention kinds per layer and their compression rates, hashed and learned routers, hyper-connection
copies, tied and untied."""

FAMILIES = ["deepseek_v4", "qwen4_exp_text"]

_V4 = dict(vocab_size=1000, hidden_size=64, moe_intermediate_size=32, num_hidden_layers=4,
           num_attention_heads=4, head_dim=32, q_lora_rank=24, n_routed_experts=6,
           num_experts_per_tok=2, o_groups=2, o_lora_rank=16, index_n_heads=2, index_head_dim=8,
           hc_mult=3, sliding_window=16)

_Q4 = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=4, num_attention_heads=4,
           num_key_value_heads=2, head_dim=16, linear_conv_kernel_dim=3, linear_key_head_dim=8,
           linear_value_head_dim=12, linear_num_key_heads=2, linear_num_value_heads=4,
           moe_intermediate_size=32, shared_expert_intermediate_size=40, num_experts=6,
           num_experts_per_tok=2, hc_count=3, hc_lowrank=16, indexer_n_heads=2, indexer_kv_heads=1,
           indexer_head_dim=16, indexer_budget=8, indexer_compress_ratio=4)

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
    "qwen4_exp_text": [
        dict(_Q4),
        dict(_Q4, num_hidden_layers=5, tie_word_embeddings=True, attention_bias=True,
             layer_types=["linear_attention", "full_attention", "linear_attention",
                          "indexed_attention", "linear_attention"], hc_count=2, hc_lowrank=8),
        dict(_Q4, ple_layer_ids=[3, 1], eos_token_id=0, ngram_vocab_size_base=1000,
             ple_embed_dim=32, ple_conv_kernel_size=3, indexer_n_heads=3, indexer_head_dim=20),
        dict(_Q4, num_hidden_layers=6, ple_layer_ids=[2, 5], eos_token_id=[1, 2], ngram_size=5,
             heads_per_ngram=2, make_ngram_vocab_size_divisible_by=64, hidden_act="sigmoid"),
        dict(_Q4, num_hidden_layers=3, layer_types=["linear_attention"] * 3, indexer_n_heads=None,
             indexer_kv_heads=None, indexer_head_dim=None, indexer_budget=None,
             indexer_compress_ratio=None, ple_layer_ids=[2], eos_token_id=5),
    ],
}
