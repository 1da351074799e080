//! How costs scale: reading the definitions and each provider's export of registries of 10,
//! 100 and 1,000 tools (each computed once, when tools are added), and `call_all` batches of
//! 1 to 10,000 calls (reported per call: it should stay flat).

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tool_benches::{ARGUMENTS, registry_of};
use tool_core::call::Arguments;
use tool_core::{Context, Provider, ToolCall};

fn definitions(c: &mut Criterion) {
    let mut group = c.benchmark_group("definitions");
    for tools in [10, 100, 1_000] {
        let registry = registry_of(tools);
        group.bench_with_input(
            BenchmarkId::new("definitions()", tools),
            &registry,
            |b, r| b.iter(|| black_box(r.definitions())),
        );
        for provider in Provider::ALL {
            let id = BenchmarkId::new(format!("export({provider:?})"), tools);
            group.bench_with_input(id, &registry, |b, r| {
                b.iter(|| black_box(r.export(provider).unwrap()))
            });
        }
    }
    group.finish();
}

fn call_all(c: &mut Criterion) {
    let runtime = tool_benches::runtime();
    let registry = registry_of(1);
    let ctx = Context::default();
    let mut group = c.benchmark_group("call_all");
    for calls in [1, 10, 100, 1_000, 10_000] {
        let batch = || -> Vec<ToolCall> {
            (0..calls)
                .map(|i| {
                    ToolCall::new(
                        i.to_string(),
                        "event_count",
                        Arguments::from_text(ARGUMENTS),
                    )
                })
                .collect()
        };
        group.throughput(Throughput::Elements(calls as u64));
        if calls >= 1_000 {
            group.sample_size(20);
        }
        group.bench_function(BenchmarkId::from_parameter(calls), |b| {
            b.iter_batched(
                batch,
                |batch| black_box(runtime.block_on(registry.call_all(batch, &ctx))),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, definitions, call_all);
criterion_main!(benches);
