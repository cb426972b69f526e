//! BART-lineage reading: defaults per type, classes, bad values.
use super::*;

crate::config::testing::reader!(bart, BartConfig);

#[test]
fn each_type_reads_its_own_defaults_and_classes() {
    let c = bart(r#"{"model_type": "blenderbot"}"#).unwrap();
    assert_eq!(
        (c.d_model, c.encoder_layers, c.decoder_layers, c.max_position_embeddings),
        (2560, 2, 24, 128)
    );
    assert_eq!(c.class, "BlenderbotModel");
    let c = bart(r#"{"model_type": "marian", "architectures": ["MarianMTModel"]}"#).unwrap();
    assert_eq!((c.head, c.vocab_size, c.pad_token_id), (Head::ConditionalGeneration, 58101, Some(58100)));
    // PegasusForSequenceClassification does not exist: the class is refused, not guessed.
    let text = r#"{"model_type": "pegasus", "architectures": ["PegasusForSequenceClassification"]}"#;
    crate::config::testing::assert_field(bart(text), text, "architectures[0]");
}

#[test]
fn defaults_and_labels_follow_bart_config() {
    let c = bart(r#"{"model_type": "bart"}"#).unwrap();
    assert_eq!((c.vocab_size, c.d_model, c.encoder_layers, c.decoder_ffn_dim), (50265, 1024, 12, 4096));
    assert_eq!(c.class, "BartModel");
    let c = bart(r#"{"model_type": "bart", "architectures": ["BartForSequenceClassification"]}"#).unwrap();
    assert_eq!(c.head, Head::SequenceClassification { num_labels: 3 });
}

#[test]
fn bad_values_name_the_field() {
    for (text, field) in [
        (r#"{"model_type": "bart", "encoder_layers": 0}"#, "encoder_layers"),
        (r#"{"model_type": "bart", "d_model": 1.5}"#, "d_model"),
        (r#"{"model_type": "bart", "architectures": ["BartForTokenClassification"]}"#, "architectures[0]"),
    ] {
        crate::config::testing::assert_field(bart(text), text, field);
    }
}
