//! The standard `format`s the checker enforces, and how a fault names each. Each is checked by
//! a crate that implements its standard (chrono for RFC 3339 dates and times, url for URIs,
//! uuid, std's address parsers, regex for `regex`), except `email` and `hostname`: their checks
//! here are the structural ones JSON Schema validators make (no crate checks only the shape,
//! without also resolving names or rewriting them).
//!
//! A standard format not listed here (`idn-email`, `uri-template`, `duration`...) is one the
//! registry cannot enforce, so a tool advertising it is refused when the registry is built.
//! Other formats (`uint64`, `ip`, `partial-date-time`) name the Rust type behind a field, which
//! serde enforces; exports leave them out.

use std::net::{Ipv4Addr, Ipv6Addr};

/// The feature a standard format's check needs, for a format that needs one.
pub(crate) fn feature_for(format: &str) -> Option<&'static str> {
    match format {
        "date-time" | "date" | "time" | "uuid" | "uri" => Some("formats"),
        "regex" => Some("patterns"),
        _ => None,
    }
}

/// What a fault says was expected for a value of this standard format, if the checker checks
/// it (with the features it is built with).
pub(crate) fn expected(format: &str) -> Option<&'static str> {
    if let Some(feature) = feature_for(format)
        && !enabled(feature)
    {
        return None;
    }
    Some(match format {
        "date-time" => "a date-time (RFC 3339, such as 2026-01-31T09:30:00Z)",
        "date" => "a date (YYYY-MM-DD)",
        "time" => "a time (RFC 3339, such as 09:30:00Z)",
        "uuid" => "a UUID",
        "uri" => "a URI",
        "email" => "an email address",
        "hostname" => "a host name",
        "ipv4" => "an IPv4 address",
        "ipv6" => "an IPv6 address",
        "regex" => "a regular expression",
        _ => return None,
    })
}

/// Whether this crate is built with `feature` (one [`feature_for`] names).
fn enabled(feature: &str) -> bool {
    (feature == "formats" && cfg!(feature = "formats"))
        || (feature == "patterns" && cfg!(feature = "patterns"))
}

/// Whether `text` is of `format`; `true` for a format the checker does not check. A format
/// whose feature is off holds for nothing: a registry refuses to advertise it, and a value
/// checked against it any other way is refused.
pub(crate) fn holds(format: &str, text: &str) -> bool {
    match format {
        "date-time" | "date" | "time" | "uuid" | "uri" => holds_with_crate(format, text),
        "email" => is_email(text),
        "hostname" => is_hostname(text),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "regex" => super::patterns::is_regex(text),
        _ => true,
    }
}

/// The formats a crate checks, with the `formats` feature.
#[cfg(feature = "formats")]
fn holds_with_crate(format: &str, text: &str) -> bool {
    match format {
        // RFC 3339's `date-time` has a `T` between date and time; chrono also takes a space,
        // which the RFC leaves to applications that agree on it.
        "date-time" => {
            matches!(text.as_bytes().get(10), Some(b'T' | b't'))
                && chrono::DateTime::parse_from_rfc3339(text).is_ok()
        }
        "date" => text.len() == 10 && chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok(),
        "time" => chrono::DateTime::parse_from_rfc3339(&format!("1970-01-01T{text}")).is_ok(),
        // The hyphenated form RFC 9562 writes, which is what the format means; the crate reads
        // other forms too.
        "uuid" => text.len() == 36 && uuid::Uuid::try_parse(text).is_ok(),
        // RFC 3986's characters only: the crate reads a URL as a browser does, taking out
        // spaces, tabs and line breaks and reading other characters (an IRI's, a backslash)
        // that no URI holds.
        "uri" => is_uri_text(text) && url::Url::parse(text).is_ok(),
        _ => false,
    }
}

/// Whether `text` is made of what RFC 3986 lets a URI hold: its unreserved, reserved and
/// `%` characters, each `%` followed by two hex digits.
#[cfg(feature = "formats")]
fn is_uri_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().all(|(at, &b)| match b {
        b'%' => bytes
            .get(at + 1..at + 3)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)),
        b'-' | b'.' | b'_' | b'~' | b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@' | b'!'
        | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => true,
        b => b.is_ascii_alphanumeric(),
    })
}

/// Without the `formats` feature nothing checks these formats, so nothing holds.
#[cfg(not(feature = "formats"))]
fn holds_with_crate(_format: &str, _text: &str) -> bool {
    false
}

/// A local part and a host name around one `@`, with nothing blank in either.
fn is_email(text: &str) -> bool {
    match text.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && local.len() <= 64
                && !local.chars().any(|c| c.is_whitespace() || c.is_control())
                && domain.contains('.')
                && is_hostname(domain)
        }
        None => false,
    }
}

/// Labels of 1 to 63 letters, digits and inner hyphens, joined by dots, 253 bytes at most.
fn is_hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

#[cfg(all(test, feature = "formats", feature = "patterns"))]
mod tests {
    use super::holds;

    #[test]
    fn each_format_takes_its_own_and_refuses_the_rest() {
        let cases: [(&str, &str, &str); 10] = [
            ("date-time", "2026-01-31T09:30:00Z", "2026-13-01T09:30:00Z"),
            ("date", "2026-02-28", "2026-13-01"),
            ("time", "09:30:00+01:00", "25:00:00Z"),
            ("uuid", "67e55044-10b1-426f-9247-bb680e5fe0c8", "not-a-uuid"),
            ("uri", "https://example.com/a?b=c", "not a uri"),
            ("email", "ada@example.com", "ada at example"),
            ("hostname", "api.example.com", "-bad-.example"),
            ("ipv4", "192.0.2.1", "192.0.2.300"),
            ("ipv6", "2001:db8::1", "2001:db8:::1"),
            ("regex", "^[a-z]+$", "(unclosed"),
        ];
        for (format, good, bad) in cases {
            assert!(holds(format, good), "{format}: {good}");
            assert!(!holds(format, bad), "{format}: {bad}");
        }
        assert!(holds("uint64", "anything"), "formats not checked hold");
        // A regular expression is read, not compiled: one whose automaton would be past the
        // regex crate's size limit is still one; ECMA 262's `\d` is read as it means there.
        for regex in [r"\p{L}{100}", r"\p{L}{300}", r"^\d{3}-\w+$"] {
            assert!(holds("regex", regex), "{regex}");
        }
        assert!(
            !holds("regex", r"\p{Nonsense}"),
            "an unknown class is no regex"
        );
        for (format, bad) in [
            ("date-time", "2026-01-31 09:30:00Z"),
            ("uri", " https://example.com"),
            ("uri", "https://exa\tmple.com"),
            ("uri", "https://example.com/a b"),
            ("uri", "https://例え.jp"),
            ("uri", "https://example.com\\a"),
            ("uri", "https://a.com/{x}"),
            ("uri", "https://a.com/a|b"),
            ("uri", "https://a.com/%zz"),
            ("uri", "https://a.com/%2"),
        ] {
            assert!(!holds(format, bad), "{format}: {bad:?}");
        }
        assert!(holds("date-time", "2026-01-31t09:30:00z"));
        assert!(holds("uri", "https://a.com/%20x?q=[1]&r=(2)#f"));
    }
}
