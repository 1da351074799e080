use tool_core::tool;

/// Reads a note.
#[tool(name = "note_read", name = "note_get")]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
