"""Hybrids of linear mixers and attention (helper "hyb6", issue 10): OLMo Hybrid (Gated DeltaNet
beside OLMo 3's attention). Variations are small sizes unlike any published checkpoint: layers
and their pattern, widths, linear heads and widths, biases, tied and untied heads."""

FAMILIES = ["olmo_hybrid"]

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
}
