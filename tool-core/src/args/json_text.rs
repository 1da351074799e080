//! JSON text read by hand, for what serde_json does not hand over (a number's text as written,
//! where a value sits): where a string ends, which bytes make a number, and a walk that notes
//! the path of each value, in text already known to be valid JSON. `written.rs` finds the
//! numbers as sent with it, `in_part.rs` the path of one, `serde_faults.rs` the fields to cut
//! out, and `as_sent.rs` the numbers faults tell.

use std::borrow::Cow;

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

    fn any_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(Into::into),
            any::<i64>().prop_map(Into::into),
            any::<f64>().prop_map(Into::into),
            "[\\\"{}\\[\\],: a-z\\\\\u{e9}]*".prop_map(Into::into),
        ];
        leaf.prop_recursive(5, 48, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Into::into),
                proptest::collection::vec(("[\\\"{}\\[\\].,: a-z\\\\]*", inner), 0..4)
                    .prop_map(|fields| serde_json::Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn a_walk_comes_to_every_value_in_order_at_its_path(value in any_value()) {
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
