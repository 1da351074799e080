//! The keys of a map keyed by integers (`HashMap<u32, V>`), which schemars describes with
//! `patternProperties` (`^\d+$`, or `^-?\d+$` for signed keys): the patterns advertised for
//! them, and their matching by hand, with the `patterns` feature or without it (such a map is
//! a plain Rust type, and needs no regular expression to check).
//!
//! serde_json reads such a key from its text as the key's integer type reads a number: with
//! no leading zero, no `-0` (but for an `i128`), and within the type's range. schemars'
//! patterns say neither the form nor the range, so they are advertised as serde_json reads the
//! keys ([`exact_keys`]), and, where the input type was asked which integers its key type
//! takes (`args/key_ranges.rs`), as exactly those ([`KeyRange::pattern`]): a `u8` key takes `0`
//! to `255`, a `NonZeroU32` key (which schemars gives the signed pattern) `1` to `4294967295`.
//! Only the ranges of integers of up to 32 bits are advertised so: a wider one's pattern grows
//! with its digits, and would be repeated wherever the type is, for keys no model sends. Each
//! advertised range's pattern is recognised by its text, so a schema read again (an answer's,
//! a remote server's of our own making) is matched by hand too.

use std::fmt::Write as _;
use std::sync::OnceLock;

/// The keys of a map keyed by unsigned integers, as serde_json reads them: digits, without a
/// leading zero.
const UNSIGNED_KEYS: &str = "^(0|[1-9][0-9]*)$";

/// The keys of a map keyed by signed integers, as serde_json reads them: `UNSIGNED_KEYS`, or
/// one of them but `0` after a minus.
const SIGNED_KEYS: &str = "^(0|-?[1-9][0-9]*)$";

/// The integers a map's key type takes: from `min` to `max`, `0` among them unless `zero` is
/// false (a `NonZeroI32`'s). A pattern's keys may be any integer (`min` and `max` then as far
/// as these types go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyRange {
    /// The least key.
    pub(crate) min: i128,
    /// The greatest key.
    pub(crate) max: u128,
    /// Whether `0` is a key.
    pub(crate) zero: bool,
}

/// How many bits the greatest value of each integer type whose range is advertised has, its
/// signed types' too, ascending: each signed type's least value is the negative of one past
/// the greatest before it.
pub(crate) const BITS: [u32; 6] = [7, 8, 15, 16, 31, 32];

impl KeyRange {
    /// The range of each integer type of up to 32 bits, and of each non-zero one: the only
    /// ranges asked about, advertised, and recognised.
    pub(crate) const STANDARD: [KeyRange; 12] = {
        let mut ranges = [KeyRange::new(0, 0, true); 12];
        let mut at = 0;
        while at < 3 {
            let unsigned = u128::MAX >> (128 - BITS[2 * at + 1]);
            let signed = unsigned >> 1;
            let lowest = -(signed as i128) - 1;
            ranges[4 * at] = KeyRange::new(0, unsigned, true);
            ranges[4 * at + 1] = KeyRange::new(1, unsigned, false);
            ranges[4 * at + 2] = KeyRange::new(lowest, signed, true);
            ranges[4 * at + 3] = KeyRange::new(lowest, signed, false);
            at += 1;
        }
        ranges
    };

    pub(crate) const fn new(min: i128, max: u128, zero: bool) -> KeyRange {
        KeyRange { min, max, zero }
    }

    /// The integers a pattern of a map keyed by integers says its keys are: schemars' (and
    /// [`exact_keys`]' for them) any integer, or any not below zero; a range's, its range.
    pub(crate) fn of_keys(pattern: &str) -> Option<KeyRange> {
        match pattern {
            r"^\d+$" | UNSIGNED_KEYS => Some(KeyRange::new(0, u128::MAX, true)),
            r"^-?\d+$" | SIGNED_KEYS => Some(KeyRange::new(i128::MIN, u128::MAX, true)),
            _ => KeyRange::of_pattern(pattern),
        }
    }

