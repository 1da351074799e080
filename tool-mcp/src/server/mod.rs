//! Serving a registry over MCP: `tools/list`, `tools/call`, progress, log messages,
//! cancellation, `list_changed` and a tool's questions to the client's user (the `ask` module), over stdio
//! or streamable HTTP.
//!
//! Every `tools/call` goes through [`Registry::call`], so a refusal of any kind (bad
//! arguments, an unknown or ungranted tool, a panic, a timeout, a handler's error) is an
//! `isError: true` result whose text is the refusal's text form, as MCP 2025-11-25 asks; the
//! JSON-RPC layer is rmcp's.
//!
//! The parts: this module (the server and the settings it starts with), `config` (the
//! `with_*` settings), `transport` (stdio, any pipe), `http` (streamable HTTP, served by
//! `accept`'s loop, a body rmcp cannot read answered by `body`, a session's end by
//! `ending`), `sessions`
//! (which grant, which deferred-loading session and which log level a request is served by),
//! `handler` (rmcp's `ServerHandler`: every MCP method), `beside` (the host's own rmcp handler,
//! for the methods that are not a tool's), `host_code` (the host's handler and hooks, a panic
//! in them caught and stood in for), and `notices` (a call's progress and log messages
//! as notifications), `tokens` (what a bearer token decides, with the `oauth` feature); without
//! the `http` feature, `without_http` (its methods, each a compile
//! error naming the feature), and without `asking`, `without_asking` (the same for its
//! settings).

#[cfg(feature = "http")]
mod accept;
mod beside;
#[cfg(feature = "http")]
mod body;
#[cfg(feature = "http")]
mod bounds;
mod cancels;
mod config;
#[cfg(feature = "http")]
mod ending;
#[cfg(feature = "http")]
mod events;
mod handler;
mod host_code;
#[cfg(feature = "http")]
mod http;
mod notices;
mod sessions;
#[cfg(feature = "oauth")]
mod tokens;
mod transport;
mod unreadable;
#[cfg(not(feature = "asking"))]
mod without_asking;
#[cfg(not(feature = "http"))]
mod without_http;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[cfg(feature = "http")]
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
#[cfg(feature = "http")]
use tool_core::Grant;
use tool_core::call::LogLevel;
use tool_core::{Context, Registry};

#[cfg(feature = "http")]
pub use self::bounds::SessionLimits;
#[cfg(feature = "http")]
use crate::owner::HttpRequestParts;
use crate::tasks::Tasks;

#[cfg(feature = "http")]
type CallerHook = Arc<dyn Fn(&HttpRequestParts) -> Option<String> + Send + Sync>;
#[cfg(feature = "http")]
type GrantHook = Arc<dyn Fn(&str) -> Grant + Send + Sync>;

/// A registry as an MCP server.
///
/// ```no_run
/// # async fn run(registry: tool_core::Registry) -> std::io::Result<()> {
/// use tool_mcp::McpServer;
///
/// McpServer::new(registry).serve_stdio().await
/// # }
/// ```
#[derive(Clone)]
pub struct McpServer {
    registry: Registry,
    name: String,
    version: String,
    #[cfg(feature = "http")]
    caller: Option<CallerHook>,
    #[cfg(feature = "http")]
    grant: Option<GrantHook>,
    /// What an HTTP request without a caller may use ([`McpServer::with_anonymous`]).
    #[cfg(feature = "http")]
    anonymous: Option<Grant>,
    base: Context,
    max_line_bytes: usize,
    #[cfg(feature = "http")]
    /// Taken by [`McpServer::http_service`]; `None` means rmcp's default. Not in every clone
    /// the HTTP service makes of the server (one per session, or per request when stateless):
    /// a config holds a cancellation token and a list of hosts.
    http_config: Option<StreamableHttpServerConfig>,
    /// Calls suspended for their clients' answers (MCP 2026-07-28), shared by every clone.
    #[cfg(feature = "asking")]
    suspended: crate::ask::Suspended,
    /// Which line connection this clone serves ([`McpServer::serve_lines`]), so that a call
    /// suspended on one is resumed on no other.
    connection: Option<u128>,
    /// The calls running as tasks, shared by the clones serving HTTP.
    tasks: Tasks,
    #[cfg(feature = "http")]
    /// Whether HTTP is served without sessions ([`McpServer::stateless`]); kept apart from
    /// `http_config` so that it holds whichever of the two is set first.
    stateless: bool,
    #[cfg(feature = "http")]
    /// Whether, without sessions, answer streams are kept for resumption
    /// ([`McpServer::with_resumable_streams`]).
    resumable: bool,
    /// The tools this connection's (or HTTP session's) searches found, for a registry with
    /// deferred loading.
    finds: tool_core::Session,
    /// The tools found by each caller whose requests have no session, shared by every clone.
    caller_finds: crate::callers::Callers,
    #[cfg(feature = "http")]
    /// Whether HTTP serves 2025-11-25 requests in sessions (rmcp's `legacy_session_mode`),
    /// set by [`McpServer::http_service`]: only then does a session id name a session.
    http_sessions: bool,
    /// The registry's generation when each `subscriptions/listen` of this clone was accepted,
    /// for its stream to tell a change it could not have heard (rmcp acknowledges a stream
    /// before the stream subscribes). A clone's own: each stdio connection and each HTTP
    /// request or session has one.
    listen_marks: Arc<Mutex<VecDeque<u64>>>,
    /// The least level this connection's (or HTTP session's) calls log at, once its client
    /// has sent `logging/setLevel` (2025-11-25).
    log_level: Arc<Mutex<Option<LogLevel>>>,
    /// The calls this connection (or HTTP session) runs, and the cancels its client sent
    /// before their calls came.
    cancels: cancels::Cancels,
    /// The end of a line connection's input, after which rmcp's loop sends nothing more.
    input_end: crate::input_end::InputEnd,
    /// The host's own handler for every method that is not a tool's
    /// ([`McpServer::with_handler`]).
    beside: Option<Arc<dyn beside::Beside>>,
    /// How many HTTP sessions are held ([`McpServer::with_session_limits`]).
    #[cfg(feature = "http")]
    session_limits: bounds::SessionLimits,
    /// How long an HTTP client may take to send a request's head, and each piece of its body
    /// ([`McpServer::with_read_timeout`]).
    #[cfg(feature = "http")]
    read_timeout: Option<Duration>,
    /// How HTTP requests' bearer tokens are checked ([`McpServer::with_bearer_auth`]).
    #[cfg(feature = "oauth")]
    bearer: Option<crate::auth::BearerAuth>,
}

