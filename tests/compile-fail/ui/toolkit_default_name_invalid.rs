#![allow(non_camel_case_types)]

use tool_core::{tool, toolkit};

// Without `name`, the toolkit is named after its type, and that name must be valid too.
struct Notes_;

#[toolkit]
impl Notes_ {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
