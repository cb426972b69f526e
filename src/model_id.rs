//! A Hugging Face model ID, validated before any path is built from it.
//!
//! IDs become file paths (`site/models/<org>/<name>.html`, `hub/models--<org>--<name>`), so
//! anything that could escape a folder or confuse a shell is refused here, once, and every later
//! stage can trust the two parts.
//!
//! The rules are the Hub's own, as `huggingface_hub` checks them before any request
//! (`huggingface_hub/utils/_validators.py`, `validate_repo_id` and `REPO_ID_REGEX`, read at
//! version 2.4.0): at most one `/`; each part 1 to 96 characters of ASCII letters, digits, `-`,
//! `_` and `.`, starting and ending with a letter, digit or `_`; no `--` and no `..` anywhere;
//! not ending in `.git`. The `--` rule is what keeps the cache folder `models--org--name`
//! unambiguous: without it `a--b/c` and `a/b--c` would read the same folder.

use std::fmt;

use serde::Serialize;

/// The longest repository name the Hub accepts (org and name each).
const MAX_PART: usize = 96;

/// Why a string is not a model ID.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelIdError {
    #[error("model ID {0:?} is empty")]
    Empty(String),
    #[error("model ID {0:?} contains `..`")]
    ParentDir(String),
    #[error("model ID {0:?} starts or ends with `/`")]
    EdgeSlash(String),
    #[error("model ID {0:?} contains a backslash")]
    Backslash(String),
    #[error("model ID {0:?} contains a control character")]
    Control(String),
    #[error("model ID {0:?} has more than one `/` (expected `org/name` or `name`)")]
    TooManyParts(String),
    #[error("model ID {id:?}: {part:?} may hold only ASCII letters, digits, `-`, `_` and `.`")]
    BadChar { id: String, part: String },
    #[error("model ID {id:?}: {part:?} is longer than {MAX_PART} characters")]
    TooLong { id: String, part: String },
    #[error("model ID {id:?}: a part may not start or end with `.` or `-`")]
    BadEdge { id: String },
    #[error(
        "model ID {0:?} contains `--`, which the Hub forbids (it separates org and name in cache folders)"
    )]
    DoubleDash(String),
    #[error("model ID {0:?} ends with `.git`, which the Hub forbids")]
    GitSuffix(String),
    #[error(
        "model ID {0:?}: `{NO_ORG_FOLDER}` is not an organisation (it is the folder for IDs without one; write the bare name)"
    )]
    ReservedOrg(String),
}

/// `org/name`, or a bare `name` for the Hub's legacy un-namespaced models.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModelId {
    org: Option<String>,
    name: String,
}

/// The folder that holds pages of models with no organisation (the Hub's legacy IDs such as
/// `gpt2`). [`ModelId::parse`] refuses `_` as an organisation, so no other ID writes there.
pub const NO_ORG_FOLDER: &str = "_";

impl ModelId {
    pub fn parse(s: &str) -> Result<Self, ModelIdError> {
        let id = s.to_string();
        if s.is_empty() {
            return Err(ModelIdError::Empty(id));
        }
        if s.chars().any(char::is_control) {
            return Err(ModelIdError::Control(id));
        }
        if s.contains('\\') {
            return Err(ModelIdError::Backslash(id));
        }
        if s.contains("..") {
            return Err(ModelIdError::ParentDir(id));
        }
        if s.contains("--") {
            return Err(ModelIdError::DoubleDash(id));
        }
        if s.ends_with(".git") {
            return Err(ModelIdError::GitSuffix(id));
        }
        if s.starts_with('/') || s.ends_with('/') {
            return Err(ModelIdError::EdgeSlash(id));
        }
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() > 2 {
            return Err(ModelIdError::TooManyParts(id));
        }
        for part in &parts {
            if part.is_empty() {
                return Err(ModelIdError::Empty(id));
            }
            if part.len() > MAX_PART {
                return Err(ModelIdError::TooLong { id, part: part.to_string() });
            }
            if !part.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
                return Err(ModelIdError::BadChar { id, part: part.to_string() });
            }
            let edge = |c: char| c == '.' || c == '-';
            if part.starts_with(edge) || part.ends_with(edge) {
                return Err(ModelIdError::BadEdge { id });
            }
        }
        if parts.len() == 2 && parts[0] == NO_ORG_FOLDER {
            // `_/gpt2` would write the very files `gpt2` writes.
            return Err(ModelIdError::ReservedOrg(id));
        }
        Ok(match parts.as_slice() {
            [name] => ModelId { org: None, name: name.to_string() },
            [org, name] => ModelId { org: Some(org.to_string()), name: name.to_string() },
            _ => unreachable!("split yields one or two parts here"),
        })
    }

    pub fn org(&self) -> Option<&str> {
        self.org.as_deref()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The folder under `site/models/` that holds this model's files.
    pub fn site_folder(&self) -> &str {
        self.org.as_deref().unwrap_or(NO_ORG_FOLDER)
    }

    /// Path of the model's files relative to the site root, without extension:
    /// `models/FacebookAI/xlm-roberta-base`.
    pub fn site_stem(&self) -> String {
        format!("models/{}/{}", self.site_folder(), self.name)
    }

    /// The Hub cache folder name, `models--org--name`, as huggingface_hub writes it.
    pub fn cache_folder(&self) -> String {
        format!("models--{}", self.to_string().replace('/', "--"))
    }
}

