//! Stress, shortened for `cargo test`: tens of thousands of calls with random cancels,
//! timeouts, panics, failures and refusals, each answered once and in order, no handler or
//! task left behind, and memory back where it was.
//!
//! The calls reach the registry through a [`Route`]. Here the route is in process
//! (`Registry::call_each`); the MCP server of `tool-mcp` is to get a route of its own (a client
//! sending the same batch as `tools/call` requests, each context's cancellation as
//! `notifications/cancelled`), checked by the same [`stress`] driver.
//!
//! The memory bound: this test binary counts the bytes it holds ([`Counting`], its global
//! allocator), so the check does not depend on how much freed memory the system allocator
//! keeps resident (an earlier version read RSS, and glibc's arenas made it wander by 20 MiB
//! on a loaded machine). After batches of the same size have warmed the runtime (its queues
//! and timer wheel grow once and keep their capacity), later batches must leave the bytes
//! held within [`HELD_SLACK`] of the most held after a warm-up batch (here: 46 KiB, the same
//! after every batch). A leak of 16 bytes in the handler (`std::mem::forget(vec![1u8; 16])`,
//! tried by hand) grows it by about 220 KiB a batch and fails the test: 483 KiB after the
//! warm-up, 1,142 KiB after the three measured batches.

use std::alloc::{GlobalAlloc, Layout, System};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tool_core::call::CancellationToken;
use tool_core::{Context, Registry, ToolCall, ToolResult, registry, tool, toolkit};

/// Calls per batch.
const BATCH: usize = 20_000;

/// How far above its level after the warm-up the bytes held may be after the measured
/// batches.
const HELD_SLACK: usize = 256 << 10;

/// The system allocator, counting the bytes currently allocated through it.
struct Counting;

/// Bytes allocated and not yet freed.
static HELD: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's own arguments, so `Counting`
// upholds `GlobalAlloc`'s contract exactly as `System` does; the counter is a side effect
// that neither allocates nor touches the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract (non-zero size), passed on unchanged.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            HELD.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            HELD.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator (so from `System`) with this `layout`.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout`; the caller upholds the rest.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            HELD.fetch_add(new_size, Ordering::Relaxed);
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// How a batch of calls reaches a registry.
trait Route {
    /// Answers each call with its context, in order.
    fn call_batch(&self, calls: Vec<(ToolCall, Context)>) -> impl Future<Output = Vec<ToolResult>>;
}

/// Straight into the registry.
struct InProcess(Registry);

impl Route for InProcess {
    async fn call_batch(&self, calls: Vec<(ToolCall, Context)>) -> Vec<ToolResult> {
        self.0.call_each(calls).await
    }
}

/// Counts live handler futures, so the test can prove none is left running.
#[derive(Default)]
struct Probe {
    live: AtomicUsize,
    entered: AtomicUsize,
}

struct Live(Arc<Probe>);

