use tool_core::tool;

/// Writes a note.
#[tool(timeout = "5000")]
async fn note_write(text: String) -> String {
    text
}

/// Reads a note.
#[tool(timeout = "1.5s")]
async fn note_read(id: u64) -> u64 {
    id
}

fn main() {}
