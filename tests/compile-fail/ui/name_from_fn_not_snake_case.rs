#![allow(non_snake_case)]

use tool_core::tool;

/// Writes a note.
#[tool]
async fn noteWrite(text: String) -> String {
    text
}

fn main() {}
