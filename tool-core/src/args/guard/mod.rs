//! The plan's check, made during serde's one pass over the arguments: a deserializer that
//! hands serde each value as usual and, on the way, holds it to its step of the plan (a
//! bound, a length, a pattern, a format, an object's fields). A value that breaks a rule ends
//! the read with an error, and the full checker then finds every fault; a part of the schema
//! the plan cannot describe is read as it is, and marked so that the full checker looks at the
//! call afterwards.
//!
//! serde has no hook for this, so the wrapper forwards each of a deserializer's methods, as
//! `serde_ignored` does for its own end. A value with nothing to check is handed to the inner
//! deserializer as it is, except a map (and so a struct, which is read as one): that is read
//! through the guard all the same, its fields straight through, so that each tool's input type
//! has its deserializer compiled for the guard alone.
//!
//! The same guard, traced (a plan of one `Step::Traced`, and `Findings::traced`), checks
//! nothing and notes where a read fails instead (`trail.rs`): for a fault the schema does not
//! explain. Every input type's deserializer is compiled through the guard already, so finding
//! that fault's path costs no further copy of it.

mod keys;
mod trail;
mod variants;

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use self::keys::KeyNotes;
use self::trail::Trail;
use super::plan::{Others, Plan, Step};

/// What one guarded read found besides serde's own result.
#[derive(Default)]
pub(super) struct Findings {
    /// A part the plan cannot describe was read without its check.
    pub(super) unchecked: Cell<bool>,
    /// In a traced read, where the read is and where it failed.
    trail: Option<Trail>,
}

impl Findings {
    /// The findings of a traced read: one that checks nothing, and notes where it fails.
    pub(super) fn traced() -> Findings {
        Findings {
            unchecked: Cell::new(false),
            trail: Some(Trail::default()),
        }
    }

    /// Where a traced read failed: the path to the innermost value whose read failed, empty
    /// for the arguments as a whole.
    pub(super) fn failed_at(self) -> String {
        self.trail.map(Trail::failed_at).unwrap_or_default()
    }

    /// Where a traced read failed, as the fault is shown: [`Findings::failed_at`], or, where a
    /// key was refused, the key's own path below it.
    pub(super) fn fault_at(self) -> String {
        self.trail.map(Trail::fault_at).unwrap_or_default()
    }

    /// Whether a traced read read `key` as an integer, a key of a map keyed by integers that
    /// serde read from the text.
    pub(super) fn read_as_integer(&self, key: &str) -> bool {
        self.trail
            .as_ref()
            .is_some_and(|trail| trail.read_as_integer(key))
    }

    /// `read` of the value of the last key read; in a traced read, its path noted.
    fn field<T, E>(&self, read: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        match &self.trail {
            Some(trail) => trail.field(read),
            None => read(),
        }
    }

    /// `read` of the item at `index`; in a traced read, its path noted.
    fn item<T, E>(&self, index: u64, read: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        match &self.trail {
            Some(trail) => trail.item(index, read),
            None => read(),
        }
    }
}

/// The error that ends a read at a value that breaks a rule. The full checker says which.
fn broken<E: de::Error>() -> E {
    E::custom("a value breaks a rule of the tool's schema")
}

/// A deserializer held to step `at` of a plan.
pub(super) struct Guard<'p, D> {
    de: D,
    plan: &'p Plan,
    at: usize,
    findings: &'p Findings,
}

impl<'p, D> Guard<'p, D> {
    /// `de`, held to the plan's root step.
    pub(super) fn root(de: D, plan: &'p Plan, findings: &'p Findings) -> Self {
        Guard {
            de,
            plan,
            at: plan.root(),
            findings,
        }
    }

    fn visitor<V>(&self, inner: V) -> Guarded<'p, V> {
        Guarded {
            inner,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
        }
    }

    /// Whether the value needs no guard: nothing to check, or nothing the plan can check. A
    /// traced read guards every value, to note its path.
    fn unguarded(&self) -> bool {
        match self.plan.step(self.at) {
            Step::Any => true,
            Step::HandOver => {
                self.findings.unchecked.set(true);
                true
            }
            _ => false,
        }
    }
}

/// The methods of a deserializer that wraps another, each calling `$call!` with the wrapper,
/// the visitor, and the inner method with its other arguments: one list for the guard and
/// the key reader, whose wrapping differs. `deserialize_enum` is each one's own.
macro_rules! wrapping_methods {
    ($call:ident) => {
        wrapping_methods!(@simple $call: deserialize_any deserialize_bool deserialize_i8
            deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8
            deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
            deserialize_f64 deserialize_char deserialize_str deserialize_string
            deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit
            deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any);

        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $call!(self, visitor, deserialize_unit_struct(name))
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $call!(self, visitor, deserialize_newtype_struct(name))
        }

        fn deserialize_tuple<V: Visitor<'de>>(
            self,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $call!(self, visitor, deserialize_tuple(len))
        }

        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $call!(self, visitor, deserialize_tuple_struct(name, len))
        }

        // A struct is read as a map: serde_json would also read one from an array, by
        // position, which a tool's schema (an object) does not allow; and reading it as a map
        // compiles no reader of arrays for each struct type.
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            _fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $call!(self, visitor, deserialize_map())
        }

        fn is_human_readable(&self) -> bool {
            self.de.is_human_readable()
        }
    };
    (@simple $call:ident: $($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                $call!(self, visitor, $method())
            }
        )*
    };
}

