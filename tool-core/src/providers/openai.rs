//! OpenAI: function tools, `tool_calls` entries and `tool` messages (chat completions).

use serde_json::{Map, Value, json};

use super::{ExportError, Provider, all_of, bad_call, inlined, string_field};
use crate::call::arguments::Arguments;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::Refusal;
use crate::providers::inline::{self, Recursion};
use crate::providers::strict;
use crate::schema::{keywords, walk};
use crate::tool::definition::ToolDefinition;

/// A function tool: `{"type": "function", "function": {name, description, parameters,
/// strict}}`.
///
/// Strict mode is on when the schema can meet its rules, and off otherwise: when a `$ref`
/// cannot be inlined (a recursive type), an object cannot be closed with
/// `additionalProperties: false` (a map), a field may be a value of any type, a keyword
/// decides which values fit in a way strict mode has no form for (`not`, `allOf`, a condition,
/// a tuple's positions), the schema is past OpenAI's limits (5000 properties, 1000 `enum`
/// values, 10 levels of nested objects), or the root is not a plain object (a union, shown as one object of every
/// variant's fields, where strict mode would ask for them all, and each variant refuses the
/// others' fields, `null` or not). With it on, every property is listed in `required` and
/// each optional one made nullable, which this framework's parser reads the same way, since
/// `null` counts as absent; `oneOf` becomes `anyOf` and integer `format`s are dropped; a rule
/// strict mode cannot hold (a text's length, items not repeated, a count of fields, a format
/// or pattern OpenAI does not know) or a default is said in the field's description instead,
/// the parser still holding each call to it, and other keywords OpenAI would refuse the
/// request for are left out. With it off, the schema is exported as it is (inlined), but for
/// what OpenAI asks of every schema: `properties` at the root and `items` in every array.
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    // A remote tool whose arguments are no object is refused below, by `inlined`.
    let strict = inline::exportable(&definition.input_schema, Recursion::Refuse)
        .ok()
        .filter(|inlined| super::no_object_elsewhere(definition, inlined).is_none())
        // An intersection of objects at the top is the one object of their fields.
        .map(|inlined| all_of::one_object(&inlined).unwrap_or(inlined))
        .and_then(|inlined| match strict::openai_strict(&inlined) {
            Ok(strict) => Some(strict),
            Err(reason) => {
                // Why a tool is exported without strict mode, for whoever wonders.
                tracing::debug!(tool = %definition.name, %reason, "OpenAI's strict mode is off");
                None
            }
        });
    let (parameters, strict) = match strict {
        Some(strict) => (Value::Object(strict), true),
        None => {
            let mut schema =
                Value::Object(inlined(definition, Provider::OpenAi, Recursion::KeepRef)?);
            what_openai_asks_of_any(&mut schema);
            (schema, false)
        }
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

/// What OpenAI asks of a tool's parameters with strict mode off too, refusing the whole
/// request without it: an object at the root that lists its `properties` ("object schema
/// missing properties", of a tool that takes no arguments, `{"type": "object"}`, as many MCP
/// servers list one), and `items` for every array ("array schema missing items", of a remote
/// `{"type": "array"}`, or a `type` that names an array among others). Each is added as the
/// schema that admits anything (`{}`), which changes no value's fit: the same call is checked
/// against the tool's own schema. schemars' `items: true` (a `Vec<serde_json::Value>`) is
/// written so too. Strict exports meet both already.
fn what_openai_asks_of_any(schema: &mut Value) {
    if let Value::Object(root) = schema
        && !root.contains_key("properties")
    {
        root.insert("properties".into(), Value::Object(Map::new()));
    }
    walk::every_subschema_mut(schema, &mut String::new(), &mut |map, _| {
        let array = map
            .get("type")
            .is_some_and(|kinds| keywords::names_type(kinds, "array"));
        if array && matches!(map.get("items"), None | Some(Value::Bool(true))) {
            map.insert("items".into(), Value::Object(Map::new()));
        }
    });
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
/// content being the output's text or the refusal's text form, followed by the result's
/// [`notes`](crate::ToolResult::notes).
pub fn write_result(result: &crate::outcome::result::ToolResult) -> Value {
    json!({
        "role": "tool",
        "tool_call_id": result.id,
        "content": result.text(),
    })
}
