//! The calls a connection (or an HTTP session) is running, and the cancels its client sent for
//! calls it was not running, so that a cancel stops its call whichever of the two arrives
//! first.
//!
//! rmcp's serve loop stops a request it is running when `notifications/cancelled` names it,
//! and forgets a cancel that names no such request. A cancel can come first all the same:
//! rmcp's client writes each message from a task of its own, so a request and the cancel that
//! follows it may be written in either order, and over HTTP each message is a request of its
//! own. rmcp's loop also passes every cancel on to the handler, on a task of its own, which may
//! run before or after the task of the call it names. So a call registers here when it starts,
//! and a cancel that finds no running call is kept: the call that comes later is cancelled
//! before it runs (and answered as cancelled, which rmcp, not knowing of the cancel, sends; MCP
//! lets a client ignore an answer to what it cancelled), and a call already started is
//! cancelled where it runs. One lock orders the two, so each sees the other whichever is
//! first. A task, once started, outlives its request: MCP cancels it with `tasks/cancel`.
//!
//! MCP forbids reusing a request id within a session, so a cancel kept after its call ended
//! stops nothing; the kept ones are few, and the oldest is forgotten first.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::RequestId;
use tokio_util::sync::CancellationToken;

/// How many cancels that named no running call a connection keeps: more than a client has
/// calls in flight, few enough that a client sending cancels for calls it never makes holds
/// little.
const KEPT: usize = 1024;

/// One connection's running calls and early cancels; its clones share them.
#[derive(Clone, Default)]
pub(crate) struct Cancels(Arc<Mutex<State>>);

#[derive(Default)]
struct State {
    /// Each running call's request id and the token that stops it. A connection runs few calls
    /// at a time, so a list is searched faster than a map is hashed.
    running: Vec<(RequestId, CancellationToken)>,
    /// The ids of cancels that named no running call, oldest first.
    early: VecDeque<RequestId>,
}

impl Cancels {
    /// Registers the call of request `id`, which `token` stops, until the returned guard is
    /// dropped; cancels `token` at once if the call's cancel came first.
    pub(crate) fn running(&self, id: &RequestId, token: &CancellationToken) -> Running<'_> {
        let mut state = self.state();
        match state.early.iter().position(|early| early == id) {
            Some(at) => {
                state.early.remove(at);
                token.cancel();
            }
            None => state.running.push((id.clone(), token.clone())),
        }
        Running {
            cancels: self,
            id: id.clone(),
        }
    }

    /// The client cancelled request `id`: stops its call if it runs, else keeps the cancel for
    /// it.
    pub(crate) fn cancel(&self, id: RequestId) {
        let mut state = self.state();
        if let Some((_, token)) = state.running.iter().find(|(running, _)| *running == id) {
            token.cancel();
            return;
        }
        if state.early.len() == KEPT {
            state.early.pop_front();
        }
        state.early.push_back(id);
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A running call's place in [`Cancels`], given up when dropped.
pub(crate) struct Running<'a> {
    cancels: &'a Cancels,
    id: RequestId,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let mut state = self.cancels.state();
        if let Some(at) = state.running.iter().position(|(id, _)| *id == self.id) {
            state.running.swap_remove(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: i64) -> RequestId {
        RequestId::Number(n)
    }

    /// Starts the call of request `n`: its place in `cancels`, and the token that stops it.
    fn start(cancels: &Cancels, n: i64) -> (Running<'_>, CancellationToken) {
        let token = CancellationToken::new();
        (cancels.running(&id(n), &token), token)
    }

    #[test]
    fn a_cancel_before_its_call_cancels_the_call_as_it_starts() {
        let cancels = Cancels::default();
        cancels.cancel(id(1));
        let (_running, token) = start(&cancels, 1);
        assert!(token.is_cancelled());
        // The kept cancel is used up: nothing else is cancelled by it.
        let (_again, other) = start(&cancels, 2);
        assert!(!other.is_cancelled());
    }

    #[test]
    fn a_cancel_while_the_call_runs_cancels_it_and_one_after_stops_nothing() {
        let cancels = Cancels::default();
        let (running, token) = start(&cancels, 1);
        cancels.cancel(id(1));
        assert!(token.is_cancelled());
        drop(running);
        assert!(cancels.state().running.is_empty());
        let (_running, later) = start(&cancels, 2);
        assert!(!later.is_cancelled());
    }

    #[test]
    fn the_kept_cancels_are_bounded_and_the_oldest_goes_first() {
        let cancels = Cancels::default();
        for n in 0..=KEPT as i64 {
            cancels.cancel(id(n));
        }
        assert_eq!(cancels.state().early.len(), KEPT);
        let (_oldest, oldest) = start(&cancels, 0);
        assert!(!oldest.is_cancelled(), "the oldest cancel was forgotten");
        let (_newest, newest) = start(&cancels, KEPT as i64);
        assert!(newest.is_cancelled());
    }
}
