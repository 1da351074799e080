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

/// Reads a note, from elsewhere.
#[tool(readonly)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

/// Searches the web.
#[tool(readonly, open_world)]
async fn web_search(query: String) -> String {
    query
}

fn main() {
    // A toolkit and a tool that share a name: reported at the second, by `cargo check` too.
    let _ = registry![Notes, NoteRead];
    // The same tool twice: reported at the second.
    let _ = registry![WebSearch, NoteRead, WebSearch];
}
