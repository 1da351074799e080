//! An object that flattens an enum (`#[serde(flatten)] action: Action`): its own fields
//! written into each of the enum's variants, so that closing every object leaves each call
//! the variant's fields and the object's own.
//!
//! schemars writes such an object as its fields beside a union of the variants (`oneOf` for a
//! tagged enum, `anyOf` for an untagged one or a flattened `Option`, `allOf` of unions for two
//! flattened enums). Each part names only its own fields; closed as they stand, the object
//! would refuse the variant's fields and each variant the object's, and no call would fit.
//! JSON Schema's answer, `unevaluatedProperties`, is not in every provider's dialect (OpenAI's
//! strict mode and Gemini's take none), so the union is lifted instead: one branch for each variant (for each pairing, under `allOf`),
//! holding the object's fields, required where they were, and the variant's.

use serde_json::{Map, Value};

use super::walk;

/// The most branches a lifted union is given: past it (three flattened enums of seven
/// variants), the object is left as schemars wrote it.
const MAX_BRANCHES: usize = 256;

/// How deep unions within unions are taken apart.
const MAX_DEPTH: usize = 8;

/// The keywords of a union beside an object's fields.
const UNIONS: [&str; 3] = ["oneOf", "anyOf", "allOf"];

/// Writes `map`'s fields into each branch of the union beside them, if it has one, and lifts
/// the union to be `map`'s own; `definitions` are the schema's `$defs`, where a flattened
/// enum may be named.
pub(super) fn lift_union(map: &mut Map<String, Value>, definitions: Option<&Value>) {
    if !map.contains_key("properties") || !UNIONS.iter().any(|union| map.contains_key(*union)) {
        return;
    }
    let mut union = Map::new();
    for keyword in UNIONS {
        if let Some(value) = map.get(keyword) {
            union.insert(keyword.to_owned(), value.clone());
        }
    }
    let Some(variants) = branches(&union, definitions, MAX_DEPTH).filter(|found| !found.is_empty())
    else {
        return;
    };
    // Each variant holds the object's own fields, and what it says of fields it does not name
    // (a flattened map beside the enum; `false` where the object is closed).
    let own: Map<String, Value> = ["properties", "required", "additionalProperties"]
        .into_iter()
        .filter_map(|keyword| Some((keyword.to_owned(), map.get(keyword)?.clone())))
        .collect();
    let lifted: Vec<Value> = (variants.into_iter())
        .map(|variant| Value::Object(merged(variant, &own)))
        .collect();
    for keyword in UNIONS
        .into_iter()
        .chain(["properties", "required", "additionalProperties"])
    {
        map.shift_remove(keyword);
    }
    // A union, as schemars writes an enum's: each variant says it is an object, and an object
    // of no fields around them would read, to a provider's dialect, as one to close.
    if map.get("type").is_some_and(|kind| kind == "object") {
        map.shift_remove("type");
    }
    // Variants of a tagged enum exclude each other by their tags: `oneOf` says so, and the
    // checker names the tags it expects; other unions take the first that fits.
    let keyword = match union.len() == 1 && union.contains_key("oneOf") {
        true => "oneOf",
        false => "anyOf",
    };
    map.insert(keyword.to_owned(), Value::Array(lifted));
}

/// The objects `schema` takes, each one branch of it: a `oneOf`'s or `anyOf`'s branches,
/// each taken apart in turn; for an `allOf`, each pairing of its parts' branches merged into
/// one; each with what `schema` says beside them; `schema` itself where it is an object and
/// no union, and none where it is no object (a unit variant written as text, `null`: no
/// object fits it). `None` where it cannot say (`oneOf` beside `anyOf`, too deep), or there
/// would be more than [`MAX_BRANCHES`].
fn branches(
    schema: &Map<String, Value>,
    definitions: Option<&Value>,
    depth: usize,
) -> Option<Vec<Map<String, Value>>> {
    let depth = depth.checked_sub(1)?;
    let named = (schema.get("$ref").and_then(Value::as_str))
        .and_then(walk::definition_name)
        .and_then(|name| definitions?.get(name)?.as_object())
        .filter(|named| !named.contains_key("properties"));
    if let Some(named) = named {
        let mut beside = schema.clone();
        beside.remove("$ref");
        let within = branches(named, definitions, depth)?;
        return Some(
            within
                .into_iter()
                .map(|branch| merged(branch, &beside))
                .collect(),
        );
    }
    let alternatives = match (schema.get("oneOf"), schema.get("anyOf")) {
        (Some(_), Some(_)) => return None,
        (Some(Value::Array(listed)), None) | (None, Some(Value::Array(listed))) => Some(listed),
        (None, None) => None,
        _ => return None,
    };
    let parts = match schema.get("allOf") {
        Some(Value::Array(parts)) => Some(parts),
        Some(_) => return None,
        None => None,
    };
    if alternatives.is_none() && parts.is_none() {
        let is_object = schema.contains_key("properties")
            || schema.get("type").is_none_or(|kind| match kind {
                Value::Array(kinds) => kinds.iter().any(|kind| kind == "object"),
                kind => kind == "object",
            });
        return Some(if is_object {
            vec![schema.clone()]
        } else {
            Vec::new()
        });
    }
    let beside: Map<String, Value> = (schema.iter())
        .filter(|(keyword, _)| !UNIONS.contains(&keyword.as_str()))
        .map(|(keyword, value)| (keyword.clone(), value.clone()))
        .collect();
    let mut found = vec![beside];
    // Each list of branches pairs with those found so far: a union's alone, an `allOf`'s
    // parts each in turn.
    let lists = (alternatives
        .into_iter()
        .flatten()
        .map(|listed| (listed, true)))
    .chain(parts.into_iter().flatten().map(|part| (part, false)));
    let mut alternatives_found = Vec::new();
    for (schema, alternative) in lists {
        let within = branches(schema.as_object()?, definitions, depth)?;
        if alternative {
            alternatives_found.extend(within);
            continue;
        }
        found = product(&found, &within)?;
    }
    if !alternatives_found.is_empty() || alternatives.is_some() {
        found = product(&found, &alternatives_found)?;
    }
    Some(found)
}

