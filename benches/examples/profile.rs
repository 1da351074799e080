//! Runs one contender of the suite a given number of times, for a profiler:
//! `valgrind --tool=callgrind target/release/examples/profile good 1000`.
//! `benches/instructions` turns two such runs into instructions per call.
//!
//! Scenarios in process: baseline, good, good-bounded (the tool with bounds on three fields),
//! good-flat (the tool with no nested object and no bounds), baseline-nested, bad-nested, baseline-three,
//! bad-three, good-observed (the good call with a span kept by `tracing-subscriber`'s registry,
//! an observer and a rate limit; each alone: good-traced, good-recorded, good-limited),
//! rmcp-kept, tool-mcp, export-mcp (100 tools); round trips over a pipe (client and
//! server both counted): pipe-json-lines, pipe-rmcp, pipe-tool-mcp, pipe-tool-mcp-lines (the
//! same server behind `serve_lines`). The parts of a good call,
//! each beside the baseline's same part: part-envelope / part-envelope-baseline (reading the
//! envelope), part-tool / part-tool-baseline (the tool alone: arguments in, output JSON
//! out), part-registry (`from_json` and `Registry::call`, the result not written).

#[path = "../benches/common/mod.rs"]
mod common;

use std::hint::black_box;

use rmcp::model::{CallToolRequestParams, JsonObject};
use tool_benches::{
    ARGUMENTS, BAD_NESTED_CALL, BAD_THREE_CALL, CALL, CALL_BOUNDED, CALL_FLAT, MCP_CALL, baseline,
    parts, ready, registry_of, registry_of_variants, tool_core_call,
};
use tool_core::call::Arguments;
use tool_core::{Context, Provider, RateLimit, Registry};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "good".to_owned());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1_000);

    let runtime = tool_benches::runtime();
    let _entered = runtime.enter();
    let registry = registry_of(1);
    let ctx = Context::default();
    let arguments = Arguments::from_text(ARGUMENTS);
    let out = std::cell::RefCell::new(Vec::new());
    let many = registry_of(100);
    let variants = registry_of_variants();
    let stored = common::RmcpStored::new();
    let (_stored_service, stored_peer) = common::idle_peer(common::RmcpStored::new());
    let mcp = tool_mcp::McpServer::new(registry.clone());
    let (_mcp_service, mcp_peer) = common::idle_peer(tool_mcp::McpServer::new(registry.clone()));

    if let Some(pair) = scenario.strip_prefix("pipe-") {
        round_trips(&runtime, pair, times, &registry);
        return;
    }
    let observed = registry
        .clone()
        .with_observer(|record| drop(black_box(record)))
        .with_rate_limit(RateLimit::per_caller(
            std::num::NonZeroU32::MAX,
            std::time::Duration::from_secs(1),
        ));
    let recorded = registry
        .clone()
        .with_observer(|record| drop(black_box(record)));
    let limited = registry.clone().with_rate_limit(RateLimit::per_caller(
        std::num::NonZeroU32::MAX,
        std::time::Duration::from_secs(1),
    ));
    let observed_ctx = Context::new().with_caller("profile");
    let _spans = matches!(scenario.as_str(), "good-observed" | "good-traced")
        .then(|| tracing::subscriber::set_default(tracing_subscriber::registry()));
    let run: Box<dyn Fn()> = match scenario.as_str() {
        "baseline" => Box::new(|| drop(black_box(baseline(black_box(CALL))))),
        "good" => Box::new(|| drop(black_box(tool_core_call(&registry, &ctx, black_box(CALL))))),
        "good-observed" => Box::new(|| {
            drop(black_box(tool_core_call(
                &observed,
                &observed_ctx,
                black_box(CALL),
            )))
        }),
        "good-traced" => Box::new(|| {
            drop(black_box(tool_core_call(
                &registry,
                &observed_ctx,
                black_box(CALL),
            )))
        }),
        "good-recorded" => Box::new(|| {
            drop(black_box(tool_core_call(
                &recorded,
                &observed_ctx,
                black_box(CALL),
            )))
        }),
        "good-limited" => Box::new(|| {
            drop(black_box(tool_core_call(
                &limited,
                &observed_ctx,
                black_box(CALL),
            )))
        }),
        "good-bounded" => Box::new(|| {
            drop(black_box(tool_core_call(
                &variants,
                &ctx,
                black_box(CALL_BOUNDED),
            )))
        }),
        "good-flat" => Box::new(|| {
            drop(black_box(tool_core_call(
                &variants,
                &ctx,
                black_box(CALL_FLAT),
            )))
        }),
        "baseline-nested" => Box::new(|| drop(black_box(baseline(black_box(BAD_NESTED_CALL))))),
        "bad-nested" => Box::new(|| {
            drop(black_box(tool_core_call(
                &registry,
                &ctx,
                black_box(BAD_NESTED_CALL),
            )))
        }),
        "baseline-three" => Box::new(|| drop(black_box(baseline(black_box(BAD_THREE_CALL))))),
        "bad-three" => Box::new(|| {
            drop(black_box(tool_core_call(
                &registry,
                &ctx,
                black_box(BAD_THREE_CALL),
            )))
        }),
        "rmcp-kept" => Box::new(|| {
            drop(black_box(ready(common::handle_mcp_text(
                &stored,
                &stored_peer,
                MCP_CALL,
            ))))
        }),
        "tool-mcp" => Box::new(|| {
            drop(black_box(ready(common::handle_mcp_text(
                &mcp, &mcp_peer, MCP_CALL,
            ))))
        }),
        "part-envelope-baseline" => Box::new(|| drop(black_box(parts::envelope_baseline(CALL)))),
        "part-envelope" => Box::new(|| drop(black_box(parts::envelope(CALL)))),
        "part-tool-baseline" => Box::new(|| {
            parts::tool_baseline(ARGUMENTS, &mut out.borrow_mut());
            black_box(&out);
        }),
        "part-tool" => Box::new(|| drop(black_box(parts::tool(&arguments, &ctx)))),
        "part-registry" => Box::new(|| drop(black_box(parts::registry(&registry, &ctx, CALL)))),
        "export-mcp" => Box::new(|| drop(black_box(many.export(Provider::Mcp).unwrap()))),
        other => panic!("no scenario named {other}"),
    };
    for _ in 0..times {
        run();
    }
}

/// `times` round trips over a pipe, client and server on this thread's runtime.
fn round_trips(runtime: &tokio::runtime::Runtime, pair: &str, times: usize, registry: &Registry) {
    let params = || {
        let arguments: JsonObject = serde_json::from_str(ARGUMENTS).unwrap();
        CallToolRequestParams::new("event_count").with_arguments(arguments)
    };
    runtime.block_on(async {
        let (client, server) = tokio::io::duplex(64 * 1024);
        match pair {
            "json-lines" => {
                tokio::spawn(common::serve_json_lines(server));
                let mut client = common::JsonLinesClient::new(client);
                for _ in 0..times {
                    black_box(client.call(CALL).await);
                }
            }
            "rmcp" | "tool-mcp" | "tool-mcp-lines" => {
                let served = tool_mcp::McpServer::new(registry.clone());
                match pair {
                    "rmcp" => common::spawn_server(common::RmcpStored::new(), server),
                    "tool-mcp" => common::spawn_server(served, server),
                    _ => common::spawn_lines_server(served, server),
                }
                let client = common::rmcp_client(client).await;
                for _ in 0..times {
                    black_box(client.call_tool(params()).await.unwrap());
                }
            }
            other => panic!("no pipe named {other}"),
        }
    });
}
