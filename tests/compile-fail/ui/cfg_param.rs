use tool_core::tool;

/// Writes a note.
#[tool]
async fn note_write(text: String, #[cfg(test)] tag: String) -> String {
    text
}

fn main() {}
