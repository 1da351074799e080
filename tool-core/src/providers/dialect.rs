//! What every provider's dialect shares: the error naming the field a provider cannot be
//! shown, and only JSON Schema's own `format`s.
//!
//! schemars writes JSON Schema 2020-12 with nested structs in `$defs`. Providers each accept a
//! different subset: Gemini's has a module of its own (`gemini_schema.rs`), and so has OpenAI's
//! strict mode (`strict.rs`). These functions take a schema as the registry holds it and give
//! the provider's form, or a [`SchemaError`] naming the field that cannot be expressed.
//!
//! They work on one schema at a time, walk it with [`walk`], and know nothing of tools.

use serde_json::{Map, Value};

use crate::args::shown;
use crate::schema::keywords::integer_range;
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
pub(super) fn number_of(bound: i128) -> Option<serde_json::Number> {
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
