//! How many HTTP sessions one server holds (the `http` feature): a 2025-11-25 client that sends
//! `initialize` and walks away leaves a session behind until it has been idle for rmcp's
//! keep-alive, so without a bound a stranger opening sessions in a loop fills the server's
//! memory. Sessions are bounded in all and per owner (the caller the host or the token names,
//! else the peer's address); a request that would open one past either bound is answered 503
//! with `Retry-After`, before rmcp makes anything, and the sessions already open go on.
//!
//! Written here, as an axum middleware before rmcp's service: rmcp's session manager makes a
//! session without seeing the request, so it cannot tell whose it is.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::McpServer;

/// How many sessions a server holds at most, in all and per owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub struct SessionLimits {
    /// Sessions open at once, whoever opened them.
    pub total: usize,
    /// Sessions open at once for one owner: a caller, or, for requests naming none, a peer
    /// address.
    pub per_owner: usize,
}

impl Default for SessionLimits {
    /// 2,048 in all, 64 per owner: far above what the clients of one server hold, far below
    /// what would fill its memory (rmcp holds some tens of kilobytes for each).
    fn default() -> Self {
        SessionLimits {
            total: 2048,
            per_owner: 64,
        }
    }
}

/// The sessions of one server and whose each is.
pub(super) struct Sessions {
    manager: Arc<LocalSessionManager>,
    limits: SessionLimits,
    held: Mutex<Held>,
    server: McpServer,
}

/// Whose each session is, and how many each owner is opening now.
#[derive(Default)]
struct Held {
    owners: HashMap<String, String>,
    opening: HashMap<String, usize>,
}

impl Sessions {
    pub(super) fn new(
        manager: Arc<LocalSessionManager>,
        limits: SessionLimits,
        server: McpServer,
    ) -> Arc<Self> {
        Arc::new(Sessions {
            manager,
            limits,
            held: Mutex::default(),
            server,
        })
    }

    /// Who opens a session with this request: its caller, else its peer's address.
    fn owner_of(&self, parts: &axum::http::request::Parts) -> String {
        if let Some(caller) = self.server.caller_from(parts) {
            return format!("caller:{caller}");
        }
        match parts.extensions.get::<ConnectInfo<SocketAddr>>() {
            Some(ConnectInfo(peer)) => format!("peer:{}", peer.ip()),
            None => "anonymous".to_owned(),
        }
    }

    /// Takes a place for one more session of `owner`, if it is under both bounds, counting
    /// the sessions rmcp still holds and those being opened now.
    async fn reserve(&self, owner: &str) -> bool {
        let live = self.manager.sessions.read().await;
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.owners
            .retain(|session, _| live.contains_key(session.as_str()));
        let opening: usize = held.opening.values().sum();
        if live.len() + opening >= self.limits.total {
            return false;
        }
        let owned = held
            .owners
            .values()
            .filter(|each| each.as_str() == owner)
            .count()
            + held.opening.get(owner).copied().unwrap_or(0);
        if owned >= self.limits.per_owner {
            return false;
        }
        *held.opening.entry(owner.to_owned()).or_default() += 1;
        true
    }

    /// Gives back `owner`'s place, noting the session it opened, if it opened one.
    fn opened(&self, owner: String, session: Option<&str>) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(opening) = held.opening.get_mut(&owner) {
            *opening = opening.saturating_sub(1);
            if *opening == 0 {
                held.opening.remove(&owner);
            }
        }
        if let Some(session) = session {
            held.owners.insert(session.to_owned(), owner);
        }
    }
}

/// Whether the request may open a session: a POST that names none and no 2026-07-28 version
/// (a 2026-07-28 request has no session).
fn may_open(request: &Request) -> bool {
    let current = (request.headers().get("mcp-protocol-version"))
        .and_then(|value| value.to_str().ok())
        .is_some_and(|version| version >= "2026-07-28");
    request.method() == Method::POST
        && !request.headers().contains_key(crate::owner::SESSION_HEADER)
        && !current
}

/// Refuses a request that would open a session past a bound, and notes whose a new one is.
pub(super) async fn bound(
    State(sessions): State<Arc<Sessions>>,
    request: Request,
    next: Next,
) -> Response {
    if !may_open(&request) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let owner = sessions.owner_of(&parts);
    if !sessions.reserve(&owner).await {
        let mut refused = (
            StatusCode::SERVICE_UNAVAILABLE,
            "this server holds as many sessions as it takes (for this caller, or in all): \
             close one (DELETE with its Mcp-Session-Id), or try again later",
        )
            .into_response();
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
        return refused;
    }
    // Given back however the request ends: answered, or dropped with its connection.
    let mut place = Place {
        sessions: sessions.clone(),
        owner: Some(owner),
    };
    let answer = next.run(Request::from_parts(parts, body)).await;
    let session = crate::owner::session_named(answer.headers());
    if let Some(owner) = place.owner.take() {
        sessions.opened(owner, session);
    }
    answer
}

/// A place taken for a session being opened.
struct Place {
    sessions: Arc<Sessions>,
    owner: Option<String>,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Some(owner) = self.owner.take() {
            self.sessions.opened(owner, None);
        }
    }
}
