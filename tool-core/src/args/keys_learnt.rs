//! What asking an input type (`keyed.rs`) taught about the keys of its maps, written into its
//! schema, so that the schema says what the type takes: the range of integers a map keyed by
//! numbers takes, and the names an enum that keys a map takes, where schemars wrote none.
//!
//! A range is asked at its edges: past which integer type's greatest and least a key is
//! refused, and whether `0` and `-0` are keys. A key type with a rule of its own inside an
//! integer type's range (a `try_from` refusing some keys) is advertised the whole range, and
//! serde refuses the rest at the map; one whose edges are no integer type's keeps the plain
//! pattern (`schema/integer_keys.rs` writes and reads the patterns).
//!
//! schemars describes a map keyed by an enum of plain variants with the variants as the map's
//! `properties`, and one keyed by an enum whose variants have docs (or any key type it cannot
//! describe as a string pattern or enum) with `additionalProperties` alone: any key, where the
//! type refuses all but its variants' names. The type says the names itself: serde refuses an
//! unknown variant naming the ones it expects (serde's `Error::unknown_variant`, which every
//! derived `Deserialize` of an enum calls), and each is then sent to see it taken. Such a map
//! is written as schemars writes one keyed by an enum of plain variants.
//!
//! Each map is found by its JSON Pointer in the schema, and the deepest written first: a map's
//! pointer runs through the keys of the maps around it, which their own rewriting renames.

use serde_json::{Map, Value};

use crate::schema::integer_keys::{BITS, KeyRange};

/// What is known of a map's keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Learnt {
    /// The integers its key type takes.
    Range(KeyRange),
    /// The names of the enum that keys it.
    Names(Vec<String>),
}

/// The range of the keys a key type takes, asked of it a key at a time (`accepts`), where it
/// is an integer type's range the schema advertises ([`KeyRange::advertised`]); `None` where
/// it is wider, or where its answers fit no integer type's range.
pub(super) fn asked(mut accepts: impl FnMut(&str) -> bool) -> Option<KeyRange> {
    let greatest = |at: usize| u128::MAX >> (128 - BITS[at]);
    // One past `u128::MAX` is written as text: no integer type holds it.
    let past = |max: u128| match max.checked_add(1) {
        Some(past) => past.to_string(),
        None => format!("{}6", u128::MAX / 10),
    };
    let max = greatest(first(BITS.len(), |at| !accepts(&past(greatest(at))))?);
    if !KeyRange::new(0, max, true).advertised() {
        return None;
    }
    let min = match accepts("-1") {
        false => i128::from(!accepts("0")),
        true => {
            // A signed type's least value: the negative of one past a signed greatest.
            let least = |at: usize| i128::MIN >> (127 - BITS[2 * at]);
            let below = |at: usize| format!("-{}", least(at).unsigned_abs() + 1);
            least(first(BITS.len() / 2, |at| !accepts(&below(at)))?)
        }
    };
    let mut range = KeyRange::new(min, max, min == 0 || (min < 0 && accepts("0")));
    range.minus_zero = range.zero && min < 0 && accepts("-0");
    let edges = [max.to_string(), min.to_string()];
    (KeyRange::STANDARD.contains(&range) && edges.iter().all(|edge| accepts(edge))).then_some(range)
}

/// The first of `0..count` at which `refused` holds, where it holds at every one after the
/// first: found by halves.
fn first(count: usize, mut refused: impl FnMut(usize) -> bool) -> Option<usize> {
    let (mut low, mut high) = (0, count);
    while low < high {
        let middle = (low + high) / 2;
        match refused(middle) {
            true => high = middle,
            false => low = middle + 1,
        }
    }
    (low < count).then_some(low)
}

