use tool_core::{registry, tool};

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    tool_mcp::McpServer::new(registry![Add]).serve_stdio().await
}
