//! Definitions serde would read without end: one that is only a chain of `$ref`s back to
//! itself (`struct A(Box<A>)`), whatever the input, and a union one of whose variants reads the
//! same value as the union again (an untagged `Again(Box<Nest>)`), on a value its other
//! variants refuse. serde reads a call before the schema's checker does, and the registry asks
//! an input type about its fields with values no variant may take, so either would overflow
//! the stack and end the process: such a type is not asked, and is refused when the registry
//! is made.

use serde_json::{Map, Value};

use super::{keywords, walk};

/// Whether serde would read some value of `schema` without end: a definition
/// [`endless_definitions`] or [`self_variants`] names.
pub(crate) fn read_without_end(schema: &Map<String, Value>) -> bool {
    !endless_definitions(schema).is_empty() || !self_variants(schema).is_empty()
}

/// The names of definitions that are a chain of `$ref`s leading back to themselves, as
/// `struct A(Box<A>)` gives: no finite value fits one, and serde, reading one, recurses
/// without end (whatever the input, since a newtype consumes none of it).
pub(crate) fn endless_definitions(schema: &Map<String, Value>) -> Vec<String> {
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
        return Vec::new();
    };
    let next = |def: &Value| {
        def.get("$ref")
            .and_then(Value::as_str)
            .and_then(walk::definition_name)
            .map(str::to_owned)
    };
    defs.iter()
        .filter(|(name, def)| {
            let mut seen = vec![name.to_string()];
            let mut current = next(def);
            while let Some(target) = current {
                if target == **name {
                    return true;
                }
                if seen.contains(&target) {
                    return false;
                }
                current = defs.get(&target).and_then(next);
                seen.push(target);
            }
            false
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// The names of unions one of whose variants reads the same value as the union again,
/// requiring no field of it (an untagged `enum Nest { Leaf(u8), Again(Box<Nest>) }`, through
/// any chain of `$ref`s, `Option`s, newtypes, structs of optional fields flattening it, and
/// unions): serde, trying that variant on a value the others refuse, reads the union from the
/// same value again without end, until the stack overflows. Only the unions are named (not a
/// newtype on the way; a chain of `$ref`s alone is [`endless_definitions`]').
pub(crate) fn self_variants(schema: &Map<String, Value>) -> Vec<String> {
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
        return Vec::new();
    };
    let reaches_itself = |name: &String, def: &Value| {
        let mut seen: Vec<&str> = Vec::new();
        let mut next = Vec::new();
        same_value(def, &mut next);
        while let Some(target) = next.pop() {
            if target == name {
                return true;
            }
            if !seen.contains(&target) {
                seen.push(target);
                defs.get(target).inspect(|def| same_value(def, &mut next));
            }
        }
        false
    };
    (defs.iter())
        .filter(|(_, def)| def.get("anyOf").or(def.get("oneOf")).is_some())
        .filter(|(name, def)| reaches_itself(name, def))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The definitions a schema reads the same value as, requiring no field of it: its `$ref`, and
/// those of its `anyOf` and `oneOf` branches, each the same way. Saying the value is an object
/// with fields it may go without, or what other fields it takes (as the registry's closing of
/// an object, or a struct flattening the type, writes beside a `$ref`), reads nothing a call
/// must send: serde still reads the rest of the value as the definition.
fn same_value<'a>(schema: &'a Value, found: &mut Vec<&'a str>) {
    let Some(map) = schema.as_object() else {
        return;
    };
    let reads_into = |(key, value): (&String, &Value)| match key.as_str() {
        "$ref" | "anyOf" | "oneOf" | "additionalProperties" | "unevaluatedProperties" => false,
        "type" => value != "object",
        // Fields it may go without (an `Option`, a default) read nothing a call must send: a
        // required one is read, or its absence refused, before serde reads on.
        "properties" => false,
        "required" => value.as_array().is_none_or(|names| !names.is_empty()),
        key => !keywords::is_annotation(key),
    };
    if map.iter().any(reads_into) {
        return;
    }
    let target = map.get("$ref").and_then(Value::as_str);
    found.extend(target.and_then(walk::definition_name));
    let branches = ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|union| map.get(union));
    for branch in branches.filter_map(Value::as_array).flatten() {
        same_value(branch, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_definition_read_again_from_the_same_value_is_named() {
        let schema = json!({
            "$defs": {
                // A variant that is itself, through an `Option` and a newtype.
                "Nest": {"anyOf": [
                    {"type": "object", "properties": {"x": {"type": "integer"}}},
                    {"anyOf": [{"$ref": "#/$defs/Wrapped"}, {"type": "null"}]}
                ]},
                "Wrapped": {"$ref": "#/$defs/Nest", "description": "A nest."},
                // Reached again only below a key, in a list, or beside a tag: each reads on.
                "Tree": {"anyOf": [
                    {"type": "integer"},
                    {"type": "object", "properties": {"inner": {"$ref": "#/$defs/Tree"}}},
                    {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                    {"$ref": "#/$defs/Tree", "properties": {"t": {"const": "a"}}, "required": ["t"]}
                ]},
                // As the registry closes an object around a `$ref` (an `#[input]` enum), and
                // as schemars writes a struct flattening an `Option` of the union.
                "Whole": {"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}},
                    {"type": "object", "properties": {}, "additionalProperties": false,
                     "$ref": "#/$defs/Whole"}
                ]},
                "Flat": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/Wrap"}]},
                "Wrap": {"type": "object", "anyOf": [{"$ref": "#/$defs/Flat"}, {}]},
                // A struct of fields it may go without, flattening the union.
                "Spanned": {
                    "type": "object",
                    "properties": {"span": {"type": ["integer", "null"]}},
                    "anyOf": [{"type": "integer"}, {"$ref": "#/$defs/Spanned"}]
                },
                // Only itself: `endless_definitions` names it.
                "Endless": {"$ref": "#/$defs/Endless"}
            }
        });
        assert_eq!(
            self_variants(schema.as_object().unwrap()),
            ["Nest", "Whole", "Flat", "Wrap", "Spanned"]
        );
    }
}
