//! The example server, driven by clients nobody here wrote: the official Python `mcp` SDK (its
//! low-level `ClientSession`, and its high-level `Client` in the modes its users pick) and the
//! official TypeScript SDK, over stdio and over streamable HTTP. Every client must see the same
//! things; the SDKs are installed on first use (`support::clients`).

use std::process::Command;

use serde_json::{Value, json};
use support::clients;
use support::{example_http_server, example_server};

mod support;

/// A transport the example server is reached over.
#[derive(Clone, Copy)]
enum Transport {
    Stdio,
    Http,
}

/// Which progress notifications of a call a client is sure to hand to the caller.
#[derive(Clone, Copy)]
enum Progress {
    /// Every one the server sent.
    Every,
    /// The first ones, in order. The TypeScript SDK hands a notification to its handler a
    /// microtask after reading it but a response at once, so a progress notification that
    /// arrives in the same read as its call's response finds the call's handler gone and is
    /// dropped, though the server wrote it first (`@modelcontextprotocol/sdk` 1.32.2,
    /// `Protocol._onnotification`).
    Leading,
}

/// Runs `command` (a client, given the transport and target as its last two arguments) against
/// a fresh example server, checks what it saw, and returns that.
fn drive(mut command: Command, what: &str, transport: Transport, progress: Progress) -> Value {
    let seen = match transport {
        Transport::Stdio => {
            command.arg("stdio").arg(example_server());
            clients::client_session(&mut command, what)
        }
        Transport::Http => {
            let (_server, url) = example_http_server(&[]);
            command.arg("http").arg(url);
            let seen = clients::client_session(&mut command, what);
            check_guest(&seen);
            seen
        }
    };
    check_session(&seen, progress);
    seen
}

/// The Python SDK: `kind` is `session` or a mode of its `Client`.
fn python(kind: &str, transport: Transport) -> Value {
    let mut command = clients::python_client("mcp_client.py");
    command.arg(kind);
    drive(
        command,
        &format!("the Python SDK's {kind} client"),
        transport,
        Progress::Every,
    )
}

/// The TypeScript SDK's `Client`.
fn typescript(transport: Transport) -> Value {
    let command = clients::node_client("mcp_client.mjs");
    let seen = drive(
        command,
        "the TypeScript SDK's client",
        transport,
        Progress::Leading,
    );
    // The SDK compiles each tool's output schema with ajv, which warns of every `format` it
    // does not know (such as the `uint64` schemars writes for a `u64`).
    assert_eq!(
        seen["warnings"],
        json!([]),
        "the TypeScript SDK warned while reading the server's tools"
    );
    seen
}

/// Everything every client must see, on either transport.
fn check_session(seen: &Value, sure: Progress) {
    let tools = seen["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, support::EXAMPLE_TOOLS);
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
    let sent = [1.0, 2.0, 3.0];
    match sure {
        Progress::Every => assert_eq!(progress, sent, "progress notifications reached the client"),
        Progress::Leading => assert!(
            !progress.is_empty() && sent.starts_with(&progress),
            "progress notifications reached the client, in order: {progress:?}"
        ),
    }
    assert_eq!(seen["progress"][0]["total"], 3.0);

    // The client gives the call up after 0.3 s; held until the call's 30 s of passes ended,
    // it would wait 30 s. The bound lies between the two, with room for a loaded machine.
    let waited = seen["cancel_waited"].as_f64().unwrap();
    assert!(
        waited < 10.0,
        "the cancelled call held the client for {waited}s"
    );
    assert_eq!(
        seen["after_cancel"], "1 notes, 0 reindexing",
        "the cancelled call stopped on the server"
    );
}

/// What a caller the host names `guest` sees over HTTP: only its grant.
fn check_guest(seen: &Value) {
    assert_eq!(seen["guest_tools"], json!(["note_search", "note_count"]));
    assert_eq!(seen["guest_write"]["isError"], true);
    assert_eq!(
        seen["guest_write"]["content"][0]["text"],
        "refused\tnot-permitted\t`note_write` is not granted to this caller; call one of the \
         tools listed\ntools\tnote_search\tnote_count"
    );
}

/// One test a client, mode and transport, each named for what it proves: the client, started
/// so, drives the server through every check and speaks this protocol revision.
macro_rules! drives {
    ($($name:ident: $seen:expr => $revision:literal;)*) => {$(
        #[test]
        fn $name() {
            let seen = $seen;
            assert_eq!(seen["protocol_version"], $revision);
        }
    )*};
}

drives! {
    the_python_session_drives_the_server_over_stdio:
        python("session", Transport::Stdio) => "2025-11-25";
    the_python_session_drives_the_server_over_streamable_http:
        python("session", Transport::Http) => "2025-11-25";
    the_python_client_in_its_default_mode_speaks_2026_07_28_over_stdio:
        python("auto", Transport::Stdio) => "2026-07-28";
    the_python_client_in_its_default_mode_speaks_2026_07_28_over_streamable_http:
        python("auto", Transport::Http) => "2026-07-28";
    the_python_client_in_legacy_mode_drives_the_server_over_stdio:
        python("legacy", Transport::Stdio) => "2025-11-25";
    the_python_client_in_legacy_mode_drives_the_server_over_streamable_http:
        python("legacy", Transport::Http) => "2025-11-25";
    the_python_client_pinned_to_2026_07_28_drives_the_server_over_stdio:
        python("2026-07-28", Transport::Stdio) => "2026-07-28";
    the_python_client_pinned_to_2026_07_28_drives_the_server_over_streamable_http:
        python("2026-07-28", Transport::Http) => "2026-07-28";
    the_typescript_client_drives_the_server_over_stdio:
        typescript(Transport::Stdio) => "2025-11-25";
    the_typescript_client_drives_the_server_over_streamable_http:
        typescript(Transport::Http) => "2025-11-25";
}
