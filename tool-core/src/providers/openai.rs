//! OpenAI: function tools, `tool_calls` entries and `tool` messages (chat completions).

use serde_json::{Value, json};

use super::{ExportError, Provider, bad_call, inlined, string_field};
use crate::call::{Arguments, ToolCall};
use crate::dialect::{self, Recursion};
use crate::refusal::Refusal;
use crate::tool::ToolDefinition;

/// A function tool: `{"type": "function", "function": {name, description, parameters,
/// strict}}`.
///
/// Strict mode is on when the schema can meet its rules, and off otherwise: see
/// [`strictness`].
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    let (parameters, strict) = match strictness(definition)? {
        Ok(strict) => (strict, true),
        Err(_) => (
            inlined(definition, Provider::OpenAi, Recursion::KeepRef)?,
            false,
        ),
    };
    Ok(json!({
        "type": "function",
        "function": {
            "name": definition.name,
            "description": definition.description,
            "parameters": parameters,
            "strict": strict,
        }
    }))
}

/// The strict-mode parameters of a tool, or why strict mode must be off.
///
/// Strict mode is on when every `$ref` can be inlined (no recursive type), every object can
/// be closed with `additionalProperties: false` (no maps) and the root is a plain object. Then
/// every property is listed in `required` and each optional one made nullable, which this
/// framework's parser reads the same way, since `null` counts as absent; `oneOf` becomes
/// `anyOf` and integer `format`s are dropped. Otherwise the tool is exported with
/// `strict: false` and its schema as it is (inlined).
pub fn strictness(
    definition: &ToolDefinition,
) -> Result<Result<serde_json::Map<String, Value>, String>, ExportError> {
    let inlined = match dialect::inline_refs(&definition.input_schema, Recursion::Refuse) {
        Ok(inlined) => inlined,
        Err(error) => return Ok(Err(format!("{}: {}", error.path, error.problem))),
    };
    Ok(dialect::openai_strict(&inlined))
}

/// Every tool, in order; the first error if any.
pub fn tools(definitions: &[ToolDefinition]) -> Result<Vec<Value>, ExportError> {
    definitions.iter().map(tool).collect()
}

/// Reads one `tool_calls` entry: `{"id", "type": "function", "function": {"name",
/// "arguments": "<JSON text>"}}`.
pub fn read_call(entry: &Value) -> Result<ToolCall, Refusal> {
    const EXPECTED: &str = r#"{"id": "call_...", "type": "function", "function": {"name": "...", "arguments": "{...}"}}"#;
    let function = entry
        .get("function")
        .ok_or_else(|| bad_call("an OpenAI tool call", EXPECTED))?;
    let name =
        string_field(function, "name").ok_or_else(|| bad_call("an OpenAI tool call", EXPECTED))?;
    let id = string_field(entry, "id").unwrap_or_default();
    let arguments = match function.get("arguments") {
        Some(Value::String(text)) => Arguments::from_text(text.as_str()),
        Some(other) => Arguments::from(other),
        None => Arguments::empty(),
    };
    Ok(ToolCall::new(id, name, arguments))
}

/// A `tool` message answering the call: `{"role": "tool", "tool_call_id", "content"}`, the
/// content being the output's text or the refusal's text form.
pub fn write_result(result: &crate::ToolResult) -> Value {
    json!({
        "role": "tool",
        "tool_call_id": result.id,
        "content": result.text(),
    })
}
