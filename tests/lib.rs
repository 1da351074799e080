//! Integration tests of `tool-core` live in this package's test targets; this library holds
//! what more than one of them reads.

use tool_core::Refusal;

/// The `fault` lines of a refusal, as (path, problem) pairs, in order.
pub fn faults(refusal: &Refusal) -> Vec<(String, String)> {
    refusal
        .lines
        .iter()
        .filter(|line| line.label == "fault")
        .map(|line| (line.cells[0].clone(), line.cells[1].clone()))
        .collect()
}
