use tool_core::{tool, toolkit};

/// Notes, borrowed.
struct Notes<'a> {
    texts: &'a [String],
}

#[toolkit]
impl<'a> Notes<'a> {
    /// Counts the notes.
    #[tool(readonly)]
    async fn note_count(&self) -> usize {
        self.texts.len()
    }
}

fn main() {}
