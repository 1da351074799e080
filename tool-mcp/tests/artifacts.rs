//! A structured output over a registry's artifact threshold, served over MCP and taken by
//! clients nobody here wrote: the official TypeScript SDK's default `Client`, which throws for
//! the result of a tool with an `outputSchema` that carries no `structuredContent`, and the
//! Python SDK's `Client` in both protocol revisions. Each must get the whole value as
//! `structuredContent` and the preview with the artifact's handle as the text, and read the
//! artifact back with `artifact_read`.

use std::process::Command;

use serde_json::{Value, json};
use support::{HttpServer, clients};
use tool_core::{Artifacts, Registry};
use tool_mcp::McpServer;
use tool_tests::table::{TableDump, table};

mod support;

/// Bytes an output may have before it is kept, and what `artifact_read` hands out at once.
const THRESHOLD: usize = 512;
/// How many rows make an output well over the threshold.
const ROWS: u32 = 40;

fn server() -> McpServer {
    let artifacts = Artifacts::over(THRESHOLD).preview_bytes(64);
    let registry = Registry::builder()
        .tool(TableDump)
        .toolkit(artifacts.reader())
        .build()
        .unwrap()
        .with_artifacts(artifacts);
    McpServer::new(registry)
}

/// What `command`, a client script, saw of a fresh server when it called `table_dump`.
async fn drive(command: Command, what: &'static str) -> Value {
    let arguments = json!({"rows": ROWS});
    HttpServer::client_saw(server(), command, "table_dump", &arguments, what).await
}

/// What every client must have seen: no error, the value whole as `structuredContent`, the
/// preview and the handle as the text, and the artifact's first part read back.
fn check(seen: &Value, what: &str) {
    let whole = serde_json::to_string(&table(ROWS)).unwrap();
    assert!(whole.len() > THRESHOLD, "the output is over the threshold");
    assert!(seen.get("error").is_none(), "{what}: {seen}");
    assert!(seen["output_schema"].is_object(), "{what}: {seen}");
    let result = &seen["result"];
    assert_ne!(result["isError"], true, "{what}: {result}");
    assert_eq!(
        result["structuredContent"],
        serde_json::to_value(table(ROWS)).unwrap(),
        "{what}: the value is whole"
    );
    let note = result["content"][1]["text"].as_str().unwrap_or_default();
    let cells: Vec<&str> = note.split('\t').collect();
    let [label, handle, size] = cells.as_slice() else {
        panic!("{what}: expected the artifact line, got {result}");
    };
    assert_eq!((*label, *size), ("artifact", &*whole.len().to_string()));
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with(&format!("the output is {} bytes", whole.len())),
        "{what}: {text}"
    );
    assert!(text.contains(handle), "{what}: {text}");
    assert!(
        text.ends_with(&format!("Its first 64 bytes:\n{}", &whole[..64])),
        "{what}: {text}"
    );
    assert!(seen.get("read_error").is_none(), "{what}: {seen}");
    let part = &seen["read"]["structuredContent"];
    assert_eq!(part["text"], whole[..THRESHOLD], "{what}: {seen}");
    assert_eq!(
        (&part["offset"], &part["next_offset"], &part["size"]),
        (&json!(0), &json!(THRESHOLD), &json!(whole.len())),
        "{what}: {part}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_client_gets_a_large_structured_output_whole_beside_its_preview() {
    let command = clients::node_client("mcp_artifacts.mjs");
    let seen = drive(command, "the TypeScript SDK's client").await;
    check(&seen, "the TypeScript SDK's client");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_client_gets_a_large_structured_output_whole_beside_its_preview() {
    let command = clients::python_client("mcp_artifacts.py");
    let seen = drive(command, "the Python SDK's client").await;
    for mode in ["auto", "legacy"] {
        check(&seen[mode], &format!("the Python SDK's {mode} client"));
    }
}
