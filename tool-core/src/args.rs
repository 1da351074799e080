//! Argument parsing: from a call's JSON text to a tool's typed input, or to a refusal that
//! names every fault by its path.
//!
//! Good arguments take one pass: `serde_json` deserializes the text straight into the input
//! type, with a thin wrapper that refuses unknown top-level fields. Only when that fails does
//! the slow path run: the text is parsed into a light JSON tree (`tree::Node`, which borrows
//! its strings and keeps a key sent twice), checked against the input's JSON Schema to find
//! *every* fault (unknown, missing and repeated fields, wrong values, each with its path, such
//! as `items[2].qty`), and, when the only trouble was a field set to `null`, deserialized
//! again with those nulls taken as absent.
//!
//! The slow path is bounded whatever arrives: nesting stops at serde_json's 128 levels, the
//! checker gives up (and refuses with serde's first error) past a number of steps proportional
//! to the arguments' size or past a depth that only a schema referring to itself without end
//! can reach, and descriptions of recursive types stop at the recursion. So no input can make it
//! overflow the stack or take time exponential in its nesting.
//!
//! This module knows nothing of tools or registries: it turns text into a value or a refusal.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor,
};
use serde_json::{Map, Value};

use crate::refusal::{Line, Refusal};
use crate::tree::Node;

type JsonDeserializer<'a> = serde_json::Deserializer<serde_json::de::StrRead<'a>>;

/// The deepest nesting of arrays and objects a call's arguments may have: 128, serde_json's
/// own recursion limit, which is not configurable. Deeper arguments are refused with
/// `bad-arguments` before any of them is read into a value, so no walk over arguments (serde's,
/// or this crate's) can overflow the stack.
pub const MAX_ARGUMENT_DEPTH: usize = 128;

/// How deep the checker may go, in nested schema checks. Arguments nest at most
/// [`MAX_ARGUMENT_DEPTH`] levels and each level costs a few checks (a `$ref`, an `anyOf`
/// branch, the object itself), so only a schema that refers to itself without consuming any
/// value (a hand-written `JsonSchema` can write one) gets here. Small enough for a 2 MiB thread
/// stack in a debug build (about 1.4 KiB a level).
const MAX_CHECK_DEPTH: usize = 512;

/// How many schema checks the checker may make per value in the arguments, and at least.
/// A value is checked once per schema that applies to it: its field's, one more per `$ref`,
/// one per union branch tried (and a trial's copy of the value costs what checking it does);
/// arguments that fit their schema need one to three per value (three for the nested structs,
/// enums and options of `order_place` in `tests/adversarial.rs`). Without a bound, unions whose
/// branches all descend into the same value (untagged recursive enums) take time exponential
/// in the nesting. Running out refuses the call with serde's first fault: the list of faults
/// is shorter, and arguments whose only trouble was a `null` for an absent field, in a value
/// too intricate to check, are refused rather than read.
const CHECK_STEPS_PER_VALUE: usize = 6;
const CHECK_STEPS_AT_LEAST: usize = 10_000;

/// How many nested schemas a description of what to send goes into before it says `…`.
const MAX_DESCRIBE_DEPTH: usize = 8;

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
    parse_with(arguments, schema, tool, |text| {
        read_all(text, |deserializer| T::deserialize(TopLevel(deserializer)))
    })
}

/// [`parse`] for a `T` that refuses unknown fields itself (`#[serde(deny_unknown_fields)]`, as
/// the input structs `#[tool]` makes of parameters do): the fast path needs no wrapper to look
/// at every key, only to be kept from reading an array into the struct by position.
pub fn parse_strict<T: DeserializeOwned>(
    arguments: &str,
    schema: &Map<String, Value>,
    tool: &str,
) -> Result<T, Refusal> {
    parse_with(arguments, schema, tool, |text| {
        if !text.trim_start().starts_with('{') {
            return Err(de::Error::custom("expected an object"));
        }
        read_all(text, |deserializer| T::deserialize(deserializer))
    })
}

