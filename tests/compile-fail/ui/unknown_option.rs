use tool_core::tool;

/// Writes a note.
#[tool(nmae = "note_write")]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
