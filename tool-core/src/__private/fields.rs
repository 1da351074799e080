//! The reading of the input struct `#[tool]` makes of a fn's parameters: its keys and its
//! absent fields, compiled once for every tool rather than generated into each. serde's derive
//! would give each tool a field enum, its visitor, a reader of the struct from an array and
//! the rest; the struct is only ever read from a JSON object, and the generated `Deserialize`
//! is its `visit_map` alone, which calls these.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};

/// Reads one key of the input object as the position of the field it names; a key that names
/// none is refused as serde refuses it under `deny_unknown_fields`.
pub struct FieldKey {
    /// The fields' names, in order.
    pub fields: &'static [&'static str],
    /// The position of the field a key names: a `match` on the names, generated for each tool,
    /// which compiles to comparisons of known lengths and bytes.
    pub position: fn(&str) -> Option<usize>,
}

impl<'de> DeserializeSeed<'de> for FieldKey {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldKey {
    type Value = usize;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("field identifier")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        match (self.position)(key) {
            Some(at) => Ok(at),
            None => Err(E::unknown_field(key, self.fields)),
        }
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        match std::str::from_utf8(key).ok().and_then(self.position) {
            Some(at) => Ok(at),
            None => Err(E::unknown_field(&String::from_utf8_lossy(key), self.fields)),
        }
    }
}

/// The value of a field the arguments left out: `None` for an `Option`, and serde's "missing
/// field" for any other type (as serde's derive reads an absent field).
pub fn missing_field<'de, T: de::Deserialize<'de>, E: de::Error>(
    field: &'static str,
) -> Result<T, E> {
    T::deserialize(Missing {
        field,
        error: std::marker::PhantomData,
    })
}

/// The deserializer of an absent field: it has nothing to give but `None`.
struct Missing<E> {
    field: &'static str,
    error: std::marker::PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.field))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
