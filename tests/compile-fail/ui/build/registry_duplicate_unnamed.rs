use tool_core::{registry, tool, toolkit};

struct Notes;

impl Notes {
    fn open() -> Notes {
        Notes
    }
}

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

fn main() {
    // Entries whose type the macro cannot read from their tokens (a variable, a fn other than
    // `new` or `default`) are compared when the crate is built.
    let notes = Notes::open();
    let _ = registry![notes, NoteRead];
    let _ = registry![NoteRead, Notes::open()];
}
