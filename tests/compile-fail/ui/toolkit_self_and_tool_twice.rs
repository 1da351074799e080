use tool_core::{tool, toolkit};

/// Notes kept in memory.
#[derive(Default)]
struct Notes;

/// A note's filter.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    tag: String,
}

#[toolkit]
impl Notes {
    /// Lists notes.
    #[tool(readonly)]
    async fn note_list(&self, filter: Option<Self>) -> String {
        let _ = filter;
        String::new()
    }

    /// Counts notes.
    #[tool(readonly)]
    #[tool]
    async fn note_count(&self, filter: Filter) -> usize {
        filter.tag.len()
    }
}

fn main() {}
