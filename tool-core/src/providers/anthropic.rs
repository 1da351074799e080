//! Anthropic: tools, `tool_use` blocks and `tool_result` blocks (Messages API).

use serde_json::{Value, json};

use super::{ExportError, Provider, bad_call, inlined, string_field};
use crate::call::arguments::Arguments;
use crate::call::tool_call::ToolCall;
use crate::outcome::content::Content;
use crate::outcome::output::Output;
use crate::outcome::refusal::Refusal;
use crate::providers::inline::Recursion;
use crate::tool::definition::ToolDefinition;

/// A tool: `{"name", "description", "input_schema"}`.
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    let input_schema = inlined(definition, Provider::Anthropic, Recursion::KeepRef)?;
    Ok(json!({
        "name": definition.name,
        "description": definition.description,
        "input_schema": input_schema,
    }))
}

/// Reads a `tool_use` block: `{"type": "tool_use", "id", "name", "input": {...}}`.
pub fn read_call(block: &Value) -> Result<ToolCall, Refusal> {
    const EXPECTED: &str =
        r#"{"type": "tool_use", "id": "toolu_...", "name": "...", "input": {...}}"#;
    if block.get("type").and_then(Value::as_str) != Some("tool_use") {
        return Err(bad_call("an Anthropic tool_use block", EXPECTED));
    }
    let name = string_field(block, "name")
        .ok_or_else(|| bad_call("an Anthropic tool_use block", EXPECTED))?;
    let id = string_field(block, "id").unwrap_or_default();
    let input = block
        .get("input")
        .map_or_else(Arguments::empty, Arguments::from);
    Ok(ToolCall::new(id, name, input))
}

/// A `tool_result` block: `{"type": "tool_result", "tool_use_id", "content", "is_error"}`.
/// Text, structured output (as JSON text) and refusals (in their text form) are text content;
/// images are image blocks; audio and links, which Anthropic does not take, are described in
/// text. The result's [`notes`](crate::ToolResult::notes) follow the text, or the blocks as
/// one more text block.
pub fn write_result(result: &crate::outcome::result::ToolResult) -> Value {
    let content = match &result.outcome {
        Ok(Output::Content(blocks)) => {
            let mut blocks: Vec<Value> = blocks.iter().map(block).collect();
            if !result.notes.is_empty() {
                blocks.push(json!({"type": "text", "text": result.notes_text()}));
            }
            Value::Array(blocks)
        }
        _ => Value::String(result.text()),
    };
    json!({
        "type": "tool_result",
        "tool_use_id": result.id,
        "content": content,
        "is_error": result.is_refused(),
    })
}

fn block(content: &Content) -> Value {
    use base64::Engine as _;
    match content {
        Content::Image { data, mime_type } => json!({
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": mime_type,
                "data": base64::engine::general_purpose::STANDARD.encode(data),
            }
        }),
        other => json!({"type": "text", "text": other.as_text()}),
    }
}
