//! A map key serde refuses, told at the key. serde_json reads a key into its key type before
//! the guard that traces a fault's path sees it, so the path of a key the type refuses stops at
//! the map. A `u64` or `i64` key in digits past what 64 bits hold is the one the checker lets
//! by (the pattern advertised for such keys says digits, not the range, which would grow with
//! them): serde_json reads it as a double and says "invalid type: floating point", or, past
//! what a double holds, "number out of range"; an `i64` key past `i64::MAX` that a `u64` holds
//! is an "invalid value: integer". The key is found in the text where serde's error points,
//! and told as a value out of range would be.

use super::Fault;
use super::json_text::{Step, Walk, error_at};
use super::numbers::{BEYOND_DOUBLE, NUMBER_SHOWN, OUT_OF_RANGE};
use super::path::Path;
use crate::outcome::shorten::cut_after;

/// What serde_json says of a key in digits that its integer type reads as a double, and of
/// one it reads as an integer its type cannot hold.
const OUT_OF_TYPE: [&str; 2] = ["invalid type: floating point `", "invalid value: integer `"];

/// `fault`, found at the map it names (`fault.path`) for serde's `error` met reading `text`
/// (valid JSON), moved to the key of that map the error points into (or found at the key),
/// and said as a value out of range is when the key is an integer in digits its type cannot
/// hold.
pub(super) fn at_key(text: &str, error: &serde_json::Error, fault: Fault) -> Fault {
    let Some((path, key)) = key_path(text, error, &fault.path) else {
        return fault;
    };
    let shown = cut_after(key, NUMBER_SHOWN);
    let expected = (OUT_OF_TYPE.iter())
        .find_map(|said| fault.problem.strip_prefix(said))
        .and_then(|rest| rest.rsplit_once("`, expected "))
        .map(|(_, expected)| expected);
    let problem = match expected {
        Some(expected) if is_integer(key) => {
            format!("expected {expected}, received {shown}{OUT_OF_RANGE}")
        }
        None if is_integer(key) && fault.problem == BEYOND_DOUBLE => {
            format!("received {shown}{OUT_OF_RANGE} for the map's keys")
        }
        _ => fault.problem,
    };
    Fault { path, problem }
}

/// The path of the key that `error` points into, of the map at `map` (or `map` itself, where
/// the fault was found at the key), and the key as sent; `None` where it points elsewhere.
fn key_path<'t>(text: &'t str, error: &serde_json::Error, map: &str) -> Option<(String, &'t str)> {
    let at = error_at(text, error)?;
    let mut walk = Walk::new(text);
    // The first value after the byte is the key's own, when the byte is in a key.
    while let Some(step) = walk.next() {
        let Step::Value(start) = step else { continue };
        if start <= at {
            continue;
        }
        // From the byte to the value: the rest of the key, its closing quote, and a colon.
        let between = text
            .get(at..start)?
            .trim_end()
            .strip_suffix(':')?
            .trim_end();
        let key_end = between.strip_suffix('"')?.len();
        let opened = text.get(..at)?.rfind('"')?;
        let key = text.get(opened + 1..at + key_end)?;
        if key.contains(['"', '\\']) {
            return None;
        }
        // The value's path is the map's with the key: an object or array value's own level is
        // begun by then, so the walk's outer path is the value's, not the map's.
        // A fault the guard found at the key already is worded, not moved.
        let mut path = Path(map.to_owned());
        path.push_field(key);
        return match walk.path() {
            here if here == path.0 => Some((path.0, key)),
            here if here == map => Some((map.to_owned(), key)),
            _ => None,
        };
    }
    None
}

/// Whether `key` is an integer in digits, with or without a minus.
fn is_integer(key: &str) -> bool {
    let digits = key.strip_prefix('-').unwrap_or(key);
    !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::args::fault;

    #[test]
    fn a_key_serde_refuses_is_found_where_its_error_points_and_nothing_else_is_moved() {
        let text = "{\"m\": {\"1\": 2,\n  \"-18446744073709551616\" : 3}}";
        let error = serde_json::from_str::<BTreeMap<String, BTreeMap<i64, u8>>>(text).unwrap_err();
        let problem = "invalid type: floating point `-1.8446744073709552e19`, expected i64";
        assert_eq!(
            at_key(text, &error, fault("m", problem)),
            fault(
                "m.-18446744073709551616",
                "expected i64, received -18446744073709551616, which is out of range"
            )
        );
        // Only a fault at the key's own map moves.
        assert_eq!(at_key(text, &error, fault("", problem)), fault("", problem));
        // A key serde refuses in another way keeps what serde says of it.
        let text = r#"{"m": {"1.5": 2}}"#;
        let error = serde_json::from_str::<BTreeMap<String, BTreeMap<u64, u8>>>(text).unwrap_err();
        let problem = "invalid type: floating point `1.5`, expected u64";
        assert_eq!(
            at_key(text, &error, fault("m", problem)),
            fault(r#"m["1.5"]"#, problem)
        );
        // An error in a value, not a key: the fault stays where it was found.
        let text = r#"{"k": "ab", "j": "c"}"#;
        let error = serde_json::from_str::<BTreeMap<String, char>>(text).unwrap_err();
        let problem = r#"invalid value: string "ab", expected a character"#;
        assert_eq!(
            at_key(text, &error, fault("k", problem)),
            fault("k", problem)
        );
        assert_eq!(at_key(text, &error, fault("", problem)), fault("", problem));
        // A key whose value is an object or a list.
        for value in ["[1]", "[]", r#"{"1": 3}"#] {
            let text = format!(r#"{{"m": {{"18446744073709551616": {value}}}}}"#);
            let error =
                serde_json::from_str::<BTreeMap<String, BTreeMap<u64, serde_json::Value>>>(&text)
                    .unwrap_err();
            let problem = "invalid type: floating point `1.8446744073709552e19`, expected u64";
            assert_eq!(
                at_key(&text, &error, fault("m", problem)),
                fault(
                    "m.18446744073709551616",
                    "expected u64, received 18446744073709551616, which is out of range"
                ),
                "{text}"
            );
        }
        // An `i64` key that a `u64` holds.
        let text = r#"{"m": {"9223372036854775808": 1}}"#;
        let error = serde_json::from_str::<BTreeMap<String, BTreeMap<i64, u8>>>(text).unwrap_err();
        let problem = "invalid value: integer `9223372036854775808`, expected i64";
        assert_eq!(
            at_key(text, &error, fault("m", problem)),
            fault(
                "m.9223372036854775808",
                "expected i64, received 9223372036854775808, which is out of range"
            )
        );
        // A key past what a double holds.
        let key = format!("1{}", "0".repeat(400));
        let text = format!(r#"{{"m": {{"{key}": 1}}}}"#);
        let error = serde_json::from_str::<BTreeMap<String, BTreeMap<u64, u8>>>(&text).unwrap_err();
        let shown = format!("1{}…", "0".repeat(NUMBER_SHOWN - 1));
        assert_eq!(
            at_key(&text, &error, fault("m", "number out of range")),
            Fault {
                // A long key is cut in the path as any is.
                path: format!(r#"m["1{}"…]"#, "0".repeat(39)),
                problem: format!("received {shown}, which is out of range for the map's keys"),
            }
        );
    }
}
