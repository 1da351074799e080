use tool_core::tool;

#[derive(serde::Deserialize)]
struct Colour {
    name: String,
}

/// Paints.
#[tool]
async fn paint(colour: Colour) -> String {
    colour.name
}

fn main() {}
