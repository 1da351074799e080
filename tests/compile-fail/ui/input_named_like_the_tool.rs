use tool_core::tool;

/// What a note is written with.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoteWrite {
    text: String,
}

/// Writes a note.
#[tool]
async fn note_write(#[input] args: NoteWrite) -> String {
    args.text
}

fn main() {}
