use tool_core::tool;

/// Writes a note.
#[tool(title = 5)]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
