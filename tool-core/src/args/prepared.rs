//! A tool's input schema made ready for the parser once, when the tool is first used: its
//! `pattern`s compiled, and whether arguments serde accepts must still be held against it
//! (they must when the schema says more than the Rust type does: a bound, a length, a
//! pattern, a format, a nested object that may not take fields it does not name).

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::Read;
use super::guard::Findings;
use super::plan::Plan;
use crate::schema::patterns::Patterns;
use crate::schema::recursion::read_without_end;
use crate::schema::walk;

/// A tool's input schema, ready for the parser.
#[derive(Debug)]
pub struct Prepared {
    schema: Map<String, Value>,
    patterns: Patterns,
    /// How to check a call serde accepted, when the schema says more than serde checks.
    pub(super) plan: Option<Plan>,
    /// Whether some object schema in it requires a field its `properties` do not describe.
    required_elsewhere: bool,
    /// The fields a closed object at its top shows.
    names: Option<Box<[String]>>,
    /// The maps keyed by numbers its type is not seen reading a key of (`keyed.rs`): where
    /// each sits, and what to do.
    unread_keys: Vec<(String, String)>,
}

/// What the parser reads of a schema.
#[derive(Clone, Copy)]
pub(super) struct View<'s> {
    pub(super) schema: &'s Map<String, Value>,
    pub(super) patterns: &'s Patterns,
    pub(super) plan: Option<&'s Plan>,
    /// Whether some object schema in it requires a field its `properties` do not describe:
    /// the checker looks for required fields beyond the properties only then.
    pub(super) required_elsewhere: bool,
}

impl<'s> View<'s> {
    /// What the parser reads of a schema met once, with nothing worked out ahead: no pattern
    /// compiled, no plan, and every required field looked for.
    pub(super) fn unprepared(schema: &'s Map<String, Value>) -> View<'s> {
        View {
            schema,
            patterns: &crate::schema::patterns::NONE,
            plan: None,
            required_elsewhere: true,
        }
    }
}

impl Prepared {
    /// `schema`, with what the parser needs of it worked out.
    pub fn new(schema: Map<String, Value>) -> Prepared {
        Prepared::planned(schema, |schema, patterns| Plan::of(schema, patterns, false))
    }

    /// [`Prepared::new`], its plan made by `plan`.
    fn planned(
        schema: Map<String, Value>,
        plan: impl FnOnce(&Map<String, Value>, &Patterns) -> Plan,
    ) -> Prepared {
        let patterns = Patterns::of(&schema);
        let plan = Some(plan(&schema, &patterns)).filter(Plan::checks_beyond_serde);
        Prepared {
            required_elsewhere: requires_beyond_properties(&schema),
            names: names(&schema),
            schema,
            patterns,
            plan,
            unread_keys: Vec::new(),
        }
    }

    /// [`Prepared::new`] for `schema`, the schema of `T`. `T` itself is read a few times, to
    /// learn whether it may take a call that leaves out a field the schema requires: then every
    /// call is held to the checker, which refuses it missing, as the schema says; else none
    /// goes to the checker for such a field.
    pub(crate) fn of_type<T: DeserializeOwned>(schema: Map<String, Value>) -> Prepared {
        Prepared::for_type(schema, &mut |text, guard| {
            super::read_typed::<T>(text, guard).map(drop)
        })
    }

