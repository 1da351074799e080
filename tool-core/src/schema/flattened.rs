//! An object that flattens an enum (`#[serde(flatten)] action: Action`): its own fields
//! written into each of the enum's variants, so that closing every object leaves each call
//! the variant's fields and the object's own.
//!
//! schemars writes such an object as its fields beside a union of the variants (`oneOf` for a
//! tagged enum, `anyOf` for an untagged one or a flattened `Option`, `allOf` of unions for two
//! flattened enums). Each part names only its own fields; closed as they stand, the object
//! would refuse the variant's fields and each variant the object's, and no call would fit.
//! JSON Schema's answer, `unevaluatedProperties`, is not in every provider's dialect (OpenAI's
//! strict mode and Gemini's take none), so the union is lifted instead: one branch for each
//! variant (for each pairing, under `allOf`), holding the object's fields, required where
//! they were, and the variant's.

use serde_json::{Map, Value};

use super::keywords::UNIONS;
use super::walk;

/// The most branches a lifted union is given: past it (three flattened enums of seven
/// variants), the object is left as schemars wrote it, and refused when the registry is made.
const MAX_BRANCHES: usize = 256;

/// How deep unions within unions are taken apart: each enum a tagged variant wraps costs two
/// (its `$ref`, its union), taken apart from the definitions as schemars wrote them.
const MAX_DEPTH: usize = 32;

/// Writes `map`'s fields into each branch of the union beside them, if it has one, and lifts
/// the union to be `map`'s own; `definitions` are the schema's `$defs`, where a flattened
/// enum may be named. An object whose union cannot be lifted so is left as it is, and refused
/// when the registry is made (`providers/unfit.rs`).
pub(super) fn lift_union(map: &mut Map<String, Value>, definitions: Option<&Value>) {
    let Some(Variants { found, exclusive }) = variants_beside(map, definitions) else {
        return;
    };
    // Each variant holds the object's own fields, and what it says of fields it does not name:
    // `false` where the object is closed; a flattened map beside the enum, which schemars
    // writes as `unevaluatedProperties` (the fields of the union count as evaluated), is the
    // variant's `additionalProperties`, the variant naming them all.
    let mut own: Map<String, Value> = ["properties", "required", "additionalProperties"]
        .into_iter()
        .filter_map(|keyword| Some((keyword.to_owned(), map.get(keyword)?.clone())))
        .collect();
    if let Some(others) = map.shift_remove("unevaluatedProperties") {
        own.insert("additionalProperties".into(), others);
    }
    // serde reads a field the object names as the object's, whatever a variant names: a
    // variant that requires one of them is never read (serde misses it), and is left out.
    // Where every variant is, no call is read: the object is left as it is, and refused when
    // the registry is made (`providers/unfit.rs`).
    let read: Vec<&Map<String, Value>> = (found.iter())
        .filter(|variant| shadowing(variant, map).is_none())
        .collect();
    if read.is_empty() {
        return;
    }
    // A variant that takes other fields itself (a map, or a variant flattening one) takes
    // those the object does not name, as serde hands it every field left (`merged` gives it
    // the variant's word where the object says none); beside a map of the object's own, each
    // field left goes to both, and must fit both. An object that refuses unknown fields itself
    // (`#[serde(deny_unknown_fields)]`, the only way it is closed here) refuses them whatever
    // the variant takes.
    let lifted: Vec<Value> = (read.into_iter())
        .map(|variant| {
            let mut lifted = merged(own.clone(), variant);
            let both = match (
                own.get("additionalProperties"),
                variant.get("additionalProperties"),
            ) {
                (Some(Value::Bool(true)), Some(taken @ Value::Object(_))) => Some(taken.clone()),
                (Some(own @ Value::Object(_)), Some(taken @ Value::Object(_))) if own != taken => {
                    Some(serde_json::json!({"allOf": [own, taken]}))
                }
                _ => None,
            };
            if let Some(both) = both {
                lifted.insert("additionalProperties".into(), both);
            }
            Value::Object(lifted)
        })
        .collect();
    for keyword in UNIONS
        .into_iter()
        .chain(["properties", "required", "additionalProperties"])
    {
        map.shift_remove(keyword);
    }
    // A union, as schemars writes an enum's: each variant says it is an object, and an object
    // of no fields around them would read, to a provider's dialect, as one to close.
    if map.get("type").is_some_and(|kind| kind == "object") {
        map.shift_remove("type");
    }
    // Variants of tagged enums exclude each other by their tags: `oneOf` says so, and the
    // checker names the tags it expects; a union with an `anyOf` in it takes the first that
    // fits, as serde reads an untagged enum.
    let keyword = if exclusive { "oneOf" } else { "anyOf" };
    match <[Value; 1]>::try_from(lifted) {
        // One variant is the object itself (the object's own words kept).
        Ok([Value::Object(only)]) => {
            for (keyword, value) in only {
                map.entry(keyword).or_insert(value);
            }
        }
        Ok([only]) => drop(map.insert(keyword.to_owned(), Value::Array(vec![only]))),
        Err(lifted) => drop(map.insert(keyword.to_owned(), Value::Array(lifted))),
    }
}

