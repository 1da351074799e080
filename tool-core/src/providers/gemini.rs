//! Gemini: function declarations, `functionCall` parts and `functionResponse` parts.

use serde_json::{Map, Value, json};

use super::{ExportError, Provider, bad_call, inlined, string_field};
use crate::call::arguments::Arguments;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::Refusal;
use crate::providers::gemini_schema::{self, GeminiForm};
use crate::providers::inline::Recursion;
use crate::tool::definition::ToolDefinition;

/// A function declaration: `{"name", "description", "parameters"}` in Gemini's OpenAPI subset
/// (see the module docs of [`providers`](super)); `parameters` is left out for a tool that
/// takes nothing. A schema with a part the subset has no form for, and Gemini refuses (a map,
/// a list of anything, a value of any type), is sent as JSON Schema in `parametersJsonSchema`,
/// which Gemini takes in its place; so is a recursive type (or one written out in full would be
/// copied past reason), with its definitions and the `$ref`s to them, which the subset has no
/// form for.
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    let schema = inlined(definition, Provider::Gemini, Recursion::KeepRef)?;
    let form = gemini_schema::gemini(&schema)
        .map_err(|error| ExportError::new(definition, Some(Provider::Gemini), error))?;
    let mut declaration = Map::new();
    declaration.insert("name".into(), definition.name.clone().into());
    declaration.insert("description".into(), definition.description.clone().into());
    match form {
        GeminiForm::JsonSchema(schema) => {
            declaration.insert(JSON_SCHEMA_KEY.into(), Value::Object(schema));
        }
        GeminiForm::Subset(parameters) => {
            if !gemini_schema::lists_no_properties(&parameters) {
                declaration.insert("parameters".into(), Value::Object(parameters));
            }
        }
    }
    Ok(Value::Object(declaration))
}

/// The field of a declaration that holds its parameters as JSON Schema, in place of
/// `parameters`.
pub(crate) const JSON_SCHEMA_KEY: &str = "parametersJsonSchema";

/// Reads a `functionCall` part (`{"functionCall": {"name", "args", "id"?}}`) or the
/// `functionCall` object itself.
pub fn read_call(part: &Value) -> Result<ToolCall, Refusal> {
    const EXPECTED: &str = r#"{"functionCall": {"name": "...", "args": {...}}}"#;
    let call = part.get("functionCall").unwrap_or(part);
    let name =
        string_field(call, "name").ok_or_else(|| bad_call("a Gemini functionCall", EXPECTED))?;
    let id = string_field(call, "id").unwrap_or_default();
    let args = call
        .get("args")
        .map_or_else(Arguments::empty, Arguments::from);
    Ok(ToolCall::new(id, name, args))
}

/// A `functionResponse` part: `{"functionResponse": {"name", "id"?, "response": {"output":
/// ...}}}`, or `{"error": "<refusal text>"}` in `response` for a refusal. Structured output
/// goes as JSON, everything else as text. The result's [`notes`](crate::ToolResult::notes)
/// follow the text, or, beside structured output, are `"notes": "<lines>"` in `response`.
pub fn write_result(result: &crate::outcome::result::ToolResult) -> Value {
    let response = match &result.outcome {
        Ok(crate::outcome::output::Output::Json(json)) => {
            let mut response = json!({
                "output": serde_json::from_str::<Value>(json.get()).unwrap_or(Value::Null)
            });
            if !result.notes.is_empty() {
                response["notes"] = result.notes_text().into();
            }
            response
        }
        Ok(_) => json!({"output": result.text()}),
        Err(_) => json!({"error": result.text()}),
    };
    let mut function_response = json!({"name": result.name, "response": response});
    if !result.id.is_empty() {
        function_response["id"] = result.id.clone().into();
    }
    json!({"functionResponse": function_response})
}
