//! The options that list words as strings: `tags("notes", "write")`, which group a tool with
//! others, and `scopes("notes:write")`, the OAuth scopes a caller's token must hold. Both are
//! read the same way (string literals, each checked for its form, a repeat refused at the
//! repeat); they differ in what a word may be.

use syn::{Expr, LitStr, Meta};

use super::syntax::{list_option, string};
use crate::error::{Errors, at};

/// What one kind of word list is: its name, its help and the form of its words.
trait Words {
    /// The word, as an error names it: "tag", "scope".
    const WORD: &'static str;
    /// What to write, ending every error about the option's form.
    const HELP: &'static str;
    /// What is wrong with one word, if anything.
    fn problem(word: &str) -> Option<String>;
}

/// Reads one list option of `W`'s words, each with where it was written.
fn read_words<W: Words>(item: &Meta) -> crate::error::Result<Vec<LitStr>> {
    let items = list_option::<Expr>(item, &format!("its {}s", W::WORD), W::HELP)?;
    let mut errors = Errors::default();
    let mut words = Vec::new();
    for item in &items {
        match string(item) {
            Some(word) => match W::problem(&word.value()) {
                Some(problem) => errors.push(at(word, problem)),
                None => words.push(word.clone()),
            },
            None => errors.push(at(
                item,
                format!("a {} is a string literal; {}", W::WORD, W::HELP),
            )),
        }
    }
    errors.finish_with(words)
}

/// Refuses a word written twice, within one list or across several, at the repeat: the
/// definition keeps each once, so a repeat adds nothing and is most likely a slip for another.
/// Words are compared as written, case and all, as a grant compares them.
fn check_repeats<'a, W: Words>(
    words: impl Iterator<Item = &'a LitStr>,
) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    let mut seen: Vec<String> = Vec::new();
    for word in words {
        let value = word.value();
        if seen.contains(&value) {
            errors.push(at(
                word,
                format!(
                    "the {} {value:?} is already given; drop this repeat",
                    W::WORD
                ),
            ));
        } else {
            seen.push(value);
        }
    }
    errors.finish()
}

/// One `tags(...)`: its tags, each with where it was written.
#[derive(Debug)]
pub struct Tags(pub Vec<LitStr>);

impl Words for Tags {
    const WORD: &'static str = "tag";
    const HELP: &'static str =
        "write the tags as strings in parentheses, such as `tags(\"notes\", \"write\")`";

    /// A tag is one word a grant or a search can name, of letters, digits, `-`, `_`, `.` and
    /// `/`, at most 64 characters.
    fn problem(tag: &str) -> Option<String> {
        if tag.is_empty() {
            return Some(format!("a tag cannot be empty; {}", Self::HELP));
        }
        if tag.chars().count() > 64 {
            return Some("a tag is at most 64 characters; shorten it".to_owned());
        }
        let bad = tag
            .chars()
            .find(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')))?;
        Some(format!(
            "a tag is one word of letters, digits, `-`, `_`, `.` and `/`, and {bad:?} is none \
             of these; write `tags(\"a\", \"b\")` for two tags"
        ))
    }
}

impl Tags {
    /// Reads one `tags(...)`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        read_words::<Tags>(item).map(Tags)
    }
}

/// Refuses a tag written twice, within one `tags(...)` or across several: `Grant::tag("notes")`
/// does not grant a tool tagged `"Notes"`, so those are two tags, and only a true repeat is one.
pub fn check_tags(tags: &[Tags]) -> crate::error::Result<()> {
    check_repeats::<Tags>(tags.iter().flat_map(|tags| &tags.0))
}

/// One `scopes(...)`: the OAuth scopes a caller's access token must hold, each with where it
/// was written.
#[derive(Clone, Debug)]
pub struct Scopes(pub Vec<LitStr>);

impl Words for Scopes {
    const WORD: &'static str = "scope";
    const HELP: &'static str = "write the scopes as strings in parentheses, such as \
                                `scopes(\"notes:read\", \"notes:write\")`";

    /// A scope is RFC 6749's scope token: printable ASCII other than space, `"` and `\`.
    fn problem(scope: &str) -> Option<String> {
        if scope.is_empty() {
            return Some(format!("a scope cannot be empty; {}", Self::HELP));
        }
        let bad = scope
            .chars()
            .find(|&c| !(c.is_ascii_graphic() && c != '"' && c != '\\'))?;
        Some(format!(
            "a scope is printable ASCII without spaces, `\"` or `\\` (RFC 6749, section 3.3), \
             and {bad:?} is not; write `scopes(\"a\", \"b\")` for two scopes"
        ))
    }
}

impl Scopes {
    /// Reads one `scopes(...)`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        read_words::<Scopes>(item).map(Scopes)
    }
}

/// Refuses a scope written twice, within one `scopes(...)` or across several.
pub fn check_scopes(scopes: &[Scopes]) -> crate::error::Result<()> {
    check_repeats::<Scopes>(scopes.iter().flat_map(|scopes| &scopes.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_is_an_rfc_6749_scope_token() {
        assert_eq!(Scopes::problem("notes:write"), None);
        assert_eq!(Scopes::problem("https://api.example.com/notes"), None);
        for bad in ["", "notes write", "a\"b", "a\\b", "caf\u{e9}"] {
            assert!(Scopes::problem(bad).is_some(), "{bad:?}");
        }
    }
}
