"""One-of-a-kind encoder-decoders and decoders (src/config/seq2seq_misc.rs, spec_misc.rs):
BigBird-Pegasus (Pegasus's pre-LN stacks, BigBird encoder attention, use_bias on every attention
projection). Variations: layers per stack, widths, heads, biases, attention type, tied and untied
heads."""

FAMILIES = ["bigbird_pegasus"]

EXTRA_CLASSES = {
    "bigbird_pegasus": ["BigBirdPegasusModel", "BigBirdPegasusForQuestionAnswering",
                        "BigBirdPegasusForCausalLM"],
}

VARIATIONS = {
    "bigbird_pegasus": [
        dict(d_model=64, encoder_layers=2, decoder_layers=3, encoder_ffn_dim=128,
             decoder_ffn_dim=96, encoder_attention_heads=4, decoder_attention_heads=2,
             vocab_size=1000, max_position_embeddings=128, block_size=8, num_random_blocks=2),
        dict(d_model=48, encoder_layers=1, decoder_layers=1, encoder_ffn_dim=50,
             decoder_ffn_dim=70, encoder_attention_heads=3, decoder_attention_heads=6,
             vocab_size=777, max_position_embeddings=40, use_bias=True,
             attention_type="original_full", tie_word_embeddings=False),
    ],
}

# EncoderDecoderModel: the encoder's AutoModel and the decoder's AutoModelForCausalLM with
# cross-attention; enc_to_dec_proj when the widths differ.
def _enc(**kw):
    base = dict(model_type="bert", vocab_size=500, hidden_size=64, num_hidden_layers=2,
                num_attention_heads=4, intermediate_size=128, max_position_embeddings=64)
    base.update(kw)
    return base


def _bert(**kw):
    return _enc(**{"is_decoder": True, "add_cross_attention": True, **kw})


FAMILIES.append("encoder-decoder")
VARIATIONS["encoder-decoder"] = [
    dict(encoder=_enc(), decoder=_bert(num_hidden_layers=3)),
    dict(encoder=_enc(hidden_size=96, num_attention_heads=6), decoder=_bert(tie_word_embeddings=False)),
    dict(encoder=_enc(model_type="roberta", pad_token_id=1),
         decoder=_bert(model_type="roberta", pad_token_id=1, hidden_size=48, num_attention_heads=3)),
    dict(encoder=_enc(), decoder=dict(model_type="gpt2", vocab_size=500, n_embd=64, n_layer=2,
                                       n_head=4, n_positions=64, add_cross_attention=True)),
    dict(encoder=_enc(num_hidden_layers=1),
         decoder=_bert(add_cross_attention=False, is_decoder=False, num_hidden_layers=1)),
    dict(encoder=_enc(model_type="electra", embedding_size=32),
         decoder=_bert(model_type="bert-generation")),
    dict(encoder=_enc(model_type="xlm-roberta-xl"), decoder=_bert(model_type="xlm-roberta-xl")),
]

# CPM-Ant: the input table holds prompt_types x prompt_length prompt rows; the head is untied.
FAMILIES.append("cpmant")
VARIATIONS["cpmant"] = [
    dict(vocab_size=1000, hidden_size=64, num_attention_heads=4, dim_head=16, dim_ff=128,
         num_hidden_layers=2, prompt_types=3, prompt_length=5, segment_types=4,
         position_bias_num_buckets=32),
    dict(vocab_size=777, hidden_size=48, num_attention_heads=2, dim_head=32, dim_ff=100,
         num_hidden_layers=3, prompt_types=1, prompt_length=1, segment_types=1,
         position_bias_num_buckets=16, tie_word_embeddings=False),
]

# HRM-Text: two stacks (L_module, H_module) of num_hidden_layers layers each, looped; no norm
# weights, a gate_proj in every attention, a frozen z_L_init vector.
FAMILIES.append("hrm_text")
VARIATIONS["hrm_text"] = [
    dict(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
         num_attention_heads=4, head_dim=16, H_cycles=2, L_cycles=1),
    dict(vocab_size=777, hidden_size=48, intermediate_size=100, num_hidden_layers=3,
         num_attention_heads=2, head_dim=32, attention_bias=True, mlp_bias=True,
         tie_word_embeddings=True, H_cycles=1, L_cycles=2),
]
