//! The keys of an object the guard reads: each shown to serde as it is, with the field it
//! names noted for the value that follows (and, in a traced read, the key itself, for the
//! path).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::trail::Trail;
use super::{Pending, wrapping_methods};

/// What reading one key notes: which of the object's `fields` it names (in `named`), and, in
/// a traced read, the key itself, for the path of the value that follows.
pub(super) struct KeyNotes<'p> {
    pub(super) fields: &'p [(String, usize)],
    pub(super) named: Cell<Pending>,
    pub(super) trail: Option<&'p Trail>,
}

impl KeyNotes<'_> {
    #[inline]
    fn note(&self, key: &str) {
        if let Some(trail) = self.trail {
            trail.note_key(key);
        }
        if let Some(&(_, at)) = self.fields.iter().find(|(name, _)| name == key) {
            self.named.set(Pending::Field(at));
        }
    }

    /// A key serde reads as a number (a map keyed by integers): named by no field, so only a
    /// traced read keeps it, written as the text it was sent as.
    fn note_number(&self, key: impl itoa::Integer) {
        if let Some(trail) = self.trail {
            trail.note_integer_key(itoa::Buffer::new().format(key));
        }
    }
}

/// The next key of `map`, read with what [`KeyNotes`] keeps noted as serde reads it; in a
/// traced read, a key seen and refused is noted as that (`Trail::refuse_key`).
#[inline]
pub(super) fn next_key<'de, A: MapAccess<'de>, K: DeserializeSeed<'de>>(
    map: &mut A,
    seed: K,
    notes: &KeyNotes<'_>,
) -> Result<Option<K::Value>, A::Error> {
    let read = map.next_key_seed(KeySeed { seed, notes });
    if let (Err(_), Some(trail)) = (&read, notes.trail) {
        trail.refuse_key();
    }
    read
}

/// A key's seed that notes, as serde reads the key, what [`KeyNotes`] keeps.
pub(super) struct KeySeed<'p, K> {
    pub(super) seed: K,
    pub(super) notes: &'p KeyNotes<'p>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(KeyReader {
            de,
            notes: self.notes,
        })
    }
}

/// The deserializer of a key, which shows each visitor the key through [`KeyVisitor`].
struct KeyReader<'p, D> {
    de: D,
    notes: &'p KeyNotes<'p>,
}

/// The key reader's way with a method: the visitor shown the key through [`KeyVisitor`].
macro_rules! key_call {
    ($self:ident, $visitor:ident, $method:ident($($arg:expr),*)) => {{
        let visitor = KeyVisitor {
            inner: $visitor,
            notes: $self.notes,
        };
        $self.de.$method($($arg,)* visitor)
    }};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyReader<'_, D> {
    type Error = D::Error;

    wrapping_methods!(key_call);

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        key_call!(self, visitor, deserialize_enum(name, variants))
    }
}

/// Notes the key, then shows it to the visitor serde gave.
struct KeyVisitor<'p, V> {
    inner: V,
    notes: &'p KeyNotes<'p>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<V::Value, E> {
        self.notes.note(key);
        self.inner.visit_str(key)
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<V::Value, E> {
        self.notes.note(key);
        self.inner.visit_borrowed_str(key)
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<V::Value, E> {
        self.notes.note(&key);
        self.inner.visit_string(key)
    }

    fn visit_u64<E: de::Error>(self, key: u64) -> Result<V::Value, E> {
        self.notes.note_number(key);
        self.inner.visit_u64(key)
    }

    fn visit_i64<E: de::Error>(self, key: i64) -> Result<V::Value, E> {
        self.notes.note_number(key);
        self.inner.visit_i64(key)
    }

    fn visit_u128<E: de::Error>(self, key: u128) -> Result<V::Value, E> {
        self.notes.note_number(key);
        self.inner.visit_u128(key)
    }

    fn visit_i128<E: de::Error>(self, key: i128) -> Result<V::Value, E> {
        self.notes.note_number(key);
        self.inner.visit_i128(key)
    }

    fn visit_bool<E: de::Error>(self, key: bool) -> Result<V::Value, E> {
        self.notes.note(if key { "true" } else { "false" });
        self.inner.visit_bool(key)
    }

    fn visit_char<E: de::Error>(self, key: char) -> Result<V::Value, E> {
        self.notes.note(key.encode_utf8(&mut [0; 4]));
        self.inner.visit_char(key)
    }

    fn visit_f64<E: de::Error>(self, key: f64) -> Result<V::Value, E> {
        self.inner.visit_f64(key)
    }

    // A key of a newtype (`struct Id(u32)`) or an enum: what it wraps, or the variant's name,
    // is read through the key reader too, and so noted.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(KeyReader {
            de,
            notes: self.notes,
        })
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, access: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(KeyVariant {
            access,
            notes: self.notes,
        })
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<V::Value, E> {
        self.inner.visit_bytes(key)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, key: &'de [u8]) -> Result<V::Value, E> {
        self.inner.visit_borrowed_bytes(key)
    }
}

/// An enum key's variant, its name read through the key reader.
struct KeyVariant<'p, A> {
    access: A,
    notes: &'p KeyNotes<'p>,
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for KeyVariant<'_, A> {
    type Error = A::Error;
    type Variant = A::Variant;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.access.variant_seed(KeySeed {
            seed,
            notes: self.notes,
        })
    }
}
