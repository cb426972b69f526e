"""Llama 3.2 Vision (mllama) and Llama 4 (llama4), the vision-language wrappers of helper vla
(src/config/wrappers.rs, src/config/mllama.rs; towers in src/graph/mllama_vision.rs and
src/graph/llama4_vision.rs): the tower and projector exact, the language model planned through
its own type (Mllama's text model with its cross-attention layers, graph/mllama_text.rs; Llama 4's
llama4_text). The <X>ForCausalLM class built on the wrapper's config is the text model alone."""

FAMILIES = ["mllama", "llama4"]

EXTRA_CLASSES = {
    "mllama": ["MllamaForConditionalGeneration"],
    "llama4": ["Llama4ForConditionalGeneration"],
}

# pad_token_id inside the vocabulary: MllamaTextConfig's default (128004) is past a small one.
_MLLAMA_TEXT = dict(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=4,
                    num_attention_heads=4, num_key_value_heads=2, cross_attention_layers=[1],
                    pad_token_id=0)
_MLLAMA_VISION = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_global_layers=1, attention_heads=4, image_size=28, patch_size=14,
                      vision_output_dim=96, intermediate_layers_indices=[0, 1])

_LLAMA4_TEXT = dict(vocab_size=1000, hidden_size=64, intermediate_size=32, intermediate_size_mlp=96,
                    num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                    num_local_experts=2)
_LLAMA4_VISION = dict(hidden_size=32, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, image_size=28, patch_size=14, vision_output_dim=48,
                      projector_input_dim=16, projector_output_dim=16)

VARIATIONS = {
    # Cross-attention layers first, last, several and out of range (ignored); two tiles with
    # their own aspect ratios; the top-level and text flags to tie (never tied); heads as MHA.
    "mllama": [
        dict(text_config=_MLLAMA_TEXT, vision_config=_MLLAMA_VISION),
        dict(text_config=dict(_MLLAMA_TEXT, num_hidden_layers=5, cross_attention_layers=[0, 2, 4, 9],
                              tie_word_embeddings=True),
             vision_config=dict(_MLLAMA_VISION, max_num_tiles=2, num_global_layers=3,
                                supported_aspect_ratios=[[1, 1], [1, 2], [2, 1]]),
             tie_word_embeddings=True),
        dict(text_config=dict(_MLLAMA_TEXT, num_key_value_heads=4, cross_attention_layers=[]),
             vision_config=dict(_MLLAMA_VISION, hidden_size=48, image_size=42, patch_size=7,
                                num_channels=1, vision_output_dim=200)),
        # Llama 3.2 11B Vision's sizes: the defaults with 560-pixel tiles; 90B's text model (100
        # layers of 8192, a cross-attention layer every fifth from 3).
        dict(vision_config=dict(image_size=560)),
        dict(text_config=dict(hidden_size=8192, intermediate_size=28672, num_hidden_layers=100,
                              num_attention_heads=64, cross_attention_layers=list(range(3, 100, 5))),
             vision_config=dict(image_size=560)),
    ],
    # The tie by text_config's flag alone (the top level's ignored), a shuffle ratio other than
    # 0.5, projector widths unlike the tower's, MoE every other layer.
    "llama4": [
        dict(text_config=_LLAMA4_TEXT, vision_config=_LLAMA4_VISION),
        dict(text_config=dict(_LLAMA4_TEXT, tie_word_embeddings=True, num_hidden_layers=3,
                              interleave_moe_layer_step=2),
             vision_config=dict(_LLAMA4_VISION, pixel_shuffle_ratio=0.25, projector_input_dim=24,
                                projector_output_dim=40, vision_output_dim=40)),
        dict(text_config=_LLAMA4_TEXT, tie_word_embeddings=True,
             vision_config=dict(_LLAMA4_VISION, hidden_size=48, num_channels=1, image_size=56,
                                multi_modal_projector_bias=True)),
        # Maverick's layout: 128 experts in every other layer, Scout's tower.
        dict(text_config=dict(num_local_experts=128, interleave_moe_layer_step=2),
             vision_config=dict(hidden_size=1408, image_size=336, vision_output_dim=4096)),
    ],
}
