//! A schema as every export starts from it: each `$ref` written out in full, since not every
//! provider or client follows one, and only JSON Schema's own `format`s.
//!
//! schemars points into `$defs`; a remote server's schema may point anywhere in itself, by a
//! JSON Pointer: into draft-07's `definitions` (pydantic 1), at the first place a type was
//! written (`#/properties/from`, as zod-to-json-schema and .NET's exporter write a type used
//! twice), or at the root (`#`). Each is written out the same way; a recursive one that is not
//! into `$defs` leaves the schema as written for a provider that follows `$ref`s, which can
//! follow it there, and is refused for one that follows none.
//!
//! Written out in full, a type used at several places inside a type used at several places is
//! copied as many times as the product of those uses, so a schema of a few definitions can
//! grow past what any model reads (or the memory of the process making it). Past
//! [`MAX_WRITTEN_OUT`] copies, a provider that follows `$ref` is shown the definitions as
//! written, and one that follows none refuses the schema.

use serde_json::{Map, Value};

use crate::providers::dialect::{SchemaError, error, standard_formats};
use crate::schema::walk;

/// What to do with a `$ref` to a definition that is already being inlined (a recursive type).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// Leave a `$ref` to it and keep that definition in `$defs`.
    KeepRef,
    /// Refuse: the provider accepts no `$ref`.
    Refuse,
}

/// A schema as every export starts from it: each `$ref` inlined (recursive ones kept, with
/// the `$defs` they need, or refused, as `recursion` says), and only standard `format`s (see
/// [`standard_formats`]).
pub(crate) fn exportable(
    schema: &Map<String, Value>,
    recursion: Recursion,
) -> Result<Map<String, Value>, SchemaError> {
    let mut inlined = Value::Object(inline_refs(schema, recursion)?);
    standard_formats(&mut inlined);
    match inlined {
        Value::Object(map) => Ok(map),
        _ => unreachable!("an object stays an object"),
    }
}

/// How many times one export writes a definition out in place of a `$ref`.
pub(crate) const MAX_WRITTEN_OUT: usize = 1024;

/// Inlines every `$ref` into `#/$defs/...`; recursive ones are kept (with the `$defs` they
/// need) or refused, as `recursion` says. Past [`MAX_WRITTEN_OUT`] copies, the schema as
/// written, or refused, as `recursion` says.
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
                 (`{name}` here: a type used at several places inside one used at several \
                 places is copied the product of those times); leave this provider out \
                 (`Registry::builder().providers([..])`), or nest fewer uses of one type"
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
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let whole = Value::Object(schema.clone());
    let mut inliner = Inliner {
        defs: &defs,
        whole: &whole,
        stack: Vec::new(),
        kept: Vec::new(),
        recursion,
        written: 0,
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
        if let Some(def) = defs.get(&name) {
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
    defs: &'a Map<String, Value>,
    /// The schema as written, into which a `$ref` that is not into `$defs` points.
    whole: &'a Value,
    stack: Vec<String>,
    kept: Vec<String>,
    recursion: Recursion,
    /// Definitions written out so far.
    written: usize,
}

impl Inliner<'_> {
    fn inline(&mut self, schema: &mut Value, path: &mut String) -> Result<(), Stop> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str).map(str::to_owned) {
            let Some(name) = walk::definition_name(&reference).map(str::to_owned) else {
                return self.write_out_pointer(map, &reference, path);
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
            if self.written == MAX_WRITTEN_OUT {
                let path = path.clone();
                return Err(Stop::TooMany { path, name });
            }
            self.written += 1;
            let target = self
                .defs
                .get(&name)
                .cloned()
                .ok_or_else(|| error(path, format!("no definition named `{name}`")))?;
            map.remove("$ref");
            let siblings = std::mem::take(map);
            let mut inlined = target;
            self.stack.push(name);
            let result = self.inline(&mut inlined, path);
            self.stack.pop();
            result?;
            if let Value::Object(mut inlined) = inlined {
                // What was written beside the `$ref` (a field's description) wins.
                inlined.extend(siblings);
                *map = inlined;
            }
            return Ok(());
        }
        walk::children_mut(map, |slot, child| {
            let length = walk::push_slot(path, slot);
            let inlined = self.inline(child, path);
            path.truncate(length);
            inlined
        })
    }

    /// Writes out a `$ref` that is not into `$defs`: a JSON Pointer into the schema as
    /// written (`#/definitions/Point`, `#/properties/from`, `#`).
    fn write_out_pointer(
        &mut self,
        map: &mut Map<String, Value>,
        reference: &str,
        path: &str,
    ) -> Result<(), Stop> {
        let target = (reference.strip_prefix('#'))
            .and_then(|pointer| self.whole.pointer(pointer))
            .ok_or_else(|| {
                error(
                    path,
                    format!(
                        "`$ref` {reference} points at nothing in the schema (only `#` and \
                         JSON Pointers into the schema itself are followed)"
                    ),
                )
            })?;
        if self.stack.iter().any(|seen| seen == reference) {
            return match self.recursion {
                Recursion::KeepRef => Err(Stop::Recursive),
                Recursion::Refuse => Err(error(
                    path,
                    format!(
                        "`{reference}` contains itself, and this provider accepts no `$ref` to \
                         describe a recursive type; leave the provider out of the registry's \
                         (`Registry::builder().providers([..])`)"
                    ),
                )
                .into()),
            };
        }
        if self.written == MAX_WRITTEN_OUT {
            let (path, name) = (path.to_owned(), reference.to_owned());
            return Err(Stop::TooMany { path, name });
        }
        self.written += 1;
        let mut inlined = target.clone();
        map.remove("$ref");
        let siblings = std::mem::take(map);
        self.stack.push(reference.to_owned());
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
