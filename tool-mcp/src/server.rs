//! Serving a registry over MCP: `tools/list`, `tools/call`, progress, cancellation,
//! `list_changed` and a tool's questions to the client's user (the `ask` module), over stdio
//! or streamable HTTP.
//!
//! Every `tools/call` goes through [`Registry::call`], so a refusal of any kind (bad
//! arguments, an unknown or ungranted tool, a panic, a timeout, a handler's error) is an
//! `isError: true` result whose text is the refusal's text form, as MCP 2025-11-25 asks; the
//! JSON-RPC layer is rmcp's.

use std::borrow::Cow;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::serve::ListenerExt;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    ErrorCode, GetTaskParams, GetTaskResult, Implementation, InitializeResult, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerResult, SubscriptionFilter, Tool, UpdateTaskParams,
};
use rmcp::service::{
    NotificationContext, RequestContext, RoleServer, ServiceExt, SubscriptionContext,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, Peer};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tool_core::{Arguments, Context, Grant, Progress, Provider, Registry, ToolCall};

use crate::ask::Running;
use crate::tasks::{Owner, Tasks};

/// The request an HTTP caller made, for a host's [`McpServer::with_caller`] hook to read (its
/// headers, say).
pub type HttpRequestParts = axum::http::request::Parts;

type CallerHook = Arc<dyn Fn(&HttpRequestParts) -> Option<String> + Send + Sync>;
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
    caller: Option<CallerHook>,
    grant: Option<GrantHook>,
    /// What an HTTP request without a caller may use ([`McpServer::with_anonymous`]).
    anonymous: Option<Grant>,
    base: Context,
    max_line_bytes: usize,
    /// Taken by [`McpServer::http_service`]; `None` means rmcp's default. Not in every clone
    /// the HTTP service makes of the server (one per session, or per request when stateless):
    /// a config holds a cancellation token and a list of hosts.
    http_config: Option<StreamableHttpServerConfig>,
    /// Calls suspended for their clients' answers (MCP 2026-07-28), shared by every clone.
    suspended: crate::ask::Suspended,
    /// Which line connection this clone serves ([`McpServer::serve_lines`]), so that a call
    /// suspended on one is resumed on no other.
    connection: Option<u128>,
    /// The calls running as tasks, shared by the clones serving HTTP.
    tasks: Tasks,
    /// Whether HTTP is served without sessions ([`McpServer::stateless`]); kept apart from
    /// `http_config` so that it holds whichever of the two is set first.
    stateless: bool,
    /// The tools this connection's (or HTTP session's) searches found, for a registry with
    /// deferred loading.
    session: tool_core::Session,
    /// The tools found by each caller whose requests have no session, shared by every clone.
    callers: crate::callers::Callers,
    /// Whether HTTP serves 2025-11-25 requests in sessions (rmcp's `legacy_session_mode`),
    /// set by [`McpServer::http_service`]: only then does a session id name a session.
    sessions: bool,
}

/// The longest line [`McpServer::serve_lines`] (and so `serve_stdio`) reads by default: rmcp's
/// own bound for its line transport, so that a message rmcp would read over stdio is read here
/// too, and well above the registry's default bound on arguments
/// ([`DEFAULT_MAX_ARGUMENT_BYTES`](tool_core::DEFAULT_MAX_ARGUMENT_BYTES)).
pub const DEFAULT_MAX_LINE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

impl McpServer {
    /// Serves `registry` (a scoped view serves only its grant).
    pub fn new(registry: Registry) -> Self {
        McpServer {
            registry,
            name: "tool-mcp".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            caller: None,
            grant: None,
            anonymous: None,
            base: Context::default(),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            http_config: None,
            suspended: crate::ask::Suspended::default(),
            connection: None,
            tasks: Tasks::default(),
            stateless: false,
            session: tool_core::Session::new(),
            callers: crate::callers::Callers::default(),
            sessions: false,
        }
    }

