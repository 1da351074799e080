use tool_core::tool;

struct Note {
    text: String,
}

/// Reads a note.
#[tool]
async fn note_read(id: u64) -> Note {
    Note { text: id.to_string() }
}

fn main() {}
