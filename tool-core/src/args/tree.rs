//! A JSON value for the argument checker: read from the arguments' text borrowing its strings,
//! with objects as lists of fields in the order sent.
//!
//! `serde_json::Value` would do, but it costs a third of a refused call: with `preserve_order`
//! (which this crate needs for schemas) every object is an `IndexMap` that hashes each key with
//! SipHash, and every key and string is an allocation of its own. Here a string without
//! escapes borrows the text, an object is a `Vec`, and a key sent twice stays twice, so the
//! checker can say so where serde would only name the first.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

use super::numbers;

/// One JSON value; see the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl<'a> Node<'a> {
    /// Reads `text`, which must hold one JSON value and nothing after it. Nesting stops at
    /// serde_json's 128 levels, as for any value it reads.
    pub(crate) fn parse(text: &'a str) -> serde_json::Result<Node<'a>> {
        serde_json::from_str(text)
    }

    /// A node borrowing from `value`. It recurses once per level, as writing `value` did.
    pub(crate) fn of(value: &'a Value) -> Node<'a> {
        match value {
            Value::Null => Node::Null,
            Value::Bool(flag) => Node::Bool(*flag),
            Value::Number(number) => Node::Number(number.clone()),
            Value::String(text) => Node::String(Cow::Borrowed(text)),
            Value::Array(items) => Node::Array(items.iter().map(Node::of).collect()),
            Value::Object(fields) => Node::Object(
                fields
                    .iter()
                    .map(|(key, item)| (Cow::Borrowed(key.as_str()), Node::of(item)))
                    .collect(),
            ),
        }
    }

    /// The same value owning its strings, free of the text it was read from. It recurses once
    /// per level, as reading the text did.
    pub(crate) fn into_owned(self) -> Node<'static> {
        let owned = |text: Cow<'_, str>| Cow::Owned(text.into_owned());
        match self {
            Node::Null => Node::Null,
            Node::Bool(flag) => Node::Bool(flag),
            Node::Number(number) => Node::Number(number),
            Node::String(text) => Node::String(owned(text)),
            Node::Array(items) => Node::Array(items.into_iter().map(Node::into_owned).collect()),
            Node::Object(fields) => Node::Object(
                fields
                    .into_iter()
                    .map(|(key, item)| (owned(key), item.into_owned()))
                    .collect(),
            ),
        }
    }

    /// Whether this is text, a number, a boolean or null.
    pub(crate) fn is_scalar(&self) -> bool {
        !matches!(self, Node::Array(_) | Node::Object(_))
    }

    /// A scalar as a key that equal scalars share and unequal ones do not (`1` and `1.0` are
    /// one number, as JSON Schema compares them).
    pub(crate) fn scalar_key(&self) -> (u8, Cow<'_, str>) {
        match self {
            Node::Null => (0, Cow::Borrowed("")),
            Node::Bool(flag) => (1, Cow::Borrowed(if *flag { "true" } else { "false" })),
            Node::Number(number) => (2, Cow::Owned(numbers::key(number))),
            Node::String(text) => (3, Cow::Borrowed(text)),
            Node::Array(_) | Node::Object(_) => (4, Cow::Borrowed("")),
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    /// The first field named `key`, in an object.
    pub(crate) fn field(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(fields) => fields
                .iter()
                .find_map(|(name, item)| (name == key).then_some(item)),
            _ => None,
        }
    }

    /// Whether this is the same JSON value as `value`, as JSON Schema compares them: numbers by
    /// value, objects whatever order their fields come in.
    pub(crate) fn equals(&self, value: &Value) -> bool {
        match (self, value) {
            (Node::Null, Value::Null) => true,
            (Node::Bool(a), Value::Bool(b)) => a == b,
            (Node::Number(a), Value::Number(b)) => numbers::same(a, b),
            (Node::String(a), Value::String(b)) => a == b,
            (Node::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.equals(b))
            }
            (Node::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(key, item)| b.get(key.as_ref()).is_some_and(|b| item.equals(b)))
                    && b.keys().all(|key| a.iter().any(|(name, _)| name == key))
            }
            _ => false,
        }
    }

    /// Whether this is of one of the JSON Schema `types` (a name, or a list of them); a
    /// name JSON Schema does not have takes any value. A number without a fraction is an
    /// integer, as JSON Schema says, however it is written (`3.0`, `1e3`, and past what 64 bits
    /// hold).
    #[inline]
    pub(crate) fn is_of_type(&self, types: &Value) -> bool {
        let matches = |name: &str| match (name, self) {
            ("null", Node::Null)
            | ("boolean", Node::Bool(_))
            | ("number", Node::Number(_))
            | ("string", Node::String(_))
            | ("array", Node::Array(_))
            | ("object", Node::Object(_)) => true,
            ("integer", Node::Number(number)) => {
                number.is_i64() || number.is_u64() || numbers::is_whole_double(number)
            }
            ("null" | "boolean" | "integer" | "number" | "string" | "array" | "object", _) => false,
            _ => true,
        };
        match types {
            Value::String(name) => matches(name),
            Value::Array(names) => names.iter().filter_map(Value::as_str).any(matches),
            _ => true,
        }
    }

    /// Writes this value at the end of `out` as a key that the same values share, compared
    /// as [`equals`](Self::equals) compares, and no others: numbers by value, an object's
    /// fields in the order of their names. Not JSON: a key, made in time that grows with the
    /// value's size (its fields sorted), not with the square of it.
    pub(crate) fn write_key(&self, out: &mut String) {
        match self {
            Node::Null => out.push('n'),
            Node::Bool(flag) => out.push(if *flag { 't' } else { 'f' }),
            Node::Number(number) => {
                out.push('#');
                out.push_str(&numbers::key(number));
                out.push(';');
            }
            Node::String(text) => write_key_text(text, out),
            Node::Array(items) => {
                out.push('[');
                for item in items {
                    item.write_key(out);
                    out.push(',');
                }
                out.push(']');
            }
            Node::Object(fields) => {
                let mut sorted: Vec<_> = fields.iter().collect();
                sorted.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
                out.push('{');
                for (name, item) in sorted {
                    write_key_text(name, out);
                    out.push(':');
                    item.write_key(out);
                    out.push(',');
                }
                out.push('}');
            }
        }
    }

    /// Whether some field of `object` is sent more than once: pair by pair for a struct's few
    /// fields, through a set for more, so that no object costs the square of its size.
    #[inline]
    pub(crate) fn sent_twice(object: &[(Cow<'_, str>, Node<'_>)]) -> bool {
        if object.len() > 16 {
            return Node::sent_twice_of_many(object);
        }
        (object.iter().enumerate())
            .any(|(at, (name, _))| object[..at].iter().any(|(earlier, _)| earlier == name))
    }

    /// [`sent_twice`](Self::sent_twice) for an object of many fields.
    #[cold]
    fn sent_twice_of_many(object: &[(Cow<'_, str>, Node<'_>)]) -> bool {
        let mut names = std::collections::HashSet::with_capacity(object.len());
        !object.iter().all(|(name, _)| names.insert(name))
    }

    /// How many values this holds, itself included; without recursion.
    pub(crate) fn count(&self) -> usize {
        let mut count = 0;
        let mut pending = vec![self];
        while let Some(node) = pending.pop() {
            count += 1;
            match node {
                Node::Array(items) => pending.extend(items),
                Node::Object(fields) => pending.extend(fields.iter().map(|(_, item)| item)),
                _ => {}
            }
        }
        count
    }
}

