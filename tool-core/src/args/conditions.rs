//! The checker's way with a condition (`if`, `then`, `else`): the value is tried against `if`
//! on a copy, with nothing reported, and then held to `then` when it fits or to `else` when
//! it does not. A fault the branch finds says which branch asked for it and why, since the
//! value alone does not show it.

use serde_json::Value;

use super::checker::Checker;
use super::path::Path;
use crate::args::tree::Node;

impl<'s> Checker<'s> {
    // Kept apart from the check of every value, which most never reach.
    #[inline(never)]
    pub(super) fn check_condition(
        &mut self,
        value: &mut Node<'_>,
        condition: &'s Value,
        (then, otherwise): (Option<&'s Value>, Option<&'s Value>),
        path: &mut Path,
    ) {
        if then.is_none() && otherwise.is_none() {
            return;
        }
        let Some(tried) = self.trial(value, condition, path) else {
            return;
        };
        let (branch, why) = match tried.faults.is_empty() {
            true => (
                then,
                " (the schema's `then` asks for it, as the value fits its `if`)",
            ),
            false => (
                otherwise,
                " (the schema's `else` asks for it, as the value does not fit its `if`)",
            ),
        };
        let Some(branch) = branch else {
            return;
        };
        let before = self.faults.len();
        self.check(value, branch, path);
        // An untold fault (an empty problem) stays one.
        for fault in (self.faults[before..].iter_mut()).filter(|fault| !fault.problem.is_empty()) {
            fault.problem.push_str(why);
        }
    }
}
