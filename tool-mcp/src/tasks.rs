//! Calls of `#[tool(task)]` tools as tasks of MCP's tasks extension
//! (`io.modelcontextprotocol/tasks`, 2026-07-28): a `tools/call` from a client that declares
//! the extension is answered at once with a `CreateTaskResult`, the call runs on as a
//! [`TaskHandle`] (so the registry's bound on each caller's tasks holds), and `tasks/get`,
//! `tasks/update` and `tasks/cancel` reach it through rmcp's [`TaskManager`], which keeps each
//! task's state, its questions and its result until its time to live has passed.
//!
//! Each task's state is also written to a [`TaskStore`] (in memory unless the server is given
//! one), which is how a replica that does not run a task answers `tasks/*` for it: the replica
//! running the task writes its state there whenever it changes, and every
//! [`MIRROR_EVERY`] reads what other replicas left for it (answers, a request to cancel). A
//! replica answers for the tasks it runs from its own memory, and for the others from the store.
//!
//! A task belongs to whoever started it: over HTTP the session (`Mcp-Session-Id`) and the
//! caller the host named, over one stdio connection that connection (each has its own tasks).
//! Any other asker of a task's id gets the very error an unknown id gets, so an id says
//! nothing of whether it exists. The handler's progress shows as the task's `statusMessage`,
//! since the extension carries no progress notifications for tasks; its questions
//! ([`Context::ask`](tool_core::Context::ask)) become the task's `inputRequests`, answered with
//! `tasks/update`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult, InputRequest, InputResponses,
    TaskPayload,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde_json::{Value, json};
use tokio::sync::watch;
use tool_core::{
    Asker, BoxFuture, Context, Progress, Question, Refusal, Registry, Reply, TaskHandle,
    TaskStatus, ToolCall, ToolResult, code,
};

use crate::server::HttpRequestParts;
use crate::store::{MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError};

/// How often the replica running a task writes its changed state to the store and reads the
/// answers and cancellation left for it. Polling rather than Redis pub/sub: a poll needs no
/// subscription to restore after Redis comes back, and a task's client polls at about this
/// pace anyway.
const MIRROR_EVERY: Duration = Duration::from_millis(100);

/// How often the replica running a task rewrites its record even when nothing changed, so that
/// other replicas can tell it is still there.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a running task's record may go unwritten before other replicas answer that the
/// replica running it has stopped: several heartbeats, so that a slow Redis write or a little
/// clock skew between machines does not fail a task that is running.
const STOPPED_AFTER: Duration = Duration::from_secs(5);

/// How long a task's result is kept after it finishes (and how long it may run), unless the
/// server is told otherwise: rmcp's default, five minutes, long enough for a client that polls
/// every second or so to come back for it, short enough that abandoned results do not pile up.
pub const DEFAULT_TASK_TTL: Duration =
    Duration::from_millis(rmcp::task_manager::DEFAULT_TASK_TTL_MS);

/// The tasks of one server: shared by the clones that serve HTTP sessions and requests, fresh
/// for each stdio connection.
#[derive(Clone)]
pub(crate) struct Tasks {
    manager: TaskManager,
    owned: Arc<Mutex<HashMap<String, Owned>>>,
    ttl: Duration,
    store: Arc<dyn TaskStore>,
    /// Whether `store` is shared with other servers (and so with every connection).
    shared: bool,
}

/// A task as this server knows it: who may see it, its handle, for its progress, and when it
/// started, after which the manager drops it within two times to live (one to run, one to keep
/// its result).
struct Owned {
    owner: Owner,
    handle: TaskHandle,
    started: Instant,
}

/// Who started a task: the HTTP session and the caller the host named, either or both absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    session: Option<String>,
    caller: Option<String>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            manager: TaskManager::new(),
            owned: Arc::default(),
            ttl: DEFAULT_TASK_TTL,
            store: Arc::new(MemoryTaskStore::default()),
            shared: false,
        }
    }
}

impl Tasks {
    /// An empty store with the same settings, for a connection of its own: its tasks are
    /// kept in memory even when the server has a shared store, as no other connection or
    /// replica may reach them.
    pub(crate) fn fresh(&self) -> Tasks {
        Tasks {
            ttl: self.ttl,
            ..Tasks::default()
        }
    }

    /// The same settings, keeping the state of tasks in `store`, shared with other servers.
    pub(crate) fn with_store(mut self, store: Arc<dyn TaskStore>) -> Tasks {
        self.store = store;
        self.shared = true;
        self
    }

