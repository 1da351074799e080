// `url::Url` has a `JsonSchema` only with schemars' `url2` feature, which is off here.
use tool_core::tool;

/// Adds a bookmark.
#[tool]
async fn bookmark_add(url: url::Url) -> String {
    url.to_string()
}

fn main() {}
