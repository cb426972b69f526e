"""Decoder types transformers added in 2025-26 (helper "newdec", issue 10;
src/config/spec_newdec.rs). Variations are small sizes unlike any published checkpoint: layers,
widths, heads, KV heads, experts, shared experts, dense and sparse layers, layer patterns, tied
and untied."""

FAMILIES = ["ministral3", "kolibri1", "mellum", "aria_text", "cohere_compass_text", "flint", "apertus1p5_text", "beam"]

EXTRA_CLASSES = {
    "ministral3": ["Ministral3ForTokenClassification"],
    "cohere_compass_text": ["CohereCompassTextForSequenceClassification"],
    "beam": ["BeamForTokenClassification"],
}

_SMALL = dict(vocab_size=1000, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
              num_attention_heads=4, num_key_value_heads=2)

_MOE = dict(_SMALL, moe_intermediate_size=32, num_experts=6, num_experts_per_tok=2)

# CohereCompassTextConfig's default leaves `rope_parameters` empty, which its rotary embedding
# (keyed by layer type) cannot build in transformers 5.24: the variations give one per type.
_PER_TYPE_ROPE = {"full_attention": {"rope_type": "default", "rope_theta": 10000.0},
                  "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}

VARIATIONS = {
    "ministral3": [
        dict(_SMALL, head_dim=24),
        dict(_SMALL, num_hidden_layers=3, num_key_value_heads=1, sliding_window=32,
             tie_word_embeddings=True),
    ],
    "kolibri1": [
        dict({k: v for k, v in _MOE.items() if k != "intermediate_size"}, head_dim=16,
             shared_expert_intermediate_size=40, num_hidden_layers=5),
        dict({k: v for k, v in _MOE.items() if k != "intermediate_size"}, head_dim=8,
             shared_expert_intermediate_size=24, tie_word_embeddings=True,
             num_attention_heads=6, num_key_value_heads=3),
    ],
    "mellum": [
        dict(_MOE, head_dim=16),
        dict(_MOE, head_dim=16, num_hidden_layers=3, mlp_layer_types=["dense", "sparse", "dense"],
             layer_types=["sliding_attention", "full_attention", "sliding_attention"],
             tie_word_embeddings=True),
    ],
    "aria_text": [
        dict(_SMALL, moe_num_experts=4, moe_topk=2, moe_num_shared_experts=1),
        dict(_SMALL, moe_num_experts=5, moe_topk=1, moe_num_shared_experts=3, attention_bias=True,
             mlp_bias=True, head_dim=24, tie_word_embeddings=True),
    ],
    "cohere_compass_text": [
        dict(_SMALL, rope_parameters=_PER_TYPE_ROPE),
        dict(_SMALL, rope_parameters=_PER_TYPE_ROPE, num_hidden_layers=3, attention_bias=True, tie_word_embeddings=False,
             layer_types=["sliding_attention", "sliding_attention", "full_attention"]),
    ],
    "flint": [
        dict(_MOE, head_dim=16, num_hidden_layers=3, shared_expert_intermediate_size=40),
        dict(_MOE, head_dim=16, num_hidden_layers=3, shared_expert_intermediate_size=24,
             mlp_only_layers=[1], decoder_sparse_step=1, attention_bias=True,
             tie_word_embeddings=True),
        dict(_MOE, head_dim=8, num_hidden_layers=4, shared_expert_intermediate_size=24,
             mlp_only_layers=[], decoder_sparse_step=2),
    ],
    "apertus1p5_text": [
        dict(_SMALL),
        dict(_SMALL, output_vocab_size=700, num_hidden_layers=3, head_dim=24),
        dict(_SMALL, output_vocab_size=1000, hidden_act="silu", tie_word_embeddings=True),
    ],
    "beam": [
        dict(_MOE, head_dim=16, num_hidden_layers=4),
        dict(_MOE, head_dim=8, num_hidden_layers=3, attention_bias=True, tie_word_embeddings=True,
             mlp_layer_types=["sparse", "dense", "sparse"], num_attention_heads=6,
             num_key_value_heads=3),
    ],
}
