"""Encoder types of issue 10's enc6 list: FNet, Splinter and TAPAS (rows of the BERT lineage,
src/config/encoders/table_enc6.rs) and OpenAI's privacy filter (a bidirectional gpt-oss,
src/config/spec_enc6.rs)."""

FAMILIES = ["fnet", "splinter", "tapas", "openai_privacy_filter", "funnel", "luke", "xlm", "flaubert", "xlnet"]

EXTRA_CLASSES = {
    "fnet": ["FNet" + h for h in ["ForPreTraining", "ForNextSentencePrediction", "ForMultipleChoice",
                                  "ForTokenClassification", "ForQuestionAnswering"]],
    "splinter": ["SplinterForQuestionAnswering", "SplinterForPreTraining"],
    "tapas": ["TapasForQuestionAnswering"],
    "openai_privacy_filter": ["OpenAIPrivacyFilterForTokenClassification"],
    "luke": ["Luke" + h for h in ["ForEntityClassification", "ForEntityPairClassification",
                                  "ForEntitySpanClassification", "ForTokenClassification",
                                  "ForQuestionAnswering", "ForMultipleChoice"]],
    "xlm": ["XLM" + h for h in ["ForMultipleChoice", "ForTokenClassification",
                                "ForQuestionAnsweringSimple", "ForQuestionAnswering"]],
    "flaubert": ["Flaubert" + h for h in ["ForMultipleChoice", "ForTokenClassification",
                                          "ForQuestionAnsweringSimple", "ForQuestionAnswering"]],
    "xlnet": ["XLNet" + h for h in ["ForMultipleChoice", "ForTokenClassification",
                                    "ForQuestionAnsweringSimple", "ForQuestionAnswering"]],
    "funnel": ["FunnelBaseModel"] + ["Funnel" + h for h in [
        "ForPreTraining", "ForMultipleChoice", "ForTokenClassification", "ForQuestionAnswering"]],
}

# FNetConfig reads no heads key: the widths need not divide by anything.
VARIATIONS = {
    "fnet": [
        dict(hidden_size=128, num_hidden_layers=2, intermediate_size=512, vocab_size=1000,
             max_position_embeddings=128),
        dict(hidden_size=90, num_hidden_layers=3, intermediate_size=200, vocab_size=777,
             max_position_embeddings=66, type_vocab_size=1, tie_word_embeddings=False),
        dict(hidden_size=64, num_hidden_layers=1, intermediate_size=100, vocab_size=501,
             max_position_embeddings=40, type_vocab_size=3, num_labels=5, hidden_act="gelu"),
    ],
    "splinter": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
             vocab_size=1000, max_position_embeddings=128),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             vocab_size=777, max_position_embeddings=66, type_vocab_size=1),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
             vocab_size=501, max_position_embeddings=40, type_vocab_size=3, num_labels=5),
    ],
    "tapas": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
             vocab_size=1000, max_position_embeddings=128),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             vocab_size=777, max_position_embeddings=66, type_vocab_sizes=[2, 5, 7],
             num_aggregation_labels=4, tie_word_embeddings=False),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
             vocab_size=501, max_position_embeddings=40, type_vocab_sizes=[3, 9, 9, 2, 11, 11, 4, 6],
             num_aggregation_labels=1, num_labels=5),
    ],
}

# Heads need not divide hidden (head_dim is the class's own); the classifier's 33 labels by default.
VARIATIONS["openai_privacy_filter"] = [
    dict(vocab_size=1000, hidden_size=96, intermediate_size=64, num_hidden_layers=2,
         num_attention_heads=6, num_key_value_heads=2, head_dim=24, num_local_experts=8,
         num_experts_per_tok=2, pad_token_id=0),
    dict(vocab_size=777, hidden_size=80, intermediate_size=48, num_hidden_layers=3,
         num_attention_heads=7, num_key_value_heads=1, head_dim=16, num_local_experts=5,
         num_experts_per_tok=1, num_labels=5, attention_bias=False, sliding_window=16, pad_token_id=1),
    dict(vocab_size=501, hidden_size=64, intermediate_size=32, num_hidden_layers=1,
         num_attention_heads=4, num_key_value_heads=4, head_dim=8, num_experts=3,
         num_experts_per_tok=2, id2label={0: "O", 1: "x", 2: "y"}, pad_token_id=0),
]

# d_head x n_head need not be d_model; the base model and the pooled heads build no decoder.
VARIATIONS["funnel"] = [
    dict(vocab_size=1000, d_model=64, n_head=4, d_head=16, d_inner=96, block_sizes=[2, 1, 1],
         num_decoder_layers=1),
    dict(vocab_size=777, hidden_size=48, num_attention_heads=3, d_head=20, d_inner=80,
         block_sizes=[1, 2], num_decoder_layers=3, tie_word_embeddings=False, num_labels=5,
         separate_cls=False),
    dict(vocab_size=501, d_model=40, n_head=2, d_head=8, d_inner=60, block_sizes=[3],
         num_decoder_layers=0, truncate_seq=False),
]

VARIATIONS["luke"] = [
    dict(vocab_size=1000, entity_vocab_size=300, entity_emb_size=32, hidden_size=64,
         num_hidden_layers=2, num_attention_heads=4, intermediate_size=96, max_position_embeddings=40),
    dict(vocab_size=777, entity_vocab_size=50, entity_emb_size=48, hidden_size=48,
         num_hidden_layers=1, num_attention_heads=3, intermediate_size=80, max_position_embeddings=34,
         use_entity_aware_attention=False, tie_word_embeddings=False, num_labels=5, type_vocab_size=3),
    dict(vocab_size=501, entity_vocab_size=20, entity_emb_size=16, hidden_size=32,
         num_hidden_layers=1, num_attention_heads=2, intermediate_size=40, max_position_embeddings=30,
         type_vocab_size=1, tie_word_embeddings=False),
]

# n_langs > 1 adds the language table; the adaptive softmax needs cutoffs the classes never default.
_XLM = [
    dict(vocab_size=1000, emb_dim=64, n_layers=2, n_heads=4, max_position_embeddings=40, n_langs=3),
    dict(vocab_size=777, emb_dim=48, n_layers=1, n_heads=3, max_position_embeddings=34, n_langs=5,
         use_lang_emb=False, tie_word_embeddings=False, num_labels=5, summary_proj_to_labels=False),
    dict(vocab_size=501, emb_dim=32, n_layers=1, n_heads=2, max_position_embeddings=30, asm=True,
         asm_cutoffs=[100, 300], asm_div_value=4.0, sinusoidal_embeddings=True, summary_use_proj=False,
         gelu_activation=False),
]
VARIATIONS["xlm"] = _XLM
VARIATIONS["flaubert"] = [dict(v, pre_norm=True, layerdrop=0.1) if i == 0 else v for i, v in enumerate(_XLM)]

VARIATIONS["xlnet"] = [
    dict(vocab_size=1000, d_model=64, n_layer=2, n_head=4, d_inner=96),
    dict(vocab_size=777, d_model=48, n_layer=1, n_head=3, d_inner=80, tie_word_embeddings=False,
         num_labels=5, summary_use_proj=False, ff_activation="relu"),
    dict(vocab_size=501, d_model=32, n_layer=1, n_head=2, d_inner=40, num_labels=3,
         summary_proj_to_labels=True),
]
