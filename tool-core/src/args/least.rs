//! The least value a schema takes, and a value it refuses: what a type is read with when it is
//! asked, once, while its schema is prepared, how it reads one of its parts (`required.rs`,
//! `keyed.rs`). The values need only be ones serde reads (or refuses); the checker never sees
//! them.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::schema::keywords::admits_null;
use crate::schema::walk::{Lookup, Root};

/// The key a map is asked about under, unless its schema names keys of another kind.
const KEY: &str = "key";

/// The least UUID, a key or a text of the format `uuid`.
pub(super) const NIL_UUID: &str = "00000000-0000-0000-0000-000000000000";

/// How deep [`least`] builds a value.
pub(super) const MAX_LEAST_DEPTH: usize = 32;

/// The most values one least value is made of: a schema whose definitions refer to each
/// other many ways over would otherwise be written out whole, each way over.
const MAX_LEAST_VALUES: usize = 2048;

/// The least value `schema` takes, by its type alone, for a read that checks nothing else:
/// `null` where it takes `null`, an enum's first value, `0` (or its `minimum`), a text of
/// its least length (the least instant, day or UUID where its `format` names one), `false`,
/// a list of its least length (a tuple's least items), an object of its required fields'
/// least values, a union's first branch that has one. `None` where it cannot say (a type it
/// does not name, deeper than `depth`, more than [`MAX_LEAST_VALUES`] values, an object a
/// field of which it cannot say).
pub(super) fn least(schema: &Value, root: Root<'_>, depth: usize) -> Option<Value> {
    let mut left = MAX_LEAST_VALUES;
    least_of(schema, root, depth, &mut left)
}

/// An object of the least values of the fields `map`, an object schema, requires: those it
/// can make (serde misses a field only at its object's end, after reading the others).
pub(super) fn least_fields(
    map: &Map<String, Value>,
    root: Root<'_>,
    depth: usize,
) -> Map<String, Value> {
    let mut left = MAX_LEAST_VALUES;
    fields_of(map, root, depth, &mut left).0
}

/// [`least`], with `left` values to make it of.
fn least_of(schema: &Value, root: Root<'_>, depth: usize, left: &mut usize) -> Option<Value> {
    *left = left.checked_sub(1)?;
    if admits_null(schema, root) {
        return Some(Value::Null);
    }
    let depth = depth.checked_sub(1)?;
    let map = root.deref(schema)?;
    if let Some(Value::Array(values)) = map.lookup("enum") {
        return values.first().cloned();
    }
    if let Some(value) = map.lookup("const") {
        return Some(value.clone());
    }
    let kind = match map.lookup("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds.iter().find_map(Value::as_str)?,
        _ => {
            let branches = map.lookup("anyOf").or(map.lookup("oneOf"));
            return (branches.and_then(Value::as_array)?.iter())
                .find_map(|branch| least_of(branch, root, depth, left));
        }
    };
    Some(match kind {
        "string" => least_text(map),
        "integer" | "number" => least_number(map),
        "boolean" => Value::Bool(false),
        "array" => match map.lookup("prefixItems").and_then(Value::as_array) {
            Some(items) => Value::Array(
                (items.iter())
                    .map(|item| least_of(item, root, depth, left))
                    .collect::<Option<_>>()?,
            ),
            None => least_list(map, root, depth, left)?,
        },
        // A nested object made in part is none: its field is left out of the object around
        // it, and a union's next branch is tried.
        "object" => match fields_of(map, root, depth, left) {
            (fields, true) => Value::Object(fields),
            (_, false) => return None,
        },
        _ => return None,
    })
}

/// A key the map `map` describes takes: one its `propertyNames` name (an enum's first
/// variant), a UUID for UUIDs, else [`KEY`].
pub(super) fn least_key<'s>(map: &'s Map<String, Value>, root: Root<'s>) -> &'s str {
    (map.lookup("propertyNames"))
        .and_then(|names| first_name(names, root, MAX_LEAST_DEPTH))
        .unwrap_or(KEY)
}

