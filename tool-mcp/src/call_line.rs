//! A plain `tools/call` line read as one, before rmcp's reading of any message.
//!
//! rmcp reads a client's message as one of its four shapes, and a request as one of an untagged
//! union of some twenty request types: the line is buffered, checked for its shape, and tried
//! against each type before `tools/call`, each failure building an error. That is most of what
//! the server spends reading a call. A line that is plainly a call (the four fields a request
//! has and no other, `method` written `"tools/call"`, params of a `name`, object `arguments`
//! and a `_meta`, the last two if any) is read here into the message rmcp would make of it, its
//! arguments kept as the client wrote them ([`RawArguments`]), which is how the registry takes
//! them ([`arguments`]), rather than read into a map to be written out again. So a line's
//! arguments reach a tool as they do in process: a field sent twice is refused, where a map
//! keeps the last. Anything else (the answers of a round, a call rmcp would take some other
//! way, one nested past what rmcp reads) is left to rmcp's reading. Its nesting is followed by
//! hand, as `unread` follows a message's keys: a serde type of its own would add a reading of
//! serde_json's to the crate, which moves what the compiler inlines on every call's path.
//!
//! An HTTP body served by [`McpServer::http_router`](crate::McpServer) is read so too, when
//! its call runs (`server/body.rs`, through `written_arguments`).

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, Extensions,
    JsonObject, JsonRpcRequest, JsonRpcVersion2_0, RequestId, RequestMetaObject,
};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tool_core::call::Arguments;

/// A call's arguments as the client wrote them (a JSON object), carried in the request's
/// extensions in place of rmcp's map.
#[derive(Clone)]
pub(crate) struct RawArguments(pub(crate) String);

/// A call's arguments as the registry takes them, as JSON text: as the client wrote them when
/// its line was read here, else rmcp's map written out again. serde_json writes the map with a
/// recursion once per level: rmcp read it from JSON text, which serde_json reads no deeper than
/// 128 levels, so the recursion is as bounded here as it was there.
pub(crate) fn arguments(arguments: Option<JsonObject>, extensions: &Extensions) -> Arguments {
    if let Some(written) = extensions.get::<RawArguments>() {
        return Arguments::from_text(written.0.clone());
    }
    match arguments.map(|arguments| serde_json::to_string(&arguments)) {
        Some(Ok(text)) => Arguments::from_text(text),
        // A map with string keys always serializes.
        Some(Err(_)) | None => Arguments::empty(),
    }
}

/// The arguments of `text`, a message rmcp has read, as the client wrote them, if it is
/// plainly a `tools/call` with arguments.
#[cfg(feature = "http")]
pub(crate) fn written_arguments(text: &str) -> Option<String> {
    // rmcp read it whole: its arguments are JSON it took, read here as they were written.
    Some(plain_call(text)?.1.arguments?.get().to_owned())
}

/// A request's fields and no others (a stray `result` makes it no request); `method` borrowed,
/// so that one written with escapes is left to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    #[allow(dead_code)] // read only to be checked, as rmcp checks it
    jsonrpc: JsonRpcVersion2_0,
    id: RequestId,
    method: &'a str,
    #[serde(borrow)]
    params: &'a RawValue,
}

/// A call's params of a name, arguments and `_meta` alone.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params<'a> {
    name: String,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<&'a RawValue>,
}

/// The id and params of `text`, if it is plainly a `tools/call` (its arguments, if any, an
/// object: rmcp takes only an object, and other arguments are its to refuse).
#[inline]
fn plain_call(text: &str) -> Option<(RequestId, Params<'_>)> {
    // serde reads a struct from an array too, by position; rmcp reads a message and its
    // params only from objects.
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let envelope = serde_json::from_str::<Envelope<'_>>(text).ok()?;
    if envelope.method != "tools/call" || !envelope.params.get().starts_with('{') {
        return None;
    }
    let params = serde_json::from_str::<Params<'_>>(envelope.params.get()).ok()?;
    if (params.arguments).is_some_and(|arguments| !arguments.get().starts_with('{')) {
        return None;
    }
    Some((envelope.id, params))
}

/// `text` as the message rmcp would read it as, if it is plainly a `tools/call`.
pub(crate) fn call(text: &str) -> Option<ClientJsonRpcMessage> {
    let (id, params) = plain_call(text)?;
    // Each piece is read again on its own, with a nesting bound of its own: a piece nested as
    // deep as rmcp allows the whole message would pass where rmcp refuses it.
    if [params.arguments, params.meta]
        .into_iter()
        .flatten()
        .any(|piece| nests_past(piece.get(), MAX_NESTING_IN_PARAMS))
    {
        return None;
    }
    let mut request = CallToolRequest::new(CallToolRequestParams::new(params.name));
    if let Some(meta) = params.meta {
        // Read through the `Value` reading the crate has for results, not a reading of maps of
        // its own, and put where rmcp's reading of a request puts it.
        let Ok(Value::Object(meta)) = serde_json::from_str::<Value>(meta.get()) else {
            return None;
        };
        (request.extensions).insert(RequestMetaObject::from(meta));
    }
    if let Some(arguments) = params.arguments {
        // Kept as written, they are still read whole (as `_meta` is), so that JSON rmcp would
        // refuse (a broken escape, a number beyond a float) is refused by rmcp as before.
        if serde_json::from_str::<Value>(arguments.get()).is_err() {
            return None;
        }
        (request.extensions).insert(RawArguments(arguments.get().to_owned()));
    }
    Some(ClientJsonRpcMessage::Request(JsonRpcRequest::new(
        id,
        ClientRequest::CallToolRequest(request),
    )))
}

