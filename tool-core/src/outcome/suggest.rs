//! Near misses: which of the names a caller could have sent it most likely meant, for the
//! `did you mean` of a refusal. A name that differs only in case, or by a slip or two of the
//! keyboard (strsim's Levenshtein distance, small for the name's length), is suggested; a name
//! far from every candidate gets no suggestion rather than a wild guess.

use std::borrow::Cow;

/// Names longer than this are not compared: no tool or field has one, and comparing costs
/// the product of the two lengths.
const LONGEST_COMPARED: usize = 128;

/// The candidate `sent` most likely meant, if one is near enough.
pub(crate) fn nearest<'a>(
    sent: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if sent.is_empty() || sent.len() > LONGEST_COMPARED {
        return None;
    }
    let mut candidates = candidates
        .into_iter()
        .filter(|candidate| candidate.len() <= LONGEST_COMPARED)
        .peekable();
    candidates.peek()?;
    let sent = lowercase(sent);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = strsim::levenshtein(&sent, &lowercase(candidate));
        if distance <= allowed_slips(candidate) && best.is_none_or(|(least, _)| distance < least) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The tool `sent` most likely meant among `names`: a near miss ([`nearest`]); else the name
/// after a namespace a model wrote before it (`functions.note_read`, `default_api:note_read`,
/// `mcp__notes__note_read`), or a near miss of it; else the name of the same words in another
/// order (`fetch_note` for `note_fetch`, a fn named otherwise than its tool).
pub(crate) fn nearest_tool<'a>(sent: &str, names: &[&'a str]) -> Option<&'a str> {
    if let Some(meant) = nearest(sent, names.iter().copied()) {
        return Some(meant);
    }
    if sent.len() > LONGEST_COMPARED {
        return None;
    }
    let after_namespace = ([".", "/", ":", "__"].iter())
        .filter_map(|separator| sent.rsplit_once(separator).map(|(_, name)| name))
        .filter(|name| !name.is_empty())
        .min_by_key(|name| name.len());
    if let Some(name) = after_namespace
        && let Some(meant) = nearest(name, names.iter().copied())
    {
        return Some(meant);
    }
    let words = |name: &str| {
        let mut words: Vec<String> = (lowercase(name).split(['_', '-', '.']))
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect();
        words.sort_unstable();
        words
    };
    let sent_words = words(sent);
    (sent_words.len() > 1)
        .then(|| names.iter().copied().find(|name| words(name) == sent_words))
        .flatten()
}

/// `name` in lower case, copied only when it has a capital in it.
fn lowercase(name: &str) -> Cow<'_, str> {
    if name.chars().any(char::is_uppercase) {
        Cow::Owned(name.to_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

/// How many slips a name of this length may carry and still be recognised.
fn allowed_slips(name: &str) -> usize {
    match name.chars().count() {
        0..=4 => 1,
        5..=9 => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn near_names_are_suggested_and_far_ones_are_not() {
        let fields = ["body", "id", "color", "revision"];
        assert_eq!(nearest("bdy", fields), Some("body"));
        assert_eq!(nearest("ID", fields), Some("id"));
        assert_eq!(nearest("colour", fields), Some("color"));
        assert_eq!(nearest("revison", fields), Some("revision"));
        assert_eq!(nearest("weather", fields), None);
        assert_eq!(nearest("", fields), None);
        assert_eq!(nearest(&"x".repeat(500), fields), None);
    }

    #[test]
    fn a_tool_is_suggested_past_a_namespace_and_in_another_word_order() {
        use super::nearest_tool;
        let tools = ["note_read", "note_write", "note_fetch"];
        for (sent, meant) in [
            ("note_raed", Some("note_read")),
            ("functions.note_read", Some("note_read")),
            ("default_api:note_write", Some("note_write")),
            ("mcp__notes__note_fetch", Some("note_fetch")),
            ("tools/note_wirte", Some("note_write")),
            ("fetch_note", Some("note_fetch")),
            ("Fetch-Note", Some("note_fetch")),
            ("functions.weather", None),
            ("weather_note", None),
            ("note", None),
            ("functions.", None),
        ] {
            assert_eq!(nearest_tool(sent, &tools), meant, "{sent}");
        }
    }

    #[test]
    fn the_nearest_of_several_is_suggested() {
        assert_eq!(
            nearest("note_writ", ["note_read", "note_write"]),
            Some("note_write")
        );
    }
}
