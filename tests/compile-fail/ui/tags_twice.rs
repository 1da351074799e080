use tool_core::tool;

// A tag is given once, across all of a tool's `tags(...)` options; `"Notes"` is another tag,
// since a grant of `"notes"` does not grant it.
/// Reads a note.
#[tool(tags("notes", "read", "notes"), tags("Notes", "read"))]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
