use tool_core::tool;

/// What to list.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    tag: String,
}

/// Squares a number.
#[tool]
async fn number_square(#[input] n: u64) -> u64 {
    n * n
}

/// Lists what a filter lets through.
#[tool]
async fn note_list(#[input] filter: Option<Filter>) -> String {
    filter.map(|filter| filter.tag).unwrap_or_default()
}

fn main() {}
