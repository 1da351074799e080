//! Execution that always answers: panics, cancellation, deadlines, batches, grants, approval
//! and changes at run time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tool_core::call::CancellationToken;
use tool_core::registry::Change;
use tool_core::{
    Approval, ApprovalRequest, Collision, Context, Grant, Registry, ToolCall, ToolResult, registry,
    tool, toolkit,
};

/// Counts handler entries and live handler futures, so tests can prove a handler never ran or
/// that no call is left running.
#[derive(Default)]
struct Probe {
    entered: AtomicUsize,
    live: AtomicUsize,
}

struct Live<'a>(&'a Probe);

impl<'a> Live<'a> {
    fn enter(probe: &'a Probe) -> Live<'a> {
        probe.entered.fetch_add(1, Ordering::SeqCst);
        probe.live.fetch_add(1, Ordering::SeqCst);
        Live(probe)
    }
}

impl Drop for Live<'_> {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Tools whose behaviour the arguments choose.
struct Lab {
    probe: Arc<Probe>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Behaviour {
    Answer,
    Panic,
    Sleep,
}

#[toolkit(name = "lab")]
impl Lab {
    /// Answers, panics or sleeps for an hour, as told.
    #[tool(readonly)]
    async fn lab_run(
        &self,
        behaviour: Behaviour,
        value: u32,
    ) -> Result<String, tool_core::Refusal> {
        let _live = Live::enter(&self.probe);
        match behaviour {
            Behaviour::Answer => Ok(format!("answer {value}")),
            Behaviour::Panic => panic!("the lab exploded at {value}"),
            Behaviour::Sleep => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("woke".to_owned())
            }
        }
    }

    /// Sleeps for ten seconds, but has a timeout of its own.
    #[tool(readonly, timeout = "100ms")]
    async fn lab_slow(&self) -> String {
        let _live = Live::enter(&self.probe);
        tokio::time::sleep(Duration::from_secs(10)).await;
        "woke".to_owned()
    }

    /// Deletes everything.
    #[tool(destructive)]
    async fn lab_wipe(&self, confirm: bool) -> String {
        let _live = Live::enter(&self.probe);
        format!("wiped: {confirm}")
    }
}

/// Says hello.
#[tool(readonly)]
async fn hello(name: String) -> String {
    format!("hello {name}")
}

/// Sleeps for an hour, but has a timeout of its own of a minute.
#[tool(readonly, timeout = "60s")]
async fn nap() -> String {
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "woke".to_owned()
}

fn lab() -> (Registry, Arc<Probe>) {
    let probe = Arc::new(Probe::default());
    let registry = registry![
        Lab {
            probe: probe.clone()
        },
        Hello
    ];
    (registry, probe)
}

fn run(behaviour: &str, value: u32) -> ToolCall {
    ToolCall::new(
        format!("{behaviour}-{value}"),
        "lab_run",
        json!({"behaviour": behaviour, "value": value}),
    )
}

fn code(result: &ToolResult) -> &str {
    result
        .refusal()
        .map_or("ok", |refusal| refusal.code.as_str())
}

#[tokio::test]
async fn a_panic_becomes_internal_and_the_registry_keeps_serving() {
    let (registry, _) = lab();
    let ctx = Context::default();
    let result = registry.call(run("panic", 1), &ctx).await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "internal");
    assert_eq!(
        refusal.message,
        "the tool failed unexpectedly; the details were logged"
    );
    assert!(!result.text().contains("exploded"));
    assert_eq!(
        registry.call(run("answer", 2), &ctx).await.text(),
        "answer 2"
    );

    let shown = registry.with_panic_messages(true);
    let result = shown.call(run("panic", 3), &ctx).await;
    assert!(
        result.text().contains("the lab exploded at 3"),
        "{}",
        result.text()
    );
}

/// A tool written by hand whose `call` panics before it makes its future.
struct Hasty;

