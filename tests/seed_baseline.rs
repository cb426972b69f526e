//! The baseline memory method reproduces the seed page's table for xlm-roberta-base to the batch
//! (../shared/seed/000_db1981d71ec40144.txt). The arithmetic is written out here; the expected
//! figures are the seed's own.

mod common;

use common::plan_id;
use modelatlas::render::format::bytes;

#[test]
fn xlm_roberta_base_reproduces_the_seed_table_exactly() {
    let page = plan_id("FacebookAI/xlm-roberta-base");
    let m = page.memory.as_ref().unwrap();
    assert_eq!(m.seq_len, 514, "the config's context, as the seed sizes it");

    // The seed sizes the bare encoder: embeddings 192,398,592 + 12 x 7,087,872.
    let p: u64 = 192_398_592 + 12 * 7_087_872;
    assert_eq!(p, 277_453_056);
    assert_eq!(m.sized_params, p);

    // Activations per sample: (34 x 12 + 6) x 514 x 768 bytes.
    let act = ((34 * 12 + 6) * 514 * 768) as f64;
    assert_eq!(m.full.per_sample_bytes, act);
    assert_eq!(m.full.fixed_bytes, p as f64 * 16.0 * 1.2);
    // LoRA r=16 on q, k, v, o (768 -> 768), up (768 -> 3072) and down (3072 -> 768), 12 layers.
    let lora = 12 * 16 * (4 * (768 + 768) + 2 * (768 + 3072));
    assert_eq!(lora, 2_654_208);
    assert_eq!(m.lora.trainable_params, Some(lora));
    assert_eq!(m.lora.fixed_bytes, p as f64 * 2.0 + lora as f64 * 16.0 * 1.2);
    // Serving: bf16 weights + 2 x layers x hidden x seq x 2 bytes per sequence.
    assert_eq!(m.serve.fixed_bytes, p as f64 * 2.0);
    assert_eq!(m.serve.per_sample_bytes, (2 * 12 * 768 * 514 * 2) as f64);

    // The seed's headline figures.
    assert_eq!(bytes(m.full.batch1_bytes), "5.49 GB");
    assert_eq!(bytes(m.lora.batch1_bytes), "0.77 GB");
    assert_eq!(bytes(m.serve.fixed_bytes), "0.55 GB");
    assert_eq!(bytes(m.serve.per_sample_bytes), "19 MB");

    // The seed's table: largest batch per card.
    // The seed's five cards, picked from the catalogue by id (its "A100 / H100 80 GB" row is the
    // A100 80 GB here; the H100 80 GB has the same memory and the same row).
    let seed_cards = ["t4-16gb", "l4-24gb", "a100-40gb", "a100-80gb", "h200-141gb"];
    let table: Vec<(&str, u64, u64, u64)> = seed_cards
        .iter()
        .map(|id| page.cards.iter().find(|c| c.id == *id).unwrap())
        .map(|c| (c.id.as_str(), c.full, c.lora, c.serve))
        .collect();
    assert_eq!(
        table,
        [
            ("t4-16gb", 52, 81, 704),
            ("l4-24gb", 95, 123, 1072),
            ("a100-40gb", 180, 209, 1806),
            ("a100-80gb", 393, 421, 3642),
            ("h200-141gb", 717, 746, 6441),
        ]
    );
    let h100 = page.cards.iter().find(|c| c.id == "h100-80gb").unwrap();
    assert_eq!((h100.full, h100.lora, h100.serve), (393, 421, 3642));
}

#[test]
fn a_model_too_large_for_a_card_gets_batch_zero_there() {
    // xlm-roberta-large at 16 x 1.2 bytes per parameter: 560M x 19.2 = 10.8 GB fixed, plus
    // (34 x 24 + 6) x 514 x 1024 = 433 MB per sample: fits the T4's 13.9 GB after headroom, but
    // a 24-layer model of four times the width would not.
    let page = plan_id("FacebookAI/xlm-roberta-large");
    assert!(page.cards[0].full > 0);
    let config = common::reference_config_with(
        "FacebookAI--xlm-roberta-large",
        serde_json::json!({"hidden_size": 4096, "intermediate_size": 16384, "num_attention_heads": 32}),
    );
    let big = common::plan_text(&config).unwrap();
    assert_eq!(big.cards[0].full, 0, "T4: {:?}", big.cards[0]);
    assert!(big.cards.last().unwrap().full > 0, "H200 holds it");
}
