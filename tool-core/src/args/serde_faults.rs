//! Every fault only serde finds in a call, not the first alone. serde stops at its first
//! fault; where the checker finds none (a custom `Deserialize`, a `try_from`, a key type's
//! own rule: what a schema cannot say), each is found by reading the arguments again with the
//! field or map entry that holds the last one taken out, so that serde goes on past it. A
//! model sending three notes that a rule refuses is told of the three, not of one a call.
//!
//! The field is cut out of the text as sent, found by a walk over its bytes that notes each
//! key's path as a fault writes it: serde_json hands over no place in a text, and read into a
//! tree and written again, an integer past 64 bits would come back a double. One walk a
//! fault keeps a search over the largest arguments linear in their size, however deep.

use std::ops::Range;

use super::json_text::{Step, Walk};
use super::path::within;
use super::{Fault, Read, fault_of};

/// The most faults serde is asked for in one call.
const MAX_SERDE_FAULTS: usize = 16;

/// The most reads of the whole arguments the search makes, faults not told among them.
const MAX_READS: usize = 2 * MAX_SERDE_FAULTS;

/// The most bytes of arguments the search reads, all its reads together (each twice: read,
/// then read again traced for the fault's path): small arguments get every fault, the largest
/// (1 MiB) a few, so that bad arguments cost a few times what one fault did.
const MAX_SEARCH_BYTES: usize = 8 << 20;

/// Every fault serde finds in `text`, where the checker found none, `error` (serde's refusal
/// of `text` read by `read`) the first: each next read without the field that holds the last
/// fault (for an item of a list, the field that holds the list), until a read passes, a fault
/// is at no field (the arguments as a whole), comes again, [`MAX_SERDE_FAULTS`] are told, or
/// the reads pass [`MAX_SEARCH_BYTES`].
/// A fault at or around an object a field was taken out of may be the taking out's own (a
/// field serde misses, an enum's object left with no variant): it is not told, and its own
/// field is taken out in turn.
pub(super) fn serde_faults(
    text: &str,
    error: serde_json::Error,
    read: &mut Read<'_>,
) -> Vec<Fault> {
    let first = fault_of(text, error, read);
    let mut last = first.path.clone();
    let mut faults = vec![first];
    let mut text = text.to_owned();
    // The objects a field was taken out of.
    let mut taken_from = Vec::new();
    let mut searched = 0;
    for _ in 0..MAX_READS {
        searched += 2 * text.len();
        if faults.len() >= MAX_SERDE_FAULTS || searched > MAX_SEARCH_BYTES {
            break;
        }
        let Some((next, object)) = without(&text, &last) else {
            break;
        };
        taken_from.push(object);
        let Err(error) = read(&next, None) else {
            break;
        };
        let fault = fault_of(&next, error, read);
        if fault.path == last || faults.iter().any(|found| found.path == fault.path) {
            break;
        }
        text = next;
        last = fault.path.clone();
        if !(taken_from.iter()).any(|object| within(object, &fault.path)) {
            faults.push(fault);
        }
    }
    faults
}

/// `text` without every field at `at` (a key sent twice is two), or, for an item of a list,
/// the field holding the list; and the path of the object it was in. `None` where no field
/// holds `at` (the arguments as a whole) or none is in `text`.
fn without(text: &str, at: &str) -> Option<(String, String)> {
    let field = holding_field(at)?;
    let (spans, object) = field_spans(text, field);
    let object = object?;
    let mut cut = text.to_owned();
    for span in spans.into_iter().rev() {
        cut.replace_range(span, "");
    }
    Some((cut, object))
}

/// The path of the innermost field that holds `at`: `at` itself, or for an item (`list[2]`,
/// `grid[0][1]`), the list's field. `None` for the arguments as a whole, or an item of them.
fn holding_field(at: &str) -> Option<&str> {
    let mut field = at;
    // An index is digits between brackets; a quoted key's brackets hold a JSON string.
    while let Some(open) = field.strip_suffix(']').and_then(|rest| rest.rfind('[')) {
        let inside = &field[open + 1..field.len() - 1];
        if inside.is_empty() || !inside.bytes().all(|byte| byte.is_ascii_digit()) {
            break;
        }
        field = &field[..open];
    }
    (!field.is_empty()).then_some(field)
}

