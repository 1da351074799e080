//! What each keyword's value must be for the registry to read it. The checker reads a keyword
//! only in the form JSON Schema 2020-12 gives it (`maxLength` a whole number, `items` one
//! schema, `type` a type's name); in any other form (`"type": "int"`, draft 7's list of
//! `items`, draft 4's `"exclusiveMinimum": true`) it would skip the rule while a model is shown
//! it, so such a schema is refused when the registry is made, saying what to write instead.

use serde_json::{Map, Value};

use super::keywords::is_annotation;
use super::walk::Root;
use crate::outcome::suggest::nearest;

/// The types JSON Schema names.
pub(crate) const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// How long a value may be when quoted in a problem before it is cut short.
const QUOTED_AT_MOST: usize = 60;

/// Every keyword of `map`, a schema object inside `root`, whose value the registry cannot
/// read, each with what is wrong and what to write.
pub(crate) fn unreadable(map: &Map<String, Value>, root: &Map<String, Value>) -> Vec<String> {
    let mut problems = Vec::new();
    for (keyword, value) in map {
        let problem = match keyword.as_str() {
            "$ref" => reference_problem(value, root).or_else(|| beside_reference(map, root)),
            "type" => type_problem(value),
            "enum" => (!value.is_array()).then(|| {
                let list = Value::Array(vec![value.clone()]);
                format!(
                    "`enum` is {}, which is not a list of the values allowed: write {}",
                    shown(value),
                    shown(&list)
                )
            }),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                bound_problem(keyword, value, map)
            }
            "multipleOf" => (!value.as_f64().is_some_and(|step| step > 0.0)).then(|| {
                format!(
                    "`multipleOf` is {}, which is not a number above zero",
                    shown(value)
                )
            }),
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties" => count_problem(keyword, value),
            "pattern" | "format" => (!value.is_string())
                .then(|| format!("`{keyword}` is {}, which is not a string", shown(value))),
            "uniqueItems" => (!value.is_boolean()).then(|| {
                format!(
                    "`uniqueItems` is {}, which is not true or false",
                    shown(value)
                )
            }),
            "required" => required_problem(value),
            "items" if value.is_array() => Some(
                "`items` is a list, as draft 7 wrote a tuple: write the list as `prefixItems` \
                 (and `\"items\": false` after it to take nothing more)"
                    .to_owned(),
            ),
            "items" | "additionalProperties" | "if" | "then" | "else" => {
                not_a_schema(keyword, value)
            }
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => list_problem(keyword, value),
            "properties" | "patternProperties" | "$defs" => named_problem(keyword, value),
            _ => None,
        };
        problems.extend(problem);
    }
    problems
}

fn reference_problem(reference: &Value, root: &Map<String, Value>) -> Option<String> {
    let leads = |to: &str| Root::new(root).resolve(to).is_some();
    (!reference.as_str().is_some_and(leads)).then(|| {
        format!(
            "`$ref` is {}, which does not point into this schema's `$defs`: write \
             \"#/$defs/Name\" for a definition `Name` in them",
            shown(reference)
        )
    })
}

/// What an object says beside its `$ref` that the definition says differently, or of the
/// fields that the definition names too. Both apply to a value, each apart (a closed object
/// refuses the fields the other names); an export, inlining the definition, could show them
/// only merged, as one schema that takes more than is taken.
fn beside_reference(map: &Map<String, Value>, root: &Map<String, Value>) -> Option<String> {
    const OF_FIELDS: [&str; 4] = [
        "properties",
        "patternProperties",
        "additionalProperties",
        "required",
    ];
    let reference = map.get("$ref")?.as_str()?;
    let target = Root::new(root).resolve(reference)?.as_object()?;
    let differs = map.iter().find(|(key, value)| {
        *key != "$ref"
            && !is_annotation(key)
            && (target.get(*key).is_some_and(|theirs| theirs != *value)
                || (OF_FIELDS.contains(&key.as_str())
                    && OF_FIELDS.iter().any(|of| target.contains_key(*of))))
    })?;
    Some(format!(
        "`{}` is written beside `$ref`, and the definition it points to says {}: each holds \
         apart, which no export can show; write them in one place (the definition's keywords \
         and these together)",
        differs.0,
        if OF_FIELDS.contains(&differs.0.as_str()) {
            "which fields an object has too"
        } else {
            "otherwise"
        }
    ))
}

