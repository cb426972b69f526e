"""Encoder types of issue 10's enc4 list: rows of the BERT lineage (src/config/encoders/table_enc4.rs)
with RoCBert's glyph tables, RemBERT's narrow input and wide output embeddings, RoFormer's rotary
positions and embedding projection."""

import importlib.util
from pathlib import Path

FAMILIES = ["roc_bert", "rembert", "roformer", "gte", "nomic_bert", "jina_embeddings_v3", "esm", "xmod", "squeezebert", "convbert"]

_HEADS = ["ForMaskedLM", "ForCausalLM", "ForSequenceClassification", "ForTokenClassification",
          "ForQuestionAnswering", "ForMultipleChoice"]
EXTRA_CLASSES = {
    "roc_bert": ["RoCBert" + h for h in _HEADS + ["ForPreTraining"]],
    "rembert": ["RemBert" + h for h in _HEADS],
    "roformer": ["RoFormer" + h for h in _HEADS],
    "gte": ["GteForTokenClassification"],
    "nomic_bert": ["NomicBertForTokenClassification"],
    "jina_embeddings_v3": ["JinaEmbeddingsV3ForTokenClassification", "JinaEmbeddingsV3ForQuestionAnswering"],
    "esm": ["EsmForTokenClassification"],
    "xmod": ["Xmod" + h for h in _HEADS],
    "convbert": ["ConvBert" + h for h in ["ForTokenClassification", "ForQuestionAnswering",
                                            "ForMultipleChoice"]],
    "squeezebert": ["SqueezeBert" + h for h in ["ForTokenClassification", "ForQuestionAnswering",
                                                  "ForMultipleChoice"]],
}

_spec = importlib.util.spec_from_file_location("families_enc4_lineage", Path(__file__).with_name("encoders.py"))
_encoders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_encoders)
_LINEAGE = _encoders._LINEAGE

VARIATIONS = {
    "roc_bert": [dict(v, pronunciation_vocab_size=37, pronunciation_embed_dim=24, shape_vocab_size=55,
                      shape_embed_dim=16) for v in _LINEAGE] + [
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
             vocab_size=400, max_position_embeddings=32, pronunciation_vocab_size=20,
             pronunciation_embed_dim=12, shape_vocab_size=30, shape_embed_dim=8, concat_input=False),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=96,
             vocab_size=300, max_position_embeddings=32, pronunciation_vocab_size=20,
             pronunciation_embed_dim=12, shape_vocab_size=30, shape_embed_dim=8, enable_shape=False),
    ],
    "rembert": [dict(v, input_embedding_size=48, output_embedding_size=80) for v in _LINEAGE] + [
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
             vocab_size=400, max_position_embeddings=32, input_embedding_size=64,
             output_embedding_size=64, tie_word_embeddings=True),
    ],
    "roformer": _LINEAGE + [
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
             vocab_size=400, max_position_embeddings=32, embedding_size=40, tie_word_embeddings=False),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=96,
             vocab_size=300, max_position_embeddings=48, embedding_size=64, num_labels=3),
    ],
}
_ROTARY = _LINEAGE + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=400, max_position_embeddings=32, head_dim=24, num_labels=3),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=80,
         vocab_size=300, max_position_embeddings=48, type_vocab_size=0, tie_word_embeddings=False),
]
for _t in ["gte", "nomic_bert", "jina_embeddings_v3"]:
    VARIATIONS[_t] = _ROTARY
# EsmConfig has no vocabulary default: every variation gives one.
VARIATIONS["esm"] = [dict(v, vocab_size=v.get("vocab_size", 33), pad_token_id=1) for v in _LINEAGE] + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=33, max_position_embeddings=34, position_embedding_type="rotary",
         emb_layer_norm_before=True, pad_token_id=1, num_labels=3),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=80,
         vocab_size=40, max_position_embeddings=50, emb_layer_norm_before=False,
         tie_word_embeddings=False, pad_token_id=1),
]
VARIATIONS["xmod"] = _LINEAGE + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=400, max_position_embeddings=32, languages=["en_XX", "de_DE", "fr_XX"],
         adapter_reduction_factor=4, adapter_layer_norm=True, pre_norm=True),
    dict(hidden_size=60, num_hidden_layers=1, num_attention_heads=2, intermediate_size=80,
         vocab_size=300, max_position_embeddings=48, languages=["en_XX", "ta_IN"],
         adapter_reduction_factor=7, tie_word_embeddings=False, num_labels=3),
]
# SqueezeBertEncoder requires embedding_size to equal hidden_size.
VARIATIONS["squeezebert"] = [dict(v, embedding_size=v["hidden_size"], q_groups=2, k_groups=2, v_groups=2,
                                  intermediate_groups=2, output_groups=2) for v in _LINEAGE] + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=400, max_position_embeddings=32, embedding_size=64, q_groups=4, k_groups=8,
         v_groups=1, post_attention_groups=2, intermediate_groups=16, output_groups=32,
         tie_word_embeddings=False, num_labels=3),
]
# ConvBertConfig's embedding_size is 768 whatever the hidden size: the lineage's shapes give one.
VARIATIONS["convbert"] = [dict(v, embedding_size=v["hidden_size"]) for v in _LINEAGE] + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96,
         vocab_size=400, max_position_embeddings=32, embedding_size=40, head_ratio=2,
         conv_kernel_size=5, num_groups=2, num_labels=3),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=80,
         vocab_size=300, max_position_embeddings=48, embedding_size=64, head_ratio=4,
         conv_kernel_size=3, tie_word_embeddings=False),
]
