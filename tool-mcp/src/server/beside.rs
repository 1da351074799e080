//! The host's own rmcp handler, served beside the registry's tools: every MCP method that is
//! not a tool's (resources, resource templates and subscriptions, prompts, completions, and
//! methods of the host's own) goes to it, and its capabilities for them are announced with
//! ours. The registry keeps `tools/*`, `tasks/*`, `logging/setLevel` and the listen streams.
//!
//! rmcp's `ServerHandler` returns `impl Future`, which cannot be called through a `dyn`; the
//! [`Beside`] trait is the same methods with boxed futures, written once for every handler.
//! rmcp runs each request in a task of its own, and a task that panics answers nothing: the
//! client would wait for ever. So a panic in the host's handler is caught and answered as an
//! internal error naming the method, its text logged.

use futures::FutureExt;
use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CustomRequest, CustomResult, GetPromptRequestParams,
    GetPromptResponse, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer};
use std::fmt::Display;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use tool_core::call::BoxFuture;

type Answer<'a, T> = BoxFuture<'a, Result<T, McpError>>;

/// An rmcp handler's methods that are not a tool's, callable through a `dyn`.
pub(super) trait Beside: Send + Sync + 'static {
    fn info(&self) -> InitializeResult;
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CompleteResult>;
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, GetPromptResponse>;
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListPromptsResult>;
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourcesResult>;
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourceTemplatesResult>;
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ReadResourceResponse>;
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()>;
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()>;
    fn custom(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CustomResult>;
}

impl<H: ServerHandler> Beside for H {
    fn info(&self) -> InitializeResult {
        self.get_info()
    }
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CompleteResult> {
        caught(
            "completion/complete",
            ServerHandler::complete(self, request, context),
        )
    }
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, GetPromptResponse> {
        caught(
            "prompts/get",
            ServerHandler::get_prompt(self, request, context),
        )
    }
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListPromptsResult> {
        caught(
            "prompts/list",
            ServerHandler::list_prompts(self, request, context),
        )
    }
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourcesResult> {
        caught(
            "resources/list",
            ServerHandler::list_resources(self, request, context),
        )
    }
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourceTemplatesResult> {
        caught(
            "resources/templates/list",
            ServerHandler::list_resource_templates(self, request, context),
        )
    }
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ReadResourceResponse> {
        caught(
            "resources/read",
            ServerHandler::read_resource(self, request, context),
        )
    }
    #[allow(deprecated)] // resources/subscribe is 2025-11-25's; its clients use it.
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        caught(
            "resources/subscribe",
            ServerHandler::subscribe(self, request, context),
        )
    }
    #[allow(deprecated)] // as `subscribe`.
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        caught(
            "resources/unsubscribe",
            ServerHandler::unsubscribe(self, request, context),
        )
    }
    fn custom(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CustomResult> {
        let method = request.method.clone();
        caught(
            method,
            ServerHandler::on_custom_request(self, request, context),
        )
    }
}

/// `answer`, the host's handler's to `method`, boxed, a panic in it answered as an internal
/// error that names the method (its text logged, not shown: a handler's panic may tell of its
/// internals).
fn caught<'a, T: 'a>(
    method: impl Display + Send + 'a,
    answer: impl Future<Output = Result<T, McpError>> + Send + 'a,
) -> Answer<'a, T> {
    Box::pin(async move {
        match AssertUnwindSafe(answer).catch_unwind().await {
            Ok(answer) => answer,
            Err(panic) => {
                let text = (panic.downcast_ref::<&str>().copied())
                    .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("a panic without a message");
                tracing::error!(%method, panic = text, "the host's handler panicked");
                Err(McpError::internal_error(
                    format!(
                        "the server's handler failed unexpectedly answering `{method}`; the \
                         details were logged"
                    ),
                    None,
                ))
            }
        }
    })
}

/// Our capabilities with the host handler's for what it serves: prompts, resources and
/// completions are its; tools, tasks and logging stay ours. Its instructions are kept when
/// the server has none.
pub(super) fn merged(mut ours: InitializeResult, theirs: &InitializeResult) -> InitializeResult {
    let capabilities = &theirs.capabilities;
    ours.capabilities.prompts = capabilities.prompts.clone();
    ours.capabilities.resources = capabilities.resources.clone();
    ours.capabilities.completions = capabilities.completions.clone();
    if ours.instructions.is_none() {
        ours.instructions = theirs.instructions.clone();
    }
    ours
}
