//! MCP: `tools/list` entries, `tools/call` params, `CallToolResult`s (protocol 2025-11-25).

use serde_json::{Map, Value, json};

use super::{ExportError, Provider, bad_call, inlined, string_field};
use crate::call::{Arguments, ToolCall};
use crate::dialect::Recursion;
use crate::output::Output;
use crate::refusal::Refusal;
use crate::tool::ToolDefinition;

/// A `tools/list` entry: `name`, `title`, `description`, `inputSchema`, `outputSchema` and
/// `annotations`.
///
/// Annotations say `readOnlyHint` always, and `destructiveHint`, `idempotentHint` and
/// `openWorldHint` only when the tool claims them: left out, MCP clients assume the cautious
/// defaults (may destroy, reaches the outside world), which is right for a tool that said
/// nothing.
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    let input_schema = inlined(definition, Provider::Mcp, Recursion::KeepRef)?;
    let mut entry = Map::new();
    entry.insert("name".into(), definition.name.clone().into());
    if let Some(title) = &definition.title {
        entry.insert("title".into(), title.clone().into());
    }
    entry.insert("description".into(), definition.description.clone().into());
    entry.insert("inputSchema".into(), Value::Object(input_schema));
    if let Some(output_schema) = &definition.output_schema {
        let output_schema = crate::dialect::exportable(output_schema, Recursion::KeepRef)
            .map_err(|error| ExportError::new(definition, Some(Provider::Mcp), error))?;
        entry.insert("outputSchema".into(), Value::Object(output_schema));
    }
    let hints = definition.annotations;
    let mut annotations = Map::new();
    if let Some(title) = &definition.title {
        annotations.insert("title".into(), title.clone().into());
    }
    annotations.insert("readOnlyHint".into(), hints.read_only.into());
    for (claimed, key) in [
        (hints.destructive, "destructiveHint"),
        (hints.idempotent, "idempotentHint"),
        (hints.open_world, "openWorldHint"),
    ] {
        if claimed {
            annotations.insert(key.into(), true.into());
        }
    }
    entry.insert("annotations".into(), Value::Object(annotations));
    Ok(Value::Object(entry))
}

/// Every tool's entry, in order, as `tools/list` returns them; the first error if any.
pub fn tools(definitions: &[ToolDefinition]) -> Result<Vec<Value>, ExportError> {
    definitions.iter().map(tool).collect()
}

/// Reads `tools/call` params (`{"name": ..., "arguments": {...}}`) into a call with the
/// request's `id`.
pub fn read_call(params: &Value, id: impl Into<String>) -> Result<ToolCall, Refusal> {
    let name = string_field(params, "name").ok_or_else(|| {
        bad_call(
            "MCP tools/call params",
            r#"{"name": "...", "arguments": {...}}"#,
        )
    })?;
    let arguments = params
        .get("arguments")
        .map_or_else(Arguments::empty, Arguments::from);
    Ok(ToolCall::new(id, name, arguments))
}

/// A `CallToolResult`: `content` (the text, or the blocks), `structuredContent` for structured
/// output that is an object (with its JSON text as the content too, as MCP asks), and
/// `isError`, true for a refusal, whose text form is the content.
pub fn write_result(result: &crate::ToolResult) -> Value {
    match &result.outcome {
        Err(refusal) => json!({
            "content": [{"type": "text", "text": refusal.to_string()}],
            "isError": true,
        }),
        Ok(output) => {
            let mut written = json!({"content": content(output), "isError": false});
            if let Output::Json(json) = output
                && let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(json.get())
            {
                written["structuredContent"] = value;
            }
            written
        }
    }
}

fn content(output: &Output) -> Vec<Value> {
    match output {
        Output::Empty => Vec::new(),
        Output::Content(blocks) => blocks.iter().map(crate::Content::to_mcp).collect(),
        other => vec![json!({"type": "text", "text": other.as_text()})],
    }
}
