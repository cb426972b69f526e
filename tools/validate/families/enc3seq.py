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

# NLLB-MoE: M2M-100's stacks with top-2 experts in layer i when (i + 1) % step == 0.
FAMILIES.append("nllb-moe")
VARIATIONS["nllb-moe"] = [
    dict(d_model=64, encoder_layers=4, decoder_layers=3, encoder_ffn_dim=128, decoder_ffn_dim=96,
         encoder_attention_heads=4, decoder_attention_heads=2, vocab_size=1000,
         max_position_embeddings=128, num_experts=4, encoder_sparse_step=2,
         decoder_sparse_step=3),
    dict(d_model=48, encoder_layers=2, decoder_layers=2, encoder_ffn_dim=50, decoder_ffn_dim=70,
         encoder_attention_heads=3, decoder_attention_heads=6, vocab_size=777,
         max_position_embeddings=40, num_experts=3, encoder_sparse_step=1,
         decoder_sparse_step=0, router_bias=True, tie_word_embeddings=False),
]

# FSMT: separate source and target tables, positions in a frozen weight of
# max_position_embeddings + pad_token_id + 1 rows, the decoder's output_projection.
FAMILIES.append("fsmt")
VARIATIONS["fsmt"] = [
    dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=128, decoder_ffn_dim=96,
         encoder_attention_heads=4, decoder_attention_heads=2, src_vocab_size=1000,
         tgt_vocab_size=700, max_position_embeddings=128),
    dict(d_model=48, encoder_layers=1, decoder_layers=1, encoder_ffn_dim=50, decoder_ffn_dim=70,
         encoder_attention_heads=3, decoder_attention_heads=6, src_vocab_size=777,
         tgt_vocab_size=777, max_position_embeddings=40, tie_word_embeddings=True, pad_token_id=3),
]

# PEGASUS-X: bias-free attention, global tokens in the encoder; block_size must divide the
# input only at run time, so any size builds.
FAMILIES.append("pegasus_x")
VARIATIONS["pegasus_x"] = [
    dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=128, decoder_ffn_dim=96,
         encoder_attention_heads=4, decoder_attention_heads=2, vocab_size=1000,
         max_position_embeddings=128, num_global_tokens=8, block_size=16),
    dict(d_model=48, encoder_layers=1, decoder_layers=1, encoder_ffn_dim=50, decoder_ffn_dim=70,
         encoder_attention_heads=3, decoder_attention_heads=6, vocab_size=777,
         max_position_embeddings=40, num_global_tokens=5, tie_word_embeddings=False),
]
