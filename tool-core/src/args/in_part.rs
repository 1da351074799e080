//! A number serde read in part. serde_json reads a 128-bit integer from its digits alone, so
//! `1e20` or `4503599627370496.5` read into a `u128` stops at the `e` or the `.`, and the
//! read fails after the number, in the object or array that holds it: "expected `,` or `}`",
//! with no path. The checker takes such a number for the integer it is below 2^52, where a
//! double holds it exactly; past it, the double the checker sees may be another integer than
//! the one written, and only the text tells how it was written, so the fault is found here:
//! the number is the one serde's error points to, and its path is read off the text before it
//! (the traced read's path would stop at an enum, whose variant it does not follow, and at an
//! array's next item, whose read is what fails). And a number serde_json reads not at all, too
//! large for a double, found the same way.

use serde_json::error::Category;

use super::Fault;
use super::json_text::{Step, Walk, error_at, in_digits, in_number, number_end};
use super::numbers::{BEYOND_DOUBLE, FRACTION_LOST, NUMBER_SHOWN, PAST_EXACT};
use crate::outcome::shorten::cut_after;

/// The fault a number written with a fraction or an exponent that serde read in part is, when
/// that is what `error`, met reading `text` (valid JSON), is.
pub(super) fn fault(text: &str, error: &serde_json::Error) -> Option<Fault> {
    let (start, number) = number_at(text, error)?;
    if in_digits(number) {
        return None;
    }
    let n = number.parse::<f64>().ok()?;
    // The checker refuses a number with a fraction where the schema says `integer`, and takes
    // one below 2^52 for the integer it is; a schema that says less leaves them to here.
    let why = match n.fract() == 0.0 {
        true if n.abs() >= FRACTION_LOST => PAST_EXACT.to_owned(),
        // Below 2^52 the double is the whole number written.
        true => format!(
            ", which a 128-bit integer reads in digits alone: write {}",
            n as i64
        ),
        false => ", which is not a whole number".to_owned(),
    };
    let path = path_to(text, start)?;
    let number = cut_after(number, NUMBER_SHOWN);
    let problem = format!("expected an integer, received {number}{why}");
    Some(Fault { path, problem })
}

/// The fault a number too large for a double is (`1e400`, 400 digits), when that is what
/// `error`, met reading `text` (JSON but for that number), is: serde_json reads no such number,
/// and says "number out of range" with a line and column, which a model reads as JSON it
/// wrote wrong, where it is a number out of every range a tool takes.
pub(super) fn beyond_double(text: &str, error: &serde_json::Error) -> Option<Fault> {
    if !error.to_string().starts_with(BEYOND_DOUBLE) {
        return None;
    }
    let (start, number) = number_at(text, error)?;
    let path = path_to(text, start)?;
    let number = cut_after(number, NUMBER_SHOWN);
    let problem = format!(
        "received {number}, which is out of range: no field takes a number past what a 64-bit \
         float holds (about ±1.8e308)"
    );
    Some(Fault { path, problem })
}

/// Where the number `error` (a syntax error met reading `text`) points to starts, and its text.
fn number_at<'t>(text: &'t str, error: &serde_json::Error) -> Option<(usize, &'t str)> {
    if error.classify() != Category::Syntax {
        return None;
    }
    let at = error_at(text, error)?;
    let bytes = text.as_bytes();
    let start = (bytes.get(..=at)?.iter().rposition(|byte| !in_number(byte))).map_or(0, |i| i + 1);
    // Every byte taken is ASCII, so the number lies on character boundaries.
    let number = text.get(start..number_end(bytes, start))?;
    (!number.is_empty()).then_some((start, number))
}

/// Where in `text`, valid JSON, the value that starts at byte `at` sits.
fn path_to(text: &str, at: usize) -> Option<String> {
    let mut walk = Walk::new(text);
    while let Some(step) = walk.next() {
        if step == Step::Value(at) {
            return Some(walk.path().to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> serde_json::Error {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Big {
            big: Vec<u128>,
        }
        serde_json::from_str::<Big>(text).unwrap_err()
    }

    #[test]
    fn the_number_read_in_part_is_found_where_serde_stopped() {
        let received =
            |number: &str, why: &str| format!("expected an integer, received {number}{why}");
        let digits = ", which a 128-bit integer reads in digits alone: write 1000";
        let long = format!(r#"{{"big": [4503599627370496.{}1]}}"#, "0".repeat(100));
        let cut = format!("4503599627370496.{}…", "0".repeat(23));
        for (text, found) in [
            (
                r#"{"big": [1e20]}"#,
                Some(("big[0]", received("1e20", PAST_EXACT))),
            ),
            (
                "{\"big\": [\n  1,\n  -2.5E+30 ]}",
                Some(("big[1]", received("-2.5E+30", PAST_EXACT))),
            ),
            (
                r#"{"big": [4503599627370496.5, 1]}"#,
                Some(("big[0]", received("4503599627370496.5", PAST_EXACT))),
            ),
            (&long, Some(("big[0]", received(&cut, PAST_EXACT)))),
            // Where a schema says `number`, not `integer`, the checker lets these by.
            (
                r#"{"big": [1.5]}"#,
                Some(("big[0]", received("1.5", ", which is not a whole number"))),
            ),
            (
                r#"{"big": [1E3]}"#,
                Some(("big[0]", received("1E3", digits))),
            ),
            (r#"{"big": [1], "x": 1}"#, None),
            (r#"{"big": [1] "x"}"#, None),
        ] {
            let found = found.map(|(path, problem)| Fault {
                path: path.to_owned(),
                problem,
            });
            assert_eq!(fault(text, &error(text)), found, "{text}");
        }
    }

    #[test]
    fn a_number_past_a_double_is_found_at_its_path() {
        let told = |text: &str| {
            let error = crate::args::tree::Node::parse(text).unwrap_err();
            beyond_double(text, &error).map(|fault| (fault.path, fault.problem))
        };
        let why = ", which is out of range: no field takes a number past what a 64-bit float \
                   holds (about ±1.8e308)";
        assert_eq!(
            told(r#"{"a": {"b": [1, 1e400]}}"#),
            Some(("a.b[1]".to_owned(), format!("received 1e400{why}")))
        );
        let digits = format!("-{}", "9".repeat(400));
        let text = format!("{{\n  \"n\": 1,\n  \"m\": {digits}\n}}");
        let shown = format!("-{}…", "9".repeat(39));
        assert_eq!(
            told(&text),
            Some(("m".to_owned(), format!("received {shown}{why}")))
        );
        // Other refusals are not this one.
        assert_eq!(told(r#"{"a": 1,}"#), None);
    }

    #[test]
    fn a_value_s_path_is_read_off_the_text_before_it() {
        let text = r#"{"a,]": "x:{", "b": [{"c\"": [1, [2, 3], 9]}], "d e": 4}"#;
        for (value, path) in [
            ("9", r#"b[0]["c\""][2]"#),
            ("3", r#"b[0]["c\""][1][1]"#),
            ("4", r#"["d e"]"#),
        ] {
            let at = text.rfind(value).unwrap_or_default();
            assert_eq!(path_to(text, at), Some(path.to_owned()), "{value}");
        }
    }
}
