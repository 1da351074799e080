//! Gemini's form of a tool's input schema: its OpenAPI subset for a declaration's
//! `parameters`, or JSON Schema for `parametersJsonSchema` where the subset has no form.
//!
//! Gemini refuses a whole request for a keyword its `Schema` has no field for, at any depth,
//! and for shapes the subset cannot say (an object of no properties, an array of no items), so
//! each schema is written in the subset where it can be and sent as JSON Schema where it
//! cannot. The parser holds calls to the whole schema either way.

use serde_json::{Map, Value};

use super::all_of::fields_of_all;
use super::defs_only;
use super::dialect::{SchemaError, error, number_of};
use crate::schema::keywords::is_null_schema;
use crate::schema::walk;

/// The keywords of Gemini's `Schema` (its OpenAPI subset) sent to it: it refuses a whole
/// request for any other keyword in a declaration's `parameters`, at any depth. `title`, which
/// not every version of that `Schema` has, and which tells a model nothing a field's name and
/// description do not, is left out too.
const GEMINI_KEYWORDS: [&str; 21] = [
    "type",
    "format",
    "description",
    "nullable",
    "enum",
    "default",
    "example",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
];

/// An input schema as Gemini is sent it.
#[derive(Debug)]
pub(crate) enum GeminiForm {
    /// In Gemini's OpenAPI subset, for a declaration's `parameters`.
    Subset(Map<String, Value>),
    /// JSON Schema, for a declaration's `parametersJsonSchema`: the schema has a part the
    /// subset has no form for.
    JsonSchema(Map<String, Value>),
}

/// Gemini's form of an input schema, its `$ref`s inlined but for a recursive type's.
///
/// In the OpenAPI subset: a type array of one type and `null` becomes that type with
/// `nullable: true`; `anyOf` with a
/// `null` branch likewise; `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`;
/// `enum`s that are not all strings are dropped (their `type` stays, and this framework's
/// parser still refuses values outside them); a tuple's `prefixItems` become `items` any of its
/// items' schemas, as many as it has; an integer's exclusive bounds become inclusive ones;
/// `required` keeps the names `properties` has, and a schema of another type than an object
/// keeps no `properties` (nor one not an array, `items`), as Gemini refuses either; every
/// keyword Gemini's `Schema` has no field for is removed, formats Gemini does not know
/// likewise (the parser still holds each call to them). A value of several types
/// (`"type": ["string", "number"]`) becomes `anyOf` one schema a type, each with the keywords
/// of its type.
///
/// Gemini refuses an object that lists no properties and an array that says nothing of its
/// items, and the subset has no schema for a value of any type nor for fields beside the
/// listed ones: a schema with a map, a list of anything, a value of any type or a map's fields
/// beside listed ones, or a type that holds itself, is sent as JSON Schema, as written but for
/// `$schema`, and each `$ref` made one into `$defs` (`defs_only.rs`). `anyOf` is left alone in
/// its schema, its description said in each branch, as some of Gemini's endpoints ask.
pub(crate) fn gemini(schema: &Map<String, Value>) -> Result<GeminiForm, SchemaError> {
    // A type that holds itself is kept by reference, which the subset has no form for, and
    // Gemini's JSON Schema is documented to follow into `$defs` alone: a `$ref` elsewhere is
    // made one into `$defs`.
    let by_reference = !defs_only::references(schema).is_empty();
    let mut repointed;
    let schema = match by_reference {
        false => schema,
        true => {
            repointed = defs_only::refs_into_defs(schema).map_err(|reference| {
                error(
                    "",
                    format!("its `$ref` {reference} points at nothing in the schema"),
                )
            })?;
            // A tagged union's mapping into the definitions left behind points at nothing.
            super::inline::without_dangling_mappings(&mut repointed);
            &repointed
        }
    };
    let mut root = Value::Object(schema.clone());
    let mut refusal = None;
    let mut unsayable = by_reference;
    let mut at_root = true;
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        let at_top = std::mem::take(&mut at_root);
        // Fields of a kind of their own beside the listed ones: the subset has no form for
        // them, and leaving them out would hide them from the model. At the top, with no
        // listed fields, fields of any kind too: else the tool is told as one that takes
        // nothing.
        unsayable |= takes_more_fields(map, at_top && lists_no_properties(map));
        // A lone branch taken in brings keywords of its own (a `oneOf`, a `const`).
        while gemini_form(map, path, &mut refusal, &mut unsayable) {}
        unsayable |= !at_top && has_no_subset_form(map);
        // `true` (schemars' `serde_json::Value`) or `false` where a schema goes: the subset
        // takes only schema objects.
        let _ = walk::children::<()>(map, |_, child| {
            unsayable |= child.is_boolean();
            Ok(())
        });
    });
    match (refusal, root) {
        (Some(error), _) => Err(error),
        (None, _) if unsayable => {
            let mut written = Value::Object(schema.clone());
            walk::every_subschema_mut(&mut written, &mut String::new(), &mut |map, _| {
                map.shift_remove("$schema");
            });
            match written {
                Value::Object(map) => Ok(GeminiForm::JsonSchema(map)),
                _ => Err(error("", "the schema is not an object".to_owned())),
            }
        }
        (None, Value::Object(map)) => Ok(GeminiForm::Subset(map)),
        (None, _) => Err(error("", "the schema is not an object".to_owned())),
    }
}

