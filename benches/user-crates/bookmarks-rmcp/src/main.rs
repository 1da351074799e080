//! The bookmarks server of benches/user-crates/bookmarks, as an rmcp user writes it: the same
//! tools, callers and transports, for the build-cost comparison in benches/compile-time.
//!
//! A bookmarks MCP server: stdio by default, streamable HTTP with `--http`.

use std::{
    collections::BTreeMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use axum::http::request::Parts;
use rmcp::{
    ErrorData as McpError, Json, Peer, RoleServer, ServerHandler, ServiceExt,
    handler::server::{
        tool::{ToolCallContext, ToolRouter},
        wrapper::Parameters,
    },
    model::{CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams},
    service::RequestContext,
    tool, tool_handler, tool_router,
    transport::{
        StreamableHttpServerConfig, StreamableHttpService, stdio,
        streamable_http_server::session::local::LocalSessionManager,
    },
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, JsonSchema)]
struct Bookmark {
    id: u64,
    url: String,
    title: String,
    tags: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
struct BookmarkList {
    bookmarks: Vec<Bookmark>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct AddArgs {
    /// The URL to bookmark.
    url: String,
    /// A human-readable title.
    title: String,
    /// Tags to file the bookmark under.
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct ListArgs {
    /// Only return bookmarks carrying this tag.
    tag: Option<String>,
    /// Maximum number of bookmarks to return (default 100).
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct DeleteArgs {
    /// Id of the bookmark to delete.
    id: u64,
}

/// Answer to the confirmation asked before deleting.
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Delete the bookmark?
    confirm: bool,
}
rmcp::elicit_safe!(Confirm);

#[derive(Clone)]
struct Bookmarks {
    bookmarks: Arc<Mutex<BTreeMap<u64, Bookmark>>>,
    next_id: Arc<AtomicU64>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Bookmarks {
    fn new() -> Self {
        Self {
            bookmarks: Arc::default(),
            next_id: Arc::new(AtomicU64::new(1)),
            tool_router: Self::tool_router(),
        }
    }

    /// Add a bookmark and return it as stored.
    #[tool(annotations(destructive_hint = false, idempotent_hint = false))]
    fn bookmark_add(
        &self,
        Parameters(AddArgs { url, title, tags }): Parameters<AddArgs>,
    ) -> Json<Bookmark> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let bookmark = Bookmark {
            id,
            url,
            title,
            tags,
        };
        self.bookmarks.lock().unwrap().insert(id, bookmark.clone());
        Json(bookmark)
    }

    /// List bookmarks, optionally only those with a given tag.
    #[tool(annotations(read_only_hint = true))]
    fn bookmark_list(
        &self,
        Parameters(ListArgs { tag, limit }): Parameters<ListArgs>,
    ) -> Result<Json<BookmarkList>, String> {
        let limit = limit.unwrap_or(100);
        if !(1..=100).contains(&limit) {
            return Err(format!("limit must be between 1 and 100, got {limit}"));
        }
        let bookmarks = self
            .bookmarks
            .lock()
            .unwrap()
            .values()
            .filter(|b| tag.as_ref().is_none_or(|tag| b.tags.contains(tag)))
            .take(limit as usize)
            .cloned()
            .collect();
        Ok(Json(BookmarkList { bookmarks }))
    }

    /// Delete a bookmark, after the user confirms.
    #[tool(annotations(destructive_hint = true))]
    async fn bookmark_delete(
        &self,
        peer: Peer<RoleServer>,
        Parameters(DeleteArgs { id }): Parameters<DeleteArgs>,
    ) -> Result<String, String> {
        let bookmark = self.bookmarks.lock().unwrap().get(&id).cloned();
        let Some(bookmark) = bookmark else {
            return Err(format!("no bookmark with id {id}"));
        };
        let message = format!(
            "Delete bookmark {id}, \"{}\" ({})?",
            bookmark.title, bookmark.url
        );
        match peer.elicit::<Confirm>(message).await {
            Ok(Some(Confirm { confirm: true })) => {}
            Ok(_) => return Err(format!("bookmark {id} was not deleted: not confirmed")),
            Err(e) => return Err(format!("bookmark {id} was not deleted: {e}")),
        }
        self.bookmarks.lock().unwrap().remove(&id);
        Ok(format!("deleted bookmark {id}"))
    }

    /// Export every bookmark.
    #[tool(annotations(read_only_hint = true))]
    fn bookmark_export(&self) -> Json<BookmarkList> {
        let bookmarks = self.bookmarks.lock().unwrap().values().cloned().collect();
        Json(BookmarkList { bookmarks })
    }
}

/// Whether the caller behind this request may use `tool`. Over HTTP the
/// caller is named by the `x-caller` header a proxy sets; stdio has no
/// headers and is the local user's own server, so everything is allowed.
fn may_use(context: &RequestContext<RoleServer>, tool: &str) -> bool {
    let Some(parts) = context.extensions.get::<Parts>() else {
        return true;
    };
    match parts.headers.get("x-caller").map(|v| v.to_str()) {
        None => false,
        Some(Ok("reader")) => tool == "bookmark_list",
        Some(_) => true,
    }
}

#[tool_handler(router = self.tool_router, name = "bookmarks")]
impl ServerHandler for Bookmarks {
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut tools = self.tool_router.list_all();
        tools.retain(|tool| may_use(&context, &tool.name));
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !may_use(&context, &request.name) {
            let message = format!("this caller may not use the tool {}", request.name);
            return Err(McpError::invalid_params(message, None));
        }
        self.tool_router
            .call(ToolCallContext::new(self, request, context))
            .await
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Bookmarks::new();
    if !std::env::args().any(|arg| arg == "--http") {
        server.serve(stdio()).await?.waiting().await?;
        return Ok(());
    }

    let config = StreamableHttpServerConfig::default();
    let shutdown = config.cancellation_token.clone();
    let service: StreamableHttpService<Bookmarks, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            shutdown.cancel();
        })
        .await?;
    Ok(())
}
