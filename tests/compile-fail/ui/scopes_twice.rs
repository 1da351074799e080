use tool_core::tool;

// A scope is given once, across all of a tool's `scopes(...)` options.
/// Writes a note.
#[tool(scopes("notes:write", "notes:read"), scopes("notes:write"))]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
