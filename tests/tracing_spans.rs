//! One `tracing` span per call, with the tool, toolkit, call id, caller, outcome and elapsed
//! time, and the caller's W3C trace context as its remote parent.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tool_core::{Context, Registry, ToolCall, TraceParent, tool, toolkit};
use tool_tests::run;
use tracing_subscriber::fmt::format::FmtSpan;

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Notes.
struct Notes;

#[toolkit(name = "notes")]
impl Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u32) -> String {
        format!("note {id}")
    }
}

/// Where the JSON lines go.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The JSON lines `calls` leave, with spans reported when they close.
fn spans_of(calls: impl FnOnce()) -> Vec<Value> {
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_span_events(FmtSpan::CLOSE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, calls);
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["span"]["name"] == "tool_call")
        .map(|line| line["span"].clone())
        .collect()
}

#[test]
fn each_call_has_one_span_with_its_tool_caller_outcome_and_time() {
    let registry = Registry::builder()
        .tool(Add)
        .toolkit(Notes)
        .build()
        .unwrap();
    let spans = spans_of(|| {
        run(async {
            let ctx = Context::new().with_caller("alice");
            let call = ToolCall::new("c1", "note_read", json!({"id": 7}));
            assert_eq!(registry.call(call, &ctx).await.text(), "note 7");
            let call = ToolCall::new("c2", "add", json!({"a": "two"}));
            assert!(registry.call(call, &Context::default()).await.is_refused());
        })
    });
    assert_eq!(spans.len(), 2, "{spans:?}");
    let read = &spans[0];
    assert_eq!(read["tool"], "note_read");
    assert_eq!(read["toolkit"], "notes");
    assert_eq!(read["call_id"], "c1");
    assert_eq!(read["caller"], "alice");
    assert_eq!(read["outcome"], "ok");
    assert!(read["elapsed_ms"].as_f64().unwrap() >= 0.0, "{read}");
    let refused = &spans[1];
    assert_eq!(refused["tool"], "add");
    assert_eq!(refused["toolkit"], "add");
    assert_eq!(refused["outcome"], "bad-arguments");
    assert!(refused.get("caller").is_none(), "{refused}");
    assert!(refused.get("trace_id").is_none(), "{refused}");
}

#[test]
fn a_traceparent_in_the_context_is_the_spans_remote_parent() {
    let registry = Registry::builder().tool(Add).build().unwrap();
    let parent =
        TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
    let spans = spans_of(|| {
        run(async {
            let ctx = Context::new().with_extension(parent);
            let call = ToolCall::new("c1", "add", json!({"a": 1, "b": 2}));
            assert_eq!(registry.call(call, &ctx).await.text(), "3");
        })
    });
    assert_eq!(spans[0]["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(spans[0]["parent_id"], "00f067aa0ba902b7");
}

#[test]
fn a_malformed_traceparent_is_no_parent() {
    for text in [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
    ] {
        assert_eq!(TraceParent::parse(text), None, "{text}");
    }
    let later = TraceParent::parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-x");
    assert!(later.is_some_and(|parent| !parent.sampled()));
}

#[test]
fn a_search_and_a_refused_unlisted_call_of_a_deferred_registry_have_spans_too() {
    let registry = Registry::builder()
        .tool(Add)
        .toolkit(Notes)
        .build()
        .unwrap()
        .with_deferred_loading(["add"]);
    let session = tool_core::Session::new();
    let spans = spans_of(|| {
        run(async {
            let ctx = Context::new().with_caller("alice");
            let call = ToolCall::new("s1", "tool_search", json!({"query": "read a note"}));
            assert!(!registry.call_in(&session, call, &ctx).await.is_refused());
            let call = ToolCall::new("u1", "shell_run", json!({}));
            assert!(registry.call_in(&session, call, &ctx).await.is_refused());
        })
    });
    assert_eq!(spans.len(), 2, "{spans:?}");
    assert_eq!(spans[0]["tool"], "tool_search");
    assert_eq!(spans[0]["call_id"], "s1");
    assert_eq!(spans[0]["caller"], "alice");
    assert_eq!(spans[0]["outcome"], "ok");
    assert_eq!(spans[1]["tool"], "shell_run");
    assert_eq!(spans[1]["outcome"], "unknown-tool");
}
