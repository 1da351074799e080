//! An integer schema that leaves out one value, as schemars writes a signed non-zero integer
//! (`NonZeroI32`: `"not": {"const": 0}`), said as the two ranges either side of it.
//!
//! `not` is a keyword the checker does not take in general (what a value is *not* has no
//! words a model reads well, and neither OpenAI's strict mode nor Gemini takes it); one left-out
//! integer is two ranges, which every dialect takes and the checker words as "at most -1 or at
//! least 1".

use serde_json::{Map, Value, json};

/// `map`, an integer schema with `"not": {"const": n}` for an integer `n`, made one with
/// `anyOf` the integers below `n` and those above it, each with the schema's format and
/// bounds (`null` too for an `Option`); where `n` is at or past the schema's own bound, the
/// one range left.
pub(super) fn split_around(map: &mut Map<String, Value>) {
    let kinds = match map.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().collect(),
        kind => Vec::from_iter(kind),
    };
    let integer = kinds.iter().any(|kind| *kind == "integer");
    // An `Option` of one takes `null` too, which the `not` did not leave out.
    let null = kinds.iter().any(|kind| *kind == "null");
    let Some(Value::Object(not)) = map.get("not").filter(|_| integer) else {
        return;
    };
    let (Some(left_out), 1) = (not.get("const").and_then(Value::as_i64), not.len()) else {
        return;
    };
    if map.contains_key("anyOf") {
        return;
    }
    // Each range is a whole integer schema, its bounds and format with it: a schema of a type
    // beside an `anyOf` is one not every dialect takes.
    let minimum = map.shift_remove("minimum");
    let maximum = map.shift_remove("maximum");
    let format = map.shift_remove("format");
    map.shift_remove("type");
    let range = |minimum: Option<Value>, maximum: Option<Value>| {
        let mut range = Map::new();
        range.insert("type".into(), "integer".into());
        range.extend(format.clone().map(|format| ("format".to_owned(), format)));
        range.extend(minimum.map(|minimum| ("minimum".to_owned(), minimum)));
        range.extend(maximum.map(|maximum| ("maximum".to_owned(), maximum)));
        Value::Object(range)
    };
    // Each range keeps the schema's own bound where it is the tighter (`range(min = 3)` on a
    // `NonZeroI32` is the integers from 3 alone).
    let low = minimum.as_ref().and_then(Value::as_i64);
    let high = maximum.as_ref().and_then(Value::as_i64);
    let mut ranges = Vec::with_capacity(3);
    let below = high.map_or(left_out - 1, |high| high.min(left_out - 1));
    if low.is_none_or(|low| low <= below) {
        ranges.push(range(minimum.clone(), Some(below.into())));
    }
    let above = low.map_or(left_out + 1, |low| low.max(left_out + 1));
    if high.is_none_or(|high| high >= above) {
        ranges.push(range(Some(above.into()), maximum.clone()));
    }
    map.shift_remove("not");
    // One range is the schema itself, its type as it was (`null` too for an `Option`).
    if let [Value::Object(only)] = ranges.as_mut_slice() {
        map.extend(std::mem::take(only));
        if null {
            map.insert("type".into(), json!(["integer", "null"]));
        }
        return;
    }
    if null {
        ranges.push(json!({"type": "null"}));
    }
    map.insert("anyOf".into(), Value::Array(ranges));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_integer_left_out_is_the_ranges_either_side() {
        let split = |schema: Value| {
            let Value::Object(mut map) = schema else {
                panic!("{schema}");
            };
            split_around(&mut map);
            Value::Object(map)
        };
        let schema = schemars::schema_for!(std::num::NonZeroI8).to_value();
        let nonzero = split(schema);
        assert_eq!(
            nonzero["anyOf"],
            json!([
                {"type": "integer", "format": "int8", "minimum": -128, "maximum": -1},
                {"type": "integer", "format": "int8", "minimum": 1, "maximum": 127}
            ]),
            "{nonzero}"
        );
        for moved in ["not", "type", "format", "minimum", "maximum"] {
            assert!(nonzero.get(moved).is_none(), "{nonzero}");
        }
        let optional = split(schemars::schema_for!(Option<std::num::NonZeroI8>).to_value());
        assert_eq!(
            optional["anyOf"].as_array().map(Vec::len),
            Some(3),
            "{optional}"
        );
        assert_eq!(optional["anyOf"][2], json!({"type": "null"}));
        // At a bound, one range; anything else is left as it is.
        let at_bound = json!({"type": "integer", "minimum": 0, "not": {"const": 0}});
        assert_eq!(split(at_bound), json!({"type": "integer", "minimum": 1}));
        // A bound tighter than the type's is kept: from 3, or up to -3, alone.
        let from_three = json!({"type": "integer", "minimum": 3, "not": {"const": 0}});
        assert_eq!(split(from_three), json!({"type": "integer", "minimum": 3}));
        let below = json!({"type": ["integer", "null"], "maximum": -3, "not": {"const": 0}});
        assert_eq!(
            split(below),
            json!({"type": ["integer", "null"], "maximum": -3})
        );
        for kept in [
            json!({"type": "string", "not": {"const": "a"}}),
            json!({"type": "integer", "not": {"const": 0, "description": "zero"}}),
            json!({"type": "integer", "not": {"enum": [0, 1]}}),
        ] {
            assert_eq!(split(kept.clone()), kept);
        }
    }
}