/// How deep arguments or a `_meta` may nest: serde_json reads at most 127 levels of arrays
/// and objects, and the message and its params are two of them.
const MAX_NESTING_IN_PARAMS: usize = 125;

/// Whether the arrays and objects of `json`, JSON serde_json has read whole, nest deeper than
/// `bound`. Its brackets are counted first: few pieces have as many as the bound, and a count
/// need not follow strings.
fn nests_past(json: &str, bound: usize) -> bool {
    json.len() > 2 * bound
        && json
            .bytes()
            .filter(|byte| matches!(byte, b'[' | b'{'))
            .count()
            > bound
        && nesting(json) > bound
}

/// How deeply the arrays and objects of `json`, JSON serde_json has read whole, nest.
fn nesting(json: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for byte in json.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_string = !in_string,
            (false, _, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's arguments (as rmcp reads them, or as read here) as a JSON value, and the
    /// `_meta` in its extensions, which their `Debug` does not show.
    fn arguments_of(
        message: &ClientJsonRpcMessage,
    ) -> (Option<serde_json::Value>, Option<RequestMetaObject>) {
        let ClientJsonRpcMessage::Request(request) = message else {
            panic!("a request: {message:?}");
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            panic!("a call: {message:?}");
        };
        let arguments = match call.extensions.get::<RawArguments>() {
            Some(raw) => Some(serde_json::from_str(&raw.0).unwrap()),
            None => (call.params.arguments.clone()).map(serde_json::Value::Object),
        };
        (
            arguments,
            call.extensions.get::<RequestMetaObject>().cloned(),
        )
    }

    #[test]
    fn a_plain_call_reads_as_rmcp_reads_it_and_anything_else_is_left_to_rmcp() {
        let read_as_rmcp = |text: &str| {
            let mut ours = call(text).unwrap_or_else(|| panic!("read here: {text}"));
            let rmcp: ClientJsonRpcMessage = serde_json::from_str(text).unwrap();
            assert_eq!(arguments_of(&ours), arguments_of(&rmcp), "{text}");
            // The rest is rmcp's own, once the arguments are where rmcp puts them.
            if let ClientJsonRpcMessage::Request(request) = &mut ours
                && let ClientRequest::CallToolRequest(call) = &mut request.request
                && let Some(raw) = call.extensions.remove::<RawArguments>()
            {
                call.params.arguments = serde_json::from_str(&raw.0).unwrap();
            }
            assert_eq!(format!("{ours:?}"), format!("{rmcp:?}"), "{text}");
        };
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2.5}}}"#,
            r#"{"id":"x-1","method":"tools/call","jsonrpc":"2.0","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":-7,"method":"tools/call","params":{"arguments":{"n":[1,{"k":null}]},"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"caf\u00e9","arguments":{"t":"\ud83d\ude00"}}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{}}},"name":"add","arguments":{}}}"#,
        ] {
            read_as_rmcp(text);
        }
        // Ids rmcp may read more loosely: read here only as rmcp reads them.
        for text in [
            r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"add"}}"#,
        ] {
            if call(text).is_some() {
                read_as_rmcp(text);
            }
        }
        for text in [
            // Not a call, or not plainly one: rmcp reads these, or refuses them, its own way.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"a":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":"{}"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","requestState":"s"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"add"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"id":2}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","name":"b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"\ud800"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"\u12"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1e400}}}"#,
            // serde would read these by position; rmcp reads only objects.
            r#"["2.0",1,"tools/call",{"name":"add"}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["add",{"a":1}]}"#,
        ] {
            assert!(call(text).is_none(), "{text}");
        }
    }

    #[test]
    fn arguments_or_a_meta_nested_past_what_rmcp_reads_are_left_to_rmcp() {
        let nested = |levels: usize| {
            // Brackets and escaped quotes in strings are no nesting.
            let inner = r#"{"s":"[{\"[","t":[]}"#;
            format!(
                "{}{inner}{}",
                r#"{"a":"#.repeat(levels - 2),
                "}".repeat(levels - 2)
            )
        };
        assert_eq!(nesting(&nested(125)), 125);
        assert!(nests_past(&nested(126), 125) && !nests_past(&nested(125), 125));
        // Brackets enough, but side by side.
        assert!(!nests_past(&"[]".repeat(200), 125));
        for (field, levels) in [("arguments", 125), ("arguments", 126), ("_meta", 126)] {
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add","{field}":{}}}}}"#,
                nested(levels)
            );
            let rmcp = serde_json::from_str::<ClientJsonRpcMessage>(&text);
            assert_eq!(rmcp.is_ok(), levels == 125, "{field} {levels}");
            assert_eq!(call(&text).is_some(), levels == 125, "{field} {levels}");
        }
    }
}
