//! Rewriting a tool's JSON Schema into what each provider accepts.
//!
//! schemars writes JSON Schema 2020-12 with nested structs in `$defs`. Providers each accept a
//! different subset: Gemini refuses `$ref`, `oneOf`, `const` and `additionalProperties`;
//! OpenAI's strict mode has a module of its own (`strict.rs`). These functions take a schema
//! as the registry holds it and give the provider's form, or a [`SchemaError`] naming the
//! field that cannot be expressed.
//!
//! They work on one schema at a time, walk it with [`walk`], and know nothing of tools.

use serde_json::{Map, Value};

use crate::args::shown;
use crate::schema::keywords::{integer_range, is_null_schema};
use crate::schema::walk;

/// Why a schema cannot be written in a provider's dialect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct SchemaError {
    /// The field, as a path from the arguments' root (`items[].children`); `(arguments)` for
    /// the root itself.
    pub path: String,
    /// What cannot be expressed.
    pub problem: String,
}

/// The `format`s of JSON Schema's own vocabulary, which clients know. Every other one
/// schemars writes names a Rust type (`uint64`, `int32`, `float`): a client that validates
/// against the schema warns of each, and a model learns nothing from it that the bounds do
/// not say.
pub(super) const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Takes out every `format` that is not a standard one, writing the range of the Rust number
/// type it named as `minimum` and `maximum` (tightening any there are). The registry keeps
/// the full schema, and checks calls against that.
pub(super) fn standard_formats(schema: &mut Value) {
    walk::every_subschema_mut(schema, &mut String::new(), &mut |map, _| {
        let Some(Value::String(format)) = map.get("format") else {
            return;
        };
        if STANDARD_FORMATS.contains(&format.as_str()) {
            return;
        }
        let format = format.clone();
        map.shift_remove("format");
        if let Some(said) = format_in_words(&format) {
            let description = match map.get("description").and_then(Value::as_str) {
                Some(description) => format!("{description} ({said})"),
                None => said.to_owned(),
            };
            map.insert("description".into(), description.into());
        }
        let range = match integer_range(&format) {
            Some((min, max)) => Some((number_of(min), number_of(max))),
            None if format == "float" => Some((
                serde_json::Number::from_f64(f64::from(f32::MIN)),
                serde_json::Number::from_f64(f64::from(f32::MAX)),
            )),
            None => None,
        };
        if let Some((min, max)) = range {
            tighten(map, "minimum", min, |bound, was| bound > was);
            tighten(map, "maximum", max, |bound, was| bound < was);
        }
    });
}

/// What a text of a format schemars writes that is no standard one holds, said for the model
/// in its stead (the parser holds a call to the format itself).
fn format_in_words(format: &str) -> Option<&'static str> {
    Some(match format {
        "ip" => "an IPv4 or IPv6 address",
        "partial-date-time" => "a date and time without an offset, as 2024-01-31T09:30:00",
        "partial-time" => "a time of day, as 09:30:00",
        _ => return None,
    })
}

/// An integer bound as a JSON number.
fn number_of(bound: i128) -> Option<serde_json::Number> {
    i64::try_from(bound)
        .map(serde_json::Number::from)
        .or_else(|_| u64::try_from(bound).map(serde_json::Number::from))
        .ok()
}

/// Sets `key` to `bound` unless the schema already says a bound at least as tight.
fn tighten(
    map: &mut Map<String, Value>,
    key: &str,
    bound: Option<serde_json::Number>,
    tighter: fn(f64, f64) -> bool,
) {
    let Some(bound) = bound else { return };
    let looser = match map.get(key).and_then(Value::as_f64) {
        Some(was) => bound.as_f64().is_some_and(|bound| tighter(bound, was)),
        None => true,
    };
    if looser {
        map.insert(key.to_owned(), Value::Number(bound));
    }
}

