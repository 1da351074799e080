use tool_core::tool;

/// Blocks an address.
#[tool(destructive)]
async fn address_block(
    /// The address to block.
    #[schemars(ip)]
    address: String,
) -> String {
    address
}

fn main() {}
