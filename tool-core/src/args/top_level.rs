//! The serde side of reading arguments: a wrapper around the deserializer of the arguments
//! that refuses fields the input schema does not show and arrays read into a struct by
//! position.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};

/// Wraps the deserializer of the arguments so that the input struct refuses fields it does
/// not have, whether or not it says `#[serde(deny_unknown_fields)]`, and refuses arrays, which
/// serde would otherwise read into a struct by position. With `names` (the fields a closed
/// input schema shows), a field is known when the schema shows it: serde's own list has each
/// `#[serde(alias)]` too, names the schema does not show a model.
pub(super) struct TopLevel<'n, D> {
    de: D,
    names: Option<&'n [String]>,
}

impl<'n, D> TopLevel<'n, D> {
    pub(super) fn of(de: D, names: Option<&'n [String]>) -> TopLevel<'n, D> {
        TopLevel { de, names }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for TopLevel<'_, D> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let known = Known {
            fields,
            names: self.names,
        };
        (self.de).deserialize_struct(name, fields, KnownFields { visitor, known })
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.de.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// The fields an input struct takes: those serde reads, or those its schema shows.
#[derive(Clone, Copy)]
struct Known<'n> {
    fields: &'static [&'static str],
    names: Option<&'n [String]>,
}

impl Known<'_> {
    fn has(self, key: &str) -> bool {
        match self.names {
            Some(names) => names.iter().any(|name| name == key),
            None => self.fields.contains(&key),
        }
    }

    /// The error for `key`, which is not known, naming the fields that are.
    fn unknown<E: de::Error>(self, key: &str) -> E {
        match self.names {
            Some(names) => {
                let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
                E::custom(format_args!(
                    "unknown field `{key}`, expected one of {}",
                    names.join(", ")
                ))
            }
            None => E::unknown_field(key, self.fields),
        }
    }
}

struct KnownFields<'n, V> {
    visitor: V,
    known: Known<'n>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KnownFields<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.visitor.visit_map(KnownFieldsMap {
            map,
            known: self.known,
        })
    }
}

struct KnownFieldsMap<'n, A> {
    map: A,
    known: Known<'n>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KnownFieldsMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.map.next_key_seed(KnownKey {
            seed,
            known: self.known,
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

struct KnownKey<'n, K> {
    seed: K,
    known: Known<'n>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KnownKey<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for KnownKey<'_, K> {
    type Value = K::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<K::Value, E> {
        if !self.known.has(key) {
            return Err(self.known.unknown(key));
        }
        self.seed.deserialize(key.into_deserializer())
    }
}
