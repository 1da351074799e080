use tool_core::tool;

/// Ignores a number.
#[tool]
async fn ignore(_: u8) -> String {
    String::new()
}

fn main() {}
