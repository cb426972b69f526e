"""Helper txc's types: Audio Flamingo 3 and Music Flamingo (src/config/audio_lm.rs: a Whisper
encoder under `audio_tower`, a two-linear projector, the language model planned through its own
type)."""

FAMILIES = ["audioflamingo3", "musicflamingo"]

EXTRA_CLASSES = {
    "audioflamingo3": ["AudioFlamingo3ForConditionalGeneration"],
    "musicflamingo": ["MusicFlamingoForConditionalGeneration"],
}

_AUDIO = dict(num_hidden_layers=2, hidden_size=64, num_attention_heads=4, intermediate_size=128,
              num_mel_bins=16, max_source_positions=30)
_TEXT = dict(model_type="qwen2", hidden_size=96, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, intermediate_size=160, vocab_size=1000)

VARIATIONS = {}
# MusicFlamingoConfig reads audio_config["model_type"] (a KeyError when absent) and renames its own
# encoder type to Audio Flamingo 3's.
for _t, _enc in (("audioflamingo3", {}), ("musicflamingo", dict(model_type="musicflamingo_encoder"))):
    _a = dict(_AUDIO, model_type="audioflamingo3_encoder")
    VARIATIONS[_t] = [
        dict(audio_config=dict(_AUDIO, **_enc), text_config=_TEXT),
        # Whisper's names (the encoder config's attribute_map), an odd frame count, no projector
        # bias, flags asking for a tie the class never makes.
        dict(audio_config=dict(model_type="audioflamingo3_encoder", d_model=48, encoder_layers=3, encoder_attention_heads=3,
                               encoder_ffn_dim=80, num_mel_bins=8, max_source_positions=25),
             text_config=dict(_TEXT, num_hidden_layers=3, tie_word_embeddings=True),
             projector_bias=False, tie_word_embeddings=True),
        # A Llama language model.
        dict(audio_config=_a,
             text_config=dict(_TEXT, model_type="llama", num_key_value_heads=4)),
    ]

# BLT (src/config/blt.rs): four sub-configs with their own classes' defaults; the global
# projection present or not (encoder width x cross_attn_k against the global width), cross-
# attention in every local layer or one, the encoder's null MLP width (int(8 * hidden / 3)), no patcher,
# several hash functions, the head tied to the byte embeddings (which then take lm_head's
# vocab_size rows).
_ENC = dict(hidden_size=64, num_attention_heads=4, num_hidden_layers=2, vocab_size=260)
_GLOBAL = dict(hidden_size=128, num_attention_heads=4, num_hidden_layers=2, intermediate_size=200)
_DEC = dict(hidden_size=64, num_attention_heads=4, num_hidden_layers=2, intermediate_size=96,
            hidden_size_global=128)
_PATCHER = dict(hidden_size=32, num_attention_heads=2, num_hidden_layers=1, intermediate_size=48)
FAMILIES.append("blt")
EXTRA_CLASSES["blt"] = ["BltForCausalLM"]
VARIATIONS["blt"] = [
    dict(encoder_config=_ENC, global_config=_GLOBAL, decoder_config=_DEC, patcher_config=_PATCHER,
         encoder_hash_byte_group_vocab=100, encoder_hash_byte_group_size=[3, 4]),
    dict(encoder_config=dict(_ENC, cross_attn_all_layers=True, num_key_value_heads=2,
                             intermediate_size=None),
         global_config=dict(_GLOBAL, hidden_size=96, num_hidden_layers=3),
         decoder_config=dict(_DEC, cross_attn_all_layers=False, hidden_size_global=96,
                             cross_attn_k=3),
         patch_in_forward=False, encoder_hash_byte_group_vocab=50,
         encoder_hash_byte_group_nb_functions=2, vocab_size=300),
    dict(encoder_config=_ENC, global_config=dict(_GLOBAL, hidden_size=160),
         decoder_config=dict(_DEC, hidden_size_global=160), patcher_config=_PATCHER,
         cross_attn_k=3, encoder_hash_byte_group_vocab=70, tie_word_embeddings=True, vocab_size=300),
]

# Moshi's text decoder (src/config/moshi.rs; MoshiForConditionalGeneration, which adds the Mimi
# codec, is refused): grouped KV heads, a head_dim that is not hidden / heads, other widths.
FAMILIES.append("moshi")
_MOSHI = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
              ffn_dim=96)
VARIATIONS["moshi"] = [
    _MOSHI,
    dict(_MOSHI, num_key_value_heads=2, head_dim=24, num_hidden_layers=3, sliding_window=100),
    dict(_MOSHI, hidden_size=48, num_attention_heads=3, ffn_dim=130, vocab_size=777),
]

# MoshiForConditionalGeneration (its "default (sparse)" row is a transformers error: without an
# audio_encoder_config, MoshiConfig leaves audio_vocab_size None and the class cannot size its
# audio embeddings; the planner refuses it too): a small Mimi codec (resampling layers present by default; a
# frame rate equal to the encoder's drops them), the depth decoder synced from the top level, or
# MoshiDepthConfig's own defaults when the file has none; conv shortcuts, two residual layers,
# vector-quantization width equal to the codec's (no projections), a dropped codec decoder.
_MIMI = dict(model_type="mimi", num_quantizers=8, codebook_size=128, hidden_size=64,
             num_hidden_layers=1, num_attention_heads=4, intermediate_size=96, num_filters=8,
             upsample_groups=8, vector_quantization_hidden_dimension=32)
_DEPTH = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, ffn_dim=48)
EXTRA_CLASSES["moshi"] = ["MoshiForConditionalGeneration"]
VARIATIONS["moshi"] += [
    dict(_MOSHI, num_codebooks=4, depth_decoder_config=_DEPTH, audio_encoder_config=_MIMI),
    dict(_MOSHI, num_codebooks=3, audio_vocab_size=200, depth_decoder_config=dict(_DEPTH, num_key_value_heads=2),
         audio_encoder_config=dict(_MIMI, use_conv_shortcut=True, num_residual_layers=2,
                                   upsampling_ratios=[4, 3], attention_bias=True, compress=4,
                                   vector_quantization_hidden_dimension=64, frame_rate=2000)),
    dict(_MOSHI, num_codebooks=2, audio_encoder_config=dict(_MIMI, decoder_config=None,
                                                           sampling_rate=16000)),
]
