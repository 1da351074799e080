// Builds and runs; it is here so that trybuild runs `cargo build`, not `cargo check`, on this
// directory: the name check of `registry![...]` runs when the compiler evaluates constants,
// which `cargo check` does not do for generic code.
use tool_core::{registry, tool, toolkit};

struct Notes;

#[toolkit(name = "note")]
impl Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

/// Searches the web.
#[tool(readonly, open_world)]
async fn web_search(query: String) -> String {
    query
}

fn main() {
    let registry = registry![Notes, WebSearch];
    assert_eq!(registry.names(), ["note_read", "web_search"]);
}
