//! Argument parsing: from a call's JSON text to a tool's typed input, or to a refusal that
//! names every fault by its path.
//!
//! Good arguments take one pass: `serde_json` deserializes the text straight into the input
//! type, with a thin wrapper that refuses unknown top-level fields. Only when that fails does
//! the slow path run: the text is parsed into a `serde_json::Value`, checked against the input's
//! JSON Schema to find *every* fault (unknown fields, missing fields, wrong values, each with
//! its path, such as `items[2].qty`), and, when the only trouble was a field set to `null`,
//! deserialized again with those nulls taken as absent.
//!
//! This module knows nothing of tools or registries: it turns text into a value or a refusal.

use std::fmt::{self, Write as _};

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor,
};
use serde_json::{Map, Value};

use crate::refusal::{Line, Refusal};

/// One thing wrong with a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Where: `text`, `filter.since`, `items[2].qty`; empty for the arguments as a whole.
    pub path: String,
    /// What is wrong: `missing`, `unknown field`, `expected u32, received "x"`.
    pub problem: String,
}

/// Parses `arguments` into `T`, whose JSON Schema is `schema`; on failure, a `bad-arguments`
/// refusal listing every fault found, followed by a `fields` line naming the fields `tool`
/// takes.
pub fn parse<T: DeserializeOwned>(
    arguments: &str,
    schema: &Map<String, Value>,
    tool: &str,
) -> Result<T, Refusal> {
    let mut deserializer = serde_json::Deserializer::from_str(arguments);
    let fast = T::deserialize(TopLevel(&mut deserializer)).and_then(|value| {
        deserializer.end()?;
        Ok(value)
    });
    match fast {
        Ok(value) => Ok(value),
        Err(first_error) => parse_slowly(arguments, schema, &first_error)
            .map_err(|faults| refusal(tool, schema, faults)),
    }
}

/// The path taken once the fast path has failed: find every fault, or, if there is none
/// (the trouble was only nulls standing for absent fields), deserialize the cleaned value.
fn parse_slowly<T: DeserializeOwned>(
    arguments: &str,
    schema: &Map<String, Value>,
    first_error: &serde_json::Error,
) -> Result<T, Vec<Fault>> {
    let mut value: Value = serde_json::from_str(arguments).map_err(|error| {
        vec![Fault {
            path: String::new(),
            problem: format!("not valid JSON: {error}"),
        }]
    })?;
    if !value.is_object() {
        return Err(vec![Fault {
            path: String::new(),
            problem: format!("expected an object, received {}", received(&value)),
        }]);
    }
    let mut checker = Checker {
        root: schema,
        faults: Vec::new(),
        null_is_absent: true,
    };
    checker.check_object_schema(&mut value, schema, &mut Path::default());
    if first_error.to_string().starts_with("duplicate field") {
        checker.faults.push(Fault {
            path: String::new(),
            problem: first_error.to_string(),
        });
    }
    if !checker.faults.is_empty() {
        return Err(checker.faults);
    }
    T::deserialize(TopLevel(value)).map_err(|error| {
        vec![Fault {
            path: String::new(),
            problem: error.to_string(),
        }]
    })
}

fn refusal(tool: &str, schema: &Map<String, Value>, faults: Vec<Fault>) -> Refusal {
    let count = faults.len();
    let mut refusal = Refusal::bad_arguments(format!(
        "{count} fault{} in the arguments of {tool}; nothing ran",
        if count == 1 { "" } else { "s" }
    ));
    refusal.lines.extend(faults.into_iter().map(|fault| {
        let path = if fault.path.is_empty() {
            "(arguments)".to_owned()
        } else {
            fault.path
        };
        Line::new("fault", [path, fault.problem])
    }));
    let fields = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    refusal.lines.push(Line::new("fields", fields));
    refusal
}