    /// The store, if it is shared with other servers: only then is what a caller found kept
    /// in it, as one process already shares its callers' sessions in memory.
    pub(crate) fn shared_store(&self) -> Option<&dyn TaskStore> {
        self.shared.then_some(self.store.as_ref())
    }

    /// The same store, keeping results for `ttl`.
    pub(crate) fn with_ttl(mut self, ttl: Duration) -> Tasks {
        self.ttl = ttl;
        self
    }

    /// Whether this call is to run as a task: its tool is marked `#[tool(task)]` and the
    /// request declares the tasks extension (a client that does not cannot read a task).
    pub(crate) fn wanted(
        &self,
        registry: &Registry,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> bool {
        context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks())
            && registry
                .definitions()
                .iter()
                .any(|definition| definition.name == name && definition.runs_as_task())
    }

    /// Starts `call` as a task of `owner` and answers with its `CreateTaskResult`; a call the
    /// registry will not start (the caller's bound reached, say) is answered as a direct call
    /// would be, with the refusal as an `isError` result.
    pub(crate) async fn start(
        &self,
        registry: &Registry,
        call: ToolCall,
        ctx: Context,
        owner: Owner,
    ) -> Result<CallToolResponse, McpError> {
        self.forget_dropped();
        if self.shared {
            self.store.ready().await.map_err(|error| {
                unreachable_store(&error, "the task was not started; call the tool again")
            })?;
        }
        let (found, asked) = watch::channel(None);
        let ctx = ctx.with_asker(InTask {
            task: asked,
            keys: AtomicU64::new(0),
        });
        let handle = match registry.start(call.clone(), &ctx) {
            Ok(handle) => handle,
            Err(refusal) => {
                let refused = ToolResult {
                    id: call.id,
                    name: call.name,
                    outcome: Err(refusal),
                    notes: Vec::new(),
                };
                return crate::convert::call_tool_result(&refused).map(CallToolResponse::from);
            }
        };
        let ttl_ms = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let running = handle.clone();
        let task = self
            .manager
            .spawn(TaskOptions::new().with_ttl_ms(ttl_ms), move |context| {
                found.send_replace(Some(context.clone()));
                Box::pin(run(running, context))
            });
        let id = task.task_id.clone();
        self.owned
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                id.clone(),
                Owned {
                    owner: owner.clone(),
                    handle: handle.clone(),
                    started: Instant::now(),
                },
            );
        // Written before the client learns the id, so that any replica it asks knows it.
        let written = match self.manager.get_task(&id) {
            Ok(detailed) => {
                let record = record_of(&owner, &detailed, &handle);
                let written = self
                    .store
                    .put(&id, &record, self.ttl.saturating_mul(2))
                    .await;
                written.map(|()| record.task)
            }
            Err(error) => Err(TaskStoreError::new(error.message)),
        };
        match written {
            Ok(written) => {
                tokio::spawn(mirror(self.clone(), id, handle, written));
                Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
            }
            Err(error) => {
                // No other replica could see the task: it is stopped, not left running unseen.
                // Rare, as the store answered just before the task started.
                handle.cancel();
                let _ = self.manager.cancel_task(&id);
                self.owned
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&id);
                Err(unreachable_store(
                    &error,
                    "the task was stopped as it started; call the tool again",
                ))
            }
        }
    }

    /// `tasks/get`: the task's state, its latest progress as its status message; from this
    /// server's memory when it runs the task, else from the store.
    pub(crate) async fn get(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, McpError> {
        match self.local(id, owner)? {
            true => self.get_local(id, owner),
            false => self.get_stored(id, owner).await,
        }
    }

    /// Whether this server runs task `id` (and `owner` may see it); an error if it runs it
    /// for someone else.
    fn local(&self, id: &str, owner: &Owner) -> Result<bool, McpError> {
        let owned = self.owned.lock().unwrap_or_else(PoisonError::into_inner);
        match owned.get(id) {
            Some(task) if task.owner == *owner => Ok(true),
            Some(_) => Err(unknown(id)),
            None => Ok(false),
        }
    }

    /// The state of a task another server runs, as it last wrote it to the store.
    async fn get_stored(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, McpError> {
        let record = self
            .store
            .get(id)
            .await
            .map_err(|error| unreachable_store(&error, "call again once it is back"))?;
        let Some(record) = record
            .filter(|record| record.session == owner.session && record.caller == owner.caller)
        else {
            return Err(unknown(id));
        };
        let stale = now_ms().saturating_sub(record.written_ms) > millis(STOPPED_AFTER);
        let detailed: DetailedTask = serde_json::from_value(record.task).map_err(|error| {
            McpError::internal_error(
                format!(
                    "the stored state of task `{}` cannot be read ({error}); do all replicas \
                     run the same version of the server?",
                    shortened(id)
                ),
                None,
            )
        })?;
        if stale && !detailed.status().is_terminal() {
            return Ok(GetTaskResult::new(stopped(detailed)));
        }
        Ok(GetTaskResult::new(detailed))
    }

    fn get_local(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, McpError> {
        let mut owned = self.owned.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(task) = owned.get(id).filter(|task| task.owner == *owner) else {
            return Err(unknown(id));
        };
        let mut detailed = match self.manager.get_task(id) {
            Ok(detailed) => detailed,
            Err(_) => {
                owned.remove(id);
                return Err(self.expired(id));
            }
        };
        if !detailed.status().is_terminal()
            && let Some(progress) = task.handle.progress()
        {
            detailed.task.status_message = Some(said(&progress));
        }
        Ok(GetTaskResult::new(detailed))
    }

    /// `tasks/update`: answers to the task's questions. A task that has finished takes none,
    /// and says so, where the extension would let them be ignored: a client answering a
    /// finished task has lost track of it.
    pub(crate) async fn update(
        &self,
        id: &str,
        answers: InputResponses,
        owner: &Owner,
    ) -> Result<(), McpError> {
        let status = self.get(id, owner).await?.task.status();
        if status.is_terminal() {
            let status = serde_json::to_value(status).unwrap_or(Value::Null);
            return Err(McpError::invalid_params(
                format!(
                    "task `{}` has finished ({}) and takes no more answers; read its result \
                     with tasks/get",
                    shortened(id),
                    status.as_str().unwrap_or("finished")
                ),
                None,
            ));
        }
        if self.local(id, owner)? {
            return self.manager.update_task(id, answers);
        }
        let answers = answers.into_iter().collect();
        self.store
            .answer(id, answers, self.ttl.saturating_mul(2))
            .await
            .map_err(|error| unreachable_store(&error, "send the answers again once it is back"))
    }

    /// `tasks/cancel`: asks the task to stop; its handler ends at its next `.await`.
    pub(crate) async fn cancel(&self, id: &str, owner: &Owner) -> Result<(), McpError> {
        self.get(id, owner).await?;
        if self.local(id, owner)? {
            return self.manager.cancel_task(id);
        }
        self.store
            .cancel(id, self.ttl.saturating_mul(2))
            .await
            .map_err(|error| unreachable_store(&error, "cancel again once it is back"))
    }

    /// Forgets the tasks the manager has dropped for certain (two times to live after they
    /// started), so that what is kept here does not outlive them; one asked for in between is
    /// forgotten when the manager says it is gone.
    fn forget_dropped(&self) {
        let kept = self.ttl.saturating_mul(2);
        let mut owned = self.owned.lock().unwrap_or_else(PoisonError::into_inner);
        owned.retain(|_, task| task.started.elapsed() <= kept);
    }

    fn expired(&self, id: &str) -> McpError {
        McpError::invalid_params(
            format!(
                "task `{}` is gone: its result was dropped once its time to live ({} ms) had \
                 passed; call the tool again to start a new task",
                shortened(id),
                self.ttl.as_millis()
            ),
            None,
        )
    }
}

impl Owner {
    /// Who is asking, as a request says: its HTTP session, and the caller the host named.
    pub(crate) fn of(context: &RequestContext<RoleServer>, caller: Option<String>) -> Owner {
        let session = context
            .extensions
            .get::<HttpRequestParts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        Owner { session, caller }
    }
}

/// The error for a `tasks/*` request whose params rmcp could not read (no `taskId`, say),
/// saying what to send, where rmcp would answer "method not found" of a method it has; `None`
/// for other methods.
pub(crate) fn unreadable(method: &str) -> Option<McpError> {
    let expected = match method {
        "tasks/get" | "tasks/cancel" => r#"{"taskId": "..."}"#,
        "tasks/update" => r#"{"taskId": "...", "inputResponses": {...}}"#,
        _ => return None,
    };
    Some(McpError::invalid_params(
        format!("Invalid params: {method} takes {expected}"),
        None,
    ))
}

/// The error for a task call the store could not serve, saying what to do.
fn unreachable_store(error: &TaskStoreError, then: &str) -> McpError {
    McpError::internal_error(
        format!(
            "the task store cannot be reached: {error}; {then}. Plain tool calls are not \
             affected"
        ),
        None,
    )
}

/// A task's state as the store keeps it, with its latest progress as its status message.
fn record_of(owner: &Owner, detailed: &DetailedTask, handle: &TaskHandle) -> TaskRecord {
    let mut detailed = detailed.clone();
    if !detailed.status().is_terminal()
        && let Some(progress) = handle.progress()
    {
        detailed.task.status_message = Some(said(&progress));
    }
    TaskRecord {
        session: owner.session.clone(),
        caller: owner.caller.clone(),
        task: serde_json::to_value(&detailed).unwrap_or(Value::Null),
        written_ms: now_ms(),
    }
}

/// A task whose replica stopped before it finished, as it reads from then on: failed, with an
/// error saying so.
fn stopped(detailed: DetailedTask) -> DetailedTask {
    let error = McpError::internal_error(
        format!(
            "the server running this task stopped before it finished (its state was last \
             written over {} s ago); call the tool again to start a new task",
            STOPPED_AFTER.as_secs()
        ),
        None,
    );
    let error = match serde_json::to_value(error) {
        Ok(Value::Object(error)) => error,
        _ => serde_json::Map::new(),
    };
    DetailedTask::new(detailed.task, TaskPayload::Failed { error })
}

/// The wall clock in milliseconds since the Unix epoch, as the replicas compare it.
fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    millis(since)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Keeps task `id`'s state in the store while this server runs it: every [`MIRROR_EVERY`],
/// takes the answers and the cancellation other replicas left, and writes the state if it
/// changed, until the finished state is written (or the task is dropped). A write that fails
/// (Redis down) is tried again at the next turn.
async fn mirror(tasks: Tasks, id: String, handle: TaskHandle, mut written: Value) {
    let owner = {
        let owned = tasks.owned.lock().unwrap_or_else(PoisonError::into_inner);
        match owned.get(&id) {
            Some(task) => task.owner.clone(),
            None => return,
        }
    };
    let mut cancel_passed_on = false;
    let mut stored = true;
    let mut beat = Instant::now();
    loop {
        tokio::time::sleep(MIRROR_EVERY).await;
        if !cancel_passed_on && let Ok(true) = tasks.store.cancelled(&id).await {
            cancel_passed_on = true;
            let _ = tasks.manager.cancel_task(&id);
        }
        if let Ok(answers) = tasks.store.take_answers(&id).await
            && !answers.is_empty()
        {
            let _ = tasks.manager.update_task(&id, answers);
        }
        let Ok(detailed) = tasks.manager.get_task(&id) else {
            return;
        };
        let finished = detailed.status().is_terminal();
        let record = record_of(&owner, &detailed, &handle);
        if record.task != written || !stored || beat.elapsed() >= HEARTBEAT {
            beat = Instant::now();
            let keep = match finished {
                true => tasks.ttl,
                false => tasks.ttl.saturating_mul(2),
            };
            stored = match tasks.store.put(&id, &record, keep).await {
                Ok(()) => true,
                Err(error) => {
                    tracing::warn!(task = %id, %error, "the task's state could not be stored");
                    false
                }
            };
            written = record.task;
        }
        if finished && stored {
            return;
        }
    }
}

/// The error for a task id this asker may not see: unknown, another's, or long gone, alike.
fn unknown(id: &str) -> McpError {
    McpError::invalid_params(
        format!(
            "no task `{}` is known to this caller: use the taskId a tools/call of this session \
             answered with; a task's result is dropped once its time to live has passed, so \
             call the tool again to start a new task",
            shortened(id)
        ),
        None,
    )
}

/// An id as an error repeats it: cut after 64 characters (longer than any id this server
/// makes), so a huge id sent by a client is not sent back whole.
fn shortened(id: &str) -> String {
    match id.char_indices().nth(64) {
        None => id.to_owned(),
        Some((cut, _)) => format!("{}…", &id[..cut]),
    }
}

/// A progress report as a status message: `3 of 10: exporting`.
fn said(progress: &Progress) -> String {
    let mut text = match progress.total {
        Some(total) => format!("{} of {}", progress.done, total),
        None => progress.done.to_string(),
    };
    if let Some(message) = &progress.message {
        text.push_str(": ");
        text.push_str(message);
    }
    text
}

/// The task as the manager runs it: the call's result, or, once `tasks/cancel` comes, the call
/// cancelled and waited for. If the manager drops it (its time to live passed), the call is
/// cancelled too, so no handler outlives its task.
async fn run(call: TaskHandle, task: TaskContext) -> Result<rmcp::model::CallToolResult, TaskExit> {
    let _stop = CancelOnDrop(call.clone());
    let result = tokio::select! {
        result = call.result() => result,
        () = task.cancelled() => {
            call.cancel();
            call.result().await
        }
    };
    if call.status() == TaskStatus::Cancelled {
        return Err(TaskExit::Cancelled);
    }
    crate::convert::call_tool_result(&result).map_err(TaskExit::Error)
}

struct CancelOnDrop(TaskHandle);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The asker of a call run as a task: each question becomes one of the task's
/// `inputRequests` (an `elicitation/create` form), and the task waits, `input_required`, for
/// the answer a `tasks/update` brings.
struct InTask {
    /// The task, once the manager has made it (a question may come first, and waits).
    task: watch::Receiver<Option<TaskContext>>,
    /// Numbers the questions, as each key names one question for the task's whole life.
    keys: AtomicU64,
}

impl Asker for InTask {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            let mut task = self.task.clone();
            let task = match task.wait_for(Option::is_some).await {
                Ok(task) => task.clone(),
                Err(_) => None,
            };
            let Some(task) = task else {
                return Err(Refusal::new(
                    code::CANNOT_ASK,
                    "the task ended before its question could be put; go on without an answer",
                ));
            };
            let request = json!({
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": question.message,
                    "requestedSchema": question.form,
                },
            });
            let request: InputRequest = serde_json::from_value(request).map_err(|error| {
                Refusal::new(
                    code::CANNOT_ASK,
                    format!("the question cannot be put to an MCP client as a form: {error}"),
                )
            })?;
            let key = format!("ask-{}", self.keys.fetch_add(1, Ordering::Relaxed) + 1);
            match task.request_input(key, request).await {
                Ok(answer) => reply_of(answer),
                Err(TaskExit::Cancelled) => Err(Refusal::new(
                    code::CANCELLED,
                    "the task was cancelled while it waited for an answer",
                )),
                Err(TaskExit::Error(error)) => Err(Refusal::new(
                    code::CANNOT_ASK,
                    format!("the question could not be put: {}", error.message),
                )),
            }
        })
    }
}