impl tool_core::tool::Tool for Hasty {
    fn definition(&self) -> tool_core::tool::ToolDefinition {
        let schema = json!({"type": "object"});
        let schema = schema.as_object().cloned().unwrap_or_default();
        tool_core::tool::ToolDefinition::new("hasty", "Panics at once.", schema)
    }

    fn call<'a>(
        &'a self,
        arguments: &'a tool_core::call::Arguments,
        _ctx: &'a Context,
    ) -> tool_core::call::BoxFuture<'a, Result<tool_core::outcome::Output, tool_core::Refusal>>
    {
        assert!(arguments.as_str().contains("later"), "asked too soon");
        Box::pin(async { Ok(tool_core::outcome::Output::Empty) })
    }
}

#[tokio::test]
async fn a_tool_that_panics_before_its_future_exists_is_refused_as_internal() {
    let added = Registry::builder().tool(Hasty).build().unwrap();
    let shared = (Registry::builder().shared_tool(Arc::new(Hasty), "hand")).build();
    for registry in [added, shared.unwrap()] {
        let ctx = Context::default();
        let result = registry
            .call(ToolCall::new("1", "hasty", json!({})), &ctx)
            .await;
        assert_eq!(code(&result), "internal", "{}", result.text());
        let shown = registry.clone().with_panic_messages(true);
        let result = shown
            .call(ToolCall::new("2", "hasty", json!({})), &ctx)
            .await;
        assert!(
            result.text().contains("asked too soon"),
            "{}",
            result.text()
        );
        let later = ToolCall::new("3", "hasty", json!({"later": true}));
        assert_eq!(code(&registry.call(later, &ctx).await), "ok");
    }
}

#[tokio::test]
async fn a_cancelled_context_never_enters_the_handler() {
    let (registry, probe) = lab();
    let token = CancellationToken::new();
    token.cancel();
    let ctx = Context::new().with_cancellation(token);
    let result = registry.call(run("answer", 1), &ctx).await;
    assert_eq!(code(&result), "cancelled");
    assert_eq!(probe.entered.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_during_the_call_ends_it_without_waiting_for_the_handler() {
    let (registry, probe) = lab();
    let token = CancellationToken::new();
    let ctx = Context::new().with_cancellation(token.clone());
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        token.cancel();
        Instant::now()
    });
    let result = registry.call(run("sleep", 1), &ctx).await;
    let answered = Instant::now();
    let signalled = canceller.await.unwrap();
    assert_eq!(code(&result), "cancelled");
    let delay = answered.saturating_duration_since(signalled);
    // Far less than the hour the handler would sleep, however loaded the machine.
    assert!(
        delay < Duration::from_secs(10),
        "answered {delay:?} after the cancel"
    );
    assert_eq!(
        probe.live.load(Ordering::SeqCst),
        0,
        "the handler was dropped"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_earliest_deadline_ends_the_call() {
    let (registry, _) = lab();
    // The tool's own timeout (100 ms) comes first. Each wait is bounded below the other
    // deadlines (an hour's sleep, the tool's own minute), however loaded the machine.
    let started = Instant::now();
    let result = registry
        .call(
            ToolCall::new("1", "lab_slow", json!({})),
            &Context::default(),
        )
        .await;
    assert_eq!(code(&result), "timed-out");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(100) && took < Duration::from_secs(30),
        "answered after {took:?}"
    );

    // The registry's default, for a tool without a timeout.
    let defaulted = registry
        .clone()
        .with_default_timeout(Duration::from_millis(80));
    let started = Instant::now();
    let result = defaulted.call(run("sleep", 1), &Context::default()).await;
    assert_eq!(code(&result), "timed-out");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(80) && took < Duration::from_secs(30),
        "answered after {took:?}"
    );

    // The context's deadline, when it is earlier than the tool's timeout.
    let napping = Registry::builder().tool(Nap).build().unwrap();
    let ctx = Context::new().with_timeout(Duration::from_millis(30));
    let started = Instant::now();
    let result = napping
        .call(ToolCall::new("2", "nap", json!({})), &ctx)
        .await;
    assert_eq!(code(&result), "timed-out");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(30), "answered after {took:?}");
}

