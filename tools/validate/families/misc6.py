"""One-of-a-kind types (helper "misc6", issue 10: src/config/reformer.rs, prophetnet.rs,
lxmert.rs, perceiver.rs; its XLNet and XLM variations check the readers of families/enc6.py's types). Reformer: LSH and local layers as attn_layers lists
them, axial or plain positions, both reversible halves in the final norm and heads. Variations are
small sizes unlike any published checkpoint."""

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

# ProphetNet: untied files give each stack its own table and the head its own matrix; the
# standalone encoder and decoder classes own their tables.
FAMILIES.append("prophetnet")
EXTRA_CLASSES["prophetnet"] = ["ProphetNetForCausalLM", "ProphetNetEncoder", "ProphetNetDecoder"]
VARIATIONS["prophetnet"] = [
    dict(vocab_size=500, hidden_size=64, encoder_ffn_dim=96, decoder_ffn_dim=128, num_encoder_layers=2,
         num_decoder_layers=3, num_encoder_attention_heads=4, num_decoder_attention_heads=2,
         max_position_embeddings=80, ngram=3, num_buckets=16),
    dict(vocab_size=300, hidden_size=48, encoder_ffn_dim=60, decoder_ffn_dim=70, num_encoder_layers=1,
         num_decoder_layers=2, num_encoder_attention_heads=3, num_decoder_attention_heads=6,
         max_position_embeddings=64, tie_word_embeddings=False),
    dict(vocab_size=257, hidden_size=40, encoder_ffn_dim=72, decoder_ffn_dim=50, num_encoder_layers=3,
         num_decoder_layers=1, num_encoder_attention_heads=2, num_decoder_attention_heads=4,
         max_position_embeddings=48, add_cross_attention=False, ngram=1, num_buckets=8),
    dict(vocab_size=211, hidden_size=32, encoder_ffn_dim=40, decoder_ffn_dim=44, num_encoder_layers=2,
         num_decoder_layers=2, num_encoder_attention_heads=2, num_decoder_attention_heads=2,
         max_position_embeddings=40, add_cross_attention=False, tie_word_embeddings=False),
]

# XLNet: bare relative-attention parameters per layer; heads through sequence_summary (its
# projection to hidden, to num_labels, or none) or SQuAD 2.0's poolers.
FAMILIES.append("xlnet")
EXTRA_CLASSES["xlnet"] = ["XLNetForTokenClassification", "XLNetForMultipleChoice",
                          "XLNetForQuestionAnsweringSimple", "XLNetForQuestionAnswering"]
VARIATIONS["xlnet"] = [
    dict(vocab_size=500, d_model=64, n_layer=3, n_head=4, d_inner=96),
    dict(vocab_size=300, d_model=48, n_layer=2, n_head=6, d_inner=70, tie_word_embeddings=False,
         num_labels=5, summary_proj_to_labels=True),
    dict(vocab_size=257, d_model=40, n_layer=1, n_head=2, d_inner=72, summary_use_proj=False,
         mem_len=None, num_labels=3),
]

# XLM: language embeddings only with n_langs > 1 and use_lang_emb; the summary projects to
# num_labels by default; multiple choice's logits_proj reads num_labels.
FAMILIES.append("xlm")
EXTRA_CLASSES["xlm"] = ["XLMForTokenClassification", "XLMForMultipleChoice",
                        "XLMForQuestionAnsweringSimple", "XLMForQuestionAnswering"]
VARIATIONS["xlm"] = [
    dict(vocab_size=500, emb_dim=64, n_layers=3, n_heads=4, n_langs=5, max_position_embeddings=80),
    dict(vocab_size=300, emb_dim=48, n_layers=2, n_heads=6, n_langs=3, use_lang_emb=False,
         tie_word_embeddings=False, num_labels=5, summary_proj_to_labels=False),
    dict(vocab_size=257, emb_dim=40, n_layers=1, n_heads=2, summary_use_proj=False, num_labels=3,
         max_position_embeddings=48, sinusoidal_embeddings=True),
]

# LXMERT: three stacks (language, objects, cross-modality); the pre-training class's heads follow
# the task_* and visual_*_loss switches.
FAMILIES.append("lxmert")
EXTRA_CLASSES["lxmert"] = ["LxmertForPreTraining", "LxmertForQuestionAnswering"]
VARIATIONS["lxmert"] = [
    dict(vocab_size=500, hidden_size=64, num_attention_heads=4, intermediate_size=96, l_layers=2,
         x_layers=1, r_layers=3, visual_feat_dim=40, visual_pos_dim=6, num_qa_labels=17,
         num_object_labels=23, num_attr_labels=11),
    dict(vocab_size=300, hidden_size=48, num_attention_heads=6, intermediate_size=70, l_layers=1,
         x_layers=2, r_layers=1, visual_feat_dim=30, num_qa_labels=9, task_obj_predict=False,
         tie_word_embeddings=False, max_position_embeddings=64, type_vocab_size=3),
    dict(vocab_size=257, hidden_size=40, num_attention_heads=2, intermediate_size=72, l_layers=3,
         x_layers=1, r_layers=2, visual_feat_dim=24, num_object_labels=5, visual_attr_loss=False,
         visual_feat_loss=False, task_qa=False),
]

# Perceiver IO's text classes: latents, one encoder cross-attention, self-attention layers shared
# across blocks, the masked-LM decoder (8 heads x 32) or the one-query classifier decoder.
FAMILIES.append("perceiver")
EXTRA_CLASSES["perceiver"] = ["PerceiverForSequenceClassification"]
VARIATIONS["perceiver"] = [
    dict(num_latents=16, d_latents=48, d_model=32, num_blocks=2, num_self_attends_per_block=3,
         num_self_attention_heads=4, num_cross_attention_heads=2, vocab_size=100,
         max_position_embeddings=64),
    dict(num_latents=8, d_latents=64, d_model=40, num_self_attends_per_block=2,
         num_self_attention_heads=2, num_cross_attention_heads=1, qk_channels=32, v_channels=64,
         self_attention_widening_factor=2, cross_attention_widening_factor=3, vocab_size=77,
         max_position_embeddings=48, num_labels=5),
    dict(num_latents=12, d_latents=32, d_model=48, num_self_attends_per_block=1,
         num_self_attention_heads=4, num_cross_attention_heads=4,
         cross_attention_shape_for_attention="q", vocab_size=262, max_position_embeddings=40),
]
