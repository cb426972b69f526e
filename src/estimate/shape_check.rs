//! "Will it forward-pass": the shape rules a config must satisfy for its class to be built and
//! run. A failure names the fields and the reason.

use serde::Serialize;

use crate::config::Dims;

#[derive(Debug, Clone, Serialize)]
pub struct ForwardPass {
    pub ok: bool,
    pub problems: Vec<String>,
}

/// The keys of transformers' `ACT2FN` (`transformers/activations.py`, `ACT2CLS`, transformers
/// 5.25.0): gelu, gelu_10, gelu_fast, gelu_new, gelu_python, gelu_pytorch_tanh,
/// gelu_python_tanh, gelu_accurate, hardswish, laplace, leaky_relu, linear, mish, quick_gelu,
/// relu, relu2, relu6, sigmoid, silu, sqrtsoftplus, swish, tanh, prelu, xielu. Lookups are exact:
/// `ACT2FN["GELU"]` is a KeyError.
pub const ACT2FN: [&str; 24] = [
    "gelu",
    "gelu_10",
    "gelu_fast",
    "gelu_new",
    "gelu_python",
    "gelu_pytorch_tanh",
    "gelu_python_tanh",
    "gelu_accurate",
    "hardswish",
    "laplace",
    "leaky_relu",
    "linear",
    "mish",
    "quick_gelu",
    "relu",
    "relu2",
    "relu6",
    "sigmoid",
    "silu",
    "sqrtsoftplus",
    "swish",
    "tanh",
    "prelu",
    "xielu",
];

/// The shape rules, and that every activation the class looks up is one transformers has
/// (`activations`: config field, name looked up).
pub fn check(d: &Dims, activations: &[(&str, String)]) -> ForwardPass {
    let mut problems = vec![];
    for (field, name) in activations {
        if !ACT2FN.contains(&name.as_str()) {
            problems.push(format!(
                "{field} ({name:?}) is not an activation transformers knows: building the layers looks it up in ACT2FN and raises KeyError (\"function {name} not found in ACT2FN mapping\"); known: {}",
                ACT2FN.join(", ")
            ));
        }
    }
    // Only a head width derived as hidden / heads must come out whole: a head_dim of its own
    // (the privacy filter's 14 heads of 64 over hidden 640) needs no division, and a model
    // without attention (FNet: 0 heads) splits nothing.
    if d.num_heads > 0
        && !d.hidden_size.is_multiple_of(d.num_heads)
        && d.head_dim == d.hidden_size / d.num_heads
    {
        problems.push(format!(
            "num_attention_heads ({}) does not divide hidden_size ({}): the query, key and value projections cannot be split into equal heads (transformers refuses to build the attention layer)",
            d.num_heads, d.hidden_size
        ));
    }
    if !d.num_heads.is_multiple_of(d.num_kv_heads) {
        problems.push(format!(
            "num_key_value_heads ({}) does not divide num_attention_heads ({}): query heads cannot be grouped over the key/value heads",
            d.num_kv_heads, d.num_heads
        ));
    }
    if let Some(pad) = d.pad_token_id
        && pad >= d.vocab_size
    {
        problems.push(format!(
            "pad_token_id ({pad}) is outside the vocabulary (vocab_size {}): the embedding's padding index must be a row of it",
            d.vocab_size
        ));
    }
    if d.usable_context == 0 {
        problems.push(format!(
            "no position is usable: max_position_embeddings ({}) leaves none after the padding offset",
            d.context
        ));
    }
    ForwardPass { ok: problems.is_empty(), problems }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> Dims {
        // A BERT-base-shaped encoder: 64-wide heads, every head its own key and value.
        let base = Dims::mha(768, 12, 12, 3072, 30522, 512);
        Dims { pad_token_id: Some(0), tie_word_embeddings: true, layer_norm_eps: 1e-12, ..base }
    }

    #[test]
    fn a_well_formed_config_passes() {
        assert!(check(&dims(), &[]).ok);
    }

    #[test]
    fn heads_that_do_not_divide_the_hidden_size_block_the_forward_pass() {
        let fp = check(&Dims { hidden_size: 770, ..dims() }, &[]);
        assert!(!fp.ok);
        assert!(fp.problems[0].contains("(12) does not divide hidden_size (770)"), "{:?}", fp.problems);
    }

    #[test]
    fn an_explicit_head_dim_needs_no_division_of_the_hidden_size() {
        // OpenAIPrivacyFilterConfig: hidden 640, 14 heads of head_dim 64 (14 x 64 = 896), over 2
        // key/value heads; transformers builds q_proj 640 -> 896 without dividing 640 by 14.
        let d = Dims { hidden_size: 640, num_heads: 14, num_kv_heads: 2, head_dim: 64, ..dims() };
        assert!(check(&d, &[]).ok, "{:?}", check(&d, &[]).problems);
        // The same heads with the width derived (640 / 14 = 45, remainder 10) cannot be split.
        assert!(!check(&Dims { head_dim: 45, ..d }, &[]).ok);
    }

    #[test]
    fn a_model_without_attention_has_no_heads_to_divide() {
        // FNet mixes tokens with a Fourier transform: no heads, no head width.
        let d = Dims { hidden_size: 90, num_heads: 0, num_kv_heads: 0, head_dim: 0, ..dims() };
        assert!(check(&d, &[]).ok, "{:?}", check(&d, &[]).problems);
    }

    #[test]
    fn a_padding_index_outside_the_vocabulary_blocks_the_forward_pass() {
        assert!(!check(&Dims { pad_token_id: Some(30522), ..dims() }, &[]).ok);
    }

    #[test]
    fn every_activation_transformers_has_passes() {
        for name in ACT2FN {
            assert!(check(&dims(), &[("hidden_act", name.to_string())]).ok, "{name}");
        }
    }

    #[test]
    fn an_activation_transformers_lacks_blocks_the_forward_pass_naming_the_field() {
        let fp = check(&dims(), &[("hidden_act", "not_an_activation".into())]);
        assert!(!fp.ok);
        assert!(fp.problems[0].starts_with("hidden_act (\"not_an_activation\")"), "{:?}", fp.problems);
        // ACT2FN is a dict: the lookup is case-sensitive.
        assert!(!check(&dims(), &[("activation_function", "GELU".into())]).ok);
    }
}
