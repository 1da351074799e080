//! The keys of a map its schema says takes any key, where its type takes only some, named in
//! the schema. schemars describes a map keyed by an enum whose variants have docs, or by
//! `bool`, as a map of any key (`additionalProperties` alone: it reads a key type's `enum`,
//! not the `oneOf` of documented names, and no `boolean`), so a model was shown any key and
//! refused all but a few, one per call, by serde. The asking (`keyed.rs`) sends such a map a
//! key no variant is named; where the type refuses it naming the variants it takes (serde's
//! refusal of an unknown variant), or takes `true` and `false`, and each name is seen taken,
//! the map is advertised as an object of exactly those fields, as schemars writes a map keyed
//! by an enum without docs, and the checker refuses any other key at its own path, every one
//! in a call.
//!
//! A key type that refuses some keys without naming the rest (a `char`, a UUID, a day, a
//! parse of its own) keeps the schema of any key: serde refuses what it refuses.

use std::cmp::Reverse;

use serde_json::{Map, Value};

use super::least::size;
use crate::schema::integer_keys::KeyRange;
use crate::schema::walk::Lookup;

/// Whether `map` describes a map of any key: values of one schema under keys its schema
/// says nothing of. A map of any value (`true`) is left as it is: a field of any value is
/// refused unless the tool allows it, where a map of any value is not.
pub(super) fn is_open(map: &Map<String, Value>) -> bool {
    map.lookup("additionalProperties")
        .is_some_and(Value::is_object)
        && ["properties", "patternProperties", "propertyNames"]
            .iter()
            .all(|keyword| map.lookup(keyword).is_none())
}

/// The most values a named map's schema may be made of, its values' schema written once for
/// each name: past it (many names, maps of named maps) the map keeps the schema of any key,
/// where the schema would grow with the product of the names at every level.
const MAX_NAMED_SIZE: usize = 4096;

/// `schema` with the map at each pointer of `named` advertised as an object of exactly the
/// fields named, each of the map's values' schema, and no other, unless that makes more than
/// [`MAX_NAMED_SIZE`] values. A map holding a map whose keys' range is narrowed (`ranges`)
/// keeps its schema: the range's pointer runs through the `additionalProperties` the naming
/// takes out.
pub(super) fn name(
    schema: Map<String, Value>,
    named: &[(String, Vec<String>)],
    ranges: &[(String, KeyRange)],
) -> Map<String, Value> {
    let mut root = Value::Object(schema);
    let holds_range = |pointer: &str| {
        (ranges.iter()).any(|(inner, _)| {
            inner
                .strip_prefix(pointer)
                .is_some_and(|rest| rest.starts_with('/'))
        })
    };
    let mut named: Vec<&(String, Vec<String>)> = (named.iter())
        .filter(|(pointer, _)| !holds_range(pointer))
        .collect();
    // The deepest first: a map's pointer runs through the values of the maps around it, which
    // their own naming writes again under each name.
    named.sort_by_key(|(pointer, _)| Reverse(pointer.len()));
    for (pointer, names) in named {
        let Some(Value::Object(map)) = root.pointer_mut(pointer) else {
            continue;
        };
        let Some(values) = map.get("additionalProperties") else {
            continue;
        };
        if names.len().saturating_mul(size(values)) > MAX_NAMED_SIZE {
            continue;
        }
        let Some(values) = map.remove("additionalProperties") else {
            continue;
        };
        let fields = (names.iter())
            .map(|name| (name.clone(), values.clone()))
            .collect();
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
        map.insert("properties".to_owned(), Value::Object(fields));
    }
    match root {
        Value::Object(schema) => schema,
        _ => unreachable!("an object stays an object"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn a_map_of_any_key_is_told_apart_from_an_object_and_a_keyed_map() {
        let open = json!({"type": "object", "additionalProperties": {"type": "integer"}});
        assert!(is_open(&object(open)));
        for closed in [
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": {}}),
            json!({"type": "object", "patternProperties": {"^\\d+$": {}}}),
            json!({"type": "object", "propertyNames": {"format": "uuid"}, "additionalProperties": {}}),
        ] {
            assert!(!is_open(&object(closed.clone())), "{closed}");
        }
    }

    #[test]
    fn named_maps_are_written_innermost_first_and_one_holding_a_range_is_left() {
        let schema = object(json!({
            "properties": {
                "outer": {"type": "object", "additionalProperties": {
                    "type": "object", "additionalProperties": {"type": "integer"}
                }},
                "ranged": {"type": "object", "additionalProperties": {
                    "type": "object", "patternProperties": {"^\\d+$": {}}
                }}
            }
        }));
        let named = [
            ("/properties/outer".to_owned(), vec!["Red".to_owned()]),
            (
                "/properties/outer/additionalProperties".to_owned(),
                vec!["true".to_owned(), "false".to_owned()],
            ),
            ("/properties/ranged".to_owned(), vec!["Red".to_owned()]),
        ];
        let ranges = [(
            "/properties/ranged/additionalProperties".to_owned(),
            KeyRange::STANDARD[0],
        )];
        let named = Value::Object(name(schema, &named, &ranges));
        let inner = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"true": {"type": "integer"}, "false": {"type": "integer"}}
        });
        assert_eq!(
            named["properties"]["outer"],
            json!({"type": "object", "additionalProperties": false, "properties": {"Red": inner}})
        );
        assert_eq!(
            named["properties"]["ranged"]["additionalProperties"]["type"],
            "object"
        );
        // Past the size a map's values' schema written once a name may take: left as it is.
        let many: Vec<String> = (0..MAX_NAMED_SIZE).map(|at| format!("N{at}")).collect();
        let schema = object(json!({"type": "object", "additionalProperties": {"type": "integer"}}));
        let kept = name(schema.clone(), &[(String::new(), many)], &[]);
        assert_eq!(kept, schema);
    }
}
