use tool_core::tool;

// A `_meta` key is set once, across all of a tool's `meta(...)` options.
/// Reads a note.
#[tool(
    meta("com.example/category" = "notes", "com.example/rank" = 1),
    meta("com.example/rank" = 2)
)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
