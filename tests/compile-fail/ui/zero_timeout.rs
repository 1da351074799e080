use tool_core::tool;

/// Writes a note.
#[tool(timeout = "0s")]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
