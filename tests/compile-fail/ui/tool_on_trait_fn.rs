use tool_core::tool;

trait Store {
    /// Reads a note.
    #[tool]
    async fn note_read(&self, id: u64) -> u64;
}

fn main() {}
