//! The arguments written again after the checker or the leniency changed them, each number as
//! the caller wrote it.
//!
//! The tree holds serde_json's numbers, which read an integer past what 64 bits hold as a
//! double, where serde, reading the text into a 128-bit integer, reads it exactly: written
//! from the tree, `18446744073709551621` would come back as `1.8446744073709552e19`, which no
//! 128-bit integer reads. So a double is written as its text was: the number sent at its path
//! that reads as the same double, each once, in the order sent (a key sent twice has two). The
//! checker takes out nulls and puts back a copy of a union's value, neither of which moves a
//! number; the leniency adds numbers read from text (at a path where none was sent, or where
//! text was) and moves a value into a list of one (`a` to `a[0]`, looked for at `a` too).
//! serde_json has no way to hand over a number's text (short of its `arbitrary_precision`
//! feature, which would change every number of every crate in a build, and with which the
//! tree's numbers keep their text themselves), hence the few lines here that find them.

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::collections::HashMap;

use super::json_text::{Step, Walk, in_number, number_end};
use super::path::Path;
use super::tree::{self, Node};

/// The numbers of a text that serde_json reads as doubles, by their path: each with the bits of
/// the double read, in the order sent.
type Doubles<'t> = HashMap<String, Vec<(u64, &'t str)>>;

/// `value`, read from `text` and changed since, written again as JSON.
pub(super) fn text(value: &Node<'_>, text: &str) -> String {
    if tree::numbers_come_as_maps() {
        return serde_json::to_string(value).unwrap_or_default();
    }
    let doubles = RefCell::new(doubles(text));
    let path = RefCell::new(Path::default());
    let shown = serde_json::to_string(&AsWritten {
        node: value,
        doubles: &doubles,
        path: &path,
    });
    shown.unwrap_or_else(|_| serde_json::to_string(value).unwrap_or_default())
}

/// Whether serde_json reads `number`, a JSON number's text, as a double: one written with a
/// fraction or an exponent, an integer past what 64 bits hold, or `-0` (the double -0.0).
pub(super) fn is_double(number: &str) -> bool {
    number.contains(['.', 'e', 'E'])
        || number == "-0"
        || (number.len() >= 19 && number.parse::<i64>().is_err() && number.parse::<u64>().is_err())
}

/// The numbers of `text`, valid JSON, that serde_json reads as doubles, by path.
fn doubles(text: &str) -> Doubles<'_> {
    let bytes = text.as_bytes();
    let mut doubles = Doubles::new();
    let mut walk = Walk::new(text);
    while let Some(step) = walk.next() {
        let Step::Value(start) = step else { continue };
        if !bytes.get(start).is_some_and(in_number) {
            continue;
        }
        // Every byte taken is ASCII, so `start..end` lies on character boundaries.
        let Some(number) = text.get(start..number_end(bytes, start)) else {
            continue;
        };
        if let (true, Ok(double)) = (is_double(number), number.parse::<f64>()) {
            let at = doubles.entry(walk.path().to_owned()).or_default();
            at.push((double.to_bits(), number));
        }
    }
    doubles
}

/// A node written with its doubles as written in the text: `doubles` the text's doubles not yet
/// written, `path` the node's.
struct AsWritten<'n, 't> {
    node: &'n Node<'n>,
    doubles: &'n RefCell<Doubles<'t>>,
    path: &'n RefCell<Path>,
}

impl AsWritten<'_, '_> {
    /// The text sent for the double `bits` at this node's path, or at the path of the value a
    /// list of one was made of; taken, so that it is written once.
    fn sent(&self, bits: u64) -> Option<&str> {
        let path = self.path.borrow();
        let moved = path.0.strip_suffix("[0]");
        let mut doubles = self.doubles.borrow_mut();
        for at in std::iter::once(path.0.as_str()).chain(moved) {
            if let Some(numbers) = doubles.get_mut(at)
                && let Some(index) = numbers.iter().position(|&(sent, _)| sent == bits)
            {
                return Some(numbers.remove(index).1);
            }
        }
        None
    }
}

impl<'t> Serialize for AsWritten<'_, 't> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let inner = |node| AsWritten {
            node,
            doubles: self.doubles,
            path: self.path,
        };
        match self.node {
            Node::Number(number) if number.is_f64() => {
                let sent = number
                    .as_f64()
                    .and_then(|double| self.sent(double.to_bits()));
                match sent {
                    Some(sent) => {
                        let raw = RawValue::from_string(sent.to_owned());
                        raw.map_err(S::Error::custom)?.serialize(serializer)
                    }
                    // A double read from text (the leniency's), not among those sent.
                    None => number.serialize(serializer),
                }
            }
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for (index, item) in items.iter().enumerate() {
                    let len = self.path.borrow().0.len();
                    self.path.borrow_mut().push_index(index as u64);
                    let written = seq.serialize_element(&inner(item));
                    self.path.borrow_mut().0.truncate(len);
                    written?;
                }
                seq.end()
            }
            Node::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, item) in fields {
                    let len = self.path.borrow().0.len();
                    self.path.borrow_mut().push_field(key);
                    let written = map.serialize_entry(key.as_ref(), &inner(item));
                    self.path.borrow_mut().0.truncate(len);
                    written?;
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
    fn the_doubles_of_a_text_are_found_at_their_paths_and_none_inside_strings() {
        let text = r#"{"a\"1": -1.5e3, "b": ["2.5", 3, {"c": 1E+2}], "d\\": 0, "e": 18446744073709551616}"#;
        let found: Vec<(String, Vec<&str>)> = {
            let mut found: Vec<_> = (doubles(text).into_iter())
                .map(|(path, numbers)| (path, numbers.into_iter().map(|(_, text)| text).collect()))
                .collect();
            found.sort();
            found
        };
        assert_eq!(
            found,
            [
                (r#"["a\"1"]"#.to_owned(), vec!["-1.5e3"]),
                ("b[2].c".to_owned(), vec!["1E+2"]),
                ("e".to_owned(), vec!["18446744073709551616"]),
            ]
        );
        assert!(!is_double("18446744073709551615") && !is_double("-9223372036854775808"));
        assert!(is_double("-9223372036854775809") && is_double("1.0") && is_double("-0"));
        assert!(!is_double("0") && !is_double("-1"));
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
        // Numbers taken out, added and moved into a list of one: each double still as sent, a
        // new one as held, even where it is the same double as one sent after it.
        if let Node::Object(fields) = &mut tree {
            fields.pop();
            let big = std::mem::replace(&mut fields[0].1, Node::Null);
            fields[0].1 = Node::Array(vec![big]);
            let read = serde_json::Number::from_f64(1e20).unwrap();
            fields.insert(1, ("read".into(), Node::Number(read)));
        }
        assert_eq!(
            text(&tree, sent),
            r#"{"big":[18446744073709551621],"read":1e+20,"small":2,"e":1E+20}"#
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
