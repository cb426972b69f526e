"""Encoder types of issue 10's enc7 list: MarkupLM and BROS (src/config/doc_text.rs), BERT's layers
with XPath embeddings or box positions beside the text."""

FAMILIES = ["markuplm", "bros", "clip_text_model", "tipsv2_text_model", "esmc", "layoutlmv3", "lilt", "canine"]

EXTRA_CLASSES = {
    "markuplm": ["MarkupLMForTokenClassification", "MarkupLMForQuestionAnswering"],
    "bros": ["BrosForTokenClassification", "BrosSpadeEEForTokenClassification",
             "BrosSpadeELForTokenClassification"],
    "clip_text_model": ["CLIPTextModelWithProjection"],
    "esmc": ["EsmcForTokenClassification"],
    "canine": ["CanineForTokenClassification", "CanineForQuestionAnswering", "CanineForMultipleChoice"],
    "lilt": ["LiltForTokenClassification", "LiltForQuestionAnswering"],
    "layoutlmv3": ["LayoutLMv3ForTokenClassification", "LayoutLMv3ForQuestionAnswering"],
}

# Sizes unlike any published checkpoint: layers, widths, heads, label counts, token types, and
# each type's own keys.
_SMALL = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         vocab_size=1000, max_position_embeddings=128),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=777, max_position_embeddings=66, type_vocab_size=1, num_labels=5),
]

VARIATIONS = {
    "markuplm": _SMALL + [
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
             vocab_size=501, max_position_embeddings=40, max_depth=7, xpath_unit_hidden_size=12,
             max_xpath_tag_unit_embeddings=30, max_xpath_subs_unit_embeddings=90, num_labels=3),
        dict(hidden_size=80, num_hidden_layers=2, num_attention_heads=5, intermediate_size=150,
             vocab_size=300, max_position_embeddings=50, max_depth=3, xpath_unit_hidden_size=40,
             type_vocab_size=4),
    ],
    "bros": _SMALL + [
        # hidden / 4 and hidden / heads floor: 90 / 4 = 22, 90 / 6 = 15.
        dict(hidden_size=90, num_hidden_layers=1, num_attention_heads=6, intermediate_size=100,
             vocab_size=501, max_position_embeddings=40, n_relations=3, num_labels=4, dim_bbox=2),
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=2, intermediate_size=96,
             vocab_size=300, max_position_embeddings=50, n_relations=2, type_vocab_size=3),
    ],
}

# CLIP's and TIPSv2's text transformers: widths, layers, heads, positions, projection widths.
_TEXT = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         vocab_size=1000, max_position_embeddings=40),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=777, max_position_embeddings=66),
]
VARIATIONS["clip_text_model"] = [dict(v, projection_dim=48) for v in _TEXT] + [
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=501, max_position_embeddings=20, projection_dim=64),
]
VARIATIONS["tipsv2_text_model"] = _TEXT + [
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=501, max_position_embeddings=20, scale_sqrt_depth=False),
]

# ESM C: biases on and off, a head_dim that leaves heads x head_dim short of the hidden size, an
# untied decoder whatever tie_word_embeddings says, the token classifier's bias switch.
VARIATIONS["esmc"] = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=320,
         vocab_size=64, max_position_embeddings=128),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=33, attention_bias=True, mlp_bias=True, num_labels=5, tie_word_embeddings=True),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=50, head_dim=6, token_classification_bias=False, num_labels=3),
]

# LayoutLMv3: 2-D tables of their own widths, biases and either modality off, a patch grid that
# does not divide the image (int(100 / 16) = 6 a side), 10 labels and more for token
# classification's two-layer head.
VARIATIONS["layoutlmv3"] = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         vocab_size=1000, max_position_embeddings=128, coordinate_size=32, shape_size=32,
         max_2d_position_embeddings=200, input_size=64, patch_size=8),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=777, max_position_embeddings=66, type_vocab_size=1, coordinate_size=20,
         shape_size=28, input_size=100, patch_size=16, num_channels=1, num_labels=12,
         has_relative_attention_bias=False, rel_2d_pos_bins=10),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=501, max_position_embeddings=40, coordinate_size=16, shape_size=16,
         visual_embed=False, has_spatial_attention_bias=False, rel_pos_bins=7, num_labels=5),
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=2, intermediate_size=96,
         vocab_size=300, max_position_embeddings=50, coordinate_size=16, shape_size=16,
         text_embed=False, input_size=32, patch_size=4, num_labels=10),
]

# LiLT: shrink ratios that leave remainders (100 / 3 = 33, 100 / 6 = 16; ffn 250 / 3 = 83).
VARIATIONS["lilt"] = _SMALL + [
    dict(hidden_size=96, num_hidden_layers=2, num_attention_heads=4, intermediate_size=250,
         vocab_size=501, max_position_embeddings=40, channel_shrink_ratio=3,
         max_2d_position_embeddings=77, num_labels=3),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=96,
         vocab_size=300, max_position_embeddings=50, channel_shrink_ratio=8, type_vocab_size=1),
]

# CANINE: hash shards that leave a remainder (100 / 3 = 33), rates and kernels, bucket counts.
VARIATIONS["canine"] = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         max_position_embeddings=256, num_hash_buckets=500, num_hash_functions=4),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         max_position_embeddings=64, num_hash_buckets=300, num_hash_functions=5, downsampling_rate=2,
         upsampling_kernel_size=3, type_vocab_size=2, num_labels=5),
    dict(hidden_size=100, num_hidden_layers=1, num_attention_heads=5, intermediate_size=120,
         max_position_embeddings=64, num_hash_buckets=200, num_hash_functions=3, downsampling_rate=8,
         upsampling_kernel_size=5),
]
