//! One call as a full client → server round trip over an in-memory pipe
//! (`tokio::io::duplex`), on one current-thread runtime: the hand-written JSON-lines limit,
//! rmcp's client against rmcp's own server and against this project's `tool-mcp` server, and
//! this project at both ends (`RemoteToolkit` in a registry, calling `tool-mcp`).

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::model::{CallToolRequestParams, JsonObject};
use tokio::runtime::Runtime;
use tool_benches::{ARGUMENTS, CALL, ready, registry_of};
use tool_core::{Context, Registry, ToolCall};
use tool_mcp::{McpServer, RemoteToolkit};

const PIPE_BUFFER: usize = 64 * 1024;

/// Times `iters` calls made one after another inside the runtime.
fn timed<F: AsyncFnMut()>(runtime: &Runtime, iters: u64, mut call: F) -> Duration {
    runtime.block_on(async {
        let start = Instant::now();
        for _ in 0..iters {
            call().await;
        }
        start.elapsed()
    })
}

/// What an MCP client sends for the workload's call: the arguments' text read into the
/// request's object.
fn mcp_params() -> CallToolRequestParams {
    let arguments: JsonObject = serde_json::from_str(ARGUMENTS).expect("an object");
    CallToolRequestParams::new("event_count").with_arguments(arguments)
}

fn round_trip(c: &mut Criterion) {
    let runtime = tool_benches::runtime();
    let registry = registry_of(1);

    let mut json_lines = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(PIPE_BUFFER);
        tokio::spawn(common::serve_json_lines(server));
        common::JsonLinesClient::new(client)
    });
    let rmcp_to_rmcp = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(PIPE_BUFFER);
        common::spawn_server(common::RmcpStored::new(), server);
        common::rmcp_client(client).await
    });
    let rmcp_to_tool_mcp = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(PIPE_BUFFER);
        common::spawn_server(McpServer::new(registry.clone()), server);
        common::rmcp_client(client).await
    });
    // The same server behind `serve_lines`, the line filter `serve_stdio` uses.
    let rmcp_to_tool_mcp_lines = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(PIPE_BUFFER);
        common::spawn_lines_server(McpServer::new(registry.clone()), server);
        common::rmcp_client(client).await
    });
    let remote_registry = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(PIPE_BUFFER);
        common::spawn_server(McpServer::new(registry.clone()), server);
        let remote = RemoteToolkit::connect("remote", client)
            .await
            .expect("connects");
        remote.add_to(Registry::builder()).build().expect("builds")
    });
    let ctx = Context::default();

    runtime.block_on(async {
        let answer = json_lines.call(CALL).await;
        assert!(answer.contains("86400"), "{answer}");
        for client in [&rmcp_to_rmcp, &rmcp_to_tool_mcp, &rmcp_to_tool_mcp_lines] {
            let result = client.call_tool(mcp_params()).await.expect("answered");
            assert!(serde_json::to_string(&result).unwrap().contains("86400"));
        }
        let call = ToolCall::from_json(CALL).unwrap();
        let result = remote_registry.call(call, &ctx).await;
        assert_eq!(result.text(), r#"{"matched":5,"span":86400}"#);
    });
    // The in-process path of the same call, to see how much of a round trip is the pipe's.
    assert!(
        ready(registry.call(ToolCall::from_json(CALL).unwrap(), &ctx))
            .text()
            .contains("86400")
    );

    let mut group = c.benchmark_group("round trip");
    group.bench_function("JSON lines, hand-written", |b| {
        b.iter_custom(|iters| {
            timed(&runtime, iters, async || {
                black_box(json_lines.call(black_box(CALL)).await);
            })
        })
    });
    for (name, client) in [
        ("rmcp client → rmcp server", &rmcp_to_rmcp),
        ("rmcp client → tool-mcp server", &rmcp_to_tool_mcp),
        (
            "rmcp client → tool-mcp server, serve_lines",
            &rmcp_to_tool_mcp_lines,
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                timed(&runtime, iters, async || {
                    black_box(client.call_tool(mcp_params()).await.unwrap());
                })
            })
        });
    }
    group.bench_function("tool-mcp RemoteToolkit → tool-mcp server", |b| {
        b.iter_custom(|iters| {
            timed(&runtime, iters, async || {
                let call = ToolCall::from_json(black_box(CALL)).unwrap();
                let result = remote_registry.call(call, &ctx).await;
                black_box(serde_json::to_string(&result).unwrap());
            })
        })
    });
    group.finish();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
