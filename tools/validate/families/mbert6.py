"""ModernBERT and its relatives (helper "mbert6", issue 10: src/config/modernbert.rs). Variations
are small sizes unlike any published checkpoint: layers, widths, biases, layer patterns, tied and
untied heads."""

FAMILIES = ["modernbert", "modernbert-decoder", "eurobert", "ultrabert", "mobilebert"]

EXTRA_CLASSES = {
    "modernbert": ["ModernBertForTokenClassification", "ModernBertForQuestionAnswering",
                   "ModernBertForMultipleChoice"],
    "modernbert-decoder": [],
    "eurobert": ["EuroBertForTokenClassification"],
    "ultrabert": ["UltrabertForTokenClassification", "UltrabertForQuestionAnswering"],
    "mobilebert": ["MobileBertForPreTraining", "MobileBertForNextSentencePrediction",
                   "MobileBertForTokenClassification", "MobileBertForQuestionAnswering",
                   "MobileBertForMultipleChoice"],
}

VARIATIONS = {
    "modernbert": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
             num_attention_heads=4, pad_token_id=0, bos_token_id=1, eos_token_id=2,
             cls_token_id=1, sep_token_id=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=3,
             num_attention_heads=3, norm_bias=True, attention_bias=True, mlp_bias=True,
             classifier_bias=True, decoder_bias=False, tie_word_embeddings=False,
             global_attn_every_n_layers=2, local_attention=16, num_labels=5, pad_token_id=3,
             bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=2,
             num_attention_heads=2, layer_types=["sliding_attention", "full_attention"],
             pad_token_id=0, bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2),
    ],
    "modernbert-decoder": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
             num_attention_heads=4, pad_token_id=0, bos_token_id=1, eos_token_id=2,
             cls_token_id=1, sep_token_id=2),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=3,
             num_attention_heads=3, norm_bias=True, attention_bias=True, mlp_bias=True,
             classifier_bias=True, decoder_bias=False, tie_word_embeddings=False,
             global_attn_every_n_layers=2, local_attention=16, num_labels=5, pad_token_id=3,
             bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=2,
             num_attention_heads=2, layer_types=["sliding_attention", "full_attention"],
             pad_token_id=0, bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2),
    ],
    "eurobert": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
             num_attention_heads=4, pad_token_id=0, bos_token_id=1, eos_token_id=2, mask_token_id=3),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, attention_bias=True,
             mlp_bias=True, tie_word_embeddings=True, num_labels=5, pad_token_id=0, bos_token_id=1,
             eos_token_id=2, mask_token_id=3),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=1,
             num_attention_heads=2, num_key_value_heads=1, pad_token_id=0, bos_token_id=1,
             eos_token_id=2, mask_token_id=3, hidden_act="gelu"),
    ],
    "ultrabert": [
        dict(vocab_size=500, hidden_size=64, intermediate_size=96, num_hidden_layers=3,
             num_attention_heads=4, prediction_head_size=32),
        dict(vocab_size=300, hidden_size=48, intermediate_size=80, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, head_dim=16, attention_bias=True,
             mlp_bias=True, tie_word_embeddings=True, num_labels=5, prediction_head_size=24),
        dict(vocab_size=257, hidden_size=40, intermediate_size=72, num_hidden_layers=4,
             num_attention_heads=2, num_key_value_heads=1, prediction_head_size=40,
             layer_types=["full_attention", "sliding_attention", "sliding_attention", "full_attention"]),
    ],
    "mobilebert": [
        dict(vocab_size=500, hidden_size=64, num_hidden_layers=3, num_attention_heads=2,
             intermediate_size=48, embedding_size=16, intra_bottleneck_size=32),
        dict(vocab_size=300, hidden_size=48, num_hidden_layers=2, num_attention_heads=4,
             intermediate_size=40, embedding_size=48, trigram_input=False, use_bottleneck=False,
             num_feedforward_networks=1, normalization_type="layer_norm",
             classifier_activation=False, tie_word_embeddings=False, num_labels=5,
             type_vocab_size=3, max_position_embeddings=128),
        dict(vocab_size=257, hidden_size=40, num_hidden_layers=2, num_attention_heads=2,
             intermediate_size=24, embedding_size=8, intra_bottleneck_size=16,
             use_bottleneck_attention=True, key_query_shared_bottleneck=False,
             num_feedforward_networks=2),
        dict(vocab_size=200, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
             intermediate_size=20, embedding_size=32, trigram_input=False,
             intra_bottleneck_size=16, true_hidden_size=8, num_feedforward_networks=3),
    ],
}
