//! A schema said in words, as fault messages and tool lists say what to send: `u32`,
//! `string`, `one of "low", "high"`, `array of object with fields sku, qty`. A recursive type,
//! anything nested deeper than [`MAX_NESTED_SCHEMAS`], and the branches of unions once
//! [`MAX_SHAPES_SAID`] shapes are said, are said as `…`.

use serde_json::{Map, Value};

use super::keywords::{
    Keywords, fixed_value, integer_name, is_null_schema, only_solid_branch, repeats_earlier,
};
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
        if let Some(Value::Array(branches)) = map.lookup("anyOf")
            && let Some(only) = only_solid_branch(branches)
        {
            map = self.root.deref(only)?;
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
        let mut out = String::new();
        self.write_within(schema, &mut Open::default(), &mut out);
        out
    }

    /// What a model should send for any of a union's `branches`, `or` between them: each as
    /// [`Words::of`] says it, and a number's range where it says more than its type's own,
    /// since the range may be all that sets the branches apart (a signed non-zero integer is
    /// those at most -1 or at least 1).
    pub(crate) fn of_branches(&self, branches: &'s [Value]) -> String {
        let mut out = String::new();
        self.write_branches(branches, &mut Open::default(), &mut out);
        out
    }

    /// [`Words::of_branches`], written at the end of `out`: a branch written as one before it
    /// (an untagged enum's variants wrapping one type) said once, and the rest `or …` once
    /// [`MAX_SHAPES_SAID`] shapes are said.
    fn write_branches(&self, branches: &'s [Value], open: &mut Open<'s>, out: &mut String) {
        for (index, branch) in branches.iter().enumerate() {
            if repeats_earlier(branches, index) {
                continue;
            }
            if open.said >= MAX_SHAPES_SAID {
                if open.said == MAX_SHAPES_SAID {
                    out.push_str(if index > 0 { " or …" } else { "…" });
                    open.said += 1;
                }
                return;
            }
            if index > 0 {
                out.push_str(" or ");
            }
            self.write_branch(branch, open, out);
        }
    }

    /// One branch of [`Words::of_branches`], written at the end of `out`.
    fn write_branch(&self, branch: &'s Value, open: &mut Open<'s>, out: &mut String) {
        self.write_within(branch, open, out);
        let Value::Object(map) = branch else {
            return;
        };
        let keywords = Keywords::of(map);
        let numeric = (keywords.types.and_then(Value::as_str))
            .is_some_and(|kind| kind == "integer" || kind == "number");
        let (least, most) = keywords.bounds_beyond_type();
        // A `u128`'s `0`, which its name says (no 64-bit number holds its greatest).
        let unsigned = keywords.format.is_some_and(|format| format == "uint128");
        let least = least.filter(|least| !(unsigned && least.as_u64() == Some(0)));
        if let Some(bounds) = range((least, most), "").filter(|_| numeric) {
            out.push(' ');
            out.push_str(&bounds);
        }
    }

    /// What a model should send for this schema, in the Rust-flavoured words a model reads
    /// best: `u32`, `string`, `one of "low", "high"`, `object`, `array of u8`.
    pub(crate) fn of_map(&self, schema: &'s Map<String, Value>) -> String {
        let mut out = String::new();
        self.write_keywords(&Keywords::of(schema), &mut out);
        out
    }

    /// [`Words::of_map`] for a schema whose keywords are read, written at the end of `out`: a
    /// fault's message is written whole into one buffer, as describing happens for every
    /// fault.
    pub(crate) fn write_keywords(&self, keywords: &Keywords<'s>, out: &mut String) {
        self.write_keywords_within(keywords, &mut Open::default(), out);
    }

    /// `open` holds the `$ref`s being described, outermost first (and `""` for each other
    /// schema being described): a `$ref` to one of them is a recursive type, which is said
    /// as `…`, as is anything deeper than [`MAX_NESTED_SCHEMAS`].
    fn write_within(&self, schema: &'s Value, open: &mut Open<'s>, out: &mut String) {
        match schema {
            Value::Object(map) => self.write_keywords_within(&Keywords::of(map), open, out),
            Value::Bool(true) => out.push_str("any value"),
            _ => out.push_str("nothing"),
        }
    }

    fn write_keywords_within(
        &self,
        keywords: &Keywords<'s>,
        open: &mut Open<'s>,
        out: &mut String,
    ) {
        if open.len == MAX_NESTED_SCHEMAS {
            out.push('…');
            return;
        }
        let reference = keywords.reference.and_then(Value::as_str);
        if reference.is_some_and(|reference| open.refs[..open.len].contains(&reference)) {
            out.push('…');
            return;
        }
        open.refs[open.len] = reference.unwrap_or_default();
        open.len += 1;
        match reference {
            Some(reference) => match self.root.resolve(reference) {
                Some(target) => self.write_within(target, open, out),
                None => out.push_str("nothing"),
            },
            None => self.write_shape(keywords, open, out),
        }
        open.len -= 1;
    }

    fn write_shape(&self, keywords: &Keywords<'s>, open: &mut Open<'s>, out: &mut String) {
        if let Some(Value::Array(allowed)) = keywords.enumeration {
            return write_enum(allowed, out);
        }
        if let Some(constant) = keywords.constant {
            return write_json(constant, out);
        }
        for branches in [keywords.any_of, keywords.one_of] {
            if let Some(Value::Array(branches)) = branches {
                return self.write_branches(branches, open, out);
            }
        }
        open.said += 1;
        let format = keywords.format.and_then(Value::as_str);
        let mut write_type = |name: &str, out: &mut String| match (name, format) {
            ("integer", Some(format)) => out.push_str(integer_name(format).unwrap_or("integer")),
            ("number", Some("float")) => out.push_str("f32"),
            ("number", Some("double")) => out.push_str("f64"),
            ("string", Some(format)) => {
                out.push_str("string (");
                out.push_str(format);
                out.push(')');
            }
            ("array", _) => match keywords.items {
                Some(items) => {
                    out.push_str("array of ");
                    self.write_within(items, open, out);
                }
                None => out.push_str("array"),
            },
            ("object", _) => match keywords.properties.and_then(Value::as_object) {
                Some(properties) if !properties.is_empty() => {
                    out.push_str("object with fields ");
                    for (index, (key, field)) in properties.iter().enumerate() {
                        if index > 0 {
                            out.push_str(", ");
                        }
                        out.push_str(key);
                        // A tag, which tells one variant of a tagged enum from another, and
                        // a unit variant's name beside one, whose value is `null`.
                        if let Some(fixed) = fixed_value(field) {
                            out.push_str(": ");
                            write_json(fixed, out);
                        } else if is_null_schema(field) {
                            out.push_str(": null");
                        }
                    }
                }
                _ => out.push_str("object"),
            },
            (other, _) => out.push_str(other),
        };
        match keywords.types {
            Some(Value::String(name)) => write_type(name, out),
            Some(Value::Array(names)) => {
                for (index, name) in names.iter().filter_map(Value::as_str).enumerate() {
                    if index > 0 {
                        out.push_str(" or ");
                    }
                    write_type(name, out);
                }
            }
            // A branch that only asks for fields (`{"required": ["phone"]}`), as an `anyOf`
            // of which fields to send has.
            None if keywords.required.is_some() => {
                out.push_str("an object with ");
                let required = keywords.required.and_then(Value::as_array);
                let names = required.into_iter().flatten().filter_map(Value::as_str);
                for (index, name) in names.enumerate() {
                    if index > 0 {
                        out.push_str(" and ");
                    }
                    out.push_str(name);
                }
            }
            _ => out.push_str("any value"),
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

fn write_enum(allowed: &[Value], out: &mut String) {
    if let [only] = allowed {
        return write_json(only, out);
    }
    out.push_str("one of ");
    for (index, value) in allowed.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        write_json(value, out);
    }
}

/// A value's compact JSON text, as `Value`'s `Display` writes it.
fn write_json(value: &Value, out: &mut String) {
    use std::fmt::Write as _;
    // Writing into a `String` cannot fail.
    let _ = write!(out, "{value}");
}

/// How many shapes one description says before the rest of its unions' branches are `or …`:
/// unions within unions have the product of their lengths.
const MAX_SHAPES_SAID: usize = 64;

/// The `$ref`s being described, outermost first (`""` for each other schema), at most
/// [`MAX_NESTED_SCHEMAS`]: kept on the stack, as describing happens for every fault. And the
/// shapes said so far, past [`MAX_SHAPES_SAID`] once the rest are said as `…`.
#[derive(Default)]
struct Open<'s> {
    refs: [&'s str; MAX_NESTED_SCHEMAS],
    len: usize,
    said: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_branch_says_its_range_where_its_type_does_not() {
        let root = Map::new();
        let words = Words::new(&root);
        for (branch, said) in [
            (
                json!({"type": "integer", "format": "int8", "maximum": -1, "minimum": -128}),
                "i8 at most -1",
            ),
            (
                json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}),
                "u8",
            ),
            (
                json!({"type": "integer", "format": "uint128", "minimum": 0}),
                "u128",
            ),
            (
                json!({"type": "number", "minimum": 0.5, "maximum": 1.5}),
                "number 0.5 to 1.5",
            ),
            (json!({"type": "string", "minLength": 2}), "string"),
            // A tagged variant says its tag's value.
            (
                json!({"type": "object", "properties": {
                    "t": {"type": "string", "const": "Num"},
                    "c": {"type": "integer"},
                    "k": {"enum": [1]},
                }}),
                "object with fields t: \"Num\", c, k: 1",
            ),
            (
                json!({"type": "object", "properties": {"Stop": {"type": "null"}}}),
                "object with fields Stop: null",
            ),
        ] {
            let said_of = words.of_branches(std::slice::from_ref(&branch));
            assert_eq!(said_of, said, "{branch}");
        }
    }

    #[test]
    fn unions_within_unions_are_said_each_branch_once_and_so_far() {
        // Four ways down at each of two levels, each written as one `$ref`: said once.
        let level = |next: &str| {
            let way = json!({"$ref": format!("#/$defs/{next}")});
            json!({"anyOf": [way, way, way, way]})
        };
        let root = json!({"$defs": {
            "L0": level("L1"), "L1": level("Leaf"),
            "Leaf": {"type": "object", "properties": {"x": {"type": "integer"}}},
        }});
        let words = Words::new(root.as_object().unwrap());
        assert_eq!(
            words.of(&json!({"$ref": "#/$defs/L0"})),
            "object with fields x"
        );
        // Four ways of four ways of five objects, each its own: 80 in all, the first 64 said.
        let union = |ways: Vec<Value>| json!({"anyOf": ways});
        let object = |name: String| json!({"type": "object", "properties": {name: {}}});
        let said = words.of(&union(
            (0..4)
                .map(|a| {
                    union(
                        (0..4)
                            .map(|b| union((0..5).map(|c| object(format!("f{a}{b}{c}"))).collect()))
                            .collect(),
                    )
                })
                .collect(),
        ));
        assert_eq!(said.matches("object with fields").count(), 64, "{said}");
        assert!(said.ends_with("object with fields f303 or …"), "{said}");
    }
}
