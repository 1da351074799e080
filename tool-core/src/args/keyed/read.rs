//! What the asking sends and how it reads the answer: the least arguments the schema takes,
//! with a value at the way's end, read through the input type, traced.

use serde_json::{Map, Value};

use super::super::guard::Findings;
use super::super::least::{MAX_LEAST_DEPTH, least, least_fields, size};
use super::super::path::{Path, leave_out};
use super::super::plan::Plan;
use super::super::without_position;
use super::{Asker, MAX_WORK, READ_WORK, Step};
use crate::schema::walk::Lookup;

/// What one read of the least arguments showed.
pub(super) struct Seen {
    /// Where it failed and serde's message, if it did.
    pub(super) failed: Option<(String, String)>,
    /// Whether it read the key asked about as an integer.
    pub(super) as_integer: bool,
    /// The fields off the way left out, the type having refused a value in each, and the
    /// arguments read again.
    pub(super) left_out: Vec<LeftOut>,
}

/// A field the asking left out: where it sat, its name, and where and why the type refused
/// the value sent in it.
pub(super) struct LeftOut {
    pub(super) object: String,
    pub(super) name: String,
    pub(super) refused: (String, String),
}

impl<'s> Asker<'s, '_, '_, '_> {
    /// The read of the least arguments with `map` at the way's end, each object's fields in
    /// the schema's order or `reversed`, and whether it read `key` as an integer; `None`
    /// where the least arguments cannot be made.
    ///
    /// A field off the way whose least value the type refuses (a `SocketAddr`, a `try_from`
    /// with a rule of its own, which a schema of `"type": "string"` cannot tell) is left out
    /// and the arguments read again: serde reads a struct's fields as the text gives them and
    /// misses a field only at the end, so the map is read before the field is missed.
    pub(super) fn read_with(
        &mut self,
        map: &Map<String, Value>,
        reversed: bool,
        key: &str,
    ) -> Option<Seen> {
        let Some(mut arguments) = self.arguments(in_order(map.clone(), reversed), reversed) else {
            // Least arguments too large to make, or of a type `least` cannot name, would be so
            // on other ways too: none is asked about.
            self.exhausted = true;
            return None;
        };
        let end = self.path();
        let mut left_out = Vec::new();
        let buffered =
            (self.way.iter()).any(|(_, step)| matches!(step, Step::Branch { buffered: true }));
        let read_work = if buffered { READ_WORK } else { 0 };
        // Each read leaves out a field more, or is the last: the loop ends.
        loop {
            self.work += size(&arguments) + read_work;
            let findings = Findings::traced();
            let read = (self.read)(&arguments.to_string(), Some((&Plan::traced(), &findings)));
            let as_integer = findings.read_as_integer(key);
            // serde's words without their line and column, which are the asking's own text's.
            let failed = (read.err()).map(|error| (findings.failed_at(), without_position(&error)));
            let off_way = (failed.as_ref())
                .and_then(|(at, _)| leave_out(&mut arguments, &mut Path::default(), at, &end));
            match (off_way, failed) {
                // Once the key is read, what fails after it says nothing of the map.
                (Some((object, name)), Some(refused)) if !as_integer && self.work < MAX_WORK => {
                    left_out.push(LeftOut {
                        object,
                        name,
                        refused,
                    });
                }
                (_, failed) => {
                    return Some(Seen {
                        failed,
                        as_integer,
                        left_out,
                    });
                }
            }
        }
    }

    /// The least fields of `map`, an object on the way ([`least_fields`]), made once.
    fn least_fields_of(&self, map: &'s Map<String, Value>) -> Map<String, Value> {
        let mut made = self.least_made.borrow_mut();
        if let Some((_, least)) = made.iter().find(|(each, _)| std::ptr::eq(*each, map)) {
            return least.clone();
        }
        let least = least_fields(map, self.root, MAX_LEAST_DEPTH);
        made.push((map, least.clone()));
        least
    }

    /// The least arguments the schema takes with `value` at the way's end.
    fn arguments(&self, value: Value, reversed: bool) -> Option<Value> {
        let mut inner = value;
        for (map, step) in self.way.iter().rev() {
            inner = match step {
                // Beside the object's other fields, or the map's own (a struct with a field
                // beside a flattened map), as `key_for` sent it.
                Step::Key(key) => {
                    let mut object = self.least_fields_of(map);
                    object.insert(key.to_string(), inner);
                    in_order(object, reversed)
                }
                Step::Item(position) => {
                    let items = map.lookup("prefixItems").and_then(Value::as_array);
                    let mut placed = Some(inner);
                    let mut array = Vec::new();
                    for (at, item) in items.into_iter().flatten().enumerate() {
                        array.push(match at == *position {
                            true => placed.take()?,
                            false => least(item, self.root, MAX_LEAST_DEPTH)?,
                        });
                    }
                    array.extend(placed);
                    Value::Array(array)
                }
                Step::Branch { .. } => inner,
            };
        }
        Some(inner)
    }

    /// The path of the way's end, as a traced read writes it.
    pub(super) fn path(&self) -> String {
        let mut path = Path::default();
        for (_, step) in &self.way {
            match step {
                Step::Key(key) => path.push_field(key),
                Step::Item(position) => path.push_index(*position as u64),
                Step::Branch { .. } => {}
            }
        }
        path.0
    }
}

/// `object`, its fields in the order inserted or `reversed`.
fn in_order(object: Map<String, Value>, reversed: bool) -> Value {
    match reversed {
        true => Value::Object(object.into_iter().rev().collect()),
        false => Value::Object(object),
    }
}
