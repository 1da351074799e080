//! Whether an input type reads the keys of each map its schema keys by numbers (and, in a pass
//! of its own, which keys its maps of any key take).
//!
//! schemars describes a `HashMap<u32, V>` with `patternProperties` (`^\d+$`, or `^-?\d+$` for
//! signed keys), and serde_json reads such a key from its text. A map serde reads from its own
//! buffer instead (a `#[serde(flatten)]`ed field's, an internally tagged, adjacently tagged or
//! untagged enum variant's) is handed each key as text, which a number refuses: every call
//! sending the map an entry would be refused (or, under a flattened `Option`, lose it), though
//! the schema takes it. No schema shows a flatten, so the type is asked, once, when its schema
//! is prepared. On every way from the arguments down to such a map, the least arguments the
//! schema takes (`least.rs`) are read through the type's own deserializer, traced, with one
//! entry in the map, under a key every integer type takes. Read from the text, the key is read
//! as an integer, which the trace notes; read from a buffer, it is read as text. A key type
//! that reads text itself (parsing it) is seen another way: the entry's value is one the
//! value's schema takes no type of, and the read fails at the entry's own path. Each object's
//! fields are sent in the schema's order and then in reverse: serde reads an adjacently tagged
//! enum's content from its buffer only when it comes before the tag.
//!
//! A map whose key is read as an integer is asked, on every way to it, which integers its key
//! type takes (`key_ranges.rs`): where every way finds the same range of an integer type of up
//! to 32 bits, within what schemars' pattern said, the schema advertises exactly its keys, and
//! the checker refuses any other at its own path, beside every other fault, where serde would
//! refuse it at the map, alone.
//!
//! A map of other keys on the way is sent one its type takes: the one its schema names, else a
//! guess ([`OTHER_KEYS`]: a number, a day, a UUID, an address, a time), else, for an enum
//! whose variants have docs (which schemars describes as a map of any key), one of the names
//! its type gives refusing a key no variant is named (serde's refusal of an unknown variant
//! lists them).
//!
//! A field off the way whose least value the type refuses (a `SocketAddr`, a `try_from` of
//! its own, whose schema says only `"type": "string"`) is left out and the read made again:
//! serde reads a struct's fields in the text's order and misses one only at the struct's end,
//! after the map. A field the map cannot be read without (an item of a tuple, a field a
//! flattened struct misses before it reads its map) leaves the map refused, naming the field.
//!
//! The maps its schema says take any key (`named_keys.rs`) are asked in a pass of their own
//! (`keyed/names.rs`), along the same ways and within the same work, which of the keys they
//! take; such a map is never refused.
//!
//! A type that refers to itself is followed round once more on each way: whether a way passes
//! through a buffer only grows along it, so a second round shows all a cycle can add. Only
//! parts of the schema that lead to such a map are walked, and the work is bounded: a map on a
//! way not asked (past the bound, under `allOf`, `if` or `not`, too deep, below a map none of
//! whose keys the asking knows) is refused, as is one not seen reading its key on every way
//! asked. The registry refuses such a tool when it is made, saying what to write instead,
//! rather than advertise what no call can send.

use std::borrow::Cow;
use std::cell::RefCell;

use serde_json::{Map, Value};

use super::Read;
use super::leads::{Leads, reachable};
use super::least::{MAX_LEAST_DEPTH, NIL_UUID, least, least_fields, least_key, refused_value};
use super::named_keys::is_open;
use super::path::{Path, within};
use super::unknown_variant::variants;
use crate::schema::integer_keys::{KeyRange, keys_integers};
use crate::schema::keywords::{only_solid_branch, repeats_earlier};
use crate::schema::walk::{Lookup, Root};

/// The deepest the asking goes.
const MAX_DEPTH: usize = 64;

/// The most work the asking does, in values of the least arguments it reads: a schema whose
/// definitions are reached many ways over has the maps past it refused rather than asked
/// without end.
const MAX_WORK: usize = 300_000;

/// The work a read through an untagged enum counts beside its values: serde tries its variants
/// within each other's, at a cost far beyond the values, and the ways through unions within
/// unions are the product of their lengths.
const READ_WORK: usize = 100;

