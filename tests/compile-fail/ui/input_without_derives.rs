use tool_core::tool;

struct NoteInput {
    text: String,
}

/// Writes a note.
#[tool]
async fn note_write(#[input] input: NoteInput) -> String {
    input.text
}

fn main() {}
