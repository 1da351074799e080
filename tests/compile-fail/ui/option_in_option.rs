use tool_core::tool;

/// Tags a note: a tag to set, or `null` to clear it.
#[tool]
async fn note_tag(id: u64, tag: Option<Option<String>>) -> String {
    format!("{id} {tag:?}")
}

/// Labels a note: a label to set, or `null` to clear it.
#[tool]
async fn note_label(
    id: u64,
    #[serde(rename = "without")] label: Option<Option<String>>,
) -> String {
    format!("{id} {label:?}")
}

fn main() {}
