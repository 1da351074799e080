//! How a server is reached over streamable HTTP (the `http` feature): as an axum service, or
//! served at an address. Serving returns a boxed future made here, for the reason `transport`
//! gives: the server is compiled once, in this crate, not again in each user's.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
#[cfg(feature = "oauth")]
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use tool_core::call::BoxFuture;

use super::McpServer;
use super::bounds::{SessionLimits, Sessions, bound};
use super::events::MemoryEvents;

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl McpServer {
    /// The streamable-HTTP service, to mount in an axum router (at `/mcp`, say). It checks no
    /// bearer token: a server with [`McpServer::with_bearer_auth`] mounted this way lists and
    /// runs no tool for anyone; mount [`McpServer::http_router`] instead, which checks them.
    /// Nor does it bound sessions, it answers a JSON body it cannot read as rmcp does (415,
    /// plain text) where the router answers 400 with a JSON-RPC error, and it hands a call the
    /// arguments rmcp read into a map, which keeps the last of a field sent twice, where the
    /// router's call reads them as written and refuses it.
    pub fn http_service(self) -> StreamableHttpService<McpServer, LocalSessionManager> {
        let sessions = Arc::new(self.session_manager());
        self.service_with(sessions)
    }

    /// The session manager of this server's HTTP service.
    fn session_manager(&self) -> LocalSessionManager {
        let sessions = LocalSessionManager::default();
        if self.stateless && self.resumable {
            // Without sessions rmcp keeps no stream to resume; these events are kept instead.
            return sessions.with_event_store(Arc::new(MemoryEvents::default()));
        }
        sessions
    }

    /// The streamable-HTTP service, its sessions kept by `sessions`.
    fn service_with(
        mut self,
        sessions: Arc<LocalSessionManager>,
    ) -> StreamableHttpService<McpServer, LocalSessionManager> {
        let mut config = self.http_config.take().unwrap_or_default();
        if self.stateless {
            config.legacy_session_mode = false;
        }
        self.http_sessions = config.legacy_session_mode;
        StreamableHttpService::new(
            move || {
                // Each HTTP session finds tools, and sets its log level, for itself.
                Ok(self.clone().for_connection())
            },
            sessions,
            config,
        )
    }

    /// Bounds the HTTP sessions (MCP 2025-11-25's) the server holds, in all and per owner:
    /// a request that would open one past a bound is answered 503 with `Retry-After`, and the
    /// sessions already open go on ([`SessionLimits::default`] unless set). An owner is the
    /// caller [`McpServer::with_caller`] (or a bearer token) names, else the peer's address
    /// (known when each request carries it as axum's `ConnectInfo<SocketAddr>`, as
    /// [`McpServer::serve_http`] serves them, and as axum's
    /// `into_make_service_with_connect_info::<SocketAddr>()` does; without, every request
    /// naming no caller has one owner). Served by
    /// [`McpServer::serve_http`], [`McpServer::bind_http`] and [`McpServer::http_router`];
    /// [`McpServer::http_service`] alone bounds nothing.
    pub fn with_session_limits(mut self, limits: SessionLimits) -> Self {
        self.session_limits = limits;
        self
    }

    /// Sets how long [`McpServer::serve_http`] and [`McpServer::bind_http`] wait for a request's
    /// head, and for each piece of its body once they wait for one
    /// ([`McpServer::DEFAULT_READ_TIMEOUT`] unless set). A client that takes longer (one that
    /// sends a byte at a time, or stops) has its connection closed, or its request refused 408,
    /// so that such clients cannot hold the server's connections for ever. A kept-alive
    /// connection that sends no next request within it is closed too, as hyper counts that
    /// wait as one for a head. `None`, or a bound longer than a year, waits without bound (for
    /// a server behind a proxy that bounds them); a zero bound closes every connection whose
    /// head has not already come. A host that serves [`McpServer::http_router`] itself sets its
    /// own.
    pub fn with_read_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        // hyper adds the bound to an instant, which would overflow past a year or so.
        const YEAR: Duration = Duration::from_secs(365 * 24 * 60 * 60);
        self.read_timeout = timeout.into().filter(|timeout| *timeout <= YEAR);
        self
    }

    /// Serves streamable HTTP at `http://{addr}/mcp` until `shutdown` completes. To learn the
    /// port bound for port 0, or to connect before serving starts, use
    /// [`McpServer::bind_http`].
    pub fn serve_http(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> BoxFuture<'static, std::io::Result<()>> {
        let bind = self.bind_boxed(addr, Box::pin(shutdown));
        Box::pin(async move {
            let (_, serving) = bind.await?;
            serving.await
        })
    }

    /// Binds `addr` and returns the address bound (useful with port 0) and the future that
    /// serves until `shutdown` completes.
    #[allow(clippy::type_complexity)]
    pub fn bind_http(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> BoxFuture<'static, std::io::Result<(SocketAddr, BoxFuture<'static, std::io::Result<()>>)>>
    {
        self.bind_boxed(addr, Box::pin(shutdown))
    }

    /// The whole HTTP server as an axum router: the MCP endpoint at `/mcp`, and, with bearer
    /// tokens ([`McpServer::with_bearer_auth`], the `oauth` feature), the token check before it
    /// and the protected-resource metadata beside it. What [`McpServer::serve_http`] serves;
    /// merge it into a router of the host's to serve more beside it. Served by the host, it
    /// is bounded by the host's server: [`McpServer::with_read_timeout`] is `serve_http`'s.
    ///
    /// Fails, saying why, when the bearer setting names no usable resource URL.
    pub fn http_router(self) -> std::io::Result<axum::Router> {
        let manager = Arc::new(self.session_manager());
        let sessioned = !self.stateless
            && (self.http_config.as_ref()).is_none_or(|config| config.legacy_session_mode);
        let bounds = Sessions::new(manager.clone(), self.session_limits, self.clone());
        // With a session store, a session unknown here may be another server's.
        let stored =
            (self.http_config.as_ref()).is_some_and(|config| config.session_store.is_some());
        let held: super::ending::Held = (!stored).then(|| manager.clone());
        #[cfg(feature = "oauth")]
        let bearer = self.bearer.clone();
        #[cfg(feature = "oauth")]
        let (gate, max_body) = (
            self.clone(),
            (self.http_config.as_ref()).map_or_else(
                || StreamableHttpServerConfig::default().max_request_body_bytes,
                |config| config.max_request_body_bytes,
            ),
        );
        let answered: super::body::Answered = sessioned.then(|| manager.clone());
        let mut mcp = axum::Router::new()
            .nest_service("/mcp", self.service_with(manager))
            .layer(axum::middleware::from_fn_with_state(
                answered,
                super::body::readable,
            ));
        if sessioned {
            mcp = mcp
                .layer(axum::middleware::from_fn_with_state(
                    held,
                    super::ending::ended,
                ))
                .layer(axum::middleware::from_fn_with_state(bounds, bound));
        }
        #[cfg(feature = "oauth")]
        if let Some(auth) = bearer {
            return crate::auth::router(gate, auth, max_body, mcp)
                .map_err(|problem| std::io::Error::new(std::io::ErrorKind::InvalidInput, problem));
        }
        Ok(mcp)
    }

    /// Whether anything tells one HTTP caller from another: a host's caller or grant hook,
    /// or bearer tokens.
    fn checks_callers(&self) -> bool {
        #[cfg(feature = "oauth")]
        if self.bearer.is_some() {
            return true;
        }
        self.caller.is_some() || self.grant.is_some()
    }

    /// [`McpServer::bind_http`] with its shutdown boxed: the one copy of the HTTP server.
    #[allow(clippy::type_complexity)]
    fn bind_boxed(
        self,
        addr: SocketAddr,
        shutdown: BoxFuture<'static, ()>,
    ) -> BoxFuture<'static, std::io::Result<(SocketAddr, BoxFuture<'static, std::io::Result<()>>)>>
    {
        Box::pin(async move {
            if !addr.ip().is_loopback() && !self.checks_callers() {
                tracing::warn!(
                    %addr,
                    "serving HTTP beyond this machine with no caller check: anyone who reaches \
                     the address may call every tool; check tokens (with_bearer_auth) or name \
                     callers (with_caller, with_grant)"
                );
            }
            let read_timeout = self.read_timeout;
            let router = self.http_router()?;
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let bound = listener.local_addr()?;
            tracing::info!("serving MCP over streamable HTTP at http://{bound}/mcp");
            // An answer is written in pieces (headers, events, the end of the stream); without
            // TCP_NODELAY the last small piece waits for the client's delayed ACK.
            let listener = listener.tap_io(|connection| {
                let _ = connection.set_nodelay(true);
            });
            let serving: BoxFuture<'static, std::io::Result<()>> = Box::pin(super::accept::serve(
                listener,
                router,
                read_timeout,
                shutdown,
            ));
            Ok((bound, serving))
        })
    }
}
