//! OpenAI's strict mode: the subset of JSON Schema it takes, and an input schema rewritten
//! into it.
//!
//! With `strict: true`, OpenAI compiles a tool's parameters into a grammar the model's
//! arguments must follow, and refuses the whole request for a keyword outside the subset it
//! knows (a `uniqueItems`, a `minLength`, a `default`, a value of any type). So each keyword
//! is one of three kinds here:
//!
//! - one strict mode takes ([`KEPT`]), kept;
//! - a rule on a value that the grammar cannot hold (a text's length, items not repeated, a
//!   count of fields, a format or pattern OpenAI does not know) or a default, taken out of the
//!   schema and said in the field's description instead: this framework's parser, or a remote
//!   tool's server, still holds each call to it, so the model is told a rule that is kept;
//! - one that decides which values fit ([`SHAPING`]: `not`, a condition, `allOf`, a tuple's
//!   positions, a map keyed by pattern, a `$ref` left in), for which strict mode stays off and
//!   the schema is exported as it is; so it does for what closing would change: a value, the
//!   items of an array or the fields of an object below the root of any type or name, and a
//!   field required but not described (closed, the model could never send it).
//!
//! Any other keyword (an annotation such as `deprecated` or `$comment`, an extension) is
//! dropped: it tells the model nothing the grammar needs, and OpenAI refuses what it does not
//! know. Past OpenAI's limits on a schema's size ([`MOST_PROPERTIES`], [`MOST_ENUM_VALUES`],
//! [`MOST_NESTED_OBJECTS`]), strict mode stays off too.

use serde_json::{Map, Value};

use crate::args::shown;
use crate::schema::keywords::{is_null_schema, names_type};
use crate::schema::walk;

/// The keywords strict mode takes.
const KEPT: [&str; 17] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// The array bounds strict mode takes, besides [`KEPT`].
const ARRAY_BOUNDS: [&str; 2] = ["minItems", "maxItems"];

/// Keywords that decide which values fit in a way strict mode has no form for; a schema with
/// one is exported as it is, without strict mode.
const SHAPING: [&str; 17] = [
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "propertyNames",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$ref",
];

/// The string `format`s strict mode takes; any other is said in words.
const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The most object properties, all objects together, OpenAI takes in a strict schema.
pub(crate) const MOST_PROPERTIES: usize = 5000;

/// The most `enum` values, all enums together, OpenAI takes in a strict schema.
pub(crate) const MOST_ENUM_VALUES: usize = 1000;

/// The most objects inside one another, the root's arguments counted, OpenAI takes in a strict
/// schema.
pub(crate) const MOST_NESTED_OBJECTS: usize = 10;

/// OpenAI's strict form of an (inlined) input schema, or the reason strict mode cannot be on.
///
/// Every object is closed (`additionalProperties: false`), which fails for maps (objects with
/// `additionalProperties` of a schema), and the root must be a plain object (no root
/// `anyOf`). Every property is then listed in `required`, and each optional one made
/// nullable, which means the same to this framework's parser, since a field set to `null`
/// counts as absent. `oneOf` becomes `anyOf`; integer `format`s are dropped, while `minimum`
/// and `maximum` stay; the rules strict mode cannot hold move into descriptions (see the
/// module's documentation).
pub(crate) fn openai_strict(schema: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    if schema.contains_key("anyOf") || schema.contains_key("oneOf") {
        return Err("the root is a union (`anyOf`)".to_owned());
    }
    let mut root = Value::Object(schema.clone());
    let mut refusal = None;
    let (mut properties, mut enum_values) = (0, 0);
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        if refusal.is_some() {
            return;
        }
        if let Err(why) = strict_form(map, path.is_empty()) {
            refusal = Some(format!("`{}` {why}", shown(path.to_owned())));
            return;
        }
        properties += map
            .get("properties")
            .and_then(Value::as_object)
            .map_or(0, Map::len);
        enum_values += map
            .get("enum")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
    });
    if properties > MOST_PROPERTIES {
        refusal.get_or_insert(format!(
            "it has {properties} properties, past the {MOST_PROPERTIES} strict mode takes"
        ));
    }
    if enum_values > MOST_ENUM_VALUES {
        refusal.get_or_insert(format!(
            "it has {enum_values} `enum` values, past the {MOST_ENUM_VALUES} strict mode takes"
        ));
    }
    let nested = nested_objects(&root);
    if nested > MOST_NESTED_OBJECTS {
        refusal.get_or_insert(format!(
            "it nests {nested} objects inside one another, past the {MOST_NESTED_OBJECTS} \
             strict mode takes"
        ));
    }
    match (refusal, root) {
        (Some(reason), _) => Err(reason),
        (None, Value::Object(map)) => Ok(map),
        (None, _) => Err("the schema is not an object".to_owned()),
    }
}

