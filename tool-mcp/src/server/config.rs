//! The settings of a server, each a `with_*` method that returns it changed: names, contexts,
//! callers and grants, tasks and their store, questions, HTTP and line limits.

#[cfg(feature = "http")]
use std::sync::Arc;

#[cfg(feature = "http")]
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use tool_core::Context;
#[cfg(feature = "http")]
use tool_core::Grant;

use super::McpServer;
#[cfg(feature = "http")]
use crate::owner::HttpRequestParts;

impl McpServer {
    /// Bounds what the server keeps of the tools found by callers whose requests have no
    /// session (with deferred loading, over HTTP: every MCP 2026-07-28 request, and every
    /// request under [`McpServer::stateless`]): the found tools of at most `max_callers`
    /// callers (at least one) ([`DEFAULT_MAX_CALLER_SESSIONS`](McpServer::DEFAULT_MAX_CALLER_SESSIONS) unless
    /// set; past it, the one idle the longest is forgotten), each forgotten `idle` after the
    /// caller's last request
    /// ([`DEFAULT_CALLER_SESSION_IDLE`](McpServer::DEFAULT_CALLER_SESSION_IDLE) unless set). A
    /// caller whose tools were forgotten is listed the short list again and searches anew.
    /// See [serving without sessions](crate#serving-without-sessions).
    pub fn with_caller_sessions(mut self, max_callers: usize, idle: std::time::Duration) -> Self {
        self.caller_finds = crate::callers::Callers::new(max_callers, idle);
        self
    }

