//! What more than one of this crate's test files needs.

use std::path::PathBuf;
use std::process::Command;

/// The example server's binary (`examples/mcp_server.rs`), built if `cargo test` has not built
/// it already.
pub fn example_server() -> PathBuf {
    let test_binary = std::env::current_exe().expect("the test binary has a path");
    let profile = test_binary
        .parent()
        .and_then(|deps| deps.parent())
        .expect("tests run from target/<profile>/deps");
    let binary = profile.join("examples").join("mcp_server");
    if !binary.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .args(["build", "-p", "tool-examples", "--example", "mcp_server"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the example server failed");
    }
    binary
}
