use tool_core::{registry, tool, toolkit, Registry};

struct Bookmarks;

#[toolkit(name = "bookmark")]
impl Bookmarks {
    /// Lists bookmarks.
    #[tool(readonly, destructive)]
    async fn bookmark_list(&self) -> String {
        String::new()
    }
}

/// Adds a bookmark.
#[tool(name = "BookmarkAdd")]
async fn bookmark_add(url: String) -> String {
    url
}

fn main() {
    let _ = registry![Bookmarks, BookmarkAdd];
    let _ = Registry::builder().toolkit(Bookmarks).tool(BookmarkAdd).build();
}