    /// Whether every key of this range is one of `other`'s.
    pub(crate) fn within(&self, other: &KeyRange) -> bool {
        self.min >= other.min && self.max <= other.max && (other.zero || !self.zero)
    }

    /// The pattern of exactly the keys of this range, as serde_json writes them: an
    /// alternative for each run of them a digit at a time can say.
    pub(crate) fn pattern(&self) -> String {
        let mut alternatives = Vec::new();
        if self.zero {
            alternatives.push("0".to_owned());
        }
        alternatives.extend(up_to(self.max));
        if self.min < 0 {
            let negatives = up_to(self.min.unsigned_abs());
            alternatives.push(format!("-({})", negatives.join("|")));
        }
        format!("^({})$", alternatives.join("|"))
    }

    /// The standard range whose [`pattern`](KeyRange::pattern) `pattern` is.
    fn of_pattern(pattern: &str) -> Option<KeyRange> {
        static PATTERNS: OnceLock<Vec<(String, KeyRange)>> = OnceLock::new();
        // Every range pattern starts so; the generic patterns do not.
        if !pattern.starts_with("^(0|[1-9]") && !pattern.starts_with("^([1-9]") {
            return None;
        }
        let patterns = PATTERNS.get_or_init(|| {
            (KeyRange::STANDARD.iter())
                .map(|range| (range.pattern(), *range))
                .collect()
        });
        (patterns.iter())
            .find(|(known, _)| known == pattern)
            .map(|(_, range)| *range)
    }

    /// Whether `key` is one of this range's keys, as serde_json writes them.
    fn holds(&self, key: &str) -> bool {
        let (negative, digits) = match key.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, key),
        };
        if !exact_digits(digits) {
            return false;
        }
        let Ok(magnitude) = digits.parse::<u128>() else {
            return false;
        };
        match (negative, magnitude) {
            (true, 0) => false,
            (_, 0) => self.zero,
            (true, _) => self.min < 0 && magnitude <= self.min.unsigned_abs(),
            (false, _) => magnitude <= self.max,
        }
    }

    /// The keys of this range in the words a fault says them with.
    fn in_words(&self) -> String {
        let mut words = format!("that is a whole number from {} to {}", self.min, self.max);
        if !self.zero && self.min < 0 {
            words.push_str(" other than 0");
        }
        // A minus only before a number below zero: not before `0`, which a reader could take
        // `-0` to be.
        words.push_str(match self.min < 0 {
            true => ", in digits (after a minus if below zero) without a leading zero",
            false => ", in digits without a leading zero",
        });
        words
    }
}

/// Alternatives of a pattern that together match exactly the integers from 1 to `max`, in
/// digits without a leading zero: the shorter numbers at once, then those as long as `max`
/// by the digit at which each first falls below `max`'s.
fn up_to(max: u128) -> Vec<String> {
    if max == 0 {
        return Vec::new();
    }
    let digits: Vec<u8> = max.to_string().bytes().map(|byte| byte - b'0').collect();
    let length = digits.len();
    let mut alternatives = Vec::new();
    if length > 1 {
        alternatives.push(format!("[1-9]{}", any_digits(0, length - 2)));
    }
    for (at, &digit) in digits.iter().enumerate() {
        let lowest = u8::from(at == 0);
        let last = at + 1 == length;
        let highest = if last { digit } else { digit.wrapping_sub(1) };
        if digit == 0 && !last || highest < lowest {
            continue;
        }
        let mut alternative: String = (digits[..at].iter())
            .map(|d| char::from(b'0' + d))
            .collect();
        alternative.push_str(&class(lowest, highest));
        alternative.push_str(&any_digits(length - at - 1, length - at - 1));
        alternatives.push(alternative);
    }
    alternatives
}