impl fmt::Display for ModelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.org {
            Some(org) => write!(f, "{org}/{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

impl Serialize for ModelId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn org_and_name_map_to_flat_site_paths() {
        let id = ModelId::parse("FacebookAI/xlm-roberta-base").unwrap();
        assert_eq!(id.site_stem(), "models/FacebookAI/xlm-roberta-base");
        assert_eq!(id.cache_folder(), "models--FacebookAI--xlm-roberta-base");
    }

    #[test]
    fn legacy_ids_without_org_go_to_the_underscore_folder() {
        let id = ModelId::parse("gpt2").unwrap();
        assert_eq!(id.site_stem(), "models/_/gpt2");
        assert_eq!(id.cache_folder(), "models--gpt2");
    }

    #[test]
    fn ids_that_could_escape_a_folder_are_refused() {
        for bad in [
            "",
            "../etc",
            "a/../b",
            "/abs",
            "org/",
            "a\\b",
            "a/b/c",
            "a\u{0}b",
            "a\nb",
            "a b",
            "org/na$me",
            ".hidden",
            "org/-x",
        ] {
            assert!(ModelId::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    /// The examples `validate_repo_id`'s docstring gives (huggingface_hub 2.4.0,
    /// `utils/_validators.py`): valid `foo`, `foo/bar`, `123`, `Foo-BAR_foo.bar123`; not valid
    /// `datasets/foo/bar`, `.repo_id`, `foo--bar`, `foo.git`, `other..repo..id`.
    #[test]
    fn the_hubs_own_examples_are_judged_as_the_hub_judges_them() {
        for good in ["foo", "foo/bar", "123", "Foo-BAR_foo.bar123"] {
            assert!(ModelId::parse(good).is_ok(), "{good:?} was refused");
        }
        for bad in ["datasets/foo/bar", ".repo_id", "foo--bar", "foo.git", "other..repo..id"] {
            assert!(ModelId::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn ids_that_would_read_the_same_cache_folder_are_refused() {
        // Both would be `models--a--b--c`.
        assert_eq!(ModelId::parse("a--b/c"), Err(ModelIdError::DoubleDash("a--b/c".into())));
        assert_eq!(ModelId::parse("a/b--c"), Err(ModelIdError::DoubleDash("a/b--c".into())));
    }

    #[test]
    fn underscore_is_not_an_organisation_so_no_id_writes_where_legacy_ids_do() {
        assert_eq!(ModelId::parse("_/gpt2"), Err(ModelIdError::ReservedOrg("_/gpt2".into())));
        assert_eq!(ModelId::parse("gpt2").unwrap().site_stem(), "models/_/gpt2");
    }

    #[test]
    fn a_part_may_be_96_characters_and_not_97() {
        // The regex's `{1,96}` applies to the namespace and the name separately.
        let p96 = "a".repeat(96);
        assert!(ModelId::parse(&format!("{p96}/{p96}")).is_ok());
        let p97 = "a".repeat(97);
        assert!(matches!(ModelId::parse(&p97), Err(ModelIdError::TooLong { .. })));
        assert!(matches!(ModelId::parse(&format!("{p97}/x")), Err(ModelIdError::TooLong { .. })));
    }
}
