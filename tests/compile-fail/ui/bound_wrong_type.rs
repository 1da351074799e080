use tool_core::tool;

/// Lists bookmarks.
#[tool(readonly)]
async fn bookmark_list(
    /// Only bookmarks with this tag.
    #[schemars(range(min = 1, max = 32))]
    tag: Option<String>,
    /// At most this many.
    #[schemars(length(max = 100))]
    limit: u8,
    /// Only these sites.
    #[schemars(url)]
    sites: Vec<String>,
    /// Whether to include archived ones.
    #[schemars(range(max = 1))]
    archived: bool,
    /// Words to find.
    #[schemars(inner(length(min = 1)))]
    query: String,
) -> String {
    let _ = (tag, limit, sites, archived, query);
    String::new()
}

fn main() {}