/// How many times a way passes through one definition.
const ROUNDS: usize = 2;

/// The key of a map keyed by numbers on the way to another: one both patterns, every integer
/// type and every non-zero one take.
const KEY: &str = "1";

/// The keys a map keyed by numbers is asked with, the first its own fields do not name.
const ASKED_KEYS: [&str; 3] = ["2", "3", "4"];

/// Keys to try, after the one its schema names, for a map keyed by other text on the way to
/// one keyed by numbers: a character or a number, a day, a UUID, an address, an instant, a
/// time of day, a truth value.
const OTHER_KEYS: [&str; 8] = [
    "1",
    "1970-01-01",
    NIL_UUID,
    "0.0.0.0",
    "1970-01-01T00:00:00Z",
    "1970-01-01T00:00:00",
    "00:00:00",
    "true",
];

/// A key no enum's variant is named: sent to a map on the way whose key none of the others
/// fits, to hear its type name the keys it takes. Printable: a hand-written key type may
/// trust its text.
const UNNAMED: &str = "(no such variant)";

/// Why a map keyed by numbers its type reads from serde's buffer is refused.
const BUFFERED: &str = "this map's keys are numbers, and the input type does not read them \
    from a call's JSON here: serde reads the map from its own buffer (inside a \
    `#[serde(flatten)]`ed field, or an internally tagged, adjacently tagged or untagged enum), \
    where each key is text, which a number refuses, so calls sending it an entry would be \
    refused or lose it; key the map by `String` and read the numbers in the handler, or keep \
    the map out of the flattened field or the enum";

/// Why a map keyed by numbers the type was not seen reading is refused.
const UNSEEN: &str = "this map's keys are numbers, and the registry could not check that the \
    input type reads them from a call: the map sits under `allOf`, `if` or `not`, or inside a \
    map the registry found no key to send to, or is reached too many ways to check each; key \
    the map by `String` and read the numbers in the handler";

/// Why a map keyed by numbers is refused whose type refused the least arguments its schema
/// takes, at `at`.
fn unasked_at(at: &str, error: &str) -> String {
    let at = if at.is_empty() { "(arguments)" } else { at };
    format!(
        "this map's keys are numbers, and the registry could not check that the input type \
         reads them from a call: to check, it sends the simplest value the schema allows for \
         each field, and the type refused the value at `{at}` ({error}) and reads the map only \
         after that field; key the map by `String` and read the numbers in the handler"
    )
}

/// The keys a map of any key by its schema takes, where its type takes only those.
type Names = Vec<String>;

/// A map keyed by numbers its type is not seen reading a key of: its path, and what to do.
type Unread = (String, String);

/// What asking a type about its maps keyed by numbers, and its maps of any key, found.
#[derive(Default)]
pub(super) struct Asked {
    /// The maps its type is not seen reading a key of: each one's path and what to do.
    pub(super) unread: Vec<Unread>,
    /// The maps whose keys it reads from a call, each by its JSON Pointer in the schema
    /// asked about, with the integers its key type takes.
    pub(super) ranges: Vec<(String, KeyRange)>,
    /// The maps of any key by their schema whose type takes only the keys named
    /// (`named_keys.rs`), each by its JSON Pointer, with the names.
    pub(super) named: Vec<(String, Names)>,
}

/// Asks the type `read` reads about the maps keyed by numbers in `schema`, its schema, and
/// about its maps of any key.
pub(super) fn ask(schema: &Map<String, Value>, read: &mut Read<'_>) -> Asked {
    let root = Root::new(schema);
    let (asked, work) = ask_keyed(schema, root, read);
    Asked {
        named: ask_names(schema, root, read, work),
        ..asked
    }
}

