use tool_core::{Context, ToolCall, registry, tool};

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::main]
async fn main() {
    let registry = registry![Add];
    let call = ToolCall::new("1", "add", serde_json::json!({"a": 2, "b": 3}));
    println!("{}", registry.call(call, &Context::new()).await.text());
}
