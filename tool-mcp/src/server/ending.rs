//! The end of an HTTP session (the `http` feature): a `DELETE` that ends one is answered
//! 204 No Content, where rmcp answers 202 Accepted.
//!
//! The session is closed by the time rmcp answers, so nothing is left to accept; and the
//! official Python SDK takes any answer but 200 or 204 for a failure to end the session,
//! logging a warning each time one of its clients leaves. Written as an axum middleware after
//! rmcp's service, where its answer is seen.

use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// Answers a `DELETE` rmcp accepted with 204.
pub(super) async fn ended(request: Request, next: Next) -> Response {
    let ending = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if ending && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}
