//! Parameter counts of the DistilBERT, ALBERT, ELECTRA, DeBERTa-v2, MPNet and ViT families,
//! each written out from the config by hand (from transformers 4.57.1's module definitions), and
//! compared with the published checkpoint where tests/fixtures/reference/checkpoints.tsv has a count.

mod common;

use common::{plan_id, plan_text, published_counts, reference_config_with};
use modelatlas::estimate::reconcile::Status;
use serde_json::json;

/// nn.Linear(i, o) with its bias.
fn linear(i: u64, o: u64) -> u64 {
    i * o + o
}

/// nn.LayerNorm(w): weight and bias.
fn norm(w: u64) -> u64 {
    2 * w
}

/// One post-LN BERT-shaped layer: q, k, v, o (h x h + h each), two LayerNorms, up (h -> ffn)
/// and down (ffn -> h). DistilBERT, ALBERT, ELECTRA, MPNet, DeBERTa-v2 without position
/// projections and ViT (pre-LN, same tensors) all have exactly these.
fn layer(h: u64, ffn: u64) -> u64 {
    4 * linear(h, h) + 2 * norm(h) + linear(h, ffn) + linear(ffn, h)
}

fn derived(config: &serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn derived_from(folder: &str, patch: serde_json::Value) -> u64 {
    plan_text(&reference_config_with(folder, patch)).unwrap().params.unwrap().derived
}

// ---------------------------------------------------------------- DistilBERT

/// Word (vocab x dim) and position (positions x dim) tables and their LayerNorm; no token types.
fn distilbert_embeddings(vocab: u64, positions: u64, dim: u64) -> u64 {
    vocab * dim + positions * dim + norm(dim)
}

#[test]
fn distilbert_base_uncased_masked_lm_is_66_985_530() {
    // config.json: DistilBertForMaskedLM, vocab 30522, dim 768, 6 layers, hidden_dim 3072, 512 positions.
    let encoder = distilbert_embeddings(30_522, 512, 768) + 6 * layer(768, 3072);
    assert_eq!(encoder, 66_362_880);
    // vocab_transform (dim x dim), vocab_layer_norm, and vocab_projector's bias; its weight is
    // tied to the word embeddings and counted there.
    let head = linear(768, 768) + norm(768) + 30_522;
    let expected = encoder + head;
    assert_eq!(expected, 66_985_530);
    let page = plan_id("distilbert/distilbert-base-uncased");
    let p = page.params.unwrap();
    assert_eq!(p.derived, expected);
    // checkpoints.tsv has a row for it but no published total.
    assert!(!published_counts().contains_key("distilbert/distilbert-base-uncased"));
    assert_eq!(p.checkpoint, None);
    assert_eq!(p.reconciliation.status, Status::Unknown);
    assert!(p.tied.iter().any(|t| t.tensor == "vocab_projector.weight"
        && t.tied_to == "distilbert.embeddings.word_embeddings.weight"));
}

#[test]
fn distilbert_default_config_is_distilbert_model() {
    // DistilBertConfig(): vocab 30522, dim 768, 6 layers, 12 heads, hidden_dim 4 * 768, 512 positions.
    let expected = distilbert_embeddings(30_522, 512, 768) + 6 * layer(768, 4 * 768);
    let page = plan_text(&json!({"model_type": "distilbert"}).to_string()).unwrap();
    assert_eq!(page.architecture.as_deref(), Some("DistilBertModel"));
    assert_eq!(page.params.unwrap().derived, expected);
}

#[test]
fn distilbert_heads_are_sized_from_the_config() {
    let f = "distilbert--distilbert-base-uncased";
    let base = distilbert_embeddings(30_522, 512, 768) + 6 * layer(768, 3072);
    // pre_classifier (dim x dim) then classifier (dim x labels), labels from id2label.
    let seq = json!({"architectures": ["DistilBertForSequenceClassification"], "id2label": {"0": "a", "1": "b", "2": "c"}});
    assert_eq!(derived_from(f, seq), base + linear(768, 768) + linear(768, 3));
    assert_eq!(
        derived_from(f, json!({"architectures": ["DistilBertForTokenClassification"], "num_labels": 9})),
        base + linear(768, 9)
    );
    assert_eq!(
        derived_from(f, json!({"architectures": ["DistilBertForQuestionAnswering"]})),
        base + linear(768, 2)
    );
    // Untied: vocab_projector's weight is a parameter of its own.
    assert_eq!(
        derived_from(f, json!({"tie_word_embeddings": false})),
        base + linear(768, 768) + norm(768) + linear(768, 30_522)
    );
    // Sinusoidal positions fill the same nn.Embedding weight: still counted.
    assert_eq!(derived_from(f, json!({"sinusoidal_pos_embds": true})), 66_985_530);
}

// ---------------------------------------------------------------- ALBERT

/// Word, position and token-type tables at the embedding width E, and their LayerNorm (width E).
fn albert_embeddings(vocab: u64, positions: u64, types: u64, e: u64) -> u64 {
    (vocab + positions + types) * e + norm(e)
}

/// predictions.dense (h -> E), predictions.LayerNorm (E) and predictions.bias (vocab); the decoder
/// weight is tied to the word embeddings and its bias to predictions.bias.
fn albert_mlm(h: u64, e: u64, vocab: u64) -> u64 {
    linear(h, e) + norm(e) + vocab
}

#[test]
fn albert_base_v2_masked_lm_counts_its_shared_layer_once() {
    // config.json: AlbertForMaskedLM, vocab 30000, embedding 128, hidden 768, 12 layers in 1 group
    // of 1 layer, ffn 3072, 512 positions, 2 token types.
    let embeddings = albert_embeddings(30_000, 512, 2, 128);
    assert_eq!(embeddings, 3_906_048);
    let mapping_in = linear(128, 768);
    // One group, applied 12 times: its parameters exist once.
    let expected = embeddings + mapping_in + layer(768, 3072) + albert_mlm(768, 128, 30_000);
    assert_eq!(expected, 11_221_680);
    let page = plan_id("albert/albert-base-v2");
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.derived, expected);
    assert!(!published_counts().contains_key("albert/albert-base-v2"), "checkpoints.tsv: not found");
    assert_eq!(p.reconciliation.status, Status::Unknown);
    // The graph shows one parameter set, and the forward pass says it runs 12 times.
    let g = page.structure.as_ref().unwrap();
    let layers = g.sections.iter().find(|s| s.name == "albert.encoder.albert_layer_groups.{i}").unwrap();
    assert_eq!(layers.repeat, 1);
    assert!(layers.nodes.iter().any(|n| n.detail.contains("applied 12 times")));
    assert_eq!(page.config.as_ref().unwrap().num_layers, 12, "layer passes, for activations");
}

