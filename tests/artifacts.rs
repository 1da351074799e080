//! Large outputs kept as artifacts: the model gets a preview, the size and a handle, and reads
//! the rest in parts with `artifact_read`, until the artifact expires.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::outcome::{Content, Output};
use tool_core::providers::{anthropic, gemini, mcp, openai};
use tool_core::{Artifacts, Context, Registry, ToolCall, ToolResult, code, tool};
use tool_tests::table::{TableDump, table};

/// Writes a long log.
#[tool(readonly)]
async fn log_dump(lines: u32) -> String {
    (0..lines).map(|n| format!("line {n:04}\n")).collect()
}

/// Lists a table's rows as JSON built by hand: structured output without an output schema.
#[tool(readonly)]
async fn table_raw(rows: u32) -> Output {
    Output::json(&table(rows)).unwrap_or_else(|_| Output::text("unserializable"))
}

fn registry(artifacts: Artifacts) -> Registry {
    Registry::builder()
        .tool(LogDump)
        .tool(TableDump)
        .tool(TableRaw)
        .toolkit(artifacts.reader())
        .build()
        .unwrap()
        .with_artifacts(artifacts)
}

/// The artifact `handle` read whole, part after part.
async fn read_whole(registry: &Registry, ctx: &Context, handle: &str) -> String {
    let mut read = String::new();
    let mut offset = Some(0);
    while let Some(at) = offset {
        let part = call(
            registry,
            ctx,
            "artifact_read",
            json!({"handle": handle, "offset": at}),
        )
        .await;
        let part: Value = serde_json::from_str(&part.text()).unwrap();
        read.push_str(part["text"].as_str().unwrap());
        offset = part["next_offset"].as_u64();
    }
    read
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
    // Long enough for the reads right after the call to come within it on a loaded machine.
    let registry = registry(Artifacts::over(50).ttl(Duration::from_secs(6)));
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

    // Read until its time to live has passed: then it is refused as expired.
    let mut expired = None;
    for () in tool_tests::patiently() {
        let answer = call(&registry, &alice, "artifact_read", read.clone()).await;
        if answer.is_refused() {
            expired = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let expired = expired.expect("the artifact expired");
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

#[tokio::test]
async fn a_large_structured_output_shows_its_preview_and_keeps_its_value_whole() {
    let registry = registry(Artifacts::over(200).preview_bytes(40));
    let ctx = Context::new().with_caller("alice");
    let value = serde_json::to_value(table(20)).unwrap();
    let whole = serde_json::to_string(&table(20)).unwrap();
    assert!(
        registry
            .definitions()
            .iter()
            .any(|definition| definition.name == "table_dump"
                && definition.output_schema.is_some()),
        "the tool has an output schema"
    );

    let result = call(&registry, &ctx, "table_dump", json!({"rows": 20})).await;
    let handle = handle_of(&result);
    assert_eq!(result.notes[0].cells[1], whole.len().to_string());
    let Ok(Output::Content(blocks)) = &result.outcome else {
        panic!("{result:?}");
    };
    let [Content::Structured { value: kept, text }] = blocks.as_slice() else {
        panic!("{blocks:?}");
    };
    assert_eq!(kept, &value, "the value is whole");
    assert!(text.contains(&handle), "{text}");
    assert!(
        text.ends_with(&format!("Its first 40 bytes:\n{}", &whole[..40])),
        "{text}"
    );

    // MCP: the model's text is the preview, the program's structuredContent the whole value.
    let written = mcp::write_result(&result);
    assert_eq!(written["structuredContent"], value, "{written}");
    assert_eq!(written["isError"], false);
    assert_eq!(written["content"][0], json!({"type": "text", "text": text}));
    assert_eq!(
        written["content"][1]["text"],
        format!("artifact\t{handle}\t{}", whole.len())
    );
    assert_eq!(written["content"].as_array().map(Vec::len), Some(2));

    // Providers without a structured channel for the program show the preview alone.
    let shown = result.text();
    assert!(
        shown.starts_with(text.as_str()) && !shown.contains(&whole),
        "{shown}"
    );
    assert_eq!(openai::write_result(&result)["content"], shown);
    let anthropic = anthropic::write_result(&result);
    assert_eq!(
        anthropic["content"][0]["text"],
        text.as_str(),
        "{anthropic}"
    );
    assert!(!anthropic.to_string().contains(&whole[..100]));
    let gemini = gemini::write_result(&result);
    assert_eq!(gemini["functionResponse"]["response"]["output"], shown);

    // artifact_read hands out the whole JSON text.
    assert_eq!(read_whole(&registry, &ctx, &handle).await, whole);
}

#[tokio::test]
async fn a_large_structured_output_without_an_output_schema_is_kept_the_same_way() {
    let registry = registry(Artifacts::over(200));
    let ctx = Context::default();
    let value = serde_json::to_value(table(20)).unwrap();
    let result = call(&registry, &ctx, "table_raw", json!({"rows": 20})).await;
    let handle = handle_of(&result);
    let written = mcp::write_result(&result);
    assert_eq!(written["structuredContent"], value, "{written}");
    let text = written["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(&handle), "{text}");
    assert!(!text.contains(&value.to_string()), "{text}");
    assert_eq!(
        read_whole(&registry, &ctx, &handle).await,
        value.to_string()
    );
}

#[tokio::test]
async fn a_small_structured_output_is_sent_whole() {
    let registry = registry(Artifacts::over(200));
    let result = call(
        &registry,
        &Context::default(),
        "table_dump",
        json!({"rows": 1}),
    )
    .await;
    let value = serde_json::to_value(table(1)).unwrap();
    assert!(result.notes.is_empty());
    assert_eq!(result.outcome, Output::json(&value));
    let written = mcp::write_result(&result);
    assert_eq!(written["structuredContent"], value);
    assert_eq!(written["content"][0]["text"], value.to_string());
}
