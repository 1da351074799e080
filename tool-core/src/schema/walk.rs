//! The one walk over a JSON Schema: which keywords hold subschemas, where a `$ref` leads, and
//! how far a description follows schemas inside schemas. The argument checker, the describer,
//! the provider dialects and the registry's checks all go through it, so that a keyword that
//! holds a subschema is named in one place.
//!
//! It reads schemas as schemars writes them (JSON Schema 2020-12, nested types in `$defs`,
//! local `$ref`s) and as a remote server may send them; it changes nothing itself.

use serde_json::{Map, Value};

/// How many schemas inside one another (through `$ref`s, items, branches) a description
/// follows before it stops: a schema whose `$ref`s go round in a circle is described in
/// finitely many words.
pub(crate) const MAX_NESTED_SCHEMAS: usize = 8;

/// Where a subschema sits in the schema that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot<'k> {
    /// `properties.<name>`: the field `name` of an object.
    Property(&'k str),
    /// `items`: every element of an array that `prefixItems` does not cover.
    Items,
    /// `prefixItems[i]`: the element at one position of a tuple.
    PrefixItem,
    /// `additionalProperties`, or a schema of `patternProperties`: the values of a map, or of
    /// the fields `properties` leaves out.
    AdditionalProperties,
    /// A branch of `anyOf`, `oneOf` or `allOf`, or `if`, `then` or `else`: another schema for
    /// the same value.
    Branch,
}

/// Visits the direct subschemas of a schema object, in the order of its keys; the same body
/// serves shared and mutable walks, so the keywords are listed once.
macro_rules! visit_children {
    ($map:expr, $visit:ident, $iter:ident) => {
        for (key, value) in $map.$iter() {
            match (key.as_str(), value) {
                ("properties", Value::Object(properties)) => {
                    for (name, property) in properties.$iter() {
                        $visit(Slot::Property(name), property)?;
                    }
                }
                ("items", value) => $visit(Slot::Items, value)?,
                ("additionalProperties", value) => $visit(Slot::AdditionalProperties, value)?,
                ("patternProperties", Value::Object(patterns)) => {
                    for (_, values) in patterns.$iter() {
                        $visit(Slot::AdditionalProperties, values)?;
                    }
                }
                ("prefixItems", Value::Array(items)) => {
                    for item in items.$iter() {
                        $visit(Slot::PrefixItem, item)?;
                    }
                }
                ("anyOf" | "oneOf" | "allOf", Value::Array(branches)) => {
                    for branch in branches.$iter() {
                        $visit(Slot::Branch, branch)?;
                    }
                }
                ("if" | "then" | "else", branch) => $visit(Slot::Branch, branch)?,
                _ => {}
            }
        }
    };
}

/// Calls `visit` on each direct subschema of `map` with its slot; stops at the first error.
/// `$defs` holds no child: definitions are reached through `$ref`s (see [`Root`]), or all at
/// once with [`every_subschema_mut`].
pub(crate) fn children<'s, E>(
    map: &'s Map<String, Value>,
    mut visit: impl FnMut(Slot<'s>, &'s Value) -> Result<(), E>,
) -> Result<(), E> {
    visit_children!(map, visit, iter);
    Ok(())
}

/// [`children`], for a walk that rewrites the subschemas.
pub(crate) fn children_mut<E>(
    map: &mut Map<String, Value>,
    mut visit: impl FnMut(Slot<'_>, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    visit_children!(map, visit, iter_mut);
    Ok(())
}

/// Calls `visit` on each subschema of `map` that [`children`] leaves: those of the keywords
/// that say more of the same value (`not`, `propertyNames`, `dependentSchemas` and draft-07's
/// `dependencies`), of its items (`contains`, `unevaluatedItems`) or of its other fields
/// (`unevaluatedProperties`). A walk that reads what a value is made of leaves them to the
/// checker; one that must reach every `$ref` a schema holds, as writing them out must, visits
/// these too. (A draft-07 tuple's items are read as 2020-12's `prefixItems`, which [`children`]
/// visits, before an export writes out a `$ref`: `schema/as_meant.rs`.)
pub(crate) fn other_children_mut<E>(
    map: &mut Map<String, Value>,
    mut visit: impl FnMut(&mut Value) -> Result<(), E>,
) -> Result<(), E> {
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("dependentSchemas" | "dependencies", Value::Object(schemas)) => {
                schemas.values_mut().try_for_each(&mut visit)?;
            }
            (
                "not" | "propertyNames" | "contains" | "unevaluatedItems" | "unevaluatedProperties",
                value,
            ) => visit(value)?,
            _ => {}
        }
    }
    Ok(())
}

/// Appends to `path` (`items[].children`) the part `slot` adds, and returns the length to
/// truncate it back to. A branch or a tuple's element describes the same field.
pub(crate) fn push_slot(path: &mut String, slot: Slot<'_>) -> usize {
    let length = path.len();
    match slot {
        Slot::Property(name) => {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
        }
        Slot::Items | Slot::AdditionalProperties => path.push_str("[]"),
        Slot::PrefixItem | Slot::Branch => {}
    }
    length
}