#[test]
fn albert_default_config_is_the_xxlarge_albert_model() {
    // AlbertConfig(): vocab 30000, embedding 128, hidden 4096, 64 heads, ffn 16384, 12 layers in
    // 1 group; AlbertModel adds its pooler (hidden x hidden).
    let expected =
        albert_embeddings(30_000, 512, 2, 128) + linear(128, 4096) + layer(4096, 16_384) + linear(4096, 4096);
    assert_eq!(expected, 222_595_584);
    assert_eq!(derived(&json!({"model_type": "albert"})), expected);
}

#[test]
fn albert_heads_and_groups() {
    let f = "albert--albert-base-v2";
    let encoder = albert_embeddings(30_000, 512, 2, 128) + linear(128, 768) + layer(768, 3072);
    // Pre-training: the pooler, the MLM head and the 2-way sentence-order classifier.
    assert_eq!(
        derived_from(f, json!({"architectures": ["AlbertForPreTraining"]})),
        encoder + linear(768, 768) + albert_mlm(768, 128, 30_000) + linear(768, 2)
    );
    assert_eq!(derived_from(f, json!({"architectures": ["AlbertModel"]})), encoder + linear(768, 768));
    assert_eq!(
        derived_from(f, json!({"architectures": ["AlbertForSequenceClassification"], "num_labels": 5})),
        encoder + linear(768, 768) + linear(768, 5)
    );
    // 2 groups of 2 layers: four distinct layers' parameters, whatever the depth.
    let grouped = json!({"architectures": ["AlbertModel"], "num_hidden_groups": 2, "inner_group_num": 2});
    assert_eq!(
        derived_from(f, grouped),
        encoder - layer(768, 3072) + 4 * layer(768, 3072) + linear(768, 768)
    );
}

// ---------------------------------------------------------------- ELECTRA

/// Word, position and token-type tables at the embedding width and their LayerNorm.
fn electra_embeddings(vocab: u64, positions: u64, types: u64, e: u64) -> u64 {
    (vocab + positions + types) * e + norm(e)
}

