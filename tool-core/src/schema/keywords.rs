//! The validation keywords of one schema object, read in one pass over its keys rather than
//! looked up one by one for every value checked, and what schemars' integer `format`s mean.

use serde_json::{Map, Value};

use super::walk::{Lookup, MAX_NESTED_SCHEMAS, Root};

/// The keywords of one schema object the checker reads.
#[derive(Clone, Copy, Default)]
pub(crate) struct Keywords<'s> {
    pub(crate) reference: Option<&'s Value>,
    pub(crate) all_of: Option<&'s Value>,
    pub(crate) any_of: Option<&'s Value>,
    pub(crate) one_of: Option<&'s Value>,
    pub(crate) enumeration: Option<&'s Value>,
    pub(crate) constant: Option<&'s Value>,
    pub(crate) types: Option<&'s Value>,
    pub(crate) format: Option<&'s Value>,
    pub(crate) minimum: Option<&'s Value>,
    pub(crate) maximum: Option<&'s Value>,
    pub(crate) exclusive_minimum: Option<&'s Value>,
    pub(crate) exclusive_maximum: Option<&'s Value>,
    pub(crate) multiple_of: Option<&'s Value>,
    pub(crate) min_length: Option<&'s Value>,
    pub(crate) max_length: Option<&'s Value>,
    pub(crate) pattern: Option<&'s Value>,
    pub(crate) min_items: Option<&'s Value>,
    pub(crate) max_items: Option<&'s Value>,
    pub(crate) unique_items: Option<&'s Value>,
    pub(crate) prefix_items: Option<&'s Value>,
    pub(crate) items: Option<&'s Value>,
    pub(crate) properties: Option<&'s Value>,
    pub(crate) additional_properties: Option<&'s Value>,
    pub(crate) pattern_properties: Option<&'s Value>,
    pub(crate) required: Option<&'s Value>,
    pub(crate) min_properties: Option<&'s Value>,
    pub(crate) max_properties: Option<&'s Value>,
    pub(crate) condition: Option<&'s Value>,
    pub(crate) then: Option<&'s Value>,
    pub(crate) otherwise: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    pub(crate) fn of(schema: &'s Map<String, Value>) -> Self {
        let mut keywords = Keywords::default();
        for (key, value) in schema {
            if let Some(slot) = keywords.slot(key) {
                *slot = Some(value);
            }
        }
        keywords
    }

    /// `minimum` and `maximum`, each only when it says more than the range of the Rust
    /// integer type the `format` names (schemars writes a `u8`'s `0` and `255`, which serde
    /// enforces by itself).
    pub(crate) fn bounds_beyond_type(&self) -> (Option<&'s Value>, Option<&'s Value>) {
        let implied = self.format.and_then(Value::as_str).and_then(integer_range);
        let beyond = |bound: Option<&'s Value>, implied: Option<i128>| {
            bound.filter(|bound| {
                implied.is_none_or(|implied| bound.as_f64() != Some(implied as f64))
            })
        };
        (
            beyond(self.minimum, implied.map(|(min, _)| min)),
            beyond(self.maximum, implied.map(|(_, max)| max)),
        )
    }

    /// Where the value of `key` goes, if the checker reads it.
    fn slot(&mut self, key: &str) -> Option<&mut Option<&'s Value>> {
        Some(match key {
            "$ref" => &mut self.reference,
            "allOf" => &mut self.all_of,
            "anyOf" => &mut self.any_of,
            "oneOf" => &mut self.one_of,
            "enum" => &mut self.enumeration,
            "const" => &mut self.constant,
            "type" => &mut self.types,
            "format" => &mut self.format,
            "minimum" => &mut self.minimum,
            "maximum" => &mut self.maximum,
            "exclusiveMinimum" => &mut self.exclusive_minimum,
            "exclusiveMaximum" => &mut self.exclusive_maximum,
            "multipleOf" => &mut self.multiple_of,
            "minLength" => &mut self.min_length,
            "maxLength" => &mut self.max_length,
            "pattern" => &mut self.pattern,
            "minItems" => &mut self.min_items,
            "maxItems" => &mut self.max_items,
            "uniqueItems" => &mut self.unique_items,
            "prefixItems" => &mut self.prefix_items,
            "items" => &mut self.items,
            "properties" => &mut self.properties,
            "additionalProperties" => &mut self.additional_properties,
            "patternProperties" => &mut self.pattern_properties,
            "required" => &mut self.required,
            "minProperties" => &mut self.min_properties,
            "maxProperties" => &mut self.max_properties,
            "if" => &mut self.condition,
            "then" => &mut self.then,
            "else" => &mut self.otherwise,
            _ => return None,
        })
    }
}

