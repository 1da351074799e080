//! How a server is reached over stdio or any pipe of JSON lines ([`McpServer::serve_lines`]);
//! over streamable HTTP, see `http`.
//!
//! Each way of serving returns a boxed future made here, over a reader and a writer boxed
//! here, rather than being an `async fn`: the body of an `async fn` is compiled in the crate
//! that polls it, so a user's one-line `main` would compile the whole server (rmcp's service
//! loop and every message type) again. Boxed, it is compiled once, in this crate.

use rmcp::service::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tool_core::call::BoxFuture;

use super::McpServer;

/// A line reader of any kind, boxed.
type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// A line writer of any kind, boxed.
type Writer = Box<dyn AsyncWrite + Send + Unpin>;

impl McpServer {
    /// Serves over stdin and stdout until the client leaves: [`McpServer::serve_lines`] on the
    /// process's own pipes.
    pub fn serve_stdio(self) -> BoxFuture<'static, std::io::Result<()>> {
        self.serve_boxed(Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
    }

    /// Serves JSON-RPC messages, one a line, read from `reader` and answered on `writer`
    /// (a socket, a pipe, a child's stdio), until `reader` ends.
    ///
    /// Every line gets an answer: one that cannot be read as JSON (not JSON, or not UTF-8, a
    /// lone surrogate, a number out of range, nesting past 128 levels) gets a JSON-RPC parse
    /// error (code -32700, under the request's id when that much can be read, else `"id":
    /// null`) where rmcp alone would drop it silently, and the next
    /// line is read as usual; one longer than [`McpServer::with_max_line_bytes`] gets an
    /// invalid-request error (-32600) and is not kept in memory. Blank lines are skipped. It
    /// returns once rmcp has stopped and every answer has been written: `Ok` when the input
    /// ended (a read that fails ends it too), before the connection started or after; an error
    /// only when the connection could not start (its first request starts none, or the answer
    /// to it could not be written).
    pub fn serve_lines(
        self,
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> BoxFuture<'static, std::io::Result<()>> {
        self.serve_boxed(Box::new(reader), Box::new(writer))
    }

    /// [`McpServer::serve_lines`] over boxed pipes: the one copy of the server's loop.
    fn serve_boxed(
        self,
        reader: Reader,
        writer: Writer,
    ) -> BoxFuture<'static, std::io::Result<()>> {
        Box::pin(self.serve_lines_of(reader, writer))
    }

    async fn serve_lines_of(self, reader: Reader, writer: Writer) -> std::io::Result<()> {
        let input_end = crate::input_end::InputEnd::default();
        let (transport, writing) =
            crate::lines::transport(reader, writer, self.max_line_bytes, input_end.clone());
        let mut server = McpServer {
            connection: Some(uuid::Uuid::new_v4().as_u128()),
            input_end,
            ..self
        };
        // A connection's tasks are its own: no other connection can reach them.
        server.tasks = server.tasks.fresh();
        let server = server.for_connection();
        let served = match server.serve(transport).await {
            Ok(running) => running
                .waiting()
                .await
                .map(drop)
                .map_err(std::io::Error::other),
            // The client left before it started a connection: the input ended, as it may.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
            Err(error) => Err(std::io::Error::other(error)),
        };
        // rmcp has dropped the transport: wait until what it (and the line reader) said has
        // been written, or a short session's answers could be lost as the process exits.
        let _ = writing.await;
        served
    }
}
