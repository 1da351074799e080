//! A client's `notifications/cancelled` stops its call on the server whichever of the two
//! arrives first: rmcp's client writes each message from a task of its own, so a cancel can be
//! written before the request it cancels, and over HTTP each message is a request of its own.
//! Here the cancel is sent first on purpose, over lines in both revisions and over HTTP.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{tool, toolkit};
use tool_mcp::McpServer;

mod support;

use support::Running;
use support::lines::LineClient;

/// Counts the calls of its tools that are running.
struct Sleepers {
    live: Running,
}

#[toolkit(name = "sleepers")]
impl Sleepers {
    /// Sleeps for an hour.
    #[tool(readonly)]
    async fn sleep_long(&self) -> &'static str {
        let _live = self.live.enter();
        tokio::time::sleep(Duration::from_secs(3600)).await;
        "woke"
    }

    /// Answers at once.
    #[tool(readonly)]
    async fn quick(&self) -> &'static str {
        "quick"
    }
}

/// A server whose only limit on a call is its hour of sleep: a call that ends sooner was
/// cancelled. Its count of running calls.
fn server() -> (McpServer, Running) {
    let live = Running::default();
    let registry = tool_core::registry![Sleepers { live: live.clone() }]
        .with_default_timeout(Duration::from_secs(3600));
    (McpServer::new(registry), live)
}

fn cancel(id: &Value, meta: Option<Value>) -> Value {
    let mut params = json!({"requestId": id, "reason": "the user moved on"});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})
}

fn call(id: &Value, name: &str, meta: Option<Value>) -> Value {
    let mut params = json!({"name": name, "arguments": {}});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// MCP 2026-07-28's metadata on every message.
fn current_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "cancels", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// Sends a cancel and then the call it names, and checks that the call is answered as
/// cancelled (its hour of sleep is the only other way it ends) and leaves nothing running, and
/// that the next call is not touched by it. The call may or may not have started: rmcp passes
/// the cancel on, and starts the call, each on a task of its own.
async fn cancel_comes_first(client: &mut LineClient, live: &Running, meta: Option<Value>) {
    let first = json!(1);
    client.send(call(&first, "quick", meta.clone())).await;
    let answer = client.answer(&first).await;
    assert_eq!(answer["result"]["content"][0]["text"], "quick", "{answer}");
    let early = json!("early-1");
    client.send(cancel(&early, meta.clone())).await;
    client.send(call(&early, "sleep_long", meta.clone())).await;
    let answer = client.answer(&early).await;
    assert!(
        answer.to_string().contains("cancelled"),
        "the call whose cancel came first ran on: {answer}"
    );
    assert!(
        live.until(0).await,
        "a cancelled call still runs on the server"
    );
    let next = json!(2);
    client.send(call(&next, "quick", meta)).await;
    let answer = client.answer(&next).await;
    assert_eq!(answer["result"]["content"][0]["text"], "quick", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_that_comes_before_its_call_stops_it_before_it_runs() {
    let (server, live) = server();
    let mut client = LineClient::connect(server).await;
    cancel_comes_first(&mut client, &live, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_cancel_that_comes_before_its_call_stops_it_before_it_runs() {
    let (server, live) = server();
    let mut client = LineClient::connect_current(server);
    cancel_comes_first(&mut client, &live, Some(current_meta())).await;
}

/// A 2026-07-28 connection's very first message may be the cancel of the call that follows
/// it (rmcp's client can write them so): the connection starts with the call and goes on,
/// where rmcp alone would end it at the cancel and answer nothing more. rmcp answers nothing
/// for a call it cancelled, so any answer the call gets must say it was cancelled, and the
/// call must not be left running. (That the cancel is passed on after the call, not dropped,
/// is shown by `opening.rs`'s own tests: the call may be cancelled before its handler starts,
/// which nothing here can tell from a call that has not started yet.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_connection_opened_by_a_cancel_goes_on_and_the_call_is_cancelled() {
    let (server, live) = server();
    let mut client = LineClient::connect_current(server);
    let meta = Some(current_meta());
    let early = json!("first");
    client.send(cancel(&early, meta.clone())).await;
    client.send(call(&early, "sleep_long", meta.clone())).await;
    let next = json!(2);
    client.send(call(&next, "quick", meta)).await;
    let answer = client.answer(&next).await;
    assert_eq!(answer["result"]["content"][0]["text"], "quick", "{answer}");
    for message in &client.notifications {
        if message["id"] == early {
            assert!(message.to_string().contains("cancelled"), "{message}");
        }
    }
    assert!(
        live.until(0).await,
        "a cancelled call still runs on the server"
    );
}

/// A 2025-11-25 client's notification sent before `initialize` does not end the connection:
/// `initialize` is answered, and the call after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_before_initialize_waits_for_it() {
    let (server, _) = server();
    let mut client = LineClient::open(server, false);
    client.send(cancel(&json!(99), None)).await;
    let opened = client.handshake().await;
    assert_eq!(opened["protocolVersion"], "2025-11-25", "{opened}");
    let next = json!(2);
    client.send(call(&next, "quick", None)).await;
    let answer = client.answer(&next).await;
    assert_eq!(answer["result"]["content"][0]["text"], "quick", "{answer}");
}

/// Over HTTP a cancel is a request of its own: one sent first, in the same session, stops the
/// call that follows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_session_cancel_that_comes_before_its_call_stops_it() {
    let (server, live) = server();
    let http = support::HttpServer::serve(server).await;
    let session = support::HttpSession::open(&http.url()).await;
    let early = json!(7);
    session.post(&cancel(&early, None)).await;
    let answer = session.request(7, &call(&early, "sleep_long", None)).await;
    assert!(answer.to_string().contains("cancelled"), "{answer}");
    assert!(
        live.until(0).await,
        "a cancelled call still runs on the server"
    );
    http.stop().await;
}
