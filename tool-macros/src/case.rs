//! Names and types as text: how a name changes case (a tool fn's name into its struct's, a
//! toolkit type's name into the toolkit's, a name that is not lower snake case into the one an
//! error suggests instead), an identifier without its `r#`, a type as the user writes it.

use syn::{Ident, Type};

/// The name of the struct `#[tool]` makes of a fn, from the fn's name: each `_`-separated
/// word's first letter upper-cased and the rest kept as written (`note_write` → `NoteWrite`,
/// `get_URL` → `GetURL`).
///
/// Not the usual upper camel case of case-conversion crates, which lower-cases the rest of each
/// word (`get_URL` → `GetUrl`, `HTTPGet` → `HttpGet`): a fn given its tool name with `name =
/// "..."` may have capitals, and the struct is the user's to name in code, so it keeps the name
/// it has always had.
pub fn pascal_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect()
}

/// A toolkit's default name, from its type's name: each capital lower-cased and, but for the
/// first letter, preceded by `_` (`NoteStore` → `note_store`, `HTTPNotes` → `h_t_t_p_notes`).
/// Other characters are kept, so `Notes_` gives `notes_`, which the name check refuses.
///
/// Not `suggested_name`'s words, which read a run of capitals as one word and drop underscores
/// at the ends (`HTTPNotes` → `http_notes`, `Notes_` → `notes`): the toolkit's name is
/// advertised, so that would rename toolkits, and accept type names that are refused today.
pub fn snake_case(camel: &str) -> String {
    let mut out = String::new();
    for (position, c) in camel.chars().enumerate() {
        if c.is_uppercase() {
            if position > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The lower snake case name an error suggests for `name`, which is not: its words
/// ([`ascii_words`]) joined by single `_` (`NoteWrite` → `note_write`, `HTTPNotes` →
/// `http_notes`), starting with a letter; `note_write` if nothing is left.
pub fn suggested_name(name: &str) -> String {
    let joined = ascii_words(name).join("_");
    let suggested = joined.trim_start_matches(|c: char| c.is_ascii_digit() || c == '_');
    if suggested.is_empty() {
        "note_write".to_owned()
    } else {
        suggested.to_owned()
    }
}

/// The words of `name`, lower-cased, as case-conversion crates read them: anything but an
/// ASCII letter or digit separates words, and within one a capital starts a word when the last
/// letter before it is lower case (`X11Notes2X` → `x11`, `notes2`, `x`) or when it ends a run of
/// capitals and a lower-case letter follows it (`HTTPNotes` → `http`, `notes`).
///
/// Written here rather than taken from heck because it is all of heck these macros would use,
/// and heck would be a crate more in every user's build than in rmcp's. tool-core names a
/// question after its type by the same rule (`run/ask.rs`); a proc-macro crate shares no code
/// with the crate that uses it, so each has its copy.
fn ascii_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    // The case of the word's last letter (upper), once it has one.
    let mut last_letter: Option<bool> = None;
    for (position, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            last_letter = None;
            continue;
        }
        let lower_follows = chars
            .get(position + 1)
            .is_some_and(char::is_ascii_lowercase);
        if c.is_ascii_uppercase() && last_letter.is_some_and(|upper| !upper || lower_follows) {
            words.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphabetic() {
            last_letter = Some(c.is_ascii_uppercase());
        }
        word.push(c.to_ascii_lowercase());
    }
    words.extend((!word.is_empty()).then_some(word));
    words
}

/// Whether `name` is lower snake case: ASCII lower-case letters, digits and single `_`, starting
/// with a letter and not ending with `_`.
pub fn is_lower_snake_case(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes.last() != Some(&b'_')
        && !name.contains("__")
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
}

/// An identifier without its `r#`.
pub fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

/// A type as the user would write it: `Store<u8>`, not `Store < u8 >`.
pub fn type_text(ty: &Type) -> String {
    let mut text = quote::quote!(#ty).to_string();
    for (spaced, tight) in [
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ::", "::"),
        (":: ", "::"),
        (" ,", ","),
        ("& ", "&"),
    ] {
        text = text.replace(spaced, tight);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name, then what each conversion makes of it: the struct of a fn so named, the default
    /// name of a toolkit whose type is so named, and the name an error suggests instead.
    const CASES: [(&str, &str, &str, &str); 11] = [
        ("note_write", "NoteWrite", "note_write", "note_write"),
        ("v2_search", "V2Search", "v2_search", "v2_search"),
        ("note_2x", "Note2x", "note_2x", "note_2x"),
        ("r2d2_c3po", "R2d2C3po", "r2d2_c3po", "r2d2_c3po"),
        ("NoteStore", "NoteStore", "note_store", "note_store"),
        ("X11Notes2X", "X11Notes2X", "x11_notes2_x", "x11_notes2_x"),
        ("noteWrite", "NoteWrite", "note_write", "note_write"),
        ("get_URL", "GetURL", "get__u_r_l", "get_url"),
        ("HTTPNotes", "HTTPNotes", "h_t_t_p_notes", "http_notes"),
        (
            "NOTE_WRITE",
            "NOTEWRITE",
            "n_o_t_e__w_r_i_t_e",
            "note_write",
        ),
        ("Notes_", "Notes", "notes_", "notes"),
    ];

    #[test]
    fn each_conversion_of_a_name() {
        for (name, pascal, snake, suggested) in CASES {
            assert_eq!(pascal_case(name), pascal, "pascal_case({name:?})");
            assert_eq!(snake_case(name), snake, "snake_case({name:?})");
            assert_eq!(suggested_name(name), suggested, "suggested_name({name:?})");
        }
    }

    #[test]
    fn suggested_name_keeps_to_ascii_and_starts_with_a_letter() {
        let cases = [
            ("note__write-", "note_write"),
            ("2notes", "notes"),
            ("2_notes", "notes"),
            ("ñote", "ote"),
            ("_9", "note_write"),
            ("", "note_write"),
        ];
        for (name, suggested) in cases {
            assert_eq!(suggested_name(name), suggested, "{name:?}");
        }
    }

    #[test]
    fn lower_snake_case_is_ascii_letters_digits_and_single_underscores() {
        for name in ["a", "note_write", "v2_search", "note_2x", "x11"] {
            assert!(is_lower_snake_case(name), "{name:?}");
        }
        let refused = [
            "",
            "_note",
            "note_",
            "note__write",
            "2notes",
            "Note",
            "note-write",
            "ñote",
        ];
        for name in refused {
            assert!(!is_lower_snake_case(name), "{name:?}");
        }
    }

    #[test]
    fn every_suggested_name_is_lower_snake_case() {
        let others = ["note__write-", "2_notes", "ñote", "straße", "Ñ", ""];
        for name in CASES.iter().map(|case| case.0).chain(others) {
            let suggested = suggested_name(name);
            assert!(is_lower_snake_case(&suggested), "{name:?} → {suggested:?}");
        }
    }
}
