//! The keys of a map keyed by integers (`HashMap<u32, V>`), which schemars describes with
//! `patternProperties` (`^\d+$`, or `^-?\d+$` for signed keys): the patterns advertised for
//! them, and their matching by hand, with the `patterns` feature or without it (such a map is
//! a plain Rust type, and needs no regular expression to check).
//!
//! serde_json reads such a key from its text as the key's integer type reads a number: with
//! no leading zero, no `-0`, and within the type's range. schemars' patterns say neither the
//! form nor the range, so they are advertised as serde_json reads the keys
//! ([`exact_keys`]), and, where the input type was asked which integers its key type takes
//! (`args/keyed.rs`), as exactly those ([`KeyRange::pattern`]): a `u8` key takes `0` to `255`,
//! a `NonZeroU32` key (which schemars gives the signed pattern) `1` to `4294967295`. A range
//! is one of the integer types' ([`KeyRange::STANDARD`]): its pattern is recognised by its
//! text, so a schema read again (an answer's, a remote server's of our own making) is matched
//! by hand too.

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::walk;

/// The keys of a map keyed by unsigned integers, as serde_json reads them: digits, without a
/// leading zero.
const UNSIGNED_KEYS: &str = "^(0|[1-9][0-9]*)$";

/// The keys of a map keyed by signed integers, as serde_json reads them: `UNSIGNED_KEYS`, or
/// one of them but `0` after a minus.
const SIGNED_KEYS: &str = "^(0|-?[1-9][0-9]*)$";

/// The integers a map's key type takes: from `min` to `max`, `0` among them unless `zero` is
/// false (a `NonZeroI32`'s), and written `-0` too where `minus_zero` says so (serde_json reads
/// an `i128` key so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyRange {
    /// The least key.
    pub(crate) min: i128,
    /// The greatest key.
    pub(crate) max: u128,
    /// Whether `0` is a key.
    pub(crate) zero: bool,
    /// Whether `-0` is a key.
    pub(crate) minus_zero: bool,
}

/// How many bits each integer type's greatest value has, its signed types' too, ascending.
const BITS: [u32; 10] = [7, 8, 15, 16, 31, 32, 63, 64, 127, 128];

impl KeyRange {
    /// Each integer type's range, and each non-zero integer type's: the only ranges asked
    /// about, and the only range patterns recognised.
    pub(crate) const STANDARD: [KeyRange; 20] = {
        let mut ranges = [KeyRange::new(0, 0, true); 20];
        let mut at = 0;
        while at < 5 {
            let bits = 8 << at;
            let unsigned = u128::MAX >> (128 - bits);
            let signed = unsigned >> 1;
            let lowest = -(signed as i128) - 1;
            ranges[4 * at] = KeyRange::new(0, unsigned, true);
            ranges[4 * at + 1] = KeyRange::new(1, unsigned, false);
            ranges[4 * at + 2] = KeyRange::new(lowest, signed, true);
            ranges[4 * at + 2].minus_zero = bits == 128;
            ranges[4 * at + 3] = KeyRange::new(lowest, signed, false);
            at += 1;
        }
        ranges
    };

    const fn new(min: i128, max: u128, zero: bool) -> KeyRange {
        KeyRange {
            min,
            max,
            zero,
            minus_zero: false,
        }
    }

    /// The standard range of the keys a key type takes, asked of it a key at a time
    /// (`accepts`): past which integer type's greatest and least it refuses keys, whether it
    /// takes `0`, and `-0`. `None` where its answers fit no integer type's range (a key type
    /// of its own, taking keys by another rule). Only the edges are asked: a rule of its own
    /// that refuses keys inside a standard range is not seen.
    pub(crate) fn asked(mut accepts: impl FnMut(&str) -> bool) -> Option<KeyRange> {
        let greatest = |at: usize| u128::MAX >> (128 - BITS[at]);
        let past = |max: u128| match max.checked_add(1) {
            Some(past) => past.to_string(),
            None => format!("{}6", u128::MAX / 10),
        };
        let max = greatest(first(BITS.len(), |at| !accepts(&past(greatest(at))))?);
        let min = match accepts("-1") {
            false => i128::from(!accepts("0")),
            true => {
                // The signed types' least values, each the negative of a greatest of `BITS`.
                let least = |at: usize| i128::MIN >> (127 - BITS[2 * at]);
                let below = |at: usize| format!("-{}", least(at).unsigned_abs() + 1);
                least(first(BITS.len() / 2, |at| !accepts(&below(at)))?)
            }
        };
        let mut range = KeyRange::new(min, max, min == 0 || (min < 0 && accepts("0")));
        range.minus_zero = range.zero && min < 0 && accepts("-0");
        let edges = [max.to_string(), min.to_string()];
        (KeyRange::STANDARD.contains(&range) && edges.iter().all(|edge| accepts(edge)))
            .then_some(range)
    }

