//! A schema as every export starts from it: each `$ref` written out in full, since not every
//! provider or client follows one, and only JSON Schema's own `format`s.
//!
//! schemars points into `$defs`; a remote server's schema may point anywhere in itself, by a
//! JSON Pointer: into draft-07's `definitions` (pydantic 1), at the first place a type was
//! written (`#/properties/from`, as zod-to-json-schema and .NET's exporter write a type used
//! twice), or at the root (`#`). Each is written out the same way; a recursive one that is not
//! into `$defs` leaves the schema as written for a provider that follows `$ref`s, which can
//! follow it there, and stops a form that follows none (OpenAI's strict mode, then left off).
//!
//! Written out in full, a type used at several places inside a type used at several places is
//! copied as many times as the product of those uses, so a schema of a few definitions can
//! grow past what any model reads (or the memory of the process making it); so does a
//! definition of many fields used at many places. Past [`MAX_WRITTEN_OUT`] copies or
//! [`MAX_COPIED_VALUES`] values, a provider that follows `$ref` is shown the definitions as
//! written, and a form that follows none is not made. A chain of `$ref`s longer than
//! [`MAX_REFS_INSIDE`] is refused for every provider.

use serde_json::{Map, Value};

use crate::providers::dialect::{SchemaError, error, standard_formats};
use crate::schema::as_meant::as_meant;
use crate::schema::walk;

/// What to do with a `$ref` to a definition that is already being inlined (a recursive type).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// Leave a `$ref` to it and keep that definition in `$defs`.
    KeepRef,
    /// Refuse: the form being made takes no `$ref` (OpenAI's strict mode, which is then left
    /// off).
    Refuse,
}

/// A schema as every export starts from it: each `$ref` inlined (recursive ones kept, with
/// the `$defs` they need, or refused, as `recursion` says), only standard `format`s (see
/// [`standard_formats`]), and a foreign serializer's slips written as meant
/// (`schema/as_meant.rs`).
pub(crate) fn exportable(
    schema: &Map<String, Value>,
    recursion: Recursion,
) -> Result<Map<String, Value>, SchemaError> {
    let mut meant = Value::Object(schema.clone());
    as_meant(&mut meant).map_err(|fault| {
        error(
            &fault.path,
            format!(
                "this tool's server wrote a schema no provider can be shown: {}, where JSON \
                 Schema asks for {}; ask the server's authors to mend it, or leave the tool out \
                 of the registry (`RemoteToolkit::without`)",
                fault.said, fault.asked
            ),
        )
    })?;
    let Value::Object(meant) = meant else {
        unreachable!("an object stays an object")
    };
    let mut inlined = Value::Object(inline_refs(&meant, recursion)?);
    standard_formats(&mut inlined);
    match inlined {
        Value::Object(mut map) => {
            without_dangling_mappings(&mut map);
            Ok(map)
        }
        _ => unreachable!("an object stays an object"),
    }
}

/// Takes out each `discriminator`'s `mapping` (OpenAPI's, as pydantic writes a tagged union)
/// that names a definition the schema no longer holds, its `$ref`s written out: it would point
/// at nothing. Its `propertyName`, the field that tells the variants apart, stays. A walk over
/// every value, as a `discriminator` is no keyword `walk` reads.
pub(crate) fn without_dangling_mappings(schema: &mut Map<String, Value>) {
    const DATA: [&str; 4] = ["const", "default", "enum", "examples"];
    fn holds_discriminator(value: &Value) -> bool {
        match value {
            Value::Object(map) => {
                map.contains_key("discriminator") || map.values().any(holds_discriminator)
            }
            Value::Array(items) => items.iter().any(holds_discriminator),
            _ => false,
        }
    }
    fn mend(value: &mut Value, resolves: &dyn Fn(&Value) -> bool) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(discriminator)) = map.get_mut("discriminator")
                    && let Some(Value::Object(mapping)) = discriminator.get("mapping")
                    && !mapping.values().all(resolves)
                {
                    discriminator.shift_remove("mapping");
                }
                // Values a schema lists are data, not schemas: left as they are.
                (map.iter_mut())
                    .filter(|(key, _)| !DATA.contains(&key.as_str()))
                    .for_each(|(_, value)| mend(value, resolves));
            }
            Value::Array(items) => items.iter_mut().for_each(|item| mend(item, resolves)),
            _ => {}
        }
    }
    if !schema.values().any(holds_discriminator) && !schema.contains_key("discriminator") {
        return;
    }
    let written = schema.clone();
    let root = walk::Root::new(&written);
    let resolves = |target: &Value| {
        (target.as_str()).is_some_and(|target| target == "#" || root.resolve(target).is_some())
    };
    let mut whole = Value::Object(std::mem::take(schema));
    mend(&mut whole, &resolves);
    if let Value::Object(map) = whole {
        *schema = map;
    }
}