    /// Bounds what the server keeps of the tools found by callers whose requests have no
    /// session (with deferred loading, over HTTP: every MCP 2026-07-28 request, and every
    /// request under [`McpServer::stateless`]): the found tools of at most `max_callers`
    /// callers ([`DEFAULT_MAX_CALLER_SESSIONS`](crate::DEFAULT_MAX_CALLER_SESSIONS) unless
    /// set; past it, the one idle the longest is forgotten), each forgotten `idle` after the
    /// caller's last request
    /// ([`DEFAULT_CALLER_SESSION_IDLE`](crate::DEFAULT_CALLER_SESSION_IDLE) unless set). A
    /// caller whose tools were forgotten is listed the short list again and searches anew.
    /// See [serving without sessions](crate#serving-without-sessions).
    pub fn with_caller_sessions(mut self, max_callers: usize, idle: std::time::Duration) -> Self {
        self.callers = crate::callers::Callers::new(max_callers, idle);
        self
    }

    /// Keeps a task's result for `ttl` after the task ends, and lets a task run at most
    /// `ttl` ([`DEFAULT_TASK_TTL`](crate::DEFAULT_TASK_TTL), five minutes, unless set); a
    /// `tasks/get` after that is an error saying the result was dropped. See
    /// [tasks](crate#tasks).
    pub fn with_task_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.tasks = self.tasks.with_ttl(ttl);
        self
    }

    /// Keeps the state of tasks over HTTP (status, progress, questions and their answers,
    /// results until their time to live has passed) in `store`, so that every replica sharing
    /// it answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task any of them
    /// started, such as a [`RedisTaskStore`](crate::RedisTaskStore). Without it, tasks are
    /// kept in this process's memory. A stdio connection's tasks stay in memory either way, as
    /// no one else may reach them. See [tasks](crate#tasks).
    ///
    /// With deferred loading, the store also keeps what each caller's searches found on
    /// requests without a session ([`TaskStore::found`](crate::TaskStore::found)), so that
    /// a search on one replica is listed and callable on every replica sharing it; an
    /// unreachable store only logs a warning there. A listen stream is not told of a search
    /// on another replica. See
    /// [deferred loading without sessions](crate#deferred-loading-without-sessions).
    pub fn with_task_store(mut self, store: impl crate::TaskStore) -> Self {
        self.tasks = self.tasks.with_store(std::sync::Arc::new(store));
        self
    }

    /// Asks the client's user to approve every call of a tool marked `destructive`, through
    /// the same questions a tool asks with [`Context::ask`]: the question names the tool and
    /// shows its arguments; only a yes runs the call, and a client that cannot be asked (no
    /// `elicitation` capability) gets a `declined` refusal saying so. No answer within
    /// `timeout` is a decline too. It replaces any approver the registry had
    /// ([`Registry::with_approver`], [`tool_core::ApproveByAsking`]).
    pub fn with_confirmation(mut self, timeout: std::time::Duration) -> Self {
        self.registry = self
            .registry
            .with_approver(tool_core::ApproveByAsking, timeout);
        self
    }

    /// Bounds the calls suspended for their clients' answers (MCP 2026-07-28's
    /// `input_required` round trips): how long one waits, how many wait at once
    /// ([`WaitingCalls::default`](crate::WaitingCalls) unless set). See the [`ask`](crate#asking-the-user)
    /// notes.
    pub fn with_waiting_calls(mut self, limits: crate::WaitingCalls) -> Self {
        self.suspended.limits = limits;
        self
    }

    /// Serves HTTP with this rmcp configuration instead of rmcp's default: its limit on a
    /// request's body (answered with 413 past it), keep-alive,
    /// allowed hosts and origins, sessions.
    ///
    /// ```
    /// use tool_mcp::McpServer;
    /// use tool_mcp::rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    ///
    /// # fn make(registry: tool_core::Registry) -> McpServer {
    /// McpServer::new(registry).with_http_config(
    ///     StreamableHttpServerConfig::default().with_max_request_body_bytes(16 << 20),
    /// )
    /// # }
    /// ```
    pub fn with_http_config(mut self, config: StreamableHttpServerConfig) -> Self {
        self.http_config = Some(config);
        self
    }

    /// Serves HTTP without sessions, so that any replica behind a load balancer can answer
    /// any request: each POST is served on its own, answered on its own response (an SSE
    /// stream carrying the call's progress, then its result), and no `Mcp-Session-Id` is
    /// issued. It keeps the rest of a configuration given to [`McpServer::with_http_config`],
    /// before or after. See [serving without sessions](crate#serving-without-sessions) for
    /// what a session gave that this mode does not.
    ///
    /// ```
    /// use tool_mcp::McpServer;
    ///
    /// # fn make(registry: tool_core::Registry) -> McpServer {
    /// McpServer::new(registry).stateless()
    /// # }
    /// ```
    pub fn stateless(mut self) -> Self {
        self.stateless = true;
        self
    }

    /// Sets the longest line [`McpServer::serve_lines`] reads ([`DEFAULT_MAX_LINE_BYTES`]
    /// unless set). A longer line is read past, never held whole, and answered with an error.
    /// A registry whose [`Registry::with_max_argument_bytes`] was raised past it needs this
    /// raised too.
    /// (Over HTTP, rmcp's own limit on a request's body applies.)
    pub fn with_max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line_bytes = bytes;
        self
    }

    /// Starts every call's context from `base`: its extensions (application state) and its
    /// deadline carry over; cancellation comes from the client, and the caller from
    /// [`McpServer::with_caller`].
    pub fn with_context(mut self, base: Context) -> Self {
        self.base = base;
        self
    }

    /// Names the server in its `initialize` answer.
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Tells who an HTTP caller is, from its request (a header the host's proxy set, say).
    /// The answer becomes the context's caller, which the host asserts: the framework never
    /// reads it from a call's arguments. Over stdio there is no request, and no caller.
    ///
    /// With deferred loading, it also says whose found tools a request without a session
    /// lists and lets through: the tools a caller's search found are that caller's, on every
    /// later request, whichever clone of the server answers it (see
    /// [serving without sessions](crate#serving-without-sessions)).
    pub fn with_caller(
        mut self,
        identify: impl Fn(&HttpRequestParts) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.caller = Some(Arc::new(identify));
        self
    }

    /// Scopes each request of a caller [`McpServer::with_caller`] names to the grant this hook
    /// gives that caller: it sees and runs only what the grant lets through
    /// ([`Grant::all`] for every tool, [`Grant::new`] for none), so a caller the hook does not
    /// name explicitly gets what its last arm grants, never the whole registry by default.
    /// Without this hook, a named caller is served the whole registry.
    ///
    /// A request without a caller gets what [`McpServer::with_anonymous`] grants: nothing,
    /// unless that is set, on a server that names callers or grants. Over stdio there is no
    /// request and no caller: the peer is the process that started the server, served the
    /// registry as given (serve [`Registry::scoped`] to serve it less).
    ///
    /// ```
    /// use tool_core::Grant;
    /// # fn server(registry: tool_core::Registry) -> tool_mcp::McpServer {
    /// tool_mcp::McpServer::new(registry)
    ///     .with_caller(|request| {
    ///         let caller = request.headers.get("x-caller")?.to_str().ok()?;
    ///         Some(caller.to_owned())
    ///     })
    ///     .with_grant(|caller| match caller {
    ///         "guest" => Grant::names(["note_search", "note_count"]),
    ///         _ => Grant::all(),
    ///     })
    ///     .with_anonymous(Grant::read_only())
    /// # }
    /// ```
    pub fn with_grant(mut self, grant: impl Fn(&str) -> Grant + Send + Sync + 'static) -> Self {
        self.grant = Some(Arc::new(grant));
        self
    }

    /// What an HTTP request without a caller (one [`McpServer::with_caller`] names no caller
    /// for) may see and run. Unless set, a server that names callers or grants lets such a
    /// request use nothing: it is listed no tools, and a call is refused `not-permitted`; a
    /// server with neither hook checks no one, and serves every request the whole registry.
    pub fn with_anonymous(mut self, grant: Grant) -> Self {
        self.anonymous = Some(grant);
        self
    }

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
        server.session = tool_core::Session::new();
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
        self.sessions = config.legacy_session_mode;
        StreamableHttpService::new(
            move || {
                // Each HTTP session finds tools for itself.
                let mut server = self.clone();
                server.session = tool_core::Session::new();
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

    /// The registry this request may use: scoped to the grant of its caller, or, over HTTP
    /// without one, to what anonymous requests are granted.
    fn registry_for(
        &self,
        context: &RequestContext<RoleServer>,
        caller: Option<&str>,
    ) -> Cow<'_, Registry> {
        let grant = match caller {
            Some(caller) => self.grant.as_ref().map(|grant| grant(caller)),
            None if context.extensions.get::<HttpRequestParts>().is_some() => {
                match &self.anonymous {
                    Some(grant) => Some(grant.clone()),
                    None if self.caller.is_some() || self.grant.is_some() => Some(Grant::new()),
                    None => None,
                }
            }
            None => None,
        };
        match grant {
            Some(grant) => Cow::Owned(self.registry.scoped(grant)),
            None => Cow::Borrowed(&self.registry),
        }
    }

    fn caller_of(&self, context: &rmcp::model::Extensions) -> Option<String> {
        let identify = self.caller.as_ref()?;
        identify(context.get::<HttpRequestParts>()?)
    }

    /// Where this request's searches keep what they find, and what it is listed from: its
    /// stdio connection's or HTTP session's session, else its caller's, else (nothing ties
    /// the request to any other) an unbound one.
    fn session_for(&self, context: &RequestContext<RoleServer>, caller: Option<&str>) -> Found {
        if !self.registry.is_deferred() || self.in_own_session(context) {
            return Found::Own(self.session.clone());
        }
        match caller {
            Some(caller) => Found::Caller(self.callers.session(caller)),
            None => Found::Unbound(tool_core::Session::unbound()),
        }
    }

    /// Whether the request is served by a clone that lives as long as its session: over stdio
    /// (no HTTP request), or in a 2025-11-25 HTTP session. rmcp serves a request naming MCP
    /// 2026-07-28 without a session whatever headers it carries, and a server without sessions
    /// serves every request so, each by a clone of its own.
    fn in_own_session(&self, context: &RequestContext<RoleServer>) -> bool {
        let Some(parts) = context.extensions.get::<HttpRequestParts>() else {
            return true;
        };
        self.sessions && parts.headers.contains_key("mcp-session-id") && !is_current(context)
    }
}

impl McpServer {
    /// For a caller's session (a request without one of its own) when the server shares a task
    /// store: loads the tools the caller found on any replica into the session, and returns
    /// where to write what this request finds. Nothing else asks the store, so a server
    /// without deferred loading or without a shared store makes no round trip for it.
    async fn load_shared<'a>(
        &'a self,
        found: &Found,
        caller: Option<&'a str>,
    ) -> Option<Sharing<'a>> {
        let (Found::Caller(session), Some(caller)) = (found, caller) else {
            return None;
        };
        let store = self.tasks.shared_store()?;
        let keep = self.callers.idle();
        match store.found(caller, keep).await {
            Ok(names) => {
                for name in names {
                    session.load(name);
                }
            }
            // Listing and calling go on with what this replica knows, as plain calls do when
            // the store is down.
            Err(error) => tracing::warn!(
                caller = %caller,
                %error,
                "the tools this caller found on other replicas could not be read from the \
                 task store; going on with those found here"
            ),
        }
        Some(Sharing {
            store,
            caller,
            keep,
            known: session.loaded().len(),
        })
    }
}