/// The objects the union beside `map`'s fields takes, each one variant; `None` where `map`
/// has no fields and union, or the union cannot be taken apart ([`branches`]).
fn variants_beside(map: &Map<String, Value>, definitions: Option<&Value>) -> Option<Variants> {
    if !map.contains_key("properties") || !UNIONS.iter().any(|union| map.contains_key(*union)) {
        return None;
    }
    let union: Map<String, Value> = (UNIONS.iter())
        .filter_map(|keyword| Some(((*keyword).to_owned(), map.get(*keyword)?.clone())))
        .collect();
    branches(&union, definitions, &mut Vec::new(), MAX_DEPTH)
        .filter(|variants| !variants.found.is_empty())
}

/// A field the object `map` names that `variant` requires: serde reads it as the object's, and
/// so never reads the variant.
fn shadowing<'v>(variant: &'v Map<String, Value>, map: &Map<String, Value>) -> Option<&'v str> {
    let names = map.get("properties").and_then(Value::as_object)?;
    (variant.get("required").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|name| names.contains_key(*name))
}

/// A field the object `map` names that every variant of the union beside it requires, where
/// every one requires one: serde reads no variant, so no call of the object is read, and
/// [`lift_union`] leaves it as it is, to be refused when the registry is made.
pub(crate) fn shadowing_every_variant(
    map: &Map<String, Value>,
    definitions: Option<&Value>,
) -> Option<String> {
    let variants = variants_beside(map, definitions)?;
    let mut fields = variants.found.iter().map(|variant| shadowing(variant, map));
    let first = fields.next()??;
    fields
        .all(|field| field.is_some())
        .then(|| first.to_owned())
}

/// The branches of `map`'s union that are themselves a union of the same kind and nothing
/// else (but words), as a tagged variant wrapping an enum becomes once lifted, replaced by
/// their branches: one union of every variant, whose tags the checker reads to find the one
/// meant, and which a model reads as a list of the objects it may send. A branch's words come
/// before each of its branches' own.
pub(super) fn splice_unions(map: &mut Map<String, Value>) {
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get_mut(keyword) else {
            continue;
        };
        let bare = |branch: &Map<String, Value>| {
            branch.get(keyword).is_some_and(Value::is_array)
                && (branch.keys()).all(|key| key == keyword || key == "description")
        };
        while (branches.iter()).any(|branch| branch.as_object().is_some_and(bare)) {
            let mut spliced = Vec::with_capacity(branches.len());
            for branch in std::mem::take(branches) {
                let mut outer = match branch {
                    Value::Object(outer) if bare(&outer) => outer,
                    other => {
                        spliced.push(other);
                        continue;
                    }
                };
                let words = outer.remove("description");
                let inner = match outer.remove(keyword) {
                    Some(Value::Array(inner)) => inner,
                    _ => Vec::new(),
                };
                spliced.extend(inner.into_iter().map(|mut inner| {
                    if let (Some(Value::String(words)), Value::Object(inner)) = (&words, &mut inner)
                    {
                        let joined = match inner.get("description").and_then(Value::as_str) {
                            Some(own) => format!("{words} {own}"),
                            None => words.clone(),
                        };
                        inner.insert("description".into(), joined.into());
                    }
                    inner
                }));
            }
            *branches = spliced;
        }
    }
}