/// Reads `text` with `read`, then, if that fails, finds every fault; if there is none (the
/// trouble was only nulls standing for absent fields), reads the cleaned arguments' text with
/// `read` again: the same code both times, so a tool's input type has its deserializer
/// compiled once, not once for text and once for values.
fn parse_with<T: DeserializeOwned>(
    arguments: &str,
    schema: &Map<String, Value>,
    tool: &str,
    read: impl Fn(&str) -> serde_json::Result<T>,
) -> Result<T, Refusal> {
    let first_error = match read(arguments) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    let cleaned =
        checked(arguments, schema, &first_error).map_err(|faults| refusal(tool, schema, faults))?;
    read(&cleaned).map_err(|error| {
        let fault = Fault {
            path: String::new(),
            problem: error.to_string(),
        };
        refusal(tool, schema, vec![fault])
    })
}

/// One value read from all of `text` by `read`, and nothing after it.
fn read_all<'a, T>(
    text: &'a str,
    read: impl FnOnce(&mut JsonDeserializer<'a>) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = read(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// The path taken once the fast path has failed: every fault, or, if there is none, the text of
/// the arguments with the nulls that stand for absent fields taken out.
fn checked(
    arguments: &str,
    schema: &Map<String, Value>,
    first_error: &serde_json::Error,
) -> Result<String, Vec<Fault>> {
    let mut value = Node::parse(arguments).map_err(|error| {
        vec![Fault {
            path: String::new(),
            problem: unreadable(&error),
        }]
    })?;
    if !matches!(value, Node::Object(_)) {
        return Err(vec![Fault {
            path: String::new(),
            problem: format!("expected an object, received {}", received(&value)),
        }]);
    }
    let mut checker = Checker::new(schema, true, value.count());
    checker.check_object_schema(&mut value, schema, &mut Path::default());
    if checker.gave_up {
        checker.faults.push(Fault {
            path: String::new(),
            problem: format!(
                "too large or too deeply nested to check for every fault; the first fault: \
                 {first_error}; mend it and send the call again to learn of any other"
            ),
        });
        return Err(checker.faults);
    }
    if !checker.faults.is_empty() {
        return Err(checker.faults);
    }
    // A tree with string keys always serializes.
    Ok(serde_json::to_string(&value).unwrap_or_default())
}

/// The problem with arguments serde_json could not read: nested too deeply, or not JSON.
fn unreadable(error: &serde_json::Error) -> String {
    if error.to_string().starts_with("recursion limit exceeded") {
        format!(
            "nested more than {MAX_ARGUMENT_DEPTH} levels deep, more than any call may be \
             ({error}); send flatter arguments"
        )
    } else {
        format!("not valid JSON: {error}")
    }
}

fn refusal(tool: &str, schema: &Map<String, Value>, faults: Vec<Fault>) -> Refusal {
    let count = faults.len();
    let mut refusal = Refusal::bad_arguments(format!(
        "{count} fault{} in the arguments of {tool}; nothing ran",
        if count == 1 { "" } else { "s" }
    ));
    refusal.lines.reserve_exact(count + 1);
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
    Checker::new(root, true, 0).describe(schema)
}

/// Every way `value` departs from `schema`, taking `null` at face value: for checking what a
/// tool wrote against the schema it advertised. A value too intricate to check in full gives
/// the faults found before the checker gave up.
pub(crate) fn validate(value: &Value, schema: &Map<String, Value>) -> Vec<Fault> {
    let mut node = Node::of(value);
    let mut checker = Checker::new(schema, false, node.count());
    checker.check_object_schema(&mut node, schema, &mut Path::default());
    checker.faults
}

/// A path into the arguments, rendered as `a.b[2].c`. A key of anything but ASCII letters,
/// digits, `_` and `-` (one with a dot, a bracket or a space in it, say, which would make the
/// path ambiguous), an empty key and one longer than [`PLAIN_KEY_LIMIT`] are written as a
/// quoted JSON string in brackets: `a["b.c"][2]`; past 40 characters the key is cut and
/// marked, `a["bbb…bbb"…]`.
struct Path(String);

/// The longest key a path writes as it is.
const PLAIN_KEY_LIMIT: usize = 64;

/// Whether `key` reads unambiguously after a dot in a path.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= PLAIN_KEY_LIMIT
        && key
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

impl Default for Path {
    /// An empty path, with room for a few levels before it grows.
    fn default() -> Self {
        Path(String::with_capacity(64))
    }
}

impl Path {
    fn with_field<R>(&mut self, field: &str, f: impl FnOnce(&mut Path) -> R) -> R {
        let len = self.0.len();
        if is_plain_key(field) {
            if !self.0.is_empty() {
                self.0.push('.');
            }
            self.0.push_str(field);
        } else {
            self.0.push('[');
            self.0.push_str(&quote(field));
            self.0.push(']');
        }
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
    /// How many schema checks are under way, one inside the other.
    depth: usize,
    /// How many more schema checks may start.
    steps_left: usize,
    /// Whether the checker stopped early (out of steps or too deep): the faults found are then
    /// not all there are, and the value may be unchecked.
    gave_up: bool,
}

/// The keywords of one schema object the checker reads, found in one pass over its keys
/// rather than looked up one by one for every value checked.
#[derive(Default)]
struct Keywords<'s> {
    reference: Option<&'s Value>,
    all_of: Option<&'s Value>,
    any_of: Option<&'s Value>,
    one_of: Option<&'s Value>,
    enumeration: Option<&'s Value>,
    constant: Option<&'s Value>,
    types: Option<&'s Value>,
    format: Option<&'s Value>,
    minimum: Option<&'s Value>,
    maximum: Option<&'s Value>,
    exclusive_minimum: Option<&'s Value>,
    exclusive_maximum: Option<&'s Value>,
    min_length: Option<&'s Value>,
    max_length: Option<&'s Value>,
    min_items: Option<&'s Value>,
    max_items: Option<&'s Value>,
    prefix_items: Option<&'s Value>,
    items: Option<&'s Value>,
    properties: Option<&'s Value>,
    additional_properties: Option<&'s Value>,
    required: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    fn of(schema: &'s Map<String, Value>) -> Self {
        let mut keywords = Keywords::default();
        for (key, value) in schema {
            let slot = match key.as_str() {
                "$ref" => &mut keywords.reference,
                "allOf" => &mut keywords.all_of,
                "anyOf" => &mut keywords.any_of,
                "oneOf" => &mut keywords.one_of,
                "enum" => &mut keywords.enumeration,
                "const" => &mut keywords.constant,
                "type" => &mut keywords.types,
                "format" => &mut keywords.format,
                "minimum" => &mut keywords.minimum,
                "maximum" => &mut keywords.maximum,
                "exclusiveMinimum" => &mut keywords.exclusive_minimum,
                "exclusiveMaximum" => &mut keywords.exclusive_maximum,
                "minLength" => &mut keywords.min_length,
                "maxLength" => &mut keywords.max_length,
                "minItems" => &mut keywords.min_items,
                "maxItems" => &mut keywords.max_items,
                "prefixItems" => &mut keywords.prefix_items,
                "items" => &mut keywords.items,
                "properties" => &mut keywords.properties,
                "additionalProperties" => &mut keywords.additional_properties,
                "required" => &mut keywords.required,
                _ => continue,
            };
            *slot = Some(value);
        }
        keywords
    }
}

impl<'s> Checker<'s> {
    /// A checker for a value that holds `values` values.
    fn new(root: &'s Map<String, Value>, null_is_absent: bool, values: usize) -> Self {
        Checker {
            root,
            faults: Vec::new(),
            null_is_absent,
            depth: 0,
            steps_left: values
                .saturating_mul(CHECK_STEPS_PER_VALUE)
                .max(CHECK_STEPS_AT_LEAST),
            gave_up: false,
        }
    }

    fn fault(&mut self, path: &Path, problem: String) {
        self.faults.push(Fault {
            path: path.0.clone(),
            problem,
        });
    }

    fn check(&mut self, value: &mut Node<'_>, schema: &'s Value, path: &mut Path) {
        match schema {
            Value::Bool(true) => {}
            Value::Bool(false) => self.fault(path, "not allowed here".to_owned()),
            Value::Object(schema) => self.check_object_schema(value, schema, path),
            _ => {}
        }
    }

    fn check_object_schema(
        &mut self,
        value: &mut Node<'_>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        if self.gave_up {
            return;
        }
        if self.steps_left == 0 || self.depth >= MAX_CHECK_DEPTH {
            self.gave_up = true;
            return;
        }
        self.steps_left -= 1;
        self.depth += 1;
        self.check_against(value, schema, path);
        self.depth -= 1;
    }

    fn check_against(
        &mut self,
        value: &mut Node<'_>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        let keywords = Keywords::of(schema);
        if let Some(target) = keywords
            .reference
            .and_then(Value::as_str)
            .and_then(|reference| self.resolve(reference))
        {
            self.check(value, target, path);
        }
        if let Some(Value::Array(all)) = keywords.all_of {
            for branch in all {
                self.check(value, branch, path);
            }
        }
        for branches in [keywords.any_of, keywords.one_of] {
            if let Some(Value::Array(branches)) = branches {
                self.check_branches(value, branches, path);
            }
        }
        let allowed = match (keywords.enumeration, keywords.constant, keywords.types) {
            (Some(Value::Array(allowed)), _, _) => allowed.iter().any(|a| value.equals(a)),
            (_, Some(constant), _) => value.equals(constant),
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
            Node::Number(number) => self.check_number(number, schema, &keywords, path),
            Node::String(text) => self.check_string(text, &keywords, path),
            Node::Array(items) => self.check_array(items, &keywords, path),
            Node::Object(object) => self.check_fields(object, &keywords, path),
            Node::Null | Node::Bool(_) => {}
        }
    }

    /// `anyOf`/`oneOf`: fine if any branch accepts the value. Otherwise report the faults of
    /// the one branch whose shape the value has (an enum variant's object, say), or one fault
    /// naming every branch.
    fn check_branches(&mut self, value: &mut Node<'_>, branches: &'s [Value], path: &mut Path) {
        let mut candidates = Vec::new();
        // Each branch is tried with the faults so far set aside, sharing this checker's steps.
        let outer = std::mem::take(&mut self.faults);
        for branch in branches {
            if self.tag_differs(branch, value) {
                continue;
            }
            // A trial copies the value, which costs what checking it does.
            let copied = value.count();
            if copied > self.steps_left {
                self.gave_up = true;
                break;
            }
            self.steps_left -= copied;
            let mut trial = value.clone();
            self.check(&mut trial, branch, path);
            let faults = std::mem::take(&mut self.faults);
            if self.gave_up {
                break;
            }
            if faults.is_empty() {
                *value = trial;
                self.faults = outer;
                return;
            }
            if self.shape_matches(branch, value) {
                candidates.push(faults);
            }
        }
        self.faults = outer;
        if self.gave_up {
            return;
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

    /// Whether `value` is an object whose tag (a property that `schema` fixes to one value,
    /// as for an internally or adjacently tagged enum's variant) holds another value: then the
    /// branch cannot fit, and its faults would say nothing useful.
    fn tag_differs(&self, schema: &'s Value, value: &Node<'_>) -> bool {
        let (Some(schema), Node::Object(_)) = (self.deref(schema), value) else {
            return false;
        };
        let Some(properties) = schema.lookup("properties").and_then(Value::as_object) else {
            return false;
        };
        properties.iter().any(|(key, property)| {
            let fixed = property
                .get("const")
                .or_else(|| match property.get("enum") {
                    Some(Value::Array(only)) if only.len() == 1 => only.first(),
                    _ => None,
                });
            matches!((fixed, value.field(key)), (Some(fixed), Some(actual)) if !actual.equals(fixed))
        })
    }

    /// Whether `value` has the JSON type `schema` asks for and, for objects, carries a key the
    /// schema names (how an externally tagged enum variant is told apart).
    fn shape_matches(&self, schema: &'s Value, value: &Node<'_>) -> bool {
        let Some(schema) = self.deref(schema) else {
            return false;
        };
        if schema.lookup("enum").is_some() || schema.lookup("const").is_some() {
            return false;
        }
        let typed = schema
            .lookup("type")
            .is_some_and(|types| type_matches(types, value));
        match (
            value,
            schema.lookup("properties").and_then(Value::as_object),
        ) {
            (Node::Object(object), Some(properties)) => {
                typed
                    && object
                        .iter()
                        .any(|(key, _)| properties.lookup(key).is_some())
            }
            _ => typed,
        }
    }

    fn check_number(
        &mut self,
        number: &serde_json::Number,
        schema: &'s Map<String, Value>,
        keywords: &Keywords<'s>,
        path: &mut Path,
    ) {
        let format = keywords.format.and_then(Value::as_str);
        if let Some((min, max)) = format.and_then(integer_range) {
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
        // A number too large for an `f32` would otherwise be refused by serde_json alone,
        // without its path.
        if format == Some("float") && (n as f32).is_infinite() {
            let expected = self.describe_map(schema);
            self.fault(
                path,
                format!("expected {expected}, received {number}, which is out of range"),
            );
            return;
        }
        type Holds = fn(f64, f64) -> bool;
        let bounds: [(Option<&Value>, &str, Holds); 4] = [
            (keywords.minimum, "at least", |n, bound| n >= bound),
            (keywords.maximum, "at most", |n, bound| n <= bound),
            (keywords.exclusive_minimum, "more than", |n, bound| {
                n > bound
            }),
            (keywords.exclusive_maximum, "less than", |n, bound| {
                n < bound
            }),
        ];
        for (bound, words, holds) in bounds {
            if let Some(bound) = bound.and_then(Value::as_f64)
                && !holds(n, bound)
            {
                self.fault(path, format!("expected {words} {bound}, received {number}"));
            }
        }
    }

    fn check_string(&mut self, text: &str, keywords: &Keywords<'s>, path: &mut Path) {
        let min = keywords.min_length.and_then(Value::as_u64);
        let max = keywords.max_length.and_then(Value::as_u64);
        if min.is_none() && max.is_none() {
            return;
        }
        let length = text.chars().count() as u64;
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

    fn check_array(&mut self, items: &mut [Node<'_>], keywords: &Keywords<'s>, path: &mut Path) {
        let length = items.len() as u64;
        if let Some(min) = keywords
            .min_items
            .and_then(Value::as_u64)
            .filter(|min| length < *min)
        {
            self.fault(
                path,
                format!("expected at least {min} items, received {length}"),
            );
        }
        if let Some(max) = keywords
            .max_items
            .and_then(Value::as_u64)
            .filter(|max| length > *max)
        {
            self.fault(
                path,
                format!("expected at most {max} items, received {length}"),
            );
        }
        let prefix = keywords
            .prefix_items
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (index, item) in items.iter_mut().enumerate() {
            let item_schema = prefix.get(index).or(keywords.items);
            if let Some(item_schema) = item_schema {
                path.with_index(index, |path| self.check(item, item_schema, path));
            }
        }
    }

    fn check_fields(
        &mut self,
        object: &mut Vec<(Cow<'_, str>, Node<'_>)>,
        keywords: &Keywords<'s>,
        path: &mut Path,
    ) {
        let properties = keywords.properties.and_then(Value::as_object);
        let extra = keywords.additional_properties;
        if let Some(properties) = properties {
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
        if let Some(properties) = properties.filter(|_| self.null_is_absent) {
            // A struct: a field set to null counts as absent.
            object.retain(|(key, value)| !(value.is_null() && properties.lookup(key).is_some()));
        }
        for (key, value) in object.iter_mut() {
            if properties.is_some_and(|properties| properties.lookup(key).is_some()) {
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
        let required = keywords.required.and_then(Value::as_array);
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
        self.root.lookup("$defs")?.as_object()?.lookup(name)
    }

    /// The schema's own object, following one `$ref` if it is one.
    fn deref(&self, schema: &'s Value) -> Option<&'s Map<String, Value>> {
        let map = schema.as_object()?;
        match map.lookup("$ref").and_then(Value::as_str) {
            Some(reference) => self.resolve(reference)?.as_object(),
            None => Some(map),
        }
    }

    fn describe(&self, schema: &'s Value) -> String {
        self.describe_within(schema, &mut Open::default())
    }

    /// What a model should send for this schema, in the Rust-flavoured words a model reads
    /// best: `u32`, `string`, `one of "low", "high"`, `object`, `array of u8`.
    fn describe_map(&self, schema: &'s Map<String, Value>) -> String {
        self.describe_map_within(schema, &mut Open::default())
    }

    /// `open` holds the `$ref`s being described, outermost first (and `""` for each other
    /// schema being described): a `$ref` to one of them is a recursive type, which is said
    /// as `…`, as is anything deeper than [`MAX_DESCRIBE_DEPTH`].
    fn describe_within(&self, schema: &'s Value, open: &mut Open<'s>) -> String {
        match schema {
            Value::Object(map) => self.describe_map_within(map, open),
            Value::Bool(true) => "any value".to_owned(),
            _ => "nothing".to_owned(),
        }
    }

    fn describe_map_within(&self, schema: &'s Map<String, Value>, open: &mut Open<'s>) -> String {
        if open.len == MAX_DESCRIBE_DEPTH {
            return "…".to_owned();
        }
        let reference = schema.lookup("$ref").and_then(Value::as_str);
        if reference.is_some_and(|reference| open.refs[..open.len].contains(&reference)) {
            return "…".to_owned();
        }
        open.refs[open.len] = reference.unwrap_or_default();
        open.len += 1;
        let described = match reference {
            Some(reference) => match self.resolve(reference) {
                Some(target) => self.describe_within(target, open),
                None => "nothing".to_owned(),
            },
            None => self.describe_shape(schema, open),
        };
        open.len -= 1;
        described
    }

    fn describe_shape(&self, schema: &'s Map<String, Value>, open: &mut Open<'s>) -> String {
        if let Some(Value::Array(allowed)) = schema.lookup("enum") {
            return describe_enum(allowed);
        }
        if let Some(constant) = schema.lookup("const") {
            return constant.to_string();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.lookup(key) {
                return branches
                    .iter()
                    .map(|branch| self.describe_within(branch, open))
                    .collect::<Vec<_>>()
                    .join(" or ");
            }
        }
        let format = schema.lookup("format").and_then(Value::as_str);
        let mut describe_type = |name: &str| -> String {
            match (name, format) {
                ("integer", Some(format)) => integer_name(format).unwrap_or("integer").to_owned(),
                ("number", Some("float")) => "f32".to_owned(),
                ("number", Some("double")) => "f64".to_owned(),
                ("string", Some(format)) => format!("string ({format})"),
                ("array", _) => match schema.lookup("items") {
                    Some(items) => format!("array of {}", self.describe_within(items, open)),
                    None => "array".to_owned(),
                },
                ("object", _) => match schema.lookup("properties").and_then(Value::as_object) {
                    Some(properties) if !properties.is_empty() => format!(
                        "object with fields {}",
                        properties.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                    _ => "object".to_owned(),
                },
                (other, _) => other.to_owned(),
            }
        };
        match schema.lookup("type") {
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

fn type_matches(types: &Value, value: &Node<'_>) -> bool {
    let matches = |name: &str| match (name, value) {
        ("null", Node::Null)
        | ("boolean", Node::Bool(_))
        | ("number", Node::Number(_))
        | ("string", Node::String(_))
        | ("array", Node::Array(_))
        | ("object", Node::Object(_)) => true,
        ("integer", Node::Number(number)) => number.is_i64() || number.is_u64(),
        ("null" | "boolean" | "integer" | "number" | "string" | "array" | "object", _) => false,
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
fn received(value: &Node<'_>) -> String {
    match value {
        Node::String(text) => quote(text),
        Node::Array(items) if items.is_empty() => "an empty array".to_owned(),
        Node::Array(_) => "an array".to_owned(),
        Node::Object(_) => "an object".to_owned(),
        other => other.to_string(),
    }
}

fn quote(text: &str) -> String {
    const LIMIT: usize = 40;
    // Writing a string into a `String` cannot fail.
    match text.char_indices().nth(LIMIT) {
        None => serde_json::to_string(text).unwrap_or_default(),
        Some((cut, _)) => serde_json::to_string(&text[..cut]).unwrap_or_default() + "…",
    }
}

/// The `$ref`s being described, outermost first (`""` for each other schema), at most
/// [`MAX_DESCRIBE_DEPTH`]: kept on the stack, as describing happens for every fault.
#[derive(Default)]
struct Open<'s> {
    refs: [&'s str; MAX_DESCRIBE_DEPTH],
    len: usize,
}

/// Finding a key in a small map (a schema object's handful of keywords, a struct's fields) by
/// comparing keys, which costs less than hashing the key as `Map::get` does (with SipHash).
trait Lookup {
    fn lookup(&self, key: &str) -> Option<&Value>;
}

impl Lookup for Map<String, Value> {
    fn lookup(&self, key: &str) -> Option<&Value> {
        if self.len() > 8 {
            return self.get(key);
        }
        self.iter()
            .find_map(|(name, value)| (name == key).then_some(value))
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

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: u8,
    }

    #[test]
    fn strict_structs_are_refused_and_read_as_the_others_are() {
        let duplicate = r#"{"a":1,"a":2}"#;
        for text in [
            r#"{"a":1,"b":2}"#,
            "[1]",
            " [1]",
            "7",
            r#"{"a":300}"#,
            "{",
            duplicate,
        ] {
            assert_eq!(
                parse_strict::<Strict>(text, &schema(), "t").unwrap_err(),
                parse::<Loose>(text, &schema(), "t").unwrap_err(),
                "{text}"
            );
        }
        assert_eq!(
            parse_strict::<Strict>(" {\"a\":1} ", &schema(), "t"),
            Ok(Strict { a: 1 })
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_without_end_is_not_followed_forever() {
        // No schema schemars writes does this (a type defined as itself is refused when the
        // registry is built), but a hand-written `JsonSchema` can: the checker stops at its
        // depth limit, well within the 2 MiB stack of a tokio worker in a debug build.
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "additionalProperties": false,
            "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}]}}
        })
        .as_object()
        .cloned()
        .unwrap();
        let root = schema.clone();
        let refusal = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse::<Loose>(r#"{"a":"x"}"#, &schema, "t").unwrap_err())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(refusal.lines[0].cells[0], "(arguments)");
        assert!(
            refusal.lines[0].cells[1].starts_with("too large or too deeply nested to check"),
            "{refusal}"
        );
        assert_eq!(describe(&json!({"$ref": "#/$defs/A"}), &root), "…");
    }

    #[test]
    fn duplicate_fields_are_refused() {
        let refusal = parse::<Loose>(r#"{"a":1,"a":2}"#, &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                [
                    "a",
                    "duplicate field `a`: sent more than once; send it once"
                ]
            )
        );
    }

    #[test]
    fn keys_that_would_make_a_path_ambiguous_are_quoted() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Scores {
            scores: std::collections::BTreeMap<String, u8>,
        }
        let schema = json!({
            "type": "object",
            "properties": {
                "scores": {"type": "object", "additionalProperties": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}
            },
            "required": ["scores"],
            "additionalProperties": false
        })
        .as_object()
        .cloned()
        .unwrap();
        let long = "k".repeat(PLAIN_KEY_LIMIT + 1);
        let text = json!({"scores": {
            "plain-key_1": "x",
            "a.b": "x",
            "c[0]": "x",
            "": "x",
            "first name": "x",
            "say \"hi\"": "x",
            long.clone(): "x",
        }})
        .to_string();
        let refusal = parse::<Scores>(&text, &schema, "t").unwrap_err();
        let mut paths: Vec<&str> = refusal
            .lines
            .iter()
            .filter(|line| line.label == "fault")
            .map(|line| line.cells[0].as_str())
            .collect();
        paths.sort_unstable();
        let cut = format!(r#"scores["{}"…]"#, "k".repeat(40));
        let mut expected = vec![
            "scores.plain-key_1",
            r#"scores["a.b"]"#,
            r#"scores["c[0]"]"#,
            r#"scores[""]"#,
            r#"scores["first name"]"#,
            r#"scores["say \"hi\""]"#,
            cut.as_str(),
        ];
        expected.sort_unstable();
        assert_eq!(paths, expected, "{refusal}");
    }
}