/// Where a request of a caller's session writes the tools its call finds, for the other
/// replicas sharing the task store.
struct Sharing<'a> {
    store: &'a dyn crate::TaskStore,
    caller: &'a str,
    keep: std::time::Duration,
    /// How many tools the session had found before the call (the store's among them): a
    /// session only grows, so those past it are the ones the call found.
    known: usize,
}

impl Sharing<'_> {
    /// Writes the tools `session` gained since it was loaded, if any.
    async fn share(self, session: &tool_core::Session) {
        let loaded = session.loaded();
        let gained = loaded.get(self.known..).unwrap_or_default();
        if gained.is_empty() {
            return;
        }
        if let Err(error) = self.store.add_found(self.caller, gained, self.keep).await {
            tracing::warn!(
                caller = %self.caller,
                %error,
                "the tools this caller found could not be written to the task store; only \
                 this replica lists them"
            );
        }
    }
}

/// Whether the request names MCP 2026-07-28 or later, which hears of list changes only on a
/// `subscriptions/listen` stream.
fn is_current(context: &RequestContext<RoleServer>) -> bool {
    context.protocol_version().is_some_and(|version| {
        version.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str()
    })
}

/// A request's session, and whose it is.
enum Found {
    /// The stdio connection's or the HTTP session's (a clone of the server lives as long).
    Own(tool_core::Session),
    /// The caller's, for a request with no session.
    Caller(tool_core::Session),
    /// Nobody's: the request has no session and no caller.
    Unbound(tool_core::Session),
}

