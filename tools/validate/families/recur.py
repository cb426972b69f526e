"""Recurrent and hybrid types (helper "recur", issue 10: src/config/spec_recur.rs). Variations
are small sizes unlike any published checkpoint: layers, widths, attention and MLP widths, tied
and untied heads."""

FAMILIES = ["rwkv", "xlstm", "recurrent_gemma", "lfm3"]

VARIATIONS = {
    "rwkv": [
        dict(vocab_size=500, hidden_size=64, num_hidden_layers=3),
        dict(vocab_size=300, hidden_size=48, num_hidden_layers=2, attention_hidden_size=32,
             intermediate_size=80, tie_word_embeddings=True),
        dict(vocab_size=257, hidden_size=40, num_hidden_layers=1, intermediate_size=120,
             context_length=64),
    ],
    "xlstm": [
        dict(vocab_size=500, hidden_size=64, num_hidden_layers=3, num_heads=4),
        dict(vocab_size=300, hidden_size=96, num_blocks=2, num_heads=3, use_bias=True,
             qk_dim_factor=0.25, v_dim_factor=0.75, ffn_proj_factor=1.5,
             ffn_round_up_to_multiple_of=32, tie_word_embeddings=True),
        dict(vocab_size=257, hidden_size=80, num_hidden_layers=2, num_heads=2,
             weight_mode="fused", ffn_proj_factor=2.667),
    ],
    "recurrent_gemma": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=192, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=1, attention_window_size=32),
        dict(vocab_size=300, hidden_size=48, intermediate_size=100, num_hidden_layers=5,
             num_attention_heads=4, lru_width=64, conv1d_width=3, attention_bias=True,
             block_types=["recurrent", "attention"], tie_word_embeddings=False),
        dict(vocab_size=257, hidden_size=40, intermediate_size=90, num_hidden_layers=4,
             num_attention_heads=2, num_key_value_heads=2, block_types=["attention"]),
    ],
    "lfm3": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=6,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, conv_L_cache=3, pad_token_id=0),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=4,
             num_attention_heads=4, num_key_value_heads=1, head_dim=24, conv_bias=True, pad_token_id=0,
             attention_bias=True, use_sandwich_norm=False, tie_word_embeddings=False,
             layer_types=["sliding_attention", "conv", "full_attention", "conv"]),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=3,
             num_attention_heads=2, num_key_value_heads=2, head_dim=20, pad_token_id=0,
             layer_types=["conv", "conv", "full_attention"], sliding_window=None),
    ],
}
