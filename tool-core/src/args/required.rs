//! Whether an input type may read a call that leaves out a field its schema requires: an
//! `Option` the schema calls required and not `null` (`#[schemars(required)]`, or a
//! `#[schemars(with = "T")]` of a plain `T`), or a `deserialize_with` that takes `null`. serde
//! reads such a field's `null`, and most often its absence, as `None`, and the plan trusts
//! serde with the fields a type has, so only the checker would refuse the call.
//!
//! No trait says whether a type is an `Option`, and its schema says what the schema says, so
//! the type is asked once, when its schema is prepared: arguments that put `null` at one such
//! field are read through its own deserializer, traced. Only a field whose `null` is seen
//! refused where it sits is left to serde. One whose `null` passes, or whose read the trace
//! cannot see (a field of a `#[serde(flatten)]`ed struct or of an internally tagged enum's
//! variant, read from serde's buffer), sends every call of the tool to the checker. A union of
//! several branches is not looked into: the plan sends it to the checker wherever it is sent.
//!
//! A required field whose schema takes `null` (a `serde_json::Value`, or an `Option` of one)
//! cannot be asked so: `null` is a value it takes. It is asked whether it may be left out
//! instead: its object is read with every other field at the least value its schema takes,
//! and a refusal naming the field, where the object sits, says serde holds it. Any other
//! answer sends every call of the tool to the checker.

use serde_json::{Map, Value};

use super::Read;
use super::guard::Findings;
use super::least::{MAX_LEAST_DEPTH, least, least_key};
use super::path::{Path, within};
use super::plan::Plan;
use crate::schema::keywords::{admits_null, only_solid_branch};
use crate::schema::walk::{Lookup, Root};

/// The deepest a field is looked for: a schema nested deeper is taken as one the checker
/// must see.
const MAX_DEPTH: usize = 64;

/// Whether the type `read` reads may take a call without a field that `schema`, its own
/// schema, requires and does not let be `null`.
pub(super) fn read_without(schema: &Map<String, Value>, read: &mut Read<'_>) -> bool {
    let mut asker = Asker {
        root: Root::new(schema),
        read,
        followed: Vec::new(),
        outline: Vec::new(),
    };
    asker.object(schema)
}

/// One step from the arguments down to a field.
#[derive(Clone, Copy)]
enum Step<'s> {
    Field(&'s str),
    /// The first item of an array.
    Item,
    /// A map's value, under this key.
    Entry(&'s str),
}

struct Asker<'s, 'r, 'x> {
    root: Root<'s>,
    read: &'r mut Read<'x>,
    /// The `$ref`s already looked into: a definition is asked about once, where first met.
    followed: Vec<&'s str>,
    /// Where the schema being looked at sits in the arguments.
    outline: Vec<Step<'s>>,
}

impl<'s> Asker<'s, '_, '_> {
    fn schema(&mut self, schema: &'s Value) -> bool {
        match schema.as_object() {
            Some(_) if self.outline.len() >= MAX_DEPTH => true,
            Some(map) => self.object(map),
            None => false,
        }
    }

    fn object(&mut self, map: &'s Map<String, Value>) -> bool {
        self.definition(map.lookup("$ref"))
            || self.one_branch(map.lookup("anyOf"))
            || self.one_branch(map.lookup("oneOf"))
            || (map.lookup("items"))
                .is_some_and(|items| self.below(Step::Item, |asker| asker.schema(items)))
            || (map.lookup("additionalProperties")).is_some_and(|values| {
                let key = self.key_taken(map);
                self.below(Step::Entry(key), |asker| asker.schema(values))
            })
            || self.fields(map)
    }

