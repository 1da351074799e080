//! Calls that run as tasks: [`Registry::start`](crate::Registry::start) starts one and returns at once with a
//! [`TaskHandle`], through which the caller watches its status and progress, cancels it, and
//! reads its result, the very [`ToolResult`] [`Registry::call`](crate::Registry::call) would have given.
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

use crate::call::asker::{Asker, Question, Reply};
use crate::call::client::{Root, Sampled, SamplingRequest};
use crate::call::context::{CancellationToken, Context, Progress};
use crate::call::future::BoxFuture;
use crate::outcome::refusal::{Refusal, code};
use crate::outcome::result::ToolResult;

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

/// A call running as a task; see [`Registry::start`](crate::Registry::start). Cloning is cheap, and clones watch the
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

    /// The result, once the task has finished: what [`Registry::call`](crate::Registry::call) would have answered.
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

impl TaskHandle {
    /// Runs `call(ctx)` on `runtime` as the task `id` of the tool `name`: with a cancellation
    /// of its own (a child of `ctx`'s), progress kept for [`TaskHandle::progress`] (and passed
    /// on to `ctx`'s reporter), and `ctx`'s asker counted for [`TaskHandle::status`]. `slot`
    /// is given back once the call ends, before its result is seen.
    pub(crate) fn spawn<F>(
        runtime: &tokio::runtime::Handle,
        name: String,
        ctx: &Context,
        slot: TaskSlot,
        call: impl FnOnce(Context) -> F,
    ) -> TaskHandle
    where
        F: std::future::Future<Output = ToolResult> + Send + 'static,
    {
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
            id: format!("task-{}", slot.counts.next_id()),
            name,
            cancel,
            progress,
            questions,
            result,
        });
        let running = call(task_ctx);
        runtime.spawn(async move {
            let result = running.await;
            // The slot is free before the result is seen, so a caller that waited for this
            // task may start the next one at once.
            drop(slot);
            finished.send_replace(Some(result));
        });
        TaskHandle { state }
    }
}

/// How many tasks each caller has running, shared by a registry's clones and views.
#[derive(Clone, Default)]
pub(crate) struct TaskCounts {
    counts: Arc<Mutex<HashMap<Option<Arc<str>>, usize>>>,
    ids: Arc<AtomicU64>,
}

impl TaskCounts {
    /// A slot for one more task of `caller`, unless it has `limit` running.
    pub(crate) fn take(&self, caller: Option<&str>, limit: usize) -> Option<TaskSlot> {
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
        Some(TaskSlot {
            counts: self.clone(),
            caller,
        })
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// One running task's place in its caller's count, given back when the task ends (or its
/// future is dropped).
pub(crate) struct TaskSlot {
    counts: TaskCounts,
    caller: Option<Arc<str>>,
}

impl Drop for TaskSlot {
    fn drop(&mut self) {
        let mut counts = self
            .counts
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

impl Watched {
    /// Waits for `asked`, counted as a question the whole time.
    fn counted<'a, T: 'a>(
        &'a self,
        asked: BoxFuture<'a, Result<T, Refusal>>,
    ) -> BoxFuture<'a, Result<T, Refusal>> {
        Box::pin(async move {
            self.questions.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(&self.questions);
            asked.await
        })
    }
}

impl Asker for Watched {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        self.counted(self.asker.ask(question))
    }

    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        self.counted(self.asker.sample(request))
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        self.counted(self.asker.roots())
    }

    fn offers(&self) -> crate::call::asker::Offers {
        self.asker.offers()
    }
}

/// A question being waited on, counted off when the wait ends however it ends.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
