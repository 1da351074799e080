//! A path into the arguments, as a fault names where it is: `a.b[2].c`, with keys that would
//! make it ambiguous quoted; and what a path holds.

use std::fmt::Write as _;

use serde_json::Value;

/// A path into the arguments, rendered as `a.b[2].c`. A key of anything but ASCII letters,
/// digits, `_` and `-` (one with a dot, a bracket or a space in it, say, which would make the
/// path ambiguous), an empty key and one longer than [`PLAIN_KEY_LIMIT`] are written as a
/// quoted JSON string in brackets: `a["b.c"][2]`; past 40 characters the key is cut and
/// marked, `a["bbb…bbb"…]`.
pub(super) struct Path(pub(super) String);

/// The longest key a path writes as it is.
pub(super) const PLAIN_KEY_LIMIT: usize = 64;

/// Whether `key` reads unambiguously after a dot in a path.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= PLAIN_KEY_LIMIT
        && key
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

impl Default for Path {
    /// An empty path, with room for a few levels before it grows.
    fn default() -> Self {
        Path(String::with_capacity(64))
    }
}

impl Path {
    /// `f` run with the path one field deeper.
    pub(super) fn with_field<R>(&mut self, field: &str, f: impl FnOnce(&mut Path) -> R) -> R {
        self.deeper(|path| path.push_field(field), f)
    }

    /// `f` run with the path one item deeper.
    pub(super) fn with_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Path) -> R) -> R {
        self.deeper(|path| path.push_index(index as u64), f)
    }

    /// `f` run with the path made longer by `push`, cut back after it.
    fn deeper<R>(&mut self, push: impl FnOnce(&mut Path), f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
        push(self);
        let result = f(self);
        self.0.truncate(len);
        result
    }

    /// The path one field deeper, until truncated again.
    pub(super) fn push_field(&mut self, field: &str) {
        if is_plain_key(field) {
            if !self.0.is_empty() {
                self.0.push('.');
            }
            self.0.push_str(field);
        } else {
            self.0.push('[');
            self.0.push_str(&quote(field));
            self.0.push(']');
        }
    }

    /// The path one item deeper, until truncated again.
    pub(super) fn push_index(&mut self, index: u64) {
        let _ = write!(self.0, "[{index}]");
    }
}

/// Whether `path` is `at` or a path below it.
pub(super) fn within(path: &str, at: &str) -> bool {
    at.is_empty()
        || (path.strip_prefix(at))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Leaves out of `value`, at `path`, the innermost field that holds `at`, a place in it,
/// unless that field holds `end`, the way's end, or is held by it: the path of the object it
/// was left out of and its name, if it was.
pub(super) fn leave_out(
    value: &mut Value,
    path: &mut Path,
    at: &str,
    end: &str,
) -> Option<(String, String)> {
    match value {
        Value::Object(fields) => {
            let (name, field) = (fields.iter_mut())
                .find(|(name, _)| path.with_field(name, |path| within(at, &path.0)))?;
            let name = name.clone();
            let (deeper, on_way) = path.with_field(&name, |path| {
                let on_way = within(end, &path.0) || within(&path.0, end);
                (leave_out(field, path, at, end), on_way)
            });
            match deeper {
                Some(left_out) => Some(left_out),
                None if on_way => None,
                None => fields.shift_remove(&name).map(|_| (path.0.clone(), name)),
            }
        }
        Value::Array(items) => (items.iter_mut().enumerate()).find_map(|(index, item)| {
            path.with_index(index, |path| {
                within(at, &path.0)
                    .then(|| leave_out(item, path, at, end))
                    .flatten()
            })
        }),
        _ => None,
    }
}

/// A text as a fault shows it: a JSON string, cut after 40 characters.
pub(super) fn quote(text: &str) -> String {
    let mut out = String::new();
    write_quoted(text, &mut out);
    out
}

/// [`quote`], written at the end of `out`.
pub(super) fn write_quoted(text: &str, out: &mut String) {
    const LIMIT: usize = 40;
    // One pass finds where the 41st character starts, if there is one, and whether anything
    // before it needs an escape (most texts need none, and are written as they are).
    let (mut characters, mut cut, mut escapes) = (0, None, false);
    for (at, byte) in text.bytes().enumerate() {
        // A byte that starts a character: ASCII, or the first of a multi-byte sequence.
        if byte & 0xC0 != 0x80 {
            if characters == LIMIT {
                cut = Some(at);
                break;
            }
            characters += 1;
        }
        escapes |= byte < 0x20 || byte == b'"' || byte == b'\\';
    }
    let shown = &text[..cut.unwrap_or(text.len())];
    if escapes {
        // Writing a string cannot fail, and serde_json writes whole characters at a time.
        let _ = serde_json::to_writer(Utf8Writer(out), shown);
    } else {
        out.push('"');
        out.push_str(shown);
        out.push('"');
    }
    if cut.is_some() {
        out.push('…');
    }
}

/// Lets serde_json write JSON text straight into a `String`.
struct Utf8Writer<'a>(&'a mut String);

impl std::io::Write for Utf8Writer<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let text = std::str::from_utf8(bytes).map_err(std::io::Error::other)?;
        self.0.push_str(text);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A path as a fault or a note shows it: `(arguments)` for the arguments as a whole.
pub(crate) fn shown(path: String) -> String {
    if path.is_empty() {
        "(arguments)".to_owned()
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_text_is_the_json_string_serde_writes_cut_after_forty_characters() {
        let long = "é".repeat(45);
        for text in [
            "",
            "plain",
            "a \"quote\"",
            "back\\slash",
            "tab\there",
            "\u{1}",
            "日本",
            &long,
        ] {
            let kept: String = text.chars().take(40).collect();
            let mut expected = serde_json::to_string(&kept).unwrap();
            if text.chars().count() > 40 {
                expected.push('…');
            }
            assert_eq!(quote(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_place_off_the_way_loses_its_innermost_field_and_one_on_it_nothing() {
        let arguments = serde_json::json!({
            "a": {"b": {"c": "x", "d": 1}, "map": {"1": 2}},
            "pair": ["x", {"1": 2}],
            "a.b": {"c": 1}
        });
        for (at, end, left) in [
            (
                "a.b.c",
                "a.map",
                Some(serde_json::json!({"a": {"b": {"d": 1}, "map": {"1": 2}}})),
            ),
            (
                "a.b",
                "a.map",
                Some(serde_json::json!({"a": {"map": {"1": 2}}})),
            ),
            ("[\"a.b\"].c", "a.map", Some(serde_json::json!({"a.b": {}}))),
            // On the way, or an item of an array: nothing to leave out.
            ("a", "a.map", None),
            ("a.map.1", "a.map", None),
            ("pair[0]", "pair[1]", None),
        ] {
            let mut value = arguments.clone();
            let removed = leave_out(&mut value, &mut Path::default(), at, end);
            assert_eq!(removed.is_some(), left.is_some(), "{at}");
            for (name, field) in left.iter().flat_map(|left| left.as_object().unwrap()) {
                assert_eq!(&value[name], field, "{at}");
            }
        }
        let mut value = arguments.clone();
        let removed = leave_out(&mut value, &mut Path::default(), "a.b.c", "a.map");
        assert_eq!(removed, Some(("a.b".to_owned(), "c".to_owned())));
        assert!(within("a.b[2]", "a.b") && within("a", "") && !within("ab", "a"));
    }
}
