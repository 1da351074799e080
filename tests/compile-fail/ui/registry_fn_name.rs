use tool_core::{registry, tool};

/// Writes a note.
#[tool]
async fn note_write(text: String) -> String {
    text
}

/// Notes kept in memory, with no `#[toolkit]` impl block.
#[derive(Default)]
struct Notes;

fn main() {
    let _ = registry![note_write];
    let _ = registry![Notes::default()];
}
