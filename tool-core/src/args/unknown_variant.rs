//! serde's refusal of an unknown variant, read for the names it lists: how the asking
//! (`keyed.rs`) learns a key an enum whose variants have docs takes, where schemars describes
//! a map keyed by it as a map of any key. Every derived `Deserialize` of an enum refuses an
//! unknown name with `Error::unknown_variant`, whose words list the expected names between
//! backticks; each name read here is only a name to try, sent and seen taken before it is
//! used.

/// The names serde's refusal of the unknown variant `key` says it expects (its
/// `Error::unknown_variant`, which a derived `Deserialize` of an enum calls), `error` being
/// that refusal: `None` where it is not one. A name with a backtick in it makes the list
/// ambiguous: then every piece between backticks that is not a separator is a name to try.
pub(super) fn variants(error: &str, key: &str) -> Option<Vec<String>> {
    let expected = error.strip_prefix(&format!("unknown variant `{key}`, expected "))?;
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    let pieces: Vec<&str> = expected.split('`').collect();
    let between = |piece: &&str| [", ", " or "].contains(piece);
    // As serde writes the list: each name between backticks, nothing before the first or
    // after the last, and `, ` or ` or ` between two.
    let last = pieces.len() - 1;
    let listed = pieces.len() >= 3
        && pieces.len() % 2 == 1
        && (pieces.iter().enumerate().step_by(2)).all(|(at, piece)| match at {
            0 => piece.is_empty(),
            _ if at == last => piece.is_empty(),
            _ => between(piece),
        });
    let names: Vec<String> = (pieces.iter().enumerate())
        .filter(|(at, piece)| match listed {
            true => at % 2 == 1,
            false => !piece.is_empty() && !between(piece),
        })
        .map(|(_, piece)| piece.to_string())
        .collect();
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::variants;

    #[test]
    fn serde_s_refusal_of_an_unknown_variant_names_the_variants() {
        let names = |error: &str| variants(error, "\u{1}");
        let owned = |names: &[&str]| Some(names.iter().map(|name| name.to_string()).collect());
        assert_eq!(
            names("unknown variant `\u{1}`, expected `Left`"),
            owned(&["Left"])
        );
        assert_eq!(
            names("unknown variant `\u{1}`, expected `Left` or `Right`"),
            owned(&["Left", "Right"])
        );
        assert_eq!(
            names("unknown variant `\u{1}`, expected one of `a b`, `c`, `d`"),
            owned(&["a b", "c", "d"])
        );
        // A name with a backtick in it: each piece is one to try.
        assert_eq!(
            names("unknown variant `\u{1}`, expected `a`b` or `Z`"),
            owned(&["a", "b", "Z"])
        );
        for other in [
            "unknown variant `\u{1}`, there are no variants",
            "unknown variant `x`, expected `Left`",
            "invalid type: string, expected a character",
        ] {
            assert_eq!(names(other), None, "{other}");
        }
    }
}
