//! The arguments written again after the checker changed them, each number as the caller wrote
//! it.
//!
//! The tree holds serde_json's numbers, which read an integer past what 64 bits hold as a
//! double, where serde, reading the text into a 128-bit integer, reads it exactly: written
//! from the tree, `18446744073709551621` would come back as `1.8446744073709552e19`, which no
//! 128-bit integer reads. So a double is written as its text was, found by its place among the
//! text's numbers (the tree keeps every number in the order sent; the checker takes out nulls
//! alone). One written with a fraction or an exponent that is a whole number past 2^52 is
//! written as its digits, as a 128-bit integer reads it (`1e20` as
//! `100000000000000000000`); a double reads those digits as the same double. serde_json has
//! no way to hand over a number's text (short of its `arbitrary_precision` feature, which
//! would change every number of every crate in a build), hence the few lines here that find
//! them.

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::cell::RefCell;

use super::numbers::FRACTION_LOST;
use super::tree::Node;

/// `value`, read from `text` and changed by the checker, written again as JSON.
pub(super) fn text(value: &Node<'_>, text: &str) -> String {
    let written = numbers(text);
    let numbers = RefCell::new(written.into_iter());
    let shown = serde_json::to_string(&AsWritten {
        node: value,
        numbers: &numbers,
    });
    // The text's numbers are the tree's, one for one, so none is missing; should one be, the
    // tree is written as it holds them.
    let every_number_placed = numbers.borrow_mut().next().is_none();
    match shown {
        Ok(shown) if every_number_placed => shown,
        _ => serde_json::to_string(value).unwrap_or_default(),
    }
}

/// The numbers of `text`, valid JSON, in the order written.
fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                // To the closing quote, past each escaped character.
                at += 1;
                while let Some(&byte) = bytes.get(at) {
                    at += if byte == b'\\' { 2 } else { 1 };
                    if byte == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while bytes.get(at).is_some_and(|byte| {
                    matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                }) {
                    at += 1;
                }
                // Every byte taken is ASCII, so `start..at` lies on character boundaries.
                found.extend(text.get(start..at));
            }
            _ => at += 1,
        }
    }
    found
}

/// A node written with its doubles as written in the text, `numbers` the text's numbers not
/// yet met.
struct AsWritten<'n, I> {
    node: &'n Node<'n>,
    numbers: &'n RefCell<I>,
}

impl<'t, I: Iterator<Item = &'t str>> Serialize for AsWritten<'_, I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let inner = |node| AsWritten {
            node,
            numbers: self.numbers,
        };
        match self.node {
            Node::Number(number) => {
                let written = self.numbers.borrow_mut().next();
                match written {
                    Some(written) if number.is_f64() => {
                        let raw = match number.as_f64() {
                            Some(n) if n.abs() >= FRACTION_LOST => digits(written),
                            _ => None,
                        };
                        let raw = RawValue::from_string(raw.unwrap_or_else(|| written.to_owned()))
                            .map_err(S::Error::custom)?;
                        raw.serialize(serializer)
                    }
                    _ => number.serialize(serializer),
                }
            }
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&inner(item))?;
                }
                seq.end()
            }
            Node::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, item) in fields {
                    map.serialize_entry(key.as_ref(), &inner(item))?;
                }
                map.end()
            }
            other => other.serialize(serializer),
        }
    }
}

/// `written`, a JSON number with a fraction or an exponent, as the digits of the whole number
/// it is, when it is one a 128-bit integer holds; else `None`.
fn digits(written: &str) -> Option<String> {
    let (negative, unsigned) = match written.strip_prefix('-') {
        Some(unsigned) => (true, unsigned),
        None => (false, written),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i32>().ok()?),
        None => (unsigned, 0),
    };
    if mantissa.len() == unsigned.len() && !mantissa.contains('.') {
        // Digits alone: written as they are.
        return None;
    }
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let fraction = fraction.trim_end_matches('0');
    let significand = format!("{whole}{fraction}");
    let significand = significand.trim_start_matches('0');
    let value: u128 = if significand.is_empty() {
        0
    } else {
        significand.parse().ok()?
    };
    // `value` times ten to `scale`.
    let scale = i64::from(exponent) - i64::try_from(fraction.len()).ok()?;
    let power = |scale: i64| 10u128.checked_pow(u32::try_from(scale).ok()?);
    let magnitude = if value == 0 {
        0
    } else if scale >= 0 {
        value.checked_mul(power(scale)?)?
    } else {
        let divisor = power(-scale)?;
        if !value.is_multiple_of(divisor) {
            return None;
        }
        value / divisor
    };
    match (negative, magnitude) {
        (_, 0) => Some("0".to_owned()),
        (false, magnitude) => Some(magnitude.to_string()),
        (true, magnitude) if magnitude <= i128::MIN.unsigned_abs() => Some(format!("-{magnitude}")),
        (true, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_of_a_text_are_found_as_written_and_none_inside_strings() {
        let text = r#"{"a\"1": -1.5e3, "b": ["2", 3, {"c": 1E+2}], "d\\": 0, "e": true}"#;
        assert_eq!(numbers(text), ["-1.5e3", "3", "1E+2", "0"]);
    }

    #[test]
    fn a_whole_number_with_a_fraction_or_an_exponent_is_its_digits_within_128_bits() {
        for (written, expected) in [
            ("1e20", Some("100000000000000000000")),
            ("-1.5E19", Some("-15000000000000000000")),
            ("1500e-2", Some("15")),
            ("00.00e5", Some("0")),
            ("-0.0", Some("0")),
            (
                "340282366920938463463374607431768211455.0",
                Some("340282366920938463463374607431768211455"),
            ),
            ("3.4028236692093846346337460743176821146e38", None),
            (
                "-1.70141183460469231731687303715884105728e38",
                Some("-170141183460469231731687303715884105728"),
            ),
            ("-1.70141183460469231731687303715884105729e38", None),
            ("4503599627370496.5", None),
            ("1e-3", None),
            ("1e99999999999", None),
            ("18446744073709551621", None),
        ] {
            assert_eq!(digits(written).as_deref(), expected, "{written}");
        }
    }

    #[test]
    fn a_tree_is_written_with_its_doubles_as_sent() {
        let sent = r#"{"big": 18446744073709551621, "small": 2.50, "e": 1e20, "n": 3}"#;
        let tree = Node::parse(sent).unwrap();
        assert_eq!(
            text(&tree, sent),
            r#"{"big":18446744073709551621,"small":2.50,"e":100000000000000000000,"n":3}"#
        );
    }
}
