use tool_core::tool;

struct Notes;

impl Notes {
    /// Writes a note.
    #[tool]
    async fn note_write(&self, text: String) -> String {
        text
    }
}

fn main() {}
