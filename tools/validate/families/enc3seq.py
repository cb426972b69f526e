"""Encoder-decoders of the T5 lineage described in src/config/t5_types.rs beyond t5, mt5 and
umt5: LongT5 (local and transient-global encoder attention) and Switch Transformers (top-1
experts in every n-th feed-forward). Variations: layers per stack, widths, heads, gated and
plain feed-forwards, tied and untied heads, experts and where the sparse layers fall."""

FAMILIES = ["longt5", "switch_transformers"]

EXTRA_CLASSES = {
    "longt5": ["LongT5EncoderModel", "LongT5Model"],
    "switch_transformers": ["SwitchTransformersEncoderModel", "SwitchTransformersModel"],
}

VARIATIONS = {
    "longt5": [
        dict(d_model=128, d_kv=32, d_ff=256, num_layers=2, num_heads=4, vocab_size=1000),
        dict(d_model=96, d_kv=16, d_ff=200, num_layers=3, num_decoder_layers=1, num_heads=6,
             vocab_size=777, feed_forward_proj="gated-gelu", tie_word_embeddings=False,
             encoder_attention_type="transient-global"),
        dict(d_model=64, d_kv=8, d_ff=128, num_layers=1, num_decoder_layers=2, num_heads=4,
             vocab_size=501, relative_attention_num_buckets=16,
             encoder_attention_type="transient-global", global_block_size=8, local_radius=15),
    ],
    "switch_transformers": [
        dict(d_model=128, d_kv=32, d_ff=256, num_layers=4, num_decoder_layers=4, num_heads=4,
             vocab_size=1000, num_experts=4, num_sparse_encoder_layers=2,
             num_sparse_decoder_layers=2),
        dict(d_model=96, d_kv=16, d_ff=200, num_layers=3, num_decoder_layers=2, num_heads=6,
             vocab_size=777, num_experts=3, num_sparse_encoder_layers=3,
             num_sparse_decoder_layers=0, tie_word_embeddings=False, router_bias=True),
        dict(d_model=64, d_kv=8, d_ff=128, num_layers=6, num_decoder_layers=5, num_heads=4,
             vocab_size=501, num_experts=5, num_sparse_encoder_layers=2,
             num_sparse_decoder_layers=9, relative_attention_num_buckets=16),
        dict(hidden_size=64, d_kv=16, d_ff=96, num_hidden_layers=1, num_decoder_layers=1,
             num_attention_heads=2, vocab_size=300, num_experts=2,
             num_sparse_encoder_layers=0, num_sparse_decoder_layers=1),
    ],
}
