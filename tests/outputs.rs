//! What handlers return: structured output, text, nothing, content blocks, and outputs that do
//! not match their own schema.

use std::borrow::Cow;

use serde_json::json;
use tool_core::outcome::{Content, Output};
use tool_core::{Context, Registry, ToolCall, registry, tool};
use tool_tests::tags::{TagsCount, TagsList, tags};

/// A count whose `Serialize` disagrees with its `JsonSchema`: the schema says integer, the
/// JSON is a string.
struct Lying {
    count: u32,
}

impl serde::Serialize for Lying {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("Lying", 1)?;
        state.serialize_field("count", &self.count.to_string())?;
        state.end()
    }
}

impl schemars::JsonSchema for Lying {
    fn schema_name() -> Cow<'static, str> {
        "Lying".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "properties": {"count": {"type": "integer", "format": "uint32"}},
            "required": ["count"]
        })
    }
}

/// Counts, wrongly.
#[tool(readonly)]
async fn count_lying() -> Lying {
    Lying { count: 3 }
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Honest {
    count: u32,
    note: Option<String>,
}

/// Counts.
#[tool(readonly)]
async fn count_honest() -> Honest {
    Honest {
        count: 3,
        note: None,
    }
}

/// Says hi.
#[tool(readonly)]
fn say_hi() -> &'static str {
    "hi"
}

/// Does nothing.
#[tool]
async fn do_nothing() {}

/// Links a file.
#[tool(readonly)]
async fn file_link() -> Content {
    Content::resource_link("file:///notes/1.md", "1.md")
}

/// Plays a sound.
#[tool(readonly)]
async fn sound_play() -> Result<Vec<Content>, std::io::Error> {
    Ok(vec![Content::audio(vec![1, 2, 3], "audio/wav")])
}

fn registry() -> Registry {
    registry![
        CountLying,
        CountHonest,
        SayHi,
        DoNothing,
        FileLink,
        SoundPlay
    ]
}

async fn call(name: &str) -> tool_core::ToolResult {
    registry()
        .call(ToolCall::new("1", name, json!({})), &Context::default())
        .await
}

#[tokio::test]
async fn an_output_that_does_not_match_its_schema_is_reported_in_debug_builds() {
    let result = call("count_lying").await;
    if cfg!(debug_assertions) {
        let refusal = result.refusal().expect("the mismatch is reported");
        assert_eq!(refusal.code, "internal");
        let fault = refusal.find_line("fault").unwrap();
        assert_eq!(fault.cells, ["count", "expected u32, received \"3\""]);
    } else {
        assert_eq!(result.text(), r#"{"count":"3"}"#);
    }
}

#[tokio::test]
async fn a_matching_output_passes_with_null_fields_kept() {
    let result = call("count_honest").await;
    assert_eq!(result.text(), r#"{"count":3,"note":null}"#);
}

#[tokio::test]
async fn text_nothing_and_content_blocks_are_outputs() {
    assert_eq!(call("say_hi").await.outcome, Ok(Output::Text("hi".into())));
    assert_eq!(call("do_nothing").await.outcome, Ok(Output::Empty));
    let link = call("file_link").await;
    assert_eq!(link.text(), "[1.md](file:///notes/1.md)");
    let sound = call("sound_play").await;
    assert_eq!(
        serde_json::to_value(&sound).unwrap()["output"],
        json!([{"type": "audio", "data": "AQID", "mimeType": "audio/wav"}])
    );
    let definitions = registry().definitions();
    let schemas: Vec<bool> = definitions
        .iter()
        .map(|definition| definition.output_schema.is_some())
        .collect();
    assert_eq!(schemas, [true, true, false, false, false, false]);
}

/// Reads anything at all.
#[tool(readonly)]
async fn anything_read() -> serde_json::Value {
    json!([1, "two"])
}

/// Any JSON, described.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Anything(serde_json::Value);

/// Reads anything at all, described.
#[tool(readonly)]
async fn anything_described() -> Anything {
    Anything(json!(7))
}

#[tokio::test]
async fn structured_output_of_a_list_or_a_number_has_its_schema_and_is_structured_content() {
    // MCP 2026-07-28 (SEP-2106): an output schema and `structuredContent` of any JSON.
    let registry = registry![TagsList, TagsCount, AnythingRead, AnythingDescribed];
    let definitions = registry.definitions();
    let schema = |name: &str| {
        let definition = definitions.iter().find(|tool| tool.name == name).unwrap();
        definition
            .output_schema
            .clone()
            .map(serde_json::Value::Object)
    };
    let list = schema("tags_list").expect("a list's schema");
    assert_eq!(list["type"], "array", "{list}");
    assert_eq!(schema("tags_count").expect("a number's")["type"], "integer");
    // A value of any JSON says nothing a schema could.
    assert_eq!(schema("anything_read"), None);
    assert_eq!(schema("anything_described"), None);
    let exported = registry.export(tool_core::Provider::Mcp).unwrap();
    let listed = |name: &str| {
        let tool = exported.iter().find(|tool| tool["name"] == name).unwrap();
        tool.get("outputSchema").cloned()
    };
    assert_eq!(listed("tags_list").expect("shown")["type"], "array");
    assert_eq!(listed("tags_count").expect("shown")["type"], "integer");
    assert_eq!(listed("anything_read"), None);
    let ctx = Context::default();
    let answer = registry
        .call(ToolCall::new("1", "tags_list", json!({})), &ctx)
        .await;
    let written = tool_core::providers::mcp::write_result(&answer);
    assert_eq!(written["structuredContent"], tags());
    assert_eq!(written["content"][0]["text"], tags().to_string());
}
