//! Calls that run as tasks: [`Registry::start`] starts one and returns at once with a
//! [`TaskHandle`], through which the caller watches its status and progress, cancels it, and
//! reads its result, the very [`ToolResult`] [`Registry::call`] would have given.
//!
//! A task is a call run on the tokio runtime it was started on: it goes the same way through
//! the registry (grant, size, approver, deadline, leniency) and ends the same ways. Cancelling
//! it ends its handler at the handler's next `.await`. Only tools marked `#[tool(task)]` run as
//! tasks, and each caller may have only so many running at once (see
//! [`Registry::with_task_limit`]); past that, starting another is refused at once, never
//! queued. Dropping every handle does not stop a task: it runs to its end, as a task a
//! transport holds for a client that will come back for it.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::watch;

use crate::ask::{Asker, Question, Reply};
use crate::call::ToolCall;
use crate::context::{CancellationToken, Context, Progress};
use crate::refusal::{Refusal, code};
use crate::registry::Registry;
use crate::result::ToolResult;
use crate::tool::BoxFuture;

/// Where a task is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// Its handler is running.
    Working,
    /// Its handler is waiting for the answer to a question it asked (see
    /// [`Context::ask`](crate::Context::ask)).
    InputRequired,
    /// It finished with an output.
    Completed,
    /// It finished with a refusal other than `cancelled` (its result says which).
    Failed,
    /// It was cancelled, and its handler stopped.
    Cancelled,
}

impl TaskStatus {
    /// Whether the task has finished: its result is there to read and nothing more runs.
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }

    /// The status as MCP's tasks extension writes it: `working`, `input_required`,
    /// `completed`, `failed`, `cancelled`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    fn of(result: &ToolResult) -> TaskStatus {
        match &result.outcome {
            Ok(_) => TaskStatus::Completed,
            Err(refusal) if refusal.code == code::CANCELLED => TaskStatus::Cancelled,
            Err(_) => TaskStatus::Failed,
        }
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A call running as a task; see [`Registry::start`]. Cloning is cheap, and clones watch the
/// same task.
#[derive(Clone)]
pub struct TaskHandle {
    state: Arc<State>,
}

struct State {
    id: String,
    name: String,
    cancel: CancellationToken,
    progress: Arc<Mutex<Option<Progress>>>,
    /// How many questions the handler is waiting on.
    questions: Arc<AtomicUsize>,
    /// `Some` once the task has finished; closed without a value if the runtime dropped it.
    result: watch::Receiver<Option<ToolResult>>,
}

impl TaskHandle {
    /// The task's id, unique within its registry (and its clones and views).
    pub fn id(&self) -> &str {
        &self.state.id
    }

    /// The name of the tool the task runs.
    pub fn name(&self) -> &str {
        &self.state.name
    }

    /// Where the task is now.
    pub fn status(&self) -> TaskStatus {
        let result = self.state.result.borrow();
        match &*result {
            Some(result) => TaskStatus::of(result),
            None if self.state.result.has_changed().is_err() => TaskStatus::Failed,
            None if self.state.questions.load(Ordering::SeqCst) > 0 => TaskStatus::InputRequired,
            None => TaskStatus::Working,
        }
    }

    /// The last progress the handler reported (see [`Context::progress`]), if any.
    pub fn progress(&self) -> Option<Progress> {
        self.state
            .progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Cancels the task: its handler stops at its next `.await`, and its result is a
    /// `cancelled` refusal. A task that has finished keeps its result.
    pub fn cancel(&self) {
        self.state.cancel.cancel();
    }

    /// The result, once the task has finished: what [`Registry::call`] would have answered.
    /// Waits for it; cancel the task (or drop this future) to stop waiting.
    pub async fn result(&self) -> ToolResult {
        let mut result = self.state.result.clone();
        match result.wait_for(Option::is_some).await {
            Ok(finished) => match &*finished {
                Some(result) => result.clone(),
                None => self.lost(),
            },
            Err(_) => self.lost(),
        }
    }

    /// The result if the task has finished, without waiting.
    pub fn try_result(&self) -> Option<ToolResult> {
        match &*self.state.result.borrow() {
            Some(result) => Some(result.clone()),
            None if self.state.result.has_changed().is_err() => Some(self.lost()),
            None => None,
        }
    }

    /// The answer for a task its runtime dropped before it finished (the runtime shut down).
    fn lost(&self) -> ToolResult {
        ToolResult {
            id: String::new(),
            name: self.state.name.clone(),
            outcome: Err(Refusal::new(
                code::INTERNAL,
                "the task was stopped before it finished, as its runtime shut down; start it again",
            )),
            notes: Vec::new(),
        }
    }
}

impl fmt::Debug for TaskHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskHandle")
            .field("id", &self.state.id)
            .field("name", &self.state.name)
            .field("status", &self.status())
            .finish()
    }
}