#[tokio::test]
async fn a_deadline_already_passed_never_enters_the_handler() {
    let (registry, probe) = lab();
    let ctx = Context::new().with_deadline(Instant::now() - Duration::from_millis(1));
    let result = registry.call(run("answer", 1), &ctx).await;
    assert_eq!(code(&result), "timed-out");
    assert_eq!(probe.entered.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_all_answers_in_input_order_and_keeps_duplicate_ids_distinct() {
    let (registry, _) = lab();
    let calls = vec![
        ToolCall::new("same", "hello", json!({"name": "a"})),
        ToolCall::new("same", "hello", json!({"name": "b"})),
        ToolCall::new("x", "nope", json!({})),
        ToolCall::new("same", "hello", json!({"name": 3})),
    ];
    let results = registry.call_all(calls, &Context::default()).await;
    let texts: Vec<_> = results.iter().map(|r| (r.id.as_str(), code(r))).collect();
    assert_eq!(
        texts,
        [
            ("same", "ok"),
            ("same", "ok"),
            ("x", "unknown-tool"),
            ("same", "bad-arguments")
        ]
    );
    assert_eq!(results[0].text(), "hello a");
    assert_eq!(results[1].text(), "hello b");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_all_runs_calls_concurrently_within_the_batch_limit() {
    let (registry, probe) = lab();
    let calls: Vec<_> = (0..8).map(|value| run("sleep", value)).collect();
    // The eight sleeping handlers are seen running at once, then the batch is cancelled.
    let token = CancellationToken::new();
    let ctx = Context::new().with_cancellation(token.clone());
    let watcher = {
        let probe = probe.clone();
        tokio::spawn(async move {
            let all_at_once = tool_tests::until(|| probe.live.load(Ordering::SeqCst) == 8).await;
            token.cancel();
            all_at_once
        })
    };
    let results = registry.call_all(calls.clone(), &ctx).await;
    assert!(
        watcher.await.unwrap(),
        "the 8 calls never ran at once: not concurrent"
    );
    assert!(results.iter().all(|r| code(r) == "cancelled"));

    // With a limit of 2, 8 calls of 200 ms take at least four rounds.
    let limited = registry
        .with_default_timeout(Duration::from_millis(200))
        .with_batch_limit(2);
    let started = Instant::now();
    let results = limited.call_all(calls, &Context::default()).await;
    assert_eq!(results.len(), 8);
    assert!(started.elapsed() >= Duration::from_millis(4 * 200));
    assert_eq!(probe.live.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_calls_with_panics_cancels_and_timeouts_all_answer_in_order() {
    let (registry, probe) = lab();
    let mut batch = Vec::new();
    let mut cancels = Vec::new();
    let mut expected = Vec::new();
    for value in 0..1_000u32 {
        let token = CancellationToken::new();
        let mut ctx = Context::new().with_cancellation(token.clone());
        let (call, code) = match value % 10 {
            0 => (run("panic", value), "internal"),
            1 => {
                cancels.push(token);
                (run("sleep", value), "cancelled")
            }
            2 => {
                // A deadline of these calls' own, so that none races the others' cancels.
                ctx = ctx.with_timeout(Duration::from_millis(300));
                (run("sleep", value), "timed-out")
            }
            _ => (run("answer", value), "ok"),
        };
        batch.push((call, ctx));
        expected.push((format!("{}", value), code));
    }
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        for token in cancels {
            token.cancel();
        }
    });
    let started = Instant::now();
    let results = registry.call_each(batch).await;
    canceller.await.unwrap();
    assert_eq!(results.len(), 1_000);
    for (result, (value, code_expected)) in results.iter().zip(&expected) {
        assert!(result.id.ends_with(&format!("-{value}")), "out of order");
        assert_eq!(code(result), *code_expected, "{}", result.id);
    }
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(
        probe.live.load(Ordering::SeqCst),
        0,
        "a call is still running"
    );
}

#[tokio::test]
async fn a_scoped_view_lists_and_runs_only_what_it_grants() {
    let (registry, probe) = lab();
    let view = registry.scoped(Grant::new().tool("hello"));
    assert_eq!(view.names(), ["hello"]);
    assert_eq!(
        view.call(
            ToolCall::new("1", "hello", json!({"name": "x"})),
            &Context::default()
        )
        .await
        .text(),
        "hello x"
    );

    // Refused before the arguments are read: bad arguments still give `not-permitted`.
    let result = view
        .call(
            ToolCall::new("2", "lab_run", json!({"behaviour": 1})),
            &Context::default(),
        )
        .await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "not-permitted");
    assert_eq!(refusal.find_line("tools").unwrap().cells, ["hello"]);
    assert_eq!(probe.entered.load(Ordering::SeqCst), 0);

    // Unknown names are answered with the granted tools only.
    let result = view
        .call(ToolCall::new("3", "nope", json!({})), &Context::default())
        .await;
    let text = result.text();
    assert!(text.starts_with("refused\tunknown-tool\t"), "{text}");
    assert!(!text.contains("lab_"), "{text}");
}

#[tokio::test]
async fn a_grant_may_name_a_whole_toolkit_and_views_narrow() {
    let (registry, _) = lab();
    let lab_only = registry.scoped(Grant::new().toolkit("lab"));
    assert_eq!(lab_only.names(), ["lab_run", "lab_slow", "lab_wipe"]);
    let narrower = lab_only.scoped(Grant::names(["lab_run", "hello"]));
    assert_eq!(narrower.names(), ["lab_run"]);
    let describe = narrower.describe();
    assert!(
        describe.starts_with("lab_run: Answers, panics or sleeps"),
        "{describe}"
    );
    assert!(!describe.contains("hello"));
}

#[tokio::test]
async fn the_approver_guards_destructive_tools_only() {
    let (registry, probe) = lab();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let registry = registry.with_approver(
        move |request: ApprovalRequest| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move {
                if request.caller.as_deref() == Some("admin") {
                    Approval::Approve
                } else {
                    Approval::Decline("only an admin may wipe the lab".into())
                }
            }
        },
        Duration::from_secs(1),
    );
    let wipe = || ToolCall::new("w", "lab_wipe", json!({"confirm": true}));

    let result = registry.call(wipe(), &Context::default()).await;
    assert_eq!(
        result.text(),
        "refused\tdeclined\tthe call was declined: only an admin may wipe the lab"
    );
    assert_eq!(probe.entered.load(Ordering::SeqCst), 0);

    let admin = Context::new().with_caller("admin");
    assert_eq!(registry.call(wipe(), &admin).await.text(), "wiped: true");

    let before = asked.load(Ordering::SeqCst);
    registry.call(run("answer", 1), &Context::default()).await;
    assert_eq!(
        asked.load(Ordering::SeqCst),
        before,
        "a readonly tool waited on the approver"
    );
}

#[tokio::test]
async fn an_approver_that_does_not_answer_in_time_declines() {
    let (registry, probe) = lab();
    let registry = registry.with_approver(
        |_request: ApprovalRequest| async {
            tokio::time::sleep(Duration::from_secs(10)).await;
            Approval::Approve
        },
        Duration::from_millis(50),
    );
    let result = registry
        .call(
            ToolCall::new("w", "lab_wipe", json!({"confirm": true})),
            &Context::default(),
        )
        .await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "declined");
    assert!(
        refusal.message.contains("no approval came"),
        "{}",
        refusal.message
    );
    assert_eq!(probe.entered.load(Ordering::SeqCst), 0);
}

