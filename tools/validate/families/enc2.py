"""Encoder types of issue 10's enc2 list: DeBERTa v1 (the DeBERTa-v2 builder's `Version::V1`) and
rows of the BERT lineage (src/config/encoders.rs)."""

import importlib.util
from pathlib import Path

FAMILIES = ["deberta", "longformer", "big_bird"]

EXTRA_CLASSES = {
    "deberta": ["DebertaForTokenClassification", "DebertaForQuestionAnswering"],
    "longformer": ["LongformerForTokenClassification", "LongformerForQuestionAnswering",
                   "LongformerForMultipleChoice"],
    "big_bird": ["BigBirdForCausalLM", "BigBirdForPreTraining", "BigBirdForTokenClassification",
                 "BigBirdForQuestionAnswering", "BigBirdForMultipleChoice"],
}

# Sizes unlike any published checkpoint. DeBERTa: relative attention with each pos_att_type,
# buckets it does not read, an embedding width apart from the hidden size, talking heads,
# token types, the non-legacy masked-LM head untied.
VARIATIONS = {
    "deberta": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
             vocab_size=1000, max_position_embeddings=128),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             vocab_size=777, max_position_embeddings=66, relative_attention=True,
             pos_att_type=["c2p", "p2c"], type_vocab_size=2, num_labels=5),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
             vocab_size=501, max_position_embeddings=40, relative_attention=True,
             max_relative_positions=17, pos_att_type="p2c", position_biased_input=False,
             position_buckets=8, tie_word_embeddings=False),
        dict(hidden_size=80, num_hidden_layers=2, num_attention_heads=4, intermediate_size=160,
             vocab_size=600, max_position_embeddings=50, relative_attention=True,
             pos_att_type=["c2p"], talking_head=True, embedding_size=48, pooler_hidden_size=80),
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=2, intermediate_size=96,
             vocab_size=400, max_position_embeddings=32, legacy=False, tie_word_embeddings=False),
    ],
}

# The BERT lineage's small shapes, shared with encoders.py.
_spec = importlib.util.spec_from_file_location("families_enc2_lineage", Path(__file__).with_name("encoders.py"))
_encoders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_encoders)
_LINEAGE = _encoders._LINEAGE
# LongformerModel requires one attention window per layer (or one even size for all).
VARIATIONS["longformer"] = [dict(v, attention_window=16) for v in _LINEAGE]
VARIATIONS["big_bird"] = _LINEAGE + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=400, max_position_embeddings=64, use_bias=False, num_labels=3,
         attention_type="original_full"),
]
