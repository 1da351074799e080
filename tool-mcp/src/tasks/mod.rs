//! Calls of `#[tool(task)]` tools as tasks of MCP's tasks extension
//! (`io.modelcontextprotocol/tasks`, 2026-07-28): a `tools/call` from a client that declares
//! the extension is answered at once with a `CreateTaskResult`, the call runs on as a
//! [`TaskHandle`] (so the registry's bound on each caller's tasks holds), and `tasks/get`,
//! `tasks/update` and `tasks/cancel` reach it through rmcp's [`TaskManager`], which keeps each
//! task's state, its questions and its result until its time to live has passed.
//!
//! A server given a [`TaskStore`] shared with other replicas also writes each task's state
//! there, which is how a replica that does not run a task answers `tasks/*` for it: the
//! replica running the task writes its state there whenever it changes, and every
//! [`MIRROR_EVERY`] reads what other replicas left for it (answers, a request to cancel). A
//! replica answers for the tasks it runs from its own memory, and for the others from the
//! store. A server without one keeps its tasks in its memory alone: what it does not run does
//! not exist for it, so a task its manager has dropped is gone at once, everywhere.
//!
//! A task belongs to whoever started it: over HTTP the session (`Mcp-Session-Id`) and the
//! caller the host named, over one stdio connection that connection (each has its own tasks).
//! Any other asker of a task's id gets the very error an unknown id gets, so an id says
//! nothing of whether it exists. The handler's progress shows as the task's `statusMessage`,
//! since the extension carries no progress notifications for tasks; with the `asking` feature,
//! its questions ([`Context::ask`](tool_core::Context::ask)) become the task's `inputRequests`,
//! answered with `tasks/update` (without it, each is refused naming the feature, and a tool
//! marked to ask before it becomes a task becomes one at once).

#[cfg(feature = "asking")]
mod asker;
mod mirror;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, GetTaskResult, InputResponses,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde_json::Value;
use tokio::sync::watch;
use tool_core::call::Progress;
use tool_core::run::TaskStatus;
use tool_core::tool::TaskSupport;
use tool_core::{Context, Registry, TaskHandle, ToolCall, ToolResult};

#[cfg(feature = "asking")]
use self::asker::InTask;
use self::mirror::{STOPPED_AFTER, detailed_of, millis, mirror, now_ms, record_of, stopped};
use crate::owner::Owner;
use crate::store::{TaskStore, TaskStoreError};

/// How a `tools/call` runs ([`Tasks::wanted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// While its client waits (asking, if it asks, in `input_required` rounds).
    Direct,
    /// As a task, at once.
    Task,
    /// In rounds until a request brings answers, which starts it as a task.
    TaskOnceAnswered,
}

impl Run {
    /// Whether a request runs its call as a task, given whether it brings answers (`offered`).
    pub(crate) fn as_task(self, offered: bool) -> bool {
        match self {
            Run::Direct => false,
            Run::Task => true,
            // Its first request asks in rounds; the one that brings answers is a task.
            Run::TaskOnceAnswered => offered,
        }
    }
}

/// The tasks of one server: shared by the clones that serve HTTP sessions and requests, fresh
/// for each stdio connection.
#[derive(Clone)]
pub(crate) struct Tasks {
    manager: TaskManager,
    owned: Arc<Mutex<HashMap<String, Owned>>>,
    ttl: Duration,
    /// The store shared with other servers (and so with every connection), if any.
    store: Option<Arc<dyn TaskStore>>,
}

/// A task as this server knows it: who may see it, its handle, for its progress, and when it
/// started, after which the manager drops it within two times to live (one to run, one to keep
/// its result).
struct Owned {
    owner: Owner,
    handle: TaskHandle,
    started: Instant,
}

impl Tasks {
    /// No tasks yet, each result kept for `ttl` after its task ends, in memory.
    pub(crate) fn new(ttl: Duration) -> Tasks {
        Tasks {
            manager: TaskManager::new(),
            owned: Arc::default(),
            ttl,
            store: None,
        }
    }

    /// An empty store with the same settings, for a connection of its own: its tasks are
    /// kept in memory even when the server has a shared store, as no other connection or
    /// replica may reach them.
    pub(crate) fn fresh(&self) -> Tasks {
        Tasks::new(self.ttl)
    }

    /// The same settings, keeping the state of tasks in `store`, shared with other servers.
    pub(crate) fn with_store(mut self, store: Arc<dyn TaskStore>) -> Tasks {
        self.store = Some(store);
        self
    }

    /// The store, if it is shared with other servers: only then is what a caller found kept
    /// in it, as one process already shares its callers' sessions in memory.
    pub(crate) fn shared_store(&self) -> Option<&dyn TaskStore> {
        self.store.as_deref()
    }

    /// The same store, keeping results for `ttl`.
    pub(crate) fn with_ttl(mut self, ttl: Duration) -> Tasks {
        self.ttl = ttl;
        self
    }