/// Where each field at `at` sits in `text`, valid JSON, as the bytes to cut to take it out
/// with one comma beside it; and the path of its object, if one was found.
fn field_spans(text: &str, at: &str) -> (Vec<Range<usize>>, Option<String>) {
    let bytes = text.as_bytes();
    let mut walk = Walk::new(text);
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut object = None;
    while let Some(step) = walk.next() {
        let Step::EntryEnd { entry, at: end } = step else {
            continue;
        };
        if !walk.in_object() || walk.path() != at {
            continue;
        }
        object = Some(walk.outer().to_owned());
        // Cut from the entry's comma, or, for the first, up to and with the comma after it; a
        // field right after a first one cut (a key sent twice) is first in turn.
        let cut_before = spans.last().map(|last| last.end).filter(|&end| end > entry);
        let first = bytes.get(entry.wrapping_sub(1)) == Some(&b'{') || cut_before.is_some();
        let start = cut_before.unwrap_or(entry);
        spans.push(match (first, bytes.get(end)) {
            (true, Some(b',')) => start..end + 1,
            _ => start..end,
        });
    }
    (spans, object)
}

#[cfg(test)]
mod tests {
    use super::{holding_field, without};

    #[test]
    fn a_field_or_entry_is_cut_from_the_text_as_written_and_nothing_else() {
        let text = r#"{"a": {"x": 1, "y": [1, {"z": 18446744073709551617}]}, "b": 2.50}"#;
        let (cut, object) = without(text, "a.y[1].z").unwrap();
        assert_eq!(cut, r#"{"a": {"x": 1, "y": [1, {}]}, "b": 2.50}"#);
        assert_eq!(object, "a.y[1]");
        let (cut, object) = without(text, "a").unwrap();
        assert_eq!((cut.as_str(), object.as_str()), (r#"{ "b": 2.50}"#, ""));
        let (cut, _) = without(text, "b").unwrap();
        assert_eq!(
            cut,
            r#"{"a": {"x": 1, "y": [1, {"z": 18446744073709551617}]}}"#
        );
        // An item: the field that holds its list.
        let (cut, object) = without(text, "a.y[0]").unwrap();
        assert_eq!(
            (cut.as_str(), object.as_str()),
            (r#"{"a": {"x": 1}, "b": 2.50}"#, "a")
        );
        // Quoted and escaped keys, as a path writes them; a key sent twice, both.
        let (cut, object) =
            without(r#"{"m": {"a.b": 1, "c": 2, "\u0041": 3}}"#, r#"m["a.b"]"#).unwrap();
        assert_eq!(
            (cut.as_str(), object.as_str()),
            (r#"{"m": { "c": 2, "\u0041": 3}}"#, "m")
        );
        let (cut, _) = without(r#"{"m": {"a.b": 1, "c": 2, "\u0041": 3}}"#, "m.A").unwrap();
        assert_eq!(cut, r#"{"m": {"a.b": 1, "c": 2}}"#);
        let (cut, _) = without(r#"{"k": 1, "j": "}", "k": [2]}"#, "k").unwrap();
        assert_eq!(cut, r#"{ "j": "}"}"#);
        // A key sent twice, one copy right after the other.
        let (cut, _) = without(r#"{"k": 1, "k": 2, "j": 3}"#, "k").unwrap();
        assert_eq!(cut, r#"{ "j": 3}"#);
        let (cut, _) = without(r#"{"k": 1, "k": 2}"#, "k").unwrap();
        assert_eq!(cut, "{}");
        // Items of lists of lists, text that looks like JSON, space before a closing brace.
        let text = r#"{"g": [[{"k": 1}], [{"j": "[,{", "k": 2 }, {"k": 3}]], "z": 0}"#;
        let (cut, object) = without(text, "g[1][0].k").unwrap();
        assert_eq!(
            cut,
            r#"{"g": [[{"k": 1}], [{"j": "[,{"}, {"k": 3}]], "z": 0}"#
        );
        assert_eq!(object, "g[1][0]");
        // The arguments as a whole, an item of no field, a place not in the text.
        for at in ["", "[0]", "a.q", "b.c", "a.x.y"] {
            assert_eq!(without(text, at), None, "{at}");
        }
    }

    #[test]
    fn an_item_is_held_by_its_list_s_field() {
        assert_eq!(holding_field("list[2]"), Some("list"));
        assert_eq!(holding_field("grid[0][1]"), Some("grid"));
        assert_eq!(holding_field(r#"m["[1]"]"#), Some(r#"m["[1]"]"#));
        assert_eq!(holding_field("a[0].b"), Some("a[0].b"));
        assert_eq!(holding_field("[3]"), None);
        assert_eq!(holding_field(""), None);
    }
}