/// The objects a schema takes, and whether no two of them take the same value as far as the
/// schema says (only `oneOf`s were taken apart).
struct Variants {
    found: Vec<Map<String, Value>>,
    exclusive: bool,
}

/// The objects `schema` takes, each one branch of it: one of each union's branches (a
/// `oneOf`, an `anyOf` beside it, as schemars writes a tagged and an untagged enum flattened
/// together, each part of an `allOf`), each taken apart in turn and merged, with what `schema`
/// says beside them; `schema` itself where it is an object and no union, the objects serde
/// reads unit variants written as their names from ([`unit_variants`]), and none where it is
/// no other object (`null`: no object fits it). A `$ref` to a
/// definition that is a union, or an object beside one, is taken apart too, once on each way
/// (`open` holds those being taken apart). `None` where it cannot say (too deep), or there
/// would be more than [`MAX_BRANCHES`].
fn branches<'d>(
    schema: &Map<String, Value>,
    definitions: Option<&'d Value>,
    open: &mut Vec<&'d str>,
    depth: usize,
) -> Option<Variants> {
    let depth = depth.checked_sub(1)?;
    let named = (schema.get("$ref").and_then(Value::as_str))
        .and_then(walk::definition_name)
        .and_then(|name| {
            let (name, named) = definitions?.as_object()?.get_key_value(name)?;
            Some((name.as_str(), named.as_object()?))
        })
        .filter(|(_, named)| UNIONS.iter().any(|union| named.contains_key(*union)));
    if let Some((name, named)) = named {
        // A variant that holds the enum again (`Neg(Box<Expr>)`, flattened) is read from the
        // same fields: it adds no object the enum's others do not.
        if open.contains(&name) {
            return Some(Variants {
                found: Vec::new(),
                exclusive: true,
            });
        }
        let mut beside = schema.clone();
        beside.remove("$ref");
        open.push(name);
        let within = branches(named, definitions, open, depth);
        open.pop();
        let within = within?;
        let found = (within.found.into_iter())
            .map(|branch| merged(branch, &beside))
            .collect();
        return Some(Variants {
            found,
            exclusive: within.exclusive,
        });
    }
    let beside: Map<String, Value> = (schema.iter())
        .filter(|(keyword, _)| !UNIONS.contains(&keyword.as_str()))
        .map(|(keyword, value)| (keyword.clone(), value.clone()))
        .collect();
    let mut found = vec![beside];
    let mut exclusive = true;
    let mut union = false;
    for keyword in UNIONS {
        let listed = match schema.get(keyword) {
            Some(Value::Array(listed)) => listed,
            Some(_) => return None,
            None => continue,
        };
        union = true;
        let mut taken_apart = |branch: &Value| {
            // `true` is any object, the object's own fields alone; `false`, none.
            let within = match branch {
                Value::Bool(any) => Variants {
                    found: (*any).then(Map::new).into_iter().collect(),
                    exclusive: true,
                },
                branch => branches(branch.as_object()?, definitions, open, depth)?,
            };
            exclusive &= within.exclusive;
            Some(within.found)
        };
        if keyword == "allOf" {
            for part in listed {
                found = product(&found, &taken_apart(part)?)?;
            }
            continue;
        }
        let mut alternatives = Vec::new();
        for branch in listed {
            alternatives.extend(taken_apart(branch)?);
        }
        exclusive &= keyword == "oneOf";
        found = product(&found, &alternatives)?;
    }
    if !union {
        let is_object = schema.contains_key("properties")
            || schema.get("type").is_none_or(|kind| match kind {
                Value::Array(kinds) => kinds.iter().any(|kind| kind == "object"),
                kind => kind == "object",
            });
        found = match is_object {
            true => vec![schema.clone()],
            false => unit_variants(schema),
        };
    }
    Some(Variants { found, exclusive })
}

