use tool_core::{tool, toolkit};

struct Notes;

#[toolkit(name = "note")]
impl Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }

    /// Reads a note, again.
    #[tool(name = "note_read", readonly)]
    async fn note_get(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