/// Each of `left` merged with each of `right`; `None` past [`MAX_BRANCHES`].
fn product(
    left: &[Map<String, Value>],
    right: &[Map<String, Value>],
) -> Option<Vec<Map<String, Value>>> {
    if left.len().checked_mul(right.len())? > MAX_BRANCHES {
        return None;
    }
    Some(
        (left.iter())
            .flat_map(|left| right.iter().map(|right| merged(right.clone(), left)))
            .collect(),
    )
}

/// `branch` with `own`'s fields beside its own (its own kept where both name one), both
/// lists of required fields, and `own`'s word on other fields where it says none.
fn merged(mut branch: Map<String, Value>, own: &Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::Object(fields)) = own.get("properties") {
        let properties = (branch.entry("properties")).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(properties) = properties {
            for (name, field) in fields {
                properties
                    .entry(name.clone())
                    .or_insert_with(|| field.clone());
            }
        }
    }
    if let Some(Value::Array(names)) = own.get("required") {
        let required = (branch.entry("required")).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(required) = required {
            for name in names {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
    }
    for (keyword, value) in own {
        if !matches!(keyword.as_str(), "properties" | "required") {
            branch
                .entry(keyword.clone())
                .or_insert_with(|| value.clone());
        }
    }
    branch.entry("type").or_insert_with(|| "object".into());
    branch
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `schema`'s map, lifted.
    fn lifted(schema: Value) -> Value {
        let Value::Object(mut map) = schema else {
            panic!("{schema}");
        };
        let definitions = map.get("$defs").cloned();
        lift_union(&mut map, definitions.as_ref());
        Value::Object(map)
    }

    #[test]
    fn the_fields_go_into_each_object_variant_and_pairings_are_counted() {
        let tagged = |tag: &str| json!({"properties": {"t": {"const": tag}}, "required": ["t"]});
        let schema = json!({
            "type": "object",
            "description": "A command.",
            "properties": {"id": {"type": "integer"}},
            "required": ["id"],
            "oneOf": [tagged("a"), {"type": "string", "const": "b"}, {"$ref": "#/$defs/More"}],
            "$defs": {"More": {"anyOf": [tagged("c"), {"type": "null"}]}}
        });
        let variant = |tag: &str| {
            json!({
                "properties": {"t": {"const": tag}, "id": {"type": "integer"}},
                "required": ["t", "id"],
                "type": "object"
            })
        };
        // A variant no object fits (text, `null`) is left out; one named in `$defs` is taken
        // apart.
        assert_eq!(
            lifted(schema.clone())["oneOf"],
            json!([variant("a"), variant("c")])
        );
        assert_eq!(lifted(schema.clone())["description"], "A command.");
        assert!(lifted(schema)["type"].is_null());
        // Two unions of 16 pair into 256 variants; three, into too many.
        let union: Vec<Value> = (0..16).map(|tag| tagged(&tag.to_string())).collect();
        let flattened = |parts: usize| {
            json!({
                "properties": {"id": {}},
                "allOf": vec![json!({"oneOf": union}); parts]
            })
        };
        assert_eq!(lifted(flattened(2))["anyOf"].as_array().unwrap().len(), 256);
        assert_eq!(lifted(flattened(3)), flattened(3));
        // Nothing but text: left as it is.
        let text = json!({"properties": {}, "oneOf": [{"type": "string"}]});
        assert_eq!(lifted(text.clone()), text);
    }
}