    /// The integers a pattern of a map keyed by integers says its keys are: schemars' (and
    /// [`exact_keys`]' for them) any integer, or any not below zero; a range's, its range.
    fn of_keys(pattern: &str) -> Option<KeyRange> {
        match pattern {
            r"^\d+$" | UNSIGNED_KEYS => Some(KeyRange::new(0, u128::MAX, true)),
            r"^-?\d+$" | SIGNED_KEYS => Some(KeyRange {
                minus_zero: true,
                ..KeyRange::new(i128::MIN, u128::MAX, true)
            }),
            _ => KeyRange::of_pattern(pattern),
        }
    }

    /// Whether every key of this range is one of `other`'s.
    fn within(&self, other: &KeyRange) -> bool {
        self.min >= other.min
            && self.max <= other.max
            && (other.zero || !self.zero)
            && (other.minus_zero || !self.minus_zero)
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
            let mut negatives = up_to(self.min.unsigned_abs());
            if self.minus_zero {
                negatives.insert(0, "0".to_owned());
            }
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
            (true, 0) => self.minus_zero,
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
        words.push_str(", in digits without a leading zero");
        words
    }
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

/// `schema` with the keys of each map in `ranges`, known by its address, advertised as exactly
/// its range's ([`KeyRange::pattern`]), where the range is within what the map's pattern
/// said (a key type schemars was told is unsigned keeps the unsigned pattern, though it
/// reads negative keys).
pub(crate) fn narrow(
    schema: &mut Map<String, Value>,
    ranges: &[(*const Map<String, Value>, KeyRange)],
) {
    // A map is known by its address, as the asking saw it: each object's is looked up before
    // the objects inside it are rewritten, and its own keys rewritten after, which moves them.
    let address: *const Map<String, Value> = schema;
    let range = ranges.iter().find(|(at, _)| std::ptr::eq(*at, address));
    let range = range.map(|(_, range)| *range);
    if let Some(Value::Object(definitions)) = schema.get_mut("$defs") {
        for definition in definitions.values_mut().filter_map(Value::as_object_mut) {
            narrow(definition, ranges);
        }
    }
    let _ = walk::children_mut::<()>(schema, |_, child| {
        if let Some(child) = child.as_object_mut() {
            narrow(child, ranges);
        }
        Ok(())
    });
    if let (Some(range), Some(Value::Object(keyed))) = (range, schema.get_mut("patternProperties"))
    {
        *keyed = (std::mem::take(keyed).into_iter())
            .map(|(pattern, values)| match KeyRange::of_keys(&pattern) {
                Some(keys) if range.within(&keys) => (range.pattern(), values),
                _ => (pattern, values),
            })
            .collect();
    }
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
                "that is a whole number from -128 to 127 other than 0, in digits without a \
                 leading zero"
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
        use std::num::*;
        /// Whether serde_json reads `key` as a key of a map keyed by `K`.
        fn read<K: serde::de::DeserializeOwned + Ord>(key: &str) -> bool {
            let text = serde_json::json!({ key: 1 }).to_string();
            serde_json::from_str::<std::collections::BTreeMap<K, u8>>(&text).is_ok()
        }
        // In the order of `KeyRange::STANDARD`.
        let types: [fn(&str) -> bool; 20] = [
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
            read::<u64>,
            read::<NonZeroU64>,
            read::<i64>,
            read::<NonZeroI64>,
            read::<u128>,
            read::<NonZeroU128>,
            read::<i128>,
            read::<NonZeroI128>,
        ];
        for (range, read) in KeyRange::STANDARD.iter().zip(types) {
            for key in keys_to_try(range) {
                assert_eq!(range.holds(&key), read(&key), "{range:?} on {key:?}");
            }
            let asked = KeyRange::asked(read);
            assert_eq!(asked.as_ref(), Some(range), "asked of the type itself");
        }
    }

    #[test]
    fn a_range_is_asked_of_a_key_type_at_its_edges() {
        for range in KeyRange::STANDARD {
            let mut asked = 0;
            let found = KeyRange::asked(|key| {
                asked += 1;
                range.holds(key)
            });
            assert_eq!(found, Some(range));
            assert!(asked <= 12, "{range:?}: {asked} keys asked");
        }
        // Keys by a rule of their own: from 0 to 1000, even ones, any at all.
        assert_eq!(
            KeyRange::asked(|key| key.parse::<u16>().is_ok_and(|n| n <= 1000)),
            None
        );
        assert_eq!(
            KeyRange::asked(|key| key.parse::<u8>().is_ok_and(|n| n % 2 == 0)),
            None
        );
        assert_eq!(KeyRange::asked(|_| true), None);
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
