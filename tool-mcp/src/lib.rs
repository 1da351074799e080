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
//! # Features
//!
//! By default this crate serves over stdio (or any pipe): what a local MCP host starts. The
//! rest is behind features, each building only what it needs: `asking` (a tool's questions put
//! to its client, below: without it each is a `cannot-ask` refusal naming the feature), `http`
//! (streamable HTTP on axum:
//! [`McpServer::serve_http`], [`McpServer::stateless`], and naming each request's caller and
//! what it may call: [`McpServer::with_caller`], [`McpServer::with_grant`]), `remote` (remote servers' tools:
//! `RemoteToolkit`, on rmcp's client with reqwest and rustls), `remote-oauth` (remote servers
//! that check OAuth tokens), `redis` (`RedisTaskStore`) and `oauth` (OAuth 2.1 bearer tokens on
//! the HTTP server: the `auth` module, `McpServer::with_bearer_auth`); `full` turns on all of
//! them. `testing`, for a crate's own tests (`[dev-dependencies]`), is asked for by name: an
//! MCP client talking to a server in the same process (`testing::connect`).
//!
//! # Deferred loading
//!
//! A registry with [deferred loading](tool_core::Registry::with_deferred_loading) lists
//! `tool_search` and its chosen few; the tools a caller's search finds are listed and callable
//! for the rest of that caller's session, which is then told `list_changed`: a 2025-11-25
//! client on its session, a 2026-07-28 client on every `subscriptions/listen` stream of the
//! same session. The session is the stdio connection, or the 2025-11-25 HTTP session; HTTP
//! requests without one are tied by their caller (see
//! [serving without sessions](#serving-without-sessions)). Grants still decide: a search never
//! returns, and a call never reaches, a tool the caller's grant leaves out.
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
//! within the bounds of `WaitingCalls`.
//!
//! All of this needs the `asking` feature (`remote` turns it on too). Without it, every
//! question a tool puts is a `cannot-ask` refusal naming the feature, a task's questions as
//! well, and `with_confirmation` and `with_waiting_calls` are compile errors naming it.
//!
//! # Tasks
//!
//! A call of a `#[tool(task)]` tool from a client that declares the tasks extension
//! (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) runs as a task: the `tools/call` is
//! answered at once with a `CreateTaskResult`, and the client polls `tasks/get` (the handler's
//! latest progress is the task's `statusMessage`; its result, once there, the `CallToolResult`
//! a direct call gives), answers the handler's questions with `tasks/update`, and stops it with
//! `tasks/cancel`, which ends the handler at its next `.await` (the questions need the
//! `asking` feature: without it each is refused naming it, and a tool marked to ask before it
//! becomes a task becomes one at once). Other clients, and 2025-11-25
//! sessions that do not declare the extension, get a plain call, but for a tool that runs
//! only as a task (`#[tool(task = "required")]`), which refuses them (-32021) naming the
//! extension to declare. A task's result is dropped
//! once its time to live has passed ([`McpServer::with_task_ttl`]); the registry's bound on
//! each caller's running tasks ([`Registry::with_task_limit`](tool_core::Registry::with_task_limit))
//! holds, and a call past it is refused as a direct call's refusal. A task belongs to the HTTP
//! session and caller that started it (over stdio, to its connection); any other asker gets
//! the error an unknown id gets.
//!
//! # Serving without sessions
//!
//! [`McpServer::stateless`] serves streamable HTTP without sessions (rmcp's
//! `legacy_session_mode: false`), so that several replicas behind a load balancer each answer
//! whatever request reaches them: no `Mcp-Session-Id` is issued and no request needs the
//! process that answered the one before. What stays per request:
//!
//! - `tools/list` and `tools/call`, refusals, and the caller and grant hooks (they read each
//!   request's own headers);
//! - progress: a call with a `progressToken` is answered on an SSE stream of its own that
//!   carries its `notifications/progress` and then its result;
//! - cancellation by closing the request: rmcp cancels the handler's context when the
//!   response is dropped.
//!
//! What a session gave and this mode cannot, and why:
//!
//! - `notifications/cancelled` is accepted and dropped: it is a POST of its own, which may
//!   reach a replica that is not running the call. Close the request instead.
//! - `notifications/tools/list_changed` of a registry change for a 2025-11-25 client (a
//!   search's growth rides on the search's own answer, below): there is no stream left
//!   open to carry it (rmcp answers the standalone GET with 405), so it lists again. A
//!   2026-07-28 client's `subscriptions/listen` stream still hears the changes of the one
//!   replica holding it; replicas should serve one registry.
//! - Questions to a 2025-11-25 client ([`Context::ask`](tool_core::Context::ask),
//!   [`McpServer::with_confirmation`]): its answer to `elicitation/create` would be a POST of
//!   its own, which rmcp refuses without a session, and no capabilities are known without an
//!   `initialize` held in memory, so the tool gets a `cannot-ask` refusal at once.
//! - The `input_required` round trips of a 2026-07-28 client: the suspended call lives in the
//!   memory of the replica that started it, and the retry carrying its `requestState` reaches
//!   that replica only by chance; elsewhere it is refused as a `requestState` this server did
//!   not give. They work with one replica, or with a balancer that sends every request of a
//!   client to one replica.
//! - Tasks, whose state is held by the process that started them: across replicas they need a
//!   shared task store (below).
//! - The host's own state (a [`Context`](tool_core::Context) extension such as a store) is
//!   per process too: what every replica must see belongs in a shared store.
//!
//! ## Deferred loading without sessions
//!
//! Every 2026-07-28 request over HTTP, and every request under [`McpServer::stateless`], has no
//! session, and rmcp answers each with a fresh clone of the server, so a registry with
//! deferred loading cannot keep what a search found in the clone. Such a request belongs to
//! its caller, as [`McpServer::with_caller`] reads it from the request: the server keeps one
//! session per caller, shared by all its clones, so that a caller's search lists the tools it
//! finds on that caller's later requests (and no other caller's), lets their calls through,
//! and tells that caller's listen streams `list_changed` (a 2025-11-25 request hears it on the
//! search's own answer stream, the only one it has). At most
//! [`McpServer::DEFAULT_MAX_CALLER_SESSIONS`] callers are kept, each until
//! [`McpServer::DEFAULT_CALLER_SESSION_IDLE`] after its last request (a caller with a listen stream open
//! is not idle); [`McpServer::with_caller_sessions`] sets both. A caller forgotten is listed
//! the short list again and searches anew.
//!
//! These sessions live in the memory of the process. With several replicas behind a load
//! balancer, give them one shared [`TaskStore`] ([`McpServer::with_task_store`], a
//! `RedisTaskStore`, the `redis` feature): a replica then reads what a caller found on any replica before it
//! lists tools for that caller or calls one, and writes what a call's search finds, so a
//! search on one replica is listed and callable on all of them (kept in the store for the
//! caller's idle time after its last request). A store that cannot be reached breaks neither
//! listings nor calls: the replica logs a warning and goes on with what it found itself (a
//! search made meanwhile stays with the replica that made it). A listen stream hears only of
//! searches on its own replica: nothing tells it of a search on another, so its client may
//! not list again until the next change it hears of. Without a shared store (or with one
//! that does not override [`TaskStore::found`]), route each caller to one replica (as the
//! `input_required` round trips above need), or serve a registry without deferred loading.
//!
//! A request with no session and no caller cannot be tied to any other request, so what its
//! search found could be listed nowhere. There, a call of any tool the request's grant allows
//! goes through, listed or not, and `tool_search`'s answer gives each found tool's
//! `inputSchema`, so that a model can call it from the answer alone
//! ([`Session::unbound`](tool_core::Session::unbound)). This widens nothing: grants, not the
//! listing, are what protect a tool, and a search still finds, and a call still reaches,
//! granted tools only. Name callers ([`McpServer::with_caller`]) to get the growing listing
//! instead.
//!
//! # Tasks across replicas
//!
//! Several replicas of a server behind one load balancer share their tasks through a
//! [`TaskStore`] ([`McpServer::with_task_store`]), such as a `RedisTaskStore` (the `redis` feature): the replica
//! running a task writes its state there as it changes, and reads the answers and the cancel
//! other replicas leave for it; any replica answers `tasks/*` for it from the store, with the
//! same owner checks. While the store cannot be reached, task calls fail with an error saying
//! so (a replica still answers for the tasks it runs itself), and plain calls are not touched.
//! Without a store, a server keeps the tasks it runs in its memory alone, and a task whose
//! result has been dropped is gone at once. A
//! 2026-07-28 request has no session, so its tasks reach every replica; a 2025-11-25 session
//! lives on one replica, and so do its tasks, as a task's owner includes its session.

