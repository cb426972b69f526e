#!/usr/bin/env python3
"""Check modelatlas's parameter counts against what Hugging Face transformers itself builds.

For every row, one config.json file on disk is read by both sides:

- transformers: `AutoConfig.from_pretrained(<file>)`, then the class in `architectures[0]` (the
  family's base model class when the file names none) is built on the meta device (no memory is
  allocated, no weights are downloaded), `tie_weights()` is called as `from_pretrained` would, and
  the count is `sum(p.numel() for p in model.parameters())`, which counts a tied tensor once;
- modelatlas: `<binary> plan <file> --format json`, field `params.derived` (`supported: false`
  reads "unsupported").

Rows:

- (a) every `hub/models--*/snapshots/*/config.json` in the repo, plus the two reference configs in
  ../shared/reference/models/ (meta-llama--Llama-2-70b-hf, meta-llama--Llama-3.1-8B), read in
  place and never copied into the repo;
- (b) transformers' default config (`CONFIG_MAPPING[model_type]()`) of each model_type in
  FAMILIES, for the base class, the usual head class and ForSequenceClassification (plus a few
  more classes for the families modelatlas plans), written twice: "default" as
  `save_pretrained` writes it (`to_json_string(use_diff=True)`: every field of the config class),
  and "default (sparse)" as only `model_type` and `architectures`, so that modelatlas's own
  defaults are checked too;
- (c) a fixed, hand-written list of small variations per family (layer counts, hidden sizes with
  heads that divide them, KV heads, vocab sizes, tied and untied embeddings, family switches such
  as MoE layouts or relative positions), built the same way as "default". No randomness: the same
  transformers version gives the same rows.

The report (`tools/validate/params_report.md` by default) is a table
`model_type | class | source | transformers | modelatlas | match`, where match is `yes`, `NO`
(with the difference, modelatlas - transformers, or the class modelatlas planned instead),
`unsupported` (modelatlas does not plan that model_type), or `error: <message>` (either side
failed). The exit status is 1 when any supported row mismatches or errors, else 0.

Setup (what worked on the project's machine, Python 3.11, x86_64 Linux, no GPU):

    python3 -m venv tools/.venv
    tools/.venv/bin/pip install -r tools/validate/requirements.txt

`pip install torch --no-deps` plus the pure-python deps (filelock, typing-extensions, sympy,
networkx, jinja2, fsspec) does NOT work with the PyPI wheel (torch 2.15.0): `import torch` fails
with "ValueError: libcublasLt.so.*[0-9] not found in the system path", because libtorch_cuda.so is
linked against the CUDA libraries that ship as separate nvidia-* / cuda-toolkit wheels. So torch is
installed normally, with its CUDA dependencies (they are only loaded, never used: everything runs
on the meta device). requirements.txt pins what was installed.

Run (from the repo root, after `cargo build --release`):

    tools/.venv/bin/python tools/validate/validate_params.py \
        [--binary target/release/modelatlas] [--report tools/validate/params_report.md] \
        [--reference /work/shared/reference/models] [--only MODEL_TYPE ...] [--keep-configs DIR]

`--census` classifies every model type of the installed transformers by kind and writes a report
with a summary table per kind first (tools/validate/census.py says how).

`--keep-configs DIR` keeps the generated config files (named by row) so that a mismatching row can
be re-run by hand: `modelatlas plan DIR/<file> --format json`.

This script is not run by CI: CI never depends on torch.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[2]
DEFAULT_REFERENCE = REPO.parent / "shared" / "reference" / "models"
REFERENCE_CONFIGS = ["meta-llama--Llama-2-70b-hf", "meta-llama--Llama-3.1-8B"]

# Every family modelatlas plans or is about to plan, in the order of the project's list.
FAMILIES = [
    "gpt2", "gpt_neox", "opt", "bloom", "falcon", "llama", "mistral", "mixtral", "qwen2",
    "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3_text", "phi", "phi3",
    "deepseek_v2", "deepseek_v3", "t5", "mt5", "umt5", "bart", "whisper", "distilbert", "albert",
    "electra", "deberta-v2", "mpnet", "vit", "bert", "roberta", "xlm-roberta",
    # Types added as descriptions (src/config/types.rs).
    "granite", "olmo2", "olmo3", "seed_oss", "smollm3", "ministral", "starcoder2",
    # Types described as tables (src/config/spec_dense.rs, spec_moe.rs).
    "gpt_oss", "glm4_moe", "phimoe", "olmoe", "llama4_text", "ernie4_5_moe", "cohere", "cohere2",
    "glm", "glm4", "exaone4", "ernie4_5", "arcee", "gpt_bigcode",
    "minimax_m2", "granitemoe",
    # Known and not planned yet (its page says why): rows read "unsupported".
    "qwen3_next",
    # State-space models (src/config/ssm.rs) and vision-language wrappers
    # (src/config/composite.rs).
    "mamba", "falcon_mamba", "mamba2", "jamba", "gemma3", "llava", "llava_next", "paligemma", "mistral3",
]

# Classes beyond base / usual head / ForSequenceClassification, for the families modelatlas
# already plans (every head it knows) and for heads the snapshot's checkpoints use.
EXTRA_CLASSES = {
    "bert": ["BertLMHeadModel", "BertForPreTraining", "BertForNextSentencePrediction",
             "BertForTokenClassification", "BertForQuestionAnswering", "BertForMultipleChoice"],
    "roberta": ["RobertaForCausalLM", "RobertaForTokenClassification",
                "RobertaForQuestionAnswering", "RobertaForMultipleChoice"],
    "xlm-roberta": ["XLMRobertaForCausalLM", "XLMRobertaForTokenClassification",
                    "XLMRobertaForQuestionAnswering", "XLMRobertaForMultipleChoice"],
    "albert": ["AlbertForPreTraining"],
    "electra": ["ElectraForPreTraining"],
    "t5": ["T5EncoderModel"],
    "mt5": ["MT5EncoderModel"],
    "umt5": ["UMT5EncoderModel"],
    "vit": ["ViTForMaskedImageModeling"],
    "seed_oss": ["SeedOssForTokenClassification", "SeedOssForQuestionAnswering"],
    "smollm3": ["SmolLM3ForTokenClassification", "SmolLM3ForQuestionAnswering"],
    "ministral": ["MinistralForTokenClassification", "MinistralForQuestionAnswering"],
    "starcoder2": ["Starcoder2ForTokenClassification"],
    "gpt_oss": ["GptOssForTokenClassification"],
    "glm": ["GlmForTokenClassification"],
    "glm4": ["Glm4ForTokenClassification"],
    "exaone4": ["Exaone4ForTokenClassification"],
    "arcee": ["ArceeForTokenClassification"],
    "gpt_bigcode": ["GPTBigCodeForTokenClassification"],
    "gemma3": ["Gemma3ForConditionalGeneration"],
    "llava": ["LlavaForConditionalGeneration"],
    "llava_next": ["LlavaNextForConditionalGeneration"],
    "paligemma": ["PaliGemmaForConditionalGeneration"],
    "mistral3": ["Mistral3ForConditionalGeneration"],
}

# Small variations, applied as keyword arguments to the family's config class. Each is built for
# every class of the family. Sizes are chosen to be unlike any published checkpoint.
_BERT_VARIATIONS = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
         vocab_size=1000, max_position_embeddings=128),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
         vocab_size=777, max_position_embeddings=66, type_vocab_size=1, tie_word_embeddings=False),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=8, intermediate_size=100,
         vocab_size=501, max_position_embeddings=40, position_embedding_type="relative_key",
         num_labels=5),
    dict(hidden_size=160, num_hidden_layers=2, num_attention_heads=5, intermediate_size=320,
         vocab_size=1234, max_position_embeddings=72, type_vocab_size=3,
         position_embedding_type="relative_key_query", num_labels=3, tie_word_embeddings=False),
]
_LLAMA_LIKE = [
    dict(hidden_size=128, intermediate_size=344, num_hidden_layers=2, num_attention_heads=4,
         num_key_value_heads=4, vocab_size=1000),
    dict(hidden_size=128, intermediate_size=256, num_hidden_layers=3, num_attention_heads=8,
         num_key_value_heads=2, vocab_size=777, tie_word_embeddings=True),
    dict(hidden_size=96, intermediate_size=200, num_hidden_layers=1, num_attention_heads=6,
         num_key_value_heads=3, head_dim=32, vocab_size=501, tie_word_embeddings=False),
    dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
         num_key_value_heads=1, vocab_size=300, num_labels=5),
]
_T5_LIKE = [
    dict(d_model=128, d_kv=32, d_ff=256, num_layers=2, num_heads=4, vocab_size=1000),
    dict(d_model=96, d_kv=16, d_ff=200, num_layers=3, num_decoder_layers=1, num_heads=6,
         vocab_size=777, feed_forward_proj="gated-gelu", tie_word_embeddings=False),
    dict(d_model=64, d_kv=8, d_ff=128, num_layers=1, num_decoder_layers=2, num_heads=4,
         vocab_size=501, feed_forward_proj="relu", relative_attention_num_buckets=16,
         tie_word_embeddings=True, num_labels=5),
]
_GEMMA_LIKE = [
    dict(hidden_size=128, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
         num_key_value_heads=1, head_dim=32, vocab_size=1000),
    dict(hidden_size=96, intermediate_size=300, num_hidden_layers=3, num_attention_heads=3,
         num_key_value_heads=3, head_dim=64, vocab_size=777),
    dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4,
         num_key_value_heads=2, head_dim=16, vocab_size=501, tie_word_embeddings=False,
         num_labels=5),
]

_MAMBA_LIKE = [
    dict(hidden_size=128, num_hidden_layers=2, state_size=8, vocab_size=1000),
    dict(hidden_size=96, num_hidden_layers=3, expand=3, conv_kernel=3, use_bias=True,
         use_conv_bias=False, time_step_rank=7, tie_word_embeddings=False, vocab_size=777),
    dict(hidden_size=64, num_hidden_layers=1, state_size=4, vocab_size=501, time_step_rank="auto"),
    # A published intermediate_size wins over expand x hidden (tiiuae/falcon-mamba-7b: 16 and 8192).
    dict(hidden_size=64, num_hidden_layers=2, expand=16, intermediate_size=96, vocab_size=300),
]
_SMALL_TEXT = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                   num_attention_heads=4, num_key_value_heads=2, head_dim=32, vocab_size=1000)
_SIGLIP = dict(model_type="siglip_vision_model", hidden_size=64, intermediate_size=128,
               num_hidden_layers=2, num_attention_heads=4, image_size=64, patch_size=8)
_CLIP = dict(_SIGLIP, model_type="clip_vision_model", image_size=56, patch_size=14)
_PIXTRAL = dict(model_type="pixtral", hidden_size=64, intermediate_size=160, num_hidden_layers=3,
                num_attention_heads=4, head_dim=16, image_size=112, patch_size=14)
VARIATIONS: dict[str, list[dict]] = {
    "mamba": _MAMBA_LIKE,
    "falcon_mamba": _MAMBA_LIKE,
    "mamba2": [
        dict(hidden_size=128, num_heads=8, head_dim=32, n_groups=2, state_size=16,
             num_hidden_layers=2, vocab_size=1000),
        dict(hidden_size=96, expand=1, num_heads=6, head_dim=16, n_groups=1, state_size=8,
             conv_kernel=3, use_bias=True, use_conv_bias=False, tie_word_embeddings=True,
             num_hidden_layers=3, vocab_size=777),
    ],
    "jamba": [
        dict(hidden_size=128, intermediate_size=256, num_hidden_layers=4, num_attention_heads=4,
             num_key_value_heads=2, num_experts=4, num_experts_per_tok=2, vocab_size=1000,
             attn_layer_period=2, attn_layer_offset=1, expert_layer_period=2,
             expert_layer_offset=0, mamba_d_state=8),
        dict(hidden_size=96, intermediate_size=200, num_hidden_layers=5, num_attention_heads=6,
             num_key_value_heads=3, num_experts=1, vocab_size=777, mamba_expand=3,
             mamba_d_conv=3, mamba_dt_rank=5, mamba_conv_bias=False, mamba_proj_bias=True,
             tie_word_embeddings=True, attn_layer_period=3, attn_layer_offset=2, num_labels=5),
    ],
    "gemma3": [
        dict(text_config=_SMALL_TEXT, vision_config=dict(_SIGLIP, vision_use_head=False),
             mm_tokens_per_image=16),
        dict(text_config=dict(_SMALL_TEXT, num_hidden_layers=7), vision_config=_SIGLIP,
             tie_word_embeddings=False, mm_tokens_per_image=4),
    ],
    "llava": [
        dict(text_config=dict(_SMALL_TEXT, model_type="llama"), vision_config=_CLIP),
        dict(text_config=dict(_SMALL_TEXT, model_type="mistral", tie_word_embeddings=True),
             vision_config=dict(_CLIP, hidden_size=96, num_hidden_layers=3),
             vision_feature_layer=[-2, -1], multimodal_projector_bias=False, image_seq_length=16),
        dict(text_config=dict(_SMALL_TEXT, model_type="qwen2"),
             vision_config=dict(_SIGLIP, vision_use_head=False)),
    ],
    "llava_next": [
        dict(text_config=dict(_SMALL_TEXT, model_type="llama"), vision_config=_CLIP),
        dict(text_config=dict(_SMALL_TEXT, model_type="qwen2"), vision_config=_CLIP,
             vision_feature_layer=[-2, -1], multimodal_projector_bias=False,
             tie_word_embeddings=True),
    ],
    "paligemma": [
        dict(text_config=dict(_SMALL_TEXT, model_type="gemma"), vision_config=_SIGLIP,
             projection_dim=128),
        dict(text_config=dict(_SMALL_TEXT, model_type="gemma2"),
             vision_config=dict(_SIGLIP, vision_use_head=False), projection_dim=128,
             tie_word_embeddings=False),
    ],
    "mistral3": [
        dict(text_config=dict(_SMALL_TEXT, model_type="mistral"), vision_config=_PIXTRAL),
        dict(text_config=dict(_SMALL_TEXT, model_type="mistral"), vision_config=_PIXTRAL,
             spatial_merge_size=1, multimodal_projector_bias=True, vision_feature_layer=[-1, -2],
             tie_word_embeddings=False),
    ],
    "gpt2": [
        dict(n_embd=128, n_layer=2, n_head=4, n_positions=256, vocab_size=1000),
        dict(n_embd=96, n_layer=3, n_head=3, n_positions=64, vocab_size=777, n_inner=200,
             tie_word_embeddings=False),
        dict(n_embd=64, n_layer=1, n_head=2, n_positions=100, vocab_size=501, num_labels=5),
        dict(n_embd=64, n_layer=2, n_head=4, n_positions=48, vocab_size=300,
             add_cross_attention=True),
    ],
    "gpt_neox": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
             vocab_size=1000, max_position_embeddings=256),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, intermediate_size=300,
             vocab_size=777, tie_word_embeddings=True, use_parallel_residual=False,
             rotary_pct=0.5),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=256,
             vocab_size=501, attention_bias=False, num_labels=5),
    ],
    "opt": [
        dict(hidden_size=128, num_hidden_layers=2, ffn_dim=512, num_attention_heads=4,
             max_position_embeddings=256, vocab_size=1000, word_embed_proj_dim=128),
        dict(hidden_size=96, num_hidden_layers=3, ffn_dim=200, num_attention_heads=3,
             max_position_embeddings=64, vocab_size=777, word_embed_proj_dim=48),
        dict(hidden_size=64, num_hidden_layers=1, ffn_dim=256, num_attention_heads=2,
             max_position_embeddings=100, vocab_size=501, word_embed_proj_dim=32,
             do_layer_norm_before=False, num_labels=5),
        dict(hidden_size=64, num_hidden_layers=2, ffn_dim=128, num_attention_heads=4,
             max_position_embeddings=50, vocab_size=300, word_embed_proj_dim=64,
             enable_bias=False, tie_word_embeddings=False),
        # layer_norm_elementwise_affine=False is left out: transformers 4.57.1's _init_weights
        # fails on a LayerNorm without weights ("'NoneType' object has no attribute 'data'").
    ],
    "bloom": [
        dict(hidden_size=128, n_layer=2, n_head=4, vocab_size=1000),
        dict(hidden_size=96, n_layer=3, n_head=3, vocab_size=777, tie_word_embeddings=False),
        dict(hidden_size=64, n_layer=1, n_head=8, vocab_size=501, num_labels=5),
    ],
    "falcon": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, vocab_size=1000),
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=8, num_kv_heads=2,
             new_decoder_architecture=True, vocab_size=777),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, multi_query=False,
             parallel_attn=False, bias=True, vocab_size=501, num_labels=5),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=4, num_kv_heads=2,
             new_decoder_architecture=True, num_ln_in_parallel_attn=1, ffn_hidden_size=200,
             vocab_size=300, tie_word_embeddings=False),
    ],
    "llama": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, mlp_bias=True),
    ],
    "mistral": _LLAMA_LIKE,
    # MinistralConfig() leaves head_dim None, which transformers 5.24's rotary init cannot take
    # (its default rows fail on transformers' side); the variations give it.
    "ministral": [dict(v, head_dim=v.get("head_dim", v["hidden_size"] // v["num_attention_heads"]))
                  for v in _LLAMA_LIKE],
    "starcoder2": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, use_bias=False, sliding_window=64),
    ],
    "granite": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, mlp_bias=True,
             embedding_multiplier=12.0, residual_multiplier=0.22),
    ],
    "olmo2": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True),
    ],
    "olmo3": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, sliding_window=64,
             layer_types=["full_attention", "sliding_attention"]),
    ],
    "seed_oss": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, head_dim=48, vocab_size=640, attention_bias=False,
             attention_out_bias=True, mlp_bias=True),
    ],
    # SmolLM3Config's pad_token_id (128004) is past these small vocabularies: nn.Embedding refuses.
    "smollm3": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, mlp_bias=True,
             no_rope_layer_interval=2),
    ]],
    "mixtral": [
        dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=1000, num_local_experts=4, num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=6, vocab_size=777, num_local_experts=3, num_experts_per_tok=1,
             tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4,
             num_key_value_heads=1, head_dim=32, vocab_size=501, num_local_experts=8,
             num_experts_per_tok=2, num_labels=5),
    ],
    "qwen2": _LLAMA_LIKE,
    "qwen2_moe": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64,
             shared_expert_intermediate_size=128, num_experts=4, num_experts_per_tok=2,
             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48,
             shared_expert_intermediate_size=96, num_experts=6, num_experts_per_tok=2,
             decoder_sparse_step=2, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=3, vocab_size=777, tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=128, moe_intermediate_size=32,
             shared_expert_intermediate_size=64, num_experts=4, num_experts_per_tok=1,
             mlp_only_layers=[0], num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=4, vocab_size=501, num_labels=5),
    ],
    "qwen3": [
        dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, head_dim=32, vocab_size=1000),
        dict(hidden_size=96, intermediate_size=200, num_hidden_layers=3, num_attention_heads=4,
             num_key_value_heads=1, head_dim=48, vocab_size=777, tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=8,
             num_key_value_heads=4, head_dim=16, vocab_size=501, attention_bias=True,
             tie_word_embeddings=False, num_labels=5),
    ],
    "qwen3_moe": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64, num_experts=4,
             num_experts_per_tok=2, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, head_dim=32, vocab_size=1000),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48, num_experts=6,
             num_experts_per_tok=2, decoder_sparse_step=2, num_hidden_layers=3,
             num_attention_heads=4, num_key_value_heads=2, head_dim=24, vocab_size=777,
             tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=128, moe_intermediate_size=32, num_experts=4,
             num_experts_per_tok=1, mlp_only_layers=[1], num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=4, head_dim=16, vocab_size=501,
             num_labels=5),
    ],
    "gemma": _GEMMA_LIKE,
    "gemma2": _GEMMA_LIKE,
    "gemma3_text": _GEMMA_LIKE,
    "phi": [
        dict(hidden_size=128, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
             vocab_size=1000),
        dict(hidden_size=96, intermediate_size=384, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=3, vocab_size=777, qk_layernorm=True, partial_rotary_factor=0.25),
        dict(hidden_size=64, intermediate_size=256, num_hidden_layers=1, num_attention_heads=4,
             vocab_size=501, tie_word_embeddings=True, num_labels=5),
    ],
    # Phi3Config's pad_token_id (32000) must lie inside the vocabulary.
    "phi3": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE[:2]] + [
        dict(hidden_size=96, intermediate_size=200, num_hidden_layers=1, num_attention_heads=6,
             num_key_value_heads=3, vocab_size=501, tie_word_embeddings=False, num_labels=5,
             pad_token_id=0),
    ],
    "deepseek_v2": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=4,
             n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=2,
             first_k_dense_replace=1, q_lora_rank=None, kv_lora_rank=32, qk_rope_head_dim=16,
             qk_nope_head_dim=32, v_head_dim=32, vocab_size=1000, n_group=1, topk_group=1),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48,
             num_hidden_layers=2, num_attention_heads=3, num_key_value_heads=3,
             n_routed_experts=6, n_shared_experts=2, num_experts_per_tok=2,
             first_k_dense_replace=0, q_lora_rank=48, kv_lora_rank=24, qk_rope_head_dim=8,
             qk_nope_head_dim=16, v_head_dim=24, vocab_size=777, n_group=2, topk_group=1,
             num_labels=5),
        dict(hidden_size=64, intermediate_size=160, moe_intermediate_size=32,
             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
             n_routed_experts=4, n_shared_experts=None, num_experts_per_tok=1,
             first_k_dense_replace=1, q_lora_rank=None, kv_lora_rank=16, qk_rope_head_dim=8,
             qk_nope_head_dim=8, v_head_dim=16, vocab_size=501, n_group=1, topk_group=1,
             tie_word_embeddings=True),
    ],
    "deepseek_v3": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=4,
             n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=2,
             first_k_dense_replace=1, q_lora_rank=64, kv_lora_rank=32, qk_rope_head_dim=16,
             qk_nope_head_dim=32, v_head_dim=32, vocab_size=1000, n_group=2, topk_group=1),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48,
             num_hidden_layers=2, num_attention_heads=3, num_key_value_heads=3,
             n_routed_experts=8, n_shared_experts=2, num_experts_per_tok=2,
             first_k_dense_replace=0, q_lora_rank=None, kv_lora_rank=24, qk_rope_head_dim=8,
             qk_nope_head_dim=16, v_head_dim=24, vocab_size=777, n_group=1, topk_group=1,
             num_labels=5),
        dict(hidden_size=64, intermediate_size=160, moe_intermediate_size=32,
             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
             n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=1,
             first_k_dense_replace=2, q_lora_rank=32, kv_lora_rank=16, qk_rope_head_dim=8,
             qk_nope_head_dim=8, v_head_dim=16, vocab_size=501, n_group=1, topk_group=1,
             tie_word_embeddings=True),
    ],
    "t5": _T5_LIKE,
    "mt5": _T5_LIKE,
    "umt5": _T5_LIKE,
    "bart": [
        dict(d_model=128, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
             decoder_attention_heads=4, encoder_ffn_dim=256, decoder_ffn_dim=256,
             vocab_size=1000, max_position_embeddings=128),
        dict(d_model=96, encoder_layers=3, decoder_layers=1, encoder_attention_heads=6,
             decoder_attention_heads=3, encoder_ffn_dim=200, decoder_ffn_dim=300,
             vocab_size=777, max_position_embeddings=64),
        dict(d_model=64, encoder_layers=1, decoder_layers=2, encoder_attention_heads=2,
             decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=100,
             vocab_size=501, max_position_embeddings=100, tie_word_embeddings=False,
             num_labels=5),
    ],
    # WhisperConfig's special token ids (50256-50257) must lie inside the vocabulary.
    "whisper": [dict(v, pad_token_id=1, bos_token_id=2, eos_token_id=2, decoder_start_token_id=3)
                for v in [
        dict(d_model=128, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
             decoder_attention_heads=4, encoder_ffn_dim=256, decoder_ffn_dim=256,
             num_mel_bins=80, max_source_positions=100, max_target_positions=64,
             vocab_size=1000),
        dict(d_model=96, encoder_layers=1, decoder_layers=3, encoder_attention_heads=3,
             decoder_attention_heads=6, encoder_ffn_dim=200, decoder_ffn_dim=300,
             num_mel_bins=128, max_source_positions=50, max_target_positions=32,
             vocab_size=777),
        dict(d_model=64, encoder_layers=2, decoder_layers=1, encoder_attention_heads=4,
             decoder_attention_heads=2, encoder_ffn_dim=128, decoder_ffn_dim=128,
             num_mel_bins=40, max_source_positions=75, max_target_positions=48,
             vocab_size=501, tie_word_embeddings=False),
    ]],
    "distilbert": [
        dict(dim=128, n_layers=2, n_heads=4, hidden_dim=512, vocab_size=1000,
             max_position_embeddings=128),
        dict(dim=96, n_layers=3, n_heads=3, hidden_dim=200, vocab_size=777,
             max_position_embeddings=64, tie_word_embeddings=False),
        dict(dim=64, n_layers=1, n_heads=8, hidden_dim=100, vocab_size=501,
             max_position_embeddings=100, sinusoidal_pos_embds=True, num_labels=5),
    ],
    "albert": [
        dict(embedding_size=32, hidden_size=128, num_hidden_layers=4, num_attention_heads=4,
             intermediate_size=256, vocab_size=1000, max_position_embeddings=128),
        dict(embedding_size=64, hidden_size=96, num_hidden_layers=3, num_attention_heads=3,
             intermediate_size=200, num_hidden_groups=3, vocab_size=777, type_vocab_size=1,
             max_position_embeddings=64),
        dict(embedding_size=16, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
             intermediate_size=128, num_hidden_groups=2, inner_group_num=2, vocab_size=501,
             max_position_embeddings=100, tie_word_embeddings=False, num_labels=5),
    ],
    "electra": [
        dict(embedding_size=128, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
             intermediate_size=512, vocab_size=1000, max_position_embeddings=128),
        dict(embedding_size=64, hidden_size=96, num_hidden_layers=3, num_attention_heads=3,
             intermediate_size=200, vocab_size=777, max_position_embeddings=64),
        dict(embedding_size=32, hidden_size=64, num_hidden_layers=1, num_attention_heads=4,
             intermediate_size=128, vocab_size=501, max_position_embeddings=100,
             type_vocab_size=3, tie_word_embeddings=False, num_labels=5),
    ],
    "deberta-v2": [
        # DeBERTa-v3 style: shared relative keys, log buckets, no absolute positions.
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
             vocab_size=1000, max_position_embeddings=128, relative_attention=True,
             position_biased_input=False, pos_att_type=["p2c", "c2p"], position_buckets=32,
             max_relative_positions=-1, share_att_key=True, norm_rel_ebd="layer_norm"),
        # DeBERTa-v2-xlarge style: separate position projections, a conv layer, absolute
        # positions and token types.
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             vocab_size=777, max_position_embeddings=64, relative_attention=True,
             position_biased_input=True, pos_att_type=["p2c", "c2p"], position_buckets=-1,
             max_relative_positions=48, share_att_key=False, conv_kernel_size=3,
             type_vocab_size=2, num_labels=5),
        # An embedding smaller than the hidden size (embed_proj), untied.
        dict(hidden_size=64, embedding_size=32, num_hidden_layers=1, num_attention_heads=4,
             intermediate_size=128, vocab_size=501, max_position_embeddings=100,
             relative_attention=True, pos_att_type=["c2p"], position_buckets=16,
             share_att_key=True, tie_word_embeddings=False),
    ],
    "mpnet": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512,
             vocab_size=1000, max_position_embeddings=128),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             vocab_size=777, max_position_embeddings=66, relative_attention_num_buckets=16,
             tie_word_embeddings=False, num_labels=5),
    ],
    "vit": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
             image_size=64, patch_size=16, num_channels=3),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=3, intermediate_size=200,
             image_size=32, patch_size=8, num_channels=1, qkv_bias=False, num_labels=10,
             encoder_stride=8),
    ],
    # Described types (src/config/spec_*.rs): widths, layers, heads, experts, tied and untied,
    # and each type's switches.
    "gpt_oss": [
        dict(hidden_size=128, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, head_dim=32, vocab_size=1000, num_local_experts=4,
             num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=64, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=1, head_dim=16, vocab_size=777, num_local_experts=3,
             num_experts_per_tok=1, tie_word_embeddings=True, attention_bias=False,
             sliding_window=32),
        dict(hidden_size=64, intermediate_size=48, num_hidden_layers=1, num_attention_heads=4,
             num_key_value_heads=4, head_dim=24, vocab_size=501, num_local_experts=8,
             num_experts_per_tok=2, num_labels=5,
             layer_types=["full_attention"]),
    ],
    "glm4_moe": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2,
             n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=2,
             first_k_dense_replace=1, vocab_size=1000),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48,
             num_hidden_layers=2, num_attention_heads=3, num_key_value_heads=3, head_dim=40,
             n_routed_experts=6, n_shared_experts=2, num_experts_per_tok=2,
             first_k_dense_replace=0, vocab_size=777, attention_bias=True, use_qk_norm=True,
             tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=160, moe_intermediate_size=32,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=1,
             n_routed_experts=4, n_shared_experts=0, num_experts_per_tok=1,
             first_k_dense_replace=2, vocab_size=501),
    ],
    "phimoe": [
        dict(hidden_size=128, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=1000, num_local_experts=4, num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=64, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=6, vocab_size=777, num_local_experts=3, num_experts_per_tok=1,
             attention_bias=True, lm_head_bias=True, sliding_window=64,
             tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4,
             num_key_value_heads=1, vocab_size=501, num_local_experts=8, num_experts_per_tok=2,
             num_labels=5),
    ],
    "olmoe": [
        dict(hidden_size=128, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=1000, num_experts=4, num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=48, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=6, vocab_size=777, num_experts=6, num_experts_per_tok=3,
             attention_bias=True, tie_word_embeddings=True),
        dict(hidden_size=64, intermediate_size=32, num_hidden_layers=1, num_attention_heads=4,
             num_key_value_heads=1, head_dim=32, vocab_size=501, num_experts=8,
             num_experts_per_tok=1),
    ],
    "llama4_text": [
        dict(hidden_size=128, intermediate_size=64, intermediate_size_mlp=256,
             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=32,
             vocab_size=1000, num_local_experts=4, num_experts_per_tok=1),
        dict(hidden_size=96, intermediate_size=48, intermediate_size_mlp=200,
             num_hidden_layers=4, num_attention_heads=6, num_key_value_heads=3, head_dim=16,
             vocab_size=777, num_local_experts=3, num_experts_per_tok=2,
             interleave_moe_layer_step=2, tie_word_embeddings=True, attention_bias=True),
        dict(hidden_size=64, intermediate_size=32, intermediate_size_mlp=128,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=1, head_dim=16,
             vocab_size=501, num_local_experts=8, num_experts_per_tok=1, moe_layers=[1]),
    ],
    "ernie4_5_moe": [
        dict(hidden_size=128, intermediate_size=256, moe_intermediate_size=64,
             num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2,
             moe_num_experts=4, moe_k=2, moe_num_shared_experts=1, vocab_size=1000),
        dict(hidden_size=96, intermediate_size=192, moe_intermediate_size=48,
             num_hidden_layers=4, num_attention_heads=3, num_key_value_heads=3,
             moe_num_experts=6, moe_k=2, moe_num_shared_experts=0, moe_layer_start_index=0,
             moe_layer_interval=2, vocab_size=777, use_bias=True, tie_word_embeddings=False),
        dict(hidden_size=64, intermediate_size=160, moe_intermediate_size=32,
             num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=1,
             moe_num_experts=4, moe_k=1, moe_num_shared_experts=2, moe_layer_start_index=1,
             moe_layer_end_index=2, vocab_size=501),
    ],
    "cohere": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, use_qk_norm=True,
             tie_word_embeddings=False),
    ]],
    "cohere2": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=4, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, sliding_window=64,
             sliding_window_pattern=2),
    ]],
    "glm": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, head_dim=40, vocab_size=640, attention_bias=False),
    ]],
    "glm4": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, head_dim=40, vocab_size=640, attention_bias=False),
    ]],
    "exaone4": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=4, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, sliding_window=64,
             sliding_window_pattern=2, tie_word_embeddings=True),
    ],
    "ernie4_5": [dict(v, pad_token_id=0) for v in _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, head_dim=40, vocab_size=640, use_bias=True,
             tie_word_embeddings=False),
    ]],
    "arcee": _LLAMA_LIKE + [
        dict(hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=3,
             num_key_value_heads=1, vocab_size=640, attention_bias=True, mlp_bias=True),
    ],
    "minimax_m2": [
        dict(hidden_size=128, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, head_dim=32, vocab_size=1000, num_local_experts=4,
             num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=48, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=1, head_dim=16, vocab_size=777, num_local_experts=3,
             num_experts_per_tok=1, tie_word_embeddings=True),
    ],
    "granitemoe": [
        dict(hidden_size=128, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=1000, num_local_experts=4, num_experts_per_tok=2),
        dict(hidden_size=96, intermediate_size=48, num_hidden_layers=3, num_attention_heads=6,
             num_key_value_heads=6, vocab_size=777, num_local_experts=3, num_experts_per_tok=1,
             attention_bias=True, tie_word_embeddings=True, embedding_multiplier=12.0),
    ],
    "gpt_bigcode": [
        dict(n_embd=128, n_layer=2, n_head=4, n_positions=256, vocab_size=1000),
        dict(n_embd=96, n_layer=3, n_head=3, n_positions=64, vocab_size=777, n_inner=200,
             multi_query=False, tie_word_embeddings=False),
        dict(n_embd=64, n_layer=1, n_head=2, n_positions=100, vocab_size=501, num_labels=5),
        # Cross-attention only without multi_query (GPTBigCodeAttention refuses the pair).
        dict(n_embd=64, n_layer=2, n_head=4, n_positions=48, vocab_size=300,
             add_cross_attention=True, multi_query=False),
    ],
    "bert": _BERT_VARIATIONS,
    "roberta": _BERT_VARIATIONS,
    "xlm-roberta": _BERT_VARIATIONS,
}


@dataclass
class Row:
    model_type: str
    cls: str
    source: str
    config_path: Path
    order: int  # 0 hub, 1 reference, 2 default, 3 default (sparse), 4 variation
    transformers: int | None = None
    modelatlas: int | None = None
    planned: str | None = None
    supported: bool | None = None
    error: str | None = None  # reading or writing the config
    t_error: str | None = None  # transformers failed
    m_error: str | None = None  # modelatlas failed
    skip_transformers: bool = False  # --census: a type modelatlas does not plan

    def sort_key(self):
        # A census row may carry a class tuple; compare as text so every row sorts.
        return (str(self.model_type), str(self.cls), self.order, natural_key(str(self.source)))

    @property
    def match(self) -> str:
        for e in (self.error, self.t_error, self.m_error):
            if e:
                return "error: " + e
        if self.supported is False:
            return "unsupported"
        if self.planned and self.planned != self.cls:
            return f"NO (planned {self.planned})"
        if self.transformers == self.modelatlas:
            return "yes"
        return f"NO ({self.modelatlas - self.transformers:+,})"


def natural_key(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def short(message: str, limit: int = 160) -> str:
    message = " ".join(str(message).split()).replace("|", "\\|")
    return message if len(message) <= limit else message[: limit - 1] + "…"


# --- transformers side -------------------------------------------------------------------------


def family_classes(model_type: str) -> list[str]:
    from transformers.models.auto import modeling_auto as ma

    # A type without a base model (TrOCR's decoder) starts from its causal LM.
    classes = [base_class(model_type)]
    for mapping in (
        ma.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES,
        ma.MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES,
        ma.MODEL_FOR_MASKED_LM_MAPPING_NAMES,
        ma.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        ma.MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES,
    ):
        if model_type in mapping:
            if mapping[model_type] not in classes:
                classes.append(mapping[model_type])
            break
    if model_type in ma.MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES:
        classes.append(ma.MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES[model_type])
    for extra in EXTRA_CLASSES.get(model_type, []):
        if extra not in classes:
            classes.append(extra)
    return classes


def base_class(model_type: str) -> str:
    from transformers.models.auto import modeling_auto as ma

    if model_type not in ma.MODEL_MAPPING_NAMES:
        if model_type not in ma.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
            # EncoderDecoderModel is listed only as a sequence-to-sequence LM.
            return ma.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES[model_type]
        return ma.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[model_type]
    base = ma.MODEL_MAPPING_NAMES[model_type]
    # Funnel lists two base classes (FunnelModel, FunnelBaseModel): the first is the base.
    return base[0] if isinstance(base, (list, tuple)) else base


# Families added by area (tools/validate/families/<area>.py): each module may define FAMILIES
# (a list), EXTRA_CLASSES and VARIATIONS (dicts), merged here, so that adding a type touches one
# small file instead of the tables above.
def _load_area_families() -> None:
    import importlib.util

    for path in sorted((Path(__file__).resolve().parent / "families").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"families_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in getattr(module, "FAMILIES", []):
            if name not in FAMILIES:
                FAMILIES.append(name)
        # Two areas may vary the same type (XLM and XLNet have two): both sets of rows run.
        for name, classes in getattr(module, "EXTRA_CLASSES", {}).items():
            known = EXTRA_CLASSES.get(name, [])
            EXTRA_CLASSES[name] = known + [c for c in classes if c not in known]
        for name, variations in getattr(module, "VARIATIONS", {}).items():
            VARIATIONS[name] = VARIATIONS.get(name, []) + list(variations)


_load_area_families()


_AUTO_NAMES = [
    "AutoModel", "AutoModelForCausalLM", "AutoModelForSeq2SeqLM", "AutoModelForSpeechSeq2Seq",
    "AutoModelForMaskedLM", "AutoModelForSequenceClassification", "AutoModelForPreTraining",
    "AutoModelForTokenClassification", "AutoModelForQuestionAnswering",
    "AutoModelForMultipleChoice", "AutoModelForImageClassification",
    "AutoModelForMaskedImageModeling", "AutoModelForTextEncoding",
]


def instantiate(cls_name: str, config):
    import transformers

    cls = getattr(transformers, cls_name, None)
    first_error = None
    if cls is not None:
        try:
            return cls(config)
        except Exception as e:  # fall back to the auto classes below
            first_error = e
    for auto_name in _AUTO_NAMES:
        auto = getattr(transformers, auto_name, None)
        if auto is None:
            continue
        try:
            target = auto._model_mapping[type(config)]
        except Exception:
            continue
        if target.__name__ == cls_name:
            return auto.from_config(config)
    if first_error is not None:
        raise first_error
    raise ValueError(f"transformers has no class {cls_name}")


_count_cache: dict = {}


def transformers_count(cls_name: str, config_path: Path) -> int:
    import torch
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(str(config_path))
    key_dict = config.to_dict()
    for k in ("transformers_version", "_name_or_path", "architectures"):
        key_dict.pop(k, None)
    key = (cls_name, json.dumps(key_dict, sort_keys=True, default=str))
    if key in _count_cache:
        return _count_cache[key]
    with torch.device("meta"):
        model = instantiate(cls_name, config)
    model.tie_weights()
    n = sum(p.numel() for p in model.parameters())
    _count_cache[key] = n
    return n


# --- modelatlas side ---------------------------------------------------------------------------


def run_modelatlas(binary: Path, row: Row) -> None:
    try:
        proc = subprocess.run(
            [str(binary), "plan", str(row.config_path), "--format", "json"],
            cwd=REPO, capture_output=True, text=True, timeout=120,
        )
    except Exception as e:
        row.m_error = "modelatlas: " + short(e)
        return
    if proc.returncode != 0:
        row.m_error = "modelatlas: " + short(proc.stderr.strip() or f"exit {proc.returncode}")
        return
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        row.m_error = "modelatlas: output is not JSON: " + short(e)
        return
    row.supported = bool(out.get("supported"))
    row.planned = out.get("architecture")
    if row.supported:
        params = out.get("params") or {}
        derived = params.get("derived")
        if not isinstance(derived, int):
            row.m_error = f"modelatlas: params.derived is {derived!r}"
        else:
            row.modelatlas = derived


# --- rows --------------------------------------------------------------------------------------


def hub_rows(reference: Path) -> list[Row]:
    rows = []
    for path in sorted(REPO.glob("hub/models--*/snapshots/*/config.json")):
        model_id = path.parents[2].name[len("models--"):].replace("--", "/", 1)
        rows.append(file_row(path, f"hub: {model_id}", 0))
    for name in REFERENCE_CONFIGS:
        path = reference / name / "config.json"
        row = file_row(path, f"reference: {name.replace('--', '/', 1)}", 1)
        rows.append(row)
    return rows


def file_row(path: Path, source: str, order: int) -> Row:
    try:
        data = json.loads(path.read_text())
        model_type = data.get("model_type", "?")
        archs = data.get("architectures") or []
        cls = archs[0] if archs else base_class(model_type)
    except Exception as e:
        row = Row("?", "?", source, path, order)
        row.error = "reading the config: " + short(e)
        return row
    return Row(model_type, cls, source, path, order)


def describe(overrides: dict) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in overrides.items())


def generated_rows(families: list[str], workdir: Path) -> list[Row]:
    from transformers import CONFIG_MAPPING

    rows = []
    for model_type in families:
        config_class = CONFIG_MAPPING[model_type]
        try:
            classes = family_classes(model_type)
        except Exception as e:
            row = Row(model_type, "?", "default", workdir / "missing.json", 2)
            row.error = "transformers: " + short(e)
            rows.append(row)
            continue
        specs = [("default", 2, {})]
        specs += [(f"var {i + 1}: {describe(v)}", 4, v)
                  for i, v in enumerate(VARIATIONS.get(model_type, []))]
        for cls in classes:
            for source, order, overrides in specs:
                tag = "default" if order == 2 else source.split(":")[0].replace(" ", "")
                path = workdir / f"{model_type}--{cls}--{tag}.json"
                row = Row(model_type, cls, source, path, order)
                try:
                    config = config_class(**overrides)
                    config.architectures = [cls]
                    text = config.to_json_string(use_diff=True)
                    if config_class.model_type != model_type:
                        # A type transformers maps onto another's config class (`gpt-sw3` onto
                        # GPT2Config) is written under its own name, as its files name it.
                        data = json.loads(text)
                        data["model_type"] = model_type
                        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
                    path.write_text(text)
                except Exception as e:
                    row.error = "transformers config: " + short(e)
                rows.append(row)
                if order == 2:
                    sparse = workdir / f"{model_type}--{cls}--default-sparse.json"
                    sparse.write_text(json.dumps(
                        {"architectures": [cls], "model_type": model_type}, indent=2) + "\n")
                    rows.append(Row(model_type, cls, "default (sparse)", sparse, 3))
    return rows


def census_rows(binary: Path, only: list[str] | None, workdir: Path) -> tuple[list[Row], dict]:
    """--census: rows for every text type and wrapper (and every planned type of another kind)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import census
    from transformers import CONFIG_MAPPING

    kinds = census.classify_all()
    if only:
        kinds = {t: k for t, k in kinds.items() if t in only}
    rows, full = [], []
    for t in sorted(kinds):
        wanted = kinds[t] in census.TEXT_KINDS or kinds[t] == "vision-language"
        classes = census.usual_classes(t)
        if not classes or not (wanted or t in FAMILIES):
            continue
        if census.plans(binary, t, workdir, classes[-1]):
            full.append(t)
            continue
        for cls in classes:
            path = workdir / f"{t}--{cls}--default.json"
            row = Row(t, cls, "default", path, 2, skip_transformers=True)
            try:
                config = CONFIG_MAPPING[t]()
                config.architectures = [cls]
                path.write_text(config.to_json_string(use_diff=True))
            except Exception as e:
                row.error = "transformers config: " + short(e)
            rows.append(row)
    return rows + generated_rows(full, workdir), kinds


