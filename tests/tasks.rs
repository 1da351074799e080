//! Calls run as tasks, in process: a task gives what a direct call gives, shows its progress
//! and its questions while it runs, stops at its next `.await` when cancelled, and each caller
//! may have only so many running, past which starting one is refused at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_core::call::Reply;
use tool_core::run::TaskStatus;
use tool_core::{Answer, Context, Refusal, Registry, TaskHandle, ToolCall, code, tool};

/// What a test sees of the export's handler: how many steps it took, and whether it ended
/// (finished, or dropped by cancellation).
#[derive(Default)]
struct Seen {
    steps: AtomicUsize,
    ended: AtomicBool,
}

struct Ended(Arc<Seen>);

impl Drop for Ended {
    fn drop(&mut self) {
        self.0.ended.store(true, Ordering::SeqCst);
    }
}

/// Exports `count` notes, one every `pace_ms`, reporting progress.
#[tool(task, readonly)]
async fn note_export(count: u32, pace_ms: u64, ctx: &Context) -> Result<String, Refusal> {
    let seen = ctx.get::<Arc<Seen>>().cloned().unwrap_or_default();
    let _ended = Ended(seen.clone());
    for step in 1..=count {
        tokio::time::sleep(Duration::from_millis(pace_ms)).await;
        seen.steps.fetch_add(1, Ordering::SeqCst);
        ctx.progress(f64::from(step), Some(f64::from(count)), Some("exporting"));
    }
    Ok(format!("exported {count} notes"))
}

/// Counts the notes, at once; not a task.
#[tool(readonly)]
async fn note_count() -> String {
    "0 notes".to_owned()
}

/// Asks whether to go on before it exports.
#[tool(task)]
async fn note_purge(ctx: &Context) -> Result<String, Refusal> {
    match ctx.ask::<bool>("Purge every note?").await? {
        Answer::Given(true) => Ok("purged".to_owned()),
        _ => Ok("kept".to_owned()),
    }
}

fn registry() -> Registry {
    Registry::builder()
        .tool(NoteExport)
        .tool(NoteCount)
        .tool(NotePurge)
        .build()
        .unwrap()
}

fn export(count: u32, pace_ms: u64) -> ToolCall {
    ToolCall::new(
        "1",
        "note_export",
        json!({"count": count, "pace_ms": pace_ms}),
    )
}