#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "asking")]
mod ask;
#[cfg(not(feature = "asking"))]
use unasked as ask;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub mod auth;
mod background;
mod call_line;
mod callers;
mod convert;
pub mod features;
mod in_flight;
mod input_end;
mod lines;
mod opening;
mod owner;
#[cfg(feature = "remote")]
mod remote;
mod server;
mod store;
mod subscriptions;
mod tasks;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
#[cfg(any(feature = "remote", feature = "oauth"))]
mod tls;
#[cfg(any(test, not(feature = "asking")))]
mod unasked;
mod unread;

#[cfg(feature = "asking")]
#[cfg_attr(docsrs, doc(cfg(feature = "asking")))]
pub use ask::WaitingCalls;
pub use owner::HttpRequestParts;
#[cfg(feature = "remote-oauth")]
pub use remote::{AuthorizationCode, Authorize};
#[cfg(feature = "remote")]
pub use remote::{
    Connecting, Following, RemoteAuth, RemoteError, RemoteToolkit, Revision, SERVERS_VARIABLE,
};
pub use server::McpServer;
#[cfg(feature = "http")]
pub use server::SessionLimits;
#[cfg(feature = "redis")]
pub use store::RedisTaskStore;
pub use store::{MemoryTaskStore, StoreResult, TaskRecord, TaskStore, TaskStoreError};

/// Re-exported so hosts can name rmcp's types without depending on a matching version.
pub use rmcp;
