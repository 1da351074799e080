use tool_core::tool;

/// Reads a note.
#[tool]
#[tool(readonly)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
