//! What in a tool's input schema makes the registry refuse the tool when it is made: fields
//! that say nothing of what to send, rules it could not enforce (a model would be told a rule
//! nobody holds).

use serde_json::{Map, Value};

use super::dialect::STANDARD_FORMATS;
use crate::args::shown;
use crate::schema::{formats, keywords, patterns, values, walk};

/// The paths of fields of no single type: schemas such as `true` or `{}` (what
/// `serde_json::Value` gives) that say nothing of what to send.
pub(crate) fn untyped_fields(schema: &Map<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    let mut root = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (field, property) in properties {
                if says_nothing(property) {
                    found.push(if path.is_empty() {
                        field.clone()
                    } else {
                        format!("{path}.{field}")
                    });
                }
            }
        }
    });
    found
}

/// Why `schema`, an input's, cannot be a tool's: its top takes no object (`#[input] count:
/// u64`), where a call's arguments are an object of fields (and MCP requires `"type":
/// "object"` there).
pub(crate) fn not_an_object(schema: &Map<String, Value>) -> Option<String> {
    let why = match keywords::no_object(schema)? {
        keywords::NoObject::Null => "takes `null` beside it (an `#[input]` `Option`, or an \
                                     untagged enum's unit variant), which no call can send: make \
                                     the struct's fields optional instead, or take it as a field \
                                     of its own (`filter: Option<Filter>`, without `#[input]`)"
            .to_owned(),
        keywords::NoObject::PlainUnion => "is a union none of whose variants is an object (an \
                                           untagged enum of plain values), which no call can \
                                           send: make the variants structs of fields, or take \
                                           the enum as a field of its own (`value: Value`, \
                                           without `#[input]`)"
            .to_owned(),
        keywords::NoObject::Type(types) => format!(
            "is of type {types}, which no call can send: take the value as a field of its own \
             (`count: u64`, without `#[input]`), or make the input a struct of fields"
        ),
    };
    Some(format!(
        "a call's arguments are an object of fields, and this input's schema {why}"
    ))
}

/// Why `schema`, which a remote server wrote for its tool's arguments, cannot be offered to a
/// provider that takes an object of fields there (MCP is offered it as its server wrote it).
pub(crate) fn not_an_object_elsewhere(schema: &Map<String, Value>) -> Option<String> {
    Some(match keywords::no_object(schema)? {
        keywords::NoObject::Null => "takes `null` beside an object".to_owned(),
        keywords::NoObject::PlainUnion => {
            "is a union none of whose variants is an object".to_owned()
        }
        keywords::NoObject::Type(types) => format!("is of type {types}"),
    })
}

/// Every rule in `schema` the registry could not enforce, with the path of its field: a
/// keyword the checker does not know, or whose value it cannot read, a `$ref` that leads
/// nowhere in the schema, a standard format it does not check, a pattern the `regex` crate
/// cannot read.
pub(crate) fn unenforceable(schema: &Map<String, Value>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut root = Value::Object(schema.clone());
    walk::every_subschema_mut(&mut root, &mut String::new(), &mut |map, path| {
        let path = shown(path.to_owned());
        for problem in values::unreadable(map, schema) {
            found.push((path.clone(), problem));
        }
        for keyword in map
            .keys()
            .filter(|keyword| !keywords::is_understood(keyword))
        {
            found.push((
                path.clone(),
                format!(
                    "`{keyword}` is not a keyword the registry can check, so a model would be \
                     told a rule nobody enforces; {}",
                    keywords::WITHOUT
                ),
            ));
        }
        if let Some(Value::String(format)) = map.get("format")
            && STANDARD_FORMATS.contains(&format.as_str())
            && formats::expected(format).is_none()
        {
            let problem = match formats::feature_for(format) {
                Some(feature) => format!(
                    "the format `{format}` is checked with tool-core's `{feature}` feature, \
                     which is off: {}",
                    crate::features::enable(feature)
                ),
                None => format!(
                    "the format `{format}` is not one the registry can check; take it out, or \
                     use a type the registry checks"
                ),
            };
            found.push((path.clone(), problem));
        }
        if let Some(Value::Object(fields)) = map.get("properties")
            && map.get("additionalProperties") == Some(&Value::Bool(false))
            && let Some(union) = keywords::UNIONS.into_iter().find(|union| {
                (map.get(*union).and_then(Value::as_array)).is_some_and(|branches| {
                    names_others(branches, fields, walk::Root::new(schema), &mut Vec::new())
                })
            })
        {
            let definitions = schema.get("$defs");
            let problem = match crate::schema::shadowing_every_variant(map, definitions) {
                Some(field) => every_variant_shadowed(&field),
                None => fields_beside_union(union),
            };
            found.push((path.clone(), problem));
        }
        if let Some(Value::String(pattern)) = map.get("pattern")
            && let Err(problem) = crate::schema::patterns::readable(pattern)
        {
            found.push((path.clone(), problem));
        }
        if let Some(Value::Object(keyed)) = map.get("patternProperties") {
            let unread = keyed
                .keys()
                .filter_map(|key| patterns::key_readable(key).err());
            found.extend(unread.map(|problem| (path.clone(), problem)));
        }
    });
    found
}

