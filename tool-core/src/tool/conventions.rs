//! The conventions of the @adecore/agents tool layer, as parameter types: a dry run, an
//! expected revision, and text that may not be empty.
//!
//! ```
//! use tool_core::{DryRun, ExpectedRevision, NonEmptyString, Refusal, tool};
//!
//! /// Renames the project.
//! #[tool(destructive)]
//! async fn project_rename(
//!     /// The project's new name.
//!     name: NonEmptyString,
//!     revision: ExpectedRevision,
//!     dry_run: DryRun,
//! ) -> Result<String, Refusal> {
//!     let current = 7; // read from the store
//!     revision.check(current)?;
//!     if dry_run.is_set() {
//!         return Ok(format!("would rename the project to {name}"));
//!     }
//!     Ok(format!("renamed the project to {name}"))
//! }
//! ```
//!
//! Each type carries the description a model needs in its JSON Schema, so a parameter of one
//! of these types needs no `///` comment (one would replace the type's description). A
//! [`DryRun`] or an [`ExpectedRevision`] parameter is optional, as an `Option` is: it is not
//! in the schema's `required`, and a call without it (or with it `null`) gets the default.
//!
//! This module does not keep revisions or decide what a dry run leaves out: the handler reads
//! the current revision from its own store and skips its own writes.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::outcome::refusal::{Refusal, code};

/// Whether the caller asked for a dry run: check the call and say what would change, without
/// changing anything.
///
/// A tool parameter of this type is advertised as an optional boolean; absent or `null` is
/// `false`. The handler checks everything it would check for a real call (arguments,
/// permissions, [`ExpectedRevision`]s) and then, if [`is_set`](DryRun::is_set), answers with
/// what it would do instead of doing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DryRun(pub bool);

impl DryRun {
    /// Whether the caller asked for a dry run.
    pub fn is_set(self) -> bool {
        self.0
    }
}

impl<'de> Deserialize<'de> for DryRun {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Through `Option`, whose `deserialize_option` is what serde calls for a missing
        // field: so the parameter is optional without `#[serde(default)]`.
        Option::<bool>::deserialize(deserializer).map(|set| DryRun(set.unwrap_or(false)))
    }
}

impl JsonSchema for DryRun {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "DryRun".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // No `default: false`: OpenAI's strict mode refuses the keyword; the description says it.
        json_schema!({
            "type": "boolean",
            "description": "If true, check the call and say what would change, without changing anything."
        })
    }

    // What makes schemars leave the field out of `required`, as it does for an `Option`.
    fn _schemars_private_is_option() -> bool {
        true
    }
}

/// The revision of an item the caller last read, for a call that changes it: the call is
/// refused with `conflict` if the item has changed since.
///
/// A tool parameter of this type is advertised as an optional integer; absent or `null` skips
/// the check. The handler reads the item's current revision and calls
/// [`check`](ExpectedRevision::check) before changing anything (before answering a dry run,
/// too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExpectedRevision(pub Option<u64>);

impl ExpectedRevision {
    /// `Ok` if the caller gave no revision or gave `current`; otherwise a `conflict` refusal
    /// saying both, with a `revision` line carrying `current` for the model to read:
    ///
    /// ```
    /// use tool_core::ExpectedRevision;
    ///
    /// assert!(ExpectedRevision(None).check(7).is_ok());
    /// assert!(ExpectedRevision(Some(7)).check(7).is_ok());
    /// assert_eq!(
    ///     ExpectedRevision(Some(5)).check(7).unwrap_err().to_string(),
    ///     "refused\tconflict\tthe item is at revision 7, not 5; read it again and retry\n\
    ///      revision\t7"
    /// );
    /// ```
    pub fn check(self, current: u64) -> Result<(), Refusal> {
        match self.0 {
            Some(expected) if expected != current => Err(Refusal::new(
                code::CONFLICT,
                format!(
                    "the item is at revision {current}, not {expected}; read it again and retry"
                ),
            )
            .line("revision", [current.to_string()])),
            _ => Ok(()),
        }
    }
}