/// `value` as compact JSON, cut short when long.
pub(crate) fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(QUOTED_AT_MOST) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

fn not_a_schema(place: &str, value: &Value) -> Option<String> {
    (!value.is_object() && !value.is_boolean()).then(|| {
        format!(
            "`{place}` is {}, which is not a schema: write an object of keywords, or true or \
             false",
            shown(value)
        )
    })
}

fn type_problem(value: &Value) -> Option<String> {
    let named = |name: &Value| name.as_str().is_some_and(|name| TYPES.contains(&name));
    let fits = match value {
        Value::Array(names) => !names.is_empty() && names.iter().all(named),
        name => named(name),
    };
    if fits {
        return None;
    }
    let wrong = match value {
        Value::Array(names) => names.iter().find(|name| !named(name)),
        name => Some(name),
    };
    let hint = match wrong.and_then(Value::as_str).and_then(meant_type) {
        Some(meant) => format!("did you mean \"{meant}\"?"),
        None => format!(
            "write one of {}, or a list of them",
            TYPES.map(|name| format!("\"{name}\"")).join(", ")
        ),
    };
    Some(format!(
        "`type` is {}, which is not a JSON Schema type: {hint}",
        shown(value)
    ))
}

/// The JSON Schema type a name from another language most likely means.
fn meant_type(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "int" | "long" | "short" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64"
        | "usize" | "isize" => "integer",
        "float" | "double" | "decimal" | "f32" | "f64" | "real" => "number",
        "str" | "text" | "char" => "string",
        "bool" => "boolean",
        "list" | "vec" | "tuple" => "array",
        "map" | "dict" | "struct" | "record" => "object",
        "nil" | "none" | "unit" => "null",
        _ => return nearest(&lower, TYPES),
    })
}

fn bound_problem(keyword: &str, value: &Value, map: &Map<String, Value>) -> Option<String> {
    if value.is_number() {
        return None;
    }
    if value.is_boolean() && keyword.starts_with("exclusive") {
        let inclusive = &keyword["exclusive".len()..].to_ascii_lowercase();
        let example = match map.get(inclusive.as_str()) {
            Some(bound) if bound.is_number() => {
                format!("`\"{keyword}\": {bound}` in place of `\"{inclusive}\": {bound}` and this")
            }
            _ => format!("`\"{keyword}\": 0` for a bound of 0, not included"),
        };
        return Some(format!(
            "`{keyword}` is {value}, as draft 4 wrote it: write the bound itself ({example})"
        ));
    }
    Some(
        match value.as_str().and_then(|text| text.parse::<f64>().ok()) {
            Some(number) => format!(
                "`{keyword}` is {}, which is not a number: write {number}",
                shown(value)
            ),
            None => format!("`{keyword}` is {}, which is not a number", shown(value)),
        },
    )
}

fn count_problem(keyword: &str, value: &Value) -> Option<String> {
    if value.is_u64() {
        return None;
    }
    let whole = match value {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => text.parse::<f64>().ok(),
        _ => None,
    }
    .filter(|count| count.fract() == 0.0 && *count >= 0.0 && *count < 1e15);
    let hint = match whole {
        Some(count) => format!("write {count}"),
        None => "write one such as 0 or 10".to_owned(),
    };
    Some(format!(
        "`{keyword}` is {}, which is not a count (a whole number, 0 or more, written without a \
         fraction): {hint}",
        shown(value)
    ))
}

