//! Define tools, list what they advertise, call them, and see the refusals a model would see.
//!
//! Run with `cargo run --example quickstart`.

mod notes;

use notes::NoteStore;
use serde_json::json;
use tool_core::{Context, ToolCall};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // What a model is not shown (a handler's error, a panic's text) goes to the host's log.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let registry = notes::registry();
    let ctx = Context::new().with_extension(NoteStore::default());

    println!("== what the registry advertises ==");
    println!(
        "{}",
        serde_json::to_string_pretty(&registry.definitions()).expect("definitions serialize")
    );

    let calls = [
        (
            "a good call",
            ToolCall::new(
                "call-1",
                "note_write",
                json!({"text": "buy milk", "tags": ["shopping"]}),
            ),
        ),
        (
            "arguments as a string, the way OpenAI sends them",
            ToolCall::from_json(
                r#"{"id":"call-2","name":"note_search","arguments":"{\"filter\":{\"tags\":[\"shopping\"]}}"}"#,
            )
            .expect("a readable call"),
        ),
        (
            "a wrong type deep in a nested field, and a second fault",
            ToolCall::new(
                "call-3",
                "note_search",
                json!({"filter": {"tags": ["shopping", 7], "min_revision": "latest"}, "limit": 1000}),
            ),
        ),
        (
            "a field the tool does not have",
            ToolCall::new(
                "call-4",
                "note_write",
                json!({"text": "call mum", "colour": "red"}),
            ),
        ),
        (
            "text that may not be empty",
            ToolCall::new("call-5", "note_write", json!({"text": ""})),
        ),
        (
            "a dry run: everything checked, nothing written",
            ToolCall::new(
                "call-6",
                "note_write",
                json!({"id": 1, "text": "buy oat milk", "revision": 1, "dry_run": true}),
            ),
        ),
        (
            "a stale revision: the note changed since the caller read it",
            ToolCall::new(
                "call-7",
                "note_write",
                json!({"id": 1, "text": "buy oat milk", "revision": 0}),
            ),
        ),
        (
            "a tool that does not exist",
            ToolCall::new("call-8", "note_delete", json!({"id": 1})),
        ),
        (
            "no arguments at all",
            ToolCall::new("call-9", "note_count", serde_json::Value::Null),
        ),
    ];

    for (what, call) in calls {
        println!(
            "\n== {what}: {} ==",
            serde_json::to_string(&call).expect("calls serialize")
        );
        let result = registry.call(call, &ctx).await;
        println!("{}", result.text());
    }
}
