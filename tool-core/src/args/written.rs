//! The arguments written again after the checker or the leniency changed them, each number as
//! the caller wrote it.
//!
//! The tree holds serde_json's numbers, which read an integer past what 64 bits hold as a
//! double, where serde, reading the text into a 128-bit integer, reads it exactly: written
//! from the tree, `18446744073709551621` would come back as `1.8446744073709552e19`, which no
//! 128-bit integer reads. So a double is written as its text was: the first number of the
//! text not yet written that reads as the same double, in the order sent (the checker takes
//! out nulls and puts back a copy of a union's value; the leniency adds numbers read from
//! text and moves a value into a list, none of which reorders the numbers sent). serde_json
//! has no way to hand over a number's text (short of its `arbitrary_precision` feature, which
//! would change every number of every crate in a build, and with which the tree's numbers keep
//! their text themselves), hence the few lines here that find them.

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use super::json_text::{Step, Walk, in_number, number_end};
use super::tree::{self, Node};

/// The numbers of a text that serde_json reads as doubles, by the bits of the double read, each
/// in the order sent.
type Doubles<'t> = HashMap<u64, VecDeque<&'t str>>;

/// `value`, read from `text` and changed since, written again as JSON.
pub(super) fn text(value: &Node<'_>, text: &str) -> String {
    if tree::numbers_come_as_maps() {
        return serde_json::to_string(value).unwrap_or_default();
    }
    let doubles = RefCell::new(doubles(text));
    let shown = serde_json::to_string(&AsWritten {
        node: value,
        doubles: &doubles,
    });
    shown.unwrap_or_else(|_| serde_json::to_string(value).unwrap_or_default())
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

/// The numbers of `text` serde_json reads as doubles: written with a fraction or an exponent,
/// or integers past what 64 bits hold.
fn doubles(text: &str) -> Doubles<'_> {
    let mut doubles = Doubles::new();
    for number in numbers(text) {
        let integer = number.parse::<i64>().is_ok() || number.parse::<u64>().is_ok();
        if let (false, Ok(double)) = (integer, number.parse::<f64>()) {
            doubles
                .entry(double.to_bits())
                .or_default()
                .push_back(number);
        }
    }
    doubles
}

/// A node written with its doubles as written in the text, `doubles` the text's doubles not
/// yet written.
struct AsWritten<'n, 't> {
    node: &'n Node<'n>,
    doubles: &'n RefCell<Doubles<'t>>,
}

impl Serialize for AsWritten<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let inner = |node| AsWritten {
            node,
            doubles: self.doubles,
        };
        match self.node {
            Node::Number(number) if number.is_f64() => {
                let bits = number.as_f64().map(f64::to_bits);
                let written = bits.and_then(|bits| {
                    (self.doubles.borrow_mut().get_mut(&bits)).and_then(VecDeque::pop_front)
                });
                match written {
                    Some(written) => {
                        let raw = RawValue::from_string(written.to_owned());
                        raw.map_err(S::Error::custom)?.serialize(serializer)
                    }
                    // A double read from text (the leniency's), not among those sent.
                    None => number.serialize(serializer),
                }
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
        // Numbers taken out, added and moved: each double still as sent, a new one as held.
        if let Node::Object(fields) = &mut tree {
            fields.pop();
            let (_, big) = fields.remove(0);
            fields.push(("list".into(), Node::Array(vec![big])));
            fields.push((
                "read".into(),
                Node::Number(serde_json::Number::from_f64(0.5).unwrap()),
            ));
        }
        assert_eq!(
            text(&tree, sent),
            r#"{"small":2,"e":1E+20,"list":[18446744073709551621],"read":0.5}"#
        );
        // Two copies of one double, each written as its own text, in order.
        let sent = r#"{"a": 1e20, "b": 100000000000000000000.0}"#;
        let tree = Node::parse(sent).unwrap();
        assert_eq!(
            text(&tree, sent),
            r#"{"a":1e20,"b":100000000000000000000.0}"#
        );
    }
}
