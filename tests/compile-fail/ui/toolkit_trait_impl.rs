use tool_core::{tool, toolkit};

trait Reader {
    async fn note_read(&self, id: u64) -> String;
}

struct Notes;

#[toolkit(name = "note")]
impl Reader for Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
