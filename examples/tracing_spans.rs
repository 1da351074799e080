//! The span of each call as JSON lines on stdout, through `tracing-subscriber`: the tool, its
//! toolkit, the call's id, the caller, the outcome's code and the elapsed time, and the trace
//! id and parent id of the W3C `traceparent` the caller sent (over MCP, the request's
//! `_meta.traceparent`; here put in the context by hand).
//!
//! Run with `cargo run --example tracing_spans`.

use serde_json::json;
use tool_core::{Context, Refusal, Registry, ToolCall, TraceParent, tool};
use tracing_subscriber::fmt::format::FmtSpan;

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> Result<i64, Refusal> {
    a.checked_add(b).ok_or_else(|| {
        Refusal::bad_arguments("the sum is past what 64 bits hold: add smaller numbers")
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // One JSON line per span, written when the span closes, with its fields.
    tracing_subscriber::fmt()
        .json()
        .with_span_events(FmtSpan::CLOSE)
        .init();

    let registry = Registry::builder()
        .tool(Add)
        .build()
        .expect("one tool builds");
    let parent = TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        .expect("a valid traceparent");
    let ctx = Context::new().with_caller("alice").with_extension(parent);
    let good = ToolCall::new("call-1", "add", json!({"a": 2, "b": 3}));
    let bad = ToolCall::new("call-2", "add", json!({"a": "two"}));
    for call in [good, bad] {
        registry.call(call, &ctx).await;
    }
}
