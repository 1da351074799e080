//! Running one tool call so that it always ends: with its outcome, or with `cancelled`,
//! `timed-out` or `internal` when it is cancelled, runs past its deadline or panics.
//!
//! Ending a call drops its future: a handler stops at its next `.await`. A handler that
//! computes for a long time without awaiting cannot be interrupted; such work belongs in
//! `tokio::task::spawn_blocking`, awaited.

use std::any::Any;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::task::Poll;
use std::time::{Duration, Instant};

use crate::arguments::Arguments;
use crate::context::Context;
use crate::output::Output;
use crate::refusal::{Refusal, code};
use crate::tool::Tool;

/// How one call is to be run.
pub(crate) struct Limits {
    /// When the call must have finished.
    pub deadline: Option<Instant>,
    /// When the call was let run, read once for both the deadline and the check against it.
    pub now: Instant,
    /// Whether a panic's message may be shown in the refusal.
    pub show_panics: bool,
    /// Whether the message of an error a handler returned may be shown in the refusal.
    pub show_errors: bool,
}

/// Runs `tool` and answers, whatever the handler does.
pub(crate) async fn run(
    tool: &dyn Tool,
    name: &str,
    arguments: &Arguments,
    ctx: &Context,
    limits: Limits,
) -> Result<Output, Refusal> {
    if ctx.is_cancelled() {
        return Err(cancelled());
    }
    if limits
        .deadline
        .is_some_and(|deadline| deadline <= limits.now)
    {
        return Err(timed_out());
    }
    let mut handler = tool.call(arguments, ctx);
    // The cancellation and timer futures (and the look for a runtime to time with) are made
    // only once the handler has had to wait, so a call that finishes on its first poll pays
    // for none of them.
    let mut cancelled_signal = None;
    let mut timer = None;
    poll_fn(|cx| {
        match catch_unwind(AssertUnwindSafe(|| handler.as_mut().poll(cx))) {
            Ok(Poll::Ready(outcome)) => {
                return Poll::Ready(
                    outcome.map_err(|refusal| vetted(name, refusal, limits.show_errors)),
                );
            }
            Ok(Poll::Pending) => {}
            Err(panic) => return Poll::Ready(Err(panicked(name, panic, limits.show_panics))),
        }
        let signal =
            cancelled_signal.get_or_insert_with(|| Box::pin(ctx.cancellation().cancelled()));
        if signal.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(cancelled()));
        }
        if let Some(deadline) = limits.deadline {
            if timer.is_none() {
                timer = timer_until(deadline);
            }
            let expired = match &mut timer {
                Some(sleep) => sleep.as_mut().poll(cx).is_ready(),
                // No tokio timer to wake us: check the clock whenever the handler wakes us.
                None => Instant::now() >= deadline,
            };
            if expired {
                return Poll::Ready(Err(timed_out()));
            }
        }
        Poll::Pending
    })
    .await
}

pub(crate) fn cancelled() -> Refusal {
    Refusal::new(
        code::CANCELLED,
        "the call was cancelled; nothing more will run",
    )
}

pub(crate) fn timed_out() -> Refusal {
    Refusal::new(
        code::TIMED_OUT,
        "the call did not finish before its deadline and was stopped",
    )
}

/// The refusal for a panic: a fixed message, the panic text logged; the text is shown only if
/// the registry was built to show it.
fn panicked(tool: &str, panic: Box<dyn Any + Send>, show: bool) -> Refusal {
    let text = panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    tracing::error!(tool, panic = %text, "a tool panicked; the call was refused as internal");
    crate::host_log::without_subscriber(|| {
        format!("the tool `{tool}` panicked (the call was refused as internal): {text}")
    });
    let message = if show {
        format!("the tool failed unexpectedly: {text}")
    } else {
        "the tool failed unexpectedly; the details were logged".to_owned()
    };
    Refusal::new(code::INTERNAL, message)
}

/// A handler's refusal as the caller gets it: a model-facing one as it is; one converted from
/// an error logged, and its message replaced by a fixed one unless it may be shown.
fn vetted(tool: &str, refusal: Refusal, show: bool) -> Refusal {
    if refusal.is_model_facing() {
        return refusal;
    }
    tracing::warn!(tool, error = %refusal.message, "a tool failed with an error");
    crate::host_log::without_subscriber(|| {
        format!(
            "the tool `{tool}` failed with an error: {}",
            refusal.message
        )
    });
    if show {
        refusal
    } else {
        Refusal::new(code::FAILED, "the tool failed; the details were logged")
    }
}

/// The earlier of the context's deadline and `timeout` from `now`.
pub(crate) fn earliest(ctx: &Context, timeout: Option<Duration>, now: Instant) -> Option<Instant> {
    let from_timeout = timeout.and_then(|timeout| now.checked_add(timeout));
    match (ctx.deadline(), from_timeout) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
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
