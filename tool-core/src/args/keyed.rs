//! Whether an input type reads the keys of each map its schema keys by numbers.
//!
//! schemars describes a `HashMap<u32, V>` with `patternProperties` (`^\d+$`, or `^-?\d+$` for
//! signed keys), and serde_json reads such a key from its text. A map serde reads from its own
//! buffer instead (a `#[serde(flatten)]`ed field's, an internally tagged, adjacently tagged or
//! untagged enum variant's) is handed each key as text, which a number refuses: every call
//! sending the map an entry would be refused, though the schema takes it. No schema shows a
//! flatten, so the type is asked, once, when its schema is prepared: arguments made of the
//! least values the schema takes are read through the type's own deserializer with the map
//! empty, then with one entry (the key `0`, and its value's least value). A map whose entry is
//! read, or refused at the entry's own path (where its value is refused, after its key was
//! read), has its keys read. Every other map keyed by numbers (refused where it sits or above,
//! in arguments the type did not read even empty, or where the asking does not go: under
//! `allOf` or `if`, past its depth) is one the registry refuses when it is made, saying what to
//! write instead, rather than a schema that promises what no call can send.

use serde_json::{Map, Value};

use super::Read;
use super::guard::Findings;
use super::least::{MAX_LEAST_DEPTH, least, least_fields, least_key};
use super::path::Path;
use super::plan::Plan;
use crate::schema::patterns::keys_integers;
use crate::schema::walk::{self, Lookup, Root};

/// The deepest the asking goes.
const MAX_DEPTH: usize = 64;

/// The most schemas the asking looks at: a schema whose definitions refer to each other many
/// ways over has maps past it refused rather than asked without end.
const MAX_VISITS: usize = 4096;

/// The key a map keyed by numbers is asked with: one both patterns take, and every integer type.
const KEY: &str = "0";

/// Why a map keyed by numbers its type reads from serde's buffer is refused.
const BUFFERED: &str = "this map's keys are numbers, and the input type does not read them \
    from a call's JSON here: serde reads the map from its own buffer (inside a \
    `#[serde(flatten)]`ed field, or an internally tagged, adjacently tagged or untagged enum), \
    where each key is text, which a number refuses, so every call sending it an entry would be \
    refused; key the map by `String` and read the numbers in the handler, or keep the map out \
    of the flattened field or the enum";

/// Why a map keyed by numbers the type was not seen reading is refused.
const UNSEEN: &str = "this map's keys are numbers, and the input type was not seen reading \
    one (the least arguments its schema takes were refused, or the map sits under `allOf`, \
    `if` or `not`, or too deep to ask about); key the map by `String` and read the numbers in \
    the handler";

/// A map keyed by numbers its type is not seen reading a key of: its path, and what to do.
type Unread = (String, String);

/// The maps keyed by numbers in `schema`, the schema of the type `read` reads, that the type
/// is not seen reading a key of: each one's path and what to do.
pub(super) fn unread_keys(schema: &Map<String, Value>, read: &mut Read<'_>) -> Vec<Unread> {
    let mut keyed = Vec::new();
    find_keyed(schema, &mut String::new(), MAX_DEPTH, &mut keyed);
    if keyed.is_empty() {
        return Vec::new();
    }
    let mut asker = Asker {
        root: Root::new(schema),
        read,
        way: Vec::new(),
        references: Vec::new(),
        visits: 0,
        answers: Vec::new(),
    };
    asker.object(schema);
    let answers = asker.answers;
    let mut refused = Vec::new();
    for (map, schema_path) in keyed {
        let mut seen = (answers.iter())
            .filter(|answer| std::ptr::eq(answer.map, map))
            .peekable();
        if seen.peek().is_none() {
            refused.push((schema_path, UNSEEN.to_owned()));
        }
        refused.extend(seen.filter_map(|answer| answer.unread.clone()));
    }
    refused.dedup();
    refused
}

/// Whether `map` describes a map keyed by numbers.
fn is_keyed(map: &Map<String, Value>) -> bool {
    (map.lookup("patternProperties").and_then(Value::as_object))
        .is_some_and(|patterns| patterns.keys().any(|pattern| keys_integers(pattern)))
}

