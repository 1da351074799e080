#![allow(non_snake_case)]

use tool_core::tool;

// Every mistake is reported at once, and the options written well still count: the fn's own
// name is not checked, since `name` is given.
/// Reads a note.
#[tool(name = "note_read", readonly = true, readonly, title)]
async fn noteRead(id: u64) -> String {
    id.to_string()
}

fn main() {}
