//! A union of objects at the top of an input, shown to a host as one plain object.
//!
//! An `#[input]` enum, or an `#[input]` struct that flattens one, is a `oneOf` or `anyOf` of
//! objects at the top of its schema. Anthropic refuses a whole request whose tools hold a union
//! there, OpenAI refuses it too, Gemini is shown no parameters, and Claude's clients send MCP
//! tools to Anthropic as they are, so one such tool stops every call of a session. Each host
//! takes one object whose fields are every variant's instead: each field as its variants have
//! it (a tag's values as one `enum`, kinds that differ as an `anyOf` of them), required where
//! every variant requires it, closed where every variant is (else taking what a variant's map
//! takes); the object's description lists each variant's fields, with their kinds where the
//! variants' differ. The registry still holds a call to the union, so nothing the object says
//! goes unchecked, and a call that mixes variants is refused naming every variant's fields.

use serde_json::{Map, Value, json};

use crate::schema::keywords::is_annotation;

/// What a union's branch may hold, beside annotations, to be one of the object's variants.
const VARIANT_KEYWORDS: [&str; 4] = ["type", "properties", "required", "additionalProperties"];

/// What the root may hold beside its union, beside annotations.
const ROOT_KEYWORDS: [&str; 3] = ["type", "$schema", "$defs"];

/// `schema` with the `oneOf` or `anyOf` at its top written as one object; `None` if it has
/// none there; an error saying why if its branches cannot be said as one object.
pub(crate) fn flat_root(schema: &Map<String, Value>) -> Option<Result<Map<String, Value>, String>> {
    let (keyword, branches) = ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|keyword| Some((keyword, schema.get(keyword)?)))?;
    Some(flattened(schema, keyword, branches))
}

/// [`flat_root`] of the union `branches`, found under `keyword`.
fn flattened(
    schema: &Map<String, Value>,
    keyword: &str,
    branches: &Value,
) -> Result<Map<String, Value>, String> {
    let outside =
        |key: &str| key != keyword && !ROOT_KEYWORDS.contains(&key) && !is_annotation(key);
    if let Some(key) = schema.keys().find(|key| outside(key)) {
        return Err(format!("the input holds `{key}` beside its `{keyword}`"));
    }
    if schema.get("type").is_some_and(|kind| kind != "object") {
        return Err("the input is not an object".to_owned());
    }
    let variants: Vec<&Map<String, Value>> = (branches.as_array().into_iter().flatten())
        .map(|branch| variant(branch, keyword))
        .collect::<Result<_, _>>()?;
    let Some(first) = variants.first() else {
        return Err(format!("the input's `{keyword}` is empty"));
    };
    let others = other_fields(&variants);
    let (properties, differing) = fields(&variants);
    let mut flat = Map::new();
    flat.insert("type".into(), "object".into());
    let words = described(schema.get("description"), &variants, &differing);
    flat.insert("description".into(), words.into());
    for key in ["title", "$schema", "$defs"] {
        if let Some(value) = schema.get(key) {
            flat.insert(key.into(), value.clone());
        }
    }
    flat.insert("properties".into(), Value::Object(properties));
    let required: Vec<Value> = (names(first, "required"))
        .filter(|name| variants.iter().all(|variant| requires(variant, name)))
        .map(|name| Value::from(name.to_owned()))
        .collect();
    if !required.is_empty() {
        flat.insert("required".into(), Value::Array(required));
    }
    if let Some(others) = others {
        flat.insert("additionalProperties".into(), others);
    }
    Ok(flat)
}

/// What the object says of fields it does not name: what any variant takes beside its own
/// fields (a map's values), as each variant is checked alone; `false` where every variant is
/// closed, and nothing where one takes anything.
fn other_fields(variants: &[&Map<String, Value>]) -> Option<Value> {
    let mut kinds: Vec<Value> = Vec::new();
    for variant in variants {
        match variant.get("additionalProperties") {
            None | Some(Value::Bool(true)) => return None,
            Some(Value::Bool(false)) => {}
            Some(kind) if kinds.contains(kind) => {}
            Some(kind) => kinds.push(kind.clone()),
        }
    }
    Some(match kinds.len() {
        0 => Value::Bool(false),
        1 => kinds.swap_remove(0),
        _ => json!({"anyOf": kinds}),
    })
}

/// One branch as a variant: an object of fields and nothing a single object could not say.
fn variant<'a>(branch: &'a Value, keyword: &str) -> Result<&'a Map<String, Value>, String> {
    let Some(map) = branch.as_object() else {
        return Err(format!("a branch of its `{keyword}` is not a schema"));
    };
    if map.get("type").is_some_and(|kind| kind != "object") || !map.contains_key("properties") {
        return Err(format!(
            "a branch of its `{keyword}` is not an object of fields"
        ));
    }
    match map
        .keys()
        .find(|key| !VARIANT_KEYWORDS.contains(&key.as_str()) && !is_annotation(key))
    {
        Some(key) => Err(format!("a branch of its `{keyword}` holds `{key}`")),
        None => Ok(map),
    }
}