/// Asks about the maps keyed by numbers: what it found, and the work it took.
fn ask_keyed<'s>(
    schema: &'s Map<String, Value>,
    root: Root<'s>,
    read: &mut Read<'_>,
) -> (Asked, usize) {
    let mut keyed = Vec::new();
    reachable(
        is_keyed,
        schema,
        root,
        &mut String::new(),
        &mut Vec::new(),
        &mut keyed,
    );
    if keyed.is_empty() {
        return (Asked::default(), 0);
    }
    let leads = Leads::new(schema, is_keyed);
    let mut asker = Asker::new(root, read, &leads, false, 0);
    asker.object(schema);
    let (answers, unasked, exhausted) = (asker.answers, asker.unasked, asker.exhausted);
    let work = asker.work;
    // One fault a map: the first way it is not seen read on, else where it first sits.
    let mut asked = Asked::default();
    let mut ranges = Vec::new();
    for (map, path) in keyed {
        let here: Vec<&Answer> = (answers.iter())
            .filter(|answer| std::ptr::eq(answer.map, map))
            .collect();
        let unasked =
            exhausted || here.is_empty() || unasked.iter().any(|&at| std::ptr::eq(at, map));
        let fault = (here.iter().find_map(|answer| answer.unread.clone()))
            .or_else(|| unasked.then(|| (path, UNSEEN.to_owned())));
        // A range only where every way found the same: two types may share one schema.
        let range = here.first().and_then(|answer| answer.range);
        let range = range.filter(|range| here.iter().all(|answer| answer.range == Some(*range)));
        match (fault, range) {
            (Some(fault), _) if !asked.unread.contains(&fault) => asked.unread.push(fault),
            (None, Some(range)) => ranges.push((map, range)),
            _ => {}
        }
    }
    asked.ranges = super::key_ranges::located(schema, &ranges);
    (asked, work)
}

/// Whether `map` describes a map keyed by numbers.
fn is_keyed(map: &Map<String, Value>) -> bool {
    (map.lookup("patternProperties").and_then(Value::as_object))
        .is_some_and(|patterns| patterns.keys().any(|pattern| keys_integers(pattern)))
}

/// One step from a schema down to one of its parts.
#[derive(Clone)]
enum Step<'s> {
    /// An object's field, or a map's value, under this key: the schema's, or one learnt of
    /// the map's type.
    Key(Cow<'s, str>),
    /// The item at this position of an array (the first of a list).
    Item(usize),
    /// A branch of `anyOf` or `oneOf`: the same value; `buffered` for an untagged enum's,
    /// which serde reads trying each variant in turn.
    Branch { buffered: bool },
}

struct Asker<'s, 'r, 'x, 'l> {
    root: Root<'s>,
    read: &'r mut Read<'x>,
    leads: &'l Leads<'s>,
    /// Whether the maps asked about are those of any key (else those keyed by numbers).
    open: bool,
    /// The way from the arguments to the schema looked at: each schema passed, and the step
    /// taken out of it.
    way: Vec<(&'s Map<String, Value>, Step<'s>)>,
    /// The `$ref`s followed on the way.
    references: Vec<&'s str>,
    /// The values of the least arguments read so far, but for the ranges of keys.
    work: usize,
    /// The values read to ask the ranges of keys.
    range_work: usize,
    /// Whether the work ran out, or the least arguments could not be made: every map keyed
    /// by numbers is then refused.
    exhausted: bool,
    /// Each map keyed by numbers asked about, once for each way to it.
    answers: Vec<Answer<'s>>,
    /// The maps asked about on a way not asked.
    unasked: Vec<&'s Map<String, Value>>,
    /// Each map of any key asked about, once for each way to it, with the names its type
    /// takes, if it takes only those.
    named: Vec<(&'s Map<String, Value>, Option<Names>)>,
    /// The least fields of each object on a way, made once: a struct of many maps is read
    /// again for each map, each time with the same fields beside the one asked about.
    least_made: RefCell<Vec<Made<'s>>>,
}

/// An object on a way, and the least fields it takes.
type Made<'s> = (&'s Map<String, Value>, Map<String, Value>);

/// A map keyed by numbers asked about on one way, and what is wrong if its key is not seen
/// read there, else the integers its key type takes, if they were asked.
struct Answer<'s> {
    map: &'s Map<String, Value>,
    unread: Option<Unread>,
    range: Option<KeyRange>,
}

impl<'s, 'r, 'x, 'l> Asker<'s, 'r, 'x, 'l> {
    fn new(
        root: Root<'s>,
        read: &'r mut Read<'x>,
        leads: &'l Leads<'s>,
        open: bool,
        work: usize,
    ) -> Self {
        Asker {
            root,
            read,
            leads,
            open,
            way: Vec::new(),
            references: Vec::new(),
            work,
            range_work: 0,
            exhausted: false,
            answers: Vec::new(),
            unasked: Vec::new(),
            named: Vec::new(),
            least_made: RefCell::new(Vec::new()),
        }
    }

