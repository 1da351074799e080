//! JSON text read by hand, for what serde_json does not hand over (a number's text as written,
//! where a value sits): where a string ends, which bytes make a number, and a walk that notes
//! the path of each value, and the numbers sent as doubles at each path, in text already known
//! to be valid JSON. `written.rs` writes numbers back as sent with it, `in_part.rs` finds the
//! path of one, `serde_faults.rs` the fields to cut out, and `as_sent.rs` the numbers faults
//! tell.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use super::path::Path;

/// Whether `byte` may be part of a JSON number.
pub(super) fn in_number(byte: &u8) -> bool {
    matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The end of the number that starts at `start`: the index past its last byte.
pub(super) fn number_end(bytes: &[u8], start: usize) -> usize {
    let len = bytes.get(start..).map_or(0, |rest| rest.len());
    let taken = (bytes.get(start..)).and_then(|rest| rest.iter().position(|byte| !in_number(byte)));
    start + taken.unwrap_or(len)
}

/// The end of the string whose opening quote is at `open`: the index past its closing quote,
/// each escaped character passed over (or the text's end, for text cut short).
pub(super) fn string_end(bytes: &[u8], open: usize) -> usize {
    let mut at = open + 1;
    while let Some(&byte) = bytes.get(at) {
        at += if byte == b'\\' { 2 } else { 1 };
        if byte == b'"' {
            return at;
        }
    }
    bytes.len()
}

/// Whether `number`, a JSON number's text, is written in digits alone: no fraction, no
/// exponent.
pub(super) fn in_digits(number: &str) -> bool {
    !number.contains(['.', 'e', 'E'])
}

/// The byte of `text` serde's `error`, met reading it, points to.
pub(super) fn error_at(text: &str, error: &serde_json::Error) -> Option<usize> {
    // serde_json counts lines from 1 and columns from 1, in bytes.
    let line_start: usize = (text.split_inclusive('\n'))
        .take(error.line().checked_sub(1)?)
        .map(str::len)
        .sum();
    Some(line_start + error.column().checked_sub(1)?)
}

/// Whether serde_json reads `number`, a JSON number's text, as a double: one written with a
/// fraction or an exponent, an integer past what 64 bits hold, or `-0` (the double -0.0).
pub(super) fn is_double(number: &str) -> bool {
    !in_digits(number)
        || number == "-0"
        || (number.len() >= 19 && number.parse::<i64>().is_err() && number.parse::<u64>().is_err())
}

/// The numbers of a text that serde_json reads as doubles, as sent, by their path: where the
/// tree holds a double, the text says how it was written.
///
/// Kept by a hash of the path (keyed afresh for each text, so no text can choose its
/// collisions) and the double's bits, not by the path itself: a path is as long as the
/// arguments are deep, and arguments of many numbers deep down would hold a copy of it for
/// each. The numbers sent at one path as one double are kept in the order sent, with how many
/// were taken, so that each is told once and found at once however many a key sent many times
/// has.
pub(super) struct SentDoubles<'t> {
    /// The hasher of paths.
    paths: RandomState,
    /// By path and bits: the numbers, and how many were taken.
    numbers: HashMap<(u64, u64), (Vec<&'t str>, usize)>,
}

impl<'t> SentDoubles<'t> {
    /// The doubles of `text`, valid JSON, at each path `wanted` takes, in the order sent (a key
    /// sent twice has two).
    pub(super) fn read(text: &'t str, wanted: impl Fn(&str) -> bool) -> Self {
        let bytes = text.as_bytes();
        let mut sent = SentDoubles {
            paths: RandomState::new(),
            numbers: HashMap::new(),
        };
        let mut walk = Walk::new(text);
        while let Some(step) = walk.next() {
            if let Step::Value(start) = step
                && bytes.get(start).is_some_and(in_number)
                // Every byte taken is ASCII, so `start..end` lies on character boundaries.
                && let Some(number) = text.get(start..number_end(bytes, start))
                && is_double(number)
                && wanted(walk.path())
                && let Ok(double) = number.parse::<f64>()
            {
                let key = sent.key(walk.path(), double);
                sent.numbers.entry(key).or_default().0.push(number);
            }
        }
        sent
    }

    /// Where the doubles sent at `path` that read as `double` are kept.
    fn key(&self, path: &str, double: f64) -> (u64, u64) {
        (self.paths.hash_one(path), double.to_bits())
    }

    /// The first number sent at `path` that reads as `double`, not taken before; taken, so that
    /// each is told once.
    pub(super) fn take(&mut self, path: &str, double: f64) -> Option<&'t str> {
        let key = self.key(path, double);
        let (numbers, taken) = self.numbers.get_mut(&key)?;
        let number = numbers.get(*taken)?;
        *taken += 1;
        Some(number)
    }

    /// The first number sent at `path` that reads as `double`, taken or not: for a value told
    /// again (an item a `uniqueItems` fault names as well as its own fault).
    pub(super) fn get(&self, path: &str, double: f64) -> Option<&'t str> {
        let (numbers, _) = self.numbers.get(&self.key(path, double))?;
        numbers.first().copied()
    }
}

