"""Helper txb's types: gpt-sw3 (GPT-2's config and classes under its own model_type)."""

FAMILIES = ["gpt-sw3"]

EXTRA_CLASSES = {
    "gpt-sw3": ["GPT2ForTokenClassification", "GPT2ForQuestionAnswering", "GPT2DoubleHeadsModel"],
}


def _gpt2(n_embd, n_layer, n_head, vocab, **kw):
    return dict(n_embd=n_embd, n_layer=n_layer, n_head=n_head, vocab_size=vocab, **kw)


VARIATIONS = {
    "gpt-sw3": [
        _gpt2(128, 2, 4, 1000),
        _gpt2(96, 3, 6, 777, n_positions=77, tie_word_embeddings=False),
        _gpt2(64, 1, 2, 300, num_labels=5, n_inner=100),
    ],
}
