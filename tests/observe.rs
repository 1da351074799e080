//! Call records: one per call, with the arguments' checksum, handed to an observer that can
//! neither delay nor break the calls.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;
use sha2::{Digest, Sha256};
use tool_core::{CallRecord, Context, Registry, ToolCall, tool};
use tool_tests::run;

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn registry() -> Registry {
    Registry::builder().tool(Add).build().unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn each_call_is_recorded_with_a_checksum_of_its_arguments_as_received() {
    let (sender, records) = mpsc::channel::<CallRecord>();
    let registry = registry().with_observer(move |record| drop(sender.send(record)));
    let ctx = Context::new().with_caller("alice");
    let before = std::time::SystemTime::now();
    run(async {
        let good =
            ToolCall::from_json(r#"{"id":"c1","name":"add","arguments":{"a": 2, "b":3}}"#).unwrap();
        assert_eq!(registry.call(good, &ctx).await.text(), "5");
        let bad = ToolCall::new("c2", "ad", json!({}));
        assert!(registry.call(bad, &Context::default()).await.is_refused());
    });

    let first = records.recv_timeout(Duration::from_secs(60)).unwrap();
    assert_eq!(first.id, "c1");
    assert_eq!(first.tool, "add");
    assert_eq!(first.caller.as_deref(), Some("alice"));
    // The text as it came, spaces and all: what the caller can hash on its side.
    assert_eq!(
        first.arguments_sha256,
        hex(&Sha256::digest(br#"{"a": 2, "b":3}"#))
    );
    assert_eq!(first.outcome, "ok");
    assert_eq!(first.output_bytes, 1);
    assert!(first.started >= before - Duration::from_secs(1));
    assert!(first.elapsed < Duration::from_secs(60));

    let second = records.recv_timeout(Duration::from_secs(60)).unwrap();
    assert_eq!(second.id, "c2");
    assert_eq!(second.tool, "ad");
    assert_eq!(second.caller, None);
    assert_eq!(second.outcome, "unknown-tool");
    assert_eq!(second.output_bytes, 0);
    assert_eq!(registry.records_dropped(), 0);
}

#[test]
fn an_observer_that_blocks_does_not_delay_calls_and_what_it_misses_is_counted() {
    let (release, blocked) = mpsc::channel::<()>();
    let blocked = std::sync::Mutex::new(blocked);
    let registry = registry().with_observer_buffer(
        move |_record: CallRecord| {
            let _ = blocked.lock().unwrap().recv();
        },
        2,
    );
    let started = Instant::now();
    run(async {
        for n in 0..50 {
            let call = ToolCall::new(n.to_string(), "add", json!({"a": n, "b": 1}));
            assert!(!registry.call(call, &Context::default()).await.is_refused());
        }
    });
    assert!(started.elapsed() < Duration::from_secs(60));
    // One record is with the observer, two wait; the rest were dropped.
    let dropped = registry.records_dropped();
    assert!((47..=48).contains(&dropped), "{dropped} dropped");
    drop(release);
}

#[test]
fn an_observer_that_panics_breaks_no_call_and_gets_the_next_records() {
    let (sender, records) = mpsc::channel::<String>();
    let registry = registry().with_observer(move |record: CallRecord| {
        if record.id == "boom" {
            panic!("the audit log is full");
        }
        drop(sender.send(record.id));
    });
    run(async {
        for id in ["boom", "after"] {
            let call = ToolCall::new(id, "add", json!({"a": 1, "b": 1}));
            assert_eq!(registry.call(call, &Context::default()).await.text(), "2");
        }
    });
    assert_eq!(
        records.recv_timeout(Duration::from_secs(60)).unwrap(),
        "after"
    );
}

#[test]
fn each_call_of_a_batch_is_recorded() {
    let (sender, records) = mpsc::channel::<CallRecord>();
    let registry = registry().with_observer(move |record| drop(sender.send(record)));
    let calls = (0..3)
        .map(|n| ToolCall::new(n.to_string(), "add", json!({"a": n, "b": 0})))
        .collect();
    let results = run(registry.call_all(calls, &Context::default()));
    assert_eq!(results.len(), 3);
    let mut ids: Vec<String> = (0..3)
        .map(|_| records.recv_timeout(Duration::from_secs(60)).unwrap().id)
        .collect();
    ids.sort();
    assert_eq!(ids, ["0", "1", "2"]);
}
