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
use std::time::Instant;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::outcome::output::Output;
use crate::outcome::refusal::{Refusal, code};
use crate::run::deadline::timer_until;
use crate::tool::Tool;

/// How one call is to be run: when it must end, and what its refusals may show.
pub(crate) struct RunSettings {
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
    settings: RunSettings,
) -> Result<Output, Refusal> {
    if ctx.is_cancelled() {
        return Err(Refusal::cancelled());
    }
    if settings
        .deadline
        .is_some_and(|deadline| deadline <= settings.now)
    {
        return Err(Refusal::timed_out());
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
                    outcome.map_err(|refusal| vetted(name, refusal, settings.show_errors)),
                );
            }
            Ok(Poll::Pending) => {}
            Err(panic) => return Poll::Ready(Err(panicked(name, panic, settings.show_panics))),
        }
        let signal =
            cancelled_signal.get_or_insert_with(|| Box::pin(ctx.cancellation().cancelled()));
        if signal.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(Refusal::cancelled()));
        }
        if let Some(deadline) = settings.deadline {
            if timer.is_none() {
                timer = timer_until(deadline);
            }
            let expired = match &mut timer {
                Some(sleep) => sleep.as_mut().poll(cx).is_ready(),
                // No tokio timer to wake us: check the clock whenever the handler wakes us.
                None => Instant::now() >= deadline,
            };
            if expired {
                return Poll::Ready(Err(Refusal::timed_out()));
            }
        }
        Poll::Pending
    })
    .await
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
    crate::outcome::host_log::without_subscriber(|| {
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
    crate::outcome::host_log::without_subscriber(|| {
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