fn required_problem(value: &Value) -> Option<String> {
    match value {
        Value::Array(names) if names.iter().all(Value::is_string) => None,
        Value::String(_) => {
            let list = Value::Array(vec![value.clone()]);
            Some(format!(
                "`required` is {}, which is not a list of field names: write {}",
                shown(value),
                shown(&list)
            ))
        }
        _ => Some(format!(
            "`required` is {}, which is not a list of field names: write each name as a string",
            shown(value)
        )),
    }
}

fn list_problem(keyword: &str, value: &Value) -> Option<String> {
    let Value::Array(schemas) = value else {
        return Some(format!(
            "`{keyword}` is {}, which is not a list of schemas",
            shown(value)
        ));
    };
    if schemas.is_empty() && keyword != "prefixItems" {
        return Some(format!(
            "`{keyword}` is [], which is not a list of one schema or more"
        ));
    }
    (schemas.iter().enumerate())
        .find_map(|(index, schema)| not_a_schema(&format!("{keyword}[{index}]"), schema))
}

fn named_problem(keyword: &str, value: &Value) -> Option<String> {
    let Value::Object(schemas) = value else {
        return Some(format!(
            "`{keyword}` is {}, which is not an object of names and their schemas",
            shown(value)
        ));
    };
    (schemas.iter()).find_map(|(name, schema)| not_a_schema(&format!("{keyword}.{name}"), schema))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn problems(schema: Value) -> Vec<String> {
        let schema = schema.as_object().unwrap();
        unreadable(schema, schema)
    }

    #[test]
    fn keywords_in_their_2020_12_forms_are_read() {
        let schema = json!({
            "type": ["string", "null"], "enum": ["a", null], "minimum": 0, "maximum": 1.5,
            "exclusiveMinimum": -1, "multipleOf": 0.5, "minLength": 0, "maxItems": 3,
            "pattern": "^a", "format": "email", "uniqueItems": false, "required": ["a"],
            "items": true, "prefixItems": [], "anyOf": [{}], "properties": {"a": false},
            "additionalProperties": {"type": "string"}, "$defs": {"A": {}}, "$ref": "#/$defs/A",
        });
        assert_eq!(problems(schema), Vec::<String>::new());
    }

    #[test]
    fn other_forms_are_named_with_what_to_write() {
        let cases = [
            (json!({"type": "float"}), "did you mean \"number\"?"),
            (json!({"type": "strng"}), "did you mean \"string\"?"),
            (json!({"type": []}), "write one of \"string\", \"number\""),
            (json!({"enum": "a"}), "write [\"a\"]"),
            (json!({"maximum": "5"}), "which is not a number: write 5"),
            (
                json!({"minimum": 3, "exclusiveMinimum": true}),
                "(`\"exclusiveMinimum\": 3` in place of `\"minimum\": 3` and this)",
            ),
            (json!({"minItems": -1}), "write one such as 0 or 10"),
            (json!({"required": [1]}), "write each name as a string"),
            (
                json!({"allOf": {}}),
                "`allOf` is {}, which is not a list of schemas",
            ),
            (
                json!({"oneOf": [{}, 3]}),
                "`oneOf[1]` is 3, which is not a schema",
            ),
            (
                json!({"properties": []}),
                "not an object of names and their schemas",
            ),
            (
                json!({"then": "x"}),
                "`then` is \"x\", which is not a schema",
            ),
            (
                json!({"pattern": 5}),
                "`pattern` is 5, which is not a string",
            ),
        ];
        for (schema, problem) in cases {
            let found = problems(schema.clone());
            assert!(
                found.len() == 1 && found[0].contains(problem),
                "{schema}: {found:?}"
            );
        }
        let long = json!({"enum": {"text": "a".repeat(100)}});
        assert!(problems(long)[0].contains("aaa…, which"));
    }
}
