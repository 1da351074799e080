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
//! `prefixItems`, its `additionalItems` now `items`; a `$ref` into it as written still finds its
//! target, `schema/walk.rs` `step`), draft-07's `dependencies` (2020-12's `dependentRequired`
//! and `dependentSchemas`), draft-03's `"type": "any"` (no `type`), a
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
}

impl NoReading {
    /// What JSON Schema asks for in its place.
    pub(crate) fn asked(&self) -> &'static str {
        match self.said.starts_with("the type") {
            true => {
                "one of its types (\"string\", \"number\", \"integer\", \"boolean\", \
                     \"array\", \"object\", \"null\") or a list of them"
            }
            false => {
                "a schema (an object such as {\"type\": \"string\"}, or a boolean) for \
                      each field"
            }
        }
    }
}

/// Writes `schema`'s slips in today's form, every one it has, and says where it lists the
/// first thing with no reading, if any.
pub(crate) fn as_meant(schema: &mut Value) -> Result<(), NoReading> {
    let dialect = (schema.get("$schema").and_then(Value::as_str))
        .is_some_and(|named| named.trim_end_matches('#') == DIALECT);
    let mut fault = None;
    mend_every(schema, &mut String::new(), &mut fault);
    if let (true, Value::Object(map)) = (dialect, &mut *schema) {
        map.shift_insert(0, "$schema".into(), DIALECT.into());
    }
    match fault {
        Some((path, said)) => Err(NoReading { path, said }),
        None => Ok(()),
    }
}

/// Mends every schema object inside `schema` (at `path`), those of `not`, `contains` and the
/// like too, keeping in `fault` the first thing found that has no reading.
fn mend_every(schema: &mut Value, path: &mut String, fault: &mut Option<(String, String)>) {
    walk::every_subschema_mut(schema, path, &mut |map, path| {
        let found = mend(map, path);
        *fault = fault.take().or(found);
        let _ = walk::other_children_mut::<()>(map, |child| {
            mend_every(child, &mut path.to_owned(), fault);
            Ok(())
        });
    });
}

/// Mends the slips of one schema object (at `path`); what it lists that is no schema for a
/// field, with that field's path, if anything.
fn mend(map: &mut Map<String, Value>, path: &str) -> Option<(String, String)> {
    nulls_as_absent(map);
    if !matches!(map.get("required"), None | Some(Value::Array(_))) {
        map.shift_remove("required");
    }
    older_forms(map);
    once_each(map);
    // Said first, the rest mended all the same (the output check reads what it can).
    let type_fault = unknown_type(map).map(|said| (path.to_owned(), said));
    type_fault.or(mend_properties(map, path))
}

/// Mends `map`'s `properties`; what it lists that is no schema for a field, with that field's
/// path, if anything.
fn mend_properties(map: &mut Map<String, Value>, path: &str) -> Option<(String, String)> {
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

/// The keywords of JSON Schema, 2020-12's and the older drafts', that take no `null`: all but
/// `const` and `default`, whose value may be any.
const TAKING_NO_NULL: [&str; 60] = [
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
];

/// Takes out each keyword of JSON Schema's that is `null` where it takes no null: a
/// serializer's absent value (`"description": null`). `const` and `default` may be null, and
/// a keyword JSON Schema does not have (an extension's `x-...`) is not its to read.
fn nulls_as_absent(map: &mut Map<String, Value>) {
    map.retain(|keyword, value| !value.is_null() || !TAKING_NO_NULL.contains(&keyword.as_str()));
}

/// Writes the forms older drafts gave a keyword as 2020-12 gives it: draft-04's boolean
/// exclusive bounds, draft-07's tuple, draft-03's `"type": "any"`, and drops `$schema`, which
/// only the root may hold, and only 2020-12's.
fn older_forms(map: &mut Map<String, Value>) {
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
    if map.get("items").is_some_and(Value::is_array) && !map.contains_key("prefixItems") {
        if let Some(positions) = map.shift_remove("items") {
            map.insert("prefixItems".into(), positions);
        }
        if let Some(rest) = map.shift_remove("additionalItems") {
            map.insert("items".into(), rest);
        }
    } else if !map.get("items").is_some_and(Value::is_array) {
        // Beside no tuple, draft-07 read it as nothing.
        map.shift_remove("additionalItems");
    }
    // Draft-07's `dependencies`: a list of names is 2020-12's `dependentRequired`, a schema
    // its `dependentSchemas`.
    if let Some(Value::Object(dependencies)) = map.shift_remove("dependencies") {
        for (name, dependency) in dependencies {
            let keyword = match dependency.is_array() {
                true => "dependentRequired",
                false => "dependentSchemas",
            };
            if let Value::Object(listed) = map
                .entry(keyword)
                .or_insert_with(|| Value::Object(Map::new()))
            {
                listed.entry(name).or_insert(dependency);
            }
        }
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
