"""Doge, Dory, Gemma 4, Gemma 3n and T5Gemma (helper "gemma6", issue 10: src/config/doge_dory.rs
and the files beside it). Variations are small sizes unlike any published checkpoint: layers,
widths, heads, biases, tied and untied heads, the switches each type's layers read."""

FAMILIES = ["doge", "t5gemma"]

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
}