impl Found {
    fn session(&self) -> &tool_core::Session {
        match self {
            Found::Own(session) | Found::Caller(session) | Found::Unbound(session) => session,
        }
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> InitializeResult {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_tasks()
            .build();
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new(&self.name, &self.version))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let caller = self.caller_of(&context.extensions);
        let found = self.session_for(&context, caller.as_deref());
        self.load_shared(&found, caller.as_deref()).await;
        let tools = self
            .registry_for(&context, caller.as_deref())
            .export_in(found.session(), Provider::Mcp)
            .map_err(|error| McpError::internal_error(error.to_string(), None))?;
        let tools = tools
            .iter()
            .map(Tool::deserialize)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| McpError::internal_error(error.to_string(), None))?;
        // `resultType: "complete"`, which 2026-07-28 requires; rmcp strips it for older peers.
        let listed = ListToolsResult::with_all_items(tools);
        if !is_current(&context) {
            return Ok(listed);
        }
        // The caching hints 2026-07-28 requires: a list may differ by caller (grants, what a
        // caller found) and may change at any time (a search, a change of the registry), so
        // it is private and not to be reused; a `list_changed` says when to ask again.
        Ok(listed
            .with_ttl_ms(0)
            .with_cache_scope(rmcp::model::CacheScope::Private))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let caller = self.caller_of(&context.extensions);
        let owner = Owner::of(&context, caller.clone());
        if request.request_state.is_some() || request.input_responses.is_some() {
            let owner = crate::ask::Owner::new(owner, self.connection);
            return self.suspended.resume(request, owner, context.ct).await;
        }
        let registry = self.registry_for(&context, caller.as_deref());
        let found = self.session_for(&context, caller.as_deref());
        let sharing = self.load_shared(&found, caller.as_deref()).await;
        let session = found.session().clone();
        let current = is_current(&context);
        // SEP-414: a W3C `traceparent` in the request's `_meta` is the remote parent of the
        // call's span; a malformed one is ignored, as the W3C recommendation says.
        let trace_parent = (request.meta.as_ref())
            .and_then(|meta| meta.get_traceparent())
            .or_else(|| context.meta.get_traceparent())
            .and_then(tool_core::TraceParent::parse);
        // What every call's context carries: the caller the host named, and the trace parent.
        let mut ctx = self.base.clone();
        if let Some(caller) = &caller {
            ctx = ctx.with_caller(caller.as_str());
        }
        if let Some(parent) = trace_parent {
            ctx = ctx.with_extension(parent);
        }
        let arguments = arguments_of(request.arguments);
        let call = ToolCall::new(context.id.to_string(), request.name.as_ref(), arguments);
        if self.tasks.wanted(&registry, &request.name, &context)
            && registry.is_listed_in(&session, &request.name)
        {
            // A task outlives its request: it has a token of its own, and no progress token.
            let ctx = ctx.with_cancellation(Default::default());
            return self.tasks.start(&registry, call, ctx, owner).await;
        }
        let asking = crate::ask::Asking::of(&context);
        // A call that may be suspended for an answer outlives its request: it has a
        // cancellation of its own, which the request's cancels while it waits on the call.
        let cancel = match asking.suspends() {
            true => tool_core::CancellationToken::new(),
            false => context.ct.clone(),
        };
        let mut ctx = ctx
            .with_cancellation(cancel.clone())
            .with_asker_arc(asking.asker());
        let peer = context.peer.clone();
        let progress_token = request
            .meta
            .as_ref()
            .and_then(|meta| meta.get_progress_token())
            .or_else(|| context.meta.get_progress_token());
        let mut progress = None;
        if let Some(token) = progress_token {
            let sink = Arc::new(ProgressSink::new(context.peer, token));
            let reports = sink.clone();
            ctx = ctx.with_progress(move |progress| reports.report(progress));
            progress = Some(sink);
        }
        // Only a registry with deferred loading lists what a search finds: without one, the
        // list cannot grow. A 2026-07-28 client hears of its growth on its listen streams,
        // which wait on the session; an unbound session's growth is listed nowhere.
        let mut grown = (registry.is_deferred() && !current && !session.is_unbound())
            .then(|| session.changes());
        let answer = match asking.into_rounds() {
            Some(questions) => {
                let registry = registry.into_owned();
                let session = session.clone();
                let running = async move { run(&registry, &session, call, ctx, progress).await };
                let name = request.name.into_owned();
                let owner = crate::ask::Owner::new(owner, self.connection);
                let running = Running::start(name, owner, Box::pin(running), cancel, questions);
                self.suspended.drive(running, context.ct).await
            }
            None => crate::convert::call_tool_result(
                &run(&registry, &session, call, ctx, progress).await,
            )
            .map(CallToolResponse::from),
        };
        if let Some(sharing) = sharing {
            sharing.share(&session).await;
        }
        // A search found tools: this session's list grew. (Without a session, the notice
        // rides on the call's own answer stream, before its result.)
        if grown
            .as_mut()
            .is_some_and(|grown| grown.has_changed().unwrap_or(false))
        {
            let _ = peer.notify_tool_list_changed().await;
        }
        answer
    }

    /// A request rmcp could not read as one of MCP's. A `tools/call` lands here when its params
    /// are not a call's: arguments sent as JSON text holding an object are read as that object,
    /// as the registry reads them in process, and the call made; other params get an
    /// invalid-params error saying what is wrong, where rmcp would answer "method not found"
    /// of a method it has.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        if let Some(error) = crate::tasks::unreadable(&request.method) {
            return Err(error);
        }
        if request.method != "tools/call" {
            return Err(McpError::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let params = call_params_of(request.params).map_err(|problem| {
            McpError::invalid_params(
                format!(
                    "Invalid params: {problem}; send {{\"name\": ..., \"arguments\": {{...}}}}"
                ),
                None,
            )
        })?;
        let response = self.call_tool(params, context).await?;
        serde_json::to_value(ServerResult::from(response))
            .map(CustomResult)
            .map_err(|error| McpError::internal_error(error.to_string(), None))
    }

    /// MCP 2026-07-28's `subscriptions/listen`: the tool list's changes, as `on_initialized`
    /// sends them to a 2025-11-25 session.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(crate::subscriptions::accepted(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let request = context.request_context();
        let caller = self.caller_of(&request.extensions);
        // A caller's session is held as in use while the stream is open, so that it is not
        // forgotten (and replaced by one the stream does not hear) while idle.
        let (session, _listening) = match self.session_for(request, caller.as_deref()) {
            Found::Own(session) => (Some(session), None),
            Found::Caller(_) => match caller.as_deref() {
                Some(caller) => {
                    let (session, listening) = self.callers.listen(caller);
                    (Some(session), Some(listening))
                }
                None => (None, None),
            },
            Found::Unbound(_) => (None, None),
        };
        crate::subscriptions::listen(&self.registry, session, context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let owner = Owner::of(&context, self.caller_of(&context.extensions));
        self.tasks.get(&request.task_id, &owner).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let owner = Owner::of(&context, self.caller_of(&context.extensions));
        self.tasks
            .update(&request.task_id, request.input_responses, &owner)
            .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let owner = Owner::of(&context, self.caller_of(&context.extensions));
        self.tasks.cancel(&request.task_id, &owner).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut changes = self.registry.subscribe();
        let peer = context.peer.clone();
        tokio::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            // A lagging listener missed some changes, but one notice covers them all.
            while let Ok(_) | Err(RecvError::Lagged(_)) = changes.recv().await {
                if peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
            }
        });
    }
}

