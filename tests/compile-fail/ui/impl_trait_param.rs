use tool_core::tool;

/// Writes a note.
#[tool]
async fn note_write(text: impl Into<String>) -> String {
    text.into()
}

fn main() {}
