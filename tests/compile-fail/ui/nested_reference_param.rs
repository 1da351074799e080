use tool_core::tool;

/// Writes a note.
#[tool]
async fn note_write(text: String, tag: Option<&str>) -> String {
    format!("{text}{tag:?}")
}

fn main() {}
