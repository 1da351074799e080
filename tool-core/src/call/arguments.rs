//! The arguments of a call: the JSON text that arrived, kept as it is until the tool reads it,
//! and made from a `serde_json::Value` without recursing into values of any depth.

use std::fmt;

use serde::de::{self, Deserialize};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// The arguments of a call, kept as the JSON text that arrived.
///
/// The text is not checked when the call is made: bad text is refused, with the call's id,
/// when the call runs. Absent arguments, `null` and `""` all mean `{}`.
#[derive(Clone, PartialEq, Eq)]
pub struct Arguments(pub(crate) String);

impl Arguments {
    /// No arguments: `{}`.
    pub fn empty() -> Self {
        Arguments("{}".into())
    }

    /// Arguments from JSON text, unchecked; empty or blank text, and `null`, mean `{}`.
    pub fn from_text(text: impl Into<String>) -> Self {
        let text = text.into();
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "null" {
            Arguments::empty()
        } else {
            // Kept as it came, spare capacity and all: shrinking it would cost a reallocation.
            Arguments(text)
        }
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Parses the text into a JSON value.
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::from_str(&self.0)
    }
}

impl Default for Arguments {
    fn default() -> Self {
        Arguments::empty()
    }
}

impl fmt::Debug for Arguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Arguments").field(&&*self.0).finish()
    }
}

/// What a call's arguments are made of in code: a JSON value (`json!({"a": 1})`), owned or
/// borrowed, or [`Arguments`] (JSON text as a model sent it, by [`Arguments::from_text`]).
/// Everything that converts `Into<Arguments>` is one; it is a trait of its own so that text
/// passed where a value goes (`r#"{"a": 1}"#`) is told what to write.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a call's arguments",
    label = "not a JSON value or `Arguments`",
    note = "pass a JSON value, such as `serde_json::json!({{\"a\": 1}})`, or JSON text as `tool_core::call::Arguments::from_text(text)`"
)]
pub trait IntoArguments {
    /// The arguments.
    fn into_arguments(self) -> Arguments;
}

// Not recommended, so that a type without the conversion is told this trait's message, not
// the `From` impls it lacks.
#[diagnostic::do_not_recommend]
impl<T: Into<Arguments>> IntoArguments for T {
    fn into_arguments(self) -> Arguments {
        self.into()
    }
}

impl From<serde_json::Value> for Arguments {
    /// `null` means `{}`; a string is taken as JSON text holding the arguments, as OpenAI sends
    /// them; anything else is kept as it is (and refused when the call runs if it is not an
    /// object, or nested deeper than [`MAX_ARGUMENT_DEPTH`](crate::args::MAX_ARGUMENT_DEPTH)).
    ///
    /// A value nested any depth (one built in code: serde_json reads none deeper than 128
    /// levels) cannot overflow the stack: one nested more than 64 levels is written and
    /// dropped without recursion.
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Arguments::empty(),
            serde_json::Value::String(text) => Arguments::from_text(text),
            other => {
                let (text, deep) = json_text(&other);
                if deep {
                    drop_flat(other);
                }
                Arguments(text)
            }
        }
    }
}

impl From<&serde_json::Value> for Arguments {
    /// As `From<serde_json::Value>`, without taking or copying the value.
    fn from(value: &serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Arguments::empty(),
            serde_json::Value::String(text) => Arguments::from_text(text.as_str()),
            other => Arguments(json_text(other).0),
        }
    }
}

/// Values nested deeper than this are written and dropped without recursion; others by
/// serde_json, which recurses once per level and is faster (BENCHMARKS.md, "arguments from a
/// Value", has the figures).
const DEEP: usize = 64;

/// The compact JSON text of `value` (what `value.to_string()` gives), and whether it nests
/// deeper than [`DEEP`] (then it was written without recursion, and should be dropped so).
fn json_text(value: &serde_json::Value) -> (String, bool) {
    if nests_deeper_than(value, DEEP) {
        (json_text_flat(value), true)
    } else {
        // A `Value` with string keys always serializes; serde_json's writer recurses at most
        // `DEEP` levels here.
        (serde_json::to_string(value).unwrap_or_default(), false)
    }
}

/// Whether arrays and objects in `value` nest more than `limit` deep, found without looking
/// further than the first such place. It recurses at most `limit` levels, and is called with
/// [`DEEP`].
fn nests_deeper_than(value: &serde_json::Value, limit: usize) -> bool {
    use serde_json::Value;
    match value {
        Value::Array(items) if !items.is_empty() => {
            limit == 0 || items.iter().any(|item| nests_deeper_than(item, limit - 1))
        }
        Value::Object(fields) if !fields.is_empty() => {
            limit == 0
                || fields
                    .values()
                    .any(|item| nests_deeper_than(item, limit - 1))
        }
        _ => false,
    }
}

