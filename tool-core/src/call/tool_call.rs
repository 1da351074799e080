//! Calls in: [`ToolCall`], a request to run one tool with its [`Arguments`] (`arguments.rs`);
//! what comes back is a [`ToolResult`](crate::ToolResult) (`result.rs`).
//!
//! A call names a tool and carries its arguments as JSON text. The text is kept as it arrived
//! and parsed once, straight into the tool's input type, so a good call costs what
//! `serde_json::from_str` costs. Reading a call never panics: [`ToolCall::from_json`] gives a
//! call or a [`Refusal`] for any input at all.
//!
//! Provider-specific call shapes (OpenAI, Anthropic, MCP) are read elsewhere; this is the
//! framework's own.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::call::arguments::{Arguments, IntoArguments};
use crate::outcome::refusal::{Refusal, code};

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

impl ToolCall {
    /// A call of `name` with the given id and arguments (a JSON value, or [`Arguments`]).
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl IntoArguments,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into_arguments(),
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
    // A byte loop: ids and names are short, too short for `contains`'s memchr to pay.
    if let Some(text) = raw.strip_prefix('"').and_then(|raw| raw.strip_suffix('"'))
        && !text.bytes().any(|byte| byte == b'\\')
    {
        return Ok(text.to_owned());
    }
    serde_json::from_str(raw)
        .map_err(|error| Refusal::new(code::BAD_CALL, format!("the call is not readable: {error}")))
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
}