/// The keywords that join schemas, each a list of them: one of, any of, all of.
pub(crate) const UNIONS: [&str; 3] = ["oneOf", "anyOf", "allOf"];

/// Keywords that say something of a value without constraining it: what a schema may hold
/// besides the ones the checker reads.
const ANNOTATIONS: [&str; 13] = [
    "$schema",
    "$id",
    // A name for the schema it sits in; a `$ref` to it (`#name`) is refused where it is met, as
    // every `$ref` that does not point into `$defs` is.
    "$anchor",
    "$comment",
    "$defs",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "nullable",
];

/// Whether the registry knows what `keyword` means: the checker enforces it, or it constrains
/// nothing.
pub(crate) fn is_understood(keyword: &str) -> bool {
    Keywords::default().slot(keyword).is_some() || is_annotation(keyword)
}

/// What to do about a keyword the registry does not know ([`is_understood`]).
pub(crate) const WITHOUT: &str =
    "take it out of the schema (and check it in the handler, saying so in the description)";

/// Whether `keyword` says something of a value without constraining it. Extensions (`x-...`)
/// are annotations too.
pub(crate) fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-")
}

/// The one value a schema allows (`const`, or an `enum` of one), as a tagged enum's tag has.
pub(crate) fn fixed_value(schema: &Value) -> Option<&Value> {
    schema.get("const").or_else(|| match schema.get("enum") {
        Some(Value::Array(only)) if only.len() == 1 => only.first(),
        _ => None,
    })
}

/// How the top of an input's schema takes no object, which a call's arguments always are.
pub(crate) enum NoObject<'s> {
    /// Its `type` names no object (`"integer"`, `["string", "null"]`), as written.
    Type(&'s Value),
    /// It takes `null` beside an object: an `Option<T>`'s (`"type": ["object", "null"]`, or no
    /// `type` and a union with a `{"type": "null"}` branch), or an untagged enum's unit
    /// variant's.
    Null,
    /// It is a union of no `type` of its own none of whose branches takes an object (an
    /// untagged enum of newtypes of numbers and texts).
    PlainUnion,
}

/// How `schema`, an input's, takes no object, if it does not.
pub(crate) fn no_object(schema: &Map<String, Value>) -> Option<NoObject<'_>> {
    let unions = || {
        UNIONS
            .into_iter()
            .filter_map(|union| schema.get(union)?.as_array())
    };
    match schema.get("type") {
        Some(Value::Array(kinds)) if kinds.iter().any(|kind| kind == "null") => {
            Some(NoObject::Null)
        }
        Some(kinds) => (!takes_object(kinds)).then_some(NoObject::Type(kinds)),
        None if unions().any(|branches| branches.iter().any(is_null_schema)) => {
            Some(NoObject::Null)
        }
        None => {
            let root = Root::new(schema);
            let plain = |branch| {
                let kinds = root.deref(branch).and_then(|branch| branch.get("type"));
                kinds.is_some_and(|kinds| !takes_object(kinds))
            };
            (unions().any(|branches| !branches.is_empty() && branches.iter().all(plain)))
                .then_some(NoObject::PlainUnion)
        }
    }
}

/// Whether a `type` keyword's value names `"object"`, alone or in its list.
fn takes_object(kinds: &Value) -> bool {
    names_type(kinds, "object")
}

