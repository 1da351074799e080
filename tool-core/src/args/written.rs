//! The arguments written again after the checker changed them, each number as the caller wrote
//! it.
//!
//! The tree holds serde_json's numbers, which read an integer past what 64 bits hold as a
//! double, where serde, reading the text into a 128-bit integer, reads it exactly: written
//! from the tree, `18446744073709551621` would come back as `1.8446744073709552e19`, which no
//! 128-bit integer reads. So a double is written as its text was, found by its place among the
//! text's numbers (the tree keeps every number in the order sent; the checker takes out nulls
//! alone, and a union's check puts back a copy of the same value). serde_json has no way to
//! hand over a number's text (short of its `arbitrary_precision` feature, which would change
//! every number of every crate in a build, and with which the tree's numbers keep their text
//! themselves), hence the few lines here that find them.

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::cell::RefCell;

use super::json_text::{Step, Walk, in_number, number_end};
use super::tree::{self, Node};

/// `value`, read from `text` and changed by the checker, written again as JSON.
pub(super) fn text(value: &Node<'_>, text: &str) -> String {
    let numbers = RefCell::new(numbers(text).into_iter());
    let shown = serde_json::to_string(&AsWritten {
        node: value,
        numbers: &numbers,
    });
    // Should the text's numbers not be the tree's, one for one (or serde_json keep numbers'
    // text itself), the tree is written as it holds them.
    match shown {
        Ok(shown) if numbers.borrow_mut().next().is_none() && !tree::numbers_come_as_maps() => {
            shown
        }
        _ => serde_json::to_string(value).unwrap_or_default(),
    }
}

/// The numbers of `text`, valid JSON, in the order written.
fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let starts = Walk::new(text).filter_map(|step| match step {
        Step::Value(start) if bytes.get(start).is_some_and(in_number) => Some(start),
        _ => None,
    });
    // Every byte taken is ASCII, so `start..end` lies on character boundaries.
    starts
        .filter_map(|start| text.get(start..number_end(bytes, start)))
        .collect()
}

/// A node written with its doubles as written in the text, `numbers` the text's numbers not
/// yet met.
struct AsWritten<'n, I> {
    node: &'n Node<'n>,
    numbers: &'n RefCell<I>,
}

impl<'t, I: Iterator<Item = &'t str>> Serialize for AsWritten<'_, I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let inner = |node| AsWritten {
            node,
            numbers: self.numbers,
        };
        match self.node {
            Node::Number(number) => {
                let written = self.numbers.borrow_mut().next();
                let written =
                    written.ok_or_else(|| S::Error::custom("a number not in the text"))?;
                if !number.is_f64() {
                    return number.serialize(serializer);
                }
                let raw = RawValue::from_string(written.to_owned());
                raw.map_err(S::Error::custom)?.serialize(serializer)
            }
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&inner(item))?;
                }
                seq.end()
            }
            Node::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, item) in fields {
                    map.serialize_entry(key.as_ref(), &inner(item))?;
                }
                map.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_of_a_text_are_found_as_written_and_none_inside_strings() {
        let text = r#"{"a\"1": -1.5e3, "b": ["2", 3, {"c": 1E+2}], "d\\": 0, "e": true}"#;
        assert_eq!(numbers(text), ["-1.5e3", "3", "1E+2", "0"]);
    }

    #[test]
    fn a_tree_is_written_with_its_doubles_as_sent() {
        let sent = r#"{"big": 18446744073709551621, "small": 2.50, "e": 1E+20, "n": [3, null]}"#;
        let mut tree = Node::parse(sent).unwrap();
        assert_eq!(
            text(&tree, sent),
            r#"{"big":18446744073709551621,"small":2.50,"e":1E+20,"n":[3,null]}"#
        );
        // Numbers taken as integers are written as the tree holds them.
        if let Node::Object(fields) = &mut tree {
            fields[1].1 = Node::Number(2.into());
        }
        assert_eq!(
            text(&tree, sent),
            r#"{"big":18446744073709551621,"small":2,"e":1E+20,"n":[3,null]}"#
        );
        // Numbers the text does not hold one for one: the tree's own.
        if let Node::Object(fields) = &mut tree {
            fields.pop();
        }
        assert_eq!(
            text(&tree, sent),
            r#"{"big":1.8446744073709552e+19,"small":2,"e":1e+20}"#
        );
    }
}
