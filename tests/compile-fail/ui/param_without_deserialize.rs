use tool_core::tool;

#[derive(schemars::JsonSchema)]
struct Colour {
    name: String,
}

/// Paints.
#[tool]
async fn paint(colour: Colour) -> String {
    colour.name
}

fn main() {}
