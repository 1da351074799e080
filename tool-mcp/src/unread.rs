//! A client's message that rmcp cannot read, read as far as it goes: what is wrong with it,
//! and the id an answer to it may carry. The line transport (`lines`) and the HTTP server
//! (`server/body`) answer such a message from this one reading, each in its own words, and
//! both hand rmcp an error in place of an answer of the client's that cannot be read, so that
//! the server's request waiting on it ends now rather than at its call's deadline.

use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId};
use serde::de::IgnoredAny;
use serde_json::Value;

/// What a message rmcp could not read is.
pub(crate) enum Unread {
    /// No JSON, or JSON holding a value only a full read refuses (a lone surrogate, a number
    /// beyond a 64-bit float): serde's reason, and the request's id when that can be read.
    NotJson(serde_json::Error, Option<RequestId>),
    /// JSON that is no JSON-RPC message: its first fault, said as what to send instead, and
    /// the request's id when it is a request's.
    NoMessage(String, Option<RequestId>),
    /// An answer to a request of the server's that cannot be read: serde's reason, and the id
    /// of the request it answers when it is one a request could have.
    Answer(serde_json::Error, Option<RequestId>),
}

/// Reads `text`, which rmcp's message type refused with `error`.
pub(crate) fn unread(text: &str, error: serde_json::Error) -> Unread {
    if !error.is_data() {
        return Unread::NotJson(error, readable_id(text));
    }
    if let Some(field) = sent_twice(text) {
        // Which of its values is the message's cannot be told, the id's least of all.
        let fault = format!("`{field}` is sent twice: send each field of a message once");
        return Unread::NoMessage(fault, None);
    }
    let value: Value = serde_json::from_str(text).unwrap_or_default();
    match fault(&value) {
        // A request's id: an answer's is one the server gave, and an error under it would read
        // as the answer to the client's own request of that id.
        Some(fault) => Unread::NoMessage(fault, value.get("method").and(id_in(&value))),
        None => Unread::Answer(error, id_in(&value)),
    }
}

/// What rmcp is handed in place of the client's unreadable answer under `id`: an error saying
/// why, so that the server's request it answers ends as one the client could not be asked.
pub(crate) fn stand_in(error: &serde_json::Error, id: RequestId) -> ClientJsonRpcMessage {
    let unread =
        ErrorData::invalid_request(format!("the client's answer cannot be read: {error}"), None);
    ClientJsonRpcMessage::error(unread, Some(id))
}

/// What makes `message`, JSON that rmcp cannot read as a message, no JSON-RPC message: the
/// first fault found, said as what to send instead. `None` for an answer (it has a `result` or
/// an `error`), which gets no answer.
fn fault(message: &Value) -> Option<String> {
    let Some(fields) = message.as_object() else {
        return Some("a JSON-RPC message is a JSON object".to_owned());
    };
    let answers = fields.contains_key("result") || fields.contains_key("error");
    let Some(method) = fields.get("method") else {
        return (!answers).then(|| "a request or notification must name its `method`".to_owned());
    };
    let params = fields.get("params");
    let fault = if fields.get("jsonrpc").and_then(|version| version.as_str()) != Some("2.0") {
        "`jsonrpc` must be \"2.0\""
    } else if fields
        .get("id")
        .is_some_and(|id| !id.is_string() && !id.is_i64())
    {
        "`id` must be a string or an integer (signed, of at most 64 bits)"
    } else if !method.is_string() {
        "`method` must be a string"
    } else if answers {
        "a request or notification carries no `result` or `error`"
    } else if params.is_some_and(|params| !params.is_object()) {
        "`params` must be an object"
    } else if params
        .and_then(|params| params.get("_meta"))
        .is_some_and(|meta| !meta.is_object())
    {
        "`params._meta` must be an object"
    } else {
        return Some(format!(
            "the params of `{}` are not those the method takes (see its params in the MCP schema)",
            method.as_str().unwrap_or_default()
        ));
    };
    Some(fault.to_owned())
}

/// The id of a request that cannot be read whole, when the id itself can be: JSON whose
/// trouble is a value that only a full read refuses, which reading past it does not mind. Only
/// a message with a `method` is a request (see [`unread`]), and only an object a message.
fn readable_id(text: &str) -> Option<RequestId> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: Option<RequestId>,
        method: Option<IgnoredAny>,
    }
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let read = serde_json::from_str::<IdOnly>(text).ok()?;
    read.method.and(read.id)
}