use wrapping_methods;

/// The guard's way with a method: straight through where there is nothing to check, else
/// with the visitor guarded. A map (and so a struct) is guarded even then, its fields read
/// straight through: so that a tool's input type has its deserializer compiled for the guard
/// alone, not for the guard and for serde_json's own deserializer beside it.
macro_rules! guarded_call {
    ($self:ident, $visitor:ident, deserialize_map()) => {{
        let guarded = $self.visitor($visitor);
        $self.de.deserialize_map(guarded)
    }};
    ($self:ident, $visitor:ident, $method:ident($($arg:expr),*)) => {{
        if $self.unguarded() {
            return $self.de.$method($($arg,)* $visitor);
        }
        let guarded = $self.visitor($visitor);
        $self.de.$method($($arg,)* guarded)
    }};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guard<'_, D> {
    type Error = D::Error;

    wrapping_methods!(guarded_call);

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // An enum's variants are branches the plan does not describe, unless the enum is of
        // plain values alone (text, or constants), which serde reads in full.
        if let (Step::Traced, Some(trail)) = (self.plan.step(self.at), &self.findings.trail) {
            let traced = variants::TracedEnum {
                inner: visitor,
                plan: self.plan,
                at: self.at,
                findings: self.findings,
                trail,
            };
            return self.de.deserialize_enum(name, variants, traced);
        }
        if !matches!(self.plan.step(self.at), Step::Any | Step::Text(_)) {
            self.findings.unchecked.set(true);
        }
        self.de.deserialize_enum(name, variants, visitor)
    }
}

/// A visitor that holds each value it is given to step `at` before passing it on.
struct Guarded<'p, V> {
    inner: V,
    plan: &'p Plan,
    at: usize,
    findings: &'p Findings,
}