#[test]
fn electra_base_discriminator_is_109_483_009() {
    // config.json: ElectraForPreTraining, vocab 30522, embedding 768 = hidden (no
    // embeddings_project), 12 layers, ffn 3072, 512 positions, 2 token types.
    let encoder = electra_embeddings(30_522, 512, 2, 768) + 12 * layer(768, 3072);
    // discriminator_predictions: dense (h x h) then dense_prediction (h -> 1).
    let expected = encoder + linear(768, 768) + linear(768, 1);
    assert_eq!(expected, 109_483_009);
    let p = plan_id("google/electra-base-discriminator").params.unwrap();
    assert_eq!(p.derived, expected);
    assert!(
        !published_counts().contains_key("google/electra-base-discriminator"),
        "checkpoints.tsv: not found"
    );
    assert_eq!(p.reconciliation.status, Status::Unknown);
}

#[test]
fn electra_default_config_projects_its_narrow_embeddings() {
    // ElectraConfig(): vocab 30522, embedding 128, hidden 256, 4 heads, ffn 1024, 12 layers.
    let model = electra_embeddings(30_522, 512, 2, 128) + linear(128, 256) + 12 * layer(256, 1024);
    assert_eq!(model, 13_483_008);
    assert_eq!(derived(&json!({"model_type": "electra"})), model);
    // The generator head: dense (h -> E), LayerNorm (E), generator_lm_head's bias; its weight
    // (vocab x E) is tied to the word embeddings.
    let mlm = json!({"model_type": "electra", "architectures": ["ElectraForMaskedLM"]});
    assert_eq!(derived(&mlm), model + linear(256, 128) + norm(128) + 30_522);
}

#[test]
fn electra_classification_heads() {
    let f = "google--electra-base-discriminator";
    let encoder = electra_embeddings(30_522, 512, 2, 768) + 12 * layer(768, 3072);
    assert_eq!(
        derived_from(f, json!({"architectures": ["ElectraForSequenceClassification"], "num_labels": 3})),
        encoder + linear(768, 768) + linear(768, 3)
    );
    assert_eq!(
        derived_from(f, json!({"architectures": ["ElectraForTokenClassification"], "num_labels": 7})),
        encoder + linear(768, 7)
    );
    assert_eq!(derived_from(f, json!({"architectures": ["ElectraModel"]})), encoder, "no pooler");
    // 10 heads do not divide 768: ElectraSelfAttention (whose config has embedding_size) does not
    // refuse, and q, k, v project to 10 x 76 = 760.
    let uneven = electra_embeddings(30_522, 512, 2, 768)
        + 12 * (layer(768, 3072) - 3 * linear(768, 768) + 3 * linear(768, 760));
    assert_eq!(
        derived_from(f, json!({"architectures": ["ElectraModel"], "num_attention_heads": 10})),
        uneven
    );
    // Multiple choice: sequence_summary.summary (h x h, summary_use_proj) then classifier (h -> 1).
    assert_eq!(
        derived_from(f, json!({"architectures": ["ElectraForMultipleChoice"]})),
        encoder + linear(768, 768) + linear(768, 1)
    );
}

// ---------------------------------------------------------------- DeBERTa-v2

/// microsoft/deberta-v3-base's dimensions (no reference config: written here).
fn deberta_v3_base(class: &str) -> serde_json::Value {
    json!({
        "model_type": "deberta-v2", "architectures": [class],
        "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
        "vocab_size": 128100, "max_position_embeddings": 512, "position_buckets": 256,
        "relative_attention": true, "pos_att_type": ["p2c", "c2p"], "norm_rel_ebd": "layer_norm",
        "share_att_key": true, "position_biased_input": false, "type_vocab_size": 0,
        "max_relative_positions": -1, "layer_norm_eps": 1e-7
    })
}

#[test]
fn deberta_v3_base_dimensions() {
    // Word embeddings and their LayerNorm only: no absolute positions, no token types.
    let embeddings = 128_100 * 768 + norm(768);
    // encoder.rel_embeddings: 2 x position_buckets rows, and its LayerNorm (norm_rel_ebd).
    let relative = 2 * 256 * 768 + norm(768);
    // share_att_key: no pos_key_proj / pos_query_proj, so a layer is the plain BERT layer.
    let model = embeddings + relative + 12 * layer(768, 3072);
    assert_eq!(model, 183_831_552);
    assert_eq!(derived(&deberta_v3_base("DebertaV2Model")), model);
    // Legacy MLM head: transform dense (h -> E = h), its LayerNorm, cls.predictions.bias; the
    // decoder weight is tied to the word embeddings.
    assert_eq!(
        derived(&deberta_v3_base("DebertaV2ForMaskedLM")),
        model + linear(768, 768) + norm(768) + 128_100
    );
    // Sequence classification: ContextPooler dense (h x h), then classifier (h -> 2 by default).
    assert_eq!(
        derived(&deberta_v3_base("DebertaV2ForSequenceClassification")),
        model + linear(768, 768) + linear(768, 2)
    );
}