/// Polls `task` until it has finished, as a client polls `tasks/get`.
async fn poll(task: &TaskHandle) -> TaskStatus {
    for _ in 0..500 {
        let status = task.status();
        if status.is_finished() {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task did not finish: {task:?}");
}

#[tokio::test]
async fn a_task_polled_to_completion_gives_what_a_direct_call_gives() {
    let registry = registry();
    let ctx = Context::new();
    let task = registry.start(export(3, 5), &ctx).unwrap();
    assert_eq!(task.name(), "note_export");
    assert_eq!(poll(&task).await, TaskStatus::Completed);
    let polled = task.try_result().expect("a finished task has its result");
    let direct = registry.call(export(3, 5), &ctx).await;
    assert_eq!(polled.text(), "exported 3 notes");
    assert_eq!(polled.text(), direct.text());
    assert_eq!(polled, direct, "the same ToolResult, id and all");
    assert_eq!(
        task.result().await,
        direct,
        "reading it again gives it again"
    );
}

#[tokio::test]
async fn a_refused_task_gives_the_refusal_a_direct_call_gives() {
    let registry = registry();
    let bad = ToolCall::new("1", "note_export", json!({"count": "three"}));
    let task = registry.start(bad.clone(), &Context::new()).unwrap();
    assert_eq!(poll(&task).await, TaskStatus::Failed);
    let direct = registry.call(bad, &Context::new()).await;
    assert_eq!(task.result().await.text(), direct.text());
    assert_eq!(direct.refusal().unwrap().code, code::BAD_ARGUMENTS);
}

#[tokio::test]
async fn progress_is_seen_while_the_task_runs() {
    let registry = registry();
    let heard = Arc::new(AtomicUsize::new(0));
    let listener = heard.clone();
    let ctx = Context::new().with_progress(move |_| {
        listener.fetch_add(1, Ordering::SeqCst);
    });
    let task = registry.start(export(20, 10), &ctx).unwrap();
    let mut seen_midway = None;
    for _ in 0..500 {
        if let Some(progress) = task.progress()
            && progress.total.is_some_and(|total| progress.done < total)
        {
            seen_midway = Some((progress, task.status()));
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let (progress, status) = seen_midway.expect("progress was seen before the end");
    assert_eq!(status, TaskStatus::Working);
    assert_eq!(progress.total, Some(20.0));
    assert_eq!(progress.message.as_deref(), Some("exporting"));
    task.result().await;
    assert_eq!(task.progress().unwrap().done, 20.0);
    assert_eq!(
        heard.load(Ordering::SeqCst),
        20,
        "the host's own listener heard every report too"
    );
}

#[tokio::test]
async fn cancelling_a_task_ends_its_handler_at_its_next_await() {
    let registry = registry();
    let seen = Arc::new(Seen::default());
    let ctx = Context::new().with_extension(seen.clone());
    let task = registry.start(export(1000, 10), &ctx).unwrap();
    let started = async {
        while seen.steps.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), started)
        .await
        .expect("the export took its first steps");
    task.cancel();
    let result = tokio::time::timeout(Duration::from_secs(60), task.result())
        .await
        .expect("a cancelled task ends at once");
    assert_eq!(result.refusal().unwrap().code, code::CANCELLED);
    assert_eq!(task.status(), TaskStatus::Cancelled);
    assert!(seen.ended.load(Ordering::SeqCst), "the handler was dropped");
    let stopped_at = seen.steps.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert_eq!(
        seen.steps.load(Ordering::SeqCst),
        stopped_at,
        "the handler took no step after it was cancelled"
    );
    assert!(stopped_at < 1000);
}

#[tokio::test]
async fn cancelling_the_context_cancels_its_tasks() {
    let registry = registry();
    let ctx = Context::new();
    let task = registry.start(export(1000, 10), &ctx).unwrap();
    ctx.cancellation().cancel();
    assert_eq!(poll(&task).await, TaskStatus::Cancelled);
}

#[tokio::test]
async fn each_caller_may_have_only_so_many_tasks_running_and_one_more_is_refused() {
    let registry = Registry::builder()
        .tool(NoteExport)
        .build()
        .unwrap()
        .with_task_limit(2);
    let alice = Context::new().with_caller("alice");
    let first = registry.start(export(1000, 10), &alice).unwrap();
    let second = registry.start(export(1000, 10), &alice).unwrap();
    assert_ne!(first.id(), second.id());
    let refused = registry.start(export(1, 1), &alice).unwrap_err();
    assert_eq!(refused.code, code::TOO_MANY_TASKS);
    assert_eq!(
        refused.message,
        "this caller already has 2 tasks running, as many as one caller may have; wait for one \
         to finish, or cancel one, then start this again"
    );

    let bob = Context::new().with_caller("bob");
    let bobs = registry.start(export(1, 1), &bob).unwrap();
    assert_eq!(bobs.result().await.text(), "exported 1 notes");

    first.cancel();
    first.result().await;
    let third = registry.start(export(1, 1), &alice).unwrap();
    assert_eq!(third.result().await.text(), "exported 1 notes");
    second.cancel();
    second.result().await;
}

#[tokio::test]
async fn the_bound_is_settable_on_a_registry_and_its_default_is_documented() {
    let registry = registry().with_task_limit(0);
    let refused = registry.start(export(1, 1), &Context::new()).unwrap_err();
    assert_eq!(refused.code, code::TOO_MANY_TASKS);
    assert_eq!(tool_core::registry::DEFAULT_TASK_LIMIT, 16);
    let plenty = registry.with_task_limit(tool_core::registry::DEFAULT_TASK_LIMIT);
    let tasks: Vec<TaskHandle> = (0..16)
        .map(|_| plenty.start(export(1000, 10), &Context::new()).unwrap())
        .collect();
    let refused = plenty.start(export(1, 1), &Context::new()).unwrap_err();
    assert_eq!(refused.code, code::TOO_MANY_TASKS);
    for task in &tasks {
        task.cancel();
    }
}

#[tokio::test]
async fn only_a_tool_marked_task_runs_as_one_and_nothing_else_starts() {
    let registry = registry();
    let plain = registry
        .start(ToolCall::new("1", "note_count", json!({})), &Context::new())
        .unwrap_err();
    assert_eq!(plain.code, code::BAD_CALL);
    assert!(
        plain.message.contains("not marked #[tool(task)]"),
        "{plain}"
    );
    let unknown = registry
        .start(ToolCall::new("1", "note_exprt", json!({})), &Context::new())
        .unwrap_err();
    assert_eq!(unknown.code, code::UNKNOWN_TOOL);
    assert!(
        unknown.message.contains("did you mean `note_export`"),
        "{unknown}"
    );
    assert!(registry.definitions()[0].runs_as_task());
    assert!(!registry.definitions()[1].runs_as_task());
}

#[tokio::test]
async fn a_task_waiting_for_an_answer_is_input_required_until_it_comes() {
    let (answer, answered) = tokio::sync::oneshot::channel::<Reply>();
    let answered = Arc::new(tokio::sync::Mutex::new(Some(answered)));
    let ctx = Context::new().with_asker(move |_question| {
        let answered = answered.clone();
        async move {
            match answered.lock().await.take() {
                Some(answered) => answered
                    .await
                    .map_err(|_| Refusal::new(code::CANNOT_ASK, "nobody answered")),
                None => Ok(Reply::Decline),
            }
        }
    });
    let registry = registry();
    let task = registry
        .start(ToolCall::new("1", "note_purge", json!({})), &ctx)
        .unwrap();
    let mut waited = false;
    for _ in 0..500 {
        if task.status() == TaskStatus::InputRequired {
            waited = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert!(waited, "the task said it waits for an answer");
    let mut yes = serde_json::Map::new();
    yes.insert("value".into(), true.into());
    answer.send(Reply::Accept(yes)).unwrap();
    assert_eq!(poll(&task).await, TaskStatus::Completed);
    assert_eq!(task.result().await.text(), "purged");
}

#[test]
fn without_a_runtime_a_task_is_refused_not_a_panic() {
    let refused = registry().start(export(1, 1), &Context::new()).unwrap_err();
    assert_eq!(refused.code, code::INTERNAL);
}

#[test]
fn the_mcp_export_marks_a_task_tool_as_optionally_a_task() {
    let exported = registry().export(tool_core::Provider::Mcp).unwrap();
    assert_eq!(exported[0]["execution"], json!({"taskSupport": "optional"}));
    assert_eq!(exported[1].get("execution"), None);
}
