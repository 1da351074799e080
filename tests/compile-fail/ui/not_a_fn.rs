use tool_core::tool;

#[tool]
struct NoteWrite;

fn main() {}