/// Text in a key ([`Node::write_key`]): quoted, its quotes and backslashes escaped, so that
/// where it ends is never in doubt.
fn write_key_text(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

impl fmt::Display for Node<'_> {
    /// The compact JSON text, as `Value`'s `Display` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => serializer.serialize_unit(),
            Node::Bool(flag) => serializer.serialize_bool(*flag),
            Node::Number(number) => number.serialize(serializer),
            Node::String(text) => serializer.serialize_str(text),
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, item) in fields {
                    map.serialize_entry(key.as_ref(), item)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// The key serde_json's `arbitrary_precision` feature (which a dependency may turn on) writes
/// a number as: `{KEY: "digits"}`.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether serde_json hands numbers over as `{NUMBER_TOKEN: "digits"}` (its
/// `arbitrary_precision` feature is on in this build); found once, by asking it. Without the
/// feature, an object with that key is an object like any other, sent by a caller.
pub(super) fn numbers_come_as_maps() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| {
        let probe = format!(r#"{{"{NUMBER_TOKEN}":"1"}}"#);
        matches!(serde_json::from_str::<Value>(&probe), Ok(Value::Number(_)))
    })
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node<'de>, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_bool<E>(self, flag: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(flag))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Node<'de>, E> {
        Ok(Node::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Node<'de>, E> {
        Ok(Node::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Node<'de>, E> {
        // JSON text holds no NaN or infinity, so every number read from it is one.
        Ok(Number::from_f64(n).map_or(Node::Null, Node::Number))
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Node<'de>, E> {
        TextVisitor.visit_borrowed_str(text).map(Node::from)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Node<'de>, E> {
        TextVisitor.visit_str(text).map(Node::from)
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Node<'de>, E> {
        TextVisitor.visit_string(text).map(Node::from)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut fields = Vec::new();
        while let Some(Text(key)) = map.next_key()? {
            if fields.is_empty() && key == NUMBER_TOKEN && numbers_come_as_maps() {
                let Text(digits) = map.next_value()?;
                return digits.parse().map(Node::Number).map_err(de::Error::custom);
            }
            let item = map.next_value()?;
            fields.push((key, item));
        }
        Ok(Node::Object(fields))
    }
}

/// A string that borrows the text when it holds no escapes (serde's own `Cow` always copies).
struct Text<'a>(Cow<'a, str>);

impl<'a> From<Text<'a>> for Node<'a> {
    fn from(Text(text): Text<'a>) -> Self {
        Node::String(text)
    }
}

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Borrowed(text)))
    }

    fn visit_str<E>(self, text: &str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E>(self, text: String) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Owned(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_shared_by_the_same_values_alone() {
        let key = |text: &str| {
            let mut key = String::new();
            Node::parse(text).unwrap().write_key(&mut key);
            key
        };
        let same = [
            (
                r#"{"b":1,"a":[1.0,{"y":2,"x":1}]}"#,
                r#"{"a":[1,{"x":1,"y":2.0}],"b":1}"#,
            ),
            (r#""\u0041""#, r#""A""#),
        ];
        for (a, b) in same {
            assert_eq!(key(a), key(b), "{a} and {b}");
        }
        let apart = [
            (r#"{"a":"x","b":"y"}"#, r#"{"a":"x\",\"b\":\"y"}"#),
            (r#"[[1],[2]]"#, r#"[[1,2]]"#),
            (r#"["1"]"#, r#"[1]"#),
            (r#"{"a":null}"#, r#"{"a":"n"}"#),
        ];
        for (a, b) in apart {
            assert_ne!(key(a), key(b), "{a} and {b}");
        }
    }

    #[test]
    fn strings_without_escapes_borrow_the_text() {
        let text = r#"{"plain": "abc", "escaped": "a\"b", "list": [1, -2, 2.5, null, true]}"#;
        let node = Node::parse(text).unwrap();
        let Node::Object(fields) = &node else {
            panic!("{node:?}")
        };
        assert!(matches!(fields[0].0, Cow::Borrowed("plain")));
        assert!(matches!(fields[0].1, Node::String(Cow::Borrowed("abc"))));
        assert!(matches!(&fields[1].1, Node::String(Cow::Owned(text)) if text == "a\"b"));
        let value: Value = serde_json::from_str(text).unwrap();
        assert!(node.equals(&value));
        assert_eq!(node.to_string(), value.to_string());
        assert_eq!(Node::of(&value), node);
        assert_eq!(node.count(), 9);
    }

    #[test]
    fn an_object_named_like_serde_json_s_number_token_stays_an_object() {
        // This build has no `arbitrary_precision`: the key is a caller's, not serde_json's.
        assert!(!numbers_come_as_maps());
        let text = r#"{"x":{"$serde_json::private::Number":"7"}}"#;
        let node = Node::parse(text).unwrap();
        assert!(matches!(node.field("x"), Some(Node::Object(_))), "{node:?}");
        assert_eq!(node.to_string(), text);
    }

    #[test]
    fn keys_sent_twice_are_kept_twice() {
        let node = Node::parse(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(node.to_string(), r#"{"a":1,"a":2}"#);
        assert_eq!(node.field("a"), Some(&Node::Number(1.into())));
        assert!(!node.equals(&json!({"a": 1})));
        let twice = Node::parse(r#"{"a": 1, "a": 1}"#).unwrap();
        assert!(!twice.equals(&json!({"a": 1, "b": 2})));
    }
}