    /// How this call is to run: as a task when its tool is marked `#[tool(task)]` and the
    /// request declares the tasks extension (a client that does not cannot read a task), once
    /// it has its input for a tool marked `task = "after_input"` (at once without the `asking`
    /// feature, which the rounds it asks in first need), else directly. A tool that
    /// runs only as a task (`task = "required"`) refuses a client that does not declare the
    /// extension, with the `-32021` that names it. (`current`: the request is of 2026-07-28,
    /// whose capabilities are the request's own.)
    pub(crate) fn wanted(
        &self,
        registry: &Registry,
        name: &str,
        context: &RequestContext<RoleServer>,
        current: bool,
    ) -> Result<Run, McpError> {
        let support = registry.task_support(name);
        if support == TaskSupport::None {
            return Ok(Run::Direct);
        }
        let declared = crate::owner::declared(context, current, |capabilities| {
            capabilities.is_some_and(ClientCapabilities::supports_tasks)
        });
        match (support, declared) {
            // Without asking there are no rounds to ask in first: a task at once.
            (TaskSupport::AfterInput, true) if cfg!(feature = "asking") => {
                Ok(Run::TaskOnceAnswered)
            }
            (_, true) => Ok(Run::Task),
            (TaskSupport::Required, false) => {
                let mut error = McpError::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                );
                error.message = format!(
                    "`{name}` runs only as a task, and this client did not declare the tasks \
                     extension (`io.modelcontextprotocol/tasks`); declare it and call again"
                )
                .into();
                Err(error)
            }
            (_, false) => Ok(Run::Direct),
        }
    }

    /// Starts `call` as a task of `owner` and answers with its `CreateTaskResult`; a call the
    /// registry will not start (the caller's bound reached, say) is answered as a direct call
    /// would be, with the refusal as an `isError` result. `current`: the request is of
    /// 2026-07-28, whose result may hold structured content of any JSON (see [`run`]).
    pub(crate) async fn start(
        &self,
        registry: &Registry,
        call: ToolCall,
        ctx: Context,
        owner: Owner,
        offered: Option<InputResponses>,
        current: bool,
    ) -> Result<CallToolResponse, McpError> {
        self.forget_dropped();
        if let Some(store) = &self.store {
            store.ready().await.map_err(|error| {
                unreachable_store(&error, "the task was not started; call the tool again")
            })?;
        }
        let (found, asked) = watch::channel(None);
        #[cfg(feature = "asking")]
        let ctx = ctx.with_asker(InTask {
            task: asked,
            keys: std::sync::atomic::AtomicU64::new(0),
            offered: Mutex::new(offered.unwrap_or_default()),
        });
        #[cfg(not(feature = "asking"))]
        let ctx = {
            let _ = (asked, offered);
            ctx.with_asker(crate::unasked::Unasked)
        };
        let handle = match registry.start(call.clone(), &ctx) {
            Ok(handle) => handle,
            Err(refusal) => {
                let refused = ToolResult {
                    id: call.id,
                    name: call.name,
                    outcome: Err(refusal),
                    notes: Vec::new(),
                };
                return crate::convert::call_tool_result(refused, current)
                    .map(CallToolResponse::from);
            }
        };
        let ttl_ms = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let running = handle.clone();
        let task = self
            .manager
            .spawn(TaskOptions::new().with_ttl_ms(ttl_ms), move |context| {
                found.send_replace(Some(context.clone()));
                Box::pin(run(running, context, current))
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
        let Some(store) = self.store.clone() else {
            return Ok(CallToolResponse::Task(CreateTaskResult::new(task)));
        };
        // Written before the client learns the id, so that any replica it asks knows it.
        let written = match self.manager.get_task(&id) {
            Ok(detailed) => {
                let record = record_of(&owner, &detailed, &handle);
                let written = store.put(&id, &record, self.ttl.saturating_mul(2)).await;
                written.map(|()| record.task)
            }
            Err(error) => Err(TaskStoreError::new(error.message)),
        };
        match written {
            Ok(written) => {
                crate::background::spawn(mirror(self.clone(), store, id, handle, written));
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
            false => self.get_stored(self.store_of(id)?, id, owner).await,
        }
    }

    /// The shared store, where a task this server does not run may be found; without one,
    /// the error an unknown id gets.
    fn store_of(&self, id: &str) -> Result<&dyn TaskStore, McpError> {
        self.store.as_deref().ok_or_else(|| unknown(id))
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
    async fn get_stored(
        &self,
        store: &dyn TaskStore,
        id: &str,
        owner: &Owner,
    ) -> Result<GetTaskResult, McpError> {
        let record = store
            .get(id)
            .await
            .map_err(|error| unreachable_store(&error, "call again once it is back"))?;
        let Some(record) = record
            .filter(|record| record.session == owner.session && record.caller == owner.caller)
        else {
            return Err(unknown(id));
        };
        let stale = now_ms().saturating_sub(record.written_ms) > millis(STOPPED_AFTER);
        let detailed = detailed_of(record.task).map_err(|error| {
            McpError::internal_error(
                format!(
                    "the stored state of task `{}` cannot be read ({error}); do all replicas \
                     run the same version of the server, with the same features?",
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
        self.store_of(id)?
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
        self.store_of(id)?
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
fn shortened(id: &str) -> std::borrow::Cow<'_, str> {
    tool_core::outcome::cut_after(id, 64)
}

/// A progress report as a status message: `3 of 10: exporting`.
pub(super) fn said(progress: &Progress) -> String {
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
///
/// The result is read later, in `tasks/get`, where rmcp does not shape it for the client's
/// revision as it does a call's: it is shaped here for the revision of the request that started
/// the task (`current`: 2026-07-28's).
async fn run(
    call: TaskHandle,
    task: TaskContext,
    current: bool,
) -> Result<rmcp::model::CallToolResult, TaskExit> {
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
    // Something went wrong inside the tool or the framework (a panic): the task failed, and
    // has no result. Any other refusal is the tool's answer, and the task completes with it.
    if let Err(refusal) = &result.outcome
        && refusal.code == tool_core::code::INTERNAL
    {
        return Err(TaskExit::Error(McpError::internal_error(
            refusal.to_string(),
            None,
        )));
    }
    crate::convert::call_tool_result(result, current).map_err(TaskExit::Error)
}

struct CancelOnDrop(TaskHandle);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