/// What a model should send for `schema` (a property of `root`), in the words fault messages
/// use: `u32`, `string`, `array of object with fields sku, qty`.
pub(crate) fn describe(schema: &Value, root: &Map<String, Value>) -> String {
    Checker {
        root,
        faults: Vec::new(),
        null_is_absent: true,
    }
    .describe(schema)
}

/// Every way `value` departs from `schema`, taking `null` at face value: for checking what a
/// tool wrote against the schema it advertised.
pub(crate) fn validate(value: &Value, schema: &Map<String, Value>) -> Vec<Fault> {
    let mut checker = Checker {
        root: schema,
        faults: Vec::new(),
        null_is_absent: false,
    };
    checker.check_object_schema(&mut value.clone(), schema, &mut Path::default());
    checker.faults
}

/// A path into the arguments, rendered as `a.b[2].c`.
#[derive(Default)]
struct Path(String);

impl Path {
    fn with_field<R>(&mut self, field: &str, f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
        if !self.0.is_empty() {
            self.0.push('.');
        }
        self.0.push_str(field);
        let result = f(self);
        self.0.truncate(len);
        result
    }

    fn with_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
        let _ = write!(self.0, "[{index}]");
        let result = f(self);
        self.0.truncate(len);
        result
    }
}

/// Checks a JSON value against a schemars-generated schema, collecting every fault, and removes
/// `null` fields from objects that are structs (so that `null` counts as absent).
///
/// It understands what schemars emits for Rust types: `type` (and arrays of types), integer
/// `format`s, `minimum`/`maximum`, string lengths, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `items`, `prefixItems`, array lengths, `anyOf`/`oneOf`/`allOf` and
/// local `$ref`s. A fault it cannot see is still caught by serde, with serde's message.
struct Checker<'s> {
    root: &'s Map<String, Value>,
    faults: Vec<Fault>,
    /// Whether a struct's field set to `null` counts as absent (arguments: yes; outputs, which
    /// the tool wrote itself: no).
    null_is_absent: bool,
}

impl<'s> Checker<'s> {
    fn fault(&mut self, path: &Path, problem: String) {
        self.faults.push(Fault {
            path: path.0.clone(),
            problem,
        });
    }

    fn check(&mut self, value: &mut Value, schema: &'s Value, path: &mut Path) {
        match schema {
            Value::Bool(true) => {}
            Value::Bool(false) => self.fault(path, "not allowed here".to_owned()),
            Value::Object(schema) => self.check_object_schema(value, schema, path),
            _ => {}
        }
    }

    fn check_object_schema(
        &mut self,
        value: &mut Value,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| self.resolve(reference))
        {
            self.check(value, target, path);
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            for branch in all {
                self.check(value, branch, path);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.get(key) {
                self.check_branches(value, branches, path);
            }
        }
        let allowed = match (schema.get("enum"), schema.get("const"), schema.get("type")) {
            (Some(Value::Array(allowed)), _, _) => allowed.contains(value),
            (_, Some(constant), _) => constant == value,
            (_, _, Some(types)) => type_matches(types, value),
            _ => true,
        };
        if !allowed {
            let expected = self.describe_map(schema);
            self.fault(
                path,
                format!("expected {expected}, received {}", received(value)),
            );
            return;
        }
        match value {
            Value::Number(number) => self.check_number(number, schema, path),
            Value::String(text) => self.check_string(text, schema, path),
            Value::Array(items) => self.check_array(items, schema, path),
            Value::Object(object) => self.check_fields(object, schema, path),
            Value::Null | Value::Bool(_) => {}
        }
    }

