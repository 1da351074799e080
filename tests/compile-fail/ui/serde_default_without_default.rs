use tool_core::tool;

/// The order notes are listed in.
#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Order {
    Newest,
    Oldest,
}

/// Lists notes.
#[tool(readonly)]
async fn note_list(
    /// In what order; newest first when left out.
    #[serde(default, rename = "sort")]
    order: Order,
) -> String {
    let _ = order;
    String::new()
}

fn main() {}