/// Where each of `maps`, objects inside `schema`, sits in it, as a JSON Pointer, with what was
/// learnt of it.
pub(super) fn located(
    schema: &Map<String, Value>,
    maps: &[(&Map<String, Value>, Learnt)],
) -> Vec<(String, Learnt)> {
    fn object(
        object: &Map<String, Value>,
        at: &mut String,
        maps: &[(&Map<String, Value>, Learnt)],
        found: &mut Vec<(String, Learnt)>,
    ) {
        if let Some((_, learnt)) = maps.iter().find(|(map, _)| std::ptr::eq(*map, object)) {
            found.push((at.clone(), learnt.clone()));
        }
        for (key, value) in object {
            let length = at.len();
            at.push('/');
            at.push_str(&key.replace('~', "~0").replace('/', "~1"));
            within(value, at, maps, found);
            at.truncate(length);
        }
    }
    fn within(
        value: &Value,
        at: &mut String,
        maps: &[(&Map<String, Value>, Learnt)],
        found: &mut Vec<(String, Learnt)>,
    ) {
        match value {
            Value::Object(map) => object(map, at, maps, found),
            Value::Array(items) => {
                for (position, item) in items.iter().enumerate() {
                    let length = at.len();
                    at.push_str(&format!("/{position}"));
                    within(item, at, maps, found);
                    at.truncate(length);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    object(schema, &mut String::new(), maps, &mut found);
    found
}

/// `schema` with what was learnt of the map at each pointer written into it (see the module
/// documentation).
pub(super) fn written(
    schema: Map<String, Value>,
    learnt: &[(String, Learnt)],
) -> Map<String, Value> {
    let mut root = Value::Object(schema);
    let mut learnt: Vec<&(String, Learnt)> = learnt.iter().collect();
    learnt.sort_by_key(|(pointer, _)| std::cmp::Reverse(pointer.len()));
    for (pointer, learnt) in learnt {
        let Some(Value::Object(map)) = root.pointer_mut(pointer) else {
            continue;
        };
        match learnt {
            Learnt::Range(range) => narrow(map, range),
            Learnt::Names(names) => name(map, names),
        }
    }
    match root {
        Value::Object(schema) => schema,
        _ => unreachable!("an object stays an object"),
    }
}

/// `map`'s keys advertised as exactly `range`'s ([`KeyRange::pattern`]), where `range` is
/// within what its pattern said (a key type schemars was told is unsigned keeps the unsigned
/// pattern, though it reads negative keys).
fn narrow(map: &mut Map<String, Value>, range: &KeyRange) {
    if let Some(Value::Object(keyed)) = map.get_mut("patternProperties") {
        *keyed = (std::mem::take(keyed).into_iter())
            .map(|(pattern, values)| match KeyRange::of_keys(&pattern) {
                Some(keys) if range.within(&keys) => (range.pattern(), values),
                _ => (pattern, values),
            })
            .collect();
    }
}

/// `map`, a map of any key, as one whose keys are `names`: each a field of its values' schema,
/// and no other.
fn name(map: &mut Map<String, Value>, names: &[String]) {
    let Some(values) = map.remove("additionalProperties") else {
        return;
    };
    let fields = names.iter().map(|name| (name.clone(), values.clone()));
    map.insert("properties".into(), Value::Object(fields.collect()));
    map.insert("additionalProperties".into(), false.into());
}

/// The names serde's refusal of the unknown variant `key` says it expects, `error` being that
/// refusal: `None` where it is not one.
pub(super) fn variants(error: &str, key: &str) -> Option<Vec<String>> {
    let expected = error.strip_prefix(&format!("unknown variant `{key}`, expected "))?;
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    // Names between backticks, each pair apart by nothing before the first, `, ` or ` or `.
    let mut names = Vec::new();
    for (at, part) in expected.split('`').enumerate() {
        match at % 2 {
            1 => names.push(part.to_owned()),
            _ if at == 0 => (part.is_empty()).then_some(())?,
            _ => ["", ", ", " or "].contains(&part).then_some(())?,
        }
    }
    (!names.is_empty() && expected.ends_with('`')).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::integer_keys::serde_reads;
    use serde_json::json;

    #[test]
    fn a_range_is_asked_of_a_key_type_at_its_edges() {
        for (range, read) in KeyRange::STANDARD.into_iter().zip(serde_reads()) {
            let mut keys = 0;
            let found = asked(|key| {
                keys += 1;
                read(key)
            });
            assert_eq!(found, range.advertised().then_some(range), "{range:?}");
            assert!(keys <= 12, "{range:?}: {keys} keys asked");
        }
        // Keys by a rule of their own: from 0 to 1000, even ones, any at all.
        assert_eq!(
            asked(|key| key.parse::<u16>().is_ok_and(|n| n <= 1000)),
            None
        );
        assert_eq!(
            asked(|key| key.parse::<u8>().is_ok_and(|n| n % 2 == 0)),
            None
        );
        assert_eq!(asked(|_| true), None);
    }

    #[test]
    fn serde_s_refusal_of_an_unknown_variant_names_the_variants() {
        let names = |error: &str| variants(error, "\u{1}");
        assert_eq!(
            names("unknown variant `\u{1}`, expected `Left`"),
            Some(vec!["Left".to_owned()])
        );
        assert_eq!(
            names("unknown variant `\u{1}`, expected `Left` or `Right`"),
            Some(vec!["Left".to_owned(), "Right".to_owned()])
        );
        assert_eq!(
            names("unknown variant `\u{1}`, expected one of `a b`, `c`, `d`"),
            Some(["a b", "c", "d"].map(str::to_owned).to_vec())
        );
        for other in [
            "unknown variant `\u{1}`, there are no variants",
            "unknown variant `x`, expected `Left`",
            "invalid type: string, expected a character",
            "unknown variant `\u{1}`, expected `Left` and so on",
            "unknown variant `\u{1}`, expected `Left",
        ] {
            assert_eq!(names(other), None, "{other}");
        }
    }

    #[test]
    fn a_map_is_found_by_its_pointer_and_written_inside_out() {
        let Value::Object(schema) = json!({
            "additionalProperties": {
                "patternProperties": {"^\\d+$": {"additionalProperties": {"type": "integer"}}},
            },
            "$defs": {"a/b~": {"patternProperties": {"^\\d+$": {}}}},
        }) else {
            unreachable!("an object")
        };
        let numbers = schema["additionalProperties"].as_object().unwrap();
        let inner = numbers["patternProperties"]["^\\d+$"].as_object().unwrap();
        let defined = schema["$defs"]["a/b~"].as_object().unwrap();
        let u8_keys = KeyRange::STANDARD[0];
        let sides = Learnt::Names(vec!["Left".into(), "Right".into()]);
        let maps = [
            (&schema, sides.clone()),
            (numbers, Learnt::Range(u8_keys)),
            (inner, Learnt::Names(vec!["Up".into()])),
            (defined, Learnt::Range(u8_keys)),
        ];
        let at = located(&schema, &maps);
        let pointers: Vec<&str> = at.iter().map(|(pointer, _)| pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "",
                "/additionalProperties",
                "/additionalProperties/patternProperties/^\\d+$",
                "/$defs/a~1b~0"
            ]
        );
        let pattern = u8_keys.pattern();
        let up = json!({"properties": {"Up": {"type": "integer"}}, "additionalProperties": false});
        let sided = json!({"patternProperties": {pattern.clone(): up}});
        assert_eq!(
            Value::Object(written(schema.clone(), &at)),
            json!({
                "properties": {"Left": sided, "Right": sided},
                "additionalProperties": false,
                "$defs": {"a/b~": {"patternProperties": {pattern: {}}}},
            })
        );
    }
}