/// Every variant's fields, each once, in the order they first come, and the names of those
/// whose kinds differ between variants. A variant that does not name a field but takes other
/// fields of a schema (a map flattened beside the enum) takes it as that schema too. Kinds the
/// same but for their words are one, their words joined.
fn fields(variants: &[&Map<String, Value>]) -> (Map<String, Value>, Vec<String>) {
    let mut kinds: Vec<(&String, Vec<Value>)> = Vec::new();
    let add = |kinds: &mut Vec<Value>, field: &Value| match kinds
        .iter_mut()
        .find(|kind| unworded(kind) == unworded(field))
    {
        Some(kind) => join_words(kind, field),
        None => kinds.push(field.clone()),
    };
    for variant in variants {
        for (name, field) in properties(variant) {
            match kinds.iter_mut().find(|(seen, _)| *seen == name) {
                Some((_, seen)) => add(seen, field),
                None => kinds.push((name, vec![field.clone()])),
            }
        }
    }
    for (name, seen) in &mut kinds {
        for variant in variants {
            let others = variant
                .get("additionalProperties")
                .filter(|others| others.is_object());
            if let Some(others) =
                others.filter(|_| !properties(variant).any(|(own, _)| own == *name))
            {
                add(seen, others);
            }
        }
    }
    let differing = (kinds.iter())
        .filter(|(_, kinds)| kinds.len() > 1)
        .map(|(name, _)| (*name).clone())
        .collect();
    let fields = (kinds.into_iter())
        .map(|(name, mut kinds)| {
            let field = match kinds.len() {
                1 => kinds.swap_remove(0),
                _ => one_of_values(&kinds).unwrap_or_else(|| json!({"anyOf": kinds})),
            };
            (name.clone(), field)
        })
        .collect();
    (fields, differing)
}

/// A variant's fields.
fn properties(variant: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    (variant
        .get("properties")
        .and_then(Value::as_object)
        .into_iter())
    .flatten()
}

/// A field's schema without its words.
fn unworded(field: &Value) -> Value {
    let mut field = field.clone();
    if let Value::Object(map) = &mut field {
        map.remove("description");
    }
    field
}

/// `other`'s words after `kind`'s, where they differ.
fn join_words(kind: &mut Value, other: &Value) {
    let Some(words) = other.get("description").and_then(Value::as_str) else {
        return;
    };
    if let Value::Object(map) = kind {
        match map.get_mut("description") {
            Some(Value::String(own)) if own.contains(words) => {}
            Some(Value::String(own)) => *own = format!("{own} Or: {words}"),
            _ => drop(map.insert("description".into(), words.into())),
        }
    }
}

/// A tag's schemas, each the same but for its `const` (and words), as one `enum`.
fn one_of_values(kinds: &[Value]) -> Option<Value> {
    let rest = |kind: &Value| -> Option<Map<String, Value>> {
        let mut rest = kind.as_object()?.clone();
        rest.remove("const")?;
        rest.remove("description");
        Some(rest)
    };
    let mut field = rest(&kinds[0])?;
    if kinds[1..]
        .iter()
        .any(|kind| rest(kind).as_ref() != Some(&field))
    {
        return None;
    }
    let mut values: Vec<Value> = Vec::new();
    for kind in kinds {
        let value = &kind["const"];
        if !values.contains(value) {
            values.push(value.clone());
        }
    }
    field.insert("enum".into(), Value::Array(values));
    Some(Value::Object(field))
}

/// The input's own description, then each variant's fields: `{id, type: "create", title}
/// (Makes a note.)`, an optional field with a `?`, a tag with its value, and a field whose
/// kind differs between variants (`differing`) with this variant's kind (`c: integer`).
fn described(
    own: Option<&Value>,
    variants: &[&Map<String, Value>],
    differing: &[String],
) -> String {
    let shapes: Vec<String> = (variants.iter())
        .map(|variant| {
            let fields: Vec<String> = properties(variant)
                .map(|(name, field)| {
                    let optional = if requires(variant, name) { "" } else { "?" };
                    match (field.get("const"), field.get("type")) {
                        (Some(value), _) => format!("{name}: {value}"),
                        (None, Some(kind)) if kind == "null" => format!("{name}: null"),
                        _ if differing.contains(name) => {
                            format!("{name}{optional}: {}", kind_word(field))
                        }
                        _ => format!("{name}{optional}"),
                    }
                })
                .chain(match variant.get("additionalProperties") {
                    Some(Value::Bool(false)) => None,
                    Some(kind @ Value::Object(_)) => Some(format!("others: {}", kind_word(kind))),
                    _ => Some("others".to_owned()),
                })
                .collect();
            let words = variant.get("description").and_then(Value::as_str);
            match words {
                Some(words) => format!("{{{}}} ({words})", fields.join(", ")),
                None => format!("{{{}}}", fields.join(", ")),
            }
        })
        .collect();
    let shapes = format!("Takes the fields of one of these: {}.", shapes.join("; "));
    match own.and_then(Value::as_str) {
        Some(own) if !own.is_empty() => format!("{own}\n\n{shapes}"),
        _ => shapes,
    }
}

