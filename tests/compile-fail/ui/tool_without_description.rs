use tool_core::tool;

#[tool(readonly)]
async fn note_count() -> usize {
    0
}

/// Counts words.
#[tool(readonly, description = "  ")]
async fn word_count(text: String) -> usize {
    text.split_whitespace().count()
}

fn main() {}
