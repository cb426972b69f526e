"""Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE (src/config/wrappers.rs, read by
src/config/composite.rs and src/config/qwen3_vl.rs; tower in src/graph/qwen3_vision.rs): the
tower's learned positions and DeepStack mergers, the text model planned as qwen3 / qwen3_moe /
qwen3_5_text / qwen3_5_moe_text."""

FAMILIES = ["qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"]

EXTRA_CLASSES = {
    "qwen3_vl": ["Qwen3VLForConditionalGeneration"],
    "qwen3_vl_moe": ["Qwen3VLMoeForConditionalGeneration"],
    "qwen3_5": ["Qwen3_5ForConditionalGeneration", "Qwen3_5ForTokenClassification"],
    "qwen3_5_moe": ["Qwen3_5MoeForConditionalGeneration"],
}

_VISION = dict(depth=2, hidden_size=64, intermediate_size=96, num_heads=4, out_hidden_size=128,
               num_position_embeddings=64, patch_size=8)
_TEXT = dict(vocab_size=1000, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, head_dim=32)
_MOE = dict(_TEXT, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=64)
_LINEAR = dict(linear_key_head_dim=16, linear_value_head_dim=16, linear_num_key_heads=2,
               linear_num_value_heads=4)

VARIATIONS = {
    # DeepStack at one index and none, merge sizes 1 and 3, a head_dim the class keeps, sliding
    # keys Qwen3's class would read and this one does not, the head tied by the top-level flag
    # (text_config's flag ignored), attention biases.
    "qwen3_vl": [
        dict(text_config=_TEXT, vision_config=dict(_VISION, deepstack_visual_indexes=[1])),
        dict(text_config=dict(_TEXT, num_hidden_layers=3, head_dim=48, attention_bias=True,
                              use_sliding_window=True, sliding_window=16, max_window_layers=1),
             vision_config=dict(_VISION, deepstack_visual_indexes=[], spatial_merge_size=3,
                                temporal_patch_size=3, in_channels=1),
             tie_word_embeddings=True),
        dict(text_config=dict(_TEXT, tie_word_embeddings=True, num_key_value_heads=None),
             vision_config=dict(_VISION, spatial_merge_size=1, num_position_embeddings=49)),
    ],
    # Dense layers among the sparse (mlp_only_layers, decoder_sparse_step), num_local_experts,
    # head_dim from the width when none is given.
    "qwen3_vl_moe": [
        dict(text_config=_MOE, vision_config=dict(_VISION, deepstack_visual_indexes=[0, 1])),
        dict(text_config=dict(_MOE, num_hidden_layers=4, mlp_only_layers=[0], decoder_sparse_step=2,
                              head_dim=None),
             vision_config=dict(_VISION, spatial_merge_size=3), tie_word_embeddings=True),
        dict(text_config=dict({k: v for k, v in _MOE.items() if k != "num_experts"},
                              num_local_experts=6),
             vision_config=_VISION),
    ],
    # Linear and full layers, the interval default and a layer_types list, tied by the top flag.
    "qwen3_5": [
        dict(text_config=dict(_TEXT, **_LINEAR, num_hidden_layers=4), vision_config=_VISION),
        dict(text_config=dict(_TEXT, **_LINEAR, layer_types=["full_attention", "linear_attention",
                                                             "linear_attention"],
                              num_hidden_layers=3, tie_word_embeddings=True),
             vision_config=dict(_VISION, spatial_merge_size=3, depth=3), tie_word_embeddings=True),
    ],
    "qwen3_5_moe": [
        dict(text_config=dict(_MOE, **_LINEAR, num_hidden_layers=4, shared_expert_intermediate_size=48),
             vision_config=_VISION),
        dict(text_config=dict(_MOE, **_LINEAR, num_hidden_layers=2, tie_word_embeddings=True,
                              layer_types=["linear_attention", "full_attention"]),
             vision_config=dict(_VISION, spatial_merge_size=1), tie_word_embeddings=True),
    ],
}
