use tool_core::{Context, tool};

/// Reads a note.
#[tool]
async fn note_read<'a>(id: u64, ctx: &'a Context) -> String {
    let _ = ctx;
    id.to_string()
}

fn main() {}
