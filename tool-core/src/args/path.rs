//! A path into the arguments, as a fault names where it is: `a.b[2].c`, with keys that would
//! make it ambiguous quoted.

use std::fmt::Write as _;

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
    pub(super) fn with_field<R>(&mut self, field: &str, f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
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
        let result = f(self);
        self.0.truncate(len);
        result
    }

    pub(super) fn with_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
        let _ = write!(self.0, "[{index}]");
        let result = f(self);
        self.0.truncate(len);
        result
    }
}

/// A text as a fault shows it: a JSON string, cut after 40 characters.
pub(super) fn quote(text: &str) -> String {
    const LIMIT: usize = 40;
    // Writing a string into a `String` cannot fail.
    match text.char_indices().nth(LIMIT) {
        None => serde_json::to_string(text).unwrap_or_default(),
        Some((cut, _)) => serde_json::to_string(&text[..cut]).unwrap_or_default() + "…",
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
