//! The `timeout` option of `#[tool]`: how long a call may run, written as a string with a unit
//! (`"5s"`); anything else is an error saying how to write it. A bare number is one too: `30`
//! read as milliseconds would time out every call of a user who meant seconds.

use std::time::Duration;

use syn::{Lit, Meta};

use super::syntax::literal;
use crate::error::{Result, at};

/// A timeout option: a string with a unit, and where it was written.
#[derive(Debug)]
pub struct Timeout(pub Duration, pub proc_macro2::Span);

const TIMEOUT_HELP: &str = "write the timeout with its unit: \"250ms\", \"5s\", \"2m\" or \"1h\"";

/// What a timeout of nothing is told: a call given no time could never run.
const ZERO: &str = "a timeout must be longer than zero: write one such as `timeout = \"5s\"`, or \
                    leave `timeout` out for the registry's default";

impl Timeout {
    /// Reads `timeout = ...`.
    pub fn from_meta(item: &Meta) -> Result<Self> {
        let value = match item {
            Meta::NameValue(name_value) => &name_value.value,
            _ => {
                return Err(at(
                    item,
                    format!("`timeout` takes a value, such as `timeout = \"5s\"`; {TIMEOUT_HELP}"),
                ));
            }
        };
        match literal(value) {
            Some(lit) => Self::from_value(lit),
            None => Err(at(
                value,
                format!("a timeout is written as a literal; {TIMEOUT_HELP}"),
            )),
        }
    }

    /// Reads a timeout's literal.
    fn from_value(value: &Lit) -> Result<Self> {
        let duration = match value {
            Lit::Int(int) => return Err(at(value, unit_missing(int.base10_digits()))),
            Lit::Str(text) => parse_duration(&text.value()),
            _ => None,
        };
        match duration {
            Some(duration) if !duration.is_zero() => Ok(Timeout(duration, value.span())),
            Some(_) => Err(at(value, ZERO)),
            None => Err(at(value, misreading(value))),
        }
    }
}

