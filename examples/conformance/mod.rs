//! The resources, prompts and completions MCP's conformance suite reads, as an rmcp user
//! writes them: a plain `rmcp::ServerHandler`, which `McpServer::with_handler` serves beside
//! the registry's tools.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_mcp::rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompleteResult, CompletionInfo, ElicitRequest,
    ElicitRequestParams, ElicitationSchema, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, InputRequest, InputRequests, InputRequiredResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams, Prompt,
    PromptArgument, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate, Role,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
};
use tool_mcp::rmcp::service::{RequestContext, RoleServer};
use tool_mcp::rmcp::{ErrorData, ServerHandler};

/// The suite's 1×1 PNG, base64.
const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// The suite's resources and prompts, and the URIs a client subscribed to.
#[derive(Clone, Default)]
pub struct SuiteContent {
    subscribed: Arc<Mutex<BTreeSet<String>>>,
}

impl SuiteContent {
    /// The URIs subscribed to now.
    fn subscribed(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.subscribed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A prompt that asks first, as a 2026-07-28 server asks within any request: without the
/// answer, an `input_required` result holding the question; with it, the prompt built from it.
fn context_prompt(request: &GetPromptRequestParams) -> GetPromptResponse {
    let answered = request
        .input_responses
        .as_ref()
        .and_then(|responses| responses.get("user_context"))
        .and_then(|answer| answer.pointer("/content/context"))
        .and_then(|context| context.as_str());
    if let Some(context) = answered {
        return GetPromptResult::new(vec![text_message(&format!(
            "Prompt with elicited context: {context}"
        ))])
        .into();
    }
    let mut requests = InputRequests::new();
    if let Ok(form) = ElicitationSchema::builder()
        .required_string("context")
        .build()
    {
        let question = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: "What context should the prompt use?".into(),
            requested_schema: form,
        });
        requests.insert("user_context".into(), InputRequest::Elicitation(question));
    }
    InputRequiredResult::from_input_requests(requests).into()
}

fn text_message(text: &str) -> PromptMessage {
    PromptMessage::new_text(Role::User, text)
}

/// A prompt message of any content block, as the suite writes it.
fn message(content: serde_json::Value) -> Result<PromptMessage, ErrorData> {
    serde_json::from_value(json!({"role": "user", "content": content}))
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))
}

impl ServerHandler for SuiteContent {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_prompts()
                .enable_completions()
                .build(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("test://static-text", "static-text")
                .with_description("A static text resource")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "static-binary")
                .with_description("A static binary resource (a PNG)")
                .with_mime_type("image/png"),
            Resource::new("test://watched-resource", "watched-resource")
                .with_description("A resource to subscribe to")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("test://template/{id}/data", "template-data")
                .with_description("Data for an id")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let contents = match uri.as_str() {
            "test://static-text" => {
                ResourceContents::text("This is the content of the static text resource.", &uri)
            }
            "test://static-binary" => {
                ResourceContents::blob(PNG_BASE64, &uri).with_mime_type("image/png")
            }
            "test://watched-resource" => ResourceContents::text("Watched.", &uri),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                Some(id) if !id.is_empty() && !id.contains('/') => {
                    let data = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                    ResourceContents::text(data.to_string(), &uri)
                        .with_mime_type("application/json")
                }
                _ => {
                    return Err(ErrorData::invalid_params(
                        "Resource not found",
                        Some(json!({"uri": uri})),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed().insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed().remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str, description: &str| {
            PromptArgument::new(name)
                .with_description(description)
                .with_required(true)
        };
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A prompt without arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A prompt with two arguments"),
                Some(vec![
                    argument("arg1", "First test argument"),
                    argument("arg2", "Second test argument"),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt embedding a resource"),
                Some(vec![argument(
                    "resourceUri",
                    "URI of the resource to embed",
                )]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A prompt with an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that asks its client for context first (SEP-2322)"),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let argument = |name: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.get(name))
                .and_then(|value| value.as_str())
                .map(str::to_owned)
                .ok_or_else(|| {
                    ErrorData::invalid_params(format!("missing argument `{name}`"), None)
                })
        };
        if request.name == "test_input_required_result_prompt" {
            return Ok(context_prompt(&request));
        }
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![text_message("This is a simple prompt for testing.")],
            "test_prompt_with_arguments" => {
                let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
                vec![text_message(&format!(
                    "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
                ))]
            }
            "test_prompt_with_embedded_resource" => vec![
                message(json!({"type": "resource", "resource": {
                    "uri": argument("resourceUri")?,
                    "mimeType": "text/plain",
                    "text": "Embedded resource content for testing.",
                }}))?,
                text_message("Please process the embedded resource above."),
            ],
            "test_prompt_with_image" => vec![
                message(json!({"type": "image", "data": PNG_BASE64, "mimeType": "image/png"}))?,
                text_message("Please analyze the image above."),
            ],
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt named `{other}`"),
                    None,
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let ArgumentInfo { name, value, .. } = request.argument;
        let known: &[&str] = match (&request.r#ref, name.as_str()) {
            (Reference::Prompt(_), "arg1" | "arg2") => &["paris", "park", "party"],
            _ => &[],
        };
        let values = known
            .iter()
            .filter(|known| known.starts_with(value.as_str()))
            .map(|known| (*known).to_owned())
            .collect();
        let completion =
            CompletionInfo::new(values).map_err(|error| ErrorData::internal_error(error, None))?;
        Ok(CompleteResult::new(completion))
    }
}
