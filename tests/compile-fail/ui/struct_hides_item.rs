use tool_core::tool;

/// Reads a result.
#[tool]
async fn result(id: u64) -> Result<String, tool_core::Refusal> {
    Ok(id.to_string())
}

fn main() {}
