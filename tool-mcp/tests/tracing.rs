//! A W3C `traceparent` in a `tools/call` request's `_meta` (SEP-414) becomes the remote parent
//! of the call's span: the span records its trace id and parent id, and the request's id as
//! the call's.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_core::{Registry, tool};
use tool_mcp::McpServer;
use tracing_subscriber::fmt::format::FmtSpan;

mod support;

use support::Lines;

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

const TRACEPARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

#[tokio::test]
async fn a_traceparent_in_the_requests_meta_is_the_call_spans_remote_parent() {
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_span_events(FmtSpan::CLOSE)
        .with_writer(move || writer.clone())
        .finish();
    // The test's runtime has one thread, so the server's tasks see this subscriber too.
    let _default = tracing::subscriber::set_default(subscriber);

    let server = McpServer::new(Registry::builder().tool(Add).build().unwrap());
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (their_reader, their_writer) = tokio::io::split(theirs);
    tokio::spawn(server.serve_lines(their_reader, their_writer));
    let (reader, mut writer) = tokio::io::split(ours);
    let mut answers = BufReader::new(reader).lines();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "tracing", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 2, "b": 3},
            "_meta": {"traceparent": TRACEPARENT}}}),
        json!({"jsonrpc": "2.0", "id": "third", "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 1, "b": 1},
            "_meta": {"traceparent": "not a traceparent"}}}),
    ];
    let mut results = Vec::new();
    for message in messages {
        let mut line = message.to_string();
        line.push('\n');
        writer.write_all(line.as_bytes()).await.unwrap();
        if message.get("id").is_none() {
            continue;
        }
        let answer = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let line = answers.next_line().await.unwrap().expect("an answer");
                let answer: Value = serde_json::from_str(&line).unwrap();
                if answer["id"] == message["id"] {
                    return answer;
                }
            }
        })
        .await
        .expect("the server answers");
        results.push(answer);
    }
    assert_eq!(
        results[1]["result"]["content"][0]["text"], "5",
        "{results:?}"
    );

    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    let spans: Vec<Value> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["span"]["name"] == "tool_call")
        .map(|line| line["span"].clone())
        .collect();
    assert_eq!(spans.len(), 2, "{text}");
    assert_eq!(spans[0]["tool"], "add");
    // The call's id is the request's: a number's digits, a string's text.
    assert_eq!(spans[0]["call_id"], "2");
    assert_eq!(spans[1]["call_id"], "third");
    assert_eq!(spans[0]["outcome"], "ok");
    assert_eq!(spans[0]["trace_id"], "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(spans[0]["parent_id"], "b7ad6b7169203331");
    assert!(spans[1].get("trace_id").is_none(), "{}", spans[1]);
}
