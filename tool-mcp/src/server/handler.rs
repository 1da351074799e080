//! The server's answer to every MCP method, as rmcp's `ServerHandler`: `initialize`,
//! `tools/list` and `tools/call` (through the registry), `logging/setLevel`, the `tasks/*`
//! methods, the `subscriptions/listen` stream, a client's cancels (`cancels`) and the
//! `list_changed` notice; every other method goes to the host's own handler when it gave one
//! (`beside`).

use std::sync::{Arc, PoisonError};

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestMethod, CompleteRequestParams, CompleteResult, CustomRequest, CustomResult,
    ErrorCode, GetPromptRequestMethod, GetPromptRequestParams, GetPromptResponse, GetTaskParams,
    GetTaskResult, Implementation, InitializeResult, ListPromptsRequestMethod, ListPromptsResult,
    ListResourceTemplatesRequestMethod, ListResourceTemplatesResult, ListResourcesRequestMethod,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestMethod,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, SubscriptionFilter, Tool,
    UpdateTaskParams,
};
#[allow(deprecated)] // resources/subscribe is 2025-11-25's; its clients use it.
use rmcp::model::{
    SubscribeRequestMethod, SubscribeRequestParams, UnsubscribeRequestMethod,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use serde::Deserialize;
use tool_core::call::Arguments;
use tool_core::{Context, Provider, Registry, ToolCall};

use super::McpServer;
use super::notices::Notices;
use super::sessions::RequestSession;
use super::unreadable;
#[cfg(feature = "asking")]
use crate::ask::SuspendableCall;
use crate::owner::{Owner, is_current};
#[cfg(feature = "asking")]
use crate::tasks::Run;

impl ServerHandler for McpServer {
    fn get_info(&self) -> InitializeResult {
        #[allow(deprecated)] // SEP-2577 deprecates logging; 2025-11-25 clients use it.
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_tasks()
            .enable_logging()
            .build();
        let ours = InitializeResult::new(capabilities)
            .with_server_info(Implementation::new(&self.name, &self.version));
        match &self.beside {
            Some(beside) => super::beside::merged(ours, &beside.info()),
            None => ours,
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        self.beside::<CompleteRequestMethod>()?
            .complete(request, context)
            .await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        self.beside::<GetPromptRequestMethod>()?
            .get_prompt(request, context)
            .await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let current = is_current(&context);
        let mut listed = self
            .beside::<ListPromptsRequestMethod>()?
            .list_prompts(request, context)
            .await?;
        safe_hints(current, &mut listed.ttl_ms, &mut listed.cache_scope);
        Ok(listed)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let current = is_current(&context);
        let mut listed = self
            .beside::<ListResourcesRequestMethod>()?
            .list_resources(request, context)
            .await?;
        safe_hints(current, &mut listed.ttl_ms, &mut listed.cache_scope);
        Ok(listed)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let current = is_current(&context);
        let mut listed = self
            .beside::<ListResourceTemplatesRequestMethod>()?
            .list_resource_templates(request, context)
            .await?;
        safe_hints(current, &mut listed.ttl_ms, &mut listed.cache_scope);
        Ok(listed)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let current = is_current(&context);
        let mut read = self
            .beside::<ReadResourceRequestMethod>()?
            .read_resource(request, context)
            .await?;
        if let ReadResourceResponse::Complete(result) = &mut read {
            safe_hints(current, &mut result.ttl_ms, &mut result.cache_scope);
        }
        Ok(read)
    }

    #[allow(deprecated)] // resources/subscribe is 2025-11-25's; its clients use it.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.beside::<SubscribeRequestMethod>()?
            .subscribe(request, context)
            .await
    }

    #[allow(deprecated)] // as `subscribe`.
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.beside::<UnsubscribeRequestMethod>()?
            .unsubscribe(request, context)
            .await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        if let Some(cursor) = request.and_then(|request| request.cursor) {
            return Err(unreadable::cursor(&cursor));
        }
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

    /// The tool's input schema, for rmcp's HTTP transport to hold a 2026-07-28 request's
    /// SEP-2243 `Mcp-Param-*` headers to the arguments of the fields marked `x-mcp-header`
    /// before the call is read. Whether the caller may call it is decided by the call.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let definitions = self.registry.definitions();
        let definition = definitions
            .iter()
            .find(|definition| definition.name == name)?;
        Some(Tool::new(
            definition.name.clone(),
            definition.description.clone(),
            Arc::new(definition.input_schema.clone()),
        ))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // Registered for a cancel that comes while it runs; cancelled now if one came first.
        let _running = self.cancels.running(&context.id, &context.ct);
        let caller = self.caller_of(&context.extensions);
        // Who the call is of matters only to what outlives the request (a task, a suspended
        // call), and is found where one is made.
        let owner = || Owner::of(&context.extensions, caller.clone(), self.connection);
        let registry = self.registry_for(&context, caller.as_deref());
        let current = is_current(&context);
        let least_log = self.least_log_level(request.meta.as_ref(), &context, current)?;
        let way = (self.tasks).wanted(&registry, &request.name, &context, current)?;
        #[cfg(not(feature = "asking"))]
        if request.request_state.is_some() {
            return Err(crate::unasked::no_waiting_call());
        }
        #[cfg(feature = "asking")]
        if let Some(state) = request.request_state.take() {
            if way != Run::TaskOnceAnswered {
                return self
                    .suspended
                    .resume(request, state, owner(), context.ct)
                    .await;
            }
            // The round's call stops; the tool runs again, as a task, its questions answered
            // from this retry's answers.
            self.suspended.forget(&request.name, state, &owner())?;
        }
        // Answers sent before anything was asked: the call runs afresh, and takes each of its
        // requests' answers from them where they hold its key.
        let offered = request.input_responses.take();
        let found = self.session_for(&context, caller.as_deref());
        let sharing = self.load_shared(&found, caller.as_deref()).await;
        let session = found.session().clone();
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
        // The HTTP request the call was posted in: its token, and its body.
        #[cfg(feature = "http")]
        let posted_in = context.extensions.get::<crate::owner::HttpRequestParts>();
        #[cfg(feature = "oauth")]
        if let Some(token) = posted_in.and_then(crate::auth::token_in) {
            if let Some(client) = token.client_id() {
                ctx = ctx.with_client(client);
            }
            ctx = ctx.with_extension(token.clone());
        }
        // A call posted over HTTP is read from its body as a line is (`body.rs`).
        #[cfg(feature = "http")]
        let posted = posted_in.and_then(super::body::written_arguments);
        #[cfg(not(feature = "http"))]
        let posted: Option<String> = None;
        // Chosen here rather than passed down to `call_line::arguments`: held across that call,
        // the posted text made every call's future larger, and its moves dearer.
        let arguments = match posted {
            Some(written) => Arguments::from_text(written),
            None => crate::call_line::arguments(request.arguments, &context.extensions),
        };
        let id = crate::convert::id_text(&context.id);
        let call = ToolCall::new(id, request.name.as_ref(), arguments);
        if way.as_task(offered.is_some()) && registry.is_listed_in(&session, &request.name) {
            // A task outlives its request: it has a token of its own, and no progress token.
            let mut ctx = ctx.with_cancellation(Default::default());
            let owner = owner();
            if let Some(least) = least_log {
                let notices = Notices::new(
                    context.peer.clone(),
                    None,
                    request.name,
                    self.input_end.clone(),
                );
                ctx = ctx.with_log_arc(least, Arc::new(notices));
            }
            return self
                .tasks
                .start(&registry, call, ctx, owner, offered, current)
                .await;
        }
        let asking = crate::ask::Asking::of(&context, current, &self.input_end);
        let mut ctx = ctx.with_asker_arc(asking.asker());
        let missing = asking.missing();
        // A call that may be suspended for an answer outlives its request: it has a
        // cancellation of its own, which the request's cancels while it waits on the call.
        // Any other call is stopped by its request's, moved to it rather than cloned (a clone
        // of a token takes a lock).
        let suspendable = match asking.into_rounds() {
            Some(rounds) => {
                let cancel = tool_core::call::CancellationToken::new();
                ctx = ctx.with_cancellation(cancel.clone());
                Some((rounds, cancel, context.ct))
            }
            None => {
                ctx = ctx.with_cancellation(context.ct);
                None
            }
        };
        let progress_token = request
            .meta
            .as_ref()
            .and_then(|meta| meta.get_progress_token())
            .or_else(|| context.meta.get_progress_token());
        // Only a registry with deferred loading lists what a search finds: without one, the
        // list cannot grow. A 2026-07-28 client hears of its growth on its listen streams,
        // which wait on the session; an unbound session's growth is listed nowhere.
        let grown = (registry.is_deferred() && !current && !session.is_unbound())
            .then(|| (session.changes(), context.peer.clone()));
        let mut notices = None;
        if progress_token.is_some() || least_log.is_some() {
            let sink = Arc::new(Notices::new(
                context.peer,
                progress_token,
                request.name,
                self.input_end.clone(),
            ));
            if let Some(least) = least_log {
                ctx = ctx.with_log_arc(least, sink.clone());
            }
            if sink.reports_progress() {
                let reports = sink.clone();
                ctx = ctx.with_progress(move |progress| reports.progress(progress));
            }
            notices = Some(sink);
        }
        let answer = match suspendable {
            #[cfg(feature = "asking")]
            Some((rounds, cancel, request_cancel)) => {
                let registry = registry.into_owned();
                let session = session.clone();
                let name = call.name.clone();
                let running = async move { run(&registry, &session, call, ctx, notices).await };
                let call = crate::ask::Call {
                    name,
                    owner: owner(),
                    run: Box::pin(running),
                };
                let running = SuspendableCall::start(call, cancel, rounds, missing, offered);
                self.suspended.drive(running, request_cancel).await
            }
            _ => {
                let result = run(&registry, &session, call, ctx, notices).await;
                match missing.error() {
                    Some(missing) => Err(missing),
                    None => crate::convert::call_tool_result(result, current)
                        .map(CallToolResponse::from),
                }
            }
        };
        if let Some(sharing) = sharing {
            sharing.share(&session).await;
        }
        // A search found tools: this session's list grew. (Without a session, the notice
        // rides on the call's own answer stream, before its result.)
        if let Some((grown, peer)) = grown
            && grown.has_changed().unwrap_or(false)
        {
            let _ = self.input_end.before(peer.notify_tool_list_changed()).await;
        }
        answer
    }

    /// `logging/setLevel` (2025-11-25): the least level this session's calls log at from now
    /// on; a stateless request has no session to hold it. 2026-07-28 removed the method (each
    /// request names its level in `_meta`), so it is refused rather than answered as if it held.
    #[allow(deprecated)] // SEP-2577 deprecates logging; 2025-11-25 clients use it.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if is_current(&context) {
            return Err(unreadable::set_level_removed());
        }
        let level = crate::convert::log_level(request.level);
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(level);
        Ok(())
    }

    /// A request rmcp could not read as one of MCP's. A `logging/setLevel` lands here when its
    /// level is none of MCP's, and is told which there are (a 2026-07-28 one, that the method
    /// is gone); a method MCP does not have goes to
    /// the host's handler, if it gave one. A `tools/call` lands here when its
    /// params are not a call's: arguments sent as JSON text holding an object are read as that object,
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
        if request.method == "logging/setLevel" {
            return Err(unreadable::set_level(request.params, is_current(&context)));
        }
        if request.method != "tools/call" {
            return match &self.beside {
                Some(beside) => beside.custom(request, context).await,
                None => Err(McpError::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    format!(
                        "Method not found: this server does not serve `{}`",
                        request.method
                    ),
                    None,
                )),
            };
        }
        let params = unreadable::call_params(request.params).map_err(|problem| {
            McpError::invalid_params(
                format!(
                    "Invalid params: {problem}; send {{\"name\": ..., \"arguments\": {{...}}}}"
                ),
                None,
            )
        })?;
        // rmcp strips `resultType` from a result for an older peer, but not from a custom
        // request's: here it is done by hand.
        let current = is_current(&context);
        // Each kind of answer written as itself rather than as a `ServerResult` (which is
        // untagged, so it writes the same): that would compile the writing of every server
        // result into a `Value` into every server.
        let written = match self.call_tool(params, context).await? {
            CallToolResponse::Complete(mut result) => {
                if !current {
                    result.result_type = None;
                }
                serde_json::to_value(result)
            }
            CallToolResponse::InputRequired(result) => serde_json::to_value(result),
            CallToolResponse::Task(result) => serde_json::to_value(result),
            _ => {
                return Err(McpError::internal_error(
                    "a tools/call answer of a kind this server does not make",
                    None,
                ));
            }
        };
        written
            .map(CustomResult)
            .map_err(|error| McpError::internal_error(error.to_string(), None))
    }

    /// MCP 2026-07-28's `subscriptions/listen`: the tool list's changes, as `on_initialized`
    /// sends them to a 2025-11-25 session.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // rmcp acknowledges the stream after this and before `listen` subscribes to the
        // registry: what the registry had then is kept, so that a change in between is told.
        self.listen_marks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(self.registry.generation());
        Some(crate::subscriptions::accepted(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let request = context.request_context();
        let caller = self.caller_of(&request.extensions);
        // A caller's session is held as in use while the stream is open, so that it is not
        // forgotten (and replaced by one the stream does not hear) while idle.
        let (session, _listening) = match self.session_for(request, caller.as_deref()) {
            RequestSession::Own(session) => (Some(session), None),
            RequestSession::Caller(_) => match caller.as_deref() {
                Some(caller) => {
                    let (session, listening) = self.caller_finds.listen(caller);
                    (Some(session), Some(listening))
                }
                None => (None, None),
            },
            RequestSession::Unbound(_) => (None, None),
        };
        let seen = self
            .listen_marks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        crate::subscriptions::listen(&self.registry, seen, session, context, &self.input_end).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let owner = self.owner_of(&context);
        self.tasks.get(&request.task_id, &owner).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let owner = self.owner_of(&context);
        self.tasks
            .update(&request.task_id, request.input_responses, &owner)
            .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let owner = self.owner_of(&context);
        self.tasks.cancel(&request.task_id, &owner).await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        if let Some(id) = notification.request_id {
            self.cancels.cancel(id);
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut changes = self.registry.subscribe();
        let peer = context.peer.clone();
        let input_end = self.input_end.clone();
        crate::background::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            let telling = async {
                // A lagging listener missed some changes, but one notice covers them all.
                while let Ok(_) | Err(RecvError::Lagged(_)) = changes.recv().await {
                    if peer.notify_tool_list_changed().await.is_err() {
                        break;
                    }
                }
            };
            input_end.before(telling).await;
        });
    }
}

/// Runs `call` and returns its result once its notices are sent, so that they reach the
/// client before the result does.
async fn run(
    registry: &Registry,
    session: &tool_core::Session,
    call: ToolCall,
    ctx: Context,
    notices: Option<Arc<Notices>>,
) -> tool_core::ToolResult {
    let result = registry.call_in(session, call, &ctx).await;
    drop(ctx);
    if let Some(notices) = notices {
        notices.finish().await;
    }
    result
}

impl McpServer {
    /// The host's handler for method `M`, or `M`'s method-not-found without one.
    fn beside<M: rmcp::model::ConstString>(&self) -> Result<&dyn super::beside::Beside, McpError> {
        self.beside
            .as_deref()
            .ok_or_else(McpError::method_not_found::<M>)
    }
}

/// The caching hints 2026-07-28 (`current`) requires of a list or a read, where the host's
/// handler left them out: not to be reused, and for this caller alone, true of any answer.
fn safe_hints(current: bool, ttl: &mut Option<u64>, scope: &mut Option<rmcp::model::CacheScope>) {
    if current {
        ttl.get_or_insert(0);
        scope.get_or_insert(rmcp::model::CacheScope::Private);
    }
}
