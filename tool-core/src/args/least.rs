//! The least value a schema takes: what a type is read with when it is asked, once, while its
//! schema is prepared, how it reads one of its parts (`required.rs`, `keyed.rs`). The value
//! need only be one serde reads; the checker never sees it.

use serde_json::{Map, Value};

use crate::schema::keywords::admits_null;
use crate::schema::walk::{Lookup, Root};

/// The key a map is asked about under, unless its schema names keys of another kind.
const KEY: &str = "key";

/// The least UUID, a key or a text of the format `uuid`.
const NIL_UUID: &str = "00000000-0000-0000-0000-000000000000";

/// How deep [`least`] builds a value.
pub(super) const MAX_LEAST_DEPTH: usize = 8;

/// The least value `schema` takes, by its type alone, for a read that checks nothing else:
/// `null` where it takes `null`, an enum's first value, `0` (or its `minimum`), a text of
/// its least length (the least instant, day or UUID where its `format` names one), `false`,
/// `[]` (a tuple's least items), an object of its properties' least values, a union's first
/// branch that has one. `None` where it cannot say (a type it does not name, deeper than
/// `depth`).
pub(super) fn least(schema: &Value, root: Root<'_>, depth: usize) -> Option<Value> {
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
        _ => return first_branch(map, root, depth),
    };
    Some(match kind {
        "string" => least_text(map),
        "integer" | "number" => least_number(map),
        "boolean" => Value::Bool(false),
        "array" => match map.lookup("prefixItems").and_then(Value::as_array) {
            Some(items) => Value::Array(
                (items.iter())
                    .map(|item| least(item, root, depth))
                    .collect::<Option<_>>()?,
            ),
            None => Value::Array(Vec::new()),
        },
        "object" => Value::Object(least_fields(map, root, depth)?),
        _ => return None,
    })
}

/// A key the map `map` describes takes: one its `propertyNames` name, a UUID for UUIDs, else
/// [`KEY`].
pub(super) fn least_key<'s>(map: &'s Map<String, Value>, root: Root<'s>) -> &'s str {
    let names = (map.lookup("propertyNames")).and_then(|names| root.deref(names));
    let named = names.and_then(|names| {
        let listed = names.lookup("enum").and_then(Value::as_array);
        (listed
            .and_then(|listed| listed.first())
            .or(names.lookup("const")))
        .and_then(Value::as_str)
        .or((names.lookup("format") == Some(&Value::from("uuid"))).then_some(NIL_UUID))
    });
    named.unwrap_or(KEY)
}

/// An object of the least values of the properties of `map`, an object schema.
pub(super) fn least_fields(
    map: &Map<String, Value>,
    root: Root<'_>,
    depth: usize,
) -> Option<Map<String, Value>> {
    let properties = map.lookup("properties").and_then(Value::as_object);
    let mut object = Map::new();
    for (name, property) in properties.into_iter().flatten() {
        object.insert(name.clone(), least(property, root, depth)?);
    }
    Some(object)
}

/// The least value of the first branch of a union that has one.
fn first_branch(map: &Map<String, Value>, root: Root<'_>, depth: usize) -> Option<Value> {
    let branches = (map.lookup("anyOf").or(map.lookup("oneOf"))).and_then(Value::as_array)?;
    branches
        .iter()
        .find_map(|branch| least(branch, root, depth))
}

/// A text serde's readers of the `format` take (chrono's, time's and jiff's instants and days,
/// uuid's UUIDs, the standard library's addresses), else `minLength` zeros (one for a `char`).
fn least_text(map: &Map<String, Value>) -> Value {
    let formatted = match map.lookup("format").and_then(Value::as_str) {
        Some("date-time") => "1970-01-01T00:00:00Z",
        Some("date") => "1970-01-01",
        Some("time") => "00:00:00",
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
