//! The `pattern`s of a schema as regular expressions, compiled once when a tool's schema is
//! prepared rather than on every call. Patterns are read with the `regex` crate, whose syntax
//! is ECMA 262's for what schemas use (classes, anchors, repetition, alternation, Unicode
//! classes) but has no look-around and no backreferences; a pattern it cannot read makes the
//! registry refuse the tool when it is built.
//!
//! ECMA 262's `\d`, `\w` and `\b` are ASCII (a digit is `0` to `9`) where the `regex`
//! crate's are Unicode (`\d` takes `٣`): each is written as its ASCII class before compiling,
//! so that a pattern takes what a model reading it as ECMA 262 expects, and no more.
//!
//! Without the `patterns` feature there is no `regex` crate to read them with: [`Regex`] is
//! then a type no value has, [`readable`] says to turn the feature on, and every pattern
//! matches nothing, so a schema with a pattern is refused when the registry is made and a value
//! checked against one any other way (an answer to a question) is refused too. The patterns of
//! the keys of a map keyed by integers are matched by hand (`integer_keys.rs`).

#[cfg(feature = "patterns")]
pub(crate) use regex::Regex;
use serde_json::{Map, Value};

use super::integer_keys::{self, keys_integers};
use super::walk;

/// A regular expression; without the `patterns` feature, one that no pattern ever becomes.
#[cfg(not(feature = "patterns"))]
#[derive(Clone, Debug)]
pub(crate) enum Regex {}

#[cfg(not(feature = "patterns"))]
impl Regex {
    /// Never a regular expression: there is nothing to read one with.
    pub(crate) fn new(_pattern: &str) -> Result<Regex, String> {
        Err(crate::features::enable("patterns"))
    }

    /// Unreachable: no value of this type exists.
    pub(crate) fn is_match(&self, _text: &str) -> bool {
        match *self {}
    }
}

/// `pattern`, read as ECMA 262 reads it (see the module documentation).
#[cfg(feature = "patterns")]
pub(crate) fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&as_ecma_262(pattern))
}

/// Without the `patterns` feature, an error saying to turn it on.
#[cfg(not(feature = "patterns"))]
pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern)
}

/// Whether `text`, a caller's, is a regular expression as [`compile`] reads one: read, not
/// compiled, so that a short text whose automaton would be large (`\p{L}{100}`) costs no
/// more than its length, however many a call sends.
#[cfg(feature = "patterns")]
pub(crate) fn is_regex(text: &str) -> bool {
    regex_syntax::Parser::new()
        .parse(&as_ecma_262(text))
        .is_ok()
}

/// Without the `patterns` feature, nothing is: a registry refuses to advertise the format.
#[cfg(not(feature = "patterns"))]
pub(crate) fn is_regex(_text: &str) -> bool {
    false
}

