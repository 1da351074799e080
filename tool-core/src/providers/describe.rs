//! A plain-text description of tools, for hosts that list tools in a prompt rather than in a
//! provider's tool field.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::schema::Words;
use crate::schema::walk::{self, MAX_NESTED_SCHEMAS, Root, Slot};
use crate::tool::definition::ToolDefinition;

/// One block per tool: its name, its tags in brackets if it has any, and its description, then one line per parameter with its type,
/// the rules it keeps beyond its type (bounds, lengths, patterns), whether it is required,
/// and its description.
///
/// ```text
/// note_write [notes, write]: Writes a note.
///   text (string, required): The note's text.
///   revision (u64 or null, optional): The revision the caller last read.
/// ```
pub(crate) fn describe(definitions: &[ToolDefinition]) -> String {
    let mut out = String::new();
    for (position, definition) in definitions.iter().enumerate() {
        if position > 0 {
            out.push('\n');
        }
        out.push_str(&definition.name);
        if !definition.tags.is_empty() {
            let _ = write!(out, " [{}]", definition.tags.join(", "));
        }
        let _ = writeln!(out, ": {}", indent(&definition.description));
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
        let words = Words::new(root);
        let kind = words.of(property);
        let need = if required.contains(&field.as_str()) {
            "required"
        } else {
            "optional"
        };
        match words.rules(property) {
            Some(rules) => write!(out, "{indent}{field} ({kind}, {rules}, {need})"),
            None => write!(out, "{indent}{field} ({kind}, {need})"),
        }
        .unwrap_or_default();
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
/// one non-null branch of an optional. Gives up after [`MAX_NESTED_SCHEMAS`] hops, so that a
/// schema whose `$ref`s go round in a circle (a remote server's, say) cannot loop.
fn struct_of<'a>(
    schema: &'a Value,
    root: &'a Map<String, Value>,
) -> Option<&'a Map<String, Value>> {
    let root = Root::new(root);
    let mut schema = schema;
    for _ in 0..MAX_NESTED_SCHEMAS {
        let map = schema.as_object()?;
        schema = match map.get("$ref").and_then(Value::as_str) {
            Some(reference) => root.resolve(reference)?,
            None => match held(map) {
                Some(held) => held,
                None => return map.contains_key("properties").then_some(map),
            },
        };
    }
    None
}

/// The one schema that a field of this schema's type holds a struct through: its items, or
/// its one branch that is not `null`.
fn held(map: &Map<String, Value>) -> Option<&Value> {
    let mut items = None;
    let mut solid = Vec::new();
    let _ = walk::children::<()>(map, |slot, child| {
        match slot {
            Slot::Items => items = Some(child),
            Slot::Branch if child.get("type").and_then(Value::as_str) != Some("null") => {
                solid.push(child)
            }
            _ => {}
        }
        Ok(())
    });
    match (items, solid.as_slice()) {
        (Some(items), _) => Some(items),
        (None, [only]) => Some(*only),
        _ => None,
    }
}

/// Keeps a multi-line description inside its block.
fn indent(text: &str) -> String {
    indent_lines(text, 1)
}

fn indent_lines(text: &str, depth: usize) -> String {
    text.replace('\n', &format!("\n{}", "  ".repeat(depth + 1)))
}
