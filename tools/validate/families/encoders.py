"""Encoder types of the BERT lineage described in src/config/encoders.rs."""

_HEADS = ["ForCausalLM", "ForTokenClassification", "ForQuestionAnswering", "ForMultipleChoice"]
_BERT_HEADS = _HEADS + ["ForPreTraining", "ForNextSentencePrediction"]

_PREFIXES = {
    "camembert": ("Camembert", _HEADS),
    "data2vec-text": ("Data2VecText", _HEADS),
    "roberta-prelayernorm": ("RobertaPreLayerNorm", _HEADS),
    "xlm-roberta-xl": ("XLMRobertaXL", _HEADS),
    "ernie": ("Ernie", _BERT_HEADS),
    "megatron-bert": ("MegatronBert", _BERT_HEADS),
}

FAMILIES = list(_PREFIXES)

EXTRA_CLASSES = {t: [p + h for h in heads] for t, (p, heads) in _PREFIXES.items()}

# Sizes unlike any published checkpoint: layers, widths, heads, untied heads, label counts,
# token types; ERNIE's task-type table on and off.
_LINEAGE = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         vocab_size=1000, max_position_embeddings=128),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=777, max_position_embeddings=66, type_vocab_size=1, tie_word_embeddings=False),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=501, max_position_embeddings=40, type_vocab_size=3, num_labels=5),
]

VARIATIONS = {t: _LINEAGE for t in _PREFIXES}
VARIATIONS["ernie"] = _LINEAGE + [
    dict(hidden_size=80, num_hidden_layers=2, num_attention_heads=4, intermediate_size=160,
         vocab_size=600, max_position_embeddings=50, use_task_id=True, task_type_vocab_size=5,
         num_labels=4, tie_word_embeddings=False),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=96,
         vocab_size=400, max_position_embeddings=32, use_task_id=True),
]

_MORE = {
    "ibert": ("IBert", ["ForTokenClassification", "ForQuestionAnswering", "ForMultipleChoice"]),
    "layoutlm": ("LayoutLM", ["ForTokenClassification", "ForQuestionAnswering"]),
}
FAMILIES += list(_MORE)
EXTRA_CLASSES.update({t: [p + h for h in heads] for t, (p, heads) in _MORE.items()})
VARIATIONS.update({t: _LINEAGE for t in _MORE})
VARIATIONS["layoutlm"] = _LINEAGE + [
    dict(hidden_size=48, num_hidden_layers=2, num_attention_heads=3, intermediate_size=90,
         vocab_size=321, max_position_embeddings=30, max_2d_position_embeddings=77,
         tie_word_embeddings=False, num_labels=4),
]

_YOSO = {
    "yoso": "Yoso",
    "mra": "Mra",
    "nystromformer": "Nystromformer",
}
FAMILIES += list(_YOSO)
EXTRA_CLASSES.update({t: [p + h for h in ("ForTokenClassification", "ForQuestionAnswering",
                                           "ForMultipleChoice")] for t, p in _YOSO.items()})
VARIATIONS.update({t: _LINEAGE for t in _YOSO})
VARIATIONS["yoso"] = _LINEAGE + [
    dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
         vocab_size=500, max_position_embeddings=64, conv_window=5, num_labels=3),
]
# NystromformerConfig (5.24) refuses conv_kernel_size=None, which older releases read as "no
# convolution"; the planner follows the older reading, which this table cannot check.
VARIATIONS["nystromformer"] = [dict(v, conv_kernel_size=9) for v in _LINEAGE[:2]] + _LINEAGE[2:]
