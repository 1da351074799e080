//! A schema written by another serializer than schemars (a remote server's), read as its writer
//! meant it where that serializer broke JSON Schema's form, before any export: a provider checks
//! a tool's schema against JSON Schema's own and refuses the whole request, every tool with it,
//! for one that breaks it (OpenAI: "[] is not of type 'object'", "True is not of type
//! 'array'"). A remote tool's output is held to its output schema read the same way, the one
//! its clients are shown.
//!
//! Three slips are common in MCP servers and have one reading each: `properties: []`, PHP's
//! empty array for an empty map; `null` for a keyword that takes no null (`required`,
//! `properties`, `description`, `enum`...), a serializer's absent value; and `required: true` on
//! a property, draft-03's way of listing it in its object's `required`. So do the forms older
//! drafts gave a keyword that 2020-12 gives another, which Anthropic's API refuses the whole
//! request for ("It must match JSON Schema draft 2020-12"), and OpenAPI 3.0's generators still
//! write: draft-04's `"exclusiveMinimum": true` beside a `minimum` (2020-12's
//! `"exclusiveMinimum"` of that number), draft-07's tuple `"items": [..]` (2020-12's
//! `prefixItems`, its `additionalItems` now `items`), draft-07's `dependencies` (2020-12's
//! `dependentRequired` and `dependentSchemas`; a `$ref` through either, as written, is pointed
//! where its writer pointed), draft-03's `"type": "any"` (no `type`), a
//! name listed twice in `required` or `type`, and a `$schema` naming another dialect, which the
//! schema is no longer written in, or any below the root (MCP's SDK clients refuse a tool whose
//! schema "declares an unsupported dialect"). Each is written in today's form, which admits the
//! same calls.
//! They are read before any `$ref` is written out, so that a slip beside a `$ref` does not stand
//! in for the keyword of the schema it points to. A property whose schema is neither an object
//! nor a boolean (`"name": "string"`), or a `type` JSON Schema does not have (`"int"`), has no
//! reading, and is refused, naming it. schemars writes none of these, so for a tool of this
//! crate's own nothing changes.

use serde_json::{Map, Value};

use super::values::{TYPES, shown};
use super::walk;

/// The dialect a schema is read in, and written in once mended.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Where a schema lists what has no reading: what is no schema for a field (`properties` that
/// are no map, a field's schema that is a text), or a type JSON Schema does not have.
#[derive(Debug)]
pub(crate) struct NoReading {
    /// The path of the field it is said of.
    pub(crate) path: String,
    /// What the schema says there.
    pub(crate) said: String,
    /// What JSON Schema asks for in its place.
    pub(crate) asked: &'static str,
}

/// What JSON Schema asks for where a `type` names none of its types.
const A_TYPE: &str = "one of its types (\"string\", \"number\", \"integer\", \"boolean\", \
                      \"array\", \"object\", \"null\") or a list of them";

/// What JSON Schema asks for where a field's schema is none.
const A_SCHEMA: &str =
    "a schema (an object such as {\"type\": \"string\"}, or a boolean) for each field";

/// Writes `schema`'s slips in today's form, every one it has, and says where it lists the
/// first thing with no reading, if any.
pub(crate) fn as_meant(schema: &mut Value) -> Result<(), NoReading> {
    let dialect = (schema.get("$schema").and_then(Value::as_str))
        .is_some_and(|named| named.trim_end_matches('#') == DIALECT);
    let mut fault = None;
    let mut renamed = false;
    every_object(schema, &mut String::new(), &mut |map, path| {
        let found = mend(map, path, &mut renamed);
        fault = fault.take().or(found);
    });
    if renamed {
        repoint(schema);
    }
    if let (true, Value::Object(map)) = (dialect, &mut *schema) {
        map.shift_insert(0, "$schema".into(), DIALECT.into());
    }
    match fault {
        Some(fault) => Err(fault),
        None => Ok(()),
    }
}

/// Calls `visit` on every schema object inside `schema` (at `path`), those of `not`, `contains`
/// and the like too, each before what it holds.
fn every_object(
    schema: &mut Value,
    path: &mut String,
    visit: &mut dyn FnMut(&mut Map<String, Value>, &str),
) {
    walk::every_subschema_mut(schema, path, &mut |map, path| {
        visit(map, path);
        let _ = walk::other_children_mut::<()>(map, |child| {
            every_object(child, &mut path.to_owned(), &mut *visit);
            Ok(())
        });
    });
}

