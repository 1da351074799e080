//! When a call must end: its deadline (the earlier of its context's and its time limit's), a
//! future held to a timeout, and the tokio timer that wakes a waiting call at its deadline,
//! where the runtime has timers (without them, a deadline is checked whenever the call wakes).

use std::future::{Future, poll_fn};
use std::panic::catch_unwind;
use std::task::Poll;
use std::time::{Duration, Instant};

use crate::call::context::{Context, earlier};

/// The earlier of the context's deadline and `timeout` from `now`.
pub(crate) fn earliest(ctx: &Context, timeout: Option<Duration>, now: Instant) -> Option<Instant> {
    earlier(
        ctx.deadline(),
        timeout.and_then(|timeout| now.checked_add(timeout)),
    )
}

/// `future`'s output, or `None` if `timeout` passes first. Without a tokio timer to enforce the
/// timeout, the future is simply awaited.
pub(crate) async fn within<F: Future>(timeout: Duration, future: F) -> Option<F::Output> {
    // A timeout too long to add to the clock is no timeout.
    let Some(deadline) = Instant::now().checked_add(timeout) else {
        return Some(future.await);
    };
    let mut timer = timer_until(deadline);
    let mut future = std::pin::pin!(future);
    poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        let expired = match &mut timer {
            Some(timer) => timer.as_mut().poll(cx).is_ready(),
            // No tokio timer to wake us: check the clock whenever the future wakes us.
            None => Instant::now() >= deadline,
        };
        if expired {
            Poll::Ready(None)
        } else {
            Poll::Pending
        }
    })
    .await
}

/// A tokio timer that fires at `deadline`, if the current thread is in a tokio runtime that
/// has timers; `None` otherwise, and the caller checks the clock when it wakes instead.
///
/// A runtime built without `enable_time` panics when a timer is made, and tokio has no way to
/// ask it whether it has them but to try: the answer is kept for the last runtime seen on each
/// thread, so a runtime without timers is tried once per thread (tokio's panic message is
/// printed that once) and a call never panics for it.
pub(crate) fn timer_until(deadline: Instant) -> Option<std::pin::Pin<Box<tokio::time::Sleep>>> {
    use std::cell::Cell;
    thread_local! {
        static HAS_TIMERS: Cell<Option<(tokio::runtime::Id, bool)>> = const { Cell::new(None) };
    }
    let runtime = tokio::runtime::Handle::try_current().ok()?.id();
    let make = || Box::pin(tokio::time::sleep_until(deadline.into()));
    let known = HAS_TIMERS
        .try_with(Cell::get)
        .ok()
        .flatten()
        .filter(|(seen, _)| *seen == runtime);
    match known {
        Some((_, true)) => Some(make()),
        Some((_, false)) => None,
        None => {
            let made = catch_unwind(make).ok();
            let _ = HAS_TIMERS.try_with(|cell| cell.set(Some((runtime, made.is_some()))));
            if made.is_none() {
                tracing::warn!(
                    "this tokio runtime has no timers (its builder did not call `enable_time`): \
                     deadlines are checked whenever a call wakes, and the panic tokio printed \
                     just now was caught"
                );
            }
            made
        }
    }
}
