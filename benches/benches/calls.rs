//! One call in process, from its text to the answer's text, for every contender: the
//! hand-written limit, this project, rig's `ToolSet`, rmcp's router (kept and rebuilt), and
//! this project's MCP server through rmcp's service trait; a good call taken apart, each part
//! beside the baseline's; then bad calls against the limit's first-error path; and arguments
//! made from a `serde_json::Value`.
//!
//! Every contender is driven by the same `ready()` (one poll, no executor): none of them waits.

mod common;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rig_agent::tool::ToolSet;
use rig_core::tool::ToolContext;
use serde::Serialize;
use tool_benches::{
    ANSWER, BAD_NESTED_CALL, BAD_THREE_CALL, CALL, MCP_CALL, baseline, baseline_via_value, parts,
    ready, registry_of, tool_core_call,
};
use tool_core::Context;

#[derive(Serialize)]
struct Answer<'a, T> {
    id: &'a str,
    name: &'a str,
    output: T,
}

/// rig's `ToolSet::execute`, with the envelope read as the hand-written host reads it.
fn rig_call(tools: &ToolSet, text: &str) -> String {
    let call: tool_benches::Envelope<'_> = serde_json::from_str(text).expect("an envelope");
    let mut context = ToolContext::new();
    let result = ready(tools.execute(&call.name, call.arguments.get(), &mut context));
    serde_json::to_string(&Answer {
        id: &call.id,
        name: &call.name,
        output: result,
    })
    .expect("a result serializes")
}

fn good_call(c: &mut Criterion) {
    let runtime = tool_benches::runtime();
    // Only rmcp needs a runtime here, to spawn the idle service its `Peer` comes from.
    let _entered = runtime.enter();
    let registry = registry_of(1);
    let ctx = Context::default();
    let rig = ToolSet::from_tools(vec![common::RigEventCount]);
    let (_stored_service, stored_peer) = common::idle_peer(common::RmcpStored::new());
    let (_rebuilt_service, rebuilt_peer) = common::idle_peer(common::RmcpRebuilt);
    let (_mcp_service, mcp_peer) = common::idle_peer(tool_mcp::McpServer::new(registry.clone()));
    let stored = common::RmcpStored::new();
    let mcp_server = tool_mcp::McpServer::new(registry.clone());

    assert_eq!(tool_core_call(&registry, &ctx, CALL), ANSWER);
    assert!(rig_call(&rig, CALL).contains("86400"));
    let rmcp_answer = ready(common::handle_mcp_text(&stored, &stored_peer, MCP_CALL));
    assert!(rmcp_answer.contains(r#""span":86400"#), "{rmcp_answer}");
    let mcp_answer = ready(common::handle_mcp_text(&mcp_server, &mcp_peer, MCP_CALL));
    assert!(mcp_answer.contains(r#""span":86400"#), "{mcp_answer}");

    let mut group = c.benchmark_group("good call");
    group.bench_function("baseline", |b| {
        b.iter(|| black_box(baseline(black_box(CALL))))
    });
    group.bench_function("baseline via Value", |b| {
        b.iter(|| black_box(baseline_via_value(black_box(CALL))))
    });
    group.bench_function("tool-core", |b| {
        b.iter(|| black_box(tool_core_call(&registry, &ctx, black_box(CALL))))
    });
    group.bench_function("rig ToolSet::execute", |b| {
        b.iter(|| black_box(rig_call(&rig, black_box(CALL))))
    });
    group.bench_function("rmcp, router kept", |b| {
        b.iter(|| {
            black_box(ready(common::handle_mcp_text(
                &stored,
                &stored_peer,
                black_box(MCP_CALL),
            )))
        })
    });
    group.bench_function("rmcp, router rebuilt per call", |b| {
        b.iter(|| {
            black_box(ready(common::handle_mcp_text(
                &common::RmcpRebuilt,
                &rebuilt_peer,
                black_box(MCP_CALL),
            )))
        })
    });
    group.bench_function("tool-mcp McpServer", |b| {
        b.iter(|| {
            black_box(ready(common::handle_mcp_text(
                &mcp_server,
                &mcp_peer,
                black_box(MCP_CALL),
            )))
        })
    });
    group.finish();
}

fn bad_call(c: &mut Criterion) {
    let registry = registry_of(1);
    let ctx = Context::default();
    let mut group = c.benchmark_group("bad call");
    group.bench_function("baseline, first error (nested)", |b| {
        b.iter(|| black_box(baseline(black_box(BAD_NESTED_CALL))))
    });
    group.bench_function("tool-core, nested wrong type", |b| {
        b.iter(|| black_box(tool_core_call(&registry, &ctx, black_box(BAD_NESTED_CALL))))
    });
    group.bench_function("baseline, first error (three faults)", |b| {
        b.iter(|| black_box(baseline(black_box(BAD_THREE_CALL))))
    });
    group.bench_function("tool-core, three faults", |b| {
        b.iter(|| black_box(tool_core_call(&registry, &ctx, black_box(BAD_THREE_CALL))))
    });
    group.finish();
}

/// A good call taken apart (`tool_benches::parts`): where the time between the baseline and
/// this project goes.
fn good_call_parts(c: &mut Criterion) {
    let registry = registry_of(1);
    let ctx = Context::default();
    let arguments = tool_core::call::Arguments::from_text(tool_benches::ARGUMENTS);
    let mut group = c.benchmark_group("good call, part by part");
    group.bench_function("envelope, baseline", |b| {
        b.iter(|| black_box(parts::envelope_baseline(CALL)))
    });
    group.bench_function("envelope, tool-core", |b| {
        b.iter(|| black_box(parts::envelope(CALL)))
    });
    let mut out = Vec::new();
    group.bench_function("tool, baseline", |b| {
        b.iter(|| {
            parts::tool_baseline(tool_benches::ARGUMENTS, &mut out);
            black_box(&out);
        })
    });
    group.bench_function("tool, tool-core", |b| {
        b.iter(|| black_box(parts::tool(&arguments, &ctx)))
    });
    group.bench_function("envelope and Registry::call, tool-core", |b| {
        b.iter(|| black_box(parts::registry(&registry, &ctx, CALL)))
    });
    group.finish();
}

/// Arguments built in code from a `serde_json::Value` (as a host that parsed a provider's
/// response holds them), against serde_json writing the same value.
fn arguments_from_value(c: &mut Criterion) {
    let value: serde_json::Value = serde_json::from_str(tool_benches::ARGUMENTS).unwrap();
    let mut group = c.benchmark_group("arguments from a Value");
    group.bench_function("serde_json::to_string", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&value)).unwrap()))
    });
    group.bench_function("Arguments::from(&Value)", |b| {
        b.iter(|| black_box(tool_core::call::Arguments::from(black_box(&value))))
    });
    group.finish();
}

criterion_group!(
    benches,
    good_call,
    good_call_parts,
    bad_call,
    arguments_from_value
);
criterion_main!(benches);