    /// `anyOf`/`oneOf`: fine if any branch accepts the value. Otherwise report the faults of
    /// the one branch whose shape the value has (an enum variant's object, say), or one fault
    /// naming every branch.
    fn check_branches(&mut self, value: &mut Value, branches: &'s [Value], path: &mut Path) {
        let mut candidates = Vec::new();
        for branch in branches {
            let mut trial = value.clone();
            let mut checker = Checker {
                root: self.root,
                faults: Vec::new(),
                null_is_absent: self.null_is_absent,
            };
            checker.check(&mut trial, branch, path);
            if checker.faults.is_empty() {
                *value = trial;
                return;
            }
            if self.shape_matches(branch, value) {
                candidates.push(checker.faults);
            }
        }
        if candidates.len() == 1 {
            self.faults.extend(candidates.remove(0));
        } else {
            let expected = branches
                .iter()
                .map(|branch| self.describe(branch))
                .collect::<Vec<_>>()
                .join(" or ");
            self.fault(
                path,
                format!("expected {expected}, received {}", received(value)),
            );
        }
    }

    /// Whether `value` has the JSON type `schema` asks for and, for objects, carries a key the
    /// schema names (how an externally tagged enum variant is told apart).
    fn shape_matches(&self, schema: &'s Value, value: &Value) -> bool {
        let Some(schema) = self.deref(schema) else {
            return false;
        };
        if schema.contains_key("enum") || schema.contains_key("const") {
            return false;
        }
        let typed = schema
            .get("type")
            .is_some_and(|types| type_matches(types, value));
        match (value, schema.get("properties").and_then(Value::as_object)) {
            (Value::Object(object), Some(properties)) => {
                typed && object.keys().any(|key| properties.contains_key(key))
            }
            _ => typed,
        }
    }

    fn check_number(
        &mut self,
        number: &serde_json::Number,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        if let Some((min, max)) = schema
            .get("format")
            .and_then(Value::as_str)
            .and_then(integer_range)
        {
            let fits = match (number.as_i64(), number.as_u64()) {
                (Some(n), _) => i128::from(n) >= min && i128::from(n) <= max,
                (None, Some(n)) => i128::from(n) >= min && i128::from(n) <= max,
                (None, None) => true,
            };
            if !fits {
                let expected = self.describe_map(schema);
                self.fault(
                    path,
                    format!("expected {expected}, received {number}, which is out of range"),
                );
                return;
            }
        }
        let Some(n) = number.as_f64() else { return };
        for (keyword, words) in [
            ("minimum", "at least"),
            ("maximum", "at most"),
            ("exclusiveMinimum", "more than"),
            ("exclusiveMaximum", "less than"),
        ] {
            let holds = |bound: f64| match keyword {
                "minimum" => n >= bound,
                "maximum" => n <= bound,
                "exclusiveMinimum" => n > bound,
                _ => n < bound,
            };
            if let Some(bound) = schema.get(keyword).and_then(Value::as_f64)
                && !holds(bound)
            {
                self.fault(path, format!("expected {words} {bound}, received {number}"));
            }
        }
    }

    fn check_string(&mut self, text: &str, schema: &'s Map<String, Value>, path: &mut Path) {
        let length = text.chars().count() as u64;
        let min = schema.get("minLength").and_then(Value::as_u64);
        let max = schema.get("maxLength").and_then(Value::as_u64);
        if min == Some(1) && max == Some(1) && length != 1 {
            self.fault(
                path,
                format!("expected a single character, received {}", quote(text)),
            );
            return;
        }
        if let Some(min) = min.filter(|min| length < *min) {
            self.fault(
                path,
                format!("expected at least {min} characters, received {length}"),
            );
        }
        if let Some(max) = max.filter(|max| length > *max) {
            self.fault(
                path,
                format!("expected at most {max} characters, received {length}"),
            );
        }
    }

    fn check_array(
        &mut self,
        items: &mut [Value],
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        let length = items.len() as u64;
        if let Some(min) = schema
            .get("minItems")
            .and_then(Value::as_u64)
            .filter(|min| length < *min)
        {
            self.fault(
                path,
                format!("expected at least {min} items, received {length}"),
            );
        }
        if let Some(max) = schema
            .get("maxItems")
            .and_then(Value::as_u64)
            .filter(|max| length > *max)
        {
            self.fault(
                path,
                format!("expected at most {max} items, received {length}"),
            );
        }
        let prefix = schema
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (index, item) in items.iter_mut().enumerate() {
            let item_schema = prefix.get(index).or_else(|| schema.get("items"));
            if let Some(item_schema) = item_schema {
                path.with_index(index, |path| self.check(item, item_schema, path));
            }
        }
    }

