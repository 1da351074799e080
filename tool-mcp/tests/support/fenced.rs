//! The README's fenced blocks, as the tests that run what it shows read them: the tour's
//! crate (the workspace's `tests/readme.rs`) and the HTTP session by hand (`readme_http.rs`).

/// The README at the workspace's root.
pub fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"))
}

/// Each fenced block of `language` after the heading `heading` in `text` (to the end of the
/// text), as written (one in a list item keeps its indentation).
pub fn blocks_after<'a>(text: &'a str, heading: &str, language: &str) -> Vec<&'a str> {
    let section = text
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("the README has no `{heading}`"))
        .1;
    let fence = format!("```{language}");
    let (mut blocks, mut start, mut at) = (Vec::new(), None, 0);
    for line in section.split_inclusive('\n') {
        match start {
            None if line.trim() == fence => start = Some(at + line.len()),
            Some(from) if line.trim() == "```" => {
                blocks.push(&section[from..at]);
                start = None;
            }
            _ => {}
        }
        at += line.len();
    }
    blocks
}
