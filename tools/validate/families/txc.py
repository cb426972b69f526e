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
