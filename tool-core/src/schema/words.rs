//! A schema said in words, as fault messages and tool lists say what to send: `u32`,
//! `string`, `one of "low", "high"`, `array of object with fields sku, qty`. A recursive type,
//! and anything nested deeper than [`MAX_NESTED_SCHEMAS`], is said as `…`.

use serde_json::{Map, Value};

use super::keywords::{Keywords, integer_name};
use super::walk::{Lookup, MAX_NESTED_SCHEMAS, Root};

/// Says schemas of one root in words.
#[derive(Clone, Copy)]
pub(crate) struct Words<'s> {
    root: Root<'s>,
}

impl<'s> Words<'s> {
    /// Words for the schemas of `root` and its `$defs`.
    pub(crate) fn new(root: &'s Map<String, Value>) -> Self {
        Words {
            root: Root::new(root),
        }
    }

    /// The rules a value of `schema` keeps beyond its type, in words (`1 to 3`, `at most 10
    /// characters`, `matching ^[a-z]+$`, `unique items`), for a list of tools; `None` when it
    /// keeps none. An optional's rules are its value's.
    pub(crate) fn rules(&self, schema: &'s Value) -> Option<String> {
        let mut map = self.root.deref(schema)?;
        if let Some(Value::Array(branches)) = map.lookup("anyOf") {
            let mut solid = branches
                .iter()
                .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"));
            if let (Some(only), None) = (solid.next(), solid.next()) {
                map = self.root.deref(only)?;
            }
        }
        let keywords = Keywords::of(map);
        let mut rules = Vec::new();
        let numbers = keywords.bounds_beyond_type();
        rules.extend(range(numbers, ""));
        if let Some(bound) = keywords.exclusive_minimum {
            rules.push(format!("more than {bound}"));
        }
        if let Some(bound) = keywords.exclusive_maximum {
            rules.push(format!("less than {bound}"));
        }
        if let Some(step) = keywords.multiple_of {
            rules.push(format!("a multiple of {step}"));
        }
        let single = keywords.min_length.and_then(Value::as_u64) == Some(1)
            && keywords.max_length.and_then(Value::as_u64) == Some(1);
        if !single {
            rules.extend(range(
                (keywords.min_length, keywords.max_length),
                " characters",
            ));
        }
        if let Some(pattern) = keywords.pattern.and_then(Value::as_str) {
            rules.push(format!("matching {pattern}"));
        }
        rules.extend(range((keywords.min_items, keywords.max_items), " items"));
        if keywords.unique_items == Some(&Value::Bool(true)) {
            rules.push("unique items".to_owned());
        }
        (!rules.is_empty()).then(|| rules.join(", "))
    }

    /// What a model should send for `schema`.
    pub(crate) fn of(&self, schema: &'s Value) -> String {
        self.describe_within(schema, &mut Open::default())
    }

    /// What a model should send for this schema, in the Rust-flavoured words a model reads
    /// best: `u32`, `string`, `one of "low", "high"`, `object`, `array of u8`.
    pub(crate) fn of_map(&self, schema: &'s Map<String, Value>) -> String {
        self.describe_map_within(schema, &mut Open::default())
    }

    /// `open` holds the `$ref`s being described, outermost first (and `""` for each other
    /// schema being described): a `$ref` to one of them is a recursive type, which is said
    /// as `…`, as is anything deeper than [`MAX_NESTED_SCHEMAS`].
    fn describe_within(&self, schema: &'s Value, open: &mut Open<'s>) -> String {
        match schema {
            Value::Object(map) => self.describe_map_within(map, open),
            Value::Bool(true) => "any value".to_owned(),
            _ => "nothing".to_owned(),
        }
    }

    fn describe_map_within(&self, schema: &'s Map<String, Value>, open: &mut Open<'s>) -> String {
        if open.len == MAX_NESTED_SCHEMAS {
            return "…".to_owned();
        }
        let reference = schema.lookup("$ref").and_then(Value::as_str);
        if reference.is_some_and(|reference| open.refs[..open.len].contains(&reference)) {
            return "…".to_owned();
        }
        open.refs[open.len] = reference.unwrap_or_default();
        open.len += 1;
        let described = match reference {
            Some(reference) => match self.root.resolve(reference) {
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

/// `1 to 3 items`, `at least 1 items`... for a pair of bounds, with `unit` after the numbers.
fn range((min, max): (Option<&Value>, Option<&Value>), unit: &str) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) => Some(format!("{min} to {max}{unit}")),
        (Some(min), None) => Some(format!("at least {min}{unit}")),
        (None, Some(max)) => Some(format!("at most {max}{unit}")),
        (None, None) => None,
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

/// The `$ref`s being described, outermost first (`""` for each other schema), at most
/// [`MAX_NESTED_SCHEMAS`]: kept on the stack, as describing happens for every fault.
#[derive(Default)]
struct Open<'s> {
    refs: [&'s str; MAX_NESTED_SCHEMAS],
    len: usize,
}