/// An elicitation result, as a `tasks/update` carries it, read as a reply.
fn reply_of(answer: Value) -> Result<Reply, Refusal> {
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => match answer.get("content") {
            Some(Value::Object(content)) => Ok(Reply::Accept(content.clone())),
            None | Some(Value::Null) => Ok(Reply::Accept(serde_json::Map::new())),
            Some(_) => Err(bad_answer()),
        },
        Some("decline") => Ok(Reply::Decline),
        Some("cancel") => Ok(Reply::Cancel),
        _ => Err(bad_answer()),
    }
}

fn bad_answer() -> Refusal {
    Refusal::new(
        code::BAD_ANSWER,
        "the answer is not an elicitation result: expected {\"action\": \"accept\", \
         \"content\": {...}}, or an action of \"decline\" or \"cancel\"",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_replies_and_anything_else_is_a_bad_answer() {
        let accepted = reply_of(json!({"action": "accept", "content": {"value": true}}));
        let mut values = serde_json::Map::new();
        values.insert("value".into(), true.into());
        assert_eq!(accepted, Ok(Reply::Accept(values)));
        assert_eq!(reply_of(json!({"action": "decline"})), Ok(Reply::Decline));
        assert_eq!(reply_of(json!({"action": "cancel"})), Ok(Reply::Cancel));
        for bad in [
            json!(7),
            json!({"action": "maybe"}),
            json!({"action": "accept", "content": 3}),
        ] {
            assert_eq!(reply_of(bad).unwrap_err().code, code::BAD_ANSWER);
        }
    }

    #[test]
    fn progress_reads_as_a_status_message() {
        let progress = Progress {
            done: 3.0,
            total: Some(10.0),
            message: Some("exporting".into()),
        };
        assert_eq!(said(&progress), "3 of 10: exporting");
    }

    #[test]
    fn a_long_id_is_not_sent_back_whole() {
        let id = "x".repeat(1000);
        assert_eq!(shortened(&id).chars().count(), 65);
    }
}