    fn check_fields(
        &mut self,
        object: &mut Map<String, Value>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        let extra = schema.get("additionalProperties");
        if let Some(properties) = properties.filter(|_| self.null_is_absent) {
            // A struct: a field set to null counts as absent.
            object.retain(|key, value| !(value.is_null() && properties.contains_key(key)));
        }
        for (key, value) in object.iter_mut() {
            if properties.is_some_and(|properties| properties.contains_key(key)) {
                continue;
            }
            match extra {
                Some(Value::Bool(false)) => {
                    path.with_field(key, |path| self.fault(path, "unknown field".to_owned()));
                }
                Some(extra @ Value::Object(_)) => {
                    path.with_field(key, |path| self.check(value, extra, path));
                }
                _ => {}
            }
        }
        let required = schema.get("required").and_then(Value::as_array);
        let Some(properties) = properties else {
            return;
        };
        for (key, property) in properties {
            match object.get_mut(key) {
                Some(value) => path.with_field(key, |path| self.check(value, property, path)),
                None if required.is_some_and(|required| required.iter().any(|r| r == key)) => {
                    let expected = self.describe(property);
                    path.with_field(key, |path| {
                        self.fault(path, format!("missing; expected {expected}"))
                    });
                }
                None => {}
            }
        }
    }

    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let name = reference.strip_prefix("#/$defs/")?;
        self.root.get("$defs")?.get(name)
    }

    /// The schema's own object, following one `$ref` if it is one.
    fn deref(&self, schema: &'s Value) -> Option<&'s Map<String, Value>> {
        let map = schema.as_object()?;
        match map.get("$ref").and_then(Value::as_str) {
            Some(reference) => self.resolve(reference)?.as_object(),
            None => Some(map),
        }
    }

    fn describe(&self, schema: &'s Value) -> String {
        match self.deref(schema) {
            Some(map) => self.describe_map(map),
            None if schema == &Value::Bool(true) => "any value".to_owned(),
            None => "nothing".to_owned(),
        }
    }

    /// What a model should send for this schema, in the Rust-flavoured words a model reads
    /// best: `u32`, `string`, `one of "low", "high"`, `object`, `array of u8`.
    fn describe_map(&self, schema: &'s Map<String, Value>) -> String {
        if let Some(reference) = schema.get("$ref") {
            return self.describe(reference);
        }
        if let Some(Value::Array(allowed)) = schema.get("enum") {
            return describe_enum(allowed);
        }
        if let Some(constant) = schema.get("const") {
            return constant.to_string();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.get(key) {
                return branches
                    .iter()
                    .map(|branch| self.describe(branch))
                    .collect::<Vec<_>>()
                    .join(" or ");
            }
        }
        let format = schema.get("format").and_then(Value::as_str);
        let describe_type = |name: &str| -> String {
            match (name, format) {
                ("integer", Some(format)) => integer_name(format).unwrap_or("integer").to_owned(),
                ("number", Some("float")) => "f32".to_owned(),
                ("number", Some("double")) => "f64".to_owned(),
                ("string", Some(format)) => format!("string ({format})"),
                ("array", _) => match schema.get("items") {
                    Some(items) => format!("array of {}", self.describe(items)),
                    None => "array".to_owned(),
                },
                ("object", _) => match schema.get("properties").and_then(Value::as_object) {
                    Some(properties) if !properties.is_empty() => format!(
                        "object with fields {}",
                        properties.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                    _ => "object".to_owned(),
                },
                (other, _) => other.to_owned(),
            }
        };
        match schema.get("type") {
            Some(Value::String(name)) => describe_type(name),
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(Value::as_str)
                .map(describe_type)
                .collect::<Vec<_>>()
                .join(" or "),
            _ => "any value".to_owned(),
        }
    }
}

fn describe_enum(allowed: &[Value]) -> String {
    match allowed {
        [only] => only.to_string(),
        _ => format!(
            "one of {}",
            allowed
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn type_matches(types: &Value, value: &Value) -> bool {
    let matches = |name: &str| match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    };
    match types {
        Value::String(name) => matches(name),
        Value::Array(names) => names.iter().filter_map(Value::as_str).any(matches),
        _ => true,
    }
}

/// The Rust integer type schemars names by this `format`.
fn integer_name(format: &str) -> Option<&'static str> {
    Some(match format {
        "int8" => "i8",
        "int16" => "i16",
        "int32" => "i32",
        "int64" => "i64",
        "int128" => "i128",
        "int" => "isize",
        "uint8" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" => "u64",
        "uint128" => "u128",
        "uint" => "usize",
        _ => return None,
    })
}

fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match integer_name(format)? {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// A value as a fault message shows it: short values in full, long ones cut.
fn received(value: &Value) -> String {
    match value {
        Value::String(text) => quote(text),
        Value::Array(items) if items.is_empty() => "an empty array".to_owned(),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        other => other.to_string(),
    }
}

fn quote(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        None => Value::String(text.to_owned()).to_string(),
        Some((cut, _)) => format!("{}…", Value::String(text[..cut].to_owned())),
    }
}

/// Wraps the deserializer of the arguments so that the input struct refuses fields it does
/// not have, whether or not it says `#[serde(deny_unknown_fields)]`, and refuses arrays, which
/// serde would otherwise read into a struct by position.
struct TopLevel<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for TopLevel<D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_struct(name, fields, KnownFields { visitor, fields })
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.0.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

struct KnownFields<V> {
    visitor: V,
    fields: &'static [&'static str],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KnownFields<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_map(KnownFieldsMap {
            map,
            fields: self.fields,
        })
    }
}

