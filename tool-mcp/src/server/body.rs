//! An HTTP request body rmcp cannot read as a JSON-RPC message (the `http` feature), answered as
//! JSON-RPC asks.
//!
//! rmcp answers such a body 415 Unsupported Media Type, with serde's error as plain text after
//! a prefix of its own: the status it gives a request of another content type, which tells a
//! client to change a `Content-Type` that was right. An answer of 415 with that prefix becomes
//! 400 with a JSON-RPC error whose `id` is null (none could be read): -32700 for a body that is
//! no JSON, -32600 for JSON that is no message, each with serde's reason. A 415 for another
//! content type is left as it is. Written as an axum middleware after rmcp's service, where the
//! answer is seen: the body is read by rmcp once, and only a refused one is looked at again.

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::model::{ErrorCode, ErrorData};

/// The most of rmcp's plain-text answer read: far more than its prefix and serde's reason.
const ANSWER_BYTES: usize = 64 * 1024;

/// The prefix rmcp puts before serde's error.
const RMCP_PREFIX: &str = "fail to deserialize request body ";

/// Answers a request whose body rmcp could not read with a JSON-RPC error.
pub(super) async fn readable(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, ANSWER_BYTES)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let Some(reason) = text.strip_prefix(RMCP_PREFIX) else {
        return Response::from_parts(parts, axum::body::Body::from(text.into_owned()));
    };
    let error = refusal(reason);
    let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": error});
    let mut answer = Response::new(axum::body::Body::from(body.to_string()));
    *answer.status_mut() = StatusCode::BAD_REQUEST;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    answer
}

/// The JSON-RPC error for a body serde refused for `reason`: JSON that is no message fails as
/// data (rmcp's and serde's words for a value of the wrong shape), anything else as JSON.
fn refusal(reason: &str) -> ErrorData {
    const DATA: [&str; 9] = [
        // rmcp's own, for JSON of no message's shape.
        "unrecognized JSON-RPC message",
        "did not match any variant",
        "invalid type",
        "invalid value",
        "invalid length",
        "unknown variant",
        "unknown field",
        "missing field",
        "duplicate field",
    ];
    if DATA.iter().any(|words| reason.contains(words)) {
        ErrorData::new(
            ErrorCode::INVALID_REQUEST,
            format!(
                "Invalid request: the body is JSON but no JSON-RPC message ({reason}); send one \
                 request, notification or answer: an object with `jsonrpc` \"2.0\", and a \
                 `method` (with an `id` for a request) or an `id` with a `result` or `error`"
            ),
            None,
        )
    } else {
        ErrorData::new(
            ErrorCode::PARSE_ERROR,
            format!(
                "Parse error: the body cannot be read as JSON ({reason}); send one JSON-RPC \
                 message as a JSON object in UTF-8"
            ),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_of_no_json_is_a_parse_error_and_json_of_no_message_an_invalid_request() {
        let not_json = serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>("{nope")
            .unwrap_err()
            .to_string();
        assert_eq!(refusal(&not_json).code, ErrorCode::PARSE_ERROR);
        let no_message = serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>("[1, 2]")
            .unwrap_err()
            .to_string();
        let refused = refusal(&no_message);
        assert_eq!(refused.code, ErrorCode::INVALID_REQUEST);
        assert!(refused.message.contains(&no_message), "{}", refused.message);
    }
}
