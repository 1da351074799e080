use tool_core::tool;

/// Echoes a value.
#[tool]
async fn echo<T>(value: T) -> String {
    let _ = value;
    String::new()
}

fn main() {}
