//! Adjusting refused arguments for the slips a [`Leniency`] forgives: a number or a boolean
//! sent as text, one value sent for a list, an object or a list sent as JSON text.
//!
//! It runs only once a tool has refused the arguments, never on a good call. It changes only a
//! value whose JSON type the schema does not allow where the schema asks for exactly one type
//! (an `Option`'s `null` aside), so a value the tool would take is never changed, and a value
//! inside a union of several types is left alone. It does not decide whether to adjust or what
//! to do with the adjusted text; the registry does.
//!
//! Bounded as the checker is: one visit per value of the arguments (and of the JSON text read
//! as values), each following at most [`MAX_HOPS`] `$ref`s and optionals, and no deeper than
//! [`MAX_ARGUMENT_DEPTH`](super::MAX_ARGUMENT_DEPTH) levels.

use serde_json::{Map, Number, Value};

use super::MAX_ARGUMENT_DEPTH;
use super::path::{Path, quote};
use crate::args::leniency::Leniency;
use crate::args::tree::Node;
use crate::schema::keywords::only_solid_branch;
use crate::schema::patterns::NONE;
use crate::schema::walk::{Lookup, Root};

/// How many `$ref`s and optionals one value's schema may go through before it counts as
/// saying nothing: more than any schema schemars writes, and finite for one that refers to
/// itself without end.
const MAX_HOPS: usize = 16;

/// One value adjusted: where, and what was done, in words for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Adjustment {
    /// The value's path, as a fault names it; empty for the arguments as a whole.
    pub(crate) path: String,
    /// What was done: `read the text "10" as the number 10`.
    pub(crate) done: String,
}

/// The arguments' text with every slip `leniency` forgives adjusted, and the adjustments, or
/// `None` when there is nothing to adjust (or the text is not JSON).
pub(crate) fn adjust(
    arguments: &str,
    schema: &Map<String, Value>,
    leniency: Leniency,
) -> Option<(String, Vec<Adjustment>)> {
    if leniency.is_none() {
        return None;
    }
    let mut value = Node::parse(arguments).ok()?;
    let mut adjuster = Adjuster {
        root: Root::new(schema),
        leniency,
        adjustments: Vec::new(),
    };
    adjuster.visit(&mut value, schema, &mut Path::default(), 0);
    if adjuster.adjustments.is_empty() {
        return None;
    }
    // Each number as sent: written from the tree, a `u128` past 64 bits would be a double.
    let text = super::written::text(&value, arguments);
    Some((text, adjuster.adjustments))
}

struct Adjuster<'s> {
    root: Root<'s>,
    leniency: Leniency,
    adjustments: Vec<Adjustment>,
}

/// The one JSON type a schema asks for, `null` aside.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Number,
    Boolean,
    Array,
    Object,
}

impl<'s> Adjuster<'s> {
    fn note(&mut self, path: &Path, done: String) {
        self.adjustments.push(Adjustment {
            path: path.0.clone(),
            done,
        });
    }

    /// Adjusts `value`, and the values inside it, to `schema`.
    fn visit(
        &mut self,
        value: &mut Node<'_>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
        depth: usize,
    ) {
        if depth >= MAX_ARGUMENT_DEPTH {
            return;
        }
        let Some(schema) = self.single(schema) else {
            return;
        };
        let Some(kind) = kind_of(schema) else {
            return;
        };
        match kind {
            Kind::Integer | Kind::Number | Kind::Boolean => self.scalar(value, kind, path),
            Kind::Array => {
                self.list(value, path);
                if let Node::Array(items) = value {
                    self.visit_items(items, schema, path, depth);
                }
            }
            Kind::Object => {
                self.object(value, path);
                if let Node::Object(fields) = value {
                    self.visit_fields(fields, schema, path, depth);
                }
            }
        }
    }

