use tool_core::tool;

// Each part of `icon(...)` is checked on its own, and every mistake is reported at once.
/// Reads a note.
#[tool(
    icon(
        src = "https://example.com/note.png",
        mime_type = "text/plain",
        sizes = ["48x48", "48"],
        theme = "blue",
        colour = "red"
    ),
    icon(mime_type = "image/png"),
    icon
)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
