//! Budgets of calls per caller: refused with `rate-limited` and told when to try again.

use std::num::NonZeroU32;
use std::time::Duration;

use serde_json::json;
use tool_core::{Context, Grant, RateLimit, Registry, ToolCall, ToolResult, code, tool};

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Says hello.
#[tool(readonly)]
async fn hello() -> &'static str {
    "hello"
}

fn registry(limit: RateLimit) -> Registry {
    Registry::builder()
        .tool(Add)
        .tool(Hello)
        .build()
        .unwrap()
        .with_rate_limit(limit)
}

fn budget(calls: u32, interval: Duration) -> RateLimit {
    RateLimit::per_caller(NonZeroU32::new(calls).unwrap(), interval)
}

async fn call(registry: &Registry, caller: Option<&str>, tool: &str) -> ToolResult {
    let mut ctx = Context::new();
    if let Some(caller) = caller {
        ctx = ctx.with_caller(caller);
    }
    let arguments = match tool {
        "add" => json!({"a": 1, "b": 2}),
        _ => json!({}),
    };
    registry
        .call(ToolCall::new("c", tool, arguments), &ctx)
        .await
}

/// The seconds a `rate-limited` refusal says to wait.
fn retry_after(result: &ToolResult) -> f64 {
    let refusal = result.refusal().expect("a refusal");
    assert_eq!(refusal.code, code::RATE_LIMITED, "{refusal}");
    let line = refusal
        .lines
        .iter()
        .find(|line| line.label == "retry-after")
        .expect("a retry-after line");
    line.cells[0].parse().unwrap()
}

#[tokio::test]
async fn a_caller_past_its_budget_is_refused_and_told_when_to_try_again() {
    let registry = registry(budget(2, Duration::from_secs(60)));
    let first = std::time::Instant::now();
    assert_eq!(call(&registry, Some("alice"), "add").await.text(), "3");
    assert_eq!(
        call(&registry, Some("alice"), "hello").await.text(),
        "hello"
    );
    let refused = call(&registry, Some("alice"), "add").await;
    let wait = retry_after(&refused);
    // One call comes back every 30 s after the first.
    let since = first.elapsed().as_secs_f64();
    assert!(
        wait >= 29.0 - since && wait <= 30.0,
        "{wait} s, {since} s after the first"
    );
    let text = refused.text();
    assert!(
        text.contains("alice") && text.contains("try again in"),
        "{text}"
    );
    // Another caller has a budget of its own; callers without a name share one.
    assert_eq!(call(&registry, Some("bob"), "add").await.text(), "3");
    assert_eq!(call(&registry, None, "add").await.text(), "3");
    assert_eq!(call(&registry, None, "add").await.text(), "3");
    retry_after(&call(&registry, None, "add").await);
}

#[tokio::test]
async fn a_budget_per_tool_counts_each_tool_apart() {
    let registry = registry(budget(1, Duration::from_secs(60)).per_tool());
    assert_eq!(call(&registry, Some("alice"), "add").await.text(), "3");
    assert_eq!(
        call(&registry, Some("alice"), "hello").await.text(),
        "hello"
    );
    let refused = call(&registry, Some("alice"), "add").await;
    retry_after(&refused);
    assert!(refused.text().contains("on add"), "{}", refused.text());
    retry_after(&call(&registry, Some("alice"), "hello").await);
}

#[tokio::test]
async fn the_budget_refills_with_time() {
    // One call in 5 s: the second, made at once, finds the budget spent however loaded the
    // machine, and a later one gets through.
    let registry = registry(budget(1, Duration::from_secs(5)));
    assert!(!call(&registry, Some("alice"), "add").await.is_refused());
    let wait = retry_after(&call(&registry, Some("alice"), "add").await);
    assert!(wait <= 5.0, "{wait}");
    let mut refused = true;
    for () in tool_tests::patiently() {
        refused = call(&registry, Some("alice"), "add").await.is_refused();
        if !refused {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!refused, "the budget refilled");
}

#[tokio::test]
async fn calls_that_reach_no_tool_use_none_of_the_budget() {
    let registry = registry(budget(1, Duration::from_secs(60)));
    let unknown = call(&registry, Some("alice"), "subtract").await;
    assert_eq!(unknown.refusal().unwrap().code, code::UNKNOWN_TOOL);
    let view = registry.scoped(Grant::names(["hello"]));
    let ungranted = call(&view, Some("alice"), "add").await;
    assert_eq!(ungranted.refusal().unwrap().code, code::NOT_PERMITTED);
    assert_eq!(call(&registry, Some("alice"), "add").await.text(), "3");
}

#[tokio::test]
async fn clones_and_views_share_the_budget() {
    let registry = registry(budget(1, Duration::from_secs(60)));
    let view = registry.scoped(Grant::names(["add"]));
    assert_eq!(call(&view, Some("alice"), "add").await.text(), "3");
    retry_after(&call(&registry.clone(), Some("alice"), "add").await);
}

/// Counts slowly, as a task.
#[tool(task)]
async fn count() -> &'static str {
    "counted"
}

#[tokio::test]
async fn a_task_over_the_budget_is_refused_when_it_starts_and_a_started_one_takes_no_more() {
    let registry = Registry::builder()
        .tool(Count)
        .build()
        .unwrap()
        .with_rate_limit(budget(1, Duration::from_secs(3600)));
    let ctx = Context::new().with_caller("alice");
    let first = registry
        .start(ToolCall::new("t1", "count", json!({})), &ctx)
        .expect("the first task starts");
    // The budget was taken when the task started: its own call is not charged again.
    assert_eq!(first.result().await.text(), "counted");
    let refusal = match registry.start(ToolCall::new("t2", "count", json!({})), &ctx) {
        Ok(_) => panic!("a second task over a budget of one started"),
        Err(refusal) => refusal,
    };
    assert_eq!(refusal.code, code::RATE_LIMITED, "{refusal}");
    assert!(
        refusal.lines.iter().any(|line| line.label == "retry-after"),
        "{refusal}"
    );
    // Another caller has a budget of its own.
    let bob = Context::new().with_caller("bob");
    assert!(
        registry
            .start(ToolCall::new("t3", "count", json!({})), &bob)
            .is_ok()
    );
}

/// Runs until it is cancelled, as a task.
#[tool(task)]
async fn linger(ctx: &Context) -> &'static str {
    ctx.cancellation().cancelled().await;
    "stopped"
}

#[tokio::test]
async fn a_task_start_refused_for_another_reason_takes_none_of_the_budget() {
    let registry = Registry::builder()
        .tool(Linger)
        .build()
        .unwrap()
        .with_task_limit(1)
        .with_rate_limit(budget(2, Duration::from_secs(3600)));
    let ctx = Context::new().with_caller("alice");
    let first = registry
        .start(ToolCall::new("t1", "linger", json!({})), &ctx)
        .expect("the first task starts");
    // One task at a time: refused for that, and the budget is untouched.
    for id in ["t2", "t3", "t4"] {
        let refusal = match registry.start(ToolCall::new(id, "linger", json!({})), &ctx) {
            Ok(_) => panic!("a second task started past the limit of one"),
            Err(refusal) => refusal,
        };
        assert_eq!(refusal.code, code::TOO_MANY_TASKS, "{refusal}");
    }
    first.cancel();
    first.result().await;
    // The second of the budget's two starts.
    let second = registry
        .start(ToolCall::new("t5", "linger", json!({})), &ctx)
        .expect("the budget still has a start");
    second.cancel();
}