    /// The schema that says what `schema` asks for: through `$ref`s, and through an
    /// optional's `anyOf`/`oneOf` of one schema and `null`; `None` for a union of several.
    fn single(&self, mut schema: &'s Map<String, Value>) -> Option<&'s Map<String, Value>> {
        for _ in 0..MAX_HOPS {
            if let Some(reference) = schema.lookup("$ref").and_then(Value::as_str) {
                schema = self.root.resolve(reference)?.as_object()?;
                continue;
            }
            let branches = schema
                .lookup("anyOf")
                .or_else(|| schema.lookup("oneOf"))
                .and_then(Value::as_array);
            let Some(branches) = branches else {
                return Some(schema);
            };
            schema = only_solid_branch(branches)?.as_object()?;
        }
        None
    }

    /// Text that is exactly a JSON number (of the kind asked for) or boolean, read as one.
    fn scalar(&mut self, value: &mut Node<'_>, kind: Kind, path: &Path) {
        if !self.leniency.forgives_scalars_as_text() {
            return;
        }
        let Node::String(text) = value else {
            return;
        };
        let (read, done) = match kind {
            Kind::Boolean => match text.as_ref() {
                "true" => (Node::Bool(true), "the boolean true".to_owned()),
                "false" => (Node::Bool(false), "the boolean false".to_owned()),
                _ => return,
            },
            _ => match number_in(text, kind == Kind::Integer) {
                Some(number) => {
                    let done = format!("the number {number}");
                    (Node::Number(number), done)
                }
                None => return,
            },
        };
        let done = format!("read the text {} as {done}", quote(text));
        *value = read;
        self.note(path, done);
    }

    /// Text that holds a JSON list, read as the list; one other value (not `null`), made a
    /// list of one.
    fn list(&mut self, value: &mut Node<'_>, path: &Path) {
        match value {
            Node::Array(_) | Node::Null => {}
            Node::String(text) if text.trim_start().starts_with('[') => {
                // Text that looks like a list is never taken for one value.
                if self.leniency.forgives_json_text()
                    && let Ok(list @ Node::Array(_)) = Node::parse(text)
                {
                    *value = list.into_owned();
                    self.note(path, "read the JSON text as a list".to_owned());
                }
            }
            _ if self.leniency.forgives_one_as_list() => {
                let one = std::mem::replace(value, Node::Null);
                *value = Node::Array(vec![one]);
                self.note(path, "read one value as a list of one".to_owned());
            }
            _ => {}
        }
    }

    /// Text that holds a JSON object, read as the object.
    fn object(&mut self, value: &mut Node<'_>, path: &Path) {
        if !self.leniency.forgives_json_text() {
            return;
        }
        if let Node::String(text) = value
            && let Ok(object @ Node::Object(_)) = Node::parse(text)
        {
            *value = object.into_owned();
            self.note(path, "read the JSON text as an object".to_owned());
        }
    }

    fn visit_items(
        &mut self,
        items: &mut [Node<'_>],
        schema: &'s Map<String, Value>,
        path: &mut Path,
        depth: usize,
    ) {
        let prefix = schema
            .lookup("prefixItems")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let rest = schema.lookup("items").and_then(Value::as_object);
        for (index, item) in items.iter_mut().enumerate() {
            let Some(item_schema) = prefix.get(index).and_then(Value::as_object).or(rest) else {
                continue;
            };
            path.with_index(index, |path| self.visit(item, item_schema, path, depth + 1));
        }
    }

    fn visit_fields(
        &mut self,
        fields: &mut [(std::borrow::Cow<'_, str>, Node<'_>)],
        schema: &'s Map<String, Value>,
        path: &mut Path,
        depth: usize,
    ) {
        let properties = schema.lookup("properties").and_then(Value::as_object);
        let others = schema
            .lookup("additionalProperties")
            .and_then(Value::as_object);
        let keyed = schema
            .lookup("patternProperties")
            .and_then(Value::as_object);
        for (key, item) in fields.iter_mut() {
            // A field's own schema; else the first a pattern its name matches gives (a map
            // keyed by numbers); else the others'.
            let by_pattern = || (keyed?.iter()).find(|(pattern, _)| NONE.key_matches(pattern, key));
            let field_schema = match properties.and_then(|properties| properties.lookup(key)) {
                Some(property) => property.as_object(),
                None => by_pattern().map_or(others, |(_, values)| values.as_object()),
            };
            let Some(field_schema) = field_schema else {
                continue;
            };
            path.with_field(key, |path| self.visit(item, field_schema, path, depth + 1));
        }
    }
}

/// The one type `schema` asks for, `null` aside; `None` for none or several.
fn kind_of(schema: &Map<String, Value>) -> Option<Kind> {
    let name = match schema.lookup("type")? {
        Value::String(name) => name.as_str(),
        Value::Array(names) => {
            let mut solid = names
                .iter()
                .filter_map(Value::as_str)
                .filter(|name| *name != "null");
            match (solid.next(), solid.next()) {
                (Some(only), None) => only,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(match name {
        "integer" => Kind::Integer,
        "number" => Kind::Number,
        "boolean" => Kind::Boolean,
        "array" => Kind::Array,
        "object" => Kind::Object,
        _ => return None,
    })
}

/// The number `text` is, if it is exactly one in JSON (no spaces around it), and, when
/// `integer`, a whole one without a fraction or an exponent.
fn number_in(text: &str, integer: bool) -> Option<Number> {
    if text.trim() != text {
        return None;
    }
    let number: Number = serde_json::from_str(text).ok()?;
    let whole = number.is_i64() || number.is_u64();
    (whole || !integer).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Map<String, Value> {
        json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "format": "uint32", "minimum": 0},
                "ratio": {"type": ["number", "null"]},
                "exact": {"type": "boolean"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "sizes": {"type": ["array", "null"], "items": {"type": "integer"}},
                "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
                "name": {"type": "string"},
                "either": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
                "scores": {"type": "object", "additionalProperties": {"type": "integer"}}
            },
            "additionalProperties": false,
            "$defs": {
                "Filter": {
                    "type": "object",
                    "properties": {"tags": {"type": "array", "items": {"type": "string"}},
                                   "since": {"type": "integer"}},
                    "additionalProperties": false
                }
            }
        })
        .as_object()
        .cloned()
        .unwrap()
    }

    fn adjusted(arguments: Value, leniency: Leniency) -> Option<(Value, Vec<(String, String)>)> {
        let (text, adjustments) = adjust(&arguments.to_string(), &schema(), leniency)?;
        let adjustments = adjustments
            .into_iter()
            .map(|adjustment| (adjustment.path, adjustment.done))
            .collect();
        Some((serde_json::from_str(&text).unwrap(), adjustments))
    }

    fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(path, done)| ((*path).to_owned(), (*done).to_owned()))
            .collect()
    }

