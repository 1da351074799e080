use tool_core::tool;

struct Notes;

impl Notes {
    /// Counts notes.
    #[tool(readonly)]
    async fn note_count() -> u64 {
        0
    }
}

fn main() {}