/// Whether a `type` keyword's value (`"string"`, `["string", "null"]`) names `kind`.
pub(crate) fn names_type(kinds: &Value, kind: &str) -> bool {
    match kinds {
        Value::Array(kinds) => kinds.iter().any(|named| named == kind),
        named => named == kind,
    }
}

/// Whether the branch at `at` of a union's `branches` is written as one before it (an untagged
/// enum's variants wrapping one type): it reads, and is said, as that one is, and a walk along
/// every way would take the same way again, the product of such unions' lengths times.
pub(crate) fn repeats_earlier(branches: &[Value], at: usize) -> bool {
    branches[..at].contains(&branches[at])
}

/// [`repeats_earlier`] for `branch`, one of `map`'s `anyOf` or `oneOf` branches found by place,
/// for a walk that meets it without its place.
pub(crate) fn repeats_a_branch(map: &Map<String, Value>, branch: &Value) -> bool {
    (UNIONS.into_iter())
        .filter_map(|union| map.get(union).and_then(Value::as_array))
        .any(|branches| {
            (branches
                .iter()
                .position(|other| std::ptr::eq(other, branch)))
            .is_some_and(|at| repeats_earlier(branches, at))
        })
}

/// Whether a schema is `{"type": "null"}`, the other branch of an optional.
#[inline]
pub(crate) fn is_null_schema(schema: &Value) -> bool {
    let types = (schema.as_object()).and_then(|schema| schema.lookup("type"));
    types.and_then(Value::as_str) == Some("null")
}

/// The one branch of `branches` that is not [`is_null_schema`], when there is exactly one: an
/// `Option<T>`'s `T`, or an enum's one variant.
pub(crate) fn only_solid_branch(branches: &[Value]) -> Option<&Value> {
    let mut solid = branches.iter().filter(|branch| !is_null_schema(branch));
    match (solid.next(), solid.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether a schema takes `null` as a value: its `type`, `enum` or `const` says so
/// (`Option<T>` of a plain `T`), a branch of its `anyOf` or `oneOf` does (of a `T` defined
/// apart), or it says no type at all (a `serde_json::Value`). A `$ref` is followed, a few
/// levels deep; past them, `null` is taken as allowed, and checked as any value is.
pub(crate) fn admits_null(schema: &Value, root: Root<'_>) -> bool {
    admits_null_within(schema, root, MAX_NESTED_SCHEMAS)
}

fn admits_null_within(schema: &Value, root: Root<'_>, depth: usize) -> bool {
    match schema.as_object() {
        Some(schema) => object_admits_null(schema, root, depth),
        None => schema == &Value::Bool(true),
    }
}

fn object_admits_null(schema: &Map<String, Value>, root: Root<'_>, depth: usize) -> bool {
    let Some(depth) = depth.checked_sub(1) else {
        return true;
    };
    let keywords = Keywords::of(schema);
    let refused = match keywords.reference.and_then(Value::as_str) {
        Some("#") => !object_admits_null(root.whole(), root, depth),
        Some(to) => (root.resolve(to)).is_some_and(|to| !admits_null_within(to, root, depth)),
        None => false,
    };
    if refused {
        return false;
    }
    let any = |branches: &Value| {
        (branches.as_array())
            .is_some_and(|all| all.iter().any(|b| admits_null_within(b, root, depth)))
    };
    match (keywords.types, keywords.enumeration, keywords.constant) {
        (Some(Value::String(name)), ..) => name == "null",
        (Some(Value::Array(names)), ..) => names.iter().any(|name| name == "null"),
        (_, Some(Value::Array(values)), _) => values.contains(&Value::Null),
        (_, _, Some(constant)) => constant.is_null(),
        _ => match (keywords.any_of, keywords.one_of) {
            (Some(branches), _) | (None, Some(branches)) => any(branches),
            (None, None) => true,
        },
    }
}

/// The Rust integer type schemars names by this `format`.
pub(crate) fn integer_name(format: &str) -> Option<&'static str> {
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

/// The range of the Rust integer type schemars names by this `format`.
pub(crate) fn integer_range(format: &str) -> Option<(i128, i128)> {
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