/// Says goodbye.
#[tool(name = "hello", readonly)]
async fn goodbye(name: String) -> String {
    format!("goodbye {name}")
}

/// Shouts.
#[tool(readonly)]
async fn shout(text: String) -> String {
    text.to_uppercase()
}

#[tokio::test]
async fn tools_are_added_replaced_in_place_removed_and_cleared() {
    let (registry, _) = lab();
    let mut changes = registry.subscribe();
    let ctx = Context::default();

    registry.add(Shout).unwrap();
    assert!(
        registry
            .add(Shout)
            .unwrap_err()
            .to_string()
            .contains("`shout`")
    );
    registry.replace(Goodbye).unwrap();
    assert_eq!(
        registry.names(),
        ["lab_run", "lab_slow", "lab_wipe", "hello", "shout"]
    );
    let result = registry
        .call(ToolCall::new("1", "hello", json!({"name": "a"})), &ctx)
        .await;
    assert_eq!(result.text(), "goodbye a");

    assert!(registry.remove("lab_slow"));
    assert!(!registry.remove("lab_slow"));
    assert_eq!(registry.names(), ["lab_run", "lab_wipe", "hello", "shout"]);
    registry.clear();
    assert!(registry.names().is_empty());

    let mut seen = Vec::new();
    while let Ok(change) = changes.try_recv() {
        seen.push(change);
    }
    assert_eq!(
        seen,
        [
            Change::Added(vec!["shout".into()]),
            Change::Replaced(vec!["hello".into()]),
            Change::Removed(vec!["lab_slow".into()]),
            Change::Cleared,
        ]
    );
}

