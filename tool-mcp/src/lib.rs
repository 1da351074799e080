//! The Model Context Protocol for `tool-core` registries: serve one to any MCP client, and use
//! remote MCP servers' tools inside one, behind the same grants.
//!
//! ```no_run
//! use tool_core::{registry, tool};
//! use tool_mcp::McpServer;
//!
//! /// Says hello.
//! #[tool(readonly)]
//! async fn hello(name: String) -> String {
//!     format!("hello {name}")
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     McpServer::new(registry![Hello]).serve_stdio().await
//! }
//! ```
//!
//! The protocol, its JSON-RPC and its transports are [rmcp]'s, the official Rust SDK; this
//! crate maps them onto a [`tool_core::Registry`]: `tools/list` is the registry's MCP export,
//! `tools/call` goes through [`Registry::call`](tool_core::Registry::call), a
//! `_meta.progressToken` makes the context's progress reports `notifications/progress`,
//! `notifications/cancelled` cancels the context, and registry changes become
//! `notifications/tools/list_changed` (for a 2026-07-28 client, on the `subscriptions/listen`
//! stream it opens).
//!
//! One server answers clients of both revisions, over stdio and HTTP alike: 2025-11-25
//! clients with the `initialize` handshake, 2026-07-28 clients with `server/discover` and a
//! protocol version on each request (rmcp routes each request by the version it names). Both
//! get the same tools and the same call results; only 2026-07-28 results carry `resultType`.
//!
//! # Asking the user
//!
//! A tool's [`Context::ask`](tool_core::Context::ask) reaches the client's user: as an
//! `elicitation/create` request for a client of MCP 2025-11-25, and as an `input_required`
//! result (the call suspended here until the client retries with its answer) for a client of
//! MCP 2026-07-28. A client that did not declare the `elicitation` capability gets a
//! `cannot-ask` refusal in the tool. [`McpServer::with_confirmation`] asks the user to approve
//! every destructive call the same way. A suspended call is found again only by its
//! `requestState` (random, used once, bound to its caller and connection), and calls wait
//! within the bounds of [`WaitingCalls`].

#![deny(missing_docs)]

mod ask;
mod convert;
mod lines;
mod remote;
mod server;
mod subscriptions;

pub use ask::{
    DEFAULT_MAX_WAITING_CALLS, DEFAULT_MAX_WAITING_PER_CALLER, DEFAULT_QUESTION_TTL, WaitingCalls,
};
pub use remote::{DEFAULT_REMOTE_TIMEOUT, RemoteError, RemoteToolkit, SERVERS_VARIABLE};
pub use server::{DEFAULT_MAX_LINE_BYTES, HttpRequestParts, McpServer};

/// Re-exported so hosts can name rmcp's types without depending on a matching version.
pub use rmcp;
