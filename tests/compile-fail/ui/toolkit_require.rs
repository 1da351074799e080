use tool_core::{tool, toolkit};

struct Notes;

// A toolkit listed in a directory: every tool says its title and whether it changes anything.
#[toolkit(name = "note", require(title, hints))]
impl Notes {
    /// Reads a note.
    #[tool(readonly, title = "Read a note")]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }

    /// Counts the notes.
    #[tool(readonly)]
    async fn note_count(&self) -> String {
        "3".to_owned()
    }

    /// Tags a note.
    #[tool(title = "Tag a note")]
    async fn note_tag(&self, id: u64) -> String {
        id.to_string()
    }
}

struct Other;

#[toolkit(require(titel))]
impl Other {
    /// Pings.
    #[tool(readonly)]
    async fn other_ping(&self) -> String {
        "pong".to_owned()
    }
}

fn main() {}
