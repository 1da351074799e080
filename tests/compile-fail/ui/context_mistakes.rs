use tool_core::{Context, tool};

/// Reads a note.
#[tool]
async fn note_read(id: u64, ctx: &Context, again: &Context) -> String {
    let _ = (ctx, again);
    id.to_string()
}

/// Counts notes.
#[tool]
async fn note_count(#[serde(default)] ctx: &Context) -> u64 {
    let _ = ctx;
    0
}

fn main() {}