struct KnownFieldsMap<A> {
    map: A,
    fields: &'static [&'static str],
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KnownFieldsMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.map.next_key_seed(KnownKey {
            seed,
            fields: self.fields,
        })
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

struct KnownKey<K> {
    seed: K,
    fields: &'static [&'static str],
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KnownKey<K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for KnownKey<K> {
    type Value = K::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<K::Value, E> {
        if !self.fields.contains(&key) {
            return Err(E::unknown_field(key, self.fields));
        }
        self.seed.deserialize(key.into_deserializer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Loose {
        a: u8,
    }

    fn schema() -> Map<String, Value> {
        json!({
            "type": "object",
            "properties": {"a": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}},
            "required": ["a"],
            "additionalProperties": false
        })
        .as_object()
        .cloned()
        .unwrap()
    }

    #[test]
    fn structs_without_deny_unknown_fields_still_refuse_unknown_fields() {
        let refusal = parse::<Loose>(r#"{"a":1,"b":2}"#, &schema(), "t").unwrap_err();
        assert_eq!(refusal.lines[0], Line::new("fault", ["b", "unknown field"]));
        assert_eq!(
            parse::<Loose>(r#"{"a":1}"#, &schema(), "t"),
            Ok(Loose { a: 1 })
        );
    }

    #[test]
    fn arrays_are_not_read_into_structs_by_position() {
        let refusal = parse::<Loose>("[1]", &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                ["(arguments)", "expected an object, received an array"]
            )
        );
    }

    #[test]
    fn integers_out_of_range_name_the_type() {
        let refusal = parse::<Loose>(r#"{"a":300}"#, &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                ["a", "expected u8, received 300, which is out of range"]
            )
        );
    }

    #[test]
    fn duplicate_fields_are_refused() {
        let refusal = parse::<Loose>(r#"{"a":1,"a":2}"#, &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0].cells[1],
            "duplicate field `a` at line 1 column 10"
        );
    }
}
