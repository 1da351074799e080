use tool_core::tool;

// An icon's source is a URL a client may load, or a base64 image: a relative path, a `file:`
// URL, text that is not base64 and a URL with a space are each refused at the literal.
/// Reads a note.
#[tool(
    icon = "note.svg",
    icon = "file:///usr/share/icons/note.png",
    icon = "data:image/png,rawbytes",
    icon = "https://example.com/my note.svg",
    icon = 42
)]
async fn note_read(id: u64) -> String {
    id.to_string()
}

fn main() {}
