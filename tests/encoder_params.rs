//! Parameter counts of the encoder family, each written out from the config by hand, and the
//! difference from the published checkpoint explained tensor by tensor. Published figures come
//! from tests/fixtures/reference/checkpoints.tsv, not from this code.

mod common;

use common::{plan_id, plan_text, published_counts, reference_config_with};
use modelatlas::estimate::reconcile::{Method, Status};

/// One BERT layer: q, k, v, o (h x h + h each), two LayerNorms (2h each), up (h x ffn + ffn),
/// down (ffn x h + h).
fn bert_layer(h: u64, ffn: u64) -> u64 {
    4 * (h * h + h) + 2 * (2 * h) + (h * ffn + ffn) + (ffn * h + h)
}

/// Word, position and token-type embeddings plus their LayerNorm.
fn embeddings(vocab: u64, positions: u64, types: u64, h: u64) -> u64 {
    vocab * h + positions * h + types * h + 2 * h
}

fn pooler(h: u64) -> u64 {
    h * h + h
}

/// Transform dense + LayerNorm + the decoder's bias; the decoder weight is tied to the embeddings.
fn mlm_head(h: u64, vocab: u64) -> u64 {
    (h * h + h) + 2 * h + vocab
}

#[test]
fn xlm_roberta_base_masked_lm_is_278_295_186_and_the_checkpoint_adds_the_pooler() {
    // config.json: vocab 250002, hidden 768, 12 layers, ffn 3072, 514 positions, 1 token type.
    assert_eq!(embeddings(250_002, 514, 1, 768), 192_398_592);
    assert_eq!(bert_layer(768, 3072), 7_087_872);
    assert_eq!(mlm_head(768, 250_002), 842_130);
    let expected = 192_398_592 + 12 * 7_087_872 + 842_130;
    assert_eq!(expected, 278_295_186);

    let page = plan_id("FacebookAI/xlm-roberta-base");
    let p = page.params.unwrap();
    assert_eq!(p.derived, expected);
    let published = published_counts()["FacebookAI/xlm-roberta-base"];
    assert_eq!(published, 278_885_778);
    assert_eq!(p.checkpoint, Some(published));
    assert_eq!(published - expected, pooler(768), "590,592: the pooler the checkpoint carries");
    let r = p.reconciliation;
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.method, Some(Method::Inferred));
    assert_eq!(r.items.len(), 1);
    assert_eq!(r.items[0].tensors, ["roberta.pooler.dense.weight", "roberta.pooler.dense.bias"]);
    assert_eq!(r.items[0].scalars, 590_592);
}

#[test]
fn xlm_roberta_large_differs_from_its_checkpoint_by_exactly_the_pooler() {
    let expected = embeddings(250_002, 514, 1, 1024) + 24 * bert_layer(1024, 4096) + mlm_head(1024, 250_002);
    assert_eq!(expected, 560_142_482);
    let p = plan_id("FacebookAI/xlm-roberta-large").params.unwrap();
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["FacebookAI/xlm-roberta-large"] - expected, pooler(1024));
    assert_eq!(p.reconciliation.status, Status::Explained);
    assert_eq!(p.reconciliation.items[0].label, "pooler");
}

#[test]
fn roberta_base_checkpoint_holds_the_int64_position_ids_buffer() {
    let expected = embeddings(50_265, 514, 1, 768) + 12 * bert_layer(768, 3072) + mlm_head(768, 50_265);
    // The published F32 figure is exactly the class's parameters: 124,697,433.
    assert_eq!(expected, 124_697_433);
    let p = plan_id("FacebookAI/roberta-base").params.unwrap();
    assert_eq!(p.derived, expected);
    let published = published_counts()["FacebookAI/roberta-base"];
    assert_eq!(published - expected, 514, "I64 embeddings.position_ids [1, 514]");
    assert_eq!(p.reconciliation.items[0].tensors, ["roberta.embeddings.position_ids"]);
    assert_eq!(p.reconciliation.items[0].scalars, 514);
}

#[test]
fn bert_base_uncased_for_pretraining_equals_the_checkpoint_and_masked_lm_is_explained() {
    // BertForPreTraining: the encoder with its pooler, the MLM head, and the 2-way NSP head.
    let pretraining = embeddings(30_522, 512, 2, 768)
        + 12 * bert_layer(768, 3072)
        + pooler(768)
        + mlm_head(768, 30_522)
        + (2 * 768 + 2);
    assert_eq!(pretraining, 110_106_428);
    assert_eq!(published_counts()["google-bert/bert-base-uncased"], pretraining);

    let config = reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertForPreTraining"]}),
    );
    let p = plan_text(&config).unwrap().params.unwrap();
    assert_eq!(p.derived, pretraining);

    // The config names BertForMaskedLM, which has no pooler and no NSP head.
    let masked_lm = pretraining - pooler(768) - (2 * 768 + 2);
    let p = plan_id("google-bert/bert-base-uncased").params.unwrap();
    assert_eq!(p.derived, masked_lm);
    assert_eq!(masked_lm, 109_514_298);
    let labels: Vec<&str> = p.reconciliation.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["pooler", "next-sentence head"]);
    assert_eq!(p.reconciliation.items.iter().map(|i| i.scalars).sum::<i64>(), 592_130);
}

