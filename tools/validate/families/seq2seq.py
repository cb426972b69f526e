"""Encoder-decoder types of the BART lineage (src/config/seq2seq.rs): each type's classes and
small variations (layers and widths per stack, heads that divide d_model, tied and untied
embeddings, vocab sizes)."""

FAMILIES = [
    "mbart", "marian", "pegasus", "m2m_100", "blenderbot", "blenderbot-small", "plbart",
]

EXTRA_CLASSES = {
    "bart": ["BartForCausalLM", "BartForQuestionAnswering"],
    "mbart": ["MBartForCausalLM", "MBartForQuestionAnswering"],
    "plbart": ["PLBartForCausalLM"],
    "pegasus": ["PegasusForCausalLM"],
    "marian": ["MarianForCausalLM"],
    "blenderbot": ["BlenderbotForCausalLM"],
    "blenderbot-small": ["BlenderbotSmallForCausalLM"],
}

_BART_LIKE = [
    dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=128, decoder_ffn_dim=96,
         encoder_attention_heads=4, decoder_attention_heads=2, vocab_size=1000,
         max_position_embeddings=128),
    dict(d_model=48, encoder_layers=1, decoder_layers=1, encoder_ffn_dim=50, decoder_ffn_dim=70,
         encoder_attention_heads=3, decoder_attention_heads=6, vocab_size=777,
         max_position_embeddings=40, tie_word_embeddings=False, num_labels=5),
    dict(hidden_size=32, num_hidden_layers=2, decoder_layers=2, encoder_ffn_dim=64,
         decoder_ffn_dim=64, num_attention_heads=4, decoder_attention_heads=4, vocab_size=300,
         max_position_embeddings=64, activation_function="relu"),
]

VARIATIONS = {t: _BART_LIKE for t in FAMILIES}
# MarianConfig's pad and decoder-start ids (58100) must lie inside the vocabulary.
VARIATIONS["marian"] = [dict(v, pad_token_id=0, decoder_start_token_id=0) for v in _BART_LIKE] + [
    dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_ffn_dim=128, decoder_ffn_dim=128,
         encoder_attention_heads=4, decoder_attention_heads=4, vocab_size=500,
         decoder_vocab_size=500, max_position_embeddings=64, pad_token_id=0,
         decoder_start_token_id=0),
]

FAMILIES.append("mvp")
EXTRA_CLASSES["mvp"] = ["MvpForCausalLM", "MvpForQuestionAnswering"]
VARIATIONS["mvp"] = _BART_LIKE + [
    dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=32, decoder_ffn_dim=32,
         encoder_attention_heads=4, decoder_attention_heads=4, vocab_size=100,
         max_position_embeddings=50, use_prompt=True, prompt_length=7, prompt_mid_dim=11),
]

# LED: positions per stack; attention_window must be even and positive per layer.
FAMILIES.append("led")
EXTRA_CLASSES["led"] = ["LEDForQuestionAnswering"]
VARIATIONS["led"] = [
    dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=128, decoder_ffn_dim=96,
         encoder_attention_heads=4, decoder_attention_heads=2, vocab_size=1000,
         max_encoder_position_embeddings=256, max_decoder_position_embeddings=64,
         attention_window=16),
    dict(d_model=48, encoder_layers=1, decoder_layers=1, encoder_ffn_dim=50, decoder_ffn_dim=70,
         encoder_attention_heads=3, decoder_attention_heads=6, vocab_size=777,
         max_encoder_position_embeddings=100, max_decoder_position_embeddings=40,
         attention_window=8, tie_word_embeddings=False),
]