/// Whether a branch of `branches`, or of a union within one, names a field `fields` does not:
/// a variant's own, which the object around it, closed, refuses (a branch that only asks for
/// some of the object's fields, `{"required": ["phone"]}`, names none). Each definition is
/// looked into once: `followed` holds those already looked into, which named none.
fn names_others<'s>(
    branches: &'s [Value],
    fields: &Map<String, Value>,
    root: walk::Root<'s>,
    followed: &mut Vec<&'s str>,
) -> bool {
    branches.iter().any(|branch| {
        let reference = branch.get("$ref").and_then(Value::as_str);
        if let Some(reference) = reference {
            if followed.contains(&reference) {
                return false;
            }
            followed.push(reference);
        }
        let Some(branch) = root.deref(branch) else {
            return false;
        };
        let named = (branch.get("properties").and_then(Value::as_object))
            .is_some_and(|named| named.keys().any(|name| !fields.contains_key(name)));
        named
            || keywords::UNIONS.into_iter().any(|union| {
                (branch.get(union).and_then(Value::as_array))
                    .is_some_and(|within| names_others(within, fields, root, followed))
            })
    })
}

/// Why an object beside a union none of whose variants is read is refused.
fn every_variant_shadowed(field: &str) -> String {
    format!(
        "every variant of the enum beside this object's fields requires `{field}`, a field the \
         object names itself (a struct's own field beside the enum it flattens, or the tag of \
         the enum whose variant wraps it): serde reads `{field}` as the object's and never \
         hands it to the enum, so no call would be read; give one of them another name \
         (`#[serde(tag = \"kind\")]`, `#[serde(rename = \"...\")]`)"
    )
}

/// Why an object closed beside a union of objects is refused: every variant of a flattened
/// enum is written with the object's fields (`schema/flattened.rs`), save where it could not
/// be, and closed as they stand each would refuse the other's fields.
fn fields_beside_union(union: &str) -> String {
    format!(
        "these fields sit beside a union of variants (`{union}`: a struct flattening an enum, \
         or a tagged variant wrapping one), and the registry could not write the fields into \
         each variant (more than 256 pairings of variants, more than 16 enums each wrapping \
         the next, or a variant it cannot take apart); as it stands, every call sending a \
         variant's own fields would be refused: flatten fewer enums (or wrap fewer in each \
         other), or make the enum a field of its own (`action: Action`)"
    )
}

/// Whether a schema constrains nothing: `true`, or an object with no type-giving keyword.
fn says_nothing(schema: &Value) -> bool {
    match schema {
        Value::Bool(true) => true,
        Value::Object(map) => ![
            "type",
            "$ref",
            "anyOf",
            "oneOf",
            "allOf",
            "enum",
            "const",
            "properties",
            "items",
        ]
        .iter()
        .any(|key| map.contains_key(*key)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_closed_beside_variants_of_their_own_fields_is_refused_each_definition_once() {
        // Twelve variants holding the enum again, and one with a field of its own: each
        // definition looked into once, not twelve times over at each depth.
        let mut holding: Vec<Value> = vec![json!({"$ref": "#/$defs/Nest"}); 12];
        holding.push(json!({"properties": {"depth": {}}}));
        let schema = json!({
            "type": "object",
            "properties": {"id": {"type": "integer"}},
            "additionalProperties": false,
            "anyOf": [{"$ref": "#/$defs/Nest"}],
            "$defs": {"Nest": {"anyOf": holding}}
        });
        let found = unenforceable(schema.as_object().unwrap());
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .1
                .contains("beside a union of variants (`anyOf`: a struct flattening an enum"),
            "{found:?}"
        );
        // A branch that only asks for some of the object's own fields is no variant.
        let asks = json!({
            "type": "object",
            "properties": {"phone": {"type": "string"}, "email": {"type": "string"}},
            "additionalProperties": false,
            "anyOf": [{"required": ["phone"]}, {"required": ["email"]}]
        });
        assert_eq!(unenforceable(asks.as_object().unwrap()), []);
    }
}
