//! How a server is reached: over stdio or any pipe of JSON lines ([`McpServer::serve_lines`]),
//! and over streamable HTTP, as an axum service or served at an address.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::service::ServiceExt;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::io::{AsyncRead, AsyncWrite};

use super::McpServer;

impl McpServer {
    /// Serves over stdin and stdout until the client leaves: [`McpServer::serve_lines`] on the
    /// process's own pipes.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        self.serve_lines(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves JSON-RPC messages, one a line, read from `reader` and answered on `writer`
    /// (a socket, a pipe, a child's stdio), until `reader` ends.
    ///
    /// Every line gets an answer: one that cannot be read as JSON (not JSON, or not UTF-8, a
    /// lone surrogate, a number out of range, nesting past 128 levels) gets a JSON-RPC parse
    /// error (code -32700, without an id) where rmcp alone would drop it silently, and the next
    /// line is read as usual; one longer than [`McpServer::with_max_line_bytes`] gets an
    /// invalid-request error (-32600) and is not kept in memory. Blank lines are skipped. It
    /// returns once rmcp has stopped and every answer has been written.
    pub async fn serve_lines(
        self,
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> std::io::Result<()> {
        let (transport, writing) = crate::lines::transport(reader, writer, self.max_line_bytes);
        let mut server = McpServer {
            connection: Some(uuid::Uuid::new_v4().as_u128()),
            ..self
        };
        // A connection's tasks are its own: no other connection can reach them.
        server.tasks = server.tasks.fresh();
        server.finds = tool_core::Session::new();
        server.listen_marks = Arc::default();
        let served = match server.serve(transport).await {
            Ok(running) => running
                .waiting()
                .await
                .map(drop)
                .map_err(std::io::Error::other),
            Err(error) => Err(std::io::Error::other(error)),
        };
        // rmcp has dropped the transport: wait until what it (and the line reader) said has
        // been written, or a short session's answers could be lost as the process exits.
        let _ = writing.await;
        served
    }

    /// The streamable-HTTP service, to mount in an axum router (at `/mcp`, say).
    pub fn http_service(mut self) -> StreamableHttpService<McpServer, LocalSessionManager> {
        let mut config = self.http_config.take().unwrap_or_default();
        if self.stateless {
            config.legacy_session_mode = false;
        }
        self.http_sessions = config.legacy_session_mode;
        StreamableHttpService::new(
            move || {
                // Each HTTP session finds tools for itself.
                let mut server = self.clone();
                server.finds = tool_core::Session::new();
                server.listen_marks = Arc::default();
                Ok(server)
            },
            Arc::new(LocalSessionManager::default()),
            config,
        )
    }

    /// Serves streamable HTTP at `http://{addr}/mcp` until `shutdown` completes. To learn the
    /// port bound for port 0, or to connect before serving starts, use
    /// [`McpServer::bind_http`].
    pub async fn serve_http(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let (_, serving) = self.bind_http(addr, shutdown).await?;
        serving.await
    }

    /// Binds `addr` and returns the address bound (useful with port 0) and the future that
    /// serves until `shutdown` completes.
    pub async fn bind_http(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<(SocketAddr, impl Future<Output = std::io::Result<()>> + Send)> {
        let router = axum::Router::new().nest_service("/mcp", self.http_service());
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        // An answer is written in pieces (headers, events, the end of the stream); without
        // TCP_NODELAY the last small piece waits for the client's delayed ACK.
        let listener = listener.tap_io(|connection| {
            let _ = connection.set_nodelay(true);
        });
        let serving = async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(shutdown)
                .await
        };
        Ok((bound, serving))
    }
}