/// How many objects the deepest value of a (strict) schema nests inside one another, itself
/// counted if it is one.
fn nested_objects(schema: &Value) -> usize {
    let Value::Object(map) = schema else {
        return 0;
    };
    let inner = subschemas(map).map(nested_objects).max().unwrap_or(0);
    inner + usize::from(is_object(map))
}

/// The subschemas strict mode keeps: `items`, each property's, each `anyOf` branch.
fn subschemas(map: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    let properties = map.get("properties").and_then(Value::as_object);
    let branches = map.get("anyOf").and_then(Value::as_array);
    (map.get("items").into_iter())
        .chain(properties.into_iter().flat_map(Map::values))
        .chain(branches.into_iter().flatten())
}

/// One schema of [`openai_strict`]'s walk made strict (`root`: the arguments themselves), or
/// why it cannot be.
fn strict_form(map: &mut Map<String, Value>, root: bool) -> Result<(), String> {
    if let Some(keyword) = SHAPING.into_iter().find(|k| map.contains_key(*k)) {
        return Err(format!("has `{keyword}`, which strict mode does not take"));
    }
    if let Some(Value::Array(_)) = map.get("items") {
        return Err(
            "has items by position (draft-07's tuple), which strict mode does not take".into(),
        );
    }
    if let Some(one_of) = map.shift_remove("oneOf") {
        map.insert("anyOf".into(), one_of);
    }
    // A schema of `true` or `false` (a value of any type, or none): the walk reaches only
    // schemas written as objects.
    if subschemas(map).any(Value::is_boolean) {
        return Err("holds a schema of `true` or `false`, which strict mode does not take".into());
    }
    if !typed(map) {
        return Err("may be a value of any type, which strict mode cannot describe".into());
    }
    if map.get("type").and_then(Value::as_str) == Some("integer") {
        map.shift_remove("format");
    }
    if is_array(map) && !map.contains_key("items") {
        return Err("is an array of items of any type, which strict mode cannot describe".into());
    }
    in_words(map);
    if is_object(map) {
        close(map, root)?;
    }
    Ok(())
}

/// Whether a schema says what type its value has, once the type its fields or items imply is
/// written (a server may leave it out: `{"properties": ..}`); strict mode wants it said.
fn typed(map: &mut Map<String, Value>) -> bool {
    let said = ["type", "enum", "const", "anyOf"];
    if said.into_iter().any(|keyword| map.contains_key(keyword)) {
        return true;
    }
    let kind = match (map.contains_key("properties"), map.contains_key("items")) {
        (true, _) => "object",
        (false, true) => "array",
        (false, false) => return false,
    };
    map.insert("type".into(), kind.into());
    true
}

/// Whether a schema describes an object (one that may be `null` too:
/// `"type": ["object", "null"]`).
fn is_object(map: &Map<String, Value>) -> bool {
    map.contains_key("properties") || said_type(map, "object") == Some(true)
}

/// Whether a schema's `type` names `kind`; `None` when it says no type.
fn said_type(map: &Map<String, Value>, kind: &str) -> Option<bool> {
    map.get("type").map(|kinds| names_type(kinds, kind))
}

/// Closes an object and asks for each of its fields, an optional one made nullable; a map,
/// an object of any fields below the root (`{"type": "object"}`) and one that requires a
/// field it does not describe cannot be closed.
fn close(map: &mut Map<String, Value>, root: bool) -> Result<(), String> {
    let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
    match map.get("additionalProperties") {
        Some(Value::Object(_) | Value::Bool(true)) => {
            return Err("is a map, which strict mode cannot describe".to_owned());
        }
        _ if !root && !closed && !map.contains_key("properties") => {
            return Err("is an object of any fields, which strict mode cannot describe".into());
        }
        _ => {}
    }
    let described = map.get("properties").and_then(Value::as_object);
    let undescribed = (map
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten())
    .filter_map(Value::as_str)
    .find(|field| !described.is_some_and(|described| described.contains_key(*field)));
    if let Some(field) = undescribed {
        return Err(format!(
            "requires `{field}`, which it does not describe: strict mode would never send it"
        ));
    }
    map.insert("additionalProperties".into(), Value::Bool(false));
    let required: Vec<Value> = map
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let properties = map
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let mut all = Vec::new();
    if let Value::Object(properties) = properties {
        for (field, property) in properties.iter_mut() {
            if !required.iter().any(|r| r == field) {
                // Its type written first, so that `null` joins it; a field of no type is
                // refused when the walk reaches it.
                if let Value::Object(property) = property {
                    typed(property);
                }
                make_nullable(property);
            }
            all.push(Value::String(field.clone()));
        }
    }
    map.insert("required".into(), Value::Array(all));
    Ok(())
}

