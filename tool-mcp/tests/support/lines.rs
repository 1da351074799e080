//! A client writing JSON-RPC lines to an in-process [`McpServer::serve_lines`] over an
//! in-memory pipe: the wire as a client writes it, without a process or an SDK.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tool_mcp::McpServer;

/// A client writing JSON-RPC lines to [`McpServer::serve_lines`] over an in-memory pipe, already
/// initialized.
pub struct LineClient {
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    next_id: i64,
    /// Notifications read while waiting for an answer.
    pub notifications: Vec<Value>,
    /// Whether requests carry MCP 2026-07-28's `_meta` (no `initialize`).
    current: bool,
}

/// MCP's newest revision, which every request of a `current` client names.
const CURRENT: &str = "2026-07-28";

/// How long one answer may take before the test fails.
pub const ANSWER_LIMIT: Duration = Duration::from_secs(10);

/// How long a server may take to answer what is left and close its output once its input
/// has ended.
pub const CLOSE_LIMIT: Duration = Duration::from_secs(60);

impl LineClient {
    /// A client of MCP 2025-11-25, its session opened ([`LineClient::handshake`]).
    pub async fn connect(server: McpServer) -> LineClient {
        let mut client = LineClient::open(server, false);
        client.handshake().await;
        client
    }

    /// Opens a 2025-11-25 session: `initialize`, then `notifications/initialized`. The result
    /// of `initialize`.
    pub async fn handshake(&mut self) -> Value {
        self.handshake_with(json!({})).await
    }

    /// [`LineClient::handshake`], declaring `capabilities`.
    pub async fn handshake_with(&mut self, capabilities: Value) -> Value {
        let opened = self
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                "clientInfo": {"name": "lines", "version": "0"}}),
            )
            .await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        opened
    }

    /// A client of MCP 2026-07-28: no handshake, a protocol version on every request.
    pub fn connect_current(server: McpServer) -> LineClient {
        LineClient::open(server, true)
    }

    pub fn open(server: McpServer, current: bool) -> LineClient {
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let (reader, writer) = tokio::io::split(server_end);
            let _ = server.serve_lines(reader, writer).await;
        });
        LineClient::over(client_end, current)
    }

    /// A client on `pipe`, the client's end of one a server already serves.
    pub fn over(pipe: tokio::io::DuplexStream, current: bool) -> LineClient {
        let (reader, writer) = tokio::io::split(pipe);
        LineClient {
            writer,
            lines: tokio::io::BufReader::new(reader).lines(),
            next_id: 1,
            notifications: Vec::new(),
            current,
        }
    }

    pub async fn send(&mut self, message: Value) {
        self.writer
            .write_all(message.to_string().as_bytes())
            .await
            .unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    /// Sends a request and returns its result, keeping notifications that come before it.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.start(method, params).await;
        self.answer(&json!(id)).await["result"].clone()
    }

    /// The whole answer (result or error) to request `id`, keeping the messages that come
    /// before it.
    pub async fn answer(&mut self, id: &Value) -> Value {
        loop {
            let message = (self.next(ANSWER_LIMIT).await)
                .unwrap_or_else(|| panic!("no answer to {id} within {ANSWER_LIMIT:?}"));
            if message["id"] == *id && message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Sends a request without waiting for its answer; its id.
    pub async fn start(&mut self, method: &str, mut params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        if self.current {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": CURRENT,
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    /// Closes the client's end of the pipe, so that the server's input ends, and returns
    /// every message the server writes from then until it closes its output.
    pub async fn close(mut self) -> Vec<Value> {
        self.writer.shutdown().await.unwrap();
        let mut said = Vec::new();
        let reading = async {
            while let Some(line) = self.lines.next_line().await.unwrap() {
                said.push(serde_json::from_str(&line).unwrap());
            }
        };
        tokio::time::timeout(CLOSE_LIMIT, reading)
            .await
            .expect("the server closes its output once its input has ended");
        said
    }

    /// The next message the server writes, or `None` if none comes within `limit`.
    pub async fn next(&mut self, limit: Duration) -> Option<Value> {
        let line = tokio::time::timeout(limit, self.lines.next_line())
            .await
            .ok()?
            .unwrap()
            .expect("the pipe stays open");
        Some(serde_json::from_str(&line).unwrap())
    }
}