impl<'p, V> Guarded<'p, V> {
    fn step(&self) -> &'p Step {
        self.plan.step(self.at)
    }

    fn number<E: de::Error>(&self, n: f64) -> Result<(), E> {
        match self.step() {
            Step::Number(rule) if rule.holds(n) => Ok(()),
            Step::Traced => Ok(()),
            _ => Err(broken()),
        }
    }

    fn text<E: de::Error>(&self, text: &str) -> Result<(), E> {
        match self.step() {
            Step::Text(rule) if rule.holds(text) => Ok(()),
            Step::Traced => Ok(()),
            _ => Err(broken()),
        }
    }

    fn guard<D>(&self, de: D, at: usize) -> Guard<'p, D> {
        Guard {
            de,
            plan: self.plan,
            at,
            findings: self.findings,
        }
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Guarded<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<V::Value, E> {
        self.inner.visit_bool(value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<V::Value, E> {
        self.number(value as f64)?;
        self.inner.visit_i64(value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<V::Value, E> {
        self.number(value as f64)?;
        self.inner.visit_u64(value)
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<V::Value, E> {
        self.number(value as f64)?;
        self.inner.visit_i128(value)
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<V::Value, E> {
        self.number(value as f64)?;
        self.inner.visit_u128(value)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<V::Value, E> {
        self.number(value)?;
        self.inner.visit_f64(value)
    }

    fn visit_char<E: de::Error>(self, value: char) -> Result<V::Value, E> {
        self.text(value.encode_utf8(&mut [0; 4]))?;
        self.inner.visit_char(value)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<V::Value, E> {
        self.text(value)?;
        self.inner.visit_str(value)
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<V::Value, E> {
        self.text(value)?;
        self.inner.visit_borrowed_str(value)
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<V::Value, E> {
        self.text(&value)?;
        self.inner.visit_string(value)
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<V::Value, E> {
        self.inner.visit_bytes(value)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let guard = self.guard(de, self.at);
        self.inner.visit_some(guard)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let guard = self.guard(de, self.at);
        self.inner.visit_newtype_struct(guard)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let (min, max, items) = match self.step() {
            &Step::List { min, max, items } => (min, max, items),
            Step::Traced => (None, None, self.at),
            _ => return Err(broken()),
        };
        let guarded = GuardedSeq {
            seq,
            plan: self.plan,
            items,
            findings: self.findings,
            count: 0,
            bounds: (min, max),
        };
        self.inner.visit_seq(guarded)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let (fields, others, min, max) = match self.step() {
            Step::Object {
                fields,
                others,
                min,
                max,
            } => (&fields[..], others, min, max),
            Step::Traced => (&[][..], &Others::Traced, &None, &None),
            // Nothing to check: every field read straight through.
            Step::Any => (&[][..], &Others::Taken, &None, &None),
            // Nothing the plan can check: read straight through, and left to the checker.
            Step::HandOver => {
                self.findings.unchecked.set(true);
                (&[][..], &Others::Taken, &None, &None)
            }
            _ => return Err(broken()),
        };
        let guarded = GuardedMap {
            map,
            plan: self.plan,
            fields,
            others,
            findings: self.findings,
            count: 0,
            bounds: (*min, *max),
            pending: Pending::None,
        };
        self.inner.visit_map(guarded)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.findings.unchecked.set(true);
        self.inner.visit_enum(data)
    }
}

/// A seed whose value is held to step `at`.
struct GuardedSeed<'p, S> {
    seed: S,
    plan: &'p Plan,
    at: usize,
    findings: &'p Findings,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for GuardedSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Guard {
            de,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
        })
    }
}

fn within<E: de::Error>(count: u64, (min, max): (Option<u64>, Option<u64>)) -> Result<(), E> {
    if min.is_none_or(|min| count >= min) && max.is_none_or(|max| count <= max) {
        Ok(())
    } else {
        Err(broken())
    }
}

/// An array's items, each held to the items' step, and their number to the bounds.
struct GuardedSeq<'p, A> {
    seq: A,
    plan: &'p Plan,
    items: usize,
    findings: &'p Findings,
    count: u64,
    bounds: (Option<u64>, Option<u64>),
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for GuardedSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let guarded = GuardedSeed {
            seed,
            plan: self.plan,
            at: self.items,
            findings: self.findings,
        };
        let next = self
            .findings
            .item(self.count, || self.seq.next_element_seed(guarded))?;
        match next {
            Some(value) => {
                self.count += 1;
                within(self.count, (None, self.bounds.1))?;
                Ok(Some(value))
            }
            None => {
                within(self.count, self.bounds)?;
                Ok(None)
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// What the last key read named.
#[derive(Clone, Copy)]
pub(super) enum Pending {
    None,
    Field(usize),
    Other,
}

/// An object's fields, each held to its step; a field it does not name, to what the object
/// does with others; their number, to the bounds.
struct GuardedMap<'p, A> {
    map: A,
    plan: &'p Plan,
    fields: &'p [(String, usize)],
    others: &'p Others,
    findings: &'p Findings,
    count: u64,
    bounds: (Option<u64>, Option<u64>),
    pending: Pending,
}

impl<'de, A: MapAccess<'de>> GuardedMap<'_, A> {
    /// The value of a traced read's field, read through the guard with its path noted.
    fn traced_value<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.pending = Pending::None;
        let guarded = GuardedSeed {
            seed,
            plan: self.plan,
            at: self.plan.root(),
            findings: self.findings,
        };
        self.findings.field(|| self.map.next_value_seed(guarded))
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for GuardedMap<'_, A> {
    type Error = A::Error;

    // Called for every key of every object, by each tool's input read: in an optimized build,
    // made part of each (LLVM leaves a function this size out of line once many tools share
    // it); in a debug build, compiled once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.fields.is_empty() && matches!(self.others, Others::Taken) {
            // No field of its own, every key taken: nothing to note of a key, which is read
            // as serde reads it.
            self.pending = Pending::Other;
            let key = self.map.next_key_seed(seed)?;
            match key {
                Some(_) => self.count += 1,
                None => within(self.count, self.bounds)?,
            }
            return Ok(key);
        }
        let notes = KeyNotes {
            fields: self.fields,
            named: Cell::new(Pending::Other),
            trail: self.findings.trail.as_ref(),
        };
        match keys::next_key(&mut self.map, seed, &notes)? {
            Some(key) => {
                self.pending = notes.named.get();
                self.count += 1;
                Ok(Some(key))
            }
            None => {
                within(self.count, self.bounds)?;
                Ok(None)
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let at = match (self.pending, self.others) {
            (Pending::Field(at), _) => Some(at),
            (Pending::Other, Others::Checked(at)) => Some(*at),
            (Pending::Other, Others::Refused) => return Err(broken()),
            (Pending::Other, Others::Taken) | (Pending::None, _) => None,
            (Pending::Other, Others::Traced) => return self.traced_value(seed),
        };
        self.pending = Pending::None;
        match at {
            Some(at) => self.map.next_value_seed(GuardedSeed {
                seed,
                plan: self.plan,
                at,
                findings: self.findings,
            }),
            None => self.map.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}