/// Takes out every keyword strict mode does not take, saying the rules among them in the
/// schema's description.
fn in_words(map: &mut Map<String, Value>) {
    let array = is_array(map);
    let mut said = Vec::new();
    let taken = |key: &str| !(KEPT.contains(&key) || (array && ARRAY_BOUNDS.contains(&key)));
    let outside: Vec<String> = map.keys().filter(|key| taken(key)).cloned().collect();
    for key in outside {
        if let Some(value) = map.shift_remove(&key) {
            said.extend(rule_in_words(&key, &value).filter(|_| applies(map, &key)));
        }
    }
    if let Some(Value::String(format)) = map.get("format")
        && !FORMATS.contains(&format.as_str())
    {
        said.push(format!("in the `{format}` format"));
        map.shift_remove("format");
    }
    if let Some(Value::String(pattern)) = map.get("pattern")
        && ["(?=", "(?!", "(?<=", "(?<!"]
            .iter()
            .any(|look| pattern.contains(look))
    {
        said.push(format!("matching the pattern `{pattern}`"));
        map.shift_remove("pattern");
    }
    if said.is_empty() {
        return;
    }
    let said = said.join("; ");
    let description = match map.get("description").and_then(Value::as_str) {
        Some(description) => format!("{description} ({said})"),
        None => said,
    };
    map.insert("description".into(), description.into());
}

/// Whether a schema describes an array.
fn is_array(map: &Map<String, Value>) -> bool {
    map.contains_key("items") || said_type(map, "array") == Some(true)
}

/// Whether `key`, a keyword of one type's values (`minLength` of strings), bears on a value
/// of the types the schema says (any type, when it says none).
fn applies(map: &Map<String, Value>, key: &str) -> bool {
    let kind = match key {
        "minLength" | "maxLength" | "contentEncoding" | "contentMediaType" => "string",
        "minItems" | "maxItems" | "uniqueItems" => "array",
        "minProperties" | "maxProperties" => "object",
        _ => return true,
    };
    said_type(map, kind) != Some(false)
}

/// A rule strict mode cannot hold, in words; `None` for a keyword that carries no rule.
fn rule_in_words(key: &str, value: &Value) -> Option<String> {
    let count = |one: &str, many: &str| {
        value.as_u64().map(|n| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        })
    };
    Some(match key {
        "minLength" => format!("at least {}", count("character", "characters")?),
        "maxLength" => format!("at most {}", count("character", "characters")?),
        "minProperties" => format!("at least {}", count("field", "fields")?),
        "maxProperties" => format!("at most {}", count("field", "fields")?),
        "minItems" => format!("at least {}", count("item", "items")?),
        "maxItems" => format!("at most {}", count("item", "items")?),
        "uniqueItems" if value == &Value::Bool(true) => "no item twice".to_owned(),
        "default" if !value.is_null() => format!("default {value}"),
        "contentEncoding" => format!("encoded as {}", value.as_str()?),
        "contentMediaType" => format!("of media type {}", value.as_str()?),
        _ => return None,
    })
}

/// Lets `null` through a schema, as OpenAI strict mode spells an optional field.
fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::Array(enumerated)) = map.get_mut("enum")
        && !enumerated.contains(&Value::Null)
    {
        enumerated.push(Value::Null);
    }
    match map.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            map.insert("type".into(), serde_json::json!([name, "null"]));
        }
        Some(Value::Array(names)) => {
            if !names.iter().any(|name| name == "null") {
                names.push(Value::String("null".into()));
            }
        }
        Some(_) => {}
        None => {
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                if !branches.iter().any(is_null_schema) {
                    branches.push(serde_json::json!({"type": "null"}));
                }
            } else {
                let inner = std::mem::take(map);
                map.insert(
                    "anyOf".into(),
                    serde_json::json!([Value::Object(inner), {"type": "null"}]),
                );
            }
        }
    }
}
