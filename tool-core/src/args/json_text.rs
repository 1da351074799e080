//! JSON text read by hand, for what serde_json does not hand over (a number's text as written,
//! where a value sits): where a string ends, and which bytes make a number, in text already
//! known to be valid JSON. `written.rs` finds the numbers as sent with it, and `in_part.rs`
//! the path of one.

/// Whether `byte` may be part of a JSON number.
pub(super) fn in_number(byte: &u8) -> bool {
    matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The end of the number that starts at `start`: the index past its last byte.
pub(super) fn number_end(bytes: &[u8], start: usize) -> usize {
    let len = bytes.get(start..).map_or(0, |rest| rest.len());
    let taken = (bytes.get(start..)).and_then(|rest| rest.iter().position(|byte| !in_number(byte)));
    start + taken.unwrap_or(len)
}

/// The end of the string whose opening quote is at `open`: the index past its closing quote,
/// each escaped character passed over (or the text's end, for text cut short).
pub(super) fn string_end(bytes: &[u8], open: usize) -> usize {
    let mut at = open + 1;
    while let Some(&byte) = bytes.get(at) {
        at += if byte == b'\\' { 2 } else { 1 };
        if byte == b'"' {
            return at;
        }
    }
    bytes.len()
}
