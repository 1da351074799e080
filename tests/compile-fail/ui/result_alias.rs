use tool_core::{Refusal, tool};

type Outcome<T> = Result<T, Refusal>;
type Answer = std::result::Result<u64, String>;

/// Reads a note.
#[tool]
async fn note_read(id: u64) -> Outcome<u64> {
    Ok(id)
}

/// Counts notes.
#[tool]
async fn note_count() -> Answer {
    Err("no notes".to_owned())
}

fn main() {}
