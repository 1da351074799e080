use tool_core::{tool, toolkit};

#[tool(readonly)]
async fn note_count() -> usize {
    0
}

/// Counts words.
#[tool(readonly, description = "  ")]
async fn word_count(text: String) -> usize {
    text.split_whitespace().count()
}

/// Weather.
struct Weather;

#[toolkit]
impl Weather {
    #[cfg_attr(all(), doc = "Tells whether it rains.")]
    #[tool(readonly)]
    async fn rain_now(&self) -> bool {
        false
    }
}

fn main() {}
