use tool_core::tool;

/// Finds notes.
#[tool]
async fn note_find(query: String, #[serde(rename = "query")] q: String) -> String {
    format!("{query}{q}")
}

fn main() {}
