"""One-of-a-kind types (helper "misc6", issue 10: src/config/reformer.rs, prophetnet.rs).
Reformer: LSH and local layers as attn_layers lists them, axial or plain positions, both
reversible halves in the final norm and heads. Variations are small sizes unlike any published
checkpoint."""

FAMILIES = ["reformer"]

EXTRA_CLASSES = {
    "reformer": ["ReformerModelWithLMHead", "ReformerForQuestionAnswering"],
}

VARIATIONS = {
    "reformer": [
        dict(vocab_size=500, hidden_size=64, num_attention_heads=4, attention_head_size=16,
             feed_forward_size=96, attn_layers=["lsh", "local", "lsh"], axial_pos_shape=[8, 16],
             axial_pos_embds_dim=[16, 48], is_decoder=True),
        dict(vocab_size=300, hidden_size=48, num_attention_heads=3, attention_head_size=20,
             feed_forward_size=80, attn_layers=["local", "local"], axial_pos_embds=False,
             max_position_embeddings=128, num_labels=5),
        dict(vocab_size=257, hidden_size=40, num_attention_heads=2, attention_head_size=24,
             feed_forward_size=72, attn_layers=["lsh"], axial_pos_shape=[4, 8, 2],
             axial_pos_embds_dim=[8, 12, 20], lsh_attn_chunk_length=16),
        # ReformerModelWithLMHead asserts is_decoder; ForMaskedLM asserts the reverse.
        dict(vocab_size=211, hidden_size=32, num_attention_heads=2, attention_head_size=8,
             feed_forward_size=50, attn_layers=["local", "lsh", "lsh", "local"],
             axial_pos_embds=False, max_position_embeddings=96, is_decoder=True),
    ],
}
