//! Structured output of any JSON (a list, a number), as MCP 2026-07-28 allows it (SEP-2106):
//! a 2026-07-28 client is shown the tool's `outputSchema` and gets the value as
//! `structuredContent`; a 2025-11-25 client, whose revision takes an object alone for both, is
//! shown no such schema and gets the value's text alone, in a call's result and in a task's.
//! Checked on the wire (JSON lines written by hand), and with clients nobody here wrote: the
//! Python SDK's `Client` in both its revisions and the TypeScript SDK's default `Client`.

use std::process::Command;

use serde_json::{Value, json};
use support::lines::LineClient;
use support::{HttpServer, clients};
use tool_core::Registry;
use tool_mcp::McpServer;
use tool_tests::tags::{TagsCount, TagsList, tags};

mod support;

fn server() -> McpServer {
    McpServer::new(
        Registry::builder()
            .tool(TagsList)
            .tool(TagsCount)
            .build()
            .unwrap(),
    )
}

/// The tool named `name` in a `tools/list` result.
fn listed<'a>(list: &'a Value, name: &str) -> &'a Value {
    (list["tools"].as_array().into_iter().flatten())
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("{name} is listed: {list}"))
}

#[tokio::test]
async fn a_2026_client_is_shown_the_schema_and_gets_the_value_as_structured_content() {
    let mut client = LineClient::connect_current(server());
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(listed(&list, "tags_list")["outputSchema"]["type"], "array");
    assert_eq!(
        listed(&list, "tags_count")["outputSchema"]["type"],
        "integer"
    );
    let call = |name: &str| json!({"name": name, "arguments": {}});
    let listed_tags = client.request("tools/call", call("tags_list")).await;
    assert_eq!(listed_tags["structuredContent"], tags(), "{listed_tags}");
    assert_eq!(listed_tags["content"][0]["text"], tags().to_string());
    let counted = client.request("tools/call", call("tags_count")).await;
    assert_eq!(counted["structuredContent"], 1, "{counted}");
}

#[tokio::test]
async fn a_2025_client_is_shown_no_such_schema_and_gets_the_text_alone() {
    let mut client = LineClient::connect(server()).await;
    let list = client.request("tools/list", json!({})).await;
    for name in ["tags_list", "tags_count"] {
        assert_eq!(listed(&list, name).get("outputSchema"), None, "{list}");
    }
    let call = json!({"name": "tags_list", "arguments": {}});
    let answered = client.request("tools/call", call.clone()).await;
    assert_eq!(answered.get("structuredContent"), None, "{answered}");
    assert_eq!(
        answered["content"],
        json!([{"type": "text", "text": tags().to_string()}])
    );
    // As a task, which a client declaring the tasks extension is given: its result, read
    // later, is shaped for the revision that asked too.
    let mut client = LineClient::open(server(), false);
    client
        .handshake_with(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
        .await;
    let started = client.request("tools/call", call).await;
    assert_eq!(started["resultType"], "task", "{started}");
    let id = started["taskId"].as_str().expect("a task's id").to_owned();
    let mut finished = Value::Null;
    for () in support::patiently() {
        finished = client.request("tasks/get", json!({"taskId": id})).await;
        if finished["status"] == "completed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(finished["status"], "completed", "{finished}");
    let result = &finished["result"];
    assert_eq!(result.get("structuredContent"), None, "{finished}");
    assert_eq!(
        result["content"][0]["text"],
        tags().to_string(),
        "{finished}"
    );
}

#[tokio::test]
async fn a_2025_client_of_a_large_list_gets_its_preview_as_the_text() {
    // Kept as an artifact, the list is a structured block: its text the preview, its value the
    // 2026-07-28 client's `structuredContent`. A 2025-11-25 client gets the preview first, not
    // the list's whole text before it (which rmcp writes for a value it leaves out).
    let artifacts = tool_core::Artifacts::over(8).preview_bytes(4);
    let registry = Registry::builder().tool(TagsList).build().unwrap();
    let server = McpServer::new(registry.with_artifacts(artifacts));
    let call = json!({"name": "tags_list", "arguments": {}});
    let mut client = LineClient::connect(server.clone()).await;
    let older = client.request("tools/call", call.clone()).await;
    assert_eq!(older.get("structuredContent"), None, "{older}");
    let preview = older["content"][0]["text"].as_str().unwrap_or_default();
    assert!(preview.starts_with("the output is "), "{older}");
    assert!(!older.to_string().contains(r#"\"uses\":2"#), "{older}");
    let mut client = LineClient::connect_current(server);
    let current = client.request("tools/call", call).await;
    assert_eq!(current["structuredContent"], tags(), "{current}");
    let text = current["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("the output is "), "{current}");
}

/// What `command`, a client script, saw of a fresh server over HTTP when it called `tags_list`.
async fn drive(command: Command, what: &'static str) -> Value {
    HttpServer::client_saw(server(), command, "tags_list", &json!({}), what).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_s_client_takes_the_list_in_both_revisions() {
    // The script lists the tool and calls it in each mode: `auto` (2026-07-28 with this
    // server, whose client holds the result to the schema it was shown) and `legacy`.
    let command = clients::python_client("mcp_artifacts.py");
    let seen = drive(command, "the Python SDK's client").await;
    let current = &seen["auto"];
    assert!(current.get("error").is_none(), "{seen}");
    assert_eq!(current["output_schema"]["type"], "array", "{seen}");
    assert_eq!(current["result"]["structuredContent"], tags(), "{seen}");
    let legacy = &seen["legacy"];
    assert!(legacy.get("error").is_none(), "{seen}");
    assert_eq!(legacy["output_schema"], Value::Null, "{seen}");
    assert_eq!(legacy["result"].get("structuredContent"), None, "{seen}");
    assert_eq!(legacy["result"]["content"][0]["text"], tags().to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_s_client_takes_the_list_as_text() {
    // Its default `Client` speaks 2025-11-25, and throws for a result of a tool listed with an
    // `outputSchema` that carries no object as `structuredContent`.
    let command = clients::node_client("mcp_artifacts.mjs");
    let seen = drive(command, "the TypeScript SDK's client").await;
    assert!(seen.get("error").is_none(), "{seen}");
    assert_eq!(seen["output_schema"], Value::Null, "{seen}");
    assert_eq!(seen["result"]["content"][0]["text"], tags().to_string());
}
