use tool_core::tool;

/// Lists bookmarks.
#[tool(readonly)]
async fn bookmark_list(
    /// Only bookmarks with this tag, never a private one.
    #[schemars(regex(pattern = r"^(?!private)"))]
    tag: Option<String>,
    /// Bookmarks of these sites.
    #[schemars(extend("contains" = {"const": "example.com"}))]
    sites: Vec<String>,
) -> String {
    let _ = (tag, sites);
    String::new()
}

fn main() {}
