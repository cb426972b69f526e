use super::*;

#[test]
fn broken_json_is_reported_with_its_position() {
    let err = parse("{\"model_type\": \"bert\",").unwrap_err();
    assert!(matches!(&err, ConfigError::NotJson(m) if m.contains("line 1")), "{err}");
}

#[test]
fn a_missing_model_type_names_the_field() {
    let err = parse("{\"hidden_size\": 768}").unwrap_err();
    assert!(matches!(&err, ConfigError::Field { field, .. } if field == "model_type"));
}

#[test]
fn an_unknown_family_keeps_what_its_config_says() {
    let (common, value) = parse(r#"{"model_type": "zamba2", "hidden_size": 768, "n_layer": 24}"#).unwrap();
    assert_eq!(common.model_type, "zamba2");
    assert_eq!(facts(&value), vec![("hidden_size".into(), "768".into()), ("n_layer".into(), "24".into())]);
}

#[test]
fn bare_python_constants_outside_strings_are_read_as_strings_and_strings_are_left_alone() {
    let (_, value) = parse(
        r#"{"model_type": "mamba2", "limit": [0.0, Infinity, -Infinity, NaN], "s": "a \"NaN\" Infinity"}"#,
    )
    .unwrap();
    assert_eq!(value["limit"], serde_json::json!([0.0, "Infinity", "-Infinity", "NaN"]));
    assert_eq!(value["s"], "a \"NaN\" Infinity");
    // Still broken JSON after that: the original error is reported.
    let err = parse(r#"{"model_type": "mamba2", "x": Infinity,}"#).unwrap_err();
    assert!(matches!(&err, ConfigError::NotJson(m) if m.contains("line 1")), "{err}");
}