#[test]
fn deberta_v2_default_config_has_absolute_positions_and_no_relative_table() {
    // DebertaV2Config(): vocab 128100, hidden 1536, 24 layers, ffn 6144, position_biased_input
    // true (512 absolute positions), relative_attention false, type_vocab_size 0.
    let expected = 128_100 * 1536 + 512 * 1536 + norm(1536) + 24 * layer(1536, 6144);
    assert_eq!(derived(&json!({"model_type": "deberta-v2"})), expected);
}

#[test]
fn deberta_v2_unshared_position_projections_and_the_conv_layer() {
    let mut c = deberta_v3_base("DebertaV2Model");
    let base = derived(&c);
    // Without share_att_key each layer gets pos_key_proj (c2p) and pos_query_proj (p2c).
    c["share_att_key"] = json!(false);
    assert_eq!(derived(&c), base + 12 * 2 * linear(768, 768));
    // conv_kernel_size 3: Conv1d(h, h, 3) with bias, and its LayerNorm, once in the encoder.
    c["share_att_key"] = json!(true);
    c["conv_kernel_size"] = json!(3);
    assert_eq!(derived(&c), base + (768 * 768 * 3 + 768) + norm(768));
}

// ---------------------------------------------------------------- MPNet

#[test]
fn mpnet_default_config() {
    // MPNetConfig(): vocab 30527, hidden 768, 12 layers, 12 heads, ffn 3072, 512 positions,
    // 32 relative buckets.
    let embeddings = 30_527 * 768 + 512 * 768 + norm(768);
    // encoder.relative_attention_bias: buckets x heads, once for all layers.
    let relative = 32 * 12;
    let encoder = embeddings + relative + 12 * layer(768, 3072);
    assert_eq!(
        derived(&json!({"model_type": "mpnet"})),
        encoder + linear(768, 768),
        "MPNetModel has a pooler"
    );
    assert_eq!(encoder + linear(768, 768), 109_484_928);
    // lm_head: dense, layer_norm, bias; the decoder weight is tied to the word embeddings.
    let mlm = json!({"model_type": "mpnet", "architectures": ["MPNetForMaskedLM"]});
    assert_eq!(derived(&mlm), encoder + linear(768, 768) + norm(768) + 30_527);
    let seq =
        json!({"model_type": "mpnet", "architectures": ["MPNetForSequenceClassification"], "num_labels": 4});
    assert_eq!(derived(&seq), encoder + linear(768, 768) + linear(768, 4));
    let page = plan_text(&json!({"model_type": "mpnet"}).to_string()).unwrap();
    assert_eq!(page.config.unwrap().usable_context, 510, "positions start after padding index 1");
}

// ---------------------------------------------------------------- ViT

/// Patch projection (Conv2d channels x p x p -> h, with bias), the [CLS] vector, and
/// (patches + 1) position vectors.
fn vit_embeddings(channels: u64, patch: u64, image: u64, h: u64) -> u64 {
    let patches = (image / patch) * (image / patch);
    (h * channels * patch * patch + h) + h + (patches + 1) * h
}

fn vit_base_patch16_224() -> serde_json::Value {
    let id2label: serde_json::Map<String, serde_json::Value> =
        (0..1000).map(|i| (i.to_string(), json!(format!("class {i}")))).collect();
    json!({
        "model_type": "vit", "architectures": ["ViTForImageClassification"],
        "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
        "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": true, "id2label": id2label
    })
}

#[test]
fn vit_base_patch16_224_equals_its_published_checkpoint() {
    // 14 x 14 = 196 patches + [CLS]; 12 pre-LN layers; the final layernorm; classifier 768 -> 1000.
    let encoder = vit_embeddings(3, 16, 224, 768) + 12 * layer(768, 3072) + norm(768);
    let expected = encoder + linear(768, 1000);
    assert_eq!(expected, 86_567_656);
    assert_eq!(published_counts()["google/vit-base-patch16-224"], expected);
    let page = plan_text(&vit_base_patch16_224().to_string()).unwrap();
    assert_eq!(page.params.as_ref().unwrap().derived, expected);
    let dims = page.config.as_ref().unwrap();
    assert_eq!((dims.vocab_size, dims.context), (0, 197));
    assert!(page.lints.iter().all(|l| !l.id.contains("vocab")), "no vocabulary rule on a model without one");
    assert!(page.forward_pass.as_ref().unwrap().ok);
    let reason = &page.memory.as_ref().unwrap().seq_len_reason;
    assert!(reason.contains("224x224 image in 16x16 patches"), "{reason}");
}