    fn for_type(schema: Map<String, Value>, read: &mut Read<'_>) -> Prepared {
        // Asked with values a call may not send (a `null`, a value of another type), a type's
        // own `Deserialize` may panic (a `deserialize_with` that trusts the guard): taken as a
        // refusal, when the registry is made, where it would end the program.
        let mut read = |text: &str, guard: Option<(&Plan, &Findings)>| {
            catch_unwind(AssertUnwindSafe(|| read(text, guard))).unwrap_or_else(|_| {
                Err(serde::de::Error::custom(
                    "the input type's deserializer panicked",
                ))
            })
        };
        // Asked, the type says whether serde holds every field the schema requires, and
        // whether it reads the keys of its maps keyed by numbers, and which. A type serde
        // would read without end is not asked (the registry refuses it when it is made), and
        // until then every call of it goes to the checker.
        let endless = read_without_end(&schema);
        let read_without = endless || super::required::read_without(&schema, &mut read);
        let asked = match endless {
            true => super::keyed::Asked::default(),
            false => super::keyed::ask(&schema, &mut read),
        };
        let schema = super::named_keys::name(schema, &asked.named, &asked.ranges);
        let schema = super::key_ranges::narrow(schema, &asked.ranges);
        let unread_keys = asked.unread;
        let prepared = Prepared::planned(schema, |schema, patterns| match read_without {
            true => Plan::handed_over(),
            false => Plan::of(schema, patterns, true),
        });
        Prepared {
            unread_keys,
            ..prepared
        }
    }

    /// The schema itself.
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    /// The maps keyed by numbers in the schema that its type is not seen reading a key of:
    /// the path of each, and what to do. Building a registry refuses the tool for them.
    pub(crate) fn unread_keys(&self) -> &[(String, String)] {
        &self.unread_keys
    }

    pub(super) fn view(&self) -> View<'_> {
        View {
            schema: &self.schema,
            patterns: &self.patterns,
            plan: self.plan.as_ref(),
            required_elsewhere: self.required_elsewhere,
        }
    }

    /// The fields a closed object at the schema's top shows: the only ones an input struct is
    /// let read (`top_level.rs`).
    pub(super) fn names(&self) -> Option<&[String]> {
        self.names.as_deref()
    }
}

/// The fields `schema` shows at its top, when it takes no others.
fn names(schema: &Map<String, Value>) -> Option<Box<[String]>> {
    if schema.get("additionalProperties") != Some(&Value::Bool(false))
        || schema.contains_key("patternProperties")
    {
        return None;
    }
    let shown = schema.get("properties").and_then(Value::as_object);
    Some(shown.map_or_else(Default::default, |shown| shown.keys().cloned().collect()))
}

/// Whether some object schema in `schema` (itself, its `$defs` and every subschema) requires a
/// field that its own `properties` do not describe, as `anyOf: [{"required": ["phone"]}]`
/// beside an object's `properties` does. The types schemars describes never do.
fn requires_beyond_properties(schema: &Map<String, Value>) -> bool {
    let mut found = false;
    let mut root = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, _| {
        let properties = map.get("properties").and_then(Value::as_object);
        let beyond = |key: &str| !properties.is_some_and(|properties| properties.contains_key(key));
        found |= map
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|required| required.iter().filter_map(Value::as_str).any(beyond));
    });
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn beyond(schema: Value) -> bool {
        match schema {
            Value::Object(map) => requires_beyond_properties(&map),
            _ => unreachable!("each schema here is an object"),
        }
    }

    #[test]
    fn a_field_required_outside_its_object_s_properties_is_found_wherever_it_sits() {
        // As schemars writes a struct: every required field is a property.
        let plain = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/B"}},
            "required": ["a"],
            "$defs": {"B": {"type": "object", "properties": {"c": {}}, "required": ["c"]}},
        });
        assert!(!beyond(plain));
        // In a branch beside the properties, in a definition, in `then`, in a nested field.
        assert!(beyond(
            json!({"properties": {"phone": {}}, "anyOf": [{"required": ["phone"]}]})
        ));
        assert!(beyond(
            json!({"$defs": {"B": {"properties": {}, "required": ["c"]}}})
        ));
        assert!(beyond(json!({"if": {}, "then": {"required": ["x"]}})));
        assert!(beyond(json!({"properties": {"a": {"required": ["b"]}}})));
        assert!(beyond(json!({"required": ["a"]})));
    }
}
