use tool_core::tool;

/// Exports the notes.
#[tool(task = "sometimes")]
async fn note_export() -> String {
    String::new()
}

fn main() {}
