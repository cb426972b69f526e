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