#[test]
fn all_minilm_l6_v2_is_matched_against_its_real_tensor_list() {
    // BertModel with pooler: 6 layers of 384, ffn 1536.
    let expected = embeddings(30_522, 512, 2, 384) + 6 * bert_layer(384, 1536) + pooler(384);
    assert_eq!(expected, 22_713_216);
    let p = plan_id("sentence-transformers/all-MiniLM-L6-v2").params.unwrap();
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["sentence-transformers/all-MiniLM-L6-v2"] - expected, 512);
    let r = p.reconciliation;
    assert_eq!(r.method, Some(Method::TensorList), "the snapshot carries the safetensors header's tensors");
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.unexplained, Some(0));
    assert_eq!(r.items.len(), 1);
    assert_eq!(r.items[0].tensors, ["embeddings.position_ids"]);
}

#[test]
fn bge_small_en_v1_5_is_a_12_layer_bert_model_plus_position_ids() {
    let expected = embeddings(30_522, 512, 2, 384) + 12 * bert_layer(384, 1536) + pooler(384);
    assert_eq!(expected, 33_360_000);
    let p = plan_id("BAAI/bge-small-en-v1.5").params.unwrap();
    assert_eq!(p.derived, expected);
    assert_eq!(published_counts()["BAAI/bge-small-en-v1.5"] - expected, 512);
    assert_eq!(p.reconciliation.items[0].label, "position_ids buffer");
}

#[test]
fn heads_are_sized_from_the_config() {
    let base = embeddings(50_265, 514, 1, 768) + 12 * bert_layer(768, 3072);
    let cases = [
        // RoBERTa's classification head: dense h x h + out_proj h x labels; no pooler.
        (
            serde_json::json!({"architectures": ["RobertaForSequenceClassification"], "id2label": {"0": "n", "1": "p", "2": "x"}}),
            base + (768 * 768 + 768) + (768 * 3 + 3),
        ),
        (
            serde_json::json!({"architectures": ["RobertaForTokenClassification"], "num_labels": 9}),
            base + 768 * 9 + 9,
        ),
        (serde_json::json!({"architectures": ["RobertaForQuestionAnswering"]}), base + 768 * 2 + 2),
        // qa_outputs is Linear(hidden, num_labels) in transformers, 2 only by default.
        (
            serde_json::json!({"architectures": ["RobertaForQuestionAnswering"], "num_labels": 5}),
            base + 768 * 5 + 5,
        ),
        (serde_json::json!({"architectures": ["RobertaModel"]}), base + pooler(768)),
        // Untied: the decoder's weight is a parameter of its own, and under 5.x its bias too (the
        // tie of `lm_head.decoder.bias` to `lm_head.bias` is one of `_tied_weights_keys`).
        (
            serde_json::json!({"architectures": ["RobertaForMaskedLM"], "tie_word_embeddings": false}),
            base + mlm_head(768, 50_265) + 50_265 * 768 + 50_265,
        ),
    ];
    for (patch, expected) in cases {
        let config = reference_config_with("FacebookAI--roberta-base", patch.clone());
        assert_eq!(plan_text(&config).unwrap().params.unwrap().derived, expected, "{patch}");
    }
    let bert_seq = reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertForSequenceClassification"], "num_labels": 5}),
    );
    let bert_base = embeddings(30_522, 512, 2, 768) + 12 * bert_layer(768, 3072);
    assert_eq!(plan_text(&bert_seq).unwrap().params.unwrap().derived, bert_base + pooler(768) + 768 * 5 + 5);
}

#[test]
fn relative_position_embeddings_build_nothing_under_5x_and_a_distance_table_per_layer_under_4x() {
    let config = reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertModel"], "position_embedding_type": "relative_key"}),
    );
    let absolute = embeddings(30_522, 512, 2, 768) + 12 * bert_layer(768, 3072) + pooler(768);
    // 4.x: nn.Embedding(2 * max_position_embeddings - 1, head_dim) in every self-attention; 5.x's
    // BertSelfAttention has no relative path at all.
    let distance = 12 * (2 * 512 - 1) * 64;
    let params = plan_text(&config).unwrap().params.unwrap();
    assert_eq!(params.derived, absolute);
    let note = params.other_release.expect("4.x counts differently");
    assert_eq!(note.derived, absolute + distance);
    assert!(note.why.contains("distance_embedding"), "{}", note.why);
}

#[test]
fn an_untied_mlm_decoder_keeps_its_own_bias_under_5x_and_shares_the_heads_under_4x() {
    let base = embeddings(30_522, 512, 2, 768) + 12 * bert_layer(768, 3072);
    // BertOnlyMLMHead: transform dense h x h + h, LayerNorm 2h, decoder h x vocab, bias vocab.
    let head = (768 * 768 + 768) + 2 * 768 + 30_522;
    let untied = reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertForMaskedLM"], "tie_word_embeddings": false}),
    );
    let params = plan_text(&untied).unwrap().params.unwrap();
    assert_eq!(params.derived, base + head + 30_522 * 768 + 30_522, "own weight and own decoder.bias");
    assert_eq!(params.other_release.map(|n| n.derived), Some(base + head + 30_522 * 768));
    let tied = reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertForMaskedLM"]}),
    );
    let params = plan_text(&tied).unwrap().params.unwrap();
    assert_eq!(params.derived, base + head);
    assert!(params.other_release.is_none(), "tied: both releases count the same");
}
