use tool_core::tool;

/// Adds two numbers.
#[tool]
async fn add((a, b): (u8, u8)) -> String {
    (a + b).to_string()
}

fn main() {}