/// The objects serde reads a flattened externally tagged enum's unit variants from: schemars
/// writes them as their names (`{"type": "string", "const": "Stop"}`, or an `enum` of several),
/// and serde, reading the enum from the fields of the object around it, takes the name as a
/// key whose value is `null` (`{"id": 1, "Stop": null}`). Anything else that is no object
/// (`null`, a number) gives none.
pub(super) fn unit_variants(schema: &Map<String, Value>) -> Vec<Map<String, Value>> {
    if schema.get("type").is_some_and(|kind| kind != "string") {
        return Vec::new();
    }
    let names = match (schema.get("const"), schema.get("enum")) {
        (Some(name), _) => std::slice::from_ref(name),
        (None, Some(Value::Array(names))) => names.as_slice(),
        _ => return Vec::new(),
    };
    (names.iter().filter_map(Value::as_str))
        .map(|name| {
            let mut variant = Map::new();
            variant.insert("type".into(), "object".into());
            if let Some(words) = schema.get("description") {
                variant.insert("description".into(), words.clone());
            }
            let unit = Map::from_iter([("type".to_owned(), Value::from("null"))]);
            let properties = Map::from_iter([(name.to_owned(), Value::Object(unit))]);
            variant.insert("properties".into(), Value::Object(properties));
            variant.insert("required".into(), Value::from(vec![name]));
            variant
        })
        .collect()
}

/// Each of `left` merged with each of `right`; `None` past [`MAX_BRANCHES`].
fn product(
    left: &[Map<String, Value>],
    right: &[Map<String, Value>],
) -> Option<Vec<Map<String, Value>>> {
    if left.len().checked_mul(right.len())? > MAX_BRANCHES {
        return None;
    }
    Some(
        (left.iter())
            .flat_map(|left| right.iter().map(|right| merged(right.clone(), left)))
            .collect(),
    )
}

