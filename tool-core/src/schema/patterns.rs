//! The `pattern`s of a schema as regular expressions, compiled once when a tool's schema is
//! prepared rather than on every call. Patterns are read with the `regex` crate, whose syntax
//! is ECMA 262's for what schemas use (classes, anchors, repetition, alternation, Unicode
//! classes) but has no look-around and no backreferences; a pattern it cannot read makes the
//! registry refuse the tool when it is built.
//!
//! Without the `patterns` feature there is no `regex` crate to read them with: [`Regex`] is
//! then a type no value has, [`readable`] says to turn the feature on, and every pattern
//! matches nothing, so a schema with a pattern is refused when the registry is made and a value
//! checked against one any other way (an answer to a question) is refused too.

#[cfg(feature = "patterns")]
pub(crate) use regex::Regex;
use serde_json::{Map, Value};

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

/// Whether the registry can read `pattern`; else what to do, in words for a refusal.
pub(crate) fn readable(pattern: &str) -> Result<(), String> {
    match Regex::new(pattern) {
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
                && let Ok(regex) = Regex::new(pattern)
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

    /// Whether `text` matches `pattern` somewhere (patterns are not anchored unless they say
    /// `^` and `$`); a pattern that does not compile matches nothing.
    pub(crate) fn matches(&self, pattern: &str, text: &str) -> bool {
        match self.compiled.iter().find(|(known, _)| known == pattern) {
            Some((_, regex)) => regex.is_match(text),
            None => Regex::new(pattern).is_ok_and(|regex| regex.is_match(text)),
        }
    }
}

/// Calls `visit` with the path and text of every `pattern` in `schema` and its `$defs`.
pub(crate) fn for_each_pattern(schema: &Map<String, Value>, visit: &mut dyn FnMut(&str, &str)) {
    let mut schema = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut schema, &mut String::new(), &mut |map, path| {
        if let Some(Value::String(pattern)) = map.get("pattern") {
            visit(path, pattern);
        }
    });
}
