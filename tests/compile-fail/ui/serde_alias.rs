use tool_core::tool;

/// Finds notes.
#[tool(readonly)]
async fn note_find(
    /// What to look for.
    #[serde(alias = "q")]
    query: String,
) -> String {
    query
}

fn main() {}