/// Whether a schema lists no properties: none, or an empty map of them.
pub(crate) fn lists_no_properties(map: &Map<String, Value>) -> bool {
    map.get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty)
}

/// Whether a schema below the top, in the subset, says what Gemini refuses or what the subset
/// cannot say: an object of no properties (a map, or an object of anything), an array of no
/// items, or a value of any type.
fn has_no_subset_form(map: &Map<String, Value>) -> bool {
    match map.get("type").and_then(Value::as_str) {
        Some("object") => lists_no_properties(map),
        Some("array") => !map.contains_key("items"),
        Some(_) => false,
        None => !map.contains_key("anyOf") && !map.contains_key("enum"),
    }
}

/// Leaves `anyOf` the only keyword of its schema, as Gemini asks on some of its endpoints
/// ("when using any_of, it must be the only field set"): the union's description is said
/// before each branch's own, and `nullable` said of each branch; any other keyword beside it
/// is left out (the parser still holds calls to it).
fn any_of_alone(map: &mut Map<String, Value>) {
    let Some(Value::Array(mut branches)) = map.shift_remove("anyOf") else {
        return;
    };
    let description = map.get("description").and_then(Value::as_str);
    let nullable = map.get("nullable") == Some(&Value::Bool(true));
    for branch in &mut branches {
        let Value::Object(branch) = branch else {
            continue;
        };
        if let Some(description) = description {
            let said = match branch.get("description").and_then(Value::as_str) {
                Some(own) => format!("{description} {own}"),
                None => description.to_owned(),
            };
            branch.insert("description".into(), said.into());
        }
        if nullable {
            branch.insert("nullable".into(), Value::Bool(true));
        }
    }
    map.clear();
    map.insert("anyOf".into(), Value::Array(branches));
}

/// Whether an object takes fields besides those it lists, of a kind said of them (a map's
/// values: `additionalProperties`, `patternProperties`), or, for `any_kind`, of any kind too
/// (`additionalProperties: true`).
fn takes_more_fields(map: &Map<String, Value>, any_kind: bool) -> bool {
    let said = |value: &Value| match value {
        Value::Object(schema) => !schema.is_empty() || any_kind,
        Value::Bool(open) => *open && any_kind,
        _ => false,
    };
    map.get("additionalProperties").is_some_and(said)
        || map
            .get("patternProperties")
            .and_then(Value::as_object)
            .is_some_and(|patterns| !patterns.is_empty())
}

