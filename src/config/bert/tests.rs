use super::*;

crate::config::testing::reader!(bert, BertConfig);

#[test]
fn missing_keys_take_the_config_class_defaults_and_are_recorded() {
    let c = bert(r#"{"model_type": "roberta"}"#).unwrap();
    assert_eq!((c.vocab_size, c.hidden_size, c.num_layers, c.pad_token_id), (50265, 768, 12, 1));
    assert_eq!(c.class, "RobertaModel");
    assert!(c.defaulted.iter().any(|d| d.field == "vocab_size" && d.value == "50265"));
    let x = bert(r#"{"model_type": "xlm-roberta"}"#).unwrap();
    assert_eq!(x.vocab_size, 30522, "XLMRobertaConfig's default vocabulary");
}

#[test]
fn num_labels_comes_from_id2label() {
    let c = bert(
        r#"{"model_type": "bert", "architectures": ["BertForSequenceClassification"],
        "id2label": {"0": "a", "1": "b", "2": "c"}, "num_labels": 7}"#,
    )
    .unwrap();
    assert_eq!(c.head, Head::SequenceClassification { num_labels: 3 });
}

#[test]
fn a_wrong_type_names_the_field() {
    let err = bert(r#"{"model_type": "bert", "hidden_size": "768"}"#).unwrap_err();
    let ConfigError::Field { field, reason } = err else { panic!() };
    assert_eq!(field, "hidden_size");
    assert!(reason.contains("invalid type"), "{reason}");
}

#[test]
fn zero_negative_and_absurd_sizes_name_the_field() {
    for (text, field) in [
        (r#"{"model_type": "bert", "num_hidden_layers": 0}"#, "num_hidden_layers"),
        (r#"{"model_type": "bert", "vocab_size": -5}"#, "vocab_size"),
        (r#"{"model_type": "bert", "hidden_size": 100000000000}"#, "hidden_size"),
        (r#"{"model_type": "bert", "intermediate_size": 3.5}"#, "intermediate_size"),
    ] {
        crate::config::testing::assert_field(bert(text), text, field);
    }
}

#[test]
fn an_unknown_class_is_an_error_on_architectures() {
    let err = bert(r#"{"model_type": "bert", "architectures": ["BertForTranslation"]}"#).unwrap_err();
    assert!(matches!(err, ConfigError::Field { field, .. } if field == "architectures[0]"));
}

#[test]
fn roberta_positions_lose_the_padding_offset() {
    let c =
        bert(r#"{"model_type": "xlm-roberta", "max_position_embeddings": 514, "pad_token_id": 1}"#).unwrap();
    assert_eq!(c.usable_positions(), 512);
}