/// The first text `names`, a schema of keys, takes by name: its first `enum` value or its
/// `const`, its first branch's, or the least UUID for the format `uuid`.
fn first_name<'s>(names: &'s Value, root: Root<'s>, depth: usize) -> Option<&'s str> {
    let names = root.deref(names)?;
    let depth = depth.checked_sub(1)?;
    let listed = names.lookup("enum").and_then(Value::as_array);
    let named = (listed.and_then(|listed| listed.first()))
        .or(names.lookup("const"))
        .and_then(Value::as_str);
    let branches = names.lookup("anyOf").or(names.lookup("oneOf"));
    named
        .or_else(|| {
            (branches.and_then(Value::as_array)?.iter())
                .find_map(|branch| first_name(branch, root, depth))
        })
        .or((names.lookup("format") == Some(&Value::from("uuid"))).then_some(NIL_UUID))
}

/// [`least_fields`], with `left` values to make it of, and whether every field was made.
fn fields_of(
    map: &Map<String, Value>,
    root: Root<'_>,
    depth: usize,
    left: &mut usize,
) -> (Map<String, Value>, bool) {
    let properties = map.lookup("properties").and_then(Value::as_object);
    // A set: asked once a field, of as many fields as a struct has.
    let required: HashSet<&str> = (map.lookup("required").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let required = |name: &str| required.contains(name);
    let mut object = Map::new();
    let mut whole = true;
    for (name, property) in properties.into_iter().flatten() {
        if required(name) {
            match least_of(property, root, depth, left) {
                Some(least) => {
                    object.insert(name.clone(), least);
                }
                None => whole = false,
            }
        }
    }
    (object, whole)
}

/// A list of `minItems` least items (a fixed-size array's length).
fn least_list(
    map: &Map<String, Value>,
    root: Root<'_>,
    depth: usize,
    left: &mut usize,
) -> Option<Value> {
    let length = map.lookup("minItems").and_then(Value::as_u64).unwrap_or(0);
    if length == 0 {
        return Some(Value::Array(Vec::new()));
    }
    let item = least_of(map.lookup("items")?, root, depth, left)?;
    let length = usize::try_from(length.min(64)).unwrap_or(64);
    // Each copy of the item is as many values as the first, which was counted as it was made.
    *left = left.checked_sub(size(&item).checked_mul(length - 1)?)?;
    Some(Value::Array(vec![item; length]))
}

/// How many values `value` is made of.
pub(super) fn size(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(size).sum(),
        Value::Object(fields) => fields.values().map(size).sum(),
        _ => 0,
    }
}

/// A text serde's readers of the `format` take (chrono's, time's and jiff's instants and days,
/// uuid's UUIDs, the standard library's addresses), else `minLength` zeros (one for a `char`).
fn least_text(map: &Map<String, Value>) -> Value {
    let formatted = match map.lookup("format").and_then(Value::as_str) {
        Some("date-time") => "1970-01-01T00:00:00Z",
        Some("partial-date-time") => "1970-01-01T00:00:00",
        Some("date") => "1970-01-01",
        Some("time" | "partial-time") => "00:00:00",
        Some("ip") => "0.0.0.0",
        Some("uuid") => NIL_UUID,
        Some("ipv4") => "0.0.0.0",
        Some("ipv6") => "::",
        Some("uri") => "a:",
        _ => {
            let length = map.lookup("minLength").and_then(Value::as_u64).unwrap_or(0);
            return Value::String("0".repeat(usize::try_from(length.min(64)).unwrap_or(64)));
        }
    };
    Value::String(formatted.to_owned())
}

/// `minimum`, else one past an integer `exclusiveMinimum`, else `0`.
fn least_number(map: &Map<String, Value>) -> Value {
    if let Some(minimum) = map.lookup("minimum") {
        return minimum.clone();
    }
    match map.lookup("exclusiveMinimum") {
        Some(Value::Number(bound)) => match (bound.as_i64(), bound.as_u64()) {
            (Some(bound), _) => bound.saturating_add(1).into(),
            (None, Some(bound)) => bound.saturating_add(1).into(),
            (None, None) => 0.into(),
        },
        _ => 0.into(),
    }
}

