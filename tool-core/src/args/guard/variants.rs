//! An enum's variant in a traced read: its name noted as a key and its content read through
//! the guard, so that a read failing inside a variant (`{"Set": {"counts": ...}}`) is placed
//! at its path (`Set.counts...`) rather than at the enum's. A guarded read that checks leaves
//! variants to the checker (the plan does not describe them), and reads them straight through.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, EnumAccess, VariantAccess, Visitor};

use super::keys::{KeyNotes, KeySeed};
use super::trail::Trail;
use super::{Findings, Guarded, GuardedSeed, Pending};
use crate::args::plan::Plan;

/// The visitor of an enum in a traced read: serde's, shown the enum through [`Traced`].
pub(super) struct TracedEnum<'p, V> {
    pub(super) inner: V,
    pub(super) plan: &'p Plan,
    pub(super) at: usize,
    pub(super) findings: &'p Findings,
    pub(super) trail: &'p Trail,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for TracedEnum<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(Traced {
            data,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
            trail: self.trail,
        })
    }
}

/// An enum's access, or its variant's, in a traced read.
struct Traced<'p, A> {
    data: A,
    plan: &'p Plan,
    at: usize,
    findings: &'p Findings,
    trail: &'p Trail,
}

impl<'de, 'p, A: EnumAccess<'de>> EnumAccess<'de> for Traced<'p, A> {
    type Error = A::Error;
    type Variant = Traced<'p, A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let notes = KeyNotes {
            fields: &[],
            named: Cell::new(Pending::None),
            trail: Some(self.trail),
        };
        let (value, variant) = self.data.variant_seed(KeySeed {
            seed,
            notes: &notes,
        })?;
        let variant = Traced {
            data: variant,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
            trail: self.trail,
        };
        Ok((value, variant))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Traced<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.trail.key_done();
        self.data.unit_variant()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        let seed = GuardedSeed {
            seed,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
        };
        self.findings.field(|| self.data.newtype_variant_seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let visitor = self.guarded(visitor);
        self.findings
            .field(|| self.data.tuple_variant(len, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = self.guarded(visitor);
        self.findings
            .field(|| self.data.struct_variant(fields, visitor))
    }
}

impl<'p, A> Traced<'p, A> {
    fn guarded<V>(&self, inner: V) -> Guarded<'p, V> {
        Guarded {
            inner,
            plan: self.plan,
            at: self.at,
            findings: self.findings,
        }
    }
}
