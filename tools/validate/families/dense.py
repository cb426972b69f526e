"""Dense decoder types (src/config/spec_llama_like.rs), for validate_params.py."""

FAMILIES = [
    "internlm3", "exaone", "iquestcoder", "cwm", "helium", "apertus", "hunyuan_v1_dense", "nemotron",
    "jais2", "hyperclovax", "granite_swa", "olmo", "stablelm", "nanochat", "bitnet", "diffllama",
    "vaultgemma",
]

_LLAMA_CLASSES = ["LlamaForSequenceClassification", "LlamaForTokenClassification"]
EXTRA_CLASSES = {t: _LLAMA_CLASSES for t in ("internlm3", "exaone", "iquestcoder")}
EXTRA_CLASSES.update({t: [c] for t, c in (
    ("apertus", "ApertusForTokenClassification"), ("helium", "HeliumForTokenClassification"),
    ("nemotron", "NemotronForTokenClassification"), ("stablelm", "StableLmForTokenClassification"),
    ("diffllama", "DiffLlamaForTokenClassification"))})

# Layers, widths, heads over fewer KV heads, an explicit head_dim, tied and untied, labels.
_KEYS = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
         "num_key_value_heads", "vocab_size")
_SIZES = [dict(zip(_KEYS, sizes), **more) for sizes, more in (
    ((128, 344, 2, 4, 4, 1000), {}),
    ((128, 256, 3, 8, 2, 777), dict(tie_word_embeddings=True)),
    ((96, 200, 1, 6, 3, 501), dict(head_dim=32, tie_word_embeddings=False)),
    ((64, 128, 2, 4, 1, 300), dict(num_labels=5)),
)]
# Without head_dim, for classes that compute it from hidden / heads.
_NO_HEAD_DIM = [{k: v for k, v in d.items() if k != "head_dim"} for d in _SIZES]


def _with(sizes, **kw):
    return [dict(v, **kw) for v in sizes]


_SMALL = dict(hidden_size=96, intermediate_size=160, num_hidden_layers=3, num_attention_heads=3,
              num_key_value_heads=1, vocab_size=640)

VARIATIONS = {
    "internlm3": _with(_SIZES, pad_token_id=0) + [dict(_SMALL, pad_token_id=0, qkv_bias=True, bias=True)],
    "exaone": _with(_SIZES, pad_token_id=0) + [
        dict(_SMALL, pad_token_id=0, attention_bias=True, mlp_bias=True, num_layers=5)],
    "iquestcoder": _SIZES + [dict(_SMALL, attention_bias=True, mlp_bias=True)],
    "cwm": _SIZES + [dict(_SMALL, mlp_bias=True, num_hidden_layers=6, sliding_window=32)],
    "helium": _with(_SIZES, pad_token_id=0) + [
        dict(_SMALL, pad_token_id=0, attention_bias=True, mlp_bias=True, head_dim=40)],
    "apertus": _with(_NO_HEAD_DIM, pad_token_id=0) + [
        dict(_SMALL, pad_token_id=0, attention_bias=True, hidden_act="silu")],
    # HunYuanDenseV1Config leaves head_dim None, which its attention cannot build (None ** -0.5):
    # the default rows fail on transformers' side, the variations set it.
    "hunyuan_v1_dense": [dict(v, pad_token_id=0, head_dim=v["hidden_size"] // v["num_attention_heads"])
                         for v in _SIZES[:2] + _SIZES[3:]] + [
        dict(_SIZES[2], pad_token_id=0), dict(_SMALL, pad_token_id=0, attention_bias=True, head_dim=48)],
    # NemotronConfig leaves num_key_value_heads None, which its attention cannot build (heads //
    # None): the default rows fail on transformers' side, the variations set it.
    "nemotron": _SIZES + [dict(_SMALL, attention_bias=True, mlp_bias=True)],
    "jais2": _SIZES + [dict(_SMALL, attention_bias=False, mlp_bias=False)],
    "hyperclovax": _SIZES + [dict(_SMALL, use_post_norm=False, attention_bias=True, mlp_bias=True)],
    "granite_swa": _SIZES + [dict(_SMALL, num_hidden_layers=6, sliding_window=16, tie_word_embeddings=False)],
    "olmo": _with(_NO_HEAD_DIM, pad_token_id=0) + [dict(_SMALL, pad_token_id=0, attention_bias=True)],
    "stablelm": _NO_HEAD_DIM + [
        dict(_SMALL, use_qkv_bias=True, qk_layernorm=True, use_parallel_residual=True),
        dict(_SMALL, num_key_value_heads=3, qk_layernorm=True, tie_word_embeddings=True)],
    "nanochat": _with(_NO_HEAD_DIM, pad_token_id=0) + [dict(_SMALL, pad_token_id=0, attention_bias=True)],
    "bitnet": _SIZES + [dict(_SMALL, attention_bias=True)],
    # Differential attention splits the values over KV heads: an even count, at least 2.
    "diffllama": _SIZES[:2] + [dict(_SIZES[2], num_attention_heads=4, num_key_value_heads=2),
                               dict(_SIZES[3], num_key_value_heads=2),
                               dict(_SMALL, num_attention_heads=4, num_key_value_heads=4, attention_bias=True)],
    "vaultgemma": _with(_SIZES, pad_token_id=0) + [
        dict(_SMALL, pad_token_id=0, attention_bias=True, num_hidden_layers=5)],
}