    #[test]
    fn numbers_and_booleans_sent_as_text_are_read_as_what_they_say() {
        let (value, adjustments) = adjusted(
            json!({"limit": "10", "ratio": "2.5", "exact": "true", "name": "7"}),
            Leniency::all(),
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"limit": 10, "ratio": 2.5, "exact": true, "name": "7"})
        );
        assert_eq!(
            adjustments,
            pairs(&[
                ("limit", r#"read the text "10" as the number 10"#),
                ("ratio", r#"read the text "2.5" as the number 2.5"#),
                ("exact", r#"read the text "true" as the boolean true"#),
            ])
        );
    }

    #[test]
    fn text_that_is_not_exactly_a_number_of_the_kind_asked_for_is_left_alone() {
        for limit in [
            "ten", " 10", "10 ", "2.5", "1e3", "", "0x10", "1,000", "NaN",
        ] {
            assert_eq!(
                adjusted(json!({"limit": limit}), Leniency::all()),
                None,
                "{limit:?}"
            );
        }
        for exact in ["True", "yes", "1", ""] {
            assert_eq!(adjusted(json!({"exact": exact}), Leniency::all()), None);
        }
    }

    #[test]
    fn one_value_for_a_list_becomes_a_list_of_one_and_is_adjusted_in_turn() {
        let (value, adjustments) =
            adjusted(json!({"tags": "a", "sizes": "3"}), Leniency::all()).unwrap();
        assert_eq!(value, json!({"tags": ["a"], "sizes": [3]}));
        assert_eq!(
            adjustments,
            pairs(&[
                ("tags", "read one value as a list of one"),
                ("sizes", "read one value as a list of one"),
                ("sizes[0]", r#"read the text "3" as the number 3"#),
            ])
        );
        assert_eq!(
            adjusted(json!({"tags": null, "sizes": null}), Leniency::all()),
            None
        );
    }

    #[test]
    fn json_text_is_read_as_the_object_or_list_it_holds_and_adjusted_inside() {
        let (value, adjustments) = adjusted(
            json!({"filter": r#"{"tags": "a", "since": "5"}"#, "tags": r#"["a", "b"]"#}),
            Leniency::all(),
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"filter": {"tags": ["a"], "since": 5}, "tags": ["a", "b"]})
        );
        assert_eq!(
            adjustments,
            pairs(&[
                ("filter", "read the JSON text as an object"),
                ("filter.tags", "read one value as a list of one"),
                ("filter.since", r#"read the text "5" as the number 5"#),
                ("tags", "read the JSON text as a list"),
            ])
        );
    }

    #[test]
    fn text_that_looks_like_a_list_is_never_taken_for_one_value() {
        let only_one = Leniency::none().one_as_list();
        assert_eq!(adjusted(json!({"tags": r#"["a", "b"]"#}), only_one), None);
        assert_eq!(
            adjusted(json!({"tags": "[not json"}), Leniency::all()),
            None
        );
    }

    #[test]
    fn only_the_slips_forgiven_are_adjusted() {
        let arguments = json!({"limit": "10", "tags": "a", "filter": "{}"});
        assert_eq!(adjusted(arguments.clone(), Leniency::none()), None);
        let only = |leniency| adjusted(arguments.clone(), leniency).unwrap().1;
        assert_eq!(only(Leniency::none().scalars_as_text())[0].0, "limit");
        assert_eq!(only(Leniency::none().one_as_list())[0].0, "tags");
        assert_eq!(only(Leniency::none().json_text())[0].0, "filter");
    }

    #[test]
    fn values_of_an_allowed_type_unions_and_unknown_fields_are_left_alone() {
        let arguments = json!({
            "name": "10", "either": "10", "other": "10", "limit": 10, "tags": ["a"]
        });
        assert_eq!(adjusted(arguments, Leniency::all()), None);
    }

    #[test]
    fn map_values_and_text_sent_for_all_the_arguments_are_adjusted() {
        let (value, adjustments) =
            adjusted(json!({"scores": {"a": "1"}}), Leniency::all()).unwrap();
        assert_eq!(value, json!({"scores": {"a": 1}}));
        assert_eq!(adjustments[0].0, "scores.a");
        let text = json!(r#"{"limit": "2"}"#).to_string();
        let (text, adjustments) = adjust(&text, &schema(), Leniency::all()).unwrap();
        assert_eq!(text, r#"{"limit":2}"#);
        assert_eq!(
            adjustments
                .iter()
                .map(|a| a.path.as_str())
                .collect::<Vec<_>>(),
            ["", "limit"]
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_without_end_says_nothing() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/A"}}
        });
        let schema = schema.as_object().unwrap();
        assert_eq!(adjust(r#"{"a": "1"}"#, schema, Leniency::all()), None);
    }
}
