use tool_core::{tool, toolkit};

struct Notes;

#[toolkit(nmae = "note")]
impl Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
