//! A value checked on a copy, as a branch of a union or an `if` is tried: what the check finds
//! and changes on the copy is the trial's own, and reaches the checker only if the trial is
//! chosen.

use serde_json::Value;

use super::Fault;
use super::checker::Checker;
use super::path::Path;
use crate::args::tree::Node;

/// What checking a copy of a value found.
pub(super) struct Trial<'v> {
    /// The copy, as the check left it (a `null` taken out, `3.0` written as 3).
    pub(super) value: Node<'v>,
    pub(super) faults: Vec<Fault>,
    /// Whether the check changed the copy.
    pub(super) changed: bool,
}

impl<'s> Checker<'s> {
    /// `value` checked against `schema` on a copy, with the faults and changes found so far
    /// set aside; `None` when the checker ran out of steps on the way (it has then given up).
    pub(super) fn trial<'v>(
        &mut self,
        value: &Node<'v>,
        schema: &'s Value,
        path: &mut Path,
    ) -> Option<Trial<'v>> {
        // A trial copies the value, which costs what checking it does.
        let copied = value.count();
        if copied > self.steps_left {
            self.gave_up = true;
            return None;
        }
        self.steps_left -= copied;
        let faults = std::mem::take(&mut self.faults);
        let rewrote = std::mem::take(&mut self.rewrote);
        let mut copy = value.clone();
        self.check(&mut copy, schema, path);
        let trial = Trial {
            value: copy,
            faults: std::mem::replace(&mut self.faults, faults),
            changed: std::mem::replace(&mut self.rewrote, rewrote),
        };
        (!self.gave_up).then_some(trial)
    }
}
