//! A fault's number told as the caller sent it. The checker's tree holds serde_json's numbers,
//! which read an integer past what 64 bits hold, or one written with a fraction or an
//! exponent, as a double: from the tree alone, a fault would show `1.8446744073709552e+19` for
//! `18446744073709551616`, and could not tell whether a number just below the least `i64` was
//! written in digits. The numbers a fault says were received that are doubles are looked up
//! in the text as sent, all in one walk over it, whatever the number of faults.

use std::collections::HashSet;
use std::ops::Range;

use super::Fault;
use super::checker::{AGAIN_AT, AT};
use super::json_text::{SentDoubles, in_digits, number_end};
use super::numbers::{AT_I64_MIN, NUMBER_SHOWN, OUT_OF_RANGE, PAST_EXACT};
use crate::outcome::shorten::cut_after;

/// What a fault says before the value it received.
const RECEIVED: &str = ", received ";

/// Each fault of `faults` that says it received a double, that number as sent in `text` (the
/// arguments, valid JSON) at the fault's path, and what it adds for the least `i64` said for
/// the form it was sent in: in digits, out of range; else, maybe not the integer meant. For
/// faults the checker noted show a double: others have none.
#[cold]
pub(super) fn as_sent(faults: &mut [Fault], text: &str) {
    // Each fault that shows a double, where in its problem, and the path of the value shown.
    let shown: Vec<(usize, Range<usize>, Option<String>)> = (faults.iter().enumerate())
        .filter_map(|(index, fault)| {
            let range = shown_double(&fault.problem)?;
            let item = repeat(fault);
            Some((index, range, item))
        })
        .collect();
    if shown.is_empty() {
        return;
    }
    let wanted: HashSet<&str> = (shown.iter())
        .filter_map(|(index, _, item)| match item {
            Some(item) => Some(item.as_str()),
            None => faults.get(*index).map(|fault| fault.path.as_str()),
        })
        .collect();
    // A path's length is compared before it is hashed: deep arguments have long paths.
    let lengths: HashSet<usize> = wanted.iter().map(|path| path.len()).collect();
    let mut sent = SentDoubles::read(text, |path| {
        lengths.contains(&path.len()) && wanted.contains(path)
    });
    // Its paths are borrowed from the faults, which are written below.
    drop(wanted);
    for (index, shown, item) in shown {
        let Some(fault) = faults.get_mut(index) else {
            continue;
        };
        let value = fault.problem.get(shown.clone()).map(str::parse::<f64>);
        let Some(Ok(value)) = value else { continue };
        let number = match &item {
            Some(item) => sent.get(item, value),
            None => sent.take(&fault.path, value),
        };
        let Some(number) = number else { continue };
        let rest = fault.problem.get(shown.end..).unwrap_or_default();
        let rest = match rest.strip_prefix(AT_I64_MIN) {
            Some(after) if in_digits(number) => format!("{OUT_OF_RANGE}{after}"),
            Some(after) => format!("{PAST_EXACT}{after}"),
            None => rest.to_owned(),
        };
        let before = fault.problem.get(..shown.start).unwrap_or_default();
        fault.problem = format!("{before}{}{rest}", cut_after(number, NUMBER_SHOWN));
    }
}

/// The path of the item a `uniqueItems` fault shows, the first of the two it names at the
/// list's path; `None` for any other fault, which shows the value at its own path.
fn repeat(fault: &Fault) -> Option<String> {
    // The last such words: the item received may be text that says them itself.
    let (before, _) = fault.problem.rsplit_once(AGAIN_AT)?;
    let (_, index) = before.rsplit_once(AT)?;
    let index = index.strip_suffix(']')?;
    let digits = !index.is_empty() && index.bytes().all(|byte| byte.is_ascii_digit());
    digits.then(|| format!("{}[{index}]", fault.path))
}

/// Where in `problem` the value it says it received is, when that is a number written as a
/// double (`1e+20`, `300.0`): serde_json writes an integer it holds as one in digits alone.
fn shown_double(problem: &str) -> Option<Range<usize>> {
    // The first: what was received may be text that says `, received ` itself.
    let start = problem.find(RECEIVED)? + RECEIVED.len();
    let bytes = problem.as_bytes();
    let end = number_end(bytes, start);
    let shown = problem.get(start..end)?;
    (shown.len() > 1 && !in_digits(shown)).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::fault;

    #[test]
    fn a_double_a_fault_shows_is_written_as_sent_at_its_path_each_copy_once() {
        let text = r#"{"m": {"k": -9.223372036854775808e18, "k": -9223372036854775809},
            "n": 18446744073709551616, "v": [1e20, 300, 3e2], "s": "1e20"}"#;
        let mut faults = vec![
            fault(
                "m.k",
                &format!("expected i64, received -9.223372036854776e+18{AT_I64_MIN}"),
            ),
            fault(
                "m.k",
                &format!("expected i64, received -9.223372036854776e+18{AT_I64_MIN}"),
            ),
            fault(
                "n",
                "expected u64, received 1.8446744073709552e+19, which is out of range",
            ),
            fault("v[0]", "expected u8 or u64, received 1e+20"),
            fault("v[1]", "expected u8, received 300, which is out of range"),
            fault(
                "v[2]",
                "expected 0 to 100, received 300.0 (the schema's `then` asks)",
            ),
            fault("s", "expected u64, received \"1e20\""),
            fault("q", "expected u64, received 1e+20"),
            fault(
                "v",
                "expected unique items, received 300.0 at [2] and again at [5]",
            ),
            fault(
                "v",
                "expected unique items, received 300.0 at [2] and again at [5] (the schema's \
                 `then` asks for it, as the value fits its `if`)",
            ),
        ];
        as_sent(&mut faults, text);
        let problems: Vec<&str> = faults.iter().map(|fault| fault.problem.as_str()).collect();
        assert_eq!(
            problems,
            [
                format!("expected i64, received -9.223372036854775808e18{PAST_EXACT}").as_str(),
                "expected i64, received -9223372036854775809, which is out of range",
                "expected u64, received 18446744073709551616, which is out of range",
                "expected u8 or u64, received 1e20",
                "expected u8, received 300, which is out of range",
                "expected 0 to 100, received 3e2 (the schema's `then` asks)",
                "expected u64, received \"1e20\"",
                "expected u64, received 1e+20",
                "expected unique items, received 3e2 at [2] and again at [5]",
                "expected unique items, received 3e2 at [2] and again at [5] (the schema's \
                 `then` asks for it, as the value fits its `if`)",
            ]
        );
    }
}
