"""Decoders whose layers differ in their attention's shape (helper "dec6", issue 10;
src/config/spec_dec6.rs). Variations are small sizes unlike any published checkpoint: layers,
widths, heads per layer, key/value heads, value widths, sliding patterns, gates, experts, dense and
sparse layers, tied and untied."""

FAMILIES = ["mimo_v2_flash", "laguna", "longcat_flash", "axk2", "zaya",
            "minimax_m3_vl_text", "dots3_note_text", "hy_v4"]

EXTRA_CLASSES = {
    "axk2": ["AXK2ForTokenClassification"],
}

_MIMO = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=7,
             num_attention_heads=8, num_key_value_heads=2, head_dim=24, v_head_dim=16,
             moe_intermediate_size=32, n_routed_experts=6, num_experts_per_tok=2, sliding_window=16)

_LAGUNA = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
               num_attention_heads=8, num_key_value_heads=2, head_dim=16, moe_intermediate_size=32,
               shared_expert_intermediate_size=40, num_experts=6, num_experts_per_tok=2,
               sliding_window=16)

_LONGCAT = dict(vocab_size=1000, hidden_size=64, ffn_hidden_size=96, num_layers=2,
                num_attention_heads=4, q_lora_rank=24, kv_lora_rank=16, qk_nope_head_dim=12,
                qk_rope_head_dim=8, v_head_dim=10, head_dim=8, n_routed_experts=6, zero_expert_num=3,
                moe_topk=2, expert_ffn_hidden_size=32)

_AXK2 = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=24,
             qk_rope_head_dim=8, qk_nope_head_dim=12, v_head_dim=10, moe_intermediate_size=32,
             n_routed_experts=6, num_experts_per_tok=2, index_n_heads=2, index_head_dim=8,
             gated_norm_rank=4)

_ZAYA = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=3, num_attention_heads=4,
             num_key_value_heads=2, head_dim=16, moe_intermediate_size=32, num_experts=5,
             router_hidden_size=24)

_M3 = dict(vocab_size=1000, hidden_size=64, intermediate_size=32, num_hidden_layers=3,
           num_attention_heads=4, num_key_value_heads=2, head_dim=16, num_local_experts=6,
           num_experts_per_tok=2, dense_intermediate_size=96, shared_intermediate_size=40,
           index_n_heads=2, index_head_dim=8)

_DOTS3 = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=6,
              num_attention_heads=4, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=24,
              qk_rope_head_dim=8, qk_nope_head_dim=12, v_head_dim=10, moe_intermediate_size=32,
              n_routed_experts=6, num_experts_per_tok=2, index_n_heads=2, index_head_dim=8,
              shared_experts_intermediate_size=20, swa_num_attention_heads=2,
              swa_num_key_value_heads=2, swa_q_lora_rank=12, swa_kv_lora_rank=20, swa_head_dim=16,
              swa_qk_nope_head_dim=10, swa_v_head_dim=6, sliding_window=8, pad_token_id=0,
              head_dim=20)

_HYV4 = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=6,
             num_attention_heads=4, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=24,
             qk_rope_head_dim=8, qk_nope_head_dim=12, v_head_dim=10, moe_intermediate_size=32,
             n_routed_experts=6, num_experts_per_tok=2, index_n_heads=2, index_head_dim=8,
             hc_mult=3, pad_token_id=0)

