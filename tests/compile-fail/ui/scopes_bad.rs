use tool_core::tool;

const SCOPE: &str = "notes:write";

// A scope is a string literal of RFC 6749's scope-token form, given once; every mistake is
// reported at once.
/// Writes a note.
#[tool(
    scopes("notes:write", "notes read", SCOPE, "", "caf\u{e9}"),
    scopes,
    scopes("notes:write")
)]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
