//! An HTTP request body rmcp cannot read as a JSON-RPC message (the `http` feature), answered as
//! JSON-RPC asks.
//!
//! rmcp answers such a body 415 Unsupported Media Type, with serde's error as plain text after
//! a prefix of its own: the status it gives a request of another content type, which tells a
//! client to change a `Content-Type` that was right. An answer of 415 with that prefix becomes
//! 400 with a JSON-RPC error saying what is wrong, read from the body as the line transport
//! reads a line (`unread`): -32700 for a body that is no JSON, -32600 naming the first fault of
//! JSON that is no message, under the request's id when it can be read. An answer of the
//! client's that cannot be read (an `error` without a `code`, say) is refused so too, and the
//! session it was posted in is handed an error under its id in its place, so that the server's
//! request it answers ends now rather than at its call's deadline. A 415 for another content
//! type is left as it is.
//!
//! Written as an axum middleware after rmcp's service, where the answer is seen. rmcp reads the
//! body and its refusal carries no id, so the pieces of a `POST`'s body are kept as rmcp reads
//! them (a count on each piece's bytes, not a copy) until the answer's status says whether they
//! are needed, and read again only for a refused body. rmcp copies the body into a buffer of its
//! own to read it and frees that once read; the pieces kept here live until a `tools/call`
//! takes them for its arguments as written ([`written_arguments`]), or the request's handler
//! ends (rmcp hands it the request's parts, which hold them too) and rmcp's answer begins. So
//! a body is held at most for its request's run, within rmcp's bound on a body's size.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use http_body::Frame;
use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use crate::unread::{Unread, unread};

/// The most of rmcp's plain-text answer read: far more than its prefix and serde's reason.
const ANSWER_BYTES: usize = 64 * 1024;

/// The prefix rmcp puts before serde's error.
const RMCP_PREFIX: &str = "fail to deserialize request body ";

/// The sessions an unreadable answer's stand-in is handed to; `None` for a server without
/// sessions, which takes no answers.
pub(super) type Answered = Option<Arc<LocalSessionManager>>;

/// Answers a request whose body rmcp could not read with a JSON-RPC error.
pub(super) async fn readable(
    State(sessions): State<Answered>,
    request: Request,
    next: Next,
) -> Response {
    // Only a `POST` carries a message.
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let kept = Kept::default();
    let session = crate::owner::session_named(request.headers()).map(Arc::<str>::from);
    let mut request = request;
    // rmcp hands the request's parts to the call it reads from the body: the call finds the
    // body there ([`written_arguments`]).
    request.extensions_mut().insert(kept.clone());
    let request = request.map(|body| {
        Body::new(Keeping {
            body,
            kept: kept.clone(),
        })
    });
    let response = next.run(request).await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let (parts, answer) = response.into_parts();
    let text = axum::body::to_bytes(answer, ANSWER_BYTES)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    if !text.starts_with(RMCP_PREFIX) {
        return Response::from_parts(parts, Body::from(text.into_owned()));
    }
    let sent = kept.take();
    // Read as text, as a line is: JSON is UTF-8, and a body that is not is no JSON.
    let sent = match String::from_utf8(sent) {
        Ok(sent) => sent,
        Err(not_text) => return refused(not_json(&not_text.utf8_error()), None),
    };
    let Err(error) = serde_json::from_str::<ClientJsonRpcMessage>(&sent) else {
        // What rmcp refused reads whole here: the two readings differ, and nothing more can be
        // said than rmcp's reason.
        let reason = text.trim_start_matches(RMCP_PREFIX);
        return refused(
            ErrorData::invalid_request(format!("Invalid request: {reason}"), None),
            None,
        );
    };
    let (error, id) = match unread(&sent, error) {
        Unread::NotJson(error, id) => (not_json(&error), id),
        Unread::NoMessage(fault, id) => (
            ErrorData::invalid_request(format!("Invalid request: {fault}"), None),
            id,
        ),
        Unread::Answer(error, id) => {
            let handed = match (&sessions, &session, id) {
                (Some(sessions), Some(session), Some(id)) => sessions
                    .accept_message(session, crate::unread::stand_in(&error, id))
                    .await
                    .is_ok(),
                _ => false,
            };
            (unreadable_answer(&error, handed), None)
        }
    };
    refused(error, id)
}

/// The arguments of the call posted in the HTTP request of `parts`, as the client wrote them,
/// if its body is plainly a `tools/call` (`call_line`): rmcp reads them into a map, which
/// keeps the last of a field sent twice, where the registry refuses it, as it does in process
/// and over a line. The body is taken: rmcp has read it, or the call would not be running, and
/// no 415 is answered to a body it read.
pub(super) fn written_arguments(parts: &crate::owner::HttpRequestParts) -> Option<String> {
    let sent = String::from_utf8(parts.extensions.get::<Kept>()?.take()).ok()?;
    crate::call_line::written_arguments(&sent)
}

/// The parse error for a body that is no JSON, for `reason`.
fn not_json(reason: &dyn std::fmt::Display) -> ErrorData {
    ErrorData::parse_error(
        format!(
            "Parse error: the body cannot be read as JSON ({reason}); send one JSON-RPC message \
             as a JSON object in UTF-8"
        ),
        None,
    )
}

/// The client's answer to a request of the server's that cannot be read, refused; `handed` if
/// its session took an error under its id in its place.
fn unreadable_answer(error: &serde_json::Error, handed: bool) -> ErrorData {
    let then = match handed {
        true => {
            "a request of this session's waiting under its `id`, if any, was ended as one the \
             client could not be asked"
        }
        false => "it answers no request this server is waiting on",
    };
    ErrorData::invalid_request(
        format!(
            "Invalid request: the answer cannot be read ({error}); {then}. An answer carries the \
             request's `id` and a `result`, or an `error` with an integer `code` and a `message`"
        ),
        None,
    )
}

/// The 400 answering a body that is no readable message, with `error` under `id`.
fn refused(error: ErrorData, id: Option<RequestId>) -> Response {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error});
    let mut answer = Response::new(Body::from(body.to_string()));
    *answer.status_mut() = StatusCode::BAD_REQUEST;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    answer
}

/// The pieces of a request's body read so far.
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Vec<Bytes>>>);

impl Kept {
    /// The body read, whole.
    fn take(&self) -> Vec<u8> {
        let pieces = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        pieces.concat()
    }
}

/// A request's body that keeps each piece as it is read.
struct Keeping {
    body: Body,
    kept: Kept,
}

impl http_body::Body for Keeping {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(context);
        if let Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(piece) = frame.data_ref()
        {
            (self.kept.0.lock().unwrap_or_else(PoisonError::into_inner)).push(piece.clone());
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}
