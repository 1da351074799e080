use tool_core::tool;

/// Writes a note.
#[tool(name = "note_write_with_a_name_far_too_long_for_any_provider_to_accept_xy")]
async fn note_write(text: String) -> String {
    text
}

fn main() {}