/// [`json_text`] written without recursion, for a value nested any depth.
fn json_text_flat(value: &serde_json::Value) -> String {
    use serde_json::Value;
    enum Open<'a> {
        Array(std::slice::Iter<'a, Value>),
        Object(serde_json::map::Iter<'a>),
    }
    let mut out = Vec::new();
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Array(items) => {
                    out.push(b'[');
                    open.push(Open::Array(items.iter()));
                }
                Value::Object(fields) => {
                    out.push(b'{');
                    open.push(Open::Object(fields.iter()));
                }
                // Writing a scalar into a `Vec` cannot fail.
                leaf => {
                    let _ = serde_json::to_writer(&mut out, leaf);
                }
            }
        }
        let Some(innermost) = open.last_mut() else {
            break;
        };
        let first = matches!(out.last(), Some(b'[' | b'{'));
        match innermost {
            Open::Array(items) => match items.next() {
                Some(item) => {
                    if !first {
                        out.push(b',');
                    }
                    next = Some(item);
                }
                None => {
                    out.push(b']');
                    open.pop();
                }
            },
            Open::Object(fields) => match fields.next() {
                Some((key, item)) => {
                    if !first {
                        out.push(b',');
                    }
                    let _ = serde_json::to_writer(&mut out, key);
                    out.push(b':');
                    next = Some(item);
                }
                None => {
                    out.push(b'}');
                    open.pop();
                }
            },
        }
    }
    // Only JSON text was written, which is UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Drops a value without recursing into it.
fn drop_flat(value: serde_json::Value) {
    let mut pending = vec![value];
    while let Some(mut value) = pending.pop() {
        match &mut value {
            serde_json::Value::Array(items) => pending.append(items),
            serde_json::Value::Object(fields) => {
                pending.extend(std::mem::take(fields).into_iter().map(|(_, item)| item));
            }
            _ => {}
        }
    }
}

impl Serialize for Arguments {
    /// Serializes as the JSON it holds, or as a string holding the text when the text is not
    /// valid JSON or is itself a JSON string (which read back would otherwise lose its
    /// quotes), so that reading the call back gives the same arguments.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match serde_json::from_str::<&RawValue>(&self.0) {
            Ok(raw) if !raw.get().starts_with('"') => raw.serialize(serializer),
            _ => serializer.serialize_str(&self.0),
        }
    }
}

impl<'de> Deserialize<'de> for Arguments {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(Arguments::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::tool_call::ToolCall;
    use crate::test_values::any_value;
    use serde_json::json;

    #[test]
    fn values_of_any_depth_become_arguments_without_recursion() {
        let mut deep = json!(1);
        for _ in 0..100_000 {
            deep = serde_json::Value::Array(vec![deep]);
        }
        let borrowed = Arguments::from(&deep);
        let owned = Arguments::from(deep);
        assert_eq!(borrowed, owned);
        let expected = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(owned.as_str(), expected);
    }

    #[test]
    fn depth_is_measured_in_nested_arrays_and_objects() {
        let nested = |levels: usize| {
            let mut value = json!({"leaf": [1, "x", {}]});
            for level in 1..levels {
                value = if level % 2 == 0 {
                    json!([0, value])
                } else {
                    json!({"k": value, "other": [[]]})
                };
            }
            value
        };
        // `{"leaf": [..]}` is two levels: the object, and the array with items.
        assert!(!nests_deeper_than(&nested(DEEP - 1), DEEP));
        assert!(nests_deeper_than(&nested(DEEP), DEEP));
        assert!(!nests_deeper_than(&json!([[], {}, 1]), 1));
        assert!(!nests_deeper_than(&json!(7), 0));
        for levels in [DEEP - 1, DEEP, DEEP + 1] {
            let value = nested(levels);
            assert_eq!(Arguments::from(&value).as_str(), value.to_string());
            assert_eq!(json_text_flat(&value), value.to_string());
        }
    }

    proptest::proptest! {
        #[test]
        fn from_json_is_total(text in ".*") {
            let _ = ToolCall::from_json(&text);
        }

        #[test]
        fn arguments_from_a_value_are_its_json_text(value in any_value(".*")) {
            let text = match &value {
                serde_json::Value::Null => "{}".to_owned(),
                serde_json::Value::String(text) if text.trim().is_empty() => "{}".to_owned(),
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            proptest::prop_assert_eq!(Arguments::from(&value), Arguments::from_text(text.clone()));
            proptest::prop_assert_eq!(Arguments::from(value), Arguments::from_text(text));
        }

        #[test]
        fn the_writer_without_recursion_writes_what_serde_json_writes(value in any_value(".*")) {
            proptest::prop_assert_eq!(json_text_flat(&value), value.to_string());
        }
    }
}
