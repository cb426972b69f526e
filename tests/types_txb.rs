//! Helper txb's types: each count written out by hand from transformers 5.24's modeling file, or
//! quoted from transformers (the comment says how it was obtained), never read back from the
//! program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

#[test]
fn gpt_sw3_is_read_as_gpt2_under_its_own_model_type() {
    // GPT2Config's defaults (transformers maps `gpt-sw3` onto it): vocab 50257, 1024 positions,
    // 768 wide, 12 layers, MLP 4 x 768; GPT2LMHeadModel ties its head to `wte`.
    let (v, p, h, l) = (50_257u64, 1024u64, 768u64, 12u64);
    let f = 4 * h;
    // Per block: ln_1 and ln_2 (2h each), c_attn (h x 3h + 3h), c_proj (h x h + h),
    // mlp.c_fc (h x f + f), mlp.c_proj (f x h + h).
    let block = 2 * (2 * h) + (h * 3 * h + 3 * h) + (h * h + h) + (h * f + f) + (f * h + h);
    let expected = v * h + p * h + l * block + 2 * h;
    assert_eq!(expected, 124_439_808); // GPT2LMHeadModel(GPT2Config()), transformers 5.24, meta device
    let config = json!({"model_type": "gpt-sw3", "architectures": ["GPT2LMHeadModel"]});
    assert_eq!(derived(config), expected);
}
