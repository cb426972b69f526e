//! What the families' unit tests share: reading a config through a family's resolver, and
//! checking that a bad value is reported on its field.

use serde_json::Value;

use super::{Common, ConfigError, parse};

pub(crate) fn read<T>(
    text: &str,
    resolve: fn(&Value, &Common) -> Result<T, ConfigError>,
) -> Result<T, ConfigError> {
    let (common, value) = parse(text)?;
    resolve(&value, &common)
}

/// Defines `fn $name(text) -> Result<$config, ConfigError>`: [`read`] through `$config::resolve`.
macro_rules! reader {
    ($name:ident, $config:ty) => {
        fn $name(text: &str) -> Result<$config, $crate::config::ConfigError> {
            $crate::config::testing::read(text, <$config>::resolve)
        }
    };
}
pub(crate) use reader;

/// `result`, read from `text`, must be an error on `field`.
pub(crate) fn assert_field<T: std::fmt::Debug>(result: Result<T, ConfigError>, text: &str, field: &str) {
    match result {
        Err(ConfigError::Field { field: f, .. }) => assert_eq!(f, field, "{text}"),
        other => panic!("{text}: expected an error on {field}, got {other:?}"),
    }
}