    /// Which maps this asking asks about.
    fn asked(&self) -> fn(&Map<String, Value>) -> bool {
        match self.open {
            true => is_open,
            false => is_keyed,
        }
    }

    fn schema(&mut self, schema: &'s Value) {
        let Some(raw) = schema.as_object() else {
            return;
        };
        let reference = raw.lookup("$ref").and_then(Value::as_str);
        let rounds = (self.references.iter())
            .filter(|&&on_way| Some(on_way) == reference)
            .count();
        if rounds >= ROUNDS {
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
        if self.exhausted || !self.leads.within(map) {
            return;
        }
        if self.work >= MAX_WORK {
            self.exhausted = true;
            return;
        }
        if self.way.len() >= MAX_DEPTH {
            self.unasked_below(map);
            return;
        }
        if self.open && is_open(map) {
            let names = self.names(map);
            self.named.push((map, names));
        }
        if !self.open && is_keyed(map) {
            let (unread, range) = match self.ask(map) {
                Ok(range) => (None, range),
                Err(unread) => (Some(unread), None),
            };
            self.answers.push(Answer { map, unread, range });
        }
        if let Some(Value::Object(properties)) = map.lookup("properties") {
            for (name, property) in properties {
                self.below(map, Step::Key(name.into()), property);
            }
        }
        if let Some(Value::Object(patterns)) = map.lookup("patternProperties") {
            for values in patterns.values() {
                self.below(map, Step::Key(KEY.into()), values);
            }
        }
        let values = map
            .lookup("additionalProperties")
            .filter(|values| values.is_object());
        if let Some(values) = values.filter(|values| self.leads.leads(values)) {
            match self.key_for(map, values) {
                Some(step) => self.below(map, step, values),
                None => self.unasked_below(map),
            }
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
            let branches =
                (map.lookup(union).and_then(Value::as_array)).map_or(&[][..], Vec::as_slice);
            // An untagged enum's: serde reads it from a buffer, trying each variant.
            let buffered = union == "anyOf" && only_solid_branch(branches).is_none();
            for (at, branch) in branches.iter().enumerate() {
                // A branch written as one before it is the same way again.
                if !repeats_earlier(branches, at) {
                    self.below(map, Step::Branch { buffered }, branch);
                }
            }
        }
    }

    fn below(&mut self, map: &'s Map<String, Value>, step: Step<'s>, schema: &'s Value) {
        if !self.leads.leads(schema) {
            return;
        }
        self.way.push((map, step));
        self.schema(schema);
        self.way.pop();
    }

    /// Notes the maps asked about reachable from `schema` as on a way not asked.
    fn unasked_below(&mut self, schema: &'s Map<String, Value>) {
        let mut found = Vec::new();
        reachable(
            self.asked(),
            schema,
            self.root,
            &mut String::new(),
            &mut Vec::new(),
            &mut found,
        );
        self.unasked.extend(found.into_iter().map(|(map, _)| map));
    }

    /// The step into the map of `map`, at the way's end, under a key it is seen taking: the
    /// one its schema names, else the first of [`OTHER_KEYS`] that is not refused where the
    /// map sits, else one its type names refusing [`UNNAMED`] as an enum refuses an unknown
    /// variant (schemars describes a map keyed by an enum whose variants have docs as one of
    /// any key); `None` where none is.
    fn key_for(&mut self, map: &'s Map<String, Value>, values: &'s Value) -> Option<Step<'s>> {
        let named = least_key(map, self.root);
        let value = least(values, self.root, MAX_LEAST_DEPTH).unwrap_or(Value::Null);
        let map_at = self.path();
        let least = least_fields(map, self.root, MAX_LEAST_DEPTH);
        let read = |asker: &mut Self, key: &str| {
            let mut entry = least.clone();
            entry.insert(key.to_owned(), value.clone());
            asker.read_with(&entry, false, key)
        };
        // Refused where the map sits, the key was: a value is refused at its own path.
        let taken = |asker: &mut Self, key: &str| {
            read(asker, key)
                .is_some_and(|seen| !matches!(seen.failed, Some((at, _)) if at == map_at))
        };
        if let Some(key) = std::iter::once(named)
            .chain(OTHER_KEYS)
            .find(|key| taken(self, key))
        {
            return Some(Step::Key(key.into()));
        }
        let (_, refusal) = read(self, UNNAMED)?.failed?;
        let key = (variants(&refusal, UNNAMED)?.into_iter()).find(|name| taken(self, name))?;
        Some(Step::Key(key.into()))
    }