/// How many times one export writes a definition out in place of a `$ref`.
pub(crate) const MAX_WRITTEN_OUT: usize = 1024;

/// How many JSON values (keywords, properties, items) one export copies in place of `$ref`s:
/// a definition of many fields written out at many places grows as fast as one nested in
/// many places.
pub(crate) const MAX_COPIED_VALUES: usize = 200_000;

/// How many schemas reached through `$ref`s one inside another are written out, the first
/// holding the `$ref` to the second and so on: a longer chain is refused, for every provider,
/// since whatever read it, a client or the checker, would follow it as deep.
pub(crate) const MAX_REFS_INSIDE: usize = 64;

/// How many JSON values `value` holds, itself counted.
fn values_in(value: &Value) -> usize {
    1 + match value {
        Value::Object(map) => map.values().map(values_in).sum(),
        Value::Array(items) => items.iter().map(values_in).sum(),
        _ => 0,
    }
}

/// Inlines every `$ref` into `#/$defs/...`; recursive ones are kept (with the `$defs` they
/// need) or refused, as `recursion` says. Past [`MAX_WRITTEN_OUT`] copies or
/// [`MAX_COPIED_VALUES`] values, the schema as written, or refused, as `recursion` says.
fn inline_refs(
    schema: &Map<String, Value>,
    recursion: Recursion,
) -> Result<Map<String, Value>, SchemaError> {
    match write_out(schema, recursion) {
        Err(Stop::TooMany { .. } | Stop::Recursive) if recursion == Recursion::KeepRef => {
            Ok(schema.clone())
        }
        Err(Stop::TooMany { path, name }) => Err(error(
            &path,
            format!(
                "this provider follows no `$ref`, and with each use of a type written out in \
                 full the schema would copy its definitions more than {MAX_WRITTEN_OUT} times \
                 or write more than {MAX_COPIED_VALUES} values (`{name}` here: a type used at \
                 several places inside one used at several places is copied the product of \
                 those times); leave this provider out (`Registry::builder().providers([..])`), \
                 or nest fewer uses of one type"
            ),
        )),
        Err(Stop::Schema(error)) => Err(error),
        Err(Stop::Recursive) => unreachable!("a recursive pointer is refused where it is met"),
        Ok(root) => Ok(root),
    }
}

/// Why writing the references out stopped.
enum Stop {
    /// The schema cannot be written so.
    Schema(SchemaError),
    /// [`MAX_WRITTEN_OUT`] copies were made; the next was of `name`, at `path`.
    TooMany { path: String, name: String },
    /// A `$ref` that is not into `$defs` leads back into itself: such a reference cannot be
    /// kept beside the definitions kept for recursion, so the schema is kept as written.
    Recursive,
}

impl From<SchemaError> for Stop {
    fn from(error: SchemaError) -> Self {
        Stop::Schema(error)
    }
}

fn write_out(
    schema: &Map<String, Value>,
    recursion: Recursion,
) -> Result<Map<String, Value>, Stop> {
    let mut inliner = Inliner {
        root: walk::Root::new(schema),
        stack: Vec::new(),
        kept: Vec::new(),
        recursion,
        written: 0,
        copied: 0,
    };
    let mut root = schema.clone();
    root.remove("$defs");
    // Draft-07's definitions, each written out where a `$ref` points to it.
    root.remove("definitions");
    let mut root = Value::Object(root);
    inliner.inline(&mut root, &mut String::new())?;
    let Value::Object(mut root) = root else {
        unreachable!("an object stays an object")
    };
    // Definitions kept for recursion are themselves inlined, except their recursive refs.
    let mut kept_defs = Map::new();
    let mut done = 0;
    while done < inliner.kept.len() {
        let name = inliner.kept[done].clone();
        done += 1;
        if let Some(def) = inliner.root.definition(&name) {
            let mut def = def.clone();
            inliner.stack.push(name.clone());
            inliner.inline(&mut def, &mut format!("$defs.{name}"))?;
            inliner.stack.pop();
            kept_defs.insert(name, def);
        }
    }
    if !kept_defs.is_empty() {
        root.insert("$defs".into(), Value::Object(kept_defs));
    }
    Ok(root)
}