/// A field's kind in a word: its `type`s, the definition its `$ref` names, or "any of
/// several kinds".
fn kind_word(field: &Value) -> String {
    match (field.get("type"), field.get("$ref").and_then(Value::as_str)) {
        (Some(Value::String(kind)), _) => kind.clone(),
        (Some(Value::Array(kinds)), _) => {
            let kinds: Vec<&str> = kinds.iter().filter_map(Value::as_str).collect();
            kinds.join(" or ")
        }
        (_, Some(reference)) => reference
            .rsplit_once('/')
            .map_or(reference, |(_, name)| name)
            .to_owned(),
        _ => "any of several kinds".to_owned(),
    }
}

/// The names in a schema's list `keyword` (`required`).
fn names<'a>(schema: &'a Map<String, Value>, keyword: &str) -> impl Iterator<Item = &'a str> {
    (schema
        .get(keyword)
        .and_then(Value::as_array)
        .into_iter()
        .flatten())
    .filter_map(Value::as_str)
}

/// Whether a variant requires the field `name`.
fn requires(variant: &Map<String, Value>, name: &str) -> bool {
    names(variant, "required").any(|required| required == name)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn flat(schema: Value) -> Option<Result<Value, String>> {
        let Value::Object(schema) = schema else {
            panic!("not an object");
        };
        flat_root(&schema).map(|flat| flat.map(Value::Object))
    }

    #[test]
    fn a_tagged_union_is_one_object_of_every_variants_fields() {
        let schema = json!({
            "type": "object",
            "description": "A command.",
            "oneOf": [
                {
                    "type": "object",
                    "description": "Makes a note.",
                    "properties": {
                        "id": {"type": "integer"},
                        "type": {"type": "string", "const": "create"},
                        "title": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}}
                    },
                    "required": ["id", "type", "title"],
                    "additionalProperties": false
                },
                {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer"},
                        "type": {"type": "string", "const": "archive"},
                        "title": {"type": "integer"}
                    },
                    "required": ["id", "type"],
                    "additionalProperties": false
                }
            ]
        });
        let expected = json!({
            "type": "object",
            "description": "A command.\n\nTakes the fields of one of these: \
                {id, type: \"create\", title: string, tags?} (Makes a note.); \
                {id, type: \"archive\", title?: integer}.",
            "properties": {
                "id": {"type": "integer"},
                "type": {"type": "string", "enum": ["create", "archive"]},
                "title": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["id", "type"],
            "additionalProperties": false
        });
        assert_eq!(flat(schema), Some(Ok(expected)));
    }

    #[test]
    fn a_map_beside_takes_what_a_variant_does_not_name_and_words_alone_do_not_differ() {
        let map = json!({"type": "string"});
        let schema = json!({"anyOf": [
            {
                "properties": {
                    "count": {"type": "integer"},
                    "path": {"type": "string", "description": "Where it goes."}
                },
                "additionalProperties": map
            },
            {
                "properties": {"path": {"type": "string", "description": "Where it was."}},
                "additionalProperties": map
            }
        ]});
        let shown = flat(schema).unwrap().unwrap();
        // `count` a text the second variant takes in its map; `path` one kind.
        assert_eq!(
            shown["properties"],
            json!({
                "count": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "path": {"type": "string", "description": "Where it goes. Or: Where it was."}
            })
        );
        assert_eq!(shown["additionalProperties"], map);
        assert_eq!(
            shown["description"],
            "Takes the fields of one of these: {count?: integer, path?, others: string}; {path?, \
             others: string}."
        );
        // A map as a variant, beside a closed one: other fields are the map's.
        let schema = json!({"anyOf": [
            {"properties": {"id": {"type": "integer"}}, "additionalProperties": false},
            {"properties": {}, "additionalProperties": map}
        ]});
        let mapped = flat(schema).unwrap().unwrap();
        assert_eq!(mapped["additionalProperties"], map);
        assert_eq!(
            mapped["properties"]["id"],
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})
        );
    }

    #[test]
    fn an_object_or_a_union_it_cannot_say_is_told_apart() {
        assert_eq!(flat(json!({"type": "object", "properties": {}})), None);
        let object = json!({"type": "object", "properties": {"a": {}}});
        let cases = [
            (
                json!({"anyOf": [object, {"type": "string"}]}),
                "a branch of its `anyOf` is not an object of fields",
            ),
            (
                json!({"oneOf": [object, {"type": "object", "properties": {}, "minProperties": 1}]}),
                "a branch of its `oneOf` holds `minProperties`",
            ),
            (
                json!({"oneOf": [object], "properties": {}}),
                "the input holds `properties` beside its `oneOf`",
            ),
            (json!({"anyOf": []}), "the input's `anyOf` is empty"),
        ];
        for (schema, expected) in cases {
            assert_eq!(flat(schema), Some(Err(expected.to_owned())));
        }
    }
}
