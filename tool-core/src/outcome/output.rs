//! What a tool gives back when it does not refuse.
//!
//! A handler returns a type that derives `Serialize` and `JsonSchema` (a *structured* output:
//! its schema is advertised and its JSON is the result), a `String` or `&str` (text), `()`
//! (nothing), [`Content`] blocks (text, images and audio as bytes with a MIME type, links to
//! resources, structured data with the text a model is shown for it), an [`Output`] built by
//! hand, or a `Result` of any of these whose error becomes a [`Refusal`]. The `#[tool]` macro
//! picks the conversion from the declared return type; a type that fits none of these is a
//! compile error at the return type.
//!
//! This module only converts; it does not send anything anywhere.

use std::fmt;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::outcome::content::{Content, write_block};
use crate::outcome::refusal::Refusal;

/// The output of a call that did not refuse.
///
/// Structured output is kept as JSON text, serialized once from the handler's value, so a host
/// that forwards it as text pays for no second serialization.
#[derive(Clone)]
#[non_exhaustive]
pub enum Output {
    /// The handler returned nothing (`()`).
    Empty,
    /// Plain text.
    Text(String),
    /// Structured output: the JSON of the handler's value.
    Json(Box<RawValue>),
    /// Content blocks, in order.
    Content(Vec<Content>),
}

impl Output {
    /// Serializes `value` as structured output; a value that cannot be serialized (a map with
    /// non-string keys, say) becomes an `internal` refusal.
    #[inline]
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Output, Refusal> {
        serde_json::value::to_raw_value(value)
            .map(Output::Json)
            .map_err(|error| {
                Refusal::new(
                    crate::outcome::refusal::code::INTERNAL,
                    format!("the tool's output could not be serialized: {error}"),
                )
            })
    }

    /// Plain text output.
    pub fn text(text: impl Into<String>) -> Output {
        Output::Text(text.into())
    }

    /// The text a model is shown for this output: the text itself, the JSON text of structured
    /// output, the blocks' text joined by newlines, or the empty string.
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Output::Empty => "".into(),
            Output::Text(text) => text.into(),
            Output::Json(json) => json.get().into(),
            Output::Content(blocks) => blocks
                .iter()
                .map(Content::as_text)
                .collect::<Vec<_>>()
                .join("\n")
                .into(),
        }
    }

    /// The output as a JSON value: structured output parsed, text as a JSON string, nothing as
    /// `null`, content blocks as MCP writes them.
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            Output::Empty => serde_json::Value::Null,
            Output::Text(text) => serde_json::Value::String(text.clone()),
            Output::Json(json) => {
                serde_json::from_str(json.get()).unwrap_or(serde_json::Value::Null)
            }
            Output::Content(blocks) => blocks.iter().map(write_block).collect(),
        }
    }
}

impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Output::Empty, Output::Empty) => true,
            (Output::Text(a), Output::Text(b)) => a == b,
            (Output::Json(a), Output::Json(b)) => a.get() == b.get(),
            (Output::Content(a), Output::Content(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Empty => f.write_str("Empty"),
            Output::Text(text) => f.debug_tuple("Text").field(text).finish(),
            Output::Json(json) => f.debug_tuple("Json").field(&json.get()).finish(),
            Output::Content(blocks) => f.debug_tuple("Content").field(blocks).finish(),
        }
    }
}

impl Serialize for Output {
    #[inline]
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Output::Empty => serializer.serialize_unit(),
            Output::Text(text) => serializer.serialize_str(text),
            Output::Json(json) => json.serialize(serializer),
            Output::Content(blocks) => serialize_blocks(blocks, serializer),
        }
    }
}

/// Content blocks as MCP writes them. Out of line, so that writing a result inlines only the
/// common text and JSON outputs: blocks are the rarer output.
#[inline(never)]
fn serialize_blocks<S: serde::Serializer>(
    blocks: &[Content],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(blocks.iter().map(write_block))
}

/// A return value that becomes an [`Output`] other than structured JSON: text, nothing, or an
/// `Output` itself. Types that derive `Serialize + JsonSchema` need no impl of this trait.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output",
    label = "not a tool output",
    note = "return a type that derives `serde::Serialize` and `schemars::JsonSchema`, a `String`, `()`, `tool_core::outcome::Content` blocks, or `tool_core::outcome::Output`"
)]
pub trait IntoOutput {
    /// Converts the value.
    fn into_output(self) -> Result<Output, Refusal>;
}

