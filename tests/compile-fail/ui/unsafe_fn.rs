use tool_core::tool;

/// Reads a note.
#[tool]
async unsafe fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
