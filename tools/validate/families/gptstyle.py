"""GPT-2-lineage decoders described in src/config/spec_gpt_types.rs, for validate_params.py."""

FAMILIES = ["gpt_neo", "gptj", "codegen", "xglm", "biogpt", "openai-gpt"]

EXTRA_CLASSES = {
    "gpt_neo": ["GPTNeoForTokenClassification", "GPTNeoForQuestionAnswering"],
    "gptj": ["GPTJForQuestionAnswering"],
    "biogpt": ["BioGptForTokenClassification"],
}


def _neo(hidden, layers, heads, vocab, **kw):
    # GPTNeoConfig requires attention_types to expand to exactly num_layers kinds.
    kinds = [[["global", "local"], layers // 2]] if layers % 2 == 0 else [[["global"], layers]]
    return dict(hidden_size=hidden, num_layers=layers, num_heads=heads, vocab_size=vocab,
                attention_types=kinds, **kw)


def _gpt2(n_embd, n_layer, n_head, vocab, **kw):
    return dict(n_embd=n_embd, n_layer=n_layer, n_head=n_head, vocab_size=vocab, **kw)


# Layers, widths, heads, an explicit MLP width, tied and untied, labels.
VARIATIONS = {
    "gpt_neo": [
        _neo(128, 2, 4, 1000),
        _neo(96, 3, 6, 777, intermediate_size=200, tie_word_embeddings=False),
        _neo(64, 4, 2, 300, num_labels=5, window_size=16, max_position_embeddings=64),
    ],
    "gptj": [
        _gpt2(128, 2, 4, 1000, rotary_dim=16),
        _gpt2(96, 3, 6, 777, n_inner=200, rotary_dim=8, tie_word_embeddings=True),
        _gpt2(64, 1, 2, 300, n_positions=64, rotary_dim=16, num_labels=5),
    ],
    "codegen": [
        _gpt2(128, 2, 4, 1000, rotary_dim=16),
        _gpt2(96, 3, 6, 777, n_inner=200, rotary_dim=8, tie_word_embeddings=True),
    ],
    "xglm": [
        dict(d_model=128, num_layers=2, attention_heads=4, ffn_dim=256, vocab_size=1000),
        dict(d_model=96, num_layers=3, attention_heads=6, ffn_dim=200, vocab_size=777,
             tie_word_embeddings=False, scale_embedding=False),
        dict(d_model=64, num_layers=1, attention_heads=2, ffn_dim=100, vocab_size=300,
             add_cross_attention=True),
    ],
    "biogpt": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
             vocab_size=1000),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, intermediate_size=200,
             vocab_size=777, tie_word_embeddings=False, max_position_embeddings=77),
        dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=100,
             vocab_size=300, num_labels=5),
    ],
    "openai-gpt": [
        _gpt2(128, 2, 4, 1000),
        _gpt2(96, 3, 6, 777, n_positions=77, tie_word_embeddings=False),
        _gpt2(64, 1, 2, 300, num_labels=5),
    ],
}

# CTRL, MPT and Persimmon (src/config/spec_gpt_more.rs).
FAMILIES += ["ctrl", "mpt", "persimmon"]
EXTRA_CLASSES.update({
    "ctrl": ["CTRLForSequenceClassification"],
    "mpt": ["MptForSequenceClassification", "MptForTokenClassification", "MptForQuestionAnswering"],
    "persimmon": ["PersimmonForSequenceClassification", "PersimmonForTokenClassification"],
})
VARIATIONS.update({
    "ctrl": [
        _gpt2(128, 2, 4, 1000, dff=300),
        _gpt2(96, 3, 6, 777, dff=200, tie_word_embeddings=False, num_labels=5),
    ],
    "mpt": [
        dict(d_model=128, n_layers=2, n_heads=4, vocab_size=1000),
        dict(d_model=96, n_layers=3, n_heads=6, vocab_size=777, tie_word_embeddings=False,
             expansion_ratio=2, no_bias=False, attn_config={"qk_ln": True, "clip_qkv": 6.0}),
        dict(d_model=64, n_layers=1, n_heads=2, vocab_size=300, num_labels=5),
    ],
    "persimmon": [
        dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
             vocab_size=1000),
        dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, intermediate_size=200,
             vocab_size=777, tie_word_embeddings=True, qk_layernorm=False, num_labels=5),
    ],
})

FAMILIES += ["gpt_neox_japanese"]
VARIATIONS["gpt_neox_japanese"] = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, vocab_size=1000),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, vocab_size=777,
         intermediate_multiple_size=2, tie_word_embeddings=False),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, vocab_size=300),
]

FAMILIES += ["bert-generation"]
VARIATIONS["bert-generation"] = [
    dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
         vocab_size=1000, is_decoder=True),
    dict(hidden_size=96, num_hidden_layers=3, num_attention_heads=6, intermediate_size=200,
         vocab_size=777, tie_word_embeddings=False, max_position_embeddings=77, is_decoder=True),
    dict(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=100,
         vocab_size=300, is_decoder=True, add_cross_attention=True),
]

FAMILIES += ["trocr"]
VARIATIONS["trocr"] = [
    dict(d_model=128, decoder_layers=2, decoder_attention_heads=4, decoder_ffn_dim=256,
         vocab_size=1000),
    dict(d_model=96, decoder_layers=3, decoder_attention_heads=6, decoder_ffn_dim=200,
         vocab_size=777, tie_word_embeddings=False, use_learned_position_embeddings=False,
         layernorm_embedding=False),
    dict(d_model=64, decoder_layers=1, decoder_attention_heads=2, decoder_ffn_dim=100,
         vocab_size=300, is_decoder=True, cross_attention_hidden_size=48),
    dict(d_model=64, decoder_layers=2, decoder_attention_heads=2, decoder_ffn_dim=100,
         vocab_size=300, is_decoder=True, max_position_embeddings=77),
]