/// Points each `$ref` into the schema that passes through a keyword [`older_forms`] renamed
/// (a tuple's `items/0`, now `prefixItems/0`; its `additionalItems`, now `items`;
/// `dependencies/a`, now `dependentSchemas/a`) where its writer pointed.
fn repoint(schema: &mut Value) {
    let read = schema.clone();
    every_object(schema, &mut String::new(), &mut |map, _| {
        if let Some(Value::String(reference)) = map.get_mut("$ref")
            && let Some(moved) = moved(&read, reference)
        {
            *reference = moved;
        }
    });
}

/// `reference`, a JSON Pointer into `root` as written before [`older_forms`], as it is to be
/// written now, if a keyword it passes through was renamed.
fn moved(root: &Value, reference: &str) -> Option<String> {
    let tokens: Vec<&str> = reference.strip_prefix("#/")?.split('/').collect();
    let mut at = root;
    let mut written: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut changed = false;
    for (index, raw) in tokens.iter().enumerate() {
        let token = raw.replace("~1", "/").replace("~0", "~");
        let (step, value) = match at {
            Value::Object(map) => match renamed(map, &token, tokens.get(index + 1).copied()) {
                Some(found) => {
                    changed = true;
                    found
                }
                None => (*raw, map.get(&token)?),
            },
            Value::Array(items) => (*raw, items.get(position(&token)?)?),
            _ => return None,
        };
        written.push(step);
        at = value;
    }
    changed.then(|| format!("#/{}", written.join("/")))
}

/// What a pointer's `token` out of `map` (followed by `next`) became, if [`older_forms`] renamed
/// it: the keyword now, and its value.
fn renamed<'m>(
    map: &'m Map<String, Value>,
    token: &str,
    next: Option<&str>,
) -> Option<(&'static str, &'m Value)> {
    let tuple = map
        .get("prefixItems")
        .filter(|positions| positions.is_array());
    match token {
        "items"
            if next.and_then(position).is_some()
                && !map.get("items").is_some_and(Value::is_array) =>
        {
            Some(("prefixItems", tuple?))
        }
        "additionalItems" if tuple.is_some() && !map.contains_key("additionalItems") => {
            Some(("items", map.get("items")?))
        }
        "dependencies" if !map.contains_key("dependencies") => {
            let name = next?.replace("~1", "/").replace("~0", "~");
            ["dependentSchemas", "dependentRequired"]
                .into_iter()
                .find_map(|keyword| {
                    let listed = map.get(keyword)?;
                    listed.get(&name).map(|_| (keyword, listed))
                })
        }
        _ => None,
    }
}

/// The array index a pointer's token names: digits, without a leading zero but for `0`.
fn position(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|byte| byte.is_ascii_digit());
    (digits && (token == "0" || !token.starts_with('0')))
        .then(|| token.parse().ok())
        .flatten()
}

/// Mends the slips of one schema object (at `path`), noting in `renamed` whether a keyword a
/// `$ref` may point through was renamed; what it lists that is no schema for a field, with
/// that field's path, if anything.
fn mend(map: &mut Map<String, Value>, path: &str, renamed: &mut bool) -> Option<NoReading> {
    nulls_as_absent(map);
    if !matches!(map.get("required"), None | Some(Value::Array(_))) {
        map.shift_remove("required");
    }
    *renamed |= older_forms(map);
    once_each(map);
    // Said first, the rest mended all the same (the output check reads what it can).
    let type_fault = unknown_type(map).map(|said| NoReading {
        path: path.to_owned(),
        said,
        asked: A_TYPE,
    });
    type_fault.or(mend_properties(map, path))
}

