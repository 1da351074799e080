//! The README's first screen, as a new user takes it: a crate outside this workspace whose
//! `Cargo.toml` has exactly the install section's lines and whose `src/main.rs` is exactly the
//! tour, built and run; what it prints is the text the README shows after it, and over stdio
//! it is an MCP server listing the tour's tools; the tests the README adds at its end pass
//! with `cargo test`, snapshots written on the first run and held on the next. The crates come
//! from this checkout, through the install section's own `[patch.crates-io]` (as if they were
//! published), at the versions this workspace locks.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tool_tests::fenced::blocks_after;
use tool_tests::user_crates::{self, root};

/// The first fenced block of `language` after the heading `heading` in `text`.
fn block_after<'a>(text: &'a str, heading: &str, language: &str) -> &'a str {
    (blocks_after(text, heading, language).first().copied())
        .unwrap_or_else(|| panic!("no ```{language} block after `{heading}`"))
}

/// The install section's `[patch.crates-io]` for a checkout beside the user's crate, its
/// paths pointed at this checkout.
fn checkout_patch(readme: &str, root: &Path) -> String {
    let patch = (blocks_after(readme, "## Install", "toml").into_iter())
        .find(|block| block.trim_start().starts_with("[patch.crates-io]"))
        .expect("the install section patches crates.io with a checkout");
    let beside = format!("\"{}/", root.display());
    let patch: String = patch
        .lines()
        .map(|line| format!("{}\n", line.trim().replace("\"../tool-core/", &beside)))
        .collect();
    for name in ["tool-core", "tool-core-macros", "tool-mcp"] {
        assert!(
            patch.contains(&format!("\n{name} = {{ path = ")),
            "the README's patch has no path for {name}: {patch}"
        );
    }
    patch
}

/// The crate, written from the README into `target/readme-tour`.
fn tour_crate(readme: &str) -> PathBuf {
    let root = root();
    let dir = root.join("target").join("readme-tour");
    std::fs::create_dir_all(dir.join("src")).expect("target/ is writable");
    let manifest = format!(
        "[package]\nname = \"readme-tour\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n# Not a member of the workspace around it.\n[workspace]\n\n{}\n{}",
        block_after(readme, "## Install", "toml"),
        checkout_patch(readme, &root),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writes");
    // The tour, with the tests the README says go at its end.
    let main = format!(
        "{}\n{}",
        block_after(readme, "## A tour", "rust"),
        block_after(readme, "## Testing your tools", "rust")
    );
    std::fs::write(dir.join("src").join("main.rs"), main).expect("writes");
    // Snapshots of an earlier run would be compared instead of written.
    let _ = std::fs::remove_dir_all(dir.join("src").join("snapshots"));
    // The versions this workspace is tested with; cargo drops what the crate does not use.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copies");
    dir
}

#[test]
fn the_readme_s_install_lines_and_tour_build_a_crate_that_prints_what_the_readme_shows_and_its_tests_pass()
 {
    let readme = tool_tests::fenced::readme();
    let dir = tour_crate(&readme);
    let built = user_crates::cargo(&dir, "build")
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the README's crate did not build");
    let binary = user_crates::target().join("debug").join("readme-tour");

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
        .stderr(Stdio::piped())
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
    // A session that went well leaves the host's log as it found it: rmcp's notes of each
    // session (its INFO lines, with the client's whole handshake) are filtered out.
    let mut logged = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().expect("piped"), &mut logged)
        .expect("the log is UTF-8");
    assert!(
        !logged.contains("rmcp"),
        "a quiet stdio session logged rmcp's lines:\n{logged}"
    );
    let listed: serde_json::Value = serde_json::from_str(&listed).expect("JSON");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(names, ["note_write", "note_read"]);

    the_readme_s_tests_of_the_tour_pass_and_keep_what_models_are_shown(&dir);
}

/// The README's tests of the tour, run in its crate `dir` (after the tour was built there: one
/// test, as both write the same crate).
fn the_readme_s_tests_of_the_tour_pass_and_keep_what_models_are_shown(dir: &Path) {
    let test = |update: &str| {
        user_crates::cargo(dir, "test")
            .env("INSTA_UPDATE", update)
            .env_remove("CI")
            .output()
            .expect("cargo runs")
    };
    // Run as a user runs it first: every provider's snapshot fails and is left pending.
    let pending = test("auto");
    assert!(
        !pending.status.success(),
        "tests passed with no snapshots kept"
    );
    let snapshots = dir.join("src").join("snapshots");
    for provider in ["mcp", "openai", "anthropic", "gemini"] {
        let file = snapshots.join(format!("readme_tour__tests__exports@{provider}.snap.new"));
        assert!(file.exists(), "no pending {}", file.display());
    }
    let _ = std::fs::remove_dir_all(&snapshots);
    // Then accepted, as `INSTA_UPDATE=always cargo test` does.
    let first = test("always");
    let printed = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "the README's tests failed: {first:?}"
    );
    assert!(
        printed.contains("test result: ok. 3 passed"),
        "the README's three tests did not all run: {printed}"
    );
    for provider in ["mcp", "openai", "anthropic", "gemini"] {
        let file = snapshots.join(format!("readme_tour__tests__exports@{provider}.snap"));
        let kept = std::fs::read_to_string(&file)
            .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        assert!(kept.contains("note_write"), "{provider}: {kept}");
    }
    // The next run holds the tools to them: a changed description fails with a diff.
    assert!(
        test("no").status.success(),
        "the kept snapshots no longer match"
    );
    let openai = snapshots.join("readme_tour__tests__exports@openai.snap");
    let kept = std::fs::read_to_string(&openai).expect("reads");
    std::fs::write(&openai, kept.replace("Reads a note.", "Reads a memo.")).expect("writes");
    let changed = test("no");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&changed.stdout),
        String::from_utf8_lossy(&changed.stderr)
    );
    assert!(!changed.status.success(), "a changed snapshot passed");
    assert!(said.contains("Reads a memo."), "no diff shown: {said}");
}