/// One schema of [`gemini`]'s walk, made Gemini's: whether a lone branch of a union was taken
/// in, whose keywords are then to be made Gemini's too.
fn gemini_form(
    map: &mut Map<String, Value>,
    path: &str,
    refusal: &mut Option<SchemaError>,
    unsayable: &mut bool,
) -> bool {
    let mut merged = false;
    if map.contains_key("if") {
        refusal.get_or_insert_with(|| {
            error(
                path,
                "a condition (`if`/`then`/`else`) has no Gemini form; leave Gemini out of \
                 the registry's providers, or write the rule in the handler"
                    .to_owned(),
            )
        });
    }
    if let Some(Value::Array(mut all)) = map.shift_remove("allOf") {
        if all.len() == 1 {
            if let Value::Object(only) = all.remove(0) {
                for (key, value) in only {
                    map.entry(key).or_insert(value);
                }
            }
        } else if !fields_of_all(map, &all) {
            refusal.get_or_insert_with(|| {
                error(
                    path,
                    "`allOf` of several schemas, other than objects of distinct fields, has no \
                     Gemini form; leave Gemini out of the registry's providers \
                     (`Registry::builder().providers([..])`), or the tool out of the registry"
                        .to_owned(),
                )
            });
        }
    }
    if let Some(one_of) = map.shift_remove("oneOf") {
        map.insert("anyOf".into(), one_of);
    }
    if let Some(constant) = map.shift_remove("const") {
        map.insert("enum".into(), Value::Array(vec![constant]));
    }
    if let Some(Value::Array(names)) = map.get("type").cloned() {
        let null = names.iter().any(|name| name == "null");
        let types: Vec<Value> = names.into_iter().filter(|name| name != "null").collect();
        match types.as_slice() {
            [only] => {
                map.insert("type".into(), only.clone());
            }
            // A value only ever null, or of several types beside a union: JSON Schema says
            // either, the subset neither.
            [] => *unsayable = true,
            _ if map.contains_key("anyOf") => *unsayable = true,
            _ => split_by_type(map, types),
        }
        if null {
            map.insert("nullable".into(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        let before = branches.len();
        branches.retain(|branch| !is_null_schema(branch));
        if branches.len() < before {
            map.insert("nullable".into(), Value::Bool(true));
        }
        if let Some(Value::Array(branches)) = map.get("anyOf").cloned()
            && let [only] = branches.as_slice()
        {
            map.shift_remove("anyOf");
            if let Value::Object(only) = only {
                for (key, value) in only {
                    map.entry(key.clone()).or_insert(value.clone());
                }
            }
            merged = true;
        }
    }
    // A tuple: Gemini has no form for items by position, so its items are each any of the
    // positions' schemas (and of `items`', past them), the parser holding each to its own.
    // Where items past the positions may be anything, Gemini is told nothing of the items.
    if let Some(Value::Array(positions)) = map.shift_remove("prefixItems") {
        let rest = map.shift_remove("items");
        let closed = matches!(rest, Some(Value::Bool(false)))
            || (map.get("maxItems").and_then(Value::as_u64))
                .is_some_and(|most| most <= positions.len() as u64);
        let open_rest = rest.filter(Value::is_object);
        if closed || open_rest.is_some() {
            let mut kinds: Vec<Value> = Vec::new();
            for kind in positions.into_iter().chain(open_rest) {
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
            let items = match kinds.len() {
                1 => kinds.remove(0),
                _ => serde_json::json!({ "anyOf": kinds }),
            };
            map.insert("items".into(), items);
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if values.iter().all(Value::is_string) {
            map.insert("type".into(), Value::String("string".into()));
        } else {
            map.shift_remove("enum");
        }
    }
    let known_format = match (map.get("type").and_then(Value::as_str), map.get("format")) {
        (Some("integer"), Some(Value::String(format))) => {
            ["int32", "int64"].contains(&format.as_str())
        }
        (Some("number"), Some(Value::String(format))) => {
            ["float", "double"].contains(&format.as_str())
        }
        (Some("string"), Some(Value::String(format))) => {
            ["date-time", "enum"].contains(&format.as_str())
        }
        _ => true,
    };
    if !known_format {
        map.shift_remove("format");
    }
    if merged {
        // The branch taken in may bring keywords the steps before make Gemini's (a `const`):
        // the last pass, below, waits for them.
        return true;
    }
    integer_bounds_inclusive(map);
    // A schema of no type that lists fields, or says its items, is of the one type that has
    // them (Gemini's `Schema` calls no type a type of its own).
    if !map.contains_key("type") && !map.contains_key("anyOf") && !map.contains_key("enum") {
        let kind = match (map.contains_key("properties"), map.contains_key("items")) {
            (true, false) => Some("object"),
            (false, true) => Some("array"),
            _ => None,
        };
        if let Some(kind) = kind {
            map.insert("type".into(), kind.into());
        }
    }
    // Gemini refuses `properties` on any other type ("only allowed for OBJECT type").
    let kind = map.get("type").and_then(Value::as_str);
    let untyped = kind.is_none() && !map.contains_key("anyOf");
    let (object, array) = (untyped || kind == Some("object"), kind == Some("array"));
    if !object {
        for key in ["properties", "required", "minProperties", "maxProperties"] {
            map.shift_remove(key);
        }
    }
    if !object && !array {
        for key in ["items", "minItems", "maxItems"] {
            map.shift_remove(key);
        }
    }
    // Gemini refuses a required name its object does not define ("property is not defined").
    let defined = |name: &Value| {
        let properties = map.get("properties").and_then(Value::as_object);
        name.as_str()
            .is_some_and(|name| properties.is_some_and(|properties| properties.contains_key(name)))
    };
    if let Some(Value::Array(names)) = map.get("required") {
        let kept: Vec<Value> = names.iter().filter(|name| defined(name)).cloned().collect();
        match kept.is_empty() {
            true => map.shift_remove("required"),
            false => map.insert("required".into(), Value::Array(kept)),
        };
    }
    map.retain(|key, _| GEMINI_KEYWORDS.contains(&key.as_str()));
    any_of_alone(map);
    false
}

/// The keywords that bear on the values of one type, by the type (`number` for `integer`
/// too).
const KEYWORDS_OF_TYPE: [(&str, &[&str]); 4] = [
    ("string", &["minLength", "maxLength", "pattern", "format"]),
    (
        "number",
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "format",
        ],
    ),
    (
        "array",
        &[
            "items",
            "prefixItems",
            "additionalItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ],
    ),
    (
        "object",
        &[
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "propertyOrdering",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ],
    ),
];

/// A value of several types (`"type": ["string", "number"]`, as zod writes a union of
/// primitives) as `anyOf` one schema a type, each with the keywords that bear on values of its
/// type: Gemini's `Schema` names one type.
fn split_by_type(map: &mut Map<String, Value>, types: Vec<Value>) {
    map.shift_remove("type");
    // The values listed (zod writes a union of literals so), each in its type's branch; a
    // type none of them is of takes no branch.
    let listed = map.shift_remove("enum");
    let branches = types
        .into_iter()
        .filter_map(|kind| {
            let name = kind.as_str().unwrap_or_default();
            let mut branch = Map::new();
            branch.insert("type".into(), kind.clone());
            if let Some(Value::Array(values)) = &listed {
                let of_kind: Vec<Value> = values
                    .iter()
                    .filter(|value| is_of_type(value, name))
                    .cloned()
                    .collect();
                if of_kind.is_empty() {
                    return None;
                }
                branch.insert("enum".into(), Value::Array(of_kind));
            }
            let name = if name == "integer" { "number" } else { name };
            let keys = KEYWORDS_OF_TYPE.iter().filter(|(of, _)| *of == name);
            for key in keys.flat_map(|(_, keys)| keys.iter()) {
                if let Some(value) = map.get(*key) {
                    branch.insert((*key).to_owned(), value.clone());
                }
            }
            Some(Value::Object(branch))
        })
        .collect();
    for key in KEYWORDS_OF_TYPE.iter().flat_map(|(_, keys)| keys.iter()) {
        map.shift_remove(*key);
    }
    map.insert("anyOf".into(), Value::Array(branches));
}

/// Whether `value` is of the JSON Schema type `name`.
fn is_of_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("string", Value::String(_)) | ("boolean", Value::Bool(_)) => true,
        ("number", Value::Number(_)) | ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        ("integer", Value::Number(number)) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|n| n.fract() == 0.0)
        }
        _ => false,
    }
}

/// An integer's exclusive bounds as the inclusive ones Gemini has (`exclusiveMinimum: 0` is
/// `minimum: 1`, `exclusiveMaximum: 9.5` is `maximum: 9`), unless the inclusive bound said is as
/// tight.
fn integer_bounds_inclusive(map: &mut Map<String, Value>) {
    if map.get("type").and_then(Value::as_str) != Some("integer") {
        return;
    }
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        let at_least = inclusive == "minimum";
        let Some(bound) = map
            .get(exclusive)
            .and_then(|bound| first_whole_past(bound, at_least))
        else {
            continue;
        };
        let said = map.get(inclusive).and_then(Value::as_f64);
        // Compared as doubles, which may round a bound past 2^53 by a few: the parser holds
        // calls to the bound as written.
        let tighter = said.is_none_or(|said| match at_least {
            true => bound as f64 > said,
            false => (bound as f64) < said,
        });
        if let (true, Some(bound)) = (tighter, number_of(bound)) {
            map.insert(inclusive.to_owned(), Value::Number(bound));
        }
    }
}

/// The first whole number past an exclusive bound, upwards (`at_least`) or downwards.
fn first_whole_past(bound: &Value, at_least: bool) -> Option<i128> {
    let whole = match (bound.as_i64(), bound.as_u64()) {
        (Some(n), _) => i128::from(n),
        (None, Some(n)) => i128::from(n),
        (None, None) => {
            let bound = bound.as_f64()?;
            let whole = if at_least {
                bound.floor()
            } else {
                bound.ceil()
            };
            // Past i64's range a double's integer is no longer exact enough to step from.
            if !(-9.2e18..=9.2e18).contains(&whole) {
                return None;
            }
            whole as i128
        }
    };
    Some(if at_least { whole + 1 } else { whole - 1 })
}
