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

use super::json_text::SentDoubles;
use super::path::Path;
use super::tree::{self, Node};

/// `value`, read from `text` and changed since, written again as JSON.
pub(super) fn text(value: &Node<'_>, text: &str) -> String {
    if tree::numbers_come_as_maps() {
        return serde_json::to_string(value).unwrap_or_default();
    }
    let doubles = RefCell::new(SentDoubles::read(text, |_| true));
    let path = RefCell::new(Path::default());
    let shown = serde_json::to_string(&AsWritten {
        node: value,
        doubles: &doubles,
        path: &path,
    });
    shown.unwrap_or_else(|_| serde_json::to_string(value).unwrap_or_default())
}

/// A node written with its doubles as written in the text: `doubles` the text's doubles not yet
/// written, `path` the node's.
struct AsWritten<'n, 't> {
    node: &'n Node<'n>,
    doubles: &'n RefCell<SentDoubles<'t>>,
    path: &'n RefCell<Path>,
}

impl<'t> AsWritten<'_, 't> {
    /// The text sent for `double` at this node's path, or at the path of the value a list of
    /// one was made of; taken, so that it is written once.
    fn sent(&self, double: f64) -> Option<&'t str> {
        let path = self.path.borrow();
        let moved = path.0.strip_suffix("[0]");
        let mut doubles = self.doubles.borrow_mut();
        std::iter::once(path.0.as_str())
            .chain(moved)
            .find_map(|at| doubles.take(at, double))
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
                let sent = number.as_f64().and_then(|double| self.sent(double));
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