/// Calls `visit` on every subschema object of `schema` (itself and its definitions included,
/// in `$defs` or draft-07's `definitions`), with the path of the field it describes
/// (`$defs.Name...` inside a definition).
pub(crate) fn every_subschema_mut(
    schema: &mut Value,
    path: &mut String,
    visit: &mut dyn FnMut(&mut Map<String, Value>, &str),
) {
    let Value::Object(map) = schema else {
        return;
    };
    visit(map, path);
    for keyword in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = map.get_mut(keyword) {
            for (name, def) in defs.iter_mut() {
                every_subschema_mut(def, &mut format!("{keyword}.{name}"), visit);
            }
        }
    }
    let _ = children_mut::<()>(map, |slot, child| {
        let length = push_slot(path, slot);
        every_subschema_mut(child, path, visit);
        path.truncate(length);
        Ok(())
    });
}

/// The name of the definition a local `$ref` (`#/$defs/Name`) points to. A name no definition
/// has (`A/properties/b`, `c~1d`) is a JSON Pointer's steps instead ([`Root::pointer`]).
pub(crate) fn definition_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/$defs/")
}

/// A schema's root, into which its `$ref`s point.
#[derive(Clone, Copy)]
pub(crate) struct Root<'s>(&'s Map<String, Value>);

impl<'s> Root<'s> {
    pub(crate) fn new(root: &'s Map<String, Value>) -> Self {
        Root(root)
    }

    /// The schema a `$ref` points to, if it is local and defined: into `$defs`, as schemars
    /// writes, or by any other JSON Pointer into the schema, as a remote server may
    /// (`#/definitions/Point`, `#/properties/from`); not the root itself (`#`), which is no
    /// value held in it: [`Root::deref`] and [`Root::whole`] give that one.
    pub(crate) fn resolve(self, reference: &str) -> Option<&'s Value> {
        let defined = definition_name(reference).and_then(|name| self.definition(name));
        defined.or_else(|| self.pointer(reference))
    }

    /// The definition `name` of the root's `$defs`.
    pub(crate) fn definition(self, name: &str) -> Option<&'s Value> {
        self.0.lookup("$defs")?.as_object()?.lookup(name)
    }

    /// What a JSON Pointer into the root (`#/definitions/Point`) leads to; `None` for the root
    /// itself (`#`), which is no value held in it. A `$ref` is a URI, so the pointer in its
    /// fragment is percent-decoded first (`#/$defs/Shelf%20Item`, RFC 6901's section 6); one
    /// that does not decode, or leads nowhere decoded, is followed as written, as a server may
    /// name a definition `100%`.
    pub(crate) fn pointer(self, reference: &str) -> Option<&'s Value> {
        let steps = reference.strip_prefix("#/")?;
        let decoded = (steps.contains('%'))
            .then(|| percent_decoded(steps))
            .flatten()
            .and_then(|decoded| self.steps(&decoded));
        decoded.or_else(|| self.steps(steps))
    }

    /// What the steps of a JSON Pointer (`definitions/Point`, without its first `/`) lead to.
    fn steps(self, steps: &str) -> Option<&'s Value> {
        let (first, rest) = steps.split_at(steps.find('/').unwrap_or(steps.len()));
        let first = first.replace("~1", "/").replace("~0", "~");
        self.0.lookup(&first)?.pointer(rest)
    }

    /// The schema's own object, following one `$ref` if it is one (`#`: the root's).
    pub(crate) fn deref(self, schema: &'s Value) -> Option<&'s Map<String, Value>> {
        let map = schema.as_object()?;
        match map.lookup("$ref").and_then(Value::as_str) {
            Some("#") => Some(self.0),
            Some(reference) => self.resolve(reference)?.as_object(),
            None => Some(map),
        }
    }

    /// The root itself, which a `$ref` of `#` points to.
    pub(crate) fn whole(self) -> &'s Map<String, Value> {
        self.0
    }
}

/// `text` with each `%` and two hex digits made the byte they name, if that is UTF-8 and each
/// `%` is followed by two hex digits. Written here rather than taken from a crate: this is all
/// of percent-decoding a pointer needs, and no crate a server builds already has it.
fn percent_decoded(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, after)) = rest.split_first() {
        rest = after;
        if byte != b'%' {
            bytes.push(byte);
            continue;
        }
        let hex = |at: usize| char::from(*rest.get(at)?).to_digit(16);
        let (high, low) = (hex(0)?, hex(1)?);
        bytes.push(u8::try_from(high * 16 + low).ok()?);
        rest = rest.get(2..)?;
    }
    String::from_utf8(bytes).ok()
}

/// Finding a key in a small map (a schema object's handful of keywords, a struct's fields) by
/// comparing keys, which costs less than hashing the key as `Map::get` does.
pub(crate) trait Lookup {
    /// The value of `key`.
    fn lookup(&self, key: &str) -> Option<&Value>;
}

impl Lookup for Map<String, Value> {
    // Hot in the checker, and small: a call costs as much as the look. Always: a hint alone is
    // dropped as the checker's functions grow.
    #[inline(always)]
    fn lookup(&self, key: &str) -> Option<&Value> {
        if self.len() > 8 {
            return self.get(key);
        }
        self.iter()
            .find_map(|(name, value)| (name == key).then_some(value))
    }
}
