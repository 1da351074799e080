use tool_core::{tool, toolkit};

struct Notes;

#[toolkit(name = "note")]
impl Notes {
    /// Closes the notes.
    #[tool]
    async fn note_close(self) {}
}

fn main() {}
