//! An `allOf` of objects, as zod writes an intersection (`z.object(..).and(..)`) and OpenAPI's
//! generators an extended type, written as the one object of all their fields where that says
//! the same: each branch an object of fields no other has, and of nothing else. Gemini's subset
//! has no `allOf`; at the top of a tool's input no host takes one (Anthropic refuses the whole
//! request, and Claude's clients send MCP tools on to it).

use serde_json::{Map, Value};

use super::defs_only;
use crate::schema::keywords::is_annotation;

/// Writes into `map` the fields of every object of `all` (an `allOf`, as zod writes an
/// intersection and OpenAPI's generators an extended type), if each is an object of fields
/// no other has, and of nothing else: a value then holds to all of them just when it holds to
/// the one object of all their fields. Each branch's description describes that same value, so
/// it follows the object's own, in the branches' order. Whether it could.
pub(crate) fn fields_of_all(map: &mut Map<String, Value>, all: &[Value]) -> bool {
    const OF_FIELDS: [&str; 5] = ["type", "properties", "required", "description", "title"];
    let mut names: Vec<&String> = (map.get("properties").and_then(Value::as_object))
        .map(|properties| properties.keys().collect())
        .unwrap_or_default();
    for branch in all {
        let Value::Object(branch) = branch else {
            return false;
        };
        let object = branch.get("type").is_none_or(|kind| kind == "object");
        if !object || branch.keys().any(|key| !OF_FIELDS.contains(&key.as_str())) {
            return false;
        }
        for name in (branch.get("properties").and_then(Value::as_object))
            .into_iter()
            .flatten()
        {
            if names.contains(&name.0) {
                return false;
            }
            names.push(name.0);
        }
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for branch in all.iter().filter_map(Value::as_object) {
        if let Some(Value::Object(fields)) = branch.get("properties") {
            properties.extend(fields.clone());
        }
        if let Some(Value::Array(names)) = branch.get("required") {
            required.extend(names.iter().cloned());
        }
    }
    if let Some(Value::Array(own)) = map.get("required") {
        required.retain(|name| !own.contains(name));
    }
    // Each name once, as 2020-12 asks of `required`.
    let mut once = Vec::with_capacity(required.len());
    for name in required {
        if !once.contains(&name) {
            once.push(name);
        }
    }
    let required = once;
    if let Some(Value::Object(own)) = map.get_mut("properties") {
        own.extend(properties);
    } else {
        map.insert("properties".into(), Value::Object(properties));
    }
    if let Some(Value::Array(own)) = map.get_mut("required") {
        own.extend(required);
    } else if !required.is_empty() {
        map.insert("required".into(), Value::Array(required));
    }
    if let Some(description) = described(map.get("description"), all) {
        map.insert("description".into(), description.into());
    }
    map.entry("type").or_insert_with(|| "object".into());
    true
}

/// The object's description (`own`) and its branches', each said once, a blank line between
/// them; `None` where no branch says one the object does not.
fn described(own: Option<&Value>, all: &[Value]) -> Option<String> {
    let own = own
        .and_then(Value::as_str)
        .filter(|own| !own.trim().is_empty());
    let mut said: Vec<&str> = own.into_iter().collect();
    let owned = said.len();
    for branch in all {
        let Some(description) = branch.get("description").and_then(Value::as_str) else {
            continue;
        };
        if !description.trim().is_empty() && !said.contains(&description) {
            said.push(description);
        }
    }
    (said.len() > owned).then(|| said.join("\n\n"))
}

/// `schema`, an input's, with the `allOf` at its top written as one object ([`fields_of_all`]),
/// if it has one there and holds nothing else an object could not say beside it: annotations,
/// `type: "object"`, its own fields, and 2020-12's `unevaluatedProperties: false` (zod's
/// closed intersection), which closes the one object as `additionalProperties: false`.
pub(crate) fn one_object(schema: &Map<String, Value>) -> Option<Map<String, Value>> {
    const BESIDE: [&str; 6] = [
        "allOf",
        "type",
        "properties",
        "required",
        "$defs",
        "unevaluatedProperties",
    ];
    let fits = |(key, value): (&String, &Value)| match key.as_str() {
        "type" => value == "object",
        "unevaluatedProperties" => value == false,
        key => BESIDE.contains(&key) || is_annotation(key),
    };
    // A `$ref` into the `allOf` (a schema written out in full would hold none, but one kept as
    // written, a pointer's recursion, may) would point at nothing once it is gone.
    let into_all = |reference: &String| reference.starts_with("#/allOf");
    if !schema.iter().all(fits) || defs_only::references(schema).iter().any(into_all) {
        return None;
    }
    let Some(Value::Array(all)) = schema.get("allOf") else {
        return None;
    };
    let mut object = schema.clone();
    object.shift_remove("allOf");
    if !fields_of_all(&mut object, all) {
        return None;
    }
    if object.shift_remove("unevaluatedProperties").is_some() {
        object.insert("additionalProperties".into(), Value::Bool(false));
    }
    Some(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_description_follows_the_object_s_once() {
        let all = [
            json!({"description": "Where they live."}),
            json!({"description": "A person."}),
            json!({"description": "  "}),
            json!({"description": "How to reach them."}),
            json!({"description": "Where they live."}),
            json!({}),
        ];
        assert_eq!(
            described(Some(&json!("A person.")), &all).as_deref(),
            Some("A person.\n\nWhere they live.\n\nHow to reach them.")
        );
        // An empty description of the object's own says nothing, and is left out.
        assert_eq!(
            described(Some(&json!(" ")), &all[..1]).as_deref(),
            Some("Where they live.")
        );
        // No branch says more than the object: the object's description stays as it is.
        assert_eq!(described(Some(&json!("A person.")), &all[1..3]), None);
        assert_eq!(described(None, &all[5..]), None);
    }
}