/// Mends `map`'s `properties`; what it lists that is no schema for a field, with that field's
/// path, if anything.
fn mend_properties(map: &mut Map<String, Value>, path: &str) -> Option<NoReading> {
    let properties = match map.get_mut("properties")? {
        Value::Object(properties) => properties,
        Value::Array(items) if items.is_empty() => {
            map.insert("properties".into(), Value::Object(Map::new()));
            return None;
        }
        other => {
            let said = format!(
                "the `properties` it lists for the object are {}",
                shown(other)
            );
            return Some(NoReading {
                path: path.to_owned(),
                said,
                asked: A_SCHEMA,
            });
        }
    };
    let fault = (properties.iter())
        .find(|(_, property)| !matches!(property, Value::Object(_) | Value::Bool(_)))
        .map(|(name, property)| {
            let mut field = path.to_owned();
            walk::push_slot(&mut field, walk::Slot::Property(name));
            let said = format!("the schema it lists for the field is {}", shown(property));
            NoReading {
                path: field,
                said,
                asked: A_SCHEMA,
            }
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

/// The keywords of JSON Schema, 2020-12's and the older drafts', that take no `null`: all but
/// `const` and `default`, whose value may be any.
const TAKING_NO_NULL: [&str; 61] = [
    "$id",
    "$schema",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    // OpenAPI's, which Gemini's subset reads.
    "nullable",
];

/// Takes out each keyword of JSON Schema's that is `null` where it takes no null: a
/// serializer's absent value (`"description": null`). `const` and `default` may be null, and
/// a keyword JSON Schema does not have (an extension's `x-...`) is not its to read.
fn nulls_as_absent(map: &mut Map<String, Value>) {
    map.retain(|keyword, value| !value.is_null() || !TAKING_NO_NULL.contains(&keyword.as_str()));
}

/// Writes the forms older drafts gave a keyword as 2020-12 gives it: draft-04's boolean
/// exclusive bounds, draft-07's tuple and `dependencies`, draft-03's `"type": "any"`, and drops
/// `$schema`, which only the root may hold, and only 2020-12's. Whether it renamed a keyword a
/// `$ref` may point through.
fn older_forms(map: &mut Map<String, Value>) -> bool {
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        let Some(Value::Bool(excluded)) = map.get(exclusive) else {
            continue;
        };
        // `true` excludes the bound beside it (none: nothing); `false` says nothing.
        match (*excluded, map.get(bound).filter(|value| value.is_number())) {
            (true, Some(value)) => {
                let value = value.clone();
                map.insert(exclusive.into(), value);
                map.shift_remove(bound);
            }
            _ => {
                map.shift_remove(exclusive);
            }
        }
    }
    let mut renamed = false;
    if map.get("items").is_some_and(Value::is_array) {
        // Beside 2020-12's `prefixItems` (a writer of both forms), the list says the same.
        match map.contains_key("prefixItems") {
            true => drop(map.shift_remove("items")),
            false => {
                if let Some(positions) = map.shift_remove("items") {
                    map.insert("prefixItems".into(), positions);
                }
            }
        }
        if let Some(rest) = map.shift_remove("additionalItems") {
            map.insert("items".into(), rest);
        }
        renamed = true;
    } else {
        // Beside no tuple, draft-07 read it as nothing.
        map.shift_remove("additionalItems");
    }
    // Draft-07's `dependencies`: a list of names is 2020-12's `dependentRequired`, a schema
    // its `dependentSchemas`; beside one of those already there, both hold.
    if let Some(Value::Object(dependencies)) = map.shift_remove("dependencies") {
        for (name, dependency) in dependencies {
            let keyword = match dependency.is_array() {
                true => "dependentRequired",
                false => "dependentSchemas",
            };
            let Value::Object(listed) = map
                .entry(keyword)
                .or_insert_with(|| Value::Object(Map::new()))
            else {
                continue;
            };
            match (listed.get_mut(&name), dependency) {
                (None, dependency) => drop(listed.insert(name, dependency)),
                (Some(Value::Array(names)), Value::Array(more)) => {
                    for more in more {
                        if !names.contains(&more) {
                            names.push(more);
                        }
                    }
                }
                (Some(existing), dependency) => {
                    *existing = serde_json::json!({"allOf": [existing.take(), dependency]});
                }
            }
        }
        renamed = true;
    }
    let any = |kind: &Value| kind == "any";
    let untyped = match map.get("type") {
        Some(Value::Array(types)) => types.iter().any(any),
        Some(kind) => any(kind),
        None => false,
    };
    if untyped {
        map.shift_remove("type");
    }
    // Below the root it is no keyword of 2020-12's (the root's is kept where it says 2020-12,
    // in `as_meant`).
    map.shift_remove("$schema");
    renamed
}

/// Lists each name of `required`, and each type of `type`, once, as 2020-12 asks; an entry of
/// `required` that is no name names no field, and is taken out.
fn once_each(map: &mut Map<String, Value>) {
    for keyword in ["required", "type"] {
        if let Some(Value::Array(listed)) = map.get_mut(keyword) {
            let mut seen: Vec<Value> = Vec::with_capacity(listed.len());
            listed.retain(|entry| {
                let keep = (keyword == "type" || entry.is_string()) && !seen.contains(entry);
                if keep {
                    seen.push(entry.clone());
                }
                keep
            });
        }
    }
}

/// What is wrong with `map`'s `type`, if it names none of JSON Schema's types, or lists none.
fn unknown_type(map: &Map<String, Value>) -> Option<String> {
    let known = |kind: &Value| kind.as_str().is_some_and(|kind| TYPES.contains(&kind));
    let fine = match map.get("type")? {
        Value::Array(types) => !types.is_empty() && types.iter().all(known),
        kind => known(kind),
    };
    (!fine).then(|| format!("the type it gives the field is {}", shown(&map["type"])))
}