/// `into` with `from`'s fields beside its own (its own kept where both name one), and both
/// lists of required fields: a variant taking an object's fields, or an object those of the
/// struct its `$ref` names.
pub(super) fn take_fields(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    if let Some(Value::Object(fields)) = from.get("properties") {
        let properties = (into.entry("properties")).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(properties) = properties {
            for (name, field) in fields {
                properties
                    .entry(name.clone())
                    .or_insert_with(|| field.clone());
            }
        }
    }
    if let Some(Value::Array(names)) = from.get("required") {
        let required = (into.entry("required")).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(required) = required {
            for name in names {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
    }
}

/// `branch` with `own`'s fields beside its own (its own kept where both name one), both
/// lists of required fields, and `own`'s word on other fields where it says none.
fn merged(mut branch: Map<String, Value>, own: &Map<String, Value>) -> Map<String, Value> {
    take_fields(&mut branch, own);
    for (keyword, value) in own {
        if !matches!(keyword.as_str(), "properties" | "required") {
            branch
                .entry(keyword.clone())
                .or_insert_with(|| value.clone());
        }
    }
    branch.entry("type").or_insert_with(|| "object".into());
    branch
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `schema`'s map, lifted.
    fn lifted(schema: Value) -> Value {
        let Value::Object(mut map) = schema else {
            panic!("{schema}");
        };
        let definitions = map.get("$defs").cloned();
        lift_union(&mut map, definitions.as_ref());
        Value::Object(map)
    }

    #[test]
    fn the_fields_go_into_each_object_variant_and_pairings_are_counted() {
        let tagged = |tag: &str| json!({"properties": {"t": {"const": tag}}, "required": ["t"]});
        let schema = json!({
            "type": "object",
            "description": "A command.",
            "properties": {"id": {"type": "integer"}},
            "required": ["id"],
            "oneOf": [tagged("a"), {"type": "string", "const": "b"}, {"$ref": "#/$defs/More"}],
            "$defs": {"More": {"anyOf": [tagged("c"), {"type": "null"}]}}
        });
        let variant = |tag: &str| {
            json!({
                "properties": {"t": {"const": tag}, "id": {"type": "integer"}},
                "required": ["id", "t"],
                "type": "object"
            })
        };
        // A unit variant written as its name is that name as a key of `null`; one no object
        // fits (`null`) is left out; one named in `$defs` is taken apart, and its `anyOf` makes
        // the whole one.
        let unit = json!({
            "properties": {"b": {"type": "null"}, "id": {"type": "integer"}},
            "required": ["id", "b"],
            "type": "object"
        });
        assert_eq!(
            lifted(schema.clone())["anyOf"],
            json!([variant("a"), unit, variant("c")])
        );
        let exclusive = json!({"properties": {"id": {}}, "oneOf": [tagged("a"), tagged("b")]});
        assert_eq!(lifted(exclusive)["oneOf"].as_array().map(Vec::len), Some(2));
        // A tagged and an untagged enum flattened together: a `oneOf` beside an `anyOf`.
        let both = json!({
            "properties": {"id": {}},
            "oneOf": [tagged("a"), tagged("b")],
            "anyOf": [{"properties": {"x": {}}}, {"properties": {"y": {}}}]
        });
        assert_eq!(lifted(both)["anyOf"].as_array().map(Vec::len), Some(4));
        assert_eq!(lifted(schema.clone())["description"], "A command.");
        assert!(lifted(schema)["type"].is_null());
        // Two unions of 16 pair into 256 variants; three, into too many.
        let union: Vec<Value> = (0..16).map(|tag| tagged(&tag.to_string())).collect();
        let flattened = |parts: usize| {
            json!({
                "properties": {"id": {}},
                "allOf": vec![json!({"oneOf": union}); parts]
            })
        };
        // Two tagged enums pair into variants as exclusive as theirs.
        assert_eq!(lifted(flattened(2))["oneOf"].as_array().unwrap().len(), 256);
        assert_eq!(lifted(flattened(3)), flattened(3));
        // A variant holding the enum again, as a flattened `Neg(Box<Expr>)` is read, adds
        // nothing; twelve of them are not taken apart twelve times over.
        let mut holding: Vec<Value> = vec![json!({"$ref": "#/$defs/Nest"}); 12];
        holding.push(json!({"properties": {"depth": {}}, "required": ["depth"]}));
        let nest = json!({
            "properties": {"id": {}},
            "required": ["id"],
            "anyOf": [{"$ref": "#/$defs/Nest"}],
            "$defs": {"Nest": {"anyOf": holding}}
        });
        // One variant left: the object itself.
        let nested = lifted(nest);
        assert_eq!(nested["required"], json!(["id", "depth"]), "{nested}");
        assert!(nested.get("anyOf").is_none(), "{nested}");
        // A variant requiring a field the object names is never read: serde gives the field
        // to the object.
        let shadowed = json!({
            "properties": {"id": {"type": "integer"}},
            "oneOf": [
                {"properties": {"t": {"const": "a"}, "id": {"type": "string"}}, "required": ["t", "id"]},
                tagged("b")
            ]
        });
        let read = lifted(shadowed);
        assert_eq!(read["properties"]["t"]["const"], "b", "{read}");
        assert!(read.get("oneOf").is_none(), "{read}");
        // `true` is the object's own fields alone.
        let open = json!({"properties": {"a": {}}, "anyOf": [true, {"properties": {"b": {}}}]});
        assert_eq!(lifted(open)["anyOf"].as_array().map(Vec::len), Some(2));
        // Nothing but text: left as it is.
        let text = json!({"properties": {}, "oneOf": [{"type": "string"}]});
        assert_eq!(lifted(text.clone()), text);
    }
}
