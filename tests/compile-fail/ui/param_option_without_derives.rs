use tool_core::tool;

#[derive(serde::Deserialize)]
struct Colour {
    name: String,
}

/// Paints.
#[tool]
async fn paint(colour: Option<Colour>) -> String {
    colour.map(|colour| colour.name).unwrap_or_default()
}

fn main() {}