/// A value of a JSON type `schema` takes none of (`true`, `""`, `0`, `null`, `[]`, `{}`, the
/// first it does not take), if one is known: where its types cannot be told (no `type`,
/// `allOf`), none.
pub(super) fn refused_value(schema: &Value, root: Root<'_>) -> Option<Value> {
    let mut types = Vec::new();
    if !json_types(schema, root, MAX_LEAST_DEPTH, &mut types) {
        return None;
    }
    let takes = |name: &str| types.contains(&name);
    let number = takes("number") || takes("integer");
    // A struct reads a list of its fields too: a list is refused only where objects are.
    [
        (!takes("boolean"), Value::Bool(true)),
        (!takes("string"), Value::String(String::new())),
        (!number, Value::from(0)),
        (!takes("null"), Value::Null),
        (
            !takes("array") && !takes("object"),
            Value::Array(Vec::new()),
        ),
        (!takes("object"), Value::Object(Map::new())),
    ]
    .into_iter()
    .find_map(|(refused, value)| refused.then_some(value))
}

/// Adds to `types` the JSON types `schema` takes; `false` where it cannot tell.
fn json_types<'s>(
    schema: &'s Value,
    root: Root<'s>,
    depth: usize,
    types: &mut Vec<&'s str>,
) -> bool {
    let (Some(depth), Some(map)) = (depth.checked_sub(1), root.deref(schema)) else {
        return false;
    };
    if map.contains_key("allOf") || map.contains_key("not") || map.contains_key("if") {
        return false;
    }
    if let Some(values) = (map.lookup("enum").and_then(Value::as_array))
        .map(|values| values.iter().collect::<Vec<_>>())
        .or_else(|| map.lookup("const").map(|value| vec![value]))
    {
        types.extend(values.into_iter().map(|value| match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }));
        return true;
    }
    match map.lookup("type") {
        Some(Value::String(name)) => types.push(name),
        Some(Value::Array(names)) => types.extend(names.iter().filter_map(Value::as_str)),
        _ => {
            let branches = map.lookup("anyOf").or(map.lookup("oneOf"));
            return branches.and_then(Value::as_array).is_some_and(|branches| {
                (branches.iter()).all(|branch| json_types(branch, root, depth, types))
            });
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cube of bytes beside a name.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Cubed {
        cube: [[[u8; 32]; 32]; 32],
        name: String,
    }

    /// A cube of bytes, or one byte.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    enum Mode {
        Big { cube: Box<[[[u8; 32]; 32]; 32]> },
        Small { n: u8 },
    }

    #[test]
    fn a_union_s_least_value_is_its_first_branch_made_whole() {
        let schema = serde_json::to_value(schemars::schema_for!(Mode)).unwrap();
        let Value::Object(map) = &schema else {
            panic!("{schema}");
        };
        let least = least(&schema, Root::new(map), MAX_LEAST_DEPTH);
        assert_eq!(least, Some(serde_json::json!({"Small": {"n": 0}})));
    }

    #[test]
    fn each_copy_of_a_fixed_arrays_item_counts_and_a_field_past_the_count_is_left_out() {
        let schema = serde_json::to_value(schemars::schema_for!(Cubed)).unwrap();
        let Value::Object(map) = &schema else {
            panic!("{schema}");
        };
        let root = Root::new(map);
        let properties = &schema["properties"];
        // 32 × 32 × 32 bytes: past the count, though one item of each size is far within it.
        let cube = least(&properties["cube"], root, MAX_LEAST_DEPTH);
        assert!(
            cube.is_none(),
            "a cube of {} values made",
            cube.as_ref().map_or(0, size)
        );
        let row = least(&properties["cube"]["items"]["items"], root, MAX_LEAST_DEPTH).unwrap();
        assert_eq!(size(&row), 33);
        assert_eq!(
            Value::Object(least_fields(map, root, MAX_LEAST_DEPTH)),
            serde_json::json!({"name": ""})
        );
    }
}
