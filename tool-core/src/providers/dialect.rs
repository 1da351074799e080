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

/// Gemini's OpenAPI-subset form of an (inlined, `$ref`-free) input schema.
///
/// Type arrays become one type with `nullable: true`; `anyOf` with a `null` branch likewise;
/// `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`; `enum`s that are not all
/// strings are dropped (their `type` stays, and this framework's parser still refuses values
/// outside them); a tuple's `prefixItems` become `items` any of its items' schemas, as many as
/// it has; `additionalProperties`, `patternProperties`, `uniqueItems`, `allOf` of one schema,
/// `$schema`, `title` and formats Gemini does not know are removed (the parser still holds each
/// call to them). A union of several non-null types is refused.
pub(crate) fn gemini(schema: &Map<String, Value>) -> Result<Map<String, Value>, SchemaError> {
    let mut root = Value::Object(schema.clone());
    let mut refusal = None;
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        // A lone branch taken in brings keywords of its own (a `oneOf`, a `const`).
        while gemini_form(map, path, &mut refusal) {}
    });
    match refusal {
        Some(error) => Err(error),
        None => match root {
            Value::Object(map) => Ok(map),
            _ => Err(error("", "the schema is not an object".to_owned())),
        },
    }
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
    map.remove("$schema");
    map.remove("$anchor");
    map.remove("title");
    map.remove("additionalProperties");
    map.remove("patternProperties");
    if let Some(Value::Array(mut all)) = map.remove("allOf") {
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
    if let Some(one_of) = map.remove("oneOf") {
        map.insert("anyOf".into(), one_of);
    }
    if let Some(constant) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![constant]));
    }
    if let Some(Value::Array(names)) = map.get("type").cloned() {
        let types: Vec<Value> = names.into_iter().filter(|name| name != "null").collect();
        match types.as_slice() {
            [only] => {
                map.insert("type".into(), only.clone());
                map.insert("nullable".into(), Value::Bool(true));
            }
            _ => {
                refusal.get_or_insert_with(|| {
                    error(
                        path,
                        "a value of several types has no Gemini form".to_owned(),
                    )
                });
            }
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
            map.remove("anyOf");
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
    if let Some(Value::Array(positions)) = map.remove("prefixItems") {
        let rest = map.remove("items");
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
    // Gemini refuses the keyword; the parser still refuses a repeated item.
    map.remove("uniqueItems");
    if let Some(Value::Array(values)) = map.get("enum") {
        if values.iter().all(Value::is_string) {
            map.insert("type".into(), Value::String("string".into()));
        } else {
            map.remove("enum");
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
        map.remove("format");
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gemini_is_told_a_tuple_s_items_as_far_as_they_are_known() {
        let gemini_of = |items: Value| {
            let schema = json!({"type": "object", "properties": {"t": items}});
            Value::Object(gemini(schema.as_object().unwrap()).unwrap())["properties"]["t"].clone()
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
        // Items past the positions of any kind: nothing said of the items.
        let open = gemini_of(json!({"type": "array", "prefixItems": [{"type": "string"}]}));
        assert!(
            open.get("items").is_none() && open.get("prefixItems").is_none(),
            "{open}"
        );
    }
}
