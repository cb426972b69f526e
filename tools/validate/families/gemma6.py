"""Doge, Dory, Gemma 4, Gemma 3n and T5Gemma (helper "gemma6", issue 10: src/config/doge_dory.rs
and the files beside it). Variations are small sizes unlike any published checkpoint: layers,
widths, heads, biases, tied and untied heads, the switches each type's layers read."""

FAMILIES = ["doge", "t5gemma", "gemma4_text", "gemma4_unified_text"]

EXTRA_CLASSES = {
    "t5gemma": ["T5GemmaForConditionalGeneration", "T5GemmaEncoderModel", "T5GemmaForTokenClassification"],
}

VARIATIONS = {
    "doge": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=2,
             num_attention_heads=4, attention_bias=True, mlp_bias=True, tie_word_embeddings=True,
             is_moe=True, num_experts=50, num_experts_per_tok=4),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=2,
             num_attention_heads=2, num_key_value_heads=1, is_moe=True, num_experts=64,
             num_experts_per_tok=8, sliding_window=16),
    ],
    "t5gemma": [
        dict(encoder=dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
                          num_attention_heads=4, num_key_value_heads=2, head_dim=16),
             decoder=dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=2, head_dim=16)),
        dict(encoder=dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=4, head_dim=12, attention_bias=True),
             decoder=dict(vocab_size=310, hidden_size=32, intermediate_size=64, num_hidden_layers=3,
                          num_attention_heads=2, num_key_value_heads=1, head_dim=20, attention_bias=True,
                          layer_types=["full_attention", "full_attention", "sliding_attention"]),
             tie_word_embeddings=False),
        dict(encoder=dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=2,
                          num_attention_heads=2, num_key_value_heads=1, head_dim=24),
             decoder=dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=1,
                          num_attention_heads=2, num_key_value_heads=1, head_dim=24),
             is_encoder_decoder=False),
    ],
    "gemma4_text": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=6,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, global_head_dim=32,
             vocab_size_per_layer_input=300, hidden_size_per_layer_input=8),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=7,
             num_attention_heads=4, num_key_value_heads=2, head_dim=12, global_head_dim=24,
             hidden_size_per_layer_input=0, attention_k_eq_v=True, num_global_key_value_heads=1,
             num_kv_shared_layers=3, use_double_wide_mlp=True, attention_bias=True,
             tie_word_embeddings=False,
             layer_types=["sliding_attention", "full_attention", "sliding_attention", "full_attention",
                          "sliding_attention", "sliding_attention", "full_attention"]),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=4,
             num_attention_heads=2, num_key_value_heads=1, head_dim=20, global_head_dim=40,
             vocab_size_per_layer_input=100, hidden_size_per_layer_input=4, enable_moe_block=True,
             num_experts=4, top_k_experts=2, moe_intermediate_size=24, num_kv_shared_layers=2,
             layer_types=["sliding_attention", "full_attention", "sliding_attention", "full_attention"]),
    ],
    "gemma4_unified_text": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=6,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, global_head_dim=32),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=5,
             num_attention_heads=4, num_key_value_heads=2, head_dim=12, global_head_dim=24,
             attention_k_eq_v=True, num_global_key_value_heads=1, num_kv_shared_layers=2,
             use_double_wide_mlp=True, tie_word_embeddings=False,
             layer_types=["sliding_attention", "full_attention", "sliding_attention", "sliding_attention",
                          "full_attention"]),
    ],
}
