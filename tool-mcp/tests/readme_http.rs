//! The README's HTTP session by hand, run as a reader runs it: its `curl` lines, in bash,
//! against the example server, with that server's address in place of the README's.

mod support;

use std::process::Command;
use std::time::Duration;

/// The README's shell blocks that speak to the server with `curl`, in order.
fn curl_session(readme: &str) -> String {
    let blocks = support::fenced::blocks_after(
        readme,
        "## Serving over MCP, and using remote MCP servers",
        "sh",
    );
    let session: Vec<&str> = (blocks.into_iter())
        .take_while(|block| block.contains("curl "))
        .collect();
    assert_eq!(
        session.len(),
        2,
        "the README shows a 2025-11-25 session and a 2026-07-28 request by hand"
    );
    session.concat()
}

#[test]
fn the_readme_s_curl_session_is_answered_in_both_revisions() {
    // Found, or installed as the other Debian programs the tests run are.
    let curl = support::debian::program("curl", "curl");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let folders = curl.parent().into_iter().map(Into::into);
    let path =
        std::env::join_paths(folders.chain(std::env::split_paths(&path))).expect("the PATH joins");
    let written = curl_session(&support::fenced::readme());
    let (_server, url) = support::example_http_server(&[]);
    let the_readme_s = "url=http://127.0.0.1:8000/mcp\n";
    assert!(written.starts_with(the_readme_s), "{written}");
    let script = written.replacen(the_readme_s, &format!("url={url}\n"), 1);
    // As curl runs on a machine of no settings of its own: no proxy between it and the server
    // on this machine (`*` is every host, whatever proxy the environment names), and no
    // `.curlrc` (`CURL_HOME`, `HOME`) but the test's own, empty one.
    let home = std::env::temp_dir().join(format!("readme-http-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a temporary folder");
    let mut bash = Command::new("bash");
    bash.args(["-euo", "pipefail", "-c", &script])
        .env("PATH", path)
        .env("CURL_HOME", &home)
        .env("HOME", &home)
        .env("NO_PROXY", "*")
        .env("no_proxy", "*");
    let ran = support::process::run_within(&mut bash, Duration::from_secs(120), "the session");
    let _ = std::fs::remove_dir_all(&home);
    let said = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success(), "{said}\n{}", ran.stderr);
    // The 2025-11-25 call, in the session `initialize` opened (without it, the server answers
    // 400 and no JSON), and the 2026-07-28 call, which needs none.
    let answers = support::messages_in(&said);
    let answer = |id: u64| {
        let answer = answers.iter().find(|answer| answer["id"] == id);
        &answer.unwrap_or_else(|| panic!("no answer to request {id}: {said}"))["result"]
    };
    for id in [2, 3] {
        let result = answer(id);
        assert_eq!(result["isError"], false, "{said}");
        let text = result["content"][0]["text"].as_str();
        assert!(
            text.is_some_and(|text| text.starts_with("0 notes")),
            "{said}"
        );
    }
    assert_eq!(answer(3)["resultType"], "complete", "{said}");
}
