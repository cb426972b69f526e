"""Encoder types of issue 10's enc6 list: FNet, Splinter and TAPAS (rows of the BERT lineage,
src/config/encoders/table_enc6.rs) and OpenAI's privacy filter (a bidirectional gpt-oss,
src/config/spec_enc6.rs)."""

FAMILIES = ["fnet", "splinter", "tapas"]

EXTRA_CLASSES = {
    "fnet": ["FNet" + h for h in ["ForPreTraining", "ForNextSentencePrediction", "ForMultipleChoice",
                                  "ForTokenClassification", "ForQuestionAnswering"]],
    "splinter": ["SplinterForQuestionAnswering", "SplinterForPreTraining"],
    "tapas": ["TapasForQuestionAnswering"],
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
