//! Calls in, results out: [`ToolCall`], its [`Arguments`], and [`ToolResult`].
//!
//! A call names a tool and carries its arguments as JSON text. The text is kept as it arrived
//! and parsed once, straight into the tool's input type, so a good call costs what
//! `serde_json::from_str` costs. Reading a call never panics: [`ToolCall::from_json`] gives a
//! call or a [`Refusal`] for any input at all.
//!
//! Provider-specific call shapes (OpenAI, Anthropic, MCP) are read elsewhere; this is the
//! framework's own.

use std::fmt::{self, Write as _};

use serde::de::{self, Deserialize};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::output::Output;
use crate::refusal::{Line, Refusal, code};

/// A request to run one tool: `{ "id": ..., "name": ..., "arguments": {...} }`.
///
/// ```
/// use serde_json::json;
/// use tool_core::ToolCall;
///
/// let call = ToolCall::from_json(r#"{"id":"c1","name":"note_read","arguments":"{\"id\":7}"}"#)
///     .unwrap();
/// assert_eq!(call.name, "note_read");
/// assert_eq!(call.arguments.to_value().unwrap(), json!({"id": 7}));
/// assert_eq!(call, ToolCall::new("c1", "note_read", json!({"id": 7})));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The caller's id for this call, echoed in its result; may be empty.
    pub id: String,
    /// The name of the tool to run.
    pub name: String,
    /// The arguments, as JSON text.
    pub arguments: Arguments,
}

/// The arguments of a call, kept as the JSON text that arrived.
///
/// The text is not checked when the call is made: bad text is refused, with the call's id,
/// when the call runs. Absent arguments, `null` and `""` all mean `{}`.
#[derive(Clone, PartialEq, Eq)]
pub struct Arguments(String);

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

impl From<serde_json::Value> for Arguments {
    /// `null` means `{}`; a string is taken as JSON text holding the arguments, as OpenAI sends
    /// them; anything else is kept as it is (and refused when the call runs if it is not an
    /// object, or nested deeper than [`MAX_ARGUMENT_DEPTH`](crate::MAX_ARGUMENT_DEPTH)).
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

impl ToolCall {
    /// A call of `name` with the given id and arguments (a JSON value, or [`Arguments`]).
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<Arguments>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    /// Reads a call from JSON text: an object with `name` (a string), `id` (a string or a
    /// number; absent means empty) and `arguments` (an object, a string holding one, or absent,
    /// `null` or `""` for none). Other keys are ignored.
    ///
    /// Total: any text gives a call or a `bad-call` refusal, never a panic.
    pub fn from_json(text: &str) -> Result<ToolCall, Refusal> {
        let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|error| {
            Refusal::new(code::BAD_CALL, format!("the call is not readable: {error}")).line(
                "expected",
                [r#"{"id": "...", "name": "tool_name", "arguments": {...}}"#],
            )
        })?;
        envelope.into_call()
    }

    /// [`ToolCall::from_json`] for bytes that may not be UTF-8.
    pub fn from_slice(bytes: &[u8]) -> Result<ToolCall, Refusal> {
        match std::str::from_utf8(bytes) {
            Ok(text) => ToolCall::from_json(text),
            Err(error) => Err(Refusal::new(
                code::BAD_CALL,
                format!("the call is not UTF-8 text: {error}"),
            )),
        }
    }
}

impl Serialize for ToolCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("ToolCall", 3)?;
        state.serialize_field("id", &self.id)?;
        state.serialize_field("name", &self.name)?;
        state.serialize_field("arguments", &self.arguments)?;
        state.end()
    }
}

#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    name: Option<&'a RawValue>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
}

impl Envelope<'_> {
    fn into_call(self) -> Result<ToolCall, Refusal> {
        let id = match self.id.map(RawValue::get) {
            None | Some("null") => String::new(),
            Some(raw) if raw.starts_with('"') => string_of(raw)?,
            Some(raw) if serde_json::from_str::<serde_json::Number>(raw).is_ok() => raw.to_owned(),
            Some(_) => {
                return Err(Refusal::new(
                    code::BAD_CALL,
                    "the call's `id` must be a string or a number",
                ));
            }
        };
        let name = match self.name.map(RawValue::get) {
            Some(raw) if raw.starts_with('"') => string_of(raw)?,
            _ => {
                return Err(Refusal::new(
                    code::BAD_CALL,
                    "the call has no `name`: give the tool's name as a string",
                ));
            }
        };
        let arguments = match self.arguments.map(RawValue::get) {
            None | Some("null") => Arguments::empty(),
            Some(raw) if raw.starts_with('"') => Arguments::from_text(string_of(raw)?),
            Some(raw) => Arguments(raw.to_owned()),
        };
        Ok(ToolCall {
            id,
            name,
            arguments,
        })
    }
}

/// The text of a JSON string as it arrived, quotes and all (a `RawValue`'s, so well-formed).
fn string_of(raw: &str) -> Result<String, Refusal> {
    // Without escapes, the text is what stands between the quotes: no second parse.
    if let Some(text) = raw.strip_prefix('"').and_then(|raw| raw.strip_suffix('"'))
        && !text.contains('\\')
    {
        return Ok(text.to_owned());
    }
    serde_json::from_str(raw)
        .map_err(|error| Refusal::new(code::BAD_CALL, format!("the call is not readable: {error}")))
}

