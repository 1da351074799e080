use tool_core::tool;

const TAG: &str = "notes";

// A tag is a string literal of one word; every mistake is reported at once.
/// Reads a note.
#[tool(tags("notes", "two words", TAG, ""), tags, tags = "notes", tags())]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