/// Every map keyed by numbers in `map` (its `$defs` and every subschema), with the path the
/// registry's other refusals write for it.
fn find_keyed<'s>(
    map: &'s Map<String, Value>,
    path: &mut String,
    depth: usize,
    found: &mut Vec<(&'s Map<String, Value>, String)>,
) {
    if is_keyed(map) {
        found.push((map, path.clone()));
    }
    let Some(depth) = depth.checked_sub(1) else {
        return;
    };
    if let Some(Value::Object(definitions)) = map.lookup("$defs") {
        for (name, definition) in definitions {
            if let Some(definition) = definition.as_object() {
                find_keyed(definition, &mut format!("$defs.{name}"), depth, found);
            }
        }
    }
    let _ = walk::children::<()>(map, |slot, child| {
        if let Some(child) = child.as_object() {
            let length = walk::push_slot(path, slot);
            find_keyed(child, path, depth, found);
            path.truncate(length);
        }
        Ok(())
    });
}

/// One step from a schema down to one of its parts.
#[derive(Clone, Copy)]
enum Step<'s> {
    Field(&'s str),
    /// The item at this position of an array (the first of a list).
    Item(usize),
    /// A map's value, under this key.
    Entry(&'s str),
    /// A branch of `anyOf` or `oneOf`: the same value.
    Branch,
}

struct Asker<'s, 'r, 'x> {
    root: Root<'s>,
    read: &'r mut Read<'x>,
    /// The way from the arguments to the schema looked at: each schema passed, and the step
    /// taken out of it.
    way: Vec<(&'s Map<String, Value>, Step<'s>)>,
    /// The `$ref`s followed on the way: a recursive type is looked into once on each way.
    references: Vec<&'s str>,
    visits: usize,
    /// Each map keyed by numbers asked about.
    answers: Vec<Answer<'s>>,
}

/// A map keyed by numbers asked about, and what is wrong where its keys are not seen read.
struct Answer<'s> {
    map: &'s Map<String, Value>,
    unread: Option<Unread>,
}

impl<'s> Asker<'s, '_, '_> {
    fn schema(&mut self, schema: &'s Value) {
        let Some(raw) = schema.as_object() else {
            return;
        };
        let reference = raw.lookup("$ref").and_then(Value::as_str);
        if reference.is_some_and(|reference| self.references.contains(&reference)) {
            return;
        }
        let Some(map) = self.root.deref(schema) else {
            return;
        };
        self.references.extend(reference);
        self.object(map);
        if reference.is_some() {
            self.references.pop();
        }
    }

