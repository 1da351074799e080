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
    fn the_nearest_of_several_is_suggested() {
        assert_eq!(
            nearest("note_writ", ["note_read", "note_write"]),
            Some("note_write")
        );
    }
}
