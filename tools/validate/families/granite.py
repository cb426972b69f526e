"""Granite's mixtures of experts with a shared MLP and with sliding-window layers
(src/config/spec_granite.rs): the last types added, by following the README."""

_SMALL = dict(vocab_size=1000, hidden_size=64, intermediate_size=32, num_hidden_layers=2,
              num_attention_heads=4, num_key_value_heads=2, num_local_experts=4,
              num_experts_per_tok=2)

FAMILIES = ["granitemoeshared", "granitemoe_swa"]

VARIATIONS = {
    "granitemoeshared": [
        dict(_SMALL, shared_intermediate_size=48),
        dict(_SMALL, shared_intermediate_size=0, tie_word_embeddings=True),
        dict(_SMALL, hidden_size=96, num_attention_heads=6, num_key_value_heads=3,
             shared_intermediate_size=40, num_hidden_layers=3, vocab_size=777),
    ],
    "granitemoe_swa": [
        dict(_SMALL, shared_intermediate_size=48, num_hidden_layers=5),
        dict(_SMALL, num_hidden_layers=3, sliding_window=16, tie_word_embeddings=True,
             layer_types=["sliding_attention", "full_attention", "sliding_attention"]),
    ],
}
