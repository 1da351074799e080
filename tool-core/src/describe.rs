//! A plain-text description of tools, for hosts that list tools in a prompt rather than in a
//! provider's tool field.

use std::fmt::Write as _;

use serde_json::{Map, Value};

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
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            fields(&mut out, properties, schema, schema, 1);
        }
    }
    out
}

/// How deep nested fields are listed; deeper ones are left to the type's name.
const MAX_DEPTH: usize = 3;

/// One line per field of `properties` (of the object `object`), indented by `depth`, with the
/// fields of nested structs below their field.
fn fields(
    out: &mut String,
    properties: &Map<String, Value>,
    object: &Map<String, Value>,
    root: &Map<String, Value>,
    depth: usize,
) {
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|required| required.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let indent = "  ".repeat(depth);
    for (field, property) in properties {
        let kind = crate::args::describe(property, root);
        let need = if required.contains(&field.as_str()) {
            "required"
        } else {
            "optional"
        };
        let _ = write!(out, "{indent}{field} ({kind}, {need})");
        match property.get("description").and_then(Value::as_str) {
            Some(description) => {
                let _ = writeln!(out, ": {}", indent_lines(description, depth + 1));
            }
            None => out.push('\n'),
        }
        if depth < MAX_DEPTH
            && let Some(nested) = struct_of(property, root)
            && let Some(nested_properties) = nested.get("properties").and_then(Value::as_object)
        {
            fields(out, nested_properties, nested, root, depth + 1);
        }
    }
}

/// The struct a field holds, directly, through a `$ref`, as the items of an array, or as the
/// one non-null branch of an optional. Gives up after a few hops, so that a schema whose
/// `$ref`s go round in a circle (a remote server's, say) cannot loop.
fn struct_of<'a>(
    schema: &'a Value,
    root: &'a Map<String, Value>,
) -> Option<&'a Map<String, Value>> {
    struct_within(schema, root, 8)
}

fn struct_within<'a>(
    schema: &'a Value,
    root: &'a Map<String, Value>,
    hops: usize,
) -> Option<&'a Map<String, Value>> {
    let hops = hops.checked_sub(1)?;
    let map = schema.as_object()?;
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/$defs/")?;
        return struct_within(root.get("$defs")?.get(name)?, root, hops);
    }
    if let Some(items) = map.get("items") {
        return struct_within(items, root, hops);
    }
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        let mut solid = branches
            .iter()
            .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"));
        return match (solid.next(), solid.next()) {
            (Some(only), None) => struct_within(only, root, hops),
            _ => None,
        };
    }
    map.contains_key("properties").then_some(map)
}

/// Keeps a multi-line description inside its block.
fn indent(text: &str) -> String {
    indent_lines(text, 1)
}

fn indent_lines(text: &str, depth: usize) -> String {
    text.replace('\n', &format!("\n{}", "  ".repeat(depth + 1)))
}