# --- report ------------------------------------------------------------------------------------


def fmt(n: int | None) -> str:
    return "" if n is None else f"{n:,}"


def write_report(path: Path, rows: list[Row], binary: Path, elapsed: float,
                 census_parts: list[str] | None = None) -> dict:
    import torch
    import transformers

    counts = {"rows": len(rows), "match": 0, "mismatch": 0, "unsupported": 0, "error": 0}
    for r in rows:
        m = r.match
        if m == "yes":
            counts["match"] += 1
        elif m.startswith("NO"):
            counts["mismatch"] += 1
        elif m == "unsupported":
            counts["unsupported"] += 1
        else:
            counts["error"] += 1
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                              capture_output=True, text=True).stdout.strip()
    except Exception:
        head = "?"
    try:
        version = subprocess.run([str(binary), "--version"], capture_output=True,
                                 text=True).stdout.strip()
    except Exception:
        version = "?"
    summary = (f"{counts['rows']} rows, {counts['match']} match, {counts['mismatch']} mismatch, "
               f"{counts['unsupported']} unsupported, {counts['error']} error")
    lines = [
        "# Parameter counts: modelatlas against transformers",
        "",
        f"- transformers {transformers.__version__}, torch {torch.__version__}, "
        f"Python {sys.version.split()[0]}",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).date().isoformat()} (UTC)",
        f"- modelatlas: `{version}` from commit `{head}`",
        "- made by `tools/validate/validate_params.py` (see its docstring); transformers builds "
        "each class on the meta device and counts `model.parameters()` (tied tensors once); "
        "modelatlas reads the same config.json (`plan <file> --format json`, `params.derived`).",
        "- match: `yes`; `NO (difference)` is modelatlas minus transformers; `unsupported`: "
        "modelatlas does not plan this model_type yet; `error`: one side failed.",
        "",
        f"**Summary: {summary}.**",
        "",
    ]
    if census_parts:
        lines[0] = "# Census: every model type of transformers against modelatlas's counts"
        lines += census_parts
    attention = [r for r in sorted(rows, key=Row.sort_key)
                 if r.match not in ("yes", "unsupported")]
    if attention:
        lines += ["Rows that mismatch or fail (also in the table):", ""]
        lines += [f"- {r.model_type} `{r.cls}` ({short(r.source, 400)}): transformers "
                  f"{fmt(r.transformers) or '-'}, modelatlas {fmt(r.modelatlas) or '-'}: {r.match}"
                  for r in attention]
        lines.append("")
    lines += [
        "| model_type | class | source | transformers | modelatlas | match |",
        "|---|---|---|---:|---:|---|",
    ]
    for r in sorted(rows, key=Row.sort_key):
        lines.append(f"| {r.model_type} | {r.cls} | {short(r.source, 400)} | "
                     f"{fmt(r.transformers)} | {fmt(r.modelatlas)} | {r.match} |")
    lines.append("")
    path.write_text("\n".join(lines))
    print(f"{summary} ({elapsed:.0f} s); report: {path}", file=sys.stderr)
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", type=Path, default=REPO / "target/release/modelatlas")
    ap.add_argument("--report", type=Path, default=REPO / "tools/validate/params_report.md")
    ap.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    ap.add_argument("--only", nargs="*", help="model_types to generate rows for (default: all)")
    ap.add_argument("--no-hub", action="store_true", help="leave out the snapshot and reference")
    ap.add_argument("--keep-configs", type=Path, help="write the generated configs here")
    ap.add_argument("--census", action="store_true",
                    help="every model type of the installed transformers, classified by kind, "
                         "with a summary table first (tools/validate/census.py)")
    args = ap.parse_args()

    binary = args.binary if args.binary.is_absolute() else (REPO / args.binary)
    if not binary.is_file():
        ap.error(f"{binary} does not exist: run `cargo build --release` first")

    start = time.monotonic()
    import transformers

    transformers.logging.set_verbosity_error()
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", category=UserWarning)
    families = args.only or FAMILIES
    tmp = None
    if args.keep_configs:
        workdir = args.keep_configs
        workdir.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="validate-params-")
        workdir = Path(tmp.name)

    rows = [] if args.no_hub else hub_rows(args.reference)
    if args.only:
        rows = [r for r in rows if r.model_type in args.only]
    census_kinds = None
    if args.census:
        rows_c, census_kinds = census_rows(binary, args.only, workdir)
        rows += rows_c
    else:
        rows += generated_rows(families, workdir)

    # modelatlas runs in worker threads (subprocesses) while transformers builds here.
    todo = [r for r in rows if r.error is None]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(run_modelatlas, binary, r) for r in todo]
        for i, r in enumerate(todo):
            if r.skip_transformers:
                continue
            t0 = time.monotonic()
            try:
                r.transformers = transformers_count(r.cls, r.config_path)
            except Exception as e:
                r.t_error = "transformers: " + short(f"{type(e).__name__}: {e}")
            dt = time.monotonic() - t0
            if dt > 5:
                print(f"  slow: {r.model_type} {r.cls} {r.source[:40]} {dt:.1f} s",
                      file=sys.stderr)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1}/{len(todo)} built", file=sys.stderr)
        for f in futures:
            f.result()
    # --census skips transformers for a type that did not plan with its last class; where
    # modelatlas planned another class of it after all, that row is compared like any other.
    for r in todo:
        if r.skip_transformers and r.supported and r.transformers is None and not r.m_error:
            try:
                r.transformers = transformers_count(r.cls, r.config_path)
            except Exception as e:
                r.t_error = "transformers: " + short(f"{type(e).__name__}: {e}")
    parts = None
    if census_kinds is not None:
        import census

        summary, per_type = census.summarise(rows, census_kinds)
        parts = (["## Summary", "", *summary, "Left out, by kind (listed, no rows unless planned):",
                  "", *census.left_out(census_kinds), "", "## Per type", "", *per_type, "",
                  "## Rows", "", "Types modelatlas does not plan get their base class and usual "
                  "head at the default config only, and transformers does not build them.", ""])
    counts = write_report(args.report, rows, binary, time.monotonic() - start, parts)
    if tmp is not None:
        tmp.cleanup()
    return 1 if counts["mismatch"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
