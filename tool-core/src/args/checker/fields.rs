//! An object's fields held to its schema: `properties` and `required`, the fields it does not
//! name (`additionalProperties`, `patternProperties`), and how many it has.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use super::Checker;
use crate::args::path::Path;
use crate::args::tree::Node;
use crate::outcome::suggest::nearest;
use crate::schema::integer_keys::keys_in_words;
use crate::schema::keywords::Keywords;
use crate::schema::walk::Lookup;

impl<'s> Checker<'s> {
    pub(super) fn check_fields(
        &mut self,
        object: &mut Vec<(Cow<'_, str>, Node<'_>)>,
        keywords: &Keywords<'s>,
        path: &mut Path,
    ) {
        let properties = keywords.properties.and_then(Value::as_object);
        let extra = keywords.additional_properties;
        if let Some(properties) = properties.filter(|_| Node::sent_twice(object)) {
            // A struct's field is read once; serde refuses a second (and would name only the
            // first field sent twice).
            for key in properties.keys() {
                if object
                    .iter()
                    .filter(|(name, _)| name == key)
                    .nth(1)
                    .is_some()
                {
                    path.with_field(key, |path| {
                        self.fault(
                            path,
                            format!("duplicate field `{key}`: sent more than once; send it once"),
                        )
                    });
                }
            }
        }
        let known =
            |key: &str| properties.is_some_and(|properties| properties.lookup(key).is_some());
        let keyed = keywords.pattern_properties.and_then(Value::as_object);
        match extra {
            _ if keyed.is_some() => self.check_keyed(object, keyed, extra, known, path),
            Some(Value::Bool(false)) => {
                let mut unsent = None;
                let unknown = object.iter().filter(|(key, _)| !known(key));
                for (told, (key, value)) in unknown.enumerate() {
                    let unsent = unsent.get_or_insert_with(|| Unsent::of(properties, object));
                    let near = (told < MAX_SUGGESTED)
                        .then(|| nearest(key, unsent.names()))
                        .flatten();
                    let problem = match near {
                        Some(meant) => format!("unknown field; did you mean {meant}?"),
                        None => match unsent.inside(value) {
                            Some((fields, 1)) => format!(
                                "unknown field; {fields} inside it is a field of this object: \
                                 send it without `{key}` around it"
                            ),
                            Some((fields, _)) => format!(
                                "unknown field; {fields} inside it are fields of this object: \
                                 send them without `{key}` around them"
                            ),
                            None => "unknown field".to_owned(),
                        },
                    };
                    path.with_field(key, |path| self.fault(path, problem));
                }
            }
            Some(extra @ Value::Object(_)) => {
                for (key, value) in object.iter_mut().filter(|(key, _)| !known(key)) {
                    path.with_field(key, |path| self.check(value, extra, path));
                }
            }
            _ => {}
        }
        let bounds = (keywords.min_properties, keywords.max_properties);
        self.check_count(object.len(), bounds, "fields", path);
        let required = keywords.required.and_then(Value::as_array);
        // A field required here and described elsewhere (`anyOf: [{"required": ["phone"]}]`
        // beside the object's `properties`), or nowhere.
        let elsewhere = required.filter(|_| self.required_elsewhere);
        for key in elsewhere.into_iter().flatten().filter_map(Value::as_str) {
            if !object.iter().any(|(name, _)| name == key) && !known(key) {
                path.with_field(key, |path| self.fault(path, "missing".to_owned()));
            }
        }
        let Some(properties) = properties else {
            return;
        };
        for (key, property) in properties {
            let value = object
                .iter_mut()
                .find_map(|(name, value)| (name == key).then_some(value));
            match value {
                Some(value) => path.with_field(key, |path| self.check(value, property, path)),
                None if required.is_some_and(|required| required.iter().any(|r| r == key)) => {
                    let expected = self.words.of(property);
                    path.with_field(key, |path| {
                        self.fault(path, format!("missing; expected {expected}"))
                    });
                }
                None => {}
            }
        }
    }

    /// The fields `properties` does not name, of an object with `patternProperties` (a map
    /// keyed by numbers, as schemars describes one): each held to the schema of every pattern
    /// its name matches, or, matching none, to `additionalProperties`.
    #[cold]
    fn check_keyed(
        &mut self,
        object: &mut [(Cow<'_, str>, Node<'_>)],
        keyed: Option<&'s Map<String, Value>>,
        extra: Option<&'s Value>,
        known: impl Fn(&str) -> bool,
        path: &mut Path,
    ) {
        let Some(keyed) = keyed else { return };
        for (key, value) in object.iter_mut().filter(|(key, _)| !known(key)) {
            let mut matched = false;
            for (pattern, values) in keyed {
                if self.patterns.key_matches(pattern, key) {
                    matched = true;
                    path.with_field(key, |path| self.check(value, values, path));
                }
            }
            match extra {
                _ if matched => {}
                Some(Value::Bool(false)) => {
                    let patterns: Vec<String> = (keyed.keys())
                        .map(|pattern| match keys_in_words(pattern) {
                            Some(words) => words,
                            None => format!("matching {pattern}"),
                        })
                        .collect();
                    let problem = format!("expected a key {}", patterns.join(" or "));
                    path.with_field(key, |path| self.fault(path, problem));
                }
                Some(extra @ Value::Object(_)) => {
                    path.with_field(key, |path| self.check(value, extra, path));
                }
                _ => {}
            }
        }
    }
}