/// The field of a message's that `text`, JSON that serde_json reads, has twice, if any: JSON
/// allows it, JSON-RPC's fields do not, and rmcp refuses it, but a `Value` keeps only the last.
///
/// The object's own keys are followed by hand: read with a type of serde's, they would add a
/// reading of serde_json's to the crate, which changed what the compiler inlined on every
/// call's path. A key written with escapes is read as a `Value`, as the message is.
fn sent_twice(text: &str) -> Option<&'static str> {
    const FIELDS: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let mut seen = [false; FIELDS.len()];
    let bytes = text.as_bytes();
    let (mut depth, mut at, mut key_next) = (0usize, 0, false);
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                let start = at;
                at += 1;
                while let Some(&inside) = bytes.get(at).filter(|inside| **inside != b'"') {
                    at += if inside == b'\\' { 2 } else { 1 };
                }
                if depth == 1 && key_next {
                    key_next = false;
                    let written = text.get(start..=at)?;
                    let key = match written.contains('\\') {
                        true => match serde_json::from_str::<Value>(written) {
                            Ok(Value::String(key)) => key,
                            _ => return None,
                        },
                        false => written.trim_matches('"').to_owned(),
                    };
                    if let Some(field) = FIELDS.iter().position(|field| *field == key) {
                        if seen[field] {
                            return Some(FIELDS[field]);
                        }
                        seen[field] = true;
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                key_next = depth == 1 && byte == b'{';
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => key_next = true,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The id of a message rmcp could not read, when it is one a request could have (a string or
/// an integer).
fn id_in(message: &Value) -> Option<RequestId> {
    match message.get("id")? {
        Value::String(id) => Some(RequestId::String(id.as_str().into())),
        id => id.as_i64().map(RequestId::Number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `text` is, as rmcp's message type refuses it.
    fn read(text: &str) -> Unread {
        let error =
            serde_json::from_str::<ClientJsonRpcMessage>(text).expect_err("rmcp refuses it");
        unread(text, error)
    }

    #[test]
    fn each_unreadable_message_is_told_apart_with_the_id_its_answer_may_carry() {
        let number = |id| Some(RequestId::Number(id));
        match read("{nope") {
            Unread::NotJson(_, id) => assert_eq!(id, None),
            _ => panic!("no JSON"),
        }
        // A value only a full read refuses leaves the request's id readable.
        match read(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"\ud800"}}"#) {
            Unread::NotJson(_, id) => assert_eq!(id, number(4)),
            _ => panic!("no JSON"),
        }
        match read(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}"#) {
            Unread::NoMessage(fault, id) => {
                assert_eq!(fault, "`params` must be an object");
                assert_eq!(id, number(5));
            }
            _ => panic!("no message"),
        }
        match read(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#) {
            Unread::NoMessage(fault, id) => {
                assert!(
                    fault.starts_with("`id` must be a string or an integer"),
                    "{fault}"
                );
                assert_eq!(id, None);
            }
            _ => panic!("no message"),
        }
        // A field sent twice: which id is the request's cannot be told.
        match read(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"id":2}"#,
        ) {
            Unread::NoMessage(fault, id) => {
                assert_eq!(
                    fault,
                    "`id` is sent twice: send each field of a message once"
                );
                assert_eq!(id, None);
            }
            _ => panic!("no message"),
        }
        // Found however it is written, and only among the message's own fields.
        for (text, twice) in [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"ping","i\u0064":2}"#,
                "`id`",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,{"id":2}],"b":"\"method\":"},"method":"x"}"#,
                "`method`",
            ),
        ] {
            match read(text) {
                Unread::NoMessage(fault, None) => assert!(fault.starts_with(twice), "{fault}"),
                _ => panic!("no message: {text}"),
            }
        }
        assert_eq!(
            sent_twice(r#"{"params":{"id":1,"id":2},"x":["id","id"]}"#),
            None
        );
        assert_eq!(sent_twice(r#"["id","id"]"#), None);
        // An array is no message, whatever it holds.
        match read(r#"[7,"\ud800"]"#) {
            Unread::NotJson(_, id) => assert_eq!(id, None),
            _ => panic!("no JSON"),
        }
        // An answer's id is the server's: an error under it would answer the client's own.
        match read(r#"{"jsonrpc":"2.0","id":6}"#) {
            Unread::NoMessage(fault, id) => {
                assert_eq!(fault, "a request or notification must name its `method`");
                assert_eq!(id, None);
            }
            _ => panic!("no message"),
        }
        match read(r#"{"jsonrpc":"2.0","id":"q-7","error":{"message":"no code"}}"#) {
            Unread::Answer(error, id) => {
                assert_eq!(id, Some(RequestId::String("q-7".into())));
                let ClientJsonRpcMessage::Error(stand_in) = stand_in(&error, RequestId::Number(7))
                else {
                    panic!("an error");
                };
                assert!(
                    (stand_in.error.message).starts_with("the client's answer cannot be read"),
                    "{}",
                    stand_in.error.message
                );
            }
            _ => panic!("an answer"),
        }
    }
}
