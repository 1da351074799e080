//! The host's own rmcp handler, served beside the registry's tools: every MCP method that is
//! not a tool's (resources, resource templates and subscriptions, prompts, completions, and
//! methods of the host's own) goes to it, and its capabilities for them are announced with
//! ours. The registry keeps `tools/*`, `tasks/*`, `logging/setLevel` and the listen streams.
//!
//! rmcp's `ServerHandler` returns `impl Future`, which cannot be called through a `dyn`; the
//! [`Beside`] trait is the same methods with boxed futures, written once for every handler.
//! Each is called under `host_code`'s catch of panics.

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CustomRequest, CustomResult, GetPromptRequestParams,
    GetPromptResponse, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer};
use tool_core::call::BoxFuture;

use super::host_code::{caught, or_instead};

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
        // A panic here would end the connection (rmcp asks for it while it answers
        // `initialize`): the host's handler then serves nothing, and ours is announced alone.
        or_instead("get_info", || self.get_info(), InitializeResult::default)
    }
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CompleteResult> {
        caught("completion/complete", move || {
            ServerHandler::complete(self, request, context)
        })
    }
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, GetPromptResponse> {
        caught("prompts/get", move || {
            ServerHandler::get_prompt(self, request, context)
        })
    }
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListPromptsResult> {
        caught("prompts/list", move || {
            ServerHandler::list_prompts(self, request, context)
        })
    }
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourcesResult> {
        caught("resources/list", move || {
            ServerHandler::list_resources(self, request, context)
        })
    }
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourceTemplatesResult> {
        caught("resources/templates/list", move || {
            ServerHandler::list_resource_templates(self, request, context)
        })
    }
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ReadResourceResponse> {
        caught("resources/read", move || {
            ServerHandler::read_resource(self, request, context)
        })
    }
    #[allow(deprecated)] // resources/subscribe is 2025-11-25's; its clients use it.
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        caught("resources/subscribe", move || {
            ServerHandler::subscribe(self, request, context)
        })
    }
    #[allow(deprecated)] // as `subscribe`.
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        caught("resources/unsubscribe", move || {
            ServerHandler::unsubscribe(self, request, context)
        })
    }
    fn custom(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CustomResult> {
        let method = request.method.clone();
        caught(method, move || {
            ServerHandler::on_custom_request(self, request, context)
        })
    }
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