#[test]
fn vit_default_config_is_vit_model_with_its_pooler() {
    // ViTConfig(): hidden 768, 12 layers, ffn 3072, image 224, patch 16, 3 channels, qkv_bias.
    let expected = vit_embeddings(3, 16, 224, 768) + 12 * layer(768, 3072) + norm(768) + linear(768, 768);
    assert_eq!(expected, 86_389_248);
    assert_eq!(derived(&json!({"model_type": "vit"})), expected);
}

#[test]
fn vit_heads() {
    let encoder = vit_embeddings(3, 16, 224, 768) + 12 * layer(768, 3072) + norm(768);
    // num_labels 0: the classifier is an nn.Identity.
    let none = json!({"model_type": "vit", "architectures": ["ViTForImageClassification"], "num_labels": 0});
    assert_eq!(derived(&none), encoder);
    // Masked image modelling: a mask token, and a 1x1 Conv2d to stride^2 x channels = 768 outputs.
    let mim = json!({"model_type": "vit", "architectures": ["ViTForMaskedImageModeling"]});
    assert_eq!(derived(&mim), encoder + 768 + (768 * 768 + 768));
    // No q/k/v biases.
    let no_bias = json!({"model_type": "vit", "architectures": ["ViTForImageClassification"], "num_labels": 10, "qkv_bias": false});
    assert_eq!(derived(&no_bias), encoder - 12 * 3 * 768 + linear(768, 10));
}

// ---------------------------------------------------------------- transformers 5.x against 4.x

/// The count the page follows (5.x) and the 4.x count its note states, when the two differ.
fn both_releases(config: &serde_json::Value) -> (u64, Option<u64>) {
    let params = plan_text(&config.to_string()).unwrap().params.unwrap();
    (params.derived, params.other_release.map(|n| n.derived))
}

#[test]
fn untied_mlm_decoders_of_albert_mpnet_and_deberta_v2_keep_a_bias_of_their_own_under_5x() {
    // 4.x assigns `self.decoder.bias = self.bias` in every MLM head; 5.x ties the two only through
    // `_tied_weights_keys`, which hold only while tie_word_embeddings is true: untied, 5.x counts
    // one more vocab-long vector. Vocab sizes are the config classes' defaults (AlbertConfig
    // 30000, MPNetConfig 30527, DebertaV2Config 128100, whose default head is the legacy one).
    for (model_type, class, vocab) in [
        ("albert", "AlbertForMaskedLM", 30_000),
        ("albert", "AlbertForPreTraining", 30_000),
        ("mpnet", "MPNetForMaskedLM", 30_527),
        ("deberta-v2", "DebertaV2ForMaskedLM", 128_100),
    ] {
        let untied =
            json!({"model_type": model_type, "architectures": [class], "tie_word_embeddings": false});
        let (five, four) = both_releases(&untied);
        assert_eq!(Some(five - vocab), four, "{class}");
        let tied = json!({"model_type": model_type, "architectures": [class], "tie_word_embeddings": true});
        assert_eq!(both_releases(&tied).1, None, "{class}: tied, both releases count the same");
    }
}

#[test]
fn relative_key_attention_of_electra_and_albert_builds_its_distance_table_only_under_4x() {
    // 4.x: nn.Embedding(2 x max_position_embeddings - 1, head_dim) in every self-attention
    // module; 5.x's attention has no relative path. ElectraConfig(): 12 layers, hidden 256 over
    // 4 heads (head_dim 64), 512 positions. AlbertConfig(): one shared layer (1 group x 1 inner
    // layer), hidden 4096 over 64 heads (head_dim 64), 512 positions.
    for (model_type, tables) in [("electra", 12), ("albert", 1)] {
        let config = json!({"model_type": model_type, "position_embedding_type": "relative_key"});
        let (five, four) = both_releases(&config);
        assert_eq!(four, Some(five + tables * (2 * 512 - 1) * 64), "{model_type}");
        assert_eq!(five, derived(&json!({"model_type": model_type})), "{model_type}: as absolute");
    }
}