    /// Whether the map keyed by numbers at the way's end, `map`, is seen reading a key; if it
    /// is, read as an integer, the integers its key type takes.
    fn ask(&mut self, map: &'s Map<String, Value>) -> Result<Option<KeyRange>, Unread> {
        let path = self.path();
        let values = (map.lookup("patternProperties").and_then(Value::as_object))
            .and_then(|patterns| patterns.iter().find(|(pattern, _)| keys_integers(pattern)))
            .map(|(_, values)| values);
        // The map's own fields, if it has any (a struct beside a flattened map).
        let empty = least_fields(map, self.root, MAX_LEAST_DEPTH);
        let properties = map.lookup("properties").and_then(Value::as_object);
        let key = (ASKED_KEYS.into_iter())
            .find(|key| !properties.is_some_and(|properties| properties.contains_key(*key)))
            .unwrap_or(KEY);
        let with_key = |key: &str, value: Value| {
            let mut one = empty.clone();
            one.insert(key.to_owned(), value);
            one
        };
        let with = |value: Value| with_key(key, value);
        let value = values.and_then(|values| least(values, self.root, MAX_LEAST_DEPTH));
        let value = value.unwrap_or(Value::Null);
        let least = with(value.clone());
        // A key type that reads text itself is seen reading the key by the value after it: one
        // the entry's schema refuses fails at the entry. Sent only where the key is not seen
        // read as an integer: code of the type's own may trust the schema (and panic).
        let refused = (values.and_then(|values| refused_value(values, self.root))).map(with);
        let mut entry_at = Path(path.clone());
        entry_at.push_field(key);
        let at_value = |at: &str| within(at, &entry_at.0);
        let mut integers = true;
        for reversed in [false, true] {
            let as_integer =
                (self.read_with(&least, reversed, key)).is_some_and(|seen| seen.as_integer);
            integers &= as_integer;
            let read = as_integer
                || refused.as_ref().is_some_and(|refused| {
                    (self.read_with(refused, reversed, key))
                        .is_some_and(|seen| seen.failed.is_some_and(|(at, _)| at_value(&at)))
                });
            if !read {
                return Err(match self.read_with(&empty, reversed, key) {
                    Some(Seen { failed: None, .. }) => (path, BUFFERED.to_owned()),
                    Some(Seen {
                        failed: Some((at, error)),
                        left_out,
                        ..
                    }) => {
                        // serde missed a field left out before it read the map: that field's
                        // refusal is what stopped the asking.
                        let missed = (left_out.iter()).find(|out| {
                            out.object == at && error == format!("missing field `{}`", out.name)
                        });
                        let (at, error) =
                            missed.map_or((&at, &error), |out| (&out.refused.0, &out.refused.1));
                        (path, unasked_at(at, error))
                    }
                    None => (path, UNSEEN.to_owned()),
                });
            }
        }
        if !integers || self.range_work >= MAX_WORK {
            return Ok(None);
        }
        // A read that fails where the map sits, or at the entry, refused the key: the entry's
        // value is one the type takes. Work of its own, so that where it runs out a map keeps
        // its plain pattern, and is not refused.
        let work = self.work;
        let range = super::key_ranges::asked(|key| {
            let mut entry_at = Path(path.clone());
            entry_at.push_field(key);
            (self.read_with(&with_key(key, value.clone()), false, key)).is_some_and(
                |seen| !matches!(seen.failed, Some((at, _)) if at == path || at == entry_at.0),
            )
        });
        self.range_work += self.work - work;
        self.work = work;
        Ok(range)
    }
}

mod names;
mod read;

use names::ask_names;
use read::Seen;
#[cfg(test)]
mod tests;
