//! Many calls through the MCP server at once, with cancels, timeouts and panics among them:
//! every call is answered once, nothing is left running, and memory comes back.

use std::time::Duration;

use rmcp::service::ServiceExt;
use serde_json::json;
use tool_core::call::CancellationToken;
use tool_core::{Context, Registry, ToolCall, tool, toolkit};
use tool_mcp::{McpServer, RemoteToolkit};

mod support;

/// Counts its running handlers.
struct Lab {
    live: support::Running,
}

#[toolkit(name = "lab")]
impl Lab {
    /// Answers, panics, or sleeps for an hour, as told.
    #[tool(readonly)]
    async fn lab_run(&self, kind: u8, value: u32) -> String {
        let _live = self.live.enter();
        match kind {
            0 => panic!("boom {value}"),
            1 => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                "late".to_owned()
            }
            _ => format!("ok {value}"),
        }
    }

    /// Sleeps for an hour as `lab_run` does, with a timeout of its own as long, so that no
    /// shorter default of the server's ends it: only the client's cancel does, whether it
    /// reaches the server before or after the call (rmcp's client may write the two in either
    /// order).
    #[tool(readonly, timeout = "1h")]
    async fn lab_wait(&self) -> String {
        self.lab_run(1, 0).await
    }
}

/// Resident memory in pages, from /proc (Linux).
fn resident_pages() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    statm.split_whitespace().nth(1)?.parse().ok()
}

async fn run_batch(client: &Registry, calls: usize, round: usize) {
    let mut batch = Vec::with_capacity(calls);
    let mut cancels = Vec::new();
    for index in 0..calls {
        let value = (round * calls + index) as u32;
        let token = CancellationToken::new();
        // One in ten panics, one in ten is cancelled by the client, one in ten times out on
        // the server, the rest answer. The cancelled calls are of a tool whose own timeout is
        // longer than the server's default, so that the server does not end them before the
        // cancel comes.
        let kind = match index % 10 {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        };
        let (name, arguments) = if index % 10 == 1 {
            cancels.push(token.clone());
            ("lab_wait", json!({}))
        } else {
            ("lab_run", json!({"kind": kind, "value": value}))
        };
        let ctx = Context::new().with_cancellation(token);
        batch.push((ToolCall::new(format!("c{index}"), name, arguments), ctx));
    }
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(30)).await;
        cancels.iter().for_each(CancellationToken::cancel);
    });
    let results = client.call_each(batch).await;
    canceller.await.unwrap();
    assert_eq!(results.len(), calls);
    for (index, result) in results.iter().enumerate() {
        assert_eq!(result.id, format!("c{index}"), "answered out of order");
        let code = result
            .refusal()
            .map_or("ok", |refusal| refusal.code.as_str());
        let expected = match index % 10 {
            0 => "internal",
            1 => "cancelled",
            2 => "timed-out",
            _ => "ok",
        };
        assert_eq!(code, expected, "{}: {}", result.id, result.text());
    }
}

/// The remote `lab` toolkit that `served` is, served over an in-memory pipe until the client
/// goes away, and a registry of its tools. Keep the toolkit: it holds the client open when the
/// registry is moved into a task that ends, which would otherwise close the client before a
/// cancellation it is sending reaches the server (and the server goes on running that call).
async fn over_mcp(served: Registry) -> (RemoteToolkit, Registry) {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = McpServer::new(served).serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let remote = RemoteToolkit::connect("lab", client_end).await.unwrap();
    let client = remote.add_to(Registry::builder()).build().unwrap();
    (remote, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_mcp_calls_with_cancels_timeouts_and_panics_all_answer_once() {
    std::panic::set_hook(Box::new(|_| {}));
    let live = support::Running::default();
    let served = tool_core::registry![Lab { live: live.clone() }]
        .with_default_timeout(Duration::from_millis(150));
    let (_remote, client) = over_mcp(served).await;

    // A first round warms allocators and caches; memory is compared after later rounds.
    run_batch(&client, 500, 0).await;
    // The server drops a handler when its timeout passes or the client's cancel arrives: wait
    // until it has (a handler it never dropped would sleep on for an hour).
    assert!(
        live.until(0).await,
        "a handler is still running on the server"
    );
    let before = resident_pages();
    // `STRESS_ROUNDS=200` makes it the full 100,000 calls; the default keeps `cargo test` short.
    let rounds: usize = std::env::var("STRESS_ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(4);
    for round in 1..=rounds {
        run_batch(&client, 500, round).await;
    }
    assert!(
        live.until(0).await,
        "a handler is still running on the server"
    );
    if let (Some(before), Some(after)) = (before, resident_pages()) {
        // 2,000 calls must not leave their memory behind: allow 16 MiB of allocator slack.
        let grown = after.saturating_sub(before) * 4096;
        assert!(grown < 16 << 20, "resident memory grew by {grown} bytes");
    }
    let _ = std::panic::take_hook();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cancelled_by_the_client_stops_on_the_remote_server() {
    let live = support::Running::default();
    // No timeout ends the call before its hour of sleep: only the cancel can.
    let served = tool_core::registry![Lab { live: live.clone() }]
        .with_default_timeout(Duration::from_secs(3600));
    let (_remote, client) = over_mcp(served).await;
    let token = CancellationToken::new();
    let ctx = Context::new().with_cancellation(token.clone());
    let call = ToolCall::new("1", "lab_run", json!({"kind": 1, "value": 1}));
    let running = tokio::spawn(async move { client.call(call, &ctx).await });
    assert!(live.until(1).await, "the handler started on the server");
    token.cancel();
    let result = running.await.unwrap();
    assert_eq!(result.refusal().unwrap().code, "cancelled");
    // rmcp sends `notifications/cancelled` when the call's future is dropped; the server
    // cancels the handler's context and drops it, long before its hour of sleep ends.
    assert!(live.until(0).await, "the server is still running the call");
}
