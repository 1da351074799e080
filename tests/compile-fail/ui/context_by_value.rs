use tool_core::{Context, tool, toolkit};

/// Reads a note.
#[tool]
async fn note_read(id: u64, ctx: Context) -> String {
    let _ = ctx;
    id.to_string()
}

/// Finds a note.
#[tool]
async fn note_find(id: u64, ctx: std::sync::Arc<Context>) -> String {
    let _ = ctx;
    id.to_string()
}

/// Notes.
struct Notes;

#[toolkit]
impl Notes {
    /// Counts notes.
    #[tool]
    async fn note_count(&self, ctx: tool_core::Context) -> u64 {
        let _ = ctx;
        0
    }
}

fn main() {}