#[tokio::test]
async fn merge_settles_collisions_by_policy() {
    let ours = || Registry::builder().tool(Hello).build().unwrap();
    let theirs = Registry::builder()
        .tool(Shout)
        .tool(Goodbye)
        .build()
        .unwrap();
    let ctx = Context::default();
    let hello = || ToolCall::new("1", "hello", json!({"name": "a"}));

    let registry = ours();
    assert!(registry.merge(&theirs, Collision::Error).is_err());
    assert_eq!(
        registry.names(),
        ["hello"],
        "a failed merge changes nothing"
    );

    let registry = ours();
    registry.merge(&theirs, Collision::Keep).unwrap();
    assert_eq!(registry.names(), ["hello", "shout"]);
    assert_eq!(registry.call(hello(), &ctx).await.text(), "hello a");

    let registry = ours();
    registry.merge(&theirs, Collision::Replace).unwrap();
    assert_eq!(registry.names(), ["hello", "shout"]);
    assert_eq!(registry.call(hello(), &ctx).await.text(), "goodbye a");
}

#[test]
fn a_merge_takes_no_tool_the_registry_s_providers_refuse() {
    // Made for MCP alone, a registry holds a name with a dot, which OpenAI's and Gemini's
    // names refuse: merged into a registry for every provider, it would be advertised to
    // them, and their exports would fail.
    let dotted = || {
        let schema = json!({"type": "object", "properties": {}});
        let schema = schema.as_object().unwrap().clone();
        tool_tests::Raw(tool_core::tool::ToolDefinition::new(
            "notes.read",
            "Reads.",
            schema,
        ))
    };
    let theirs = Registry::builder()
        .providers([tool_core::Provider::Mcp])
        .tool(dotted())
        .tool(Shout)
        .build()
        .unwrap();
    for policy in [Collision::Error, Collision::Replace, Collision::Keep] {
        let registry = Registry::builder().tool(Hello).build().unwrap();
        let error = registry.merge(&theirs, policy).unwrap_err();
        assert!(
            matches!(
                error,
                tool_core::registry::RegistryError::Unexportable { .. }
            ) && error.to_string().contains("notes.read"),
            "{policy:?}: {error}"
        );
        assert_eq!(
            registry.names(),
            ["hello"],
            "a refused merge changes nothing"
        );
    }
    // A registry for the providers `theirs` was made for takes it.
    let registry = Registry::builder()
        .providers([tool_core::Provider::Mcp])
        .tool(Hello)
        .build()
        .unwrap();
    registry.merge(&theirs, Collision::Keep).unwrap();
    assert_eq!(registry.names(), ["hello", "notes.read", "shout"]);
}