impl IntoOutput for Output {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(self)
    }
}

impl IntoOutput for String {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(Output::Text(self))
    }
}

impl IntoOutput for &str {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(Output::Text(self.to_owned()))
    }
}

impl IntoOutput for Content {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(Output::Content(vec![self]))
    }
}

impl IntoOutput for Vec<Content> {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(Output::Content(self))
    }
}

impl IntoOutput for () {
    fn into_output(self) -> Result<Output, Refusal> {
        Ok(Output::Empty)
    }
}

/// The error half of a handler's `Result`: a [`Refusal`] passes through with its own code; any
/// `std::error::Error` becomes a `failed` refusal with its message.
///
/// `#[tool]` takes two error types more, which cannot implement this trait beside its impl for
/// every `std::error::Error`: a boxed `dyn std::error::Error` (`+ Send + Sync` or not) and,
/// with this crate's `anyhow` feature, `anyhow::Error`. Each becomes `failed` as any
/// `std::error::Error` does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error",
    label = "not a tool error",
    note = "return `Result<T, tool_core::Refusal>`, an error type that implements `std::error::Error + Send + Sync + 'static`, a `Box<dyn std::error::Error + Send + Sync>`, or an `anyhow::Error` (with tool-core's `anyhow` feature)"
)]
pub trait IntoRefusal {
    /// Converts the error.
    fn into_refusal(self) -> Refusal;
}

impl IntoRefusal for Refusal {
    fn into_refusal(self) -> Refusal {
        self
    }
}

impl<E> IntoRefusal for E
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn into_refusal(self) -> Refusal {
        Refusal::from(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serializes as the structured output of `Output::json` of its inner value, written as a
    /// string: serialization that makes structured output while structured output is written.
    struct Nested(u32);

    impl Serialize for Nested {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let inner = Output::json(&self.0).map_err(serde::ser::Error::custom)?;
            serializer.serialize_str(&inner.as_text())
        }
    }

    #[test]
    fn structured_output_is_the_value_s_json_and_may_nest() {
        let output = Output::json(&serde_json::json!({"a": [1, "x"]})).unwrap();
        assert_eq!(output.as_text(), r#"{"a":[1,"x"]}"#);
        // Structured output made while structured output is written.
        let output = Output::json(&[Nested(7), Nested(8)]).unwrap();
        assert_eq!(output.as_text(), r#"["7","8"]"#);
        // A large output, then a small one: each holds its own text only.
        let large = "y".repeat(100_000);
        assert_eq!(Output::json(&large).unwrap().as_text().len(), 100_002);
        assert_eq!(Output::json(&1).unwrap().as_text(), "1");
    }

    #[test]
    fn an_output_that_cannot_be_serialized_is_an_internal_refusal() {
        let map: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let refusal = Output::json(&map).unwrap_err();
        assert_eq!(refusal.code, crate::outcome::refusal::code::INTERNAL);
        // The next output is not polluted by what the failed one had written.
        assert_eq!(Output::json(&[1, 2]).unwrap().as_text(), "[1,2]");
    }

    #[test]
    fn structured_output_can_be_made_while_a_thread_s_locals_are_destroyed() {
        struct AtExit(std::sync::mpsc::Sender<String>);
        impl Drop for AtExit {
            fn drop(&mut self) {
                let text = Output::json(&[1, 2]).map(|output| output.as_text().into_owned());
                let _ = self.0.send(text.unwrap_or_default());
            }
        }
        thread_local! {
            static AT_EXIT: std::cell::RefCell<Option<AtExit>> =
                const { std::cell::RefCell::new(None) };
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Its value is dropped, and makes structured output, as the thread ends.
            AT_EXIT.with(|slot| *slot.borrow_mut() = Some(AtExit(sender)));
            assert_eq!(Output::json(&7).unwrap().as_text(), "7");
        })
        .join()
        .unwrap();
        assert_eq!(receiver.recv().unwrap(), "[1,2]");
    }
}