/// A pattern of one digit from `lowest` to `highest`.
fn class(lowest: u8, highest: u8) -> String {
    match highest - lowest {
        0 => char::from(b'0' + lowest).to_string(),
        _ => format!("[{lowest}-{highest}]"),
    }
}

/// A pattern of from `least` to `most` digits.
fn any_digits(least: usize, most: usize) -> String {
    let mut pattern = String::new();
    match (least, most) {
        (_, 0) => {}
        (1, 1) => pattern.push_str("[0-9]"),
        (0, 1) => pattern.push_str("[0-9]?"),
        (least, most) if least == most => {
            let _ = write!(pattern, "[0-9]{{{least}}}");
        }
        (least, most) => {
            let _ = write!(pattern, "[0-9]{{{least},{most}}}");
        }
    }
    pattern
}

/// Whether `text` is digits without a leading zero (or `0` itself).
fn exact_digits(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|byte| byte.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// The pattern to advertise for the keys of a map keyed by integers in place of schemars'
/// (`^\d+$`, `^-?\d+$`), which takes keys serde_json refuses (`007`, `-0`).
pub(crate) fn exact_keys(pattern: &str) -> Option<&'static str> {
    match pattern {
        r"^\d+$" => Some(UNSIGNED_KEYS),
        r"^-?\d+$" => Some(SIGNED_KEYS),
        _ => None,
    }
}

/// A pattern of a map's keys in the words a fault says it with, for a map keyed by integers
/// as [`exact_keys`] or [`KeyRange::pattern`] writes it.
pub(crate) fn keys_in_words(pattern: &str) -> Option<String> {
    match pattern {
        UNSIGNED_KEYS => Some("that is a whole number in digits, without a leading zero".into()),
        SIGNED_KEYS => Some(
            "that is a whole number in digits (after a minus if below zero), without a leading \
             zero"
                .into(),
        ),
        _ => KeyRange::of_pattern(pattern).map(|range| range.in_words()),
    }
}

/// Whether `text` matches `pattern`, for the patterns of the keys of a map keyed by integers
/// (`HashMap<u32, _>`, `HashMap<i64, _>`): schemars', [`exact_keys`]' and the standard
/// ranges'; ASCII digits, as ECMA 262's `\d` is. `None` for any other pattern.
pub(crate) fn matches(pattern: &str, text: &str) -> Option<bool> {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    match pattern {
        r"^\d+$" => Some(digits(text)),
        r"^-?\d+$" => Some(digits(text.strip_prefix('-').unwrap_or(text))),
        UNSIGNED_KEYS => Some(exact_digits(text)),
        SIGNED_KEYS => Some(match text.strip_prefix('-') {
            Some(negative) => exact_digits(negative) && negative != "0",
            None => exact_digits(text),
        }),
        _ => KeyRange::of_pattern(pattern).map(|range| range.holds(text)),
    }
}

/// Whether `pattern`, a key of `patternProperties`, is one of the keys of a map keyed by
/// integers (see [`matches`]).
pub(crate) fn keys_integers(pattern: &str) -> bool {
    matches(pattern, "").is_some()
}

