//! A remote server over stdio hears a call's cancel after the call, however soon the cancel
//! follows: the server here, like rmcp's, forgets a cancel naming a request it has not seen.

use std::time::Duration;

use serde_json::json;
use tool_core::{Context, Registry, ToolCall};
use tool_mcp::RemoteToolkit;

/// An MCP server over stdio, in Python, that never answers `hold` and counts the cancels it
/// is sent: those naming a call it has read, and those that came first. `count` answers
/// `<after> <first>`.
const SERVER: &str = r#"
import json, sys
seen, after, first = set(), 0, 0
def answer(id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        answer(message["id"], {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                               "serverInfo": {"name": "counter", "version": "1"}})
    elif method == "tools/list":
        tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ("hold", "count")]
        answer(message["id"], {"tools": tools})
    elif method == "tools/call" and message["params"]["name"] == "hold":
        seen.add(json.dumps(message["id"]))
    elif method == "tools/call":
        text = "%d %d" % (after, first)
        answer(message["id"], {"content": [{"type": "text", "text": text}]})
    elif method == "notifications/cancelled":
        if json.dumps(message["params"]["requestId"]) in seen:
            after += 1
        else:
            first += 1
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_sent_at_once_reaches_a_child_server_after_its_call() {
    let mut command = tokio::process::Command::new("python3");
    command.args(["-c", SERVER]);
    let remote = RemoteToolkit::connect_stdio("counter", command)
        .await
        .expect("python3 runs (install Python 3 to run this test)");
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let calls = 400;
    for round in 0..calls {
        let ctx = Context::default();
        let cancel = ctx.cancellation().clone();
        let registry = &registry;
        let call = async move {
            let call = ToolCall::new(round.to_string(), "hold", json!({}));
            registry.call(call, &ctx).await
        };
        // The cancel comes a varying number of turns after the call starts, so that some
        // come just as the call is written.
        let stop = async move {
            for _ in 0..round % 40 {
                tokio::task::yield_now().await;
            }
            cancel.cancel();
        };
        let (result, ()) = tokio::join!(call, stop);
        assert_eq!(result.refusal().unwrap().code, "cancelled", "{result:?}");
    }
    // A cancel still on its way when `count` is read is not counted; each counted one was
    // read either after its call or before it.
    let counted = tokio::time::timeout(
        Duration::from_secs(120),
        registry.call(
            ToolCall::new("count", "count", json!({})),
            &Context::default(),
        ),
    )
    .await
    .expect("the server answers `count`");
    let counted = counted.text();
    let (after, first) = counted.split_once(' ').unwrap();
    let (after, first): (u32, u32) = (after.parse().unwrap(), first.parse().unwrap());
    assert!(
        after > 0,
        "no cancel followed a call that was sent: {counted}"
    );
    assert_eq!(first, 0, "cancels that overtook their call: {counted}");
}
