//! A schema whose every `$ref` points into `$defs`, for a reader that follows those alone
//! (Gemini's JSON Schema, documented to follow `$ref`s into `$defs`).
//!
//! A remote server's schema may point anywhere in itself: at the root (`#`, a type that holds
//! itself), into draft-07's `definitions`, or at the first place a type was written
//! (`#/properties/from`). Each such target becomes a definition of its own, a copy of what the
//! `$ref` pointed at, under a name no definition has, and each `$ref` to it is written to point
//! there. The copies are taken from the schema as written, so a `$ref` inside one points where
//! it pointed before, and is written the same way.
//!
//! `$ref`s are found and rewritten by a walk over every JSON value, not through
//! `schema::walk`, which visits only the keywords that hold subschemas it reads: a `$ref` left
//! where it does not look (inside a keyword it does not know, or an extension's `x-...`) would
//! point at nothing once sent.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::schema::walk::Root;

/// `schema` with every `$ref` into its `$defs`; the `$ref` that points at nothing, if one does.
pub(crate) fn refs_into_defs(schema: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let root = Root::new(schema);
    let mut defs = match schema.get("$defs") {
        Some(Value::Object(defs)) => defs.clone(),
        _ => Map::new(),
    };
    // Each target pointed at other than by name in `$defs`, and the name it is given there.
    let mut named: HashMap<String, String> = HashMap::new();
    let mut pending = references(schema);
    while let Some(reference) = pending.pop() {
        let by_name = reference.strip_prefix("#/$defs/").is_some_and(|name| {
            schema
                .get("$defs")
                .and_then(|defs| defs.get(name))
                .is_some()
        });
        if by_name || named.contains_key(&reference) {
            continue;
        }
        let target = match reference.as_str() {
            "#" => {
                let mut whole = schema.clone();
                whole.remove("$defs");
                whole.remove("definitions");
                Value::Object(whole)
            }
            other => match root.resolve(other) {
                Some(target) => target.clone(),
                None => return Err(reference),
            },
        };
        if let Value::Object(target) = &target {
            pending.extend(references(target));
        }
        let name = unused_name(&reference, &defs);
        defs.insert(name.clone(), target);
        named.insert(reference, name);
    }
    let mut written = schema.clone();
    written.remove("definitions");
    if !defs.is_empty() {
        written.insert("$defs".into(), Value::Object(defs));
    }
    let mut written = Value::Object(written);
    repoint(&mut written, &named);
    match written {
        Value::Object(map) => Ok(map),
        _ => unreachable!("an object stays an object"),
    }
}

/// Every `$ref` within `schema`, wherever it sits.
pub(crate) fn references(schema: &Map<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(Value::String(reference)) = schema.get("$ref") {
        found.push(reference.clone());
    }
    let mut stack: Vec<&Value> = schema.values().collect();
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref") {
                    found.push(reference.clone());
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

/// A name for the target of `reference` that `defs` does not have: its pointer's last step
/// (`root` for `#`), numbered past a name taken.
fn unused_name(reference: &str, defs: &Map<String, Value>) -> String {
    let last = reference.rsplit('/').next().unwrap_or_default();
    let base = match last {
        "" | "#" => "root".to_owned(),
        step => step.replace("~1", "_").replace("~0", "_").replace('%', "_"),
    };
    let mut name = base.clone();
    let mut number = 2;
    while defs.contains_key(&name) {
        name = format!("{base}_{number}");
        number += 1;
    }
    name
}

/// Writes each `$ref` of `named` as the `$defs` name its target was given.
fn repoint(value: &mut Value, named: &HashMap<String, String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(name) = named.get(reference.as_str())
            {
                *reference = format!("#/$defs/{name}");
            }
            map.values_mut().for_each(|value| repoint(value, named));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| repoint(item, named)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_target_pointed_at_elsewhere_is_defined_under_a_name_no_definition_has() {
        let schema = json!({"type": "object",
            "$defs": {"from": {"type": "string"}},
            "properties": {
                "from": {"type": "object", "properties": {"x": {"type": "number"}}},
                "to": {"$ref": "#/properties/from"},
                "name": {"$ref": "#/$defs/from"},
                "tree": {"type": "array", "items": {"$ref": "#"}}}});
        let Value::Object(schema) = schema else {
            unreachable!("an object")
        };
        let written = Value::Object(refs_into_defs(&schema).expect("every target is there"));
        let properties = &written["properties"];
        assert_eq!(properties["to"]["$ref"], "#/$defs/from_2", "{written}");
        assert_eq!(
            written["$defs"]["from_2"]["properties"]["x"]["type"],
            "number"
        );
        assert_eq!(
            properties["name"]["$ref"], "#/$defs/from",
            "a name of `$defs` kept"
        );
        assert_eq!(properties["tree"]["items"]["$ref"], "#/$defs/root");
        // The root's copy points where the root does.
        let copied = &written["$defs"]["root"]["properties"];
        assert_eq!(copied["to"]["$ref"], "#/$defs/from_2", "{written}");
        assert!(written["$defs"]["root"].get("$defs").is_none(), "{written}");
        // One that points at nothing is no schema to send.
        let Value::Object(broken) = json!({"properties": {"a": {"$ref": "#/nowhere"}}}) else {
            unreachable!("an object")
        };
        assert_eq!(refs_into_defs(&broken), Err("#/nowhere".to_owned()));
    }
}
