use tool_core::tool;

/// Writes a note.
#[tool(timeout = "5 parsecs")]
async fn note_write(text: String) -> String {
    text
}

/// Reads a note.
#[tool(timeout = 30)]
async fn note_read(id: u64) -> u64 {
    id
}

fn main() {}
