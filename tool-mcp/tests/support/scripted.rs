//! A server of a few lines for the remote toolkit's tests of its HTTP client: `initialize`,
//! `tools/list` (one tool, `only`) and `tools/call` (`called`) answered as JSON, with a session
//! or without, anything else accepted. The tests route and watch its requests themselves.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The method of the JSON-RPC message `body`, and the message (`null` if unreadable).
pub fn read(body: &str) -> (Option<String>, Value) {
    let message: Value = serde_json::from_str(body).unwrap_or_default();
    (message["method"].as_str().map(str::to_owned), message)
}

/// The answer to `message`, of `method`, in the session `session` if given.
pub fn answer(method: Option<&str>, message: &Value, session: Option<&str>) -> Response {
    let result = match method {
        Some("initialize") => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": "scripted", "version": "1"},
        }),
        Some("tools/list") => {
            json!({"tools": [{"name": "only", "inputSchema": {"type": "object"}}]})
        }
        Some("tools/call") => json!({"content": [{"type": "text", "text": "called"}]}),
        _ => return StatusCode::ACCEPTED.into_response(),
    };
    let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
    let mut response = ([("content-type", "application/json")], answer.to_string()).into_response();
    if let Some(session) = session.and_then(|session| session.parse().ok()) {
        response.headers_mut().insert("mcp-session-id", session);
    }
    response
}
