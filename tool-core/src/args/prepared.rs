//! A tool's input schema made ready for the parser once, when the tool is first used: its
//! `pattern`s compiled, and whether arguments serde accepts must still be held against it
//! (they must when the schema says more than the Rust type does: a bound, a length, a
//! pattern, a format, a nested object that may not take fields it does not name).

use serde_json::{Map, Value};

use super::plan::Plan;
use crate::schema::formats;
use crate::schema::keywords::{BEYOND_SERDE, integer_range};
use crate::schema::patterns::Patterns;
use crate::schema::walk;

/// A tool's input schema, ready for the parser.
#[derive(Debug)]
pub struct Prepared {
    schema: Map<String, Value>,
    patterns: Patterns,
    /// How to check a call serde accepted, when the schema says more than serde checks.
    plan: Option<Plan>,
}

/// What the parser reads of a schema.
#[derive(Clone, Copy)]
pub(super) struct View<'s> {
    pub(super) schema: &'s Map<String, Value>,
    pub(super) patterns: &'s Patterns,
    pub(super) plan: Option<&'s Plan>,
}

impl Prepared {
    /// `schema`, with what the parser needs of it worked out.
    pub fn new(schema: Map<String, Value>) -> Prepared {
        let patterns = Patterns::of(&schema);
        let plan = says_more_than_serde(&schema).then(|| Plan::of(&schema, &patterns));
        Prepared {
            schema,
            patterns,
            plan,
        }
    }

    /// The schema itself.
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    pub(super) fn view(&self) -> View<'_> {
        View {
            schema: &self.schema,
            patterns: &self.patterns,
            plan: self.plan.as_ref(),
        }
    }
}

/// Whether arguments that serde reads into the type may still break `schema`: it has a
/// keyword that constrains more than the type's own range does, a standard format the
/// checker checks, or an object inside the arguments (whose unknown fields serde would drop).
fn says_more_than_serde(schema: &Map<String, Value>) -> bool {
    let mut more = false;
    let mut root = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        more = more || (!path.is_empty() && is_object(map)) || constrains_beyond_type(map);
    });
    // `$defs` are walked with paths of their own: a definition that is an object is one
    // nested in the arguments.
    more
}

fn is_object(map: &Map<String, Value>) -> bool {
    map.contains_key("properties")
}

/// Whether this schema object constrains its value beyond what the Rust type behind it does.
fn constrains_beyond_type(map: &Map<String, Value>) -> bool {
    let implied = map
        .get("format")
        .and_then(Value::as_str)
        .and_then(integer_range);
    let is_implied = |key: &str, bound: &Value| match (implied, key) {
        (Some((min, _)), "minimum") => bound.as_f64() == Some(min as f64),
        (Some((_, max)), "maximum") => bound.as_f64() == Some(max as f64),
        _ => false,
    };
    // `float`: serde reads an `f32` inside a tagged, untagged or flattened type from a buffer
    // of `f64`s and converts with `as`, taking a number beyond `f32`'s range as infinity.
    let checked_format = map
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|format| format == "float" || formats::expected(format).is_some());
    checked_format
        || map.iter().any(|(key, value)| {
            BEYOND_SERDE.contains(&key.as_str())
                && !is_implied(key, value)
                && !(key == "uniqueItems" && value == &Value::Bool(false))
        })
}
