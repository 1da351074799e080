use tool_core::tool;

/// Counts to a number, slowly.
#[tool(readonly, timeout = "100ms")]
fn count_to(n: u64) -> u64 {
    (0..n).sum()
}

fn main() {}
