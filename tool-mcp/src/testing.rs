//! An MCP client connected to a server in the same process (the `testing` feature), for a
//! user's tests that need the wire: what a client is listed and answered, in MCP's own types,
//! without a child process or a port.
//!
//! ```
//! use tool_core::{registry, tool};
//! use tool_mcp::McpServer;
//!
//! /// Says hello.
//! #[tool(readonly)]
//! async fn hello(name: String) -> String {
//!     format!("hello {name}")
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let client = tool_mcp::testing::connect(McpServer::new(registry![Hello])).await.unwrap();
//! let tools = client.tools().await.unwrap();
//! assert_eq!(tools[0].name, "hello");
//! let answer = client.call("hello", serde_json::json!({"name": "Ada"})).await.unwrap();
//! assert_eq!(tool_mcp::testing::text(&answer), "hello Ada");
//! let refused = client.call("hello", serde_json::json!({})).await.unwrap();
//! assert_eq!(refused.is_error, Some(true));
//! assert!(tool_mcp::testing::text(&refused).starts_with("refused\tbad-arguments\t"));
//! // MCP carries an object of arguments, or none: anything else is an error, not a panic.
//! let error = client.call("hello", serde_json::json!([1])).await.unwrap_err();
//! assert!(error.to_string().contains("takes an object of arguments"));
//! # });
//! ```

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{RoleClient, RunningService, ServiceError, ServiceExt};
use serde_json::Value;

use crate::server::McpServer;

/// How much of a message the in-process pipe holds before a writer waits for its reader.
const PIPE_BYTES: usize = 1 << 20;

/// An MCP client (rmcp's, of MCP 2025-11-25, asking nothing of its user) talking to one
/// [`McpServer`] over an in-process pipe. Dropping it ends the connection and the server's
/// loop.
pub struct McpClient {
    service: RunningService<RoleClient, ()>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("closed", &self.service.is_closed())
            .finish_non_exhaustive()
    }
}

/// Connects a client to `server`, served on a pipe in this process, and completes MCP's
/// `initialize` handshake. Needs a tokio runtime, which runs the server.
pub async fn connect(server: McpServer) -> Result<McpClient, ClientError> {
    let (server_end, client_end) = tokio::io::duplex(PIPE_BYTES);
    let (reader, writer) = tokio::io::split(server_end);
    tokio::spawn(server.serve_lines(reader, writer));
    let service = ()
        .serve(client_end)
        .await
        .map_err(|error| ClientError::Connect(error.to_string()))?;
    Ok(McpClient { service })
}

impl McpClient {
    /// The server's `tools/list`, every page of it.
    pub async fn tools(&self) -> Result<Vec<Tool>, ClientError> {
        Ok(self.service.list_all_tools().await?)
    }

    /// A `tools/call` of `name` with `arguments`: an object, or `null` for none (MCP carries
    /// nothing else; another value is an error before anything is sent). A refused call is an
    /// answer with `is_error` set and the refusal's text form as its [`text`].
    pub async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ClientError> {
        let params = CallToolRequestParams::new(name.to_owned());
        let params = match arguments {
            Value::Object(object) => params.with_arguments(object),
            Value::Null => params,
            other => return Err(ClientError::Arguments(other)),
        };
        Ok(self.service.call_tool(params).await?)
    }

    /// rmcp's client, for every other request (`ping`, `resources/list`, tasks...).
    pub fn peer(&self) -> &rmcp::service::Peer<RoleClient> {
        self.service.peer()
    }
}

/// The text blocks of an answer, one a line: the output's text, or the refusal's text form.
pub fn text(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.as_str()))
        .collect();
    texts.join("\n")
}

/// What the in-process client could not do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The handshake failed: the server closed the pipe or answered `initialize` with an
    /// error (its log says why).
    #[error(
        "the in-process MCP client did not connect: {0}; the server's log (a tracing subscriber) says why"
    )]
    Connect(String),
    /// Arguments that are neither an object nor `null`, which MCP cannot carry.
    #[error("MCP's tools/call takes an object of arguments (or null for none), not {0}")]
    Arguments(Value),
    /// The request failed on the wire, or the server answered it with a JSON-RPC error.
    #[error("the MCP request failed: {0}")]
    Service(#[from] ServiceError),
}