/// `pattern` with ECMA 262's ASCII classes written out for the `regex` crate: `\d` as
/// `[0-9]`, `\w` as `[0-9A-Za-z_]`, their negations likewise (inside a class too, as a nested
/// class), and `\b`, `\B` as ASCII word boundaries, but inside a class `\b` as the
/// backspace it means there.
#[cfg(feature = "patterns")]
fn as_ecma_262(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains('\\') {
        return pattern.into();
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            // ECMA 262's classes do not nest: `[` inside one is itself.
            in_class = match c {
                '[' => true,
                ']' => false,
                _ => in_class,
            };
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') if in_class => out.push_str("\\x08"),
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('b') => out.push_str("(?-u:\\b)"),
            Some('B') => out.push_str("(?-u:\\B)"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out.into()
}

/// Whether the registry can read `pattern`; else what to do, in words for a refusal.
pub(crate) fn readable(pattern: &str) -> Result<(), String> {
    match compile(pattern) {
        Ok(_) => Ok(()),
        #[cfg(feature = "patterns")]
        Err(error) => Err(format!(
            "the pattern {pattern:?} cannot be read by the regex crate ({}); write it without \
             look-around or backreferences",
            error
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        )),
        #[cfg(not(feature = "patterns"))]
        Err(advice) => Err(format!(
            "the pattern {pattern:?} is checked with tool-core's `patterns` feature, which is \
             off: {advice}"
        )),
    }
}

/// The compiled patterns of one schema.
#[derive(Debug, Default)]
pub(crate) struct Patterns {
    compiled: Vec<(String, Regex)>,
}

/// No patterns compiled ahead: each is compiled when met.
pub(crate) static NONE: Patterns = Patterns {
    compiled: Vec::new(),
};

impl Patterns {
    /// Every pattern of `schema` (its `$defs` included) that compiles.
    pub(crate) fn of(schema: &Map<String, Value>) -> Patterns {
        let mut patterns = Patterns::default();
        for_each_pattern(schema, &mut |_, pattern| {
            if !patterns.compiled.iter().any(|(known, _)| known == pattern)
                && let Ok(regex) = compile(pattern)
            {
                patterns.compiled.push((pattern.to_owned(), regex));
            }
        });
        patterns
    }

    /// The compiled regular expression of `pattern`, if it was compiled ahead.
    pub(crate) fn compiled(&self, pattern: &str) -> Option<Regex> {
        self.compiled
            .iter()
            .find(|(known, _)| known == pattern)
            .map(|(_, regex)| regex.clone())
    }

    /// Whether `key` matches `pattern`, a key of `patternProperties`.
    pub(crate) fn key_matches(&self, pattern: &str, key: &str) -> bool {
        integer_keys::matches(pattern, key).unwrap_or_else(|| self.matches(pattern, key))
    }

    /// Whether `text` matches `pattern` somewhere (patterns are not anchored unless they say
    /// `^` and `$`); a pattern that does not compile matches nothing.
    pub(crate) fn matches(&self, pattern: &str, text: &str) -> bool {
        match self.compiled.iter().find(|(known, _)| known == pattern) {
            Some((_, regex)) => regex.is_match(text),
            None => compile(pattern).is_ok_and(|regex| regex.is_match(text)),
        }
    }
}

/// Whether the registry can read `pattern`, a key of `patternProperties`; else what to do.
pub(crate) fn key_readable(pattern: &str) -> Result<(), String> {
    match keys_integers(pattern) {
        true => Ok(()),
        false => readable(pattern),
    }
}

/// Calls `visit` with the path and text of every pattern in `schema` and its `$defs`: each
/// `pattern`, and each key of a `patternProperties` not matched by hand.
pub(crate) fn for_each_pattern(schema: &Map<String, Value>, visit: &mut dyn FnMut(&str, &str)) {
    let mut schema = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut schema, &mut String::new(), &mut |map, path| {
        if let Some(Value::String(pattern)) = map.get("pattern") {
            visit(path, pattern);
        }
        if let Some(Value::Object(keyed)) = map.get("patternProperties") {
            for key in keyed.keys().filter(|key| !keys_integers(key)) {
                visit(path, key);
            }
        }
    });
}

#[cfg(all(test, feature = "patterns"))]
mod tests {
    use super::*;

    #[test]
    fn classes_are_ascii_as_ecma_262_has_them() {
        for (pattern, text, matches) in [
            (r"^\d{4}$", "2026", true),
            (r"^\d{4}$", "٢٠٢٦", false),
            (r"^\w+$", "snake_case9", true),
            (r"^\w+$", "café", false),
            (r"^\D+$", "é-x", true),
            (r"^\W$", "é", true),
            (r"^[\d.]+$", "1.5", true),
            (r"^[\d.]+$", "١.٥", false),
            (r"^[^\W_]+$", "ab1", true),
            (r"^[^\W_]+$", "a_b", false),
            (r"\bcat\b", "écat", true),
            (r"^\\d$", "\\d", true),
            (r"^\p{L}+$", "café", true),
            (r"^\s$", "\u{a0}", true),
            (r"^[\b]$", "\u{8}", true),
            (r"^[a\]\d]+$", "a]1", true),
            (r"\\$", "\\", true),
        ] {
            let regex = compile(pattern).unwrap();
            assert_eq!(regex.is_match(text), matches, "{pattern} on {text:?}");
        }
    }
}
