use tool_core::tool;

const OWNER: &str = "ana";

// `_meta` keys follow MCP's key rules and values are literals; every mistake is reported at
// once.
/// Reads a note.
#[tool(
    meta("io.modelcontextprotocol/rank" = 1, "-category" = "notes", "com..example/x" = 1),
    meta("com.example/owner" = OWNER, "com.ex_ample/rank" = 1),
    meta("com.example/rank"),
    meta = "notes"
)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