/// Runs `call` and returns its result once its progress reports are sent, so that they reach
/// the client before the result does.
async fn run(
    registry: &Registry,
    session: &tool_core::Session,
    call: ToolCall,
    ctx: Context,
    progress: Option<Arc<ProgressSink>>,
) -> tool_core::ToolResult {
    let result = registry.call_in(session, call, &ctx).await;
    drop(ctx);
    if let Some(progress) = progress {
        progress.finish().await;
    }
    result
}

/// A `tools/call`'s params that rmcp could not read, read as a call's if their arguments are
/// JSON text holding an object; else what is wrong with them.
fn call_params_of(params: Option<Value>) -> Result<CallToolRequestParams, &'static str> {
    let mut params = params.unwrap_or(Value::Null);
    let problem = match params.get("arguments") {
        _ if !params.is_object() => "the params must be an object holding `name` and `arguments`",
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(object @ Value::Object(_)) => {
                params["arguments"] = object;
                return serde_json::from_value(params).map_err(
                    |_| "the params are not those of a tool call (a `name` and `arguments`)",
                );
            }
            _ => "`arguments` is text that is not a JSON object",
        },
        Some(Value::Object(_)) | None => {
            "the params are not those of a tool call (a `name` and `arguments`)"
        }
        Some(_) => "`arguments` must be a JSON object (or text holding one)",
    };
    Err(problem)
}

