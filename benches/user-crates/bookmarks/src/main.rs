//! Bookmarks over MCP, stdio by default or streamable HTTP with `--http`: add, list, a delete
//! the client's user approves, an export. Over HTTP the `x-caller` header names the caller;
//! `reader` may only list, other named callers may do everything, and nobody else anything.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tool_core::{Grant, Refusal, registry, tool, toolkit};
use tool_mcp::McpServer;

/// A bookmark.
#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
struct Bookmark {
    id: u64,
    url: String,
    title: String,
    tags: Vec<String>,
}

/// Bookmarks, as a list.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Bookmarks {
    bookmarks: Vec<Bookmark>,
}

/// The bookmarks, kept in memory.
#[derive(Default)]
struct Store {
    items: Mutex<BTreeMap<u64, Bookmark>>,
}

#[toolkit(name = "bookmark")]
impl Store {
    /// Adds a bookmark.
    #[tool]
    async fn bookmark_add(
        &self,
        /// Its address.
        url: String,
        /// What to call it.
        title: String,
        /// Words to find it by.
        #[serde(default)]
        tags: Vec<String>,
    ) -> Bookmark {
        let mut items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        let id = items.keys().last().map_or(1, |last| last + 1);
        let bookmark = Bookmark { id, url, title, tags };
        items.insert(id, bookmark.clone());
        bookmark
    }

    /// Lists bookmarks, newest first.
    #[tool(readonly)]
    async fn bookmark_list(
        &self,
        /// Only those with this tag.
        tag: Option<String>,
        /// At most this many.
        #[schemars(range(min = 1, max = 100))]
        limit: Option<u32>,
    ) -> Bookmarks {
        let items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        let bookmarks = items
            .values()
            .rev()
            .filter(|bookmark| tag.as_ref().is_none_or(|tag| bookmark.tags.contains(tag)))
            .take(limit.unwrap_or(20) as usize)
            .cloned()
            .collect();
        Bookmarks { bookmarks }
    }

    /// Deletes a bookmark.
    #[tool(destructive)]
    async fn bookmark_delete(&self, id: u64) -> Result<String, Refusal> {
        let mut items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        match items.remove(&id) {
            Some(bookmark) => Ok(format!("deleted {}", bookmark.url)),
            None => Err(Refusal::new("not-found", format!("there is no bookmark {id}"))),
        }
    }

    /// Exports every bookmark.
    #[tool(readonly)]
    async fn bookmark_export(&self) -> Bookmarks {
        let items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        Bookmarks {
            bookmarks: items.values().cloned().collect(),
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = McpServer::new(registry![Store::default()])
        .with_confirmation(Duration::from_secs(120))
        .with_caller(|request| Some(request.headers.get("x-caller")?.to_str().ok()?.to_owned()))
        .with_grant(|caller| match caller {
            "reader" => Grant::names(["bookmark_list"]),
            _ => Grant::all(),
        });
    if std::env::args().any(|arg| arg == "--http") {
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        server.serve_http("127.0.0.1:8000".parse()?, shutdown).await?;
    } else {
        server.serve_stdio().await?;
    }
    Ok(())
}