/// Whether serde_json reads a key as one of each integer type's, in the order of
/// [`KeyRange::STANDARD`]: what a range is held to.
#[cfg(test)]
pub(crate) fn serde_reads() -> [fn(&str) -> bool; 12] {
    use std::num::*;
    fn read<K: serde::de::DeserializeOwned + Ord>(key: &str) -> bool {
        let text = serde_json::json!({ key: 1 }).to_string();
        serde_json::from_str::<std::collections::BTreeMap<K, u8>>(&text).is_ok()
    }
    [
        read::<u8>,
        read::<NonZeroU8>,
        read::<i8>,
        read::<NonZeroI8>,
        read::<u16>,
        read::<NonZeroU16>,
        read::<i16>,
        read::<NonZeroI16>,
        read::<u32>,
        read::<NonZeroU32>,
        read::<i32>,
        read::<NonZeroI32>,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_of_a_map_keyed_by_integers_are_matched_by_hand() {
        for (pattern, key, matched) in [
            (r"^\d+$", "0", true),
            (r"^\d+$", "4096", true),
            (r"^\d+$", "-1", false),
            (r"^\d+$", "", false),
            (r"^\d+$", "1.5", false),
            (r"^\d+$", "٣", false),
            (r"^-?\d+$", "-12", true),
            (r"^-?\d+$", "12", true),
            (r"^-?\d+$", "-", false),
            (r"^-?\d+$", "--1", false),
            (r"^-?\d+$", "1-", false),
            (r"^-?\d+$", "-0", true),
            (UNSIGNED_KEYS, "0", true),
            (UNSIGNED_KEYS, "40", true),
            (UNSIGNED_KEYS, "007", false),
            (UNSIGNED_KEYS, "00", false),
            (UNSIGNED_KEYS, "-1", false),
            (UNSIGNED_KEYS, "", false),
            (SIGNED_KEYS, "-12", true),
            (SIGNED_KEYS, "0", true),
            (SIGNED_KEYS, "-0", false),
            (SIGNED_KEYS, "-01", false),
            (SIGNED_KEYS, "-", false),
            (SIGNED_KEYS, "1-", false),
        ] {
            assert_eq!(matches(pattern, key), Some(matched), "{pattern} on {key:?}");
        }
        assert_eq!(matches("^[a-z]+$", "a"), None);
    }

    #[test]
    fn a_range_s_pattern_is_written_and_recognised() {
        let u8_keys = KeyRange::new(0, 255, true);
        assert_eq!(
            u8_keys.pattern(),
            "^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"
        );
        let non_zero_i8 = KeyRange::new(-128, 127, false);
        assert_eq!(
            non_zero_i8.pattern(),
            "^([1-9][0-9]?|1[0-1][0-9]|12[0-7]|-([1-9][0-9]?|1[0-1][0-9]|12[0-8]))$"
        );
        for range in KeyRange::STANDARD {
            assert_eq!(KeyRange::of_pattern(&range.pattern()), Some(range));
            assert!(keys_integers(&range.pattern()));
        }
        assert_eq!(
            keys_in_words(&non_zero_i8.pattern()).as_deref(),
            Some(
                "that is a whole number from -128 to 127 other than 0, in digits (after a minus if \
                 below zero) without a leading zero"
            )
        );
    }

    /// Keys around each edge of each standard range, and others of every form.
    fn keys_to_try(range: &KeyRange) -> Vec<String> {
        let mut keys: Vec<String> = [
            "0", "-0", "00", "01", "-01", "1", "-1", "", "-", "+1", "1.0",
        ]
        .map(str::to_owned)
        .into();
        for edge in [range.max, range.min.unsigned_abs()] {
            for near in [edge.saturating_sub(1), edge, edge.saturating_add(1)] {
                keys.push(near.to_string());
                keys.push(format!("-{near}"));
            }
        }
        keys.push(format!("{}0", u128::MAX));
        keys
    }

    #[test]
    fn a_range_holds_exactly_the_keys_its_integer_type_reads() {
        for (range, read) in KeyRange::STANDARD.iter().zip(serde_reads()) {
            for key in keys_to_try(range) {
                assert_eq!(range.holds(&key), read(&key), "{range:?} on {key:?}");
            }
        }
    }

    #[cfg(feature = "patterns")]
    #[test]
    fn a_range_s_pattern_takes_what_its_range_holds() {
        for range in KeyRange::STANDARD {
            let pattern = range.pattern();
            let regex = regex::Regex::new(&pattern).unwrap();
            for key in keys_to_try(&range) {
                assert_eq!(
                    regex.is_match(&key),
                    range.holds(&key),
                    "{pattern} on {key:?}"
                );
            }
        }
    }
}