VARIATIONS = {
    "mimo_v2_flash": [
        dict(_MIMO),
        dict(_MIMO, num_hidden_layers=3, attention_bias=True, tie_word_embeddings=True,
             layer_types=["sliding_attention", "full_attention", "sliding_attention"],
             mlp_layer_types=["sparse", "dense", "sparse"]),
        dict(_MIMO, num_hidden_layers=13, num_key_value_heads=1, head_dim=16, v_head_dim=16),
        dict(_MIMO, num_hidden_layers=2, v_head_dim=8, sliding_window_size=31),
    ],
    "laguna": [
        dict(_LAGUNA),
        dict(_LAGUNA, num_attention_heads_per_layer=[8, 4, 6, 2], gating="per-element",
             attention_bias=True),
        dict(_LAGUNA, num_hidden_layers=3, num_attention_heads_per_layer=[2, 8, 4], gating=False,
             tie_word_embeddings=True, mlp_layer_types=["sparse", "dense", "sparse"],
             layer_types=["sliding_attention", "full_attention", "sliding_attention"]),
        dict(_LAGUNA, num_hidden_layers=2, num_key_value_heads=1, gating="per-head"),
    ],
    "longcat_flash": [
        dict(_LONGCAT),
        dict(_LONGCAT, num_layers=3, zero_expert_num=0, attention_bias=True, tie_word_embeddings=True),
        dict(_LONGCAT, num_hidden_layers=6, router_bias=True, moe_topk=4),
        dict(_LONGCAT, num_layers=1, zero_expert_num=1, num_key_value_heads=2, qk_head_dim=40),
    ],
    "axk2": [
        dict(_AXK2),
        dict(_AXK2, n_shared_experts=2, attention_bias=True, tie_word_embeddings=True, gated_norm_rank=6),
        dict(_AXK2, num_hidden_layers=5, first_k_dense_replace=2, moe_layer_freq=2),
        dict(_AXK2, n_shared_experts=0, mlp_layer_types=["sparse", "dense", "sparse"], n_group=2, topk_group=1),
    ],
    "zaya": [
        dict(_ZAYA),
        dict(_ZAYA, tie_word_embeddings=False, lm_head_bias=True, attention_bias=True, cca_time0=3,
             cca_time1=4, sliding_window=8,
             layer_types=["hybrid_sliding", "hybrid", "hybrid_sliding"]),
        dict(_ZAYA, num_hidden_layers=1, num_key_value_heads=1, head_dim=10, cca_time0=1),
        dict(_ZAYA, num_hidden_layers=4, num_attention_heads=6, num_key_value_heads=3, lm_head_bias=True),
    ],
    "minimax_m3_vl_text": [
        dict(_M3),
        dict(_M3, layer_types=["full_attention", "minimax_m3_sparse", "minimax_m3_sparse"],
             mlp_layer_types=["dense", "sparse", "sparse"], tie_word_embeddings=True),
        dict(_M3, sparse_attention_config={"sparse_attention_freq": [1, 0, 1], "sparse_num_index_heads": 3,
                                           "sparse_index_dim": 12},
             moe_layer_freq=[0, 1, 1]),
        dict(_M3, num_hidden_layers=2, num_key_value_heads=4, head_dim=8),
    ],
    "dots3_note_text": [
        dict(_DOTS3),
        dict(_DOTS3, n_shared_experts=2, tie_word_embeddings=True, use_dsa=False),
        dict(_DOTS3, num_hidden_layers=4, use_sliding_window=False, first_k_dense_replace=2),
        dict(_DOTS3, num_hidden_layers=3, layer_types=["sliding_attention", "indexed_attention",
             "full_attention"], mlp_layer_types=["sparse", "dense", "sparse"],
             per_layer_config={"0": {"num_attention_heads": 2, "num_key_value_heads": 2,
                                     "kv_lora_rank": 8, "v_head_dim": 4}}),
        dict(_DOTS3, num_hidden_layers=5, moe_layer_freq=[0, 1, 0, 1, 1], attention_bias=True),
    ],
    "hy_v4": [
        dict(_HYV4),
        dict(_HYV4, n_shared_experts=2, tie_word_embeddings=True, attention_bias=True, hc_mult=2),
        dict(_HYV4, num_hidden_layers=3, indexer_types=["shared", "full", "full"],
             mlp_layer_types=["sparse", "dense", "sparse"]),
        dict(_HYV4, num_hidden_layers=2, hc_mult=1, n_shared_experts=0),
    ],
}
