//! A schema written by another serializer than schemars (a remote server's), read as its writer
//! meant it where that serializer broke JSON Schema's form, before any export: a provider checks
//! a tool's schema against JSON Schema's own and refuses the whole request, every tool with it,
//! for one that breaks it (OpenAI: "[] is not of type 'object'", "True is not of type
//! 'array'").
//!
//! Three slips are common in MCP servers and have one reading each: `properties: []`, PHP's
//! empty array for an empty map; `required: null` or `properties: null`, a serializer's absent
//! list or map; and `required: true` on a property, draft-03's way of listing it in its
//! object's `required`. Each is written in today's form, which admits the same calls. They are
//! read before any `$ref` is written out, so that a slip beside a `$ref` does not stand in for
//! the keyword of the schema it points to. A property whose schema is
//! neither an object nor a boolean (`"name": "string"`) has no reading, and is refused, naming
//! it. schemars writes none of these, so for a tool of this crate's own nothing changes.

use serde_json::{Map, Value};

use crate::providers::dialect::{SchemaError, error};
use crate::schema::values::shown;
use crate::schema::walk;

/// Writes `schema`'s slips in today's form, or says where it lists what is no schema for a
/// field (`properties` that are no map, a field's schema that is a text).
pub(crate) fn as_meant(schema: &mut Value) -> Result<(), SchemaError> {
    let mut fault = None;
    walk::every_subschema_mut(schema, &mut String::new(), &mut |map, path| {
        let found = mend(map, path);
        fault = fault.take().or(found);
    });
    match fault {
        Some((path, said)) => Err(error(
            &path,
            format!(
                "this tool's server wrote a schema no provider can be shown: {said}, where JSON \
                 Schema asks for a schema (an object such as {{\"type\": \"string\"}}, or a \
                 boolean) for each field; ask the server's authors to mend it, or leave the tool \
                 out of the registry (`RemoteToolkit::without`)"
            ),
        )),
        None => Ok(()),
    }
}

/// Mends the slips of one schema object (at `path`); what it lists that is no schema for a
/// field, with that field's path, if anything.
fn mend(map: &mut Map<String, Value>, path: &str) -> Option<(String, String)> {
    if !matches!(map.get("required"), None | Some(Value::Array(_))) {
        map.shift_remove("required");
    }
    let properties = match map.get_mut("properties")? {
        Value::Object(properties) => properties,
        Value::Null => {
            map.shift_remove("properties");
            return None;
        }
        Value::Array(items) if items.is_empty() => {
            map.insert("properties".into(), Value::Object(Map::new()));
            return None;
        }
        other => {
            let said = format!(
                "the `properties` it lists for the object are {}",
                shown(other)
            );
            return Some((path.to_owned(), said));
        }
    };
    let fault = (properties.iter())
        .find(|(_, property)| !matches!(property, Value::Object(_) | Value::Bool(_)))
        .map(|(name, property)| {
            let mut field = path.to_owned();
            walk::push_slot(&mut field, walk::Slot::Property(name));
            let said = format!("the schema it lists for the field is {}", shown(property));
            (field, said)
        });
    let listed = required_on_properties(properties);
    if !listed.is_empty()
        && let Value::Array(required) = map
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()))
    {
        for name in listed {
            if !required.iter().any(|named| named == name.as_str()) {
                required.push(name.into());
            }
        }
    }
    fault
}

/// The names of the properties that say draft-03's `required: true` of themselves, each
/// `required` of theirs that is a boolean taken out.
fn required_on_properties(properties: &mut Map<String, Value>) -> Vec<String> {
    let mut listed = Vec::new();
    for (name, property) in properties.iter_mut() {
        let Value::Object(property) = property else {
            continue;
        };
        if let Some(Value::Bool(required)) = property.get("required") {
            if *required {
                listed.push(name.clone());
            }
            property.shift_remove("required");
        }
    }
    listed
}