impl<'de> Deserialize<'de> for ExpectedRevision {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<u64>::deserialize(deserializer).map(ExpectedRevision)
    }
}

impl JsonSchema for ExpectedRevision {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "ExpectedRevision".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = Option::<u64>::json_schema(generator);
        schema.insert(
            "description".into(),
            "The revision you last read; the call is refused with `conflict` if the item has \
             changed since. Omit to skip the check."
                .into(),
        );
        schema
    }

    // What makes schemars leave the field out of `required`, as it does for an `Option`.
    fn _schemars_private_is_option() -> bool {
        true
    }
}

/// Text that is not empty: `""` is refused before the handler runs.
///
/// Only the empty string is refused; text of spaces is text. That is the whole rule its
/// schema (`minLength: 1`) tells a model, so the registry's check of the schema and this
/// type's `Deserialize` agree. The fault a model sees for `""` is the same through a registry
/// (whose schema check finds it first) as read with serde directly:
/// `expected text that is not empty, received ""`.
///
/// It derefs to `str`; [`into_string`](NonEmptyString::into_string) takes the `String` out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NonEmptyString(String);

impl NonEmptyString {
    /// `text`, if it is not empty.
    pub fn new(text: impl Into<String>) -> Option<Self> {
        let text = text.into();
        (!text.is_empty()).then_some(NonEmptyString(text))
    }

    /// The text, as a `String`.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for NonEmptyString {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for NonEmptyString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for NonEmptyString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for NonEmptyString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        NonEmptyString::new(String::deserialize(deserializer)?).ok_or_else(|| {
            serde::de::Error::custom("expected text that is not empty, received \"\"")
        })
    }
}

impl JsonSchema for NonEmptyString {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "NonEmptyString".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 1,
            "description": "Text that is not empty."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_dry_run_is_false_unless_set() {
        assert!(!DryRun::default().is_set());
        assert!(
            !serde_json::from_value::<DryRun>(json!(null))
                .unwrap()
                .is_set()
        );
        assert!(
            !serde_json::from_value::<DryRun>(json!(false))
                .unwrap()
                .is_set()
        );
        assert!(
            serde_json::from_value::<DryRun>(json!(true))
                .unwrap()
                .is_set()
        );
        assert!(serde_json::from_value::<DryRun>(json!("true")).is_err());
    }

    #[test]
    fn an_expected_revision_may_be_null() {
        assert_eq!(
            serde_json::from_value::<ExpectedRevision>(json!(null)).unwrap(),
            ExpectedRevision(None)
        );
        assert_eq!(
            serde_json::from_value::<ExpectedRevision>(json!(5)).unwrap(),
            ExpectedRevision(Some(5))
        );
    }

    #[test]
    fn a_stale_revision_is_a_conflict_naming_the_current_one() {
        let refusal = ExpectedRevision(Some(8)).check(7).unwrap_err();
        assert_eq!(refusal.code, code::CONFLICT);
        assert_eq!(
            refusal.message,
            "the item is at revision 7, not 8; read it again and retry"
        );
        assert_eq!(refusal.find_line("revision").unwrap().cells, ["7"]);
        assert!(refusal.is_model_facing());
    }

    #[test]
    fn only_the_empty_string_is_empty() {
        let error = serde_json::from_value::<NonEmptyString>(json!("")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected text that is not empty, received \"\""
        );
        let spaces = serde_json::from_value::<NonEmptyString>(json!(" ")).unwrap();
        assert_eq!(&*spaces, " ");
        assert_eq!(NonEmptyString::new(""), None);
        assert_eq!(NonEmptyString::new("hi").unwrap().into_string(), "hi");
        assert_eq!(
            serde_json::to_value(NonEmptyString::new("hi")).unwrap(),
            "hi"
        );
    }
}
