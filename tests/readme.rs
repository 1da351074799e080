//! The README's first screen, as a new user takes it: a crate outside this workspace whose
//! `Cargo.toml` has exactly the install section's lines and whose `src/main.rs` is exactly the
//! tour, built and run; what it prints is the text the README shows after it, and over stdio
//! it is an MCP server listing the tour's tools. The crates come from this checkout (a
//! `[patch.crates-io]`, as if they were published), at the versions this workspace locks.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// The first fenced block of `language` after the heading `heading` in `text`.
fn block_after<'a>(text: &'a str, heading: &str, language: &str) -> &'a str {
    let section = text
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("the README has no `{heading}`"))
        .1;
    let fence = format!("```{language}\n");
    let start = section
        .find(&fence)
        .unwrap_or_else(|| panic!("no ```{language} block after `{heading}`"))
        + fence.len();
    let length = section[start..].find("\n```").expect("the block ends") + 1;
    &section[start..start + length]
}

/// The crate, written from the README into `target/readme-tour`.
fn tour_crate(readme: &str) -> PathBuf {
    let root = root();
    let dir = root.join("target").join("readme-tour");
    std::fs::create_dir_all(dir.join("src")).expect("target/ is writable");
    let patch = |name: &str, folder: &str| {
        format!("{name} = {{ path = {:?} }}\n", root.join(folder).display())
    };
    let manifest = format!(
        "[package]\nname = \"readme-tour\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n# Not a member of the workspace around it.\n[workspace]\n\n{}\n\
         [patch.crates-io]\n{}{}{}",
        block_after(readme, "## Install", "toml"),
        patch("tool-core", "tool-core"),
        patch("tool-core-macros", "tool-macros"),
        patch("tool-mcp", "tool-mcp"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writes");
    std::fs::write(
        dir.join("src").join("main.rs"),
        block_after(readme, "## A tour", "rust"),
    )
    .expect("writes");
    // The versions this workspace is tested with; cargo drops what the crate does not use.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copies");
    dir
}

#[test]
fn the_readme_s_install_lines_and_tour_build_a_crate_that_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README reads");
    let dir = tour_crate(&readme);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(&cargo)
        .args(["build", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the README's crate did not build");
    let binary = dir.join("target").join("debug").join("readme-tour");

    let output = Command::new(&binary).output().expect("the tour runs");
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(
        printed.trim_end(),
        block_after(&readme, "## A tour", "text").trim_end(),
        "the tour printed something else than the README says"
    );

    // Over stdio it is an MCP server of the same tools.
    let mut server = Command::new(&binary)
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tour serves");
    let mut stdin = server.stdin.take().expect("piped");
    for message in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        writeln!(stdin, "{message}").expect("the server reads");
    }
    let lines = BufReader::new(server.stdout.take().expect("piped")).lines();
    let listed = lines
        .map_while(Result::ok)
        .find(|line| line.contains(r#""id":2"#))
        .expect("tools/list is answered");
    drop(stdin);
    let _ = server.wait();
    let listed: serde_json::Value = serde_json::from_str(&listed).expect("JSON");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(names, ["note_write", "note_read"]);
}