/// What a [`Walk`] comes to.
#[derive(Debug, PartialEq)]
pub(super) enum Step {
    /// A value begins at this byte; [`Walk::path`] is its path.
    Value(usize),
    /// An object's field or an array's item ends at the byte `at` (a comma or the closing
    /// bracket); it began at `entry`, just past the opening bracket for the first, else at the
    /// comma before it. [`Walk::path`] is still its path.
    EntryEnd {
        /// Where the entry began.
        entry: usize,
        /// The byte that ends it.
        at: usize,
    },
}

/// A walk over JSON text known to be valid, step by step, keeping the path of the value being
/// read as a fault writes it (`a.b[2]`). One pass over the bytes, however deep the text.
pub(super) struct Walk<'t> {
    text: &'t str,
    at: usize,
    path: Path,
    levels: Vec<Level>,
    /// The comma or closing bracket an [`Step::EntryEnd`] was given for, still to be passed.
    closing: Option<u8>,
}

/// An object or array the walk is in.
struct Level {
    object: bool,
    /// The path's length outside it.
    base: usize,
    /// Where the entry being read began.
    entry: usize,
    /// The index of the item being read, in an array.
    index: u64,
    /// Whether the next string is a key.
    at_key: bool,
    /// Whether the entry being read has begun (its key or its item read).
    begun: bool,
}

impl<'t> Walk<'t> {
    /// A walk from the start of `text`.
    pub(super) fn new(text: &'t str) -> Self {
        Walk {
            text,
            at: 0,
            path: Path::default(),
            levels: Vec::new(),
            closing: None,
        }
    }

    /// The path of the value last come to.
    pub(super) fn path(&self) -> &str {
        &self.path.0
    }

    /// The path of the object or array the walk is in.
    pub(super) fn outer(&self) -> &str {
        let base = self.levels.last().map_or(0, |level| level.base);
        self.path.0.get(..base).unwrap_or_default()
    }

    /// Whether the walk is in an object (not an array, nor outside both).
    pub(super) fn in_object(&self) -> bool {
        self.levels.last().is_some_and(|level| level.object)
    }

    /// An item of an array begins: its index joins the path.
    fn value_begins(&mut self) {
        if let Some(level) = self.levels.last_mut()
            && !level.object
            && !level.begun
        {
            level.begun = true;
            self.path.push_index(level.index);
        }
    }

    /// Passes the comma or closing bracket of the entry last ended.
    fn close(&mut self, byte: u8) {
        let Some(level) = self.levels.last_mut() else {
            return;
        };
        self.path.0.truncate(level.base);
        if byte == b',' {
            level.entry = self.at;
            level.at_key = level.object;
            level.begun = false;
            level.index += 1;
        } else {
            self.levels.pop();
        }
        self.at += 1;
    }
}

impl Iterator for Walk<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if let Some(byte) = self.closing.take() {
            self.close(byte);
        }
        let bytes = self.text.as_bytes();
        loop {
            let start = self.at;
            match *bytes.get(start)? {
                b'"' => {
                    self.at = string_end(bytes, start);
                    let key_at = self.levels.last_mut().filter(|level| level.at_key);
                    let Some(level) = key_at else {
                        self.value_begins();
                        return Some(Step::Value(start));
                    };
                    level.at_key = false;
                    level.begun = true;
                    self.path.0.truncate(level.base);
                    if let Some(key) = self.text.get(start..self.at).and_then(key_of) {
                        self.path.push_field(&key);
                    }
                }
                byte @ (b'{' | b'[') => {
                    self.value_begins();
                    self.at += 1;
                    self.levels.push(Level {
                        object: byte == b'{',
                        base: self.path.0.len(),
                        entry: self.at,
                        index: 0,
                        at_key: byte == b'{',
                        begun: false,
                    });
                    return Some(Step::Value(start));
                }
                byte @ (b',' | b'}' | b']') => {
                    let level = self.levels.last()?;
                    if level.begun {
                        self.closing = Some(byte);
                        return Some(Step::EntryEnd {
                            entry: level.entry,
                            at: start,
                        });
                    }
                    self.close(byte);
                }
                b'-' | b'0'..=b'9' => {
                    self.value_begins();
                    self.at = number_end(bytes, start);
                    return Some(Step::Value(start));
                }
                b't' | b'f' | b'n' => {
                    self.value_begins();
                    let len = bytes[start..].iter().take_while(|b| b.is_ascii_lowercase());
                    self.at = start + len.count();
                    return Some(Step::Value(start));
                }
                _ => self.at += 1,
            }
        }
    }
}

