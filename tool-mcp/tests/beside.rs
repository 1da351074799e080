//! The host's own rmcp handler beside the registry's tools (`McpServer::with_handler`), on the
//! wire in both revisions: its prompts and resources are served and announced, its
//! capabilities merged with ours, its errors passed through; the tools stay the registry's,
//! whatever the handler lists; a 2026-07-28 list it left without caching hints gets the safe
//! ones, and one it gave keeps them. A request the handler panics on (in its future or
//! before it) is answered, and the connection served on; a handler that panics describing
//! itself is left out. Without a handler, those methods are not found.

use serde_json::{Value, json};
use tool_core::{Registry, tool};
use tool_mcp::McpServer;
use tool_mcp::rmcp::model::{
    CacheScope, CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, Prompt, ReadResourceRequestParams, ReadResourceResponse, Resource,
    ServerCapabilities, ServerConfig, Tool,
};
use tool_mcp::rmcp::service::{RequestContext, RoleServer};
use tool_mcp::rmcp::{ErrorData, ServerHandler};

mod support;

use support::lines::LineClient;

/// Says hello.
#[tool(readonly)]
async fn hello() -> &'static str {
    "hello"
}

/// A handler as an rmcp user writes one: prompts with caching hints of its own, resources
/// without, a tool list of its own (which the server must not serve), and a custom method.
#[derive(Clone)]
struct Handler;

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_tools()
                .build(),
        )
        .with_instructions("Read test://readme first.")
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(
            ListPromptsResult::with_all_items(vec![Prompt::new("review", Some("Review"), None)])
                .with_ttl_ms(60_000)
                .with_cache_scope(CacheScope::Public),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "test://readme",
            "readme",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Err(ErrorData::invalid_params(
            "Resource not found",
            Some(json!({"uri": request.uri})),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = serde_json::Map::new();
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "impostor",
            "not the registry's",
            std::sync::Arc::new(schema),
        )]))
    }

    // Written as a plain `fn`, as rmcp's own defaults are: it panics before any future is made.
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourceTemplatesResult, ErrorData>> + Send + '_ {
        let cursor = request.and_then(|request| request.cursor);
        assert!(cursor.is_none(), "no page after {cursor:?}");
        std::future::ready(Ok(ListResourceTemplatesResult::default()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        panic!("no prompt named {}", request.name)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Ok(CustomResult(json!({"echo": request.method})))
    }
}

fn server(with_handler: bool) -> McpServer {
    let registry = Registry::builder().tool(Hello).build().expect("a registry");
    let server = McpServer::new(registry);
    match with_handler {
        true => server.with_handler(Handler),
        false => server,
    }
}

fn names(list: &Value, key: &str) -> Vec<String> {
    list[key]
        .as_array()
        .unwrap_or_else(|| panic!("no `{key}` in {list}"))
        .iter()
        .map(|item| item["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_2025_11_25_client_is_served_the_handlers_prompts_and_resources_beside_the_tools() {
    let mut client = LineClient::open(server(true), false);
    let opened = client.handshake().await;
    let capabilities = &opened["capabilities"];
    assert!(capabilities["prompts"].is_object(), "{opened}");
    assert!(capabilities["resources"].is_object(), "{opened}");
    assert_eq!(capabilities["tools"]["listChanged"], true, "ours: {opened}");
    assert!(capabilities["logging"].is_object(), "ours: {opened}");
    assert_eq!(opened["instructions"], "Read test://readme first.");

    let tools = client.request("tools/list", json!({})).await;
    assert_eq!(
        names(&tools, "tools"),
        ["hello"],
        "the registry's tools only"
    );
    let prompts = client.request("prompts/list", json!({})).await;
    assert_eq!(names(&prompts, "prompts"), ["review"]);
    let resources = client.request("resources/list", json!({})).await;
    assert_eq!(names(&resources, "resources"), ["readme"]);

    let id = client
        .start("resources/read", json!({"uri": "test://nothing"}))
        .await;
    let refused = client.answer(&json!(id)).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["data"]["uri"], "test://nothing",
        "{refused}"
    );

    let echoed = client.request("notes/echo", json!({})).await;
    assert_eq!(
        echoed,
        json!({"echo": "notes/echo"}),
        "a method of the host's own"
    );
}

#[tokio::test]
async fn a_2026_07_28_list_gets_the_safe_caching_hints_where_the_handler_gave_none() {
    let mut client = LineClient::connect_current(server(true));
    let resources = client.request("resources/list", json!({})).await;
    assert_eq!(
        (&resources["ttlMs"], &resources["cacheScope"]),
        (&json!(0), &json!("private")),
        "{resources}"
    );
    let prompts = client.request("prompts/list", json!({})).await;
    assert_eq!(
        (&prompts["ttlMs"], &prompts["cacheScope"]),
        (&json!(60_000), &json!("public")),
        "the handler's own hints are kept: {prompts}"
    );
}

#[tokio::test]
async fn without_a_handler_the_other_methods_are_not_found() {
    let mut client = LineClient::connect(server(false)).await;
    for method in [
        "prompts/list",
        "resources/list",
        "resources/read",
        "notes/echo",
    ] {
        let id = client.start(method, json!({"uri": "test://x"})).await;
        let answer = client.answer(&json!(id)).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    // A method of no kind rmcp knows says which it was.
    let id = client.start("notes/echo", json!({})).await;
    let answer = client.answer(&json!(id)).await;
    assert_eq!(
        answer["error"]["message"],
        "Method not found: this server does not serve `notes/echo`"
    );
}

#[tokio::test]
async fn a_request_the_handler_panics_on_is_answered_and_the_connection_served_on() {
    for current in [false, true] {
        let mut client = LineClient::open(server(true), current);
        if !current {
            client.handshake().await;
        }
        for (method, params, text) in [
            ("prompts/get", json!({"name": "review"}), "no prompt named"),
            (
                "resources/templates/list",
                json!({"cursor": "2"}),
                "no page after",
            ),
        ] {
            let id = client.start(method, params).await;
            let refused = client.answer(&json!(id)).await;
            assert_eq!(refused["error"]["code"], -32603, "{refused}");
            let message = refused["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(method) && !message.contains(text),
                "which request, and not the panic's own text: {refused}"
            );
        }
        let tools = client.request("tools/list", json!({})).await;
        assert_eq!(names(&tools, "tools"), ["hello"], "served on");
        let prompts = client.request("prompts/list", json!({})).await;
        assert_eq!(names(&prompts, "prompts"), ["review"], "the handler too");
    }
}

/// A handler whose description of itself panics.
#[derive(Clone)]
struct Unsure;

impl ServerHandler for Unsure {
    fn get_info(&self) -> ServerConfig {
        panic!("no description of this handler")
    }
}

#[tokio::test]
async fn a_handler_that_panics_describing_itself_leaves_the_tools_served() {
    let registry = Registry::builder().tool(Hello).build().expect("a registry");
    let server = McpServer::new(registry).with_handler(Unsure);
    let mut client = LineClient::open(server, false);
    let opened = client.handshake().await;
    assert!(opened["capabilities"]["prompts"].is_null(), "{opened}");
    assert!(opened["capabilities"]["tools"].is_object(), "{opened}");
    let tools = client.request("tools/list", json!({})).await;
    assert_eq!(names(&tools, "tools"), ["hello"]);
}
