//! The end of an HTTP session (the `http` feature): a `DELETE` that ends one is answered
//! 204 No Content, and one that names no session this server holds 404 Not Found, where rmcp
//! answers both 202 Accepted.
//!
//! The session is closed by the time rmcp answers, so nothing is left to accept; and the
//! official Python SDK takes any answer but 200 or 204 for a failure to end the session,
//! logging a warning each time one of its clients leaves. MCP asks for 404 for a request that
//! names a session the server does not hold, as rmcp answers every other such request. With a
//! session store, a session unknown here may be held by another server, so only the 204 is
//! given. Written as an axum middleware around rmcp's service, which keeps its own answers
//! to a `DELETE` it refuses (no session named, a 2026-07-28 request).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The sessions a `DELETE` is checked against; `None` with a session store.
pub(super) type Held = Option<Arc<LocalSessionManager>>;

/// Answers a `DELETE` rmcp accepted with 204, or with 404 if it named no session held here.
pub(super) async fn ended(State(held): State<Held>, request: Request, next: Next) -> Response {
    if request.method() != Method::DELETE {
        return next.run(request).await;
    }
    let named = crate::owner::session_named(request.headers()).map(Arc::<str>::from);
    let unknown = match (&held, named) {
        (Some(sessions), Some(id)) if !sessions.has_session(&id).await.unwrap_or(true) => Some(id),
        _ => None,
    };
    let mut response = next.run(request).await;
    if response.status() != StatusCode::ACCEPTED {
        return response;
    }
    if let Some(id) = unknown {
        let said = format!(
            "Not Found: this server holds no session `{}`: it has ended, or never began; a \
             client that wants one sends `initialize` without an Mcp-Session-Id",
            tool_core::outcome::shortened(&id)
        );
        return (StatusCode::NOT_FOUND, said).into_response();
    }
    *response.status_mut() = StatusCode::NO_CONTENT;
    response
}
