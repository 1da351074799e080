//! Budgets of calls per caller: a [`RateLimit`] lets each caller (or each caller on each tool)
//! make so many calls per interval, and refuses the rest with `rate-limited` and a line
//! saying when to try again (see [`Registry::with_rate_limit`](crate::Registry::with_rate_limit)).
//!
//! The counting is `governor`'s keyed GCRA limiter: a well-kept crate whose one timestamp per
//! key makes a check a compare-and-swap, where a home-made window of counters would need a
//! lock and would let twice the budget through across a window's edge; it also says how long
//! until the next call would fit, which the refusal passes on. The budget refills evenly (one
//! call every `interval / calls`) and holds at most `calls`, so a burst of the whole budget is
//! let through at once and then calls come at the steady pace. Keys of callers not seen for a
//! while are forgotten from time to time, so a stream of new callers does not hold memory.
//!
//! A budget is kept under the caller's name as the call's context holds it (a shared `Arc`),
//! so checking one makes no copy of the name, and the keys are hashed with foldhash, seeded
//! at random per limiter, rather than SipHash: a check hashes one short name per call.

use std::num::NonZeroU32;
use std::sync::Arc;
#[cfg(feature = "rate-limits")]
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

#[cfg(feature = "rate-limits")]
use governor::clock::{Clock, DefaultClock};
#[cfg(feature = "rate-limits")]
use governor::state::keyed::DashMapStateStore;
#[cfg(feature = "rate-limits")]
use governor::{Quota, RateLimiter};

use crate::outcome::refusal::Refusal;
#[cfg(feature = "rate-limits")]
use crate::outcome::refusal::code;

/// A budget of calls: `calls` per `interval` for each caller, or for each caller on each tool.
/// Callers are named by [`Context::caller`](crate::Context::caller); callers without a name
/// share one budget.
///
/// ```
/// use std::num::NonZeroU32;
/// use std::time::Duration;
/// use tool_core::RateLimit;
///
/// // 10 calls a minute for each caller, on all tools together.
/// let per_caller = RateLimit::per_caller(NonZeroU32::new(10).unwrap(), Duration::from_secs(60));
/// // 2 calls a second for each caller on each tool.
/// let per_tool = RateLimit::per_caller(NonZeroU32::new(2).unwrap(), Duration::from_secs(1)).per_tool();
/// # let _ = (per_caller, per_tool);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    calls: NonZeroU32,
    interval: Duration,
    per_tool: bool,
}

impl RateLimit {
    /// `calls` calls per `interval` for each caller, all tools together. An interval of zero
    /// is taken as one nanosecond: a budget that refills at once.
    pub fn per_caller(calls: NonZeroU32, interval: Duration) -> RateLimit {
        RateLimit {
            calls,
            interval,
            per_tool: false,
        }
    }

    /// The same budget for each caller on each tool, rather than on all tools together.
    pub fn per_tool(mut self) -> RateLimit {
        self.per_tool = true;
        self
    }

    /// The calls let through per interval.
    pub fn calls(&self) -> NonZeroU32 {
        self.calls
    }

    /// The interval the budget is for.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    #[cfg(feature = "rate-limits")]
    fn quota(&self) -> Quota {
        // One call every `interval / calls`, at least a nanosecond apart.
        let period = (self.interval / self.calls.get()).max(Duration::from_nanos(1));
        Quota::with_period(period)
            .unwrap_or_else(|| Quota::per_second(self.calls))
            .allow_burst(self.calls)
    }
}

/// How many checks pass between forgetting the callers whose budgets are full again.
#[cfg(feature = "rate-limits")]
const FORGET_EVERY: u32 = 4096;

/// What one budget is kept under: the caller (callers without a name share one), and the
/// tool when budgets are per tool.
#[cfg(feature = "rate-limits")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    caller: Option<Arc<str>>,
    tool: Option<Box<str>>,
}

#[cfg(feature = "rate-limits")]
type Keys = RateLimiter<Key, DashMapStateStore<Key, foldhash::fast::RandomState>, DefaultClock>;

/// A registry's limiter: the budget and what each key has left.
#[cfg(feature = "rate-limits")]
pub(crate) struct Limiter {
    limit: RateLimit,
    keys: Keys,
    checks: AtomicU32,
}

#[cfg(feature = "rate-limits")]
impl Limiter {
    pub(crate) fn new(limit: RateLimit) -> Limiter {
        Limiter {
            keys: RateLimiter::dashmap_with_hasher(
                limit.quota(),
                foldhash::fast::RandomState::default(),
            ),
            limit,
            checks: AtomicU32::new(0),
        }
    }

    /// Takes one call of `caller` on `tool` from its budget, or refuses it.
    pub(crate) fn check(&self, caller: Option<&Arc<str>>, tool: &str) -> Result<(), Refusal> {
        let key = Key {
            caller: caller.cloned(),
            tool: self.limit.per_tool.then(|| tool.into()),
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.keys.retain_recent();
        }
        match self.keys.check_key(&key) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.keys.clock().now());
                Err(self.refusal(caller.map(|caller| &**caller), tool, wait))
            }
        }
    }

    fn refusal(&self, caller: Option<&str>, tool: &str, wait: Duration) -> Refusal {
        let who = match caller {
            Some(caller) => format!("caller `{caller}`"),
            None => "this caller".to_owned(),
        };
        let scope = if self.limit.per_tool {
            format!(" on {tool}")
        } else {
            String::new()
        };
        // Rounded up to the millisecond, so that trying again after it is never too early.
        let millis = wait.as_nanos().div_ceil(1_000_000);
        let seconds = format!("{}.{:03}", millis / 1000, millis % 1000);
        Refusal::new(
            code::RATE_LIMITED,
            format!(
                "{who} has used its budget of {} calls per {:?}{scope}; nothing ran: try again \
                 in {seconds} s",
                self.limit.calls, self.limit.interval
            ),
        )
        .line("retry-after", [seconds])
    }
}

/// Without the `rate-limits` feature no registry has a limiter (setting one is a compile error
/// naming the feature), so this type has no value.
#[cfg(not(feature = "rate-limits"))]
pub(crate) enum Limiter {}

#[cfg(not(feature = "rate-limits"))]
impl Limiter {
    /// Unreachable: no limiter exists without the feature.
    pub(crate) fn check(&self, _caller: Option<&Arc<str>>, _tool: &str) -> Result<(), Refusal> {
        match *self {}
    }
}
