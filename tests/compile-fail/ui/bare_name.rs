use tool_core::tool;

/// Writes a note.
#[tool("note_save")]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
