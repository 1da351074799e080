//! The example server, driven by a client nobody here wrote: the official Python `mcp` SDK
//! (`pip install mcp`), over stdio and over streamable HTTP.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use support::example_server;

mod support;

/// Runs the Python client against `target` and returns what it saw.
fn python_client(mode: &str, target: &str) -> Value {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client.py");
    let output = Command::new("python3")
        .arg(script)
        .args([mode, target])
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python MCP client failed (is the `mcp` package installed? `pip install mcp`):\n{stderr}"
    );
    serde_json::from_slice(&output.stdout).expect("the client prints one JSON document")
}

/// Everything both transports must show.
fn check_session(seen: &Value) {
    let tools = seen["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["note_write", "note_search", "note_count", "note_reindex"]
    );
    let write = &tools[0];
    assert_eq!(
        write["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true})
    );
    assert_eq!(write["inputSchema"]["required"], json!(["text"]));
    assert_eq!(write["inputSchema"]["additionalProperties"], false);
    assert_eq!(write["outputSchema"]["required"], json!(["id", "revision"]));
    let search = &tools[1];
    assert_eq!(
        search["inputSchema"]["properties"]["filter"]["properties"]["tags"]["items"],
        json!({"type": "string"}),
        "nested types are inlined"
    );

    assert_eq!(seen["good"]["isError"], false);
    assert_eq!(
        seen["good"]["structuredContent"],
        json!({"id": 1, "revision": 1})
    );
    assert_eq!(
        seen["good"]["content"][0]["text"],
        r#"{"id":1,"revision":1}"#
    );

    assert_eq!(seen["bad"]["isError"], true);
    assert_eq!(
        seen["bad"]["content"][0]["text"],
        "refused\tbad-arguments\t3 faults in the arguments of note_search; nothing ran\n\
         fault\tcolour\tunknown field\n\
         fault\tfilter.tags[1]\texpected string, received 7\n\
         fault\tlimit\texpected u8 or null, received 1000, which is out of range\n\
         fields\tfilter\tlimit"
    );
    assert_eq!(seen["unknown"]["isError"], true);
    let unknown = seen["unknown"]["content"][0]["text"].as_str().unwrap();
    assert!(unknown.starts_with("refused\tunknown-tool\t"), "{unknown}");

    assert_eq!(seen["reindexed"]["structuredContent"], json!({"notes": 1}));
    let progress: Vec<f64> = seen["progress"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(
        progress,
        [1.0, 2.0, 3.0],
        "progress notifications reached the client"
    );
    assert_eq!(seen["progress"][0]["total"], 3.0);

    let waited = seen["cancel_waited"].as_f64().unwrap();
    assert!(
        waited < 1.0,
        "the cancelled call held the client for {waited}s"
    );
    assert_eq!(
        seen["after_cancel"], "1 notes, 0 reindexing",
        "the cancelled call stopped on the server"
    );
}

#[test]
fn the_python_sdk_drives_the_server_over_stdio() {
    let server = example_server();
    let seen = python_client("stdio", server.to_str().unwrap());
    check_session(&seen);
}

#[test]
fn the_python_sdk_drives_the_server_over_streamable_http() {
    let server = example_server();
    let mut child = Command::new(server)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .expect("the server says where it listens");
    let url = first_line
        .trim()
        .strip_prefix("listening on ")
        .expect("a `listening on URL` line")
        .to_owned();
    let seen = python_client("http", &url);
    let _ = child.kill();
    let _ = child.wait();
    check_session(&seen);
    assert_eq!(seen["guest_tools"], json!(["note_search", "note_count"]));
    assert_eq!(seen["guest_write"]["isError"], true);
    assert_eq!(
        seen["guest_write"]["content"][0]["text"],
        "refused\tnot-permitted\t`note_write` is not granted to this caller; call one of the \
         tools listed\ntools\tnote_search\tnote_count"
    );
}
