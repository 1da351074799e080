// The output type derives `JsonSchema` of schemars 0.8, while tool-core reads schemars 1.x's.
use tool_core::tool;

#[derive(serde::Serialize, schemars08::JsonSchema)]
#[schemars(crate = "schemars08")]
struct Bookmark {
    url: String,
}

/// Reads a bookmark.
#[tool(readonly)]
async fn bookmark_read(id: u64) -> Bookmark {
    Bookmark {
        url: id.to_string(),
    }
}

#[derive(serde::Deserialize, schemars08::JsonSchema)]
#[schemars(crate = "schemars08")]
struct Filter {
    tag: String,
}

/// Lists bookmarks.
#[tool(readonly)]
async fn bookmark_list(filter: Filter) -> String {
    filter.tag
}

fn main() {}
