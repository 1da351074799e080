use tool_core::toolkit;

struct Notes;

#[toolkit(name = "note")]
impl Notes {
    /// Reads a note.
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
