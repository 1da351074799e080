use tool_core::tool;

struct NotAnError;

/// Reads a note.
#[tool]
async fn note_read(id: u64) -> Result<String, NotAnError> {
    if id == 0 { Err(NotAnError) } else { Ok(id.to_string()) }
}

fn main() {}