/// A request's arguments as a call's: their JSON text. serde_json writes them back, which
/// recurses once per level: rmcp read them from JSON text, which serde_json reads no deeper than
/// 128 levels, so the recursion is as bounded here as it was there.
fn arguments_of(arguments: Option<JsonObject>) -> Arguments {
    match arguments.map(|arguments| serde_json::to_string(&arguments)) {
        Some(Ok(text)) => Arguments::from_text(text),
        // A map with string keys always serializes.
        Some(Err(_)) | None => Arguments::empty(),
    }
}

/// A call's progress reports on their way to the client as `notifications/progress`. Every
/// request an rmcp client sends carries a progress token, and few tools report progress, so
/// the channel and the task that sends the notifications start with the first report.
struct ProgressSink {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    /// The runtime the call came in on, for a report made on a thread outside it.
    runtime: tokio::runtime::Handle,
    started: Mutex<Option<(UnboundedSender<Progress>, JoinHandle<()>)>>,
}

impl ProgressSink {
    fn new(peer: Peer<RoleServer>, token: ProgressToken) -> Self {
        ProgressSink {
            peer,
            token,
            runtime: tokio::runtime::Handle::current(),
            started: Mutex::new(None),
        }
    }

    fn report(&self, progress: Progress) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        let (sender, _) = started.get_or_insert_with(|| {
            let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
            let forwarding = forward_progress(self.peer.clone(), self.token.clone(), receiver);
            (sender, self.runtime.spawn(forwarding))
        });
        // The call may outlive its listener; a closed channel is not the tool's concern.
        let _ = sender.send(progress);
    }

    /// Returns once the reports made so far are sent, so that they reach the client before
    /// the result does.
    async fn finish(&self) {
        let started = self
            .started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((sender, forwarding)) = started {
            drop(sender);
            let _ = forwarding.await;
        }
    }
}

async fn forward_progress(
    peer: Peer<RoleServer>,
    token: ProgressToken,
    mut receiver: tokio::sync::mpsc::UnboundedReceiver<Progress>,
) {
    while let Some(progress) = receiver.recv().await {
        let params = json!({
            "progressToken": token,
            "progress": progress.done,
            "total": progress.total,
            "message": progress.message,
        });
        let Ok(params) = serde_json::from_value::<ProgressNotificationParam>(params) else {
            continue;
        };
        if peer.notify_progress(params).await.is_err() {
            break;
        }
    }
}