impl Live {
    fn enter(probe: &Arc<Probe>) -> Live {
        probe.entered.fetch_add(1, Ordering::SeqCst);
        probe.live.fetch_add(1, Ordering::SeqCst);
        Live(probe.clone())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Behaviour {
    Answer,
    Panic,
    Fail,
    Sleep,
}

struct Stress {
    probe: Arc<Probe>,
}

const PANIC_TEXT: &str = "stress: a deliberate panic";

#[toolkit(name = "stress")]
impl Stress {
    /// Answers, panics, fails or sleeps for `ms` milliseconds, as told.
    #[tool(readonly)]
    async fn stress_run(
        &self,
        behaviour: Behaviour,
        value: u32,
        ms: u64,
    ) -> std::io::Result<String> {
        let _live = Live::enter(&self.probe);
        match behaviour {
            Behaviour::Answer => Ok(format!("answer {value}")),
            Behaviour::Panic => panic!("{PANIC_TEXT} at {value}"),
            Behaviour::Fail => Err(std::io::Error::other(format!("disk {value} is full"))),
            Behaviour::Sleep => {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok(format!("slept {value}"))
            }
        }
    }
}

/// A small, seeded generator: the same calls every run.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

/// A batch of calls, the code each must end with, and when to cancel which tokens.
struct Batch {
    calls: Vec<(ToolCall, Context)>,
    expected: Vec<&'static str>,
    cancels: Vec<(Duration, CancellationToken)>,
}

/// A batch of `BATCH` calls, a fifth of them cancelled or timed out, a fifth panicking or
/// failing, a tenth refused before they run.
fn batch(seed: u64) -> Batch {
    let mut random = Xorshift(seed);
    let mut calls = Vec::with_capacity(BATCH);
    let mut expected = Vec::with_capacity(BATCH);
    let mut cancels = Vec::new();
    for value in 0..BATCH as u32 {
        let id = format!("{seed}-{value}");
        let run = |behaviour: &str, ms: u64| {
            ToolCall::new(
                id.clone(),
                "stress_run",
                json!({"behaviour": behaviour, "value": value, "ms": ms}),
            )
        };
        let ctx = Context::new();
        let (call, ctx, code) = match random.below(20) {
            0..=7 => (run("answer", 0), ctx, "ok"),
            8 | 9 => (run("panic", 0), ctx, "internal"),
            10 | 11 => (run("fail", 0), ctx, "failed"),
            12 | 13 => (run("sleep", 1 + random.below(3)), ctx, "ok"),
            14 | 15 => {
                let token = CancellationToken::new();
                cancels.push((Duration::from_millis(random.below(20)), token.clone()));
                (
                    run("sleep", 10_000),
                    ctx.with_cancellation(token),
                    "cancelled",
                )
            }
            16 | 17 => {
                let timeout = Duration::from_millis(1 + random.below(20));
                (run("sleep", 10_000), ctx.with_timeout(timeout), "timed-out")
            }
            18 => (
                ToolCall::new(
                    id.clone(),
                    "stress_run",
                    json!({"behaviour": "answer", "value": -1}),
                ),
                ctx,
                "bad-arguments",
            ),
            _ => (
                ToolCall::new(id.clone(), "stress_nope", json!({})),
                ctx,
                "unknown-tool",
            ),
        };
        calls.push((call, ctx));
        expected.push(code);
    }
    Batch {
        calls,
        expected,
        cancels,
    }
}

/// Runs one batch through `route` with its cancels, and checks every answer.
async fn run_batch(route: &impl Route, probe: &Probe, seed: u64) {
    let Batch {
        calls,
        expected,
        cancels,
    } = batch(seed);
    let ids: Vec<String> = calls.iter().map(|(call, _)| call.id.clone()).collect();
    let canceller = tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        let mut cancels = cancels;
        cancels.sort_by_key(|(at, _)| *at);
        for (at, token) in cancels {
            tokio::time::sleep_until(start + at).await;
            token.cancel();
        }
    });
    let results = route.call_batch(calls).await;
    canceller.await.unwrap();
    assert_eq!(
        results.len(),
        BATCH,
        "a call went unanswered or was answered twice"
    );
    for ((result, id), code) in results.iter().zip(&ids).zip(&expected) {
        assert_eq!(&result.id, id, "answers out of order");
        let got = result
            .refusal()
            .map_or("ok", |refusal| refusal.code.as_str());
        assert_eq!(got, *code, "{id}: {}", result.text());
        if *code == "failed" {
            assert_eq!(
                result.text(),
                "refused\tfailed\tthe tool failed; the details were logged"
            );
        }
    }
    assert_eq!(
        probe.live.load(Ordering::SeqCst),
        0,
        "a handler is still running"
    );
}

/// The bytes this process holds, counted by [`Counting`].
fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

/// Waits until the runtime has no task but this one.
async fn no_tasks_left() {
    let metrics = tokio::runtime::Handle::current().metrics();
    assert!(
        tool_tests::until(|| metrics.num_alive_tasks() == 0).await,
        "{} tasks left",
        metrics.num_alive_tasks()
    );
}

/// The driver any route is checked with: two warm-up batches, then `measured` batches, each
/// answered in full; afterwards no handler running, no task alive, and the bytes held within
/// [`HELD_SLACK`] of the most held after a warm-up batch.
async fn stress(route: &impl Route, probe: &Probe, measured: u64) {
    let mut warm = 0;
    for seed in [1, 2] {
        run_batch(route, probe, seed).await;
        no_tasks_left().await;
        warm = warm.max(held());
    }
    let mut most = 0;
    for seed in 3..3 + measured {
        run_batch(route, probe, seed).await;
        no_tasks_left().await;
        most = most.max(held());
    }
    eprintln!(
        "held at most {} KiB after the warm-up, at most {} KiB after each of {measured} more \
         batches of {BATCH}",
        warm >> 10,
        most >> 10
    );
    assert!(
        most <= warm + HELD_SLACK,
        "the bytes held grew from {} KiB to {} KiB over {measured} batches of {BATCH} calls",
        warm >> 10,
        most >> 10
    );
}

/// Silences the panics this test causes on purpose; any other still reaches the default
/// hook.
fn quiet_deliberate_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if !message.starts_with(PANIC_TEXT) {
            default(info);
        }
    }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_call_is_answered_once_in_order_and_nothing_is_left_behind() {
    quiet_deliberate_panics();
    // A host's log that keeps nothing (and makes no spans): without any subscriber, each
    // failure's details would go to standard error, which the test harness keeps in memory.
    let quiet = tracing_subscriber::fmt()
        .with_max_level(tracing::level_filters::LevelFilter::OFF)
        .finish();
    let _ = tracing::subscriber::set_global_default(quiet);
    let probe = Arc::new(Probe::default());
    let registry = registry![Stress {
        probe: probe.clone()
    }];
    let started = Instant::now();

    // 160,000 calls: five batches with the default batch limit, then three with none (every
    // call its own task at once).
    stress(&InProcess(registry.clone()), &probe, 3).await;
    stress(&InProcess(registry.with_batch_limit(usize::MAX)), &probe, 1).await;

    assert!(probe.entered.load(Ordering::SeqCst) > 0);
    // A bound on what is slow beyond reason, with room for a machine busy with other work.
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "took {:?}",
        started.elapsed()
    );
}