impl McpServer {
    /// The longest line [`McpServer::serve_lines`] (and so `serve_stdio`) reads by default: rmcp's
    /// own bound for its line transport, so that a message rmcp would read over stdio is read here
    /// too, and well above the registry's default bound on arguments
    /// ([`DEFAULT_MAX_ARGUMENT_BYTES`](tool_core::registry::DEFAULT_MAX_ARGUMENT_BYTES)).
    pub const DEFAULT_MAX_LINE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

    /// How long a task's result is kept after it finishes (and how long it may run), unless the
    /// server is told otherwise: rmcp's default, five minutes, long enough for a client that polls
    /// every second or so to come back for it, short enough that abandoned results do not pile up.
    pub const DEFAULT_TASK_TTL: Duration =
        Duration::from_millis(rmcp::task_manager::DEFAULT_TASK_TTL_MS);

    /// How many callers' found tools a server keeps at most by default
    /// ([`McpServer::with_caller_sessions`](crate::McpServer::with_caller_sessions)): past it, the
    /// one idle the longest is forgotten. Each holds only the names of the tools its caller
    /// found, and this is well above the callers one server sees at a time.
    pub const DEFAULT_MAX_CALLER_SESSIONS: usize = 10_000;

    /// How long a caller's found tools are kept by default after its last request
    /// ([`McpServer::with_caller_sessions`](crate::McpServer::with_caller_sessions)): long enough
    /// for a model's pauses between turns, short enough that a caller coming back later starts
    /// from the short list, as a new session would. A caller with a `subscriptions/listen`
    /// stream open is not idle.
    pub const DEFAULT_CALLER_SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

    /// How long [`McpServer::serve_http`] waits by default for a request's head, and for each
    /// piece of its body after the last ([`McpServer::with_read_timeout`]): hyper's own bound on
    /// a head, far longer than any client that is sending takes.
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

    /// Serves `registry` (a scoped view serves only its grant).
    pub fn new(registry: Registry) -> Self {
        McpServer {
            registry,
            name: "tool-mcp".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            #[cfg(feature = "http")]
            caller: None,
            #[cfg(feature = "http")]
            grant: None,
            #[cfg(feature = "http")]
            anonymous: None,
            base: Context::default(),
            max_line_bytes: Self::DEFAULT_MAX_LINE_BYTES,
            #[cfg(feature = "http")]
            http_config: None,
            #[cfg(feature = "asking")]
            suspended: crate::ask::Suspended::default(),
            connection: None,
            tasks: Tasks::new(Self::DEFAULT_TASK_TTL),
            #[cfg(feature = "http")]
            stateless: false,
            #[cfg(feature = "http")]
            resumable: false,
            finds: tool_core::Session::new(),
            caller_finds: crate::callers::Callers::new(
                Self::DEFAULT_MAX_CALLER_SESSIONS,
                Self::DEFAULT_CALLER_SESSION_IDLE,
            ),
            #[cfg(feature = "http")]
            http_sessions: false,
            listen_marks: Arc::default(),
            log_level: Arc::default(),
            cancels: cancels::Cancels::default(),
            input_end: crate::input_end::InputEnd::default(),
            beside: None,
            #[cfg(feature = "http")]
            session_limits: bounds::SessionLimits::default(),
            #[cfg(feature = "http")]
            read_timeout: Some(Self::DEFAULT_READ_TIMEOUT),
            #[cfg(feature = "oauth")]
            bearer: None,
        }
    }

    /// This server for one connection or HTTP session: what its searches find, its listen
    /// streams' marks, its log level and its calls' cancels are its own.
    fn for_connection(mut self) -> Self {
        self.finds = tool_core::Session::new();
        self.listen_marks = Arc::default();
        self.log_level = Arc::default();
        self.cancels = cancels::Cancels::default();
        self
    }
}
