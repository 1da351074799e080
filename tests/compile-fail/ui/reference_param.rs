use tool_core::tool;

/// Writes a note.
#[tool]
async fn note_write(text: &str) -> String {
    text.to_owned()
}

fn main() {}
