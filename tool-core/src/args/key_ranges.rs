//! Which integers the key type of a map keyed by numbers takes, asked of the input type when
//! its schema is prepared (`keyed.rs` asks it on every way to each such map), and the schema
//! rewritten to advertise exactly those keys (`schema/integer_keys.rs` writes and reads the
//! patterns).
//!
//! Only the edges are asked: past which integer type's greatest and least a key is refused,
//! and whether `0` is a key. A key type with a rule of its own inside an integer
//! type's range (a `try_from` refusing some keys) is advertised the whole range, and serde
//! refuses the rest at the map; one whose edges are no integer type's keeps the plain pattern.

use serde_json::{Map, Value};

use crate::schema::integer_keys::{BITS, KeyRange};

/// The range of the keys a key type takes, asked of it a key at a time (`accepts`), where it
/// is one of [`KeyRange::STANDARD`]; `None` where it is wider (a 64-bit key takes one past
/// `u32::MAX`), or where its answers fit no integer type's range.
pub(super) fn asked(mut accepts: impl FnMut(&str) -> bool) -> Option<KeyRange> {
    let greatest = |at: usize| u128::MAX >> (128 - BITS[at]);
    let max = greatest(first(BITS.len(), |at| {
        !accepts(&(greatest(at) + 1).to_string())
    })?);
    let min = match accepts("-1") {
        false => i128::from(!accepts("0")),
        true => {
            // A signed type's least value: the negative of one past a signed greatest.
            let least = |at: usize| i128::MIN >> (127 - BITS[2 * at]);
            let below = |at: usize| format!("-{}", least(at).unsigned_abs() + 1);
            least(first(BITS.len() / 2, |at| !accepts(&below(at)))?)
        }
    };
    let range = KeyRange::new(min, max, min == 0 || (min < 0 && accepts("0")));
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

/// Where each of `maps`, objects inside `schema`, sits in it, as a JSON Pointer, with what
/// was found of it (its range, its names).
pub(super) fn located<T: Clone>(
    schema: &Map<String, Value>,
    maps: &[(&Map<String, Value>, T)],
) -> Vec<(String, T)> {
    fn walk<T: Clone>(
        object: &Map<String, Value>,
        at: &mut String,
        maps: &[(&Map<String, Value>, T)],
        found: &mut Vec<(String, T)>,
    ) {
        if let Some((_, found_here)) = maps.iter().find(|(map, _)| std::ptr::eq(*map, object)) {
            found.push((at.clone(), found_here.clone()));
        }
        for (key, value) in object {
            let length = at.len();
            at.push('/');
            at.push_str(&key.replace('~', "~0").replace('/', "~1"));
            within(value, at, maps, found);
            at.truncate(length);
        }
    }
    fn within<T: Clone>(
        value: &Value,
        at: &mut String,
        maps: &[(&Map<String, Value>, T)],
        found: &mut Vec<(String, T)>,
    ) {
        match value {
            Value::Object(object) => walk(object, at, maps, found),
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
    walk(schema, &mut String::new(), maps, &mut found);
    found
}

/// `schema` with the keys of the map at each pointer of `ranges` advertised as exactly its
/// range's ([`KeyRange::pattern`]), where the range is within what the map's pattern said (a
/// key type schemars was told is unsigned keeps the unsigned pattern, though it reads negative
/// keys).
pub(super) fn narrow(
    schema: Map<String, Value>,
    ranges: &[(String, KeyRange)],
) -> Map<String, Value> {
    let mut root = Value::Object(schema);
    let mut ranges: Vec<&(String, KeyRange)> = ranges.iter().collect();
    // The deepest first: a map's pointer runs through the keys of the maps around it, which
    // their own narrowing renames.
    ranges.sort_by_key(|(pointer, _)| std::cmp::Reverse(pointer.len()));
    for (pointer, range) in ranges {
        let keyed = (root.pointer_mut(pointer))
            .and_then(|map| map.get_mut("patternProperties"))
            .and_then(Value::as_object_mut);
        if let Some(keyed) = keyed {
            *keyed = (std::mem::take(keyed).into_iter())
                .map(|(pattern, values)| match KeyRange::of_keys(&pattern) {
                    Some(keys) if range.within(&keys) => (range.pattern(), values),
                    _ => (pattern, values),
                })
                .collect();
        }
    }
    match root {
        Value::Object(schema) => schema,
        _ => unreachable!("an object stays an object"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::integer_keys::serde_reads;

    #[test]
    fn a_range_is_asked_of_a_key_type_at_its_edges() {
        for (range, read) in KeyRange::STANDARD.into_iter().zip(serde_reads()) {
            let mut keys = 0;
            let found = asked(|key| {
                keys += 1;
                read(key)
            });
            assert_eq!(found, Some(range), "{range:?}");
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
        // Wider than 32 bits: not advertised, and not asked past `u32::MAX`.
        assert_eq!(asked(|key| key.parse::<u64>().is_ok()), None);
        assert_eq!(asked(|key| key.parse::<i64>().is_ok()), None);
    }

    #[test]
    fn a_map_is_found_by_its_pointer_and_narrowed_inside_out() {
        let schema = serde_json::json!({
            "patternProperties": {"^\\d+$": {
                "patternProperties": {"^-?\\d+$": {}},
            }},
            "$defs": {"a/b~": {"patternProperties": {"^\\d+$": {}}}},
        });
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        let inner = schema["patternProperties"]["^\\d+$"].as_object().unwrap();
        let defined = schema["$defs"]["a/b~"].as_object().unwrap();
        let u8_keys = KeyRange::STANDARD[0];
        let i8_keys = KeyRange::STANDARD[2];
        let at = located(
            &schema,
            &[(&schema, u8_keys), (inner, i8_keys), (defined, u8_keys)],
        );
        assert_eq!(
            at.iter()
                .map(|(pointer, _)| pointer.as_str())
                .collect::<Vec<_>>(),
            ["", "/patternProperties/^\\d+$", "/$defs/a~1b~0"]
        );
        let narrowed = Value::Object(narrow(schema.clone(), &at));
        let keys = |value: &Value| {
            value["patternProperties"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .cloned()
        };
        let outer = keys(&narrowed).unwrap();
        assert_eq!(outer, u8_keys.pattern());
        assert_eq!(
            keys(&narrowed["patternProperties"][&outer]),
            Some(i8_keys.pattern())
        );
        assert_eq!(keys(&narrowed["$defs"]["a/b~"]), Some(u8_keys.pattern()));
    }
}
