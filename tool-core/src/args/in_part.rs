//! A number serde read in part. serde_json reads a 128-bit integer from its digits alone, so
//! `1e20` or `4503599627370496.5` read into a `u128` stops at the `e` or the `.`, and the
//! read fails after the number, in the object or array that holds it: "expected `,` or `}`",
//! with no path. The checker takes such a number for the integer it is below 2^52, where a
//! double holds it exactly; past it, the double the checker sees may be another integer than
//! the one written, and only the text tells how it was written, so the fault is found here:
//! at the number serde's error points to, the path of the last value the traced read took
//! whole.

use serde_json::error::Category;

use super::numbers::{FRACTION_LOST, PAST_EXACT};

/// The problem with a number written with a fraction or an exponent that serde read in part,
/// when that is what `error`, met reading `text` (valid JSON), is.
pub(super) fn problem(text: &str, error: &serde_json::Error) -> Option<String> {
    if error.classify() != Category::Syntax {
        return None;
    }
    // serde_json counts lines from 1 and columns from 1, in bytes.
    let line_start: usize = (text
        .split_inclusive('\n')
        .take(error.line().checked_sub(1)?))
    .map(str::len)
    .sum();
    let at = line_start + error.column().checked_sub(1)?;
    let in_number = |byte: &u8| matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    let bytes = text.as_bytes();
    let start = (bytes.get(..=at)?.iter().rposition(|byte| !in_number(byte)))? + 1;
    let end = (bytes.get(start..)?.iter().position(|byte| !in_number(byte)))
        .map_or(bytes.len(), |len| start + len);
    // Every byte taken is ASCII, so `start..end` lies on character boundaries.
    let number = text.get(start..end)?;
    if !number.contains(['.', 'e', 'E']) {
        return None;
    }
    let n = number.parse::<f64>().ok()?;
    // The checker refuses a number with a fraction where the schema says `integer`, and takes
    // one below 2^52 for the integer it is; a schema that says less leaves them to here.
    let why = match n.fract() == 0.0 {
        true if n.abs() >= FRACTION_LOST => PAST_EXACT,
        true => ", which a 128-bit integer reads in digits alone: write it so",
        false => ", which is not a whole number",
    };
    Some(format!("expected an integer, received {number}{why}"))
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
        let digits = ", which a 128-bit integer reads in digits alone: write it so";
        for (text, problem_is) in [
            (r#"{"big": [1e20]}"#, Some(received("1e20", PAST_EXACT))),
            (
                "{\"big\": [\n  1,\n  -2.5E+30 ]}",
                Some(received("-2.5E+30", PAST_EXACT)),
            ),
            (
                r#"{"big": [4503599627370496.5, 1]}"#,
                Some(received("4503599627370496.5", PAST_EXACT)),
            ),
            // Where a schema says `number`, not `integer`, the checker lets these by.
            (
                r#"{"big": [1.5]}"#,
                Some(received("1.5", ", which is not a whole number")),
            ),
            (r#"{"big": [1E3]}"#, Some(received("1E3", digits))),
            (r#"{"big": [1], "x": 1}"#, None),
            (r#"{"big": [1] "x"}"#, None),
        ] {
            assert_eq!(problem(text, &error(text)), problem_is, "{text}");
        }
    }
}