/// The text of a key written `quoted`: as it is, unless it has escapes.
pub(super) fn key_of(quoted: &str) -> Option<Cow<'_, str>> {
    match quoted.contains('\\') {
        true => serde_json::from_str::<String>(quoted).ok().map(Cow::Owned),
        false => quoted
            .get(1..quoted.len().checked_sub(1)?)
            .map(Cow::Borrowed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each step of a walk over `text`, with the path at it and the bytes it names.
    fn steps(text: &str) -> Vec<(String, &str)> {
        let mut walk = Walk::new(text);
        let mut seen = Vec::new();
        while let Some(step) = walk.next() {
            let shown = match step {
                Step::Value(start) => &text[start..start + 1],
                Step::EntryEnd { entry, at } => &text[entry..at],
            };
            seen.push((walk.path().to_owned(), shown));
        }
        seen
    }

    #[test]
    fn the_doubles_sent_are_found_at_their_paths_and_none_inside_strings() {
        let text = r#"{"a\"1": -1.5e3, "b": ["2.5", 3, {"c": 1E+2}], "d\\": 0, "e": 1e20,
            "e": 100000000000000000000}"#;
        let mut sent = SentDoubles::read(text, |path| path != "b[2].c");
        assert_eq!(sent.take(r#"["a\"1"]"#, -1500.0), Some("-1.5e3"));
        assert_eq!(sent.take(r#"["a\"1"]"#, -1500.0), None);
        // Not wanted, inside a string, or not a double.
        assert_eq!(sent.take("b[2].c", 100.0), None);
        assert_eq!(sent.take("b[0]", 2.5), None);
        assert_eq!(sent.take("b[1]", 3.0), None);
        // A key sent twice: each copy once, in the order sent.
        assert_eq!(sent.take("e", 1e20), Some("1e20"));
        assert_eq!(sent.take("e", 1e20), Some("100000000000000000000"));
        // Told again: the first, taken or not.
        assert_eq!(sent.get("e", 1e20), Some("1e20"));
        assert_eq!(sent.get(r#"["a\"1"]"#, -1500.0), Some("-1.5e3"));
        assert_eq!(sent.get("e", 2e20), None);
        assert!(!is_double("18446744073709551615") && !is_double("-9223372036854775808"));
        assert!(is_double("-9223372036854775809") && is_double("1.0") && is_double("-0"));
        assert!(!is_double("0") && !is_double("-1"));
    }

    #[test]
    fn a_walk_gives_each_value_and_entry_with_its_path() {
        let text = r#"{"a,]": "x:{", "b": [{"c\"": [1, [], {}]}], "d e": true, "\u0041": null}"#;
        let got = steps(text);
        let want: Vec<(String, &str)> = [
            ("", "{"),
            ("[\"a,]\"]", "\""),
            ("[\"a,]\"]", r#""a,]": "x:{""#),
            ("b", "["),
            ("b[0]", "{"),
            (r#"b[0]["c\""]"#, "["),
            (r#"b[0]["c\""][0]"#, "1"),
            (r#"b[0]["c\""][0]"#, "1"),
            (r#"b[0]["c\""][1]"#, "["),
            (r#"b[0]["c\""][1]"#, ", []"),
            (r#"b[0]["c\""][2]"#, "{"),
            (r#"b[0]["c\""][2]"#, ", {}"),
            (r#"b[0]["c\""]"#, r#""c\"": [1, [], {}]"#),
            ("b[0]", r#"{"c\"": [1, [], {}]}"#),
            ("b", r#", "b": [{"c\"": [1, [], {}]}]"#),
            ("[\"d e\"]", "t"),
            ("[\"d e\"]", r#", "d e": true"#),
            ("A", "n"),
            ("A", r#", "\u0041": null"#),
        ]
        .into_iter()
        .map(|(path, shown)| (path.to_owned(), shown))
        .collect();
        assert_eq!(got, want);
        // Outside any object, and nothing after the text.
        assert_eq!(steps("[]"), [(String::new(), "[")]);
        assert_eq!(steps(" 7 "), [(String::new(), "7")]);
    }

    /// Each value of `value` in the order written, with its path, as a walk over its text
    /// should give them.
    fn values_in_order(value: &serde_json::Value, path: &mut Path, out: &mut Vec<String>) {
        out.push(path.0.clone());
        let len = path.0.len();
        match value {
            serde_json::Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    path.push_index(index as u64);
                    values_in_order(item, path, out);
                    path.0.truncate(len);
                }
            }
            serde_json::Value::Object(fields) => {
                for (key, field) in fields {
                    path.push_field(key);
                    values_in_order(field, path, out);
                    path.0.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// Strings and keys of the characters JSON escapes and paths quote.
    const ODD_TEXT: &str = "[\\\"{}\\[\\].,: a-z\\\\\u{e9}]*";

    proptest::proptest! {
        #[test]
        fn a_walk_comes_to_every_value_in_order_at_its_path(
            value in crate::test_values::any_value(ODD_TEXT)
        ) {
            let mut want = Vec::new();
            values_in_order(&value, &mut Path::default(), &mut want);
            for text in [value.to_string(), serde_json::to_string_pretty(&value).unwrap()] {
                let got: Vec<String> = {
                    let mut walk = Walk::new(&text);
                    let mut got = Vec::new();
                    while let Some(step) = walk.next() {
                        if let Step::Value(_) = step {
                            got.push(walk.path().to_owned());
                        }
                    }
                    got
                };
                proptest::prop_assert_eq!(&got, &want, "{}", text);
            }
        }
    }
}
