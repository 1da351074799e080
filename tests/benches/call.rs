//! A first look at the cost of a good call through `Registry::call`, against the limit:
//! `serde_json::from_str` into the same input struct plus a direct call of the fn, with the
//! output serialized in both.
//!
//! Run with `cargo bench -p tool-tests --bench call`.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context as TaskContext, Poll, Waker};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tool_core::{Arguments, Context, Registry, ToolCall, tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Window {
    start: u64,
    end: u64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Summary {
    matched: u32,
    span: u64,
}

/// Counts events of a kind in a time window.
#[tool(readonly)]
async fn event_count(kind: String, window: Window, limit: Option<u32>) -> Summary {
    Summary {
        matched: (kind.len() as u32).min(limit.unwrap_or(u32::MAX)),
        span: window.end - window.start,
    }
}

/// The same input, as a hand-written program would declare it.
#[derive(serde::Deserialize)]
struct Args {
    kind: String,
    window: Window,
    limit: Option<u32>,
}

const ARGUMENTS: &str =
    r#"{"kind":"login","window":{"start":1700000000,"end":1700086400},"limit":10}"#;

/// Runs a future that never waits (these handlers don't) to completion.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the benchmarked future waited"),
    }
}

fn good_call(c: &mut Criterion) {
    let registry = Registry::builder().tool(EventCount).build().unwrap();
    let ctx = Context::default();
    let mut group = c.benchmark_group("good_call");

    group.bench_function("baseline: from_str + direct call + to_string", |b| {
        b.iter(|| {
            let args: Args = serde_json::from_str(black_box(ARGUMENTS)).unwrap();
            let summary = ready(event_count(args.kind, args.window, args.limit));
            black_box(serde_json::to_string(&summary).unwrap())
        })
    });

    group.bench_function("Registry::call", |b| {
        b.iter_batched(
            || ToolCall::new("call-1", "event_count", Arguments::from_text(ARGUMENTS)),
            |call| {
                let result = ready(registry.call(call, &ctx));
                black_box(result)
            },
            BatchSize::SmallInput,
        )
    });

    group.bench_function("Registry::call + serialize result", |b| {
        b.iter_batched(
            || ToolCall::new("call-1", "event_count", Arguments::from_text(ARGUMENTS)),
            |call| {
                let result = ready(registry.call(call, &ctx));
                black_box(serde_json::to_string(&result).unwrap())
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, good_call);
criterion_main!(benches);
