use tool_core::tool;

/// Deletes a note.
#[tool(readonly, destructive)]
async fn note_delete(id: u64) -> String {
    id.to_string()
}

fn main() {}
