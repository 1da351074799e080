use tool_core::{tool, Refusal};

struct Note {
    text: String,
}

/// Reads a note.
#[tool]
async fn note_read(id: u64) -> Result<Note, Refusal> {
    Ok(Note { text: id.to_string() })
}

fn main() {}
