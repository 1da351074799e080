//! Who a request comes from, as the server sees it: the HTTP request's parts (for a host's
//! [`McpServer::with_caller`](crate::McpServer::with_caller) hook to read) and the [`Owner`]
//! of what a request leaves behind (a task, a call suspended for an answer): its HTTP session,
//! the caller the host named and the stdio connection it came on. Only a request of the same
//! owner may reach it again.

use rmcp::model::ClientCapabilities;
use rmcp::service::{RequestContext, RoleServer};

/// The request an HTTP caller made, for a host's [`McpServer::with_caller`] hook to read (its
/// headers, say).
///
/// [`McpServer::with_caller`]: crate::McpServer::with_caller
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub type HttpRequestParts = http::request::Parts;

/// Without the `http` feature there are no HTTP requests: this stand-in only keeps the
/// closure given to `McpServer::with_caller` typed, so that the call's error is the one
/// naming the feature.
#[cfg(not(feature = "http"))]
pub struct HttpRequestParts(());

/// The header that names a 2025-11-25 HTTP session.
#[cfg(feature = "http")]
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";

/// The session `headers` name, if they name one in text.
#[cfg(feature = "http")]
pub(crate) fn session_named(headers: &http::HeaderMap) -> Option<&str> {
    headers.get(SESSION_HEADER)?.to_str().ok()
}

/// Who a request comes from: the HTTP session (`mcp-session-id`), the caller the host named,
/// and the stdio (line) connection, each absent where the request has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    pub(crate) session: Option<String>,
    pub(crate) caller: Option<String>,
    pub(crate) connection: Option<u128>,
}

impl Owner {
    /// Who makes the request of these extensions: its HTTP session, the caller the host
    /// named, the connection.
    pub(crate) fn of(
        extensions: &rmcp::model::Extensions,
        caller: Option<String>,
        connection: Option<u128>,
    ) -> Owner {
        #[cfg(feature = "http")]
        let session = extensions
            .get::<HttpRequestParts>()
            .and_then(|parts| session_named(&parts.headers))
            .map(str::to_owned);
        #[cfg(not(feature = "http"))]
        let session = {
            let _ = extensions;
            None
        };
        Owner {
            session,
            caller,
            connection,
        }
    }
}

/// Whether the request names MCP 2026-07-28 or later, which hears of list changes only on a
/// `subscriptions/listen` stream and has no sessions.
pub(crate) fn is_current(context: &RequestContext<RoleServer>) -> bool {
    let current = |version: &str| version >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str();
    // As rmcp's `RequestContext::protocol_version` reads it (the request's `_meta`, else the
    // session's handshake), the handshake's version read in place rather than cloned.
    match context.meta.protocol_version() {
        Some(version) => current(version.as_str()),
        None => {
            (context.peer.peer_info()).is_some_and(|info| current(info.protocol_version.as_str()))
        }
    }
}

/// What `read` makes of the capabilities the client declared for this request (`current`: it
/// names 2026-07-28 or later), as rmcp's `RequestContext::client_capabilities` finds them:
/// those in the request's `_meta`, else, for an older client, its handshake's, read in place
/// rather than cloned.
pub(crate) fn declared<T>(
    context: &RequestContext<RoleServer>,
    current: bool,
    read: impl FnOnce(Option<&ClientCapabilities>) -> T,
) -> T {
    if current {
        return read(context.client_capabilities().as_ref());
    }
    match context.meta.client_capabilities() {
        Some(capabilities) => read(Some(&capabilities)),
        None => read(
            context
                .peer
                .peer_info()
                .as_deref()
                .map(|info| &info.capabilities),
        ),
    }
}
