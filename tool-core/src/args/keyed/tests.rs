//! How much asking about maps keyed by numbers takes where unions lie within unions.

use serde_json::json;

use super::*;
use crate::args::guard::Findings;
use crate::args::plan::Plan;

/// How many reads asking about `schema` takes, each refused as serde refuses a map's key
/// read from its own buffer.
fn reads(schema: &Value) -> usize {
    let mut count = 0;
    let mut read = |_: &str, _: Option<(&Plan, &Findings)>| {
        count += 1;
        Err(serde::de::Error::custom(
            "invalid type: string \"1\", expected u32",
        ))
    };
    let asked = ask(schema.as_object().unwrap(), &mut read);
    assert_eq!(asked.unread.len(), 1, "the map is refused");
    count
}

/// Six levels of unions of four `branch(next)`es, down to a struct holding a map keyed by
/// numbers.
fn fan(branches: impl Fn(&str) -> Vec<Value>) -> Value {
    let mut defs = serde_json::Map::new();
    for level in 0..6 {
        let next = format!("#/$defs/L{}", level + 1);
        defs.insert(format!("L{level}"), json!({"anyOf": branches(&next)}));
    }
    defs.insert(
        "L6".into(),
        json!({"type": "object", "properties": {"m": {
            "type": "object", "patternProperties": {"^\\d+$": {"type": "integer"}}
        }}, "required": ["m"]}),
    );
    json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/L0"}},
           "required": ["s"], "$defs": defs})
}

#[test]
fn unions_within_unions_are_asked_along_each_distinct_way_within_the_work() {
    // Four variants wrapping one type: one way, not 4^6.
    let same = fan(|next| vec![json!({"$ref": next}); 4]);
    assert!(reads(&same) < 20, "{}", reads(&same));
    // Four of their own at each level: 4^6 ways, asked until the work runs out.
    let distinct = fan(|next| {
        vec![
            json!({"$ref": next}),
            json!({"type": "array", "items": {"$ref": next}}),
            json!({"anyOf": [{"$ref": next}, {"type": "null"}]}),
            json!({"type": "object", "additionalProperties": {"$ref": next}}),
        ]
    });
    assert!(
        reads(&distinct) <= MAX_WORK / READ_WORK,
        "{}",
        reads(&distinct)
    );
}

#[test]
fn a_map_written_twice_in_one_union_is_one_map_asked_once() {
    // An untagged enum of two variants each holding such a map: one refusal, not a second
    // for the copy never asked.
    let map = json!({"type": "object", "patternProperties": {"^\\d+$": {"type": "integer"}}});
    let schema = json!({"type": "object", "properties": {"counts": {"anyOf": [map, map]}},
                        "required": ["counts"]});
    reads(&schema);
}
