//! Large outputs kept as artifacts: the model gets a preview, the size and a handle, and reads
//! the rest in parts with `artifact_read`, until the artifact expires.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{Artifacts, Context, Registry, ToolCall, ToolResult, code, tool};

/// Writes a long log.
#[tool(readonly)]
async fn log_dump(lines: u32) -> String {
    (0..lines).map(|n| format!("line {n:04}\n")).collect()
}

fn registry(artifacts: Artifacts) -> Registry {
    Registry::builder()
        .tool(LogDump)
        .toolkit(artifacts.reader())
        .build()
        .unwrap()
        .with_artifacts(artifacts)
}

async fn call(registry: &Registry, ctx: &Context, name: &str, arguments: Value) -> ToolResult {
    registry
        .call(ToolCall::new("c", name, arguments), ctx)
        .await
}

fn handle_of(result: &ToolResult) -> String {
    let line = result
        .notes
        .iter()
        .find(|line| line.label == "artifact")
        .expect("an artifact line");
    line.cells[0].clone()
}

#[tokio::test]
async fn a_large_output_is_kept_and_read_back_in_parts() {
    let registry = registry(Artifacts::over(100).preview_bytes(20));
    let ctx = Context::new().with_caller("alice");
    let whole: String = (0..30).map(|n| format!("line {n:04}\n")).collect();

    let result = call(&registry, &ctx, "log_dump", json!({"lines": 30})).await;
    let shown = result.text();
    let handle = handle_of(&result);
    assert_eq!(result.notes[0].cells[1], whole.len().to_string());
    assert!(shown.contains(&handle), "{shown}");
    assert!(shown.contains("300 bytes"), "{shown}");
    assert!(
        shown.contains(&whole[..20]) && !shown.contains(&whole[..21]),
        "{shown}"
    );

    let mut read = String::new();
    let mut offset = Some(0);
    while let Some(at) = offset {
        let part = call(
            &registry,
            &ctx,
            "artifact_read",
            json!({"handle": handle, "offset": at}),
        )
        .await;
        let part: Value = serde_json::from_str(&part.text()).unwrap();
        assert_eq!(part["size"], 300);
        let text = part["text"].as_str().unwrap();
        assert!(text.len() <= 100);
        read.push_str(text);
        offset = part["next_offset"].as_u64();
    }
    assert_eq!(read, whole);
}

#[tokio::test]
async fn a_small_output_is_shown_whole() {
    let registry = registry(Artifacts::over(100));
    let result = call(
        &registry,
        &Context::default(),
        "log_dump",
        json!({"lines": 2}),
    )
    .await;
    assert_eq!(result.text(), "line 0000\nline 0001\n");
    assert!(result.notes.is_empty());
}

#[tokio::test]
async fn an_artifact_is_read_only_by_its_caller_and_only_until_it_expires() {
    let registry = registry(Artifacts::over(50).ttl(Duration::from_millis(200)));
    let alice = Context::new().with_caller("alice");
    let result = call(&registry, &alice, "log_dump", json!({"lines": 10})).await;
    let handle = handle_of(&result);
    let read = json!({"handle": handle, "offset": 10, "length": 5});

    let part = call(&registry, &alice, "artifact_read", read.clone()).await;
    assert_eq!(
        serde_json::from_str::<Value>(&part.text()).unwrap()["text"],
        "line "
    );
    let bob = Context::new().with_caller("bob");
    let refused = call(&registry, &bob, "artifact_read", read.clone()).await;
    assert_eq!(refused.refusal().unwrap().code, code::UNKNOWN_ARTIFACT);

    tokio::time::sleep(Duration::from_millis(300)).await;
    let expired = call(&registry, &alice, "artifact_read", read).await;
    let refusal = expired.refusal().unwrap();
    assert_eq!(refusal.code, code::UNKNOWN_ARTIFACT);
    assert!(refusal.message.contains("expired"), "{refusal}");
}

#[tokio::test]
async fn a_made_up_handle_is_refused() {
    let registry = registry(Artifacts::over(50));
    let ctx = Context::default();
    let refused = call(
        &registry,
        &ctx,
        "artifact_read",
        json!({"handle": "artifact-0"}),
    )
    .await;
    assert_eq!(refused.refusal().unwrap().code, code::UNKNOWN_ARTIFACT);
}