/// What to write instead of a timeout that cannot be read: the plain fix where the mistake is
/// a common one (a number in quotes without its unit, a fraction of a unit that is a whole
/// number of milliseconds), else every way to write it.
fn misreading(value: &Lit) -> String {
    let text = match value {
        Lit::Str(text) => text.value(),
        Lit::Float(float) => float.to_string(),
        _ => String::new(),
    };
    let text = text.trim();
    let whole = |digits: &str| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if whole(text) && matches!(value, Lit::Str(_)) {
        return unit_missing(text);
    }
    let number_end = (text.find(|c: char| !c.is_ascii_digit() && c != '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(number_end);
    let Some((left, right)) = number.split_once('.') else {
        return format!("unreadable timeout; {TIMEOUT_HELP}");
    };
    if !(whole(left) || left.is_empty()) || !whole(right) {
        return format!("unreadable timeout; {TIMEOUT_HELP}");
    }
    let millis_per: u128 = match unit.trim() {
        "" => {
            return match exact_millis(left, right, 1_000) {
                Some(millis) => format!(
                    "`{number}` has no unit: write the timeout as a whole number of one, \
                     `\"{millis}ms\"` for {number} seconds"
                ),
                None => format!("`{number}` has no unit; {TIMEOUT_HELP}, a whole number of it"),
            };
        }
        "ms" => {
            return format!(
                "a timeout is a whole number of milliseconds, or of the unit it is written \
                 with; {TIMEOUT_HELP}"
            );
        }
        "s" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        _ => return format!("unreadable timeout; {TIMEOUT_HELP}"),
    };
    match exact_millis(left, right, millis_per) {
        Some(millis) => format!("a timeout is a whole number of its unit: write `\"{millis}ms\"`"),
        None => format!(
            "a timeout is a whole number of its unit, and this is not a whole number of \
             milliseconds either; {TIMEOUT_HELP}"
        ),
    }
}

/// What to write for a whole number given without its unit (`30`, `"30"`): the number with
/// each unit that makes it a timeout a `u64` of milliseconds holds.
fn unit_missing(digits: &str) -> String {
    let said = |units: &str| format!("`{digits}` has no unit: write {units}");
    match digits.parse::<u64>() {
        Ok(0) => ZERO.to_owned(),
        Ok(number) if number.checked_mul(1_000).is_some() => said(&format!(
            "`\"{digits}s\"` for seconds or `\"{digits}ms\"` for milliseconds"
        )),
        Ok(_) => said(&format!("`\"{digits}ms\"`")),
        Err(_) => format!("unreadable timeout; {TIMEOUT_HELP}"),
    }
}

/// `left.right` of a unit of `millis_per` milliseconds, when that is a whole number of them
/// above zero that fits a `u64`.
fn exact_millis(left: &str, right: &str, millis_per: u128) -> Option<u64> {
    let scale = 10u128.checked_pow(u32::try_from(right.len()).ok()?)?;
    let left: u128 = if left.is_empty() {
        0
    } else {
        left.parse().ok()?
    };
    let right: u128 = right.parse().ok()?;
    let scaled = (left.checked_mul(scale)?.checked_add(right)?).checked_mul(millis_per)?;
    let millis = (scaled % scale == 0).then_some(scaled / scale)?;
    u64::try_from(millis).ok().filter(|millis| *millis > 0)
}

/// A duration written as a whole number and a unit (`250ms`, `5s`, `2m` or `2min`, `1h`), spaces
/// allowed around and between; `None` for anything else, a number without a unit and one whose
/// milliseconds overflow a `u64` included.
fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let millis = match unit.trim() {
        "ms" => number,
        "s" => number.checked_mul(1_000)?,
        "m" | "min" => number.checked_mul(60_000)?,
        "h" => number.checked_mul(3_600_000)?,
        _ => return None,
    };
    Some(Duration::from_millis(millis))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_duration_reads_a_whole_number_and_a_unit() {
        let cases: [(&str, Option<u64>); 20] = [
            ("250ms", Some(250)),
            ("5s", Some(5_000)),
            ("2m", Some(120_000)),
            ("2min", Some(120_000)),
            ("5h", Some(18_000_000)),
            ("0s", Some(0)),
            (" 5s ", Some(5_000)),
            ("5 s", Some(5_000)),
            ("18446744073709551615ms", Some(u64::MAX)),
            ("", None),
            ("   ", None),
            ("5", None),
            ("5000", None),
            ("s", None),
            ("-1s", None),
            ("+1s", None),
            ("1.5s", None),
            ("5S", None),
            ("5 parsecs", None),
            ("99999999999999999999s", None),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration(text),
                millis.map(Duration::from_millis),
                "{text:?}"
            );
        }
    }

    #[test]
    fn parse_duration_refuses_a_unit_that_overflows_the_milliseconds() {
        for text in ["18446744073709552s", "307445734561826m", "5124095576031h"] {
            assert_eq!(parse_duration(text), None, "{text:?}");
        }
        assert_eq!(
            parse_duration("5124095576030h"),
            Some(Duration::from_millis(5_124_095_576_030 * 3_600_000))
        );
    }

    #[test]
    fn timeout_is_a_string_with_a_unit() {
        let read = |lit: Lit| Timeout::from_value(&lit).map(|timeout| timeout.0);
        assert_eq!(
            read(syn::parse_quote!("5s")).ok(),
            Some(Duration::from_secs(5))
        );
        let refused = |lit: Lit| read(lit).unwrap_err().to_string();
        assert_eq!(refused(syn::parse_quote!(0)), ZERO);
        assert_eq!(refused(syn::parse_quote!("0ms")), ZERO);
        // A bare number, which a user meaning seconds would have read as milliseconds.
        assert_eq!(
            refused(syn::parse_quote!(30)),
            "`30` has no unit: write `\"30s\"` for seconds or `\"30ms\"` for milliseconds"
        );
        assert_eq!(
            refused(syn::parse_quote!(5000u64)),
            "`5000` has no unit: write `\"5000s\"` for seconds or `\"5000ms\"` for milliseconds"
        );
        for lit in [
            syn::parse_quote!(true),
            syn::parse_quote!(99999999999999999999),
            syn::parse_quote!("5 parsecs"),
            syn::parse_quote!("-1s"),
            syn::parse_quote!("1.5.2s"),
            syn::parse_quote!("."),
        ] {
            assert_eq!(refused(lit), format!("unreadable timeout; {TIMEOUT_HELP}"));
        }
    }

    #[test]
    fn a_number_in_quotes_without_its_unit_or_a_fraction_is_told_what_to_write() {
        let refused = |lit: Lit| Timeout::from_value(&lit).unwrap_err().to_string();
        assert_eq!(
            refused(syn::parse_quote!("5000")),
            "`5000` has no unit: write `\"5000s\"` for seconds or `\"5000ms\"` for milliseconds"
        );
        assert_eq!(refused(syn::parse_quote!("0")), ZERO);
        // Each suggestion reads as a timeout when written as said.
        assert_eq!(
            refused(syn::parse_quote!("18446744073709552")),
            "`18446744073709552` has no unit: write `\"18446744073709552ms\"`"
        );
        assert!(parse_duration("18446744073709552ms").is_some());
        assert_eq!(
            refused(syn::parse_quote!("99999999999999999999")),
            format!("unreadable timeout; {TIMEOUT_HELP}")
        );
        let fractions = [
            (syn::parse_quote!("1.5s"), "1500"),
            (syn::parse_quote!(" 0.25 s "), "250"),
            (syn::parse_quote!(".5m"), "30000"),
            (syn::parse_quote!("1.5h"), "5400000"),
            (syn::parse_quote!("0.001s"), "1"),
            (syn::parse_quote!("1.000s"), "1000"),
        ];
        for (lit, millis) in fractions {
            assert_eq!(
                refused(lit),
                format!("a timeout is a whole number of its unit: write `\"{millis}ms\"`")
            );
            assert!(parse_duration(&format!("{millis}ms")).is_some());
        }
        for lit in [
            syn::parse_quote!("0.0005s"),
            syn::parse_quote!("1.0004s"),
            syn::parse_quote!("0.000000000000000000000000000000000000000001s"),
            syn::parse_quote!("99999999999999999999.5h"),
        ] {
            assert_eq!(
                refused(lit),
                format!(
                    "a timeout is a whole number of its unit, and this is not a whole number of \
                     milliseconds either; {TIMEOUT_HELP}"
                )
            );
        }
        assert_eq!(
            refused(syn::parse_quote!("1.5ms")),
            format!(
                "a timeout is a whole number of milliseconds, or of the unit it is written with; \
                 {TIMEOUT_HELP}"
            )
        );
        // A fraction without a unit: the unit is what is missing.
        for (lit, number, millis) in [
            (syn::parse_quote!(1.5), "1.5", "1500"),
            (syn::parse_quote!("1.5"), "1.5", "1500"),
            (syn::parse_quote!(".5"), ".5", "500"),
        ] {
            assert_eq!(
                refused(lit),
                format!(
                    "`{number}` has no unit: write the timeout as a whole number of one, \
                     `\"{millis}ms\"` for {number} seconds"
                )
            );
        }
        assert_eq!(
            refused(syn::parse_quote!("0.0001")),
            format!("`0.0001` has no unit; {TIMEOUT_HELP}, a whole number of it")
        );
        for lit in [
            syn::parse_quote!("1.s"),
            syn::parse_quote!("1..5s"),
            syn::parse_quote!("-1.5s"),
            syn::parse_quote!("1 .5s"),
            syn::parse_quote!("1.5parsecs"),
        ] {
            assert_eq!(refused(lit), format!("unreadable timeout; {TIMEOUT_HELP}"));
        }
    }
}
