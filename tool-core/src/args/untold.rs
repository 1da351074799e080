//! Faults counted, not told: each fault holds its path, as long as the arguments are deep, so
//! arguments of many faults deep down would otherwise take memory and a refusal of hundreds of
//! times their size. The checker tells faults up to [`MAX_TOLD_BYTES`] of paths and problems,
//! and notes the rest (an empty problem, with no path: the union and condition checks still
//! see them, and a refusal counts them in its message); here they are taken out and counted in
//! one last fault.

use super::Fault;

/// How many bytes of paths and problems the faults of one call may take: past them, faults
/// are counted, not told.
pub(super) const MAX_TOLD_BYTES: usize = 1 << 20;

/// What the fault counting the untold ones says after their number.
const UNTOLD: &str = " more faults, not told: the answer would be too long; mend these and send \
                      the call again to learn of the rest";

/// `faults` with the untold ones (the checker's, past [`MAX_TOLD_BYTES`]) taken out and
/// counted in one fault at the end, saying what to do.
#[cold]
pub(super) fn untold(faults: &mut Vec<Fault>) {
    let before = faults.len();
    faults.retain(|fault| !fault.problem.is_empty());
    let untold = before - faults.len();
    if untold > 0 {
        faults.push(Fault {
            path: String::new(),
            problem: format!("{untold}{UNTOLD}"),
        });
    }
}
