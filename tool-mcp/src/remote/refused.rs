//! A remote server's refusal of a call, naming the tool as the registry offers it.
//!
//! A server's refusal names the tool by its own name (`2 faults in the arguments of
//! note_write`); offered under a prefix, the model called it `notes_note_write`, and a refusal
//! that names another tool tells the model of one it cannot call. Only the places a refusal
//! names a tool are written again: the name quoted, and this framework's own "the arguments of
//! NAME". A name is often a word too (`search`), which prose around it keeps.

use tool_core::Refusal;

/// `refusal`, its message naming the tool `offered` where it named it `listed_as` (see the
/// module's notes).
pub(super) fn as_offered(mut refusal: Refusal, listed_as: &str, offered: &str) -> Refusal {
    if listed_as != offered && !listed_as.is_empty() {
        refusal.message = renamed(&refusal.message, listed_as, offered);
    }
    refusal
}

/// `text` with each place it names the tool `from` naming `to` instead: `from` between two
/// like quotes, or after "arguments of " where no longer name goes on from it.
fn renamed(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let (before, after) = (&rest[..at], &rest[at + from.len()..]);
        let quoted = (before.chars().next_back())
            .is_some_and(|quote| matches!(quote, '`' | '"' | '\'') && after.starts_with(quote));
        let argued = before.ends_with("arguments of ") && !name_goes_on(after);
        out.push_str(before);
        out.push_str(if quoted || argued { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether `after`, the text after a name, goes on with it: a character a tool's name is made
/// of (MCP: letters, digits, `_`, `-`, `.`), a `.` only when more of the name follows it, as a
/// sentence's end does not.
fn name_goes_on(after: &str) -> bool {
    let mut next = after.chars();
    match next.next() {
        Some(c) if c.is_alphanumeric() || matches!(c, '_' | '-') => true,
        Some('.') => next.next().is_some_and(char::is_alphanumeric),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_is_named_as_offered_where_the_server_named_it() {
        let refusal = Refusal::bad_arguments(
            "2 faults in the arguments of note_write; nothing ran (see `note_write`'s schema)",
        )
        .line("fault", ["title", "missing"]);
        let offered = as_offered(refusal.clone(), "note_write", "notes_note_write");
        assert_eq!(
            offered.message,
            "2 faults in the arguments of notes_note_write; nothing ran (see \
             `notes_note_write`'s schema)"
        );
        assert_eq!((offered.code, offered.lines), (refusal.code, refusal.lines));
        for (message, meant) in [
            (
                "the arguments of search are 9 bytes",
                "the arguments of github_search are 9 bytes",
            ),
            ("no tool \"search\" here", "no tool \"github_search\" here"),
            ("bad arguments of search", "bad arguments of github_search"),
            (
                "bad arguments of search.",
                "bad arguments of github_search.",
            ),
        ] {
            let offered = as_offered(Refusal::failed(message), "search", "github_search");
            assert_eq!(offered.message, meant);
        }
    }

    #[test]
    fn a_name_that_is_a_word_or_part_of_a_longer_name_is_left() {
        for message in [
            "search again later: the index is rebuilding",
            "`first_search` and `search_all` are others",
            "the arguments of searches; of search.",
            "the arguments of search.v2 and search-all",
        ] {
            let offered = as_offered(Refusal::failed(message), "search", "github_search");
            assert_eq!(offered.message, message);
        }
        // Without a prefix, nothing is written again.
        let refusal = Refusal::failed("the arguments of note_write; nothing ran");
        assert_eq!(
            as_offered(refusal, "note_write", "note_write").message,
            "the arguments of note_write; nothing ran"
        );
    }
}
