//! SEP-2243's `x-mcp-header`: a field of a tool's arguments that a 2026-07-28 client also
//! sends as an `Mcp-Param-{name}` HTTP header, for proxies to route on, and that the server
//! holds to the argument. A client drops a tool whose annotation it cannot send, so the
//! registry refuses one when it is made: the annotation must name a header (an HTTP token,
//! once per tool, whatever its case), on a field of one plain type reached from the root
//! through `properties` alone.

use serde_json::{Map, Value};

/// The keyword.
const KEYWORD: &str = "x-mcp-header";

/// Every `x-mcp-header` in `schema` that no client could send, with the path of its field
/// and what to write instead.
pub(crate) fn unsendable(schema: &Map<String, Value>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if schema.contains_key(KEYWORD) {
        found.push((
            shown(&[]),
            format!("`{KEYWORD}` names the header of one field; put it on the field"),
        ));
    }
    let mut named = Vec::new();
    on_chain(schema, &mut Vec::new(), &mut named, &mut found);
    off_chain(schema, &mut Vec::new(), &mut found);
    found
}

/// The annotations on fields reached through `properties` alone.
fn on_chain(
    schema: &Map<String, Value>,
    path: &mut Vec<String>,
    named: &mut Vec<String>,
    found: &mut Vec<(String, String)>,
) {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    for (field, property) in properties {
        let Value::Object(property) = property else {
            continue;
        };
        path.push(field.clone());
        if let Some(header) = property.get(KEYWORD)
            && let Some(problem) = problem_of(header, property, named)
        {
            found.push((shown(path), problem));
        }
        on_chain(property, path, named, found);
        // What is off the chain below this field is found by `off_chain` from the root.
        path.pop();
    }
}

/// What is wrong with the annotation `header` on `property`, if anything.
fn problem_of(
    header: &Value,
    property: &Map<String, Value>,
    named: &mut Vec<String>,
) -> Option<String> {
    let Value::String(header) = header else {
        return Some(format!("`{KEYWORD}` must be the header's name, as text"));
    };
    if header.is_empty() || !header.bytes().all(is_token_byte) {
        return Some(format!(
            "`{KEYWORD}` \"{header}\" is not an HTTP header name: use letters, digits and \
             `-` (such as \"Region\")"
        ));
    }
    if named.iter().any(|other| other.eq_ignore_ascii_case(header)) {
        return Some(format!(
            "`{KEYWORD}` \"{header}\" names the header of another field too (header names \
             ignore case); give each field its own"
        ));
    }
    named.push(header.clone());
    match property.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => None,
        _ => Some(format!(
            "`{KEYWORD}` is on a field that is not one plain value, and a header holds text, a \
             whole number or a boolean: make the field a `String`, an integer or a `bool` \
             (not an `Option`)"
        )),
    }
}

/// An annotation anywhere but on a field reached through `properties` (inside `items`,
/// `$defs`, `anyOf`, ...): no client sends it. `path` is the field the keyword sits under.
fn off_chain(
    schema: &Map<String, Value>,
    path: &mut Vec<String>,
    found: &mut Vec<(String, String)>,
) {
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (field, property) in properties {
                    if let Value::Object(property) = property {
                        path.push(field.clone());
                        off_chain(property, path, found);
                        path.pop();
                    }
                }
            }
            // Values, not schemas.
            ("default" | "const" | "enum" | "examples", _) => {}
            (_, nested) if mentions(nested) => found.push((
                shown(path),
                format!(
                    "`{KEYWORD}` is inside `{key}`, where no client sends it: only a field \
                     reached through `properties` from the arguments' root has a header"
                ),
            )),
            _ => {}
        }
    }
}

/// A field's path as the registry's errors show it.
fn shown(path: &[String]) -> String {
    match path.is_empty() {
        true => "(arguments)".to_owned(),
        false => path.join("."),
    }
}

/// Whether `value` holds the keyword anywhere.
fn mentions(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key(KEYWORD) || map.values().any(mentions),
        Value::Array(items) => items.iter().any(mentions),
        _ => false,
    }
}

/// RFC 9110's `tchar`.
fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(schema: Value) -> Vec<(String, String)> {
        unsendable(schema.as_object().unwrap())
    }

    #[test]
    fn a_header_on_a_plain_required_field_is_sendable() {
        assert!(
            problems(json!({
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "shard": {"type": "integer", "x-mcp-header": "Shard"},
                    "nested": {"type": "object", "properties": {
                        "flag": {"type": "boolean", "x-mcp-header": "Flag"}
                    }}
                }
            }))
            .is_empty()
        );
    }

    #[test]
    fn every_unsendable_header_is_named_at_its_field() {
        let found = problems(json!({
            "type": "object",
            "properties": {
                "empty": {"type": "string", "x-mcp-header": ""},
                "spaced": {"type": "string", "x-mcp-header": "Two Words"},
                "number": {"type": "string", "x-mcp-header": 7},
                "first": {"type": "string", "x-mcp-header": "Tenant"},
                "again": {"type": "string", "x-mcp-header": "tenant"},
                "optional": {"type": ["string", "null"], "x-mcp-header": "Maybe"},
                "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}
            }
        }));
        let at = |field: &str| {
            found
                .iter()
                .find(|(path, _)| path == field)
                .map(|(_, problem)| problem.as_str())
                .unwrap_or_else(|| panic!("nothing found at {field}: {found:?}"))
        };
        assert!(at("empty").contains("is not an HTTP header name"));
        assert!(at("spaced").contains("is not an HTTP header name"));
        assert!(at("number").contains("as text"));
        assert!(at("again").contains("another field too"));
        assert!(at("optional").contains("not an `Option`"));
        assert!(at("list").contains("inside `items`"), "{found:?}");
        assert_eq!(found.len(), 6, "{found:?}");
    }
}