/// A handler's gate: it says when it has entered, and waits to be let out.
#[derive(Default)]
struct Gate {
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

/// Waits until told to finish.
#[tool(readonly)]
async fn gate_wait(ctx: &Context) -> String {
    let Some(gate) = ctx.get::<Arc<Gate>>() else {
        return "no gate".to_owned();
    };
    gate.entered.notify_one();
    gate.release.notified().await;
    "released".to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_call_holds_no_lock_that_blocks_a_writer() {
    let registry = Registry::builder().tool(GateWait).build().unwrap();
    let gate = Arc::new(Gate::default());
    let ctx = Context::new().with_extension(gate.clone());
    let running = {
        let registry = registry.clone();
        tokio::spawn(async move {
            registry
                .call(ToolCall::new("1", "gate_wait", json!({})), &ctx)
                .await
        })
    };
    tokio::time::timeout(Duration::from_secs(60), gate.entered.notified())
        .await
        .expect("the handler entered");
    // The handler is parked inside `call`; a writer must still get through, on a thread of
    // its own so that a lock the call held would be a timeout here, not a hung test.
    let writing = registry.clone();
    let writer = tokio::task::spawn_blocking(move || {
        writing.add(Shout).unwrap();
        writing.remove("shout")
    });
    let removed = tokio::time::timeout(Duration::from_secs(60), writer).await;
    assert_eq!(removed.ok().and_then(Result::ok), Some(true));
    assert_eq!(registry.definitions().len(), 1);
    gate.release.notify_one();
    assert_eq!(running.await.unwrap().text(), "released");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_never_see_a_half_applied_change() {
    let (registry, _) = lab();
    let writer = {
        let registry = registry.clone();
        tokio::spawn(async move {
            for _ in 0..200 {
                let other = Registry::builder()
                    .tool(Shout)
                    .tool(Goodbye)
                    .build()
                    .unwrap();
                registry.merge(&other, Collision::Replace).unwrap();
                registry.remove("shout");
                tokio::task::yield_now().await;
            }
        })
    };
    for _ in 0..200 {
        let definitions = registry.definitions();
        let names: Vec<_> = definitions.iter().map(|d| d.name.as_str()).collect();
        // Either before the merge, after it, or after the removal: never a mix.
        assert!(
            names == ["lab_run", "lab_slow", "lab_wipe", "hello"]
                || names == ["lab_run", "lab_slow", "lab_wipe", "hello", "shout"],
            "{names:?}"
        );
        tokio::task::yield_now().await;
    }
    writer.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_batch_stops_every_call_in_it() {
    let (registry, probe) = lab();
    let calls: Vec<_> = (0..50).map(|value| run("sleep", value)).collect();
    let ctx = Context::default();
    let mut batch = Box::pin(registry.call_all(calls, &ctx));
    // Polled once, the batch has spawned its calls, which run on without it.
    assert!(
        tokio::time::timeout(Duration::from_millis(50), &mut batch)
            .await
            .is_err()
    );
    assert!(
        tool_tests::until(|| probe.entered.load(Ordering::SeqCst) == 50).await,
        "{} of the 50 calls started",
        probe.entered.load(Ordering::SeqCst)
    );
    drop(batch);
    // Aborted tasks are dropped by the runtime shortly after the batch is.
    assert!(
        tool_tests::until(|| probe.live.load(Ordering::SeqCst) == 0).await,
        "a call outlived its batch"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_timeout_outranks_the_default_and_approval_is_not_the_tools_time() {
    let (registry, _) = lab();
    // lab_slow's own 100 ms applies, not the registry's shorter default.
    let registry = registry
        .with_default_timeout(Duration::from_millis(20))
        .with_approver(
            |_request: ApprovalRequest| async {
                tokio::time::sleep(Duration::from_millis(60)).await;
                Approval::Approve
            },
            Duration::from_secs(10),
        );
    let started = Instant::now();
    let result = registry
        .call(
            ToolCall::new("1", "lab_slow", json!({})),
            &Context::default(),
        )
        .await;
    assert_eq!(code(&result), "timed-out");
    assert!(started.elapsed() >= Duration::from_millis(100));

    // An approval that takes longer than the default timeout still lets the tool run.
    let result = registry
        .call(
            ToolCall::new("2", "lab_wipe", json!({"confirm": true})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.text(), "wiped: true");
}

/// Waits for the next turn of the runtime, so its first poll is pending.
#[tool(readonly)]
async fn yield_once() -> &'static str {
    tokio::task::yield_now().await;
    "yielded"
}

/// Asks a yes-or-no question.
#[tool(readonly)]
async fn ask_once(ctx: &Context) -> Result<String, tool_core::Refusal> {
    let answer = ctx.ask::<bool>("Go on?").await?;
    Ok(format!("{answer:?}"))
}

#[test]
fn a_runtime_without_timers_runs_calls_with_deadlines_and_questions_without_a_panic() {
    // A runtime built without `enable_time`: its timers panic if used, so a deadline there is
    // checked by the clock, as without a runtime.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let registry = Registry::builder()
        .tool(YieldOnce)
        .tool(AskOnce)
        .build()
        .unwrap()
        .with_default_timeout(Duration::from_secs(5));
    // Says yes to every question, after a turn of the runtime.
    let ctx = Context::new().with_asker(|_question| async {
        tokio::task::yield_now().await;
        let mut values = serde_json::Map::new();
        values.insert("value".into(), json!(true));
        Ok(tool_core::call::Reply::Accept(values))
    });
    let result = runtime.block_on(registry.call(ToolCall::new("1", "yield_once", json!({})), &ctx));
    assert_eq!(result.text(), "yielded");
    let result = runtime.block_on(registry.call(ToolCall::new("2", "ask_once", json!({})), &ctx));
    assert_eq!(result.text(), "Given(true)");
}

/// Forgets everything.
#[tool(destructive)]
async fn forget_all() -> &'static str {
    "forgotten"
}

#[test]
fn an_approval_timeout_too_long_for_the_clock_is_no_timeout_and_no_panic() {
    let registry = Registry::builder()
        .tool(ForgetAll)
        .build()
        .unwrap()
        .with_approver(
            |_request: ApprovalRequest| async { Approval::Approve },
            Duration::MAX,
        );
    let result = tool_tests::run(registry.call(
        ToolCall::new("1", "forget_all", json!({})),
        &Context::default(),
    ));
    assert_eq!(result.text(), "forgotten");
}

#[test]
fn without_timers_an_approver_past_its_timeout_is_a_decline_when_it_wakes() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    // An approver that never answers, but yields (and so wakes the call) again and again.
    let registry = Registry::builder()
        .tool(ForgetAll)
        .build()
        .unwrap()
        .with_approver(
            |_request: ApprovalRequest| async {
                for _ in 0..u64::MAX {
                    tokio::task::yield_now().await;
                }
                Approval::Approve
            },
            Duration::from_millis(50),
        );
    let started = Instant::now();
    let result = runtime.block_on(registry.call(
        ToolCall::new("1", "forget_all", json!({})),
        &Context::default(),
    ));
    let refusal = result.refusal().expect("declined");
    assert_eq!(refusal.code, tool_core::code::DECLINED, "{refusal}");
    assert!(started.elapsed() < Duration::from_secs(60));
}