pub(super) fn error(path: &str, problem: String) -> SchemaError {
    SchemaError {
        path: shown(path.to_owned()),
        problem,
    }
}

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
/// `$schema`. `anyOf` is left
/// alone in its schema, its description said in each branch, as some of Gemini's endpoints ask.
pub(crate) fn gemini(schema: &Map<String, Value>) -> Result<GeminiForm, SchemaError> {
    let mut root = Value::Object(schema.clone());
    let mut refusal = None;
    let mut unsayable = false;
    let mut at_root = true;
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        let at_top = std::mem::take(&mut at_root);
        // A type that holds itself is kept by reference, which the subset has no form for.
        unsayable |= map.contains_key("$ref");
        // Fields of a kind of their own beside the listed ones: the subset has no form for
        // them, and leaving them out would hide them from the model. At the top, with no
        // listed fields, fields of any kind too: else the tool is told as one that takes
        // nothing.
        unsayable |= takes_more_fields(map, at_top && lists_no_properties(map));
        // A lone branch taken in brings keywords of its own (a `oneOf`, a `const`).
        while gemini_form(map, path, &mut refusal) {}
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
        } else {
            refusal.get_or_insert_with(|| {
                error(
                    path,
                    "`allOf` of several schemas has no Gemini form".to_owned(),
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
            [] => {
                let problem = "a value that is only ever null has no Gemini form";
                refusal.get_or_insert_with(|| error(path, problem.to_owned()));
            }
            [only] => {
                map.insert("type".into(), only.clone());
            }
            _ if map.contains_key("anyOf") => {
                let problem = "a value of several types beside `anyOf` has no Gemini form";
                refusal.get_or_insert_with(|| error(path, problem.to_owned()));
            }
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
    // Draft-07 writes a tuple's positions as `items: [..]`, and the items past them as
    // `additionalItems`: read as 2020-12's `prefixItems` and `items`.
    if map.get("items").is_some_and(Value::is_array) {
        if let Some(positions) = map.shift_remove("items") {
            map.insert("prefixItems".into(), positions);
        }
        if let Some(rest) = map.shift_remove("additionalItems") {
            map.insert("items".into(), rest);
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
            "minItems",
            "maxItems",
            "uniqueItems",
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
        ],
    ),
];

/// A value of several types (`"type": ["string", "number"]`, as zod writes a union of
/// primitives) as `anyOf` one schema a type, each with the keywords that bear on values of its
/// type: Gemini's `Schema` names one type.
fn split_by_type(map: &mut Map<String, Value>, types: Vec<Value>) {
    map.shift_remove("type");
    let branches = types
        .into_iter()
        .map(|kind| {
            let name = kind.as_str().unwrap_or_default();
            let name = if name == "integer" { "number" } else { name };
            let mut branch = Map::new();
            branch.insert("type".into(), kind.clone());
            let keys = KEYWORDS_OF_TYPE.iter().filter(|(of, _)| *of == name);
            for key in keys.flat_map(|(_, keys)| keys.iter()) {
                if let Some(value) = map.get(*key) {
                    branch.insert((*key).to_owned(), value.clone());
                }
            }
            Value::Object(branch)
        })
        .collect();
    for key in KEYWORDS_OF_TYPE.iter().flat_map(|(_, keys)| keys.iter()) {
        map.shift_remove(*key);
    }
    map.insert("anyOf".into(), Value::Array(branches));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gemini_is_told_a_tuple_s_items_as_far_as_they_are_known() {
        let form_of = |items: Value| {
            let schema = json!({"type": "object", "properties": {"t": items}});
            gemini(schema.as_object().unwrap()).unwrap()
        };
        let gemini_of = |items: Value| match form_of(items) {
            GeminiForm::Subset(form) => Value::Object(form)["properties"]["t"].clone(),
            GeminiForm::JsonSchema(form) => panic!("not in the subset: {form:?}"),
        };
        // Closed: any of the positions' kinds, as many as the schema says.
        let pair = gemini_of(json!({
            "type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
            "minItems": 2, "maxItems": 2
        }));
        assert_eq!(
            pair["items"]["anyOf"].as_array().map(Vec::len),
            Some(2),
            "{pair}"
        );
        assert_eq!(
            (&pair["minItems"], &pair["maxItems"]),
            (&json!(2), &json!(2))
        );
        // Items past the positions of a kind of their own: that kind too, no count made up.
        let rest = gemini_of(json!({
            "type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}
        }));
        assert_eq!(
            rest["items"]["anyOf"].as_array().map(Vec::len),
            Some(2),
            "{rest}"
        );
        assert!(
            rest.get("minItems").is_none() && rest.get("maxItems").is_none(),
            "{rest}"
        );
        // Items past the positions of any kind: the subset has no form for them (Gemini
        // refuses an array that says nothing of its items), so the tuple is sent as written.
        let open = json!({"type": "array", "prefixItems": [{"type": "string"}]});
        match form_of(open.clone()) {
            GeminiForm::JsonSchema(form) => assert_eq!(form["properties"]["t"], open),
            GeminiForm::Subset(form) => panic!("in the subset: {form:?}"),
        }
    }
}