    fn object(&mut self, map: &'s Map<String, Value>) {
        self.visits += 1;
        if self.way.len() >= MAX_DEPTH || self.visits > MAX_VISITS {
            return;
        }
        if is_keyed(map) {
            let unread = self.ask(map).err();
            self.answers.push(Answer { map, unread });
        }
        let root = self.root;
        if let Some(Value::Object(properties)) = map.lookup("properties") {
            for (name, property) in properties {
                self.below(map, Step::Field(name), property);
            }
        }
        if let Some(Value::Object(patterns)) = map.lookup("patternProperties") {
            for values in patterns.values() {
                self.below(map, Step::Entry(KEY), values);
            }
        }
        if let Some(values @ Value::Object(_)) = map.lookup("additionalProperties") {
            self.below(map, Step::Entry(least_key(map, root)), values);
        }
        if let Some(items @ Value::Object(_)) = map.lookup("items") {
            self.below(map, Step::Item(0), items);
        }
        if let Some(Value::Array(items)) = map.lookup("prefixItems") {
            for (position, item) in items.iter().enumerate() {
                self.below(map, Step::Item(position), item);
            }
        }
        for union in ["anyOf", "oneOf"] {
            for branch in map
                .lookup(union)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.below(map, Step::Branch, branch);
            }
        }
    }

    fn below(&mut self, map: &'s Map<String, Value>, step: Step<'s>, schema: &'s Value) {
        self.way.push((map, step));
        self.schema(schema);
        self.way.pop();
    }

    /// Whether the map keyed by numbers at the way's end, `map`, is seen reading a key. Each
    /// object's fields are sent in the schema's order and then in reverse: serde reads an
    /// adjacently tagged enum's content from its buffer only when it comes before the tag.
    fn ask(&mut self, map: &'s Map<String, Value>) -> Result<(), Unread> {
        let path = self.path();
        let unseen = || (path.clone(), UNSEEN.to_owned());
        let values = (map.lookup("patternProperties").and_then(Value::as_object))
            .and_then(|patterns| patterns.iter().find(|(pattern, _)| keys_integers(pattern)))
            .map(|(_, values)| values);
        let value = values.and_then(|values| least(values, self.root, MAX_LEAST_DEPTH));
        // The map's own fields, if it has any (a struct beside a flattened map).
        let empty = least_fields(map, self.root, MAX_LEAST_DEPTH).ok_or_else(unseen)?;
        let mut one = empty.clone();
        one.insert(KEY.to_owned(), value.unwrap_or(Value::Null));
        let mut entry_at = Path(path.clone());
        entry_at.push_field(KEY);
        let within = |at: &str| {
            at.strip_prefix(entry_at.0.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        };
        for reversed in [false, true] {
            let empty = self.read_with(&empty, reversed);
            let one = self.read_with(&one, reversed);
            match (empty, one) {
                (Some(Ok(())), Some(Ok(()))) => {}
                (Some(Ok(())), Some(Err(at))) if within(&at) => {}
                (Some(Ok(())), Some(Err(_))) => return Err((path, BUFFERED.to_owned())),
                _ => return Err(unseen()),
            }
        }
        Ok(())
    }

    /// The read of the least arguments with `map` at the way's end, each object's fields in
    /// the schema's order or `reversed`: where it failed, if it did; `None` where the least
    /// arguments cannot be made.
    fn read_with(
        &mut self,
        map: &Map<String, Value>,
        reversed: bool,
    ) -> Option<Result<(), String>> {
        let arguments = self.arguments(in_order(map.clone(), reversed), reversed)?;
        let findings = Findings::traced();
        Some(
            match (self.read)(&arguments.to_string(), Some((&Plan::traced(), &findings))) {
                Ok(()) => Ok(()),
                Err(_) => Err(findings.failed_at()),
            },
        )
    }

    /// The least arguments the schema takes with `value` at the way's end.
    fn arguments(&self, value: Value, reversed: bool) -> Option<Value> {
        let mut inner = value;
        for &(map, step) in self.way.iter().rev() {
            inner = match step {
                Step::Field(name) => {
                    let properties = map.lookup("properties").and_then(Value::as_object)?;
                    let mut object = Map::new();
                    let mut placed = Some(inner);
                    for (field, schema) in properties {
                        let value = match field == name {
                            true => placed.take()?,
                            false => least(schema, self.root, MAX_LEAST_DEPTH)?,
                        };
                        object.insert(field.clone(), value);
                    }
                    in_order(object, reversed)
                }
                Step::Item(position) => {
                    let items = map.lookup("prefixItems").and_then(Value::as_array);
                    let mut placed = Some(inner);
                    let mut array = Vec::new();
                    for (at, item) in items.into_iter().flatten().enumerate() {
                        array.push(match at == position {
                            true => placed.take()?,
                            false => least(item, self.root, MAX_LEAST_DEPTH)?,
                        });
                    }
                    array.extend(placed);
                    Value::Array(array)
                }
                Step::Entry(key) => Value::Object(Map::from_iter([(key.to_owned(), inner)])),
                Step::Branch => inner,
            };
        }
        Some(inner)
    }

    /// The path of the way's end, as a traced read writes it.
    fn path(&self) -> String {
        let mut path = Path::default();
        for (_, step) in &self.way {
            match step {
                Step::Field(name) | Step::Entry(name) => path.push_field(name),
                Step::Item(position) => path.push_index(*position as u64),
                Step::Branch => {}
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