    /// A key the map of `map`, at the outline's end, takes: [`Asker::key_of`]'s, or else a
    /// digit (which keys of numbers and of characters both read), if the map's type is seen
    /// reading it; else `key_of`'s, under which its values are left unasked
    /// ([`Asker::key_refused`]).
    fn key_taken(&mut self, map: &'s Map<String, Value>) -> &'s str {
        let named = self.key_of(map);
        let map_at = self.path();
        [named, "0"]
            .into_iter()
            .find(|&key| {
                // Refused where the map sits, the key was: a value is refused at its own path.
                self.below(Step::Entry(key), |asker| {
                    (asker.read_at(Value::Null)).map_or_else(|(at, _)| at != map_at.0, |()| true)
                })
            })
            .unwrap_or(named)
    }

    /// A key the map of `map` takes: [`least_key`]'s.
    fn key_of(&self, map: &'s Map<String, Value>) -> &'s str {
        least_key(map, self.root)
    }

    /// Whether a read failed at `at`, a map whose key the outline's `Entry` holds: the map's
    /// type refused the key, and its values are not seen.
    fn key_refused(&self, at: &str) -> bool {
        (self.outline.iter().enumerate())
            .any(|(len, step)| matches!(step, Step::Entry(_)) && self.path_to(len).0 == at)
    }

    /// What a `$ref` points to, unless looked into already.
    fn definition(&mut self, reference: Option<&'s Value>) -> bool {
        let Some(reference) = reference.and_then(Value::as_str) else {
            return false;
        };
        if self.followed.contains(&reference) {
            return false;
        }
        self.followed.push(reference);
        let root = self.root;
        root.resolve(reference).is_some_and(|to| self.schema(to))
    }

    /// A union of one branch beside `null` (an `Option<T>` not required, an enum of one
    /// variant): what that branch reads.
    fn one_branch(&mut self, branches: Option<&'s Value>) -> bool {
        match branches.and_then(Value::as_array) {
            Some(branches) => only_solid_branch(branches).is_some_and(|only| self.schema(only)),
            None => false,
        }
    }

    /// Each field of an object schema: asked about when required, and looked into.
    fn fields(&mut self, map: &'s Map<String, Value>) -> bool {
        let Some(properties) = map.lookup("properties").and_then(Value::as_object) else {
            return false;
        };
        let required = map.lookup("required").and_then(Value::as_array);
        properties.iter().any(|(name, property)| {
            let must = required.is_some_and(|required| required.iter().any(|r| r == name));
            let takes_null = must && admits_null(property, self.root);
            (takes_null && !self.refuses_absence(properties, name))
                || self.below(Step::Field(name), |asker| {
                    (must && !takes_null && !asker.refuses_null_here()) || asker.schema(property)
                })
        })
    }

    /// Whether the type is seen refusing the object at the outline's end without `name`, a
    /// required field whose schema takes `null` (a `serde_json::Value`, which serde refuses
    /// when absent; an `Option` of one, which it takes), every other field sent as the least
    /// value its schema takes: serde names the first field it misses, in the order the schema
    /// lists them.
    fn refuses_absence(&mut self, properties: &'s Map<String, Value>, name: &str) -> bool {
        let mut object = Map::new();
        for (other, schema) in properties.iter().filter(|(other, _)| *other != name) {
            match least(schema, self.root, MAX_LEAST_DEPTH) {
                Some(least) => object.insert(other.clone(), least),
                None => return false,
            };
        }
        let here = self.path();
        let missing = format!("missing field `{name}`");
        match self.read_at(Value::Object(object)) {
            Ok(()) => false,
            Err((at, error)) => {
                (at == here.0 && error.starts_with(&missing)) || self.key_refused(&at)
            }
        }
    }

    fn below(&mut self, step: Step<'s>, f: impl FnOnce(&mut Self) -> bool) -> bool {
        self.outline.push(step);
        let found = f(self);
        self.outline.pop();
        found
    }

    /// Whether the type is seen refusing a `null` at the field the outline leads to.
    fn refuses_null_here(&mut self) -> bool {
        let path = self.path();
        self.read_at(Value::Null)
            .is_err_and(|(at, _)| within(&at, &path.0) || self.key_refused(&at))
    }

    /// The path of the outline's end, as a traced read writes it.
    fn path(&self) -> Path {
        self.path_to(self.outline.len())
    }

    /// The path of the outline's first `len` steps.
    fn path_to(&self, len: usize) -> Path {
        let mut path = Path::default();
        for step in &self.outline[..len] {
            match step {
                Step::Field(name) | Step::Entry(name) => path.push_field(name),
                Step::Item => path.push_index(0),
            }
        }
        path
    }

    /// A read of arguments holding `value` at the outline's end: where it fails, and serde's
    /// message, if it does.
    fn read_at(&mut self, value: Value) -> Result<(), (String, String)> {
        let mut arguments = value;
        for step in self.outline.iter().rev() {
            arguments = match step {
                Step::Field(name) | Step::Entry(name) => {
                    Value::Object(Map::from_iter([((*name).to_owned(), arguments)]))
                }
                Step::Item => Value::Array(vec![arguments]),
            };
        }
        let findings = Findings::traced();
        match (self.read)(&arguments.to_string(), Some((&Plan::traced(), &findings))) {
            Ok(()) => Ok(()),
            Err(error) => Err((findings.failed_at(), error.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde::de::DeserializeOwned;

    use super::*;
    use crate::args::read_typed;

    fn reads_without<T: DeserializeOwned + schemars::JsonSchema>() -> bool {
        let schema = crate::schema::input_schema::<T>();
        read_without(&schema, &mut |text, guard| {
            read_typed::<T>(text, guard).map(drop)
        })
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Plain {
        name: String,
        note: Option<String>,
        #[serde(default)]
        count: u32,
        tags: Vec<String>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Required {
        name: String,
        #[schemars(required)]
        sharer: Option<String>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        items: Vec<Required>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct OptionallyNested {
        inner: Option<Box<Required>>,
        plain: Plain,
    }

    #[derive(Deserialize, schemars::JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
    #[allow(dead_code)]
    enum Size {
        Small,
        Large,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Everyday {
        size: Size,
        boxed: Box<Plain>,
        by_name: std::collections::HashMap<String, Plain>,
        pairs: Vec<(String, u8)>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Mapped {
        by: std::collections::HashMap<String, Required>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct RequiredMap {
        // A map takes the object a wrong value might be made of.
        #[schemars(required)]
        tags: Option<std::collections::HashMap<String, Vec<String>>>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[serde(tag = "kind")]
    #[allow(dead_code)]
    enum OneVariant {
        Only {
            #[schemars(required)]
            by: Option<String>,
        },
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Tagged {
        act: Option<OneVariant>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Named {
        name: String,
        age: u8,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Flattened {
        #[serde(flatten)]
        inner: Named,
        note: Option<String>,
    }

    #[test]
    fn a_required_option_is_found_wherever_it_sits() {
        assert!(reads_without::<Required>());
        assert!(reads_without::<Nested>());
        assert!(reads_without::<OptionallyNested>());
        assert!(reads_without::<Mapped>());
        assert!(reads_without::<RequiredMap>());
        assert!(reads_without::<Tagged>());
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Keyed {
        by_letter: std::collections::HashMap<char, Named>,
        by_size: std::collections::BTreeMap<Size, Named>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct KeyedBySize {
        by_size: std::collections::BTreeMap<Size, Required>,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct ByLetter {
        by_letter: std::collections::BTreeMap<char, Required>,
    }

    #[test]
    fn a_map_s_values_are_asked_under_a_key_its_type_takes() {
        assert!(reads_without::<ByLetter>());
    }

    #[test]
    fn fields_serde_is_seen_to_hold_are_left_to_it() {
        assert!(!reads_without::<Plain>());
        assert!(!reads_without::<Everyday>());
        // A map whose keys are not any text: its values asked under a key it takes, or, where
        // none is known, left to serde.
        assert!(!reads_without::<Keyed>());
        assert!(reads_without::<KeyedBySize>());
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Stored {
        key: String,
        size: std::num::NonZeroU32,
        value: serde_json::Value,
        kind: Size,
        at: Plain,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Kept {
        key: String,
        value: serde_json::Value,
    }

    #[derive(Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct MaybeStored {
        key: String,
        #[schemars(required)]
        value: Option<serde_json::Value>,
    }

    #[test]
    fn a_required_field_that_takes_null_is_asked_whether_it_may_be_left_out() {
        // serde refuses a `Value` left out, and reads an `Option` of one left out as `None`.
        assert!(!reads_without::<Stored>());
        assert!(reads_without::<MaybeStored>());
        // So a tool taking a `Value` is read by serde alone, with no plan.
        let schema = crate::schema::input_schema::<Kept>();
        let prepared = crate::args::prepared::Prepared::of_type::<Kept>(schema);
        assert!(prepared.plan.is_none());
        let schema = crate::schema::input_schema::<MaybeStored>();
        let prepared = crate::args::prepared::Prepared::of_type::<MaybeStored>(schema);
        assert!(prepared.plan.is_some());
    }

    #[test]
    fn a_field_the_trace_cannot_see_is_left_to_the_checker() {
        // Read from serde's buffer, `name` refuses `null` where the trace does not see it.
        assert!(reads_without::<Flattened>());
    }
}
