//! A plain-text description of tools, for hosts that list tools in a prompt rather than in a
//! provider's tool field.

use std::fmt::Write as _;

use serde_json::Value;

use crate::tool::ToolDefinition;

/// One block per tool: its name and description, then one line per parameter with its type,
/// whether it is required, and its description.
///
/// ```text
/// note_write: Writes a note.
///   text (string, required): The note's text.
///   revision (u64 or null, optional): The revision the caller last read.
/// ```
pub(crate) fn describe(definitions: &[ToolDefinition]) -> String {
    let mut out = String::new();
    for (position, definition) in definitions.iter().enumerate() {
        if position > 0 {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{}: {}",
            definition.name,
            indent(&definition.description)
        );
        let schema = &definition.input_schema;
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|required| required.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            continue;
        };
        for (field, property) in properties {
            let kind = crate::args::describe(property, schema);
            let need = if required.contains(&field.as_str()) {
                "required"
            } else {
                "optional"
            };
            let _ = write!(out, "  {field} ({kind}, {need})");
            match property.get("description").and_then(Value::as_str) {
                Some(description) => {
                    let _ = writeln!(out, ": {}", indent(description));
                }
                None => out.push('\n'),
            }
        }
    }
    out
}

/// Keeps a multi-line description inside its block.
fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}