/// The answer to one [`ToolCall`]: its id and tool name, the output or the refusal, and notes
/// for the model on what the registry did to the call.
///
/// Serializes as `{"id", "name", "output"}` or `{"id", "name", "refusal": {code, message,
/// lines}}`, with `"notes": [{label, cells}]` when there are any.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub id: String,
    /// The name of the tool that was called.
    pub name: String,
    /// What came of it.
    pub outcome: Result<Output, Refusal>,
    /// What the registry did to the call on its way, for the model to read with the outcome:
    /// an `adjusted` line for each value of the arguments a lenient registry adjusted
    /// (`adjusted<TAB>limit<TAB>read the text "10" as the number 10`; see
    /// [`Leniency`](crate::Leniency)). Empty unless leniency applied; [`text`](Self::text) and
    /// every provider's result writer show it after the outcome.
    pub notes: Vec<Line>,
}

impl ToolResult {
    /// Whether the call was refused.
    pub fn is_refused(&self) -> bool {
        self.outcome.is_err()
    }

    /// The refusal, if the call was refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        self.outcome.as_ref().err()
    }

    /// The text a model should see: the output's text, or the refusal's text form, followed
    /// by the [`notes`](Self::notes), one line each in a refusal's text form. A refusal's text
    /// with notes still reads back with [`Refusal::parse`], the notes as lines of it.
    pub fn text(&self) -> String {
        let mut text = match &self.outcome {
            Ok(output) => output.as_text().into_owned(),
            Err(refusal) => refusal.to_string(),
        };
        for note in &self.notes {
            if !text.is_empty() {
                text.push('\n');
            }
            // Writing into a `String` cannot fail.
            let _ = write!(text, "{note}");
        }
        text
    }

    /// The notes alone, one line each in a refusal's text form, as writers that send them
    /// apart from the outcome show them.
    pub(crate) fn notes_text(&self) -> String {
        let lines: Vec<String> = self.notes.iter().map(ToString::to_string).collect();
        lines.join("\n")
    }
}

impl Serialize for ToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.notes.is_empty() { 3 } else { 4 };
        let mut state = serializer.serialize_struct("ToolResult", fields)?;
        state.serialize_field("id", &self.id)?;
        state.serialize_field("name", &self.name)?;
        match &self.outcome {
            Ok(output) => state.serialize_field("output", output)?,
            Err(refusal) => state.serialize_field("refusal", refusal)?,
        }
        if !self.notes.is_empty() {
            state.serialize_field("notes", &self.notes)?;
        }
        state.end()
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
    use serde_json::json;

    #[test]
    fn arguments_may_be_an_object_a_string_absent_null_or_empty() {
        let object = ToolCall::from_json(r#"{"name":"t","arguments":{"a":1}}"#).unwrap();
        let string = ToolCall::from_json(r#"{"name":"t","arguments":"{\"a\":1}"}"#).unwrap();
        assert_eq!(object.arguments.to_value().unwrap(), json!({"a": 1}));
        assert_eq!(string.arguments.to_value().unwrap(), json!({"a": 1}));
        for text in [
            r#"{"name":"t"}"#,
            r#"{"name":"t","arguments":null}"#,
            r#"{"name":"t","arguments":""}"#,
            r#"{"name":"t","arguments":"  "}"#,
        ] {
            let call = ToolCall::from_json(text).unwrap();
            assert_eq!(call.arguments.as_str(), "{}", "{text}");
        }
    }

    #[test]
    fn ids_may_be_strings_or_numbers() {
        assert_eq!(
            ToolCall::from_json(r#"{"id":"x\"y","name":"t"}"#)
                .unwrap()
                .id,
            "x\"y"
        );
        assert_eq!(
            ToolCall::from_json(r#"{"id":12,"name":"t"}"#).unwrap().id,
            "12"
        );
        assert_eq!(ToolCall::from_json(r#"{"name":"t"}"#).unwrap().id, "");
        let refused = ToolCall::from_json(r#"{"id":[1],"name":"t"}"#).unwrap_err();
        assert_eq!(refused.code, code::BAD_CALL);
    }

    #[test]
    fn from_json_refuses_what_is_not_a_call() {
        for text in [
            "",
            "[]",
            "3",
            "\"x\"",
            "{",
            r#"{"name":3}"#,
            r#"{"id":"1"}"#,
            "\u{0}",
        ] {
            let refusal = ToolCall::from_json(text).unwrap_err();
            assert_eq!(refusal.code, code::BAD_CALL, "{text}");
        }
        assert_eq!(
            ToolCall::from_slice(b"\xff\xfe").unwrap_err().code,
            code::BAD_CALL
        );
    }

    #[test]
    fn a_call_serializes_with_its_arguments_as_json() {
        let call = ToolCall::new("1", "t", json!({"a": [1, 2]}));
        assert_eq!(
            serde_json::to_value(&call).unwrap(),
            json!({"id": "1", "name": "t", "arguments": {"a": [1, 2]}})
        );
        let broken = ToolCall::new("1", "t", Arguments::from_text("{oops"));
        assert_eq!(
            serde_json::to_value(&broken).unwrap()["arguments"],
            json!("{oops")
        );
    }

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

    fn any_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(Into::into),
            any::<i64>().prop_map(Into::into),
            any::<u64>().prop_map(Into::into),
            any::<f64>().prop_map(Into::into),
            ".*".prop_map(Into::into),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Into::into),
                proptest::collection::vec((".*", inner), 0..4)
                    .prop_map(|fields| serde_json::Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn from_json_is_total(text in ".*") {
            let _ = ToolCall::from_json(&text);
        }

        #[test]
        fn arguments_from_a_value_are_its_json_text(value in any_value()) {
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
        fn the_writer_without_recursion_writes_what_serde_json_writes(value in any_value()) {
            proptest::prop_assert_eq!(json_text_flat(&value), value.to_string());
        }
    }
}