struct Inliner<'a> {
    /// The schema as written, into which its `$ref`s point.
    root: walk::Root<'a>,
    stack: Vec<String>,
    kept: Vec<String>,
    recursion: Recursion,
    /// Definitions written out so far.
    written: usize,
    /// JSON values (every keyword, property and item) copied into the schema so far.
    copied: usize,
}

impl Inliner<'_> {
    fn inline(&mut self, schema: &mut Value, path: &mut String) -> Result<(), Stop> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str).map(str::to_owned) {
            // A name `$defs` has, or else a JSON Pointer's steps.
            let defined = walk::definition_name(&reference)
                .and_then(|name| Some((name.to_owned(), self.root.definition(name)?.clone())));
            let Some((name, target)) = defined else {
                let target = self.pointed_at(&reference, path)?;
                return self.write_out(map, reference, target, path);
            };
            if self.stack.contains(&name) {
                return match self.recursion {
                    Recursion::KeepRef => {
                        if !self.kept.contains(&name) {
                            self.kept.push(name);
                        }
                        Ok(())
                    }
                    Recursion::Refuse => Err(error(
                        path,
                        format!(
                            "`{name}` contains itself, and this provider accepts no `$ref` to \
                             describe a recursive type; bound its depth or take it as a string"
                        ),
                    )
                    .into()),
                };
            }
            return self.write_out(map, name, target, path);
        }
        walk::children_mut(map, |slot, child| {
            let length = walk::push_slot(path, slot);
            let inlined = self.inline(child, path);
            path.truncate(length);
            inlined
        })?;
        // A `$ref` left in a `not` or a `contains` would point into definitions no longer sent.
        walk::other_children_mut(map, |child| self.inline(child, path))
    }

    /// What a `$ref` that is not into `$defs` points at: a JSON Pointer into the schema as
    /// written (`#/definitions/Point`, `#/properties/from`, `#`). A recursive one is kept as
    /// written, or refused, as `recursion` says.
    fn pointed_at(&self, reference: &str, path: &str) -> Result<Value, Stop> {
        if self.stack.iter().any(|seen| seen == reference) {
            return match self.recursion {
                Recursion::KeepRef => Err(Stop::Recursive),
                Recursion::Refuse => Err(error(
                    path,
                    format!(
                        "`{reference}` contains itself, and this provider accepts no `$ref` to \
                         describe a recursive type; leave the provider out of the registry's \
                         providers (`Registry::builder().providers([..])`)"
                    ),
                )
                .into()),
            };
        }
        let target = match reference {
            "#" => Some(Value::Object(self.root.whole().clone())),
            reference => self.root.pointer(reference).cloned(),
        };
        target.ok_or_else(|| {
            let problem = format!(
                "`$ref` {reference} points at nothing in the schema (only `#` and JSON Pointers \
                 into the schema itself are followed)"
            );
            error(path, problem).into()
        })
    }

    /// Writes `target`, what the `$ref` of `map` points at (`key`: the definition's name or
    /// the pointer), in the `$ref`'s place, what was written beside the `$ref` (a field's
    /// description) winning.
    fn write_out(
        &mut self,
        map: &mut Map<String, Value>,
        key: String,
        target: Value,
        path: &str,
    ) -> Result<(), Stop> {
        if self.stack.len() == MAX_REFS_INSIDE {
            return Err(error(
                path,
                format!(
                    "its `$ref`s lead through more than {MAX_REFS_INSIDE} schemas, one inside \
                     another, which no model reads; leave the tool out of the registry \
                     (a remote one with `RemoteToolkit::without`)"
                ),
            )
            .into());
        }
        self.copied += values_in(&target);
        if self.written == MAX_WRITTEN_OUT || self.copied > MAX_COPIED_VALUES {
            let (path, name) = (path.to_owned(), key);
            return Err(Stop::TooMany { path, name });
        }
        self.written += 1;
        let mut inlined = Value::Object(match target {
            Value::Object(target) => target,
            Value::Bool(true) => Map::new(),
            // No value holds: said so in a form every provider reads.
            Value::Bool(false) => Map::from_iter([("not".to_owned(), Value::Object(Map::new()))]),
            other => {
                let problem = format!("`$ref` {key} points at {other}, which is no schema");
                return Err(error(path, problem).into());
            }
        });
        map.remove("$ref");
        let siblings = std::mem::take(map);
        self.stack.push(key);
        let result = self.inline(&mut inlined, &mut path.to_owned());
        self.stack.pop();
        result?;
        if let Value::Object(mut inlined) = inlined {
            inlined.extend(siblings);
            *map = inlined;
        }
        Ok(())
    }
}