impl Registry {
    /// Starts `call` as a task and returns its handle at once; the call runs on the current
    /// tokio runtime, with `ctx` as it would with [`Registry::call`], but with its own
    /// cancellation (a child of `ctx`'s: cancelling `ctx` cancels the task too).
    ///
    /// Refused, with nothing started, when the tool is unknown or not granted (the refusal a
    /// call would get), when it is not marked `#[tool(task)]` (`bad-call`), when the caller
    /// has used its budget of calls ([`Registry::with_rate_limit`]: `rate-limited`, and the
    /// task's call takes nothing more from it), when it already has as many tasks running as
    /// [`Registry::with_task_limit`] allows (`too-many-tasks`), or when there is no tokio
    /// runtime to run on (`internal`).
    ///
    /// ```
    /// use tool_core::{tool, Context, Registry, TaskStatus, ToolCall};
    ///
    /// /// Exports every note, slowly.
    /// #[tool(task)]
    /// async fn export(ctx: &Context) -> String {
    ///     ctx.progress(1.0, Some(1.0), Some("exported"));
    ///     "1 note".to_owned()
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let registry = Registry::builder().tool(Export).build().unwrap();
    /// let task = registry
    ///     .start(ToolCall::new("1", "export", serde_json::json!({})), &Context::default())
    ///     .unwrap();
    /// assert_eq!(task.result().await.text(), "1 note");
    /// assert_eq!(task.status(), TaskStatus::Completed);
    /// assert_eq!(task.progress().unwrap().message.as_deref(), Some("exported"));
    /// # });
    /// ```
    pub fn start(&self, call: ToolCall, ctx: &Context) -> Result<TaskHandle, Refusal> {
        let definition = self.reachable(&call.name).map_err(|mut refusal| {
            refusal.forget_maker();
            refusal
        })?;
        if !definition.runs_as_task() {
            return Err(Refusal::new(
                code::BAD_CALL,
                format!(
                    "`{}` does not run as a task; call it directly (its tool is not marked \
                     #[tool(task)])",
                    definition.name
                ),
            ));
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return Err(Refusal::new(
                code::INTERNAL,
                "a task needs a tokio runtime to run on; start it from within one",
            ));
        };
        let (running, limit) = self.tasks();
        let slot = running.take(ctx.caller(), limit).ok_or_else(|| {
            Refusal::new(
                code::TOO_MANY_TASKS,
                format!(
                    "this caller already has {limit} tasks running, as many as one caller may \
                     have; wait for one to finish, or cancel one, then start this again"
                ),
            )
        })?;
        // The budget is taken when the task starts, so that a caller over it hears so at
        // once rather than in the task's result, and only by a start nothing else refuses
        // (the slot is given back if it is refused); the task's own call takes none again.
        self.take_from_budget(ctx, &definition.name)?;

        let cancel = ctx.cancellation().child_token();
        let progress = Arc::new(Mutex::new(None));
        let questions = Arc::new(AtomicUsize::new(0));
        let latest = progress.clone();
        let listener = ctx.clone();
        let mut task_ctx =
            ctx.clone()
                .with_cancellation(cancel.clone())
                .with_progress(move |report: Progress| {
                    listener.progress(report.done, report.total, report.message.as_deref());
                    *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(report);
                });
        if let Some(asker) = ctx.asker() {
            task_ctx = task_ctx.with_asker_arc(Arc::new(Watched {
                asker: asker.clone(),
                questions: questions.clone(),
            }));
        }
        let (finished, result) = watch::channel(None);
        let state = Arc::new(State {
            id: format!("task-{}", running.next_id()),
            name: definition.name,
            cancel,
            progress,
            questions,
            result,
        });
        let registry = self.without_budget();
        runtime.spawn(async move {
            let result = registry.call(call, &task_ctx).await;
            // The slot is free before the result is seen, so a caller that waited for this
            // task may start the next one at once.
            drop(slot);
            finished.send_replace(Some(result));
        });
        Ok(TaskHandle { state })
    }
}

/// The running tasks of each caller, shared by a registry's clones and views.
#[derive(Clone, Default)]
pub(crate) struct Running {
    counts: Arc<Mutex<HashMap<Option<Arc<str>>, usize>>>,
    ids: Arc<AtomicU64>,
}

impl Running {
    /// A slot for one more task of `caller`, unless it has `limit` running.
    fn take(&self, caller: Option<&str>, limit: usize) -> Option<Slot> {
        let caller: Option<Arc<str>> = caller.map(Arc::from);
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let count = counts.entry(caller.clone()).or_insert(0);
        if *count >= limit {
            if *count == 0 {
                counts.remove(&caller);
            }
            return None;
        }
        *count += 1;
        Some(Slot {
            running: self.clone(),
            caller,
        })
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// One running task's place in its caller's count, given back when the task ends (or its
/// future is dropped).
struct Slot {
    running: Running,
    caller: Option<Arc<str>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self
            .running
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.caller) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.caller);
            }
        }
    }
}

/// The host's asker, counting the questions a task waits on, so its status can say so.
struct Watched {
    asker: Arc<dyn Asker>,
    questions: Arc<AtomicUsize>,
}

impl Asker for Watched {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            self.questions.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(&self.questions);
            self.asker.ask(question).await
        })
    }
}

/// A question being waited on, counted off when the wait ends however it ends.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
