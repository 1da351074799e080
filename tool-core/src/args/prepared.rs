//! A tool's input schema made ready for the parser once, when the tool is first used: its
//! `pattern`s compiled, and whether arguments serde accepts must still be held against it
//! (they must when the schema says more than the Rust type does: a bound, a length, a
//! pattern, a format, a nested object that may not take fields it does not name).

use serde_json::{Map, Value};

use super::plan::Plan;
use crate::schema::patterns::Patterns;

/// A tool's input schema, ready for the parser.
#[derive(Debug)]
pub struct Prepared {
    schema: Map<String, Value>,
    patterns: Patterns,
    /// How to check a call serde accepted, when the schema says more than serde checks.
    pub(super) plan: Option<Plan>,
}

/// What the parser reads of a schema.
#[derive(Clone, Copy)]
pub(super) struct View<'s> {
    pub(super) schema: &'s Map<String, Value>,
    pub(super) patterns: &'s Patterns,
    pub(super) plan: Option<&'s Plan>,
}

impl Prepared {
    /// `schema`, with what the parser needs of it worked out.
    pub fn new(schema: Map<String, Value>) -> Prepared {
        let patterns = Patterns::of(&schema);
        let plan = Some(Plan::of(&schema, &patterns)).filter(Plan::checks_beyond_serde);
        Prepared {
            schema,
            patterns,
            plan,
        }
    }

    /// The schema itself.
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    pub(super) fn view(&self) -> View<'_> {
        View {
            schema: &self.schema,
            patterns: &self.patterns,
            plan: self.plan.as_ref(),
        }
    }
}