/// How many unknown fields of one object are compared with its fields for a `did you mean`:
/// each comparison costs the product of two names' lengths, and arguments of many thousands of
/// unknown fields are no near miss.
const MAX_SUGGESTED: usize = 64;

/// The most fields [`Unsent::inside`] names.
const INSIDE_NAMED: usize = 4;

/// The fields `properties` names that an object lacks, in the schema's order: what its unknown
/// fields may have meant. An object of many fields has its names put in a set once, for all
/// its unknown fields, as it may have many; a few are scanned.
struct Unsent<'p, 'o> {
    /// The object's schema's fields.
    properties: Option<&'p Map<String, Value>>,
    /// The names the object was sent.
    object: &'o [(Cow<'o, str>, Node<'o>)],
    /// The same, for lookups, where there are many.
    sent: Option<HashSet<&'o str>>,
}

impl<'p, 'o> Unsent<'p, 'o> {
    /// The fields of `properties` that `object` lacks.
    fn of(
        properties: Option<&'p Map<String, Value>>,
        object: &'o [(Cow<'o, str>, Node<'o>)],
    ) -> Self {
        let sent = (object.len() > SCANNED)
            .then(|| object.iter().map(|(name, _)| name.as_ref()).collect());
        Unsent {
            properties,
            object,
            sent,
        }
    }

    /// Whether the object was sent `name`.
    fn sent(&self, name: &str) -> bool {
        match &self.sent {
            Some(sent) => sent.contains(name),
            None => self.object.iter().any(|(sent, _)| sent == name),
        }
    }

    /// The names, in the schema's order.
    fn names(&self) -> impl Iterator<Item = &'p str> {
        (self
            .properties
            .into_iter()
            .flat_map(|properties| properties.keys()))
        .map(String::as_str)
        .filter(|field| !self.sent(field))
    }

    /// Whether `name` is one of them.
    fn holds(&self, name: &str) -> bool {
        self.properties
            .is_some_and(|properties| properties.lookup(name).is_some())
            && !self.sent(name)
    }

    /// Those an unknown field's `value` (an object) holds, quoted and listed: the arguments
    /// wrapped one level too deep (`{"arguments": {"id": 1}}`, `{"input": ...}`, the tool's
    /// name around them), and how many. `None` where it holds none.
    #[cold]
    fn inside(&self, value: &Node<'_>) -> Option<(String, usize)> {
        let Node::Object(inner) = value else {
            return None;
        };
        let mut named: Vec<&str> = Vec::new();
        let mut count = 0;
        for (name, _) in inner {
            if self.holds(name) && !named.contains(&name.as_ref()) {
                count += 1;
                if named.len() < INSIDE_NAMED {
                    named.push(name);
                }
            }
        }
        if count == 0 {
            return None;
        }
        let mut listed: Vec<String> = (named.iter())
            .map(|name| format!("`{}`", crate::outcome::shorten::shortened(name)))
            .collect();
        if count > INSIDE_NAMED {
            listed.push("…".to_owned());
        }
        Some((listed.join(", "), count))
    }
}

/// Past how many names a set is made rather than a list scanned.
const SCANNED: usize = 16;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::args::validate;

    #[test]
    fn a_key_a_pattern_takes_is_held_to_its_schema_and_no_other() {
        let schema = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "patternProperties": {"^\\d+$": {"type": "integer"}, "^-?\\d+$": {"minimum": 0}},
            "additionalProperties": {"type": "boolean"},
        });
        let schema = schema.as_object().cloned().unwrap_or_default();
        let faults = |value: serde_json::Value| {
            let faults = validate(&value, &schema);
            (faults.into_iter())
                .map(|fault| format!("{}: {}", fault.path, fault.problem))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            faults(json!({"name": "a", "1": 2, "-3": true, "x": false})),
            Vec::<String>::new(),
            "a field of `properties`, a key each pattern takes, and another"
        );
        assert_eq!(
            faults(json!({"name": 1, "2": "b", "-3": -1, "x": 4})),
            [
                "2: expected integer, received \"b\"",
                "-3: expected at least 0, received -1",
                "x: expected boolean, received 4",
                "name: expected string, received 1",
            ]
        );
    }
}
