//! A quantized checkpoint stores tensors the class does not have; the reconciliation names them.

mod common;

fn items(page: &modelatlas::page::ModelPage) -> Vec<(String, i64, u64)> {
    let v = serde_json::to_value(page).unwrap();
    v["params"]["reconciliation"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["label"].as_str().unwrap().to_string(),
                i["scalars"].as_i64().unwrap(),
                i["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn minimax_m2_fp8_checkpoint_is_the_class_plus_its_block_scales_and_router_biases() {
    let page = common::plan_id("MiniMaxAI/MiniMax-M2.7");
    let v = serde_json::to_value(&page).unwrap();
    assert_eq!(v["params"]["reconciliation"]["status"], "explained", "{}", v["params"]["reconciliation"]);
    // 128 x 128 blocks of every linear weight except `gate` and `lm_head` (modules_to_not_convert):
    // attention q [48*128 = 6144, 3072] -> 48 x 24 = 1152, k and v [8*128 = 1024, 3072] -> 8 x 24 =
    // 192 each, o [3072, 6144] -> 24 x 48 = 1152: 2,688 per layer; experts w1 and w3 [1536, 3072]
    // -> 12 x 24 = 288, w2 [3072, 1536] -> 24 x 12 = 288: 864 per expert, x 256 = 221,184.
    let per_layer = 1152 + 192 + 192 + 1152 + 256 * (288 + 288 + 288);
    assert_eq!(per_layer, 223_872);
    let scales = 62 * per_layer;
    // The Hub's safetensors.total (228,689,764,864) and the sum over the files (228,703,644,928)
    // differ by exactly this figure: tests/fixtures/reference/checkpoints.tsv.
    assert_eq!(scales, 228_703_644_928i64 - 228_689_764_864);
    // Each of the 62 routers keeps a 256-entry e_score_correction_bias buffer.
    let found = items(&page);
    assert!(found.contains(&("FP8 block scales".into(), scales, 62 * (4 + 256 * 3))), "{found:?}");
    assert!(found.contains(&("router score-correction biases".into(), 62 * 256, 62)), "{found:?}");
}
