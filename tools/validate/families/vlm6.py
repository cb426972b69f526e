"""Vision-language wrappers of issue 10's vlm6 list (src/config/wrappers.rs, read by
src/config/composite.rs): the tower and projector exact, the language model planned through its
own type."""

FAMILIES = ["aya_vision"]

EXTRA_CLASSES = {
    "aya_vision": ["AyaVisionForConditionalGeneration"],
}

_TEXT = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, head_dim=32, vocab_size=1000)
_SIGLIP = dict(model_type="siglip_vision_model", hidden_size=64, intermediate_size=128,
               num_hidden_layers=2, num_attention_heads=4, image_size=64, patch_size=8)

VARIATIONS = {
    # The projector's widths: the default (text width), an odd alignment width whose half floors,
    # a 4x4 shuffle, SigLIP's pooling head kept, the LM head untied.
    "aya_vision": [
        dict(text_config=dict(_TEXT, model_type="cohere2"), vision_config=_SIGLIP),
        dict(text_config=dict(_TEXT, model_type="cohere2", num_hidden_layers=5),
             vision_config=dict(_SIGLIP, vision_use_head=True), alignment_intermediate_size=301,
             tie_word_embeddings=False),
        dict(text_config=dict(_TEXT, model_type="cohere2"),
             vision_config=dict(_SIGLIP, hidden_size=48, num_hidden_layers=3),
             downsample_factor=4, alignment_intermediate_size=96,
             vision_feature_select_strategy="default"),
    ],
}

# Idefics3 and SmolVLM: the tower's own config class (a nested model_type is not read), the
# connector's shuffle factor 1, 2 and 4, the LM head tied and untied, a Mistral text model.
_IDEFICS_VISION = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, image_size=64, patch_size=8)
for _t in ("idefics3", "smolvlm"):
    FAMILIES.append(_t)
    VARIATIONS[_t] = [
        dict(text_config=dict(_TEXT, model_type="llama"), vision_config=_IDEFICS_VISION),
        dict(text_config=dict(_TEXT, model_type="llama", num_hidden_layers=3),
             vision_config=dict(_IDEFICS_VISION, hidden_size=48, num_hidden_layers=3),
             scale_factor=4, tie_word_embeddings=True),
        dict(text_config=dict(_TEXT, model_type="mistral"),
             vision_config=dict(_IDEFICS_VISION, image_size=56, patch_size=14),
             scale_factor=1),
    ]
EXTRA_CLASSES["idefics3"] = ["Idefics3ForConditionalGeneration"]
EXTRA_CLASSES["smolvlm"] = ["SmolVLMForConditionalGeneration"]

# Qwen2-VL and Qwen2.5-VL: text keys nested and at the top level (a flat file), a head_dim the
# text attention ignores, the tie forwarded from text_config, merge sizes 1 and 3, other temporal
# patches and channels.
_QWEN_TEXT = dict(vocab_size=1000, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                  num_attention_heads=4, num_key_value_heads=2)
_QWEN2_VISION = dict(depth=2, embed_dim=64, hidden_size=128, num_heads=4, mlp_ratio=3,
                     patch_size=8, spatial_merge_size=2, temporal_patch_size=2)
_QWEN25_VISION = dict(depth=2, hidden_size=64, out_hidden_size=128, intermediate_size=96,
                      num_heads=4, patch_size=8, spatial_merge_size=2, temporal_patch_size=2)
for _t, _v in (("qwen2_vl", _QWEN2_VISION), ("qwen2_5_vl", _QWEN25_VISION)):
    FAMILIES.append(_t)
    VARIATIONS[_t] = [
        dict(text_config=_QWEN_TEXT, vision_config=_v),
        dict(_QWEN_TEXT, num_hidden_layers=3, head_dim=48, vision_config=dict(_v, spatial_merge_size=3)),
        dict(text_config=dict(_QWEN_TEXT, tie_word_embeddings=True, num_key_value_heads=4),
             vision_config=dict(_v, spatial_merge_size=1, temporal_patch_size=3, in_channels=1)),
    ]
EXTRA_CLASSES["qwen2_vl"] = ["Qwen2VLForConditionalGeneration"]
EXTRA_CLASSES["qwen2_5_vl"] = ["Qwen2_5_VLForConditionalGeneration"]

# InternVL: InternViT's switches (biased attention, q/k norms, RMSNorm layers, a mask token, no
# absolute positions, a final LayerNorm when not mean-pooling), square pairs for the sizes, a 4x4
# shuffle, Qwen2 and Llama text models, the head untied.
_INTERN_VISION = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, image_size=[64, 64], patch_size=[8, 8])
FAMILIES.append("internvl")
EXTRA_CLASSES["internvl"] = ["InternVLForConditionalGeneration"]
VARIATIONS["internvl"] = [
    dict(text_config=dict(_TEXT, model_type="qwen2"), vision_config=_INTERN_VISION),
    dict(text_config=dict(_TEXT, model_type="llama", num_hidden_layers=3),
         vision_config=dict(_INTERN_VISION, attention_bias=True, use_qk_norm=True,
                            norm_type="rms_norm", use_mean_pooling=False),
         tie_word_embeddings=False),
    dict(text_config=dict(_TEXT, model_type="qwen2"),
         vision_config=dict(_INTERN_VISION, hidden_size=48, image_size=64, patch_size=8,
                            use_mask_token=True, use_absolute_position_embeddings=False),
         downsample_ratio=0.25),
]

# LLaVA-OneVision and LLaVA-NeXT-Video: LLaVA-NeXT's projector with the tie forwarded from
# text_config, two feature layers, projector biases off; the video pooler's convolution.
_CLIP = dict(_SIGLIP, model_type="clip_vision_model", image_size=56, patch_size=14)
FAMILIES += ["llava_onevision", "llava_next_video"]
EXTRA_CLASSES["llava_onevision"] = ["LlavaOnevisionForConditionalGeneration"]
EXTRA_CLASSES["llava_next_video"] = ["LlavaNextVideoForConditionalGeneration"]
VARIATIONS["llava_onevision"] = [
    dict(text_config=dict(_TEXT, model_type="qwen2"), vision_config=dict(_SIGLIP, vision_use_head=False)),
    dict(text_config=dict(_TEXT, model_type="qwen2", tie_word_embeddings=True), vision_config=_SIGLIP,
         vision_feature_layer=[-2, -1], multimodal_projector_bias=False),
]
VARIATIONS["llava_next_video"] = [
    dict(text_config=dict(_TEXT, model_type="llama"), vision_config=_CLIP),
    dict(text_config=dict(_TEXT, model_type="mistral", tie_word_embeddings=True), vision_config=_CLIP,
         spatial_pool_mode="conv", spatial_pool_stride=3, vision_feature_layer=[-2, -1]),
    dict(text_config=dict(_TEXT, model_type="llama"), vision_config=_CLIP, spatial_pool_mode="conv",
         spatial_pool_out_channels=40, multimodal_projector_bias=False),
]