    /// Keeps a task's result for `ttl` after the task ends, and lets a task run at most
    /// `ttl` ([`DEFAULT_TASK_TTL`](McpServer::DEFAULT_TASK_TTL), five minutes, unless set); a
    /// `tasks/get` after that is an error saying the result was dropped. See
    /// [tasks](crate#tasks).
    pub fn with_task_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.tasks = self.tasks.with_ttl(ttl);
        self
    }

    /// Keeps the state of tasks over HTTP (status, progress, questions and their answers,
    /// results until their time to live has passed) in `store`, so that every replica sharing
    /// it answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task any of them
    /// started, such as a `RedisTaskStore` (the `redis` feature). Without it, tasks are
    /// kept in this process's memory. A stdio connection's tasks stay in memory either way, as
    /// no one else may reach them. See [tasks](crate#tasks).
    ///
    /// With deferred loading, a store that keeps what each caller's searches found on requests
    /// without a session ([`TaskStore::found`](crate::store::TaskStore::found), as
    /// `RedisTaskStore` does and `MemoryTaskStore` does not) lets a search on one replica be
    /// listed and callable on every replica sharing it; an
    /// unreachable store only logs a warning there. A listen stream is not told of a search
    /// on another replica. See
    /// [deferred loading without sessions](crate#deferred-loading-without-sessions).
    pub fn with_task_store(mut self, store: impl crate::store::TaskStore) -> Self {
        self.tasks = self.tasks.with_store(std::sync::Arc::new(store));
        self
    }

    /// Asks the client's user to approve every call of a tool marked `destructive`, through
    /// the same questions a tool asks with [`Context::ask`]: the question names the tool and
    /// shows its arguments; only a yes runs the call, and a client that cannot be asked (no
    /// `elicitation` capability) gets a `declined` refusal saying so. No answer within
    /// `timeout` is a decline too. It replaces any approver the registry had
    /// ([`Registry::with_approver`](tool_core::Registry::with_approver), [`tool_core::ApproveByAsking`]).
    #[cfg(feature = "asking")]
    #[cfg_attr(docsrs, doc(cfg(feature = "asking")))]
    pub fn with_confirmation(mut self, timeout: std::time::Duration) -> Self {
        self.registry = self
            .registry
            .with_approver(tool_core::ApproveByAsking, timeout);
        self
    }

    /// Bounds the calls suspended for their clients' answers (MCP 2026-07-28's
    /// `input_required` round trips): how long one waits, how many wait at once
    /// ([`WaitingCalls`](crate::ask::WaitingCalls)' defaults unless set). See the [`ask`](crate#asking-the-user)
    /// notes.
    #[cfg(feature = "asking")]
    #[cfg_attr(docsrs, doc(cfg(feature = "asking")))]
    pub fn with_waiting_calls(mut self, limits: crate::ask::WaitingCalls) -> Self {
        self.suspended.limits = limits;
        self
    }

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
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

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    /// Serves HTTP without sessions, so that any replica behind a load balancer can answer
    /// any request: each POST is served on its own, answered on its own response (an SSE
    /// stream carrying the call's progress, then its result), and no `Mcp-Session-Id` is
    /// issued. It keeps the rest of a configuration given to [`McpServer::with_http_config`],
    /// before or after. See [serving without sessions](crate#serving-without-sessions) for
    /// what a session gave that this mode does not. Closing a request cancels its call (see
    /// [`McpServer::with_resumable_streams`] for the other choice).
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

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    /// Without sessions ([`McpServer::stateless`]), keeps each answer stream's events in this
    /// process's memory (the last few thousand, for five minutes), so that a client whose
    /// stream broke takes it up again with `Last-Event-ID` (SEP-1699): each stream opens with
    /// an event id and a `retry` interval. The price: a call outlives a closed request (the
    /// client may come back for its answer) until it ends or its timeout passes, and without a
    /// session nothing else can cancel it. With sessions, rmcp keeps each session's streams
    /// itself and this changes nothing.
    ///
    /// ```
    /// use tool_mcp::McpServer;
    ///
    /// # fn make(registry: tool_core::Registry) -> McpServer {
    /// McpServer::new(registry).stateless().with_resumable_streams()
    /// # }
    /// ```
    pub fn with_resumable_streams(mut self) -> Self {
        self.resumable = true;
        self
    }

    /// Sets the longest line [`McpServer::serve_lines`] reads ([`McpServer::DEFAULT_MAX_LINE_BYTES`]
    /// unless set). A longer line is read past, never held whole, and answered with an error.
    /// A registry whose [`Registry::with_max_argument_bytes`](tool_core::Registry::with_max_argument_bytes) was raised past it needs this
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

    /// Serves `handler`, an rmcp `ServerHandler` of the host's, beside the registry's tools:
    /// every MCP method that is not a tool's goes to it (`resources/*`, `prompts/*`,
    /// `completion/complete`, and requests of methods MCP does not have), and the server
    /// announces its capabilities for prompts, resources and completions (and its
    /// instructions, when the server has none). `tools/*`, `tasks/*` and `logging/setLevel`
    /// stay the registry's, whatever the handler implements.
    ///
    /// Grants scope tools only: the handler sees each request's context (its extensions
    /// hold the HTTP request's [`HttpRequestParts`](crate::HttpRequestParts) with the `http`
    /// feature) and decides for itself. A 2026-07-28 list or read it answers without caching
    /// hints gets the safe ones (`ttlMs: 0`, `cacheScope: private`), which that revision
    /// requires.
    ///
    /// ```
    /// use tool_mcp::rmcp::model::{ListPromptsResult, PaginatedRequestParams, Prompt, ServerCapabilities, ServerConfig};
    /// use tool_mcp::rmcp::service::{RequestContext, RoleServer};
    /// use tool_mcp::McpServer;
    ///
    /// #[derive(Clone)]
    /// struct Prompts;
    ///
    /// impl tool_mcp::rmcp::ServerHandler for Prompts {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    ///     }
    ///
    ///     async fn list_prompts(
    ///         &self,
    ///         _request: Option<PaginatedRequestParams>,
    ///         _context: RequestContext<RoleServer>,
    ///     ) -> Result<ListPromptsResult, tool_mcp::rmcp::ErrorData> {
    ///         let review = Prompt::new("review", Some("Review a note"), None);
    ///         Ok(ListPromptsResult::with_all_items(vec![review]))
    ///     }
    /// }
    ///
    /// let server = McpServer::new(tool_core::Registry::builder().build()?).with_handler(Prompts);
    /// # Ok::<_, tool_core::registry::RegistryError>(())
    /// ```
    pub fn with_handler(mut self, handler: impl rmcp::ServerHandler) -> Self {
        self.beside = Some(std::sync::Arc::new(handler));
        self
    }

    /// Names the server in its `initialize` answer.
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    /// Tells who an HTTP caller is, from its request (a header the host's proxy set, say).
    /// The answer becomes the context's caller, which the host asserts: the framework never
    /// reads it from a call's arguments. Over stdio there is no request, and no caller. A
    /// hook that panics names no caller for that request (the panic logged).
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

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    /// Scopes each request of a caller [`McpServer::with_caller`] names to the grant this hook
    /// gives that caller: it sees and runs only what the grant lets through
    /// ([`Grant::all`] for every tool, [`Grant::new`] for none), so a caller the hook does not
    /// name explicitly gets what its last arm grants, never the whole registry by default.
    /// A hook that panics grants nothing (the panic logged). Without this hook, a named caller
    /// is served the whole registry.
    ///
    /// A request without a caller gets what [`McpServer::with_anonymous`] grants: nothing,
    /// unless that is set, on a server that names callers or grants. Over stdio there is no
    /// request and no caller: the peer is the process that started the server, served the
    /// registry as given (serve [`Registry::scoped`](tool_core::Registry::scoped) to serve it less).
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

    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    /// What an HTTP request without a caller (one [`McpServer::with_caller`] names no caller
    /// for) may see and run. Unless set, a server that names callers or grants lets such a
    /// request use nothing: it is listed no tools, and a call is refused `not-permitted`; a
    /// server with neither hook checks no one, and serves every request the whole registry.
    pub fn with_anonymous(mut self, grant: Grant) -> Self {
        self.anonymous = Some(grant);
        self
    }
}
