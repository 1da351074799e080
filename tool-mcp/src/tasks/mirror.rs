//! Each task's state kept in the shared task store while this server runs it, so that any replica
//! answers for it: written whenever it changes (and rewritten every heartbeat, so the others
//! can tell the replica is still there), with the answers and cancel other replicas left read
//! back at each turn.

use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use rmcp::ErrorData as McpError;
use rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use serde_json::Value;
use tool_core::TaskHandle;

use crate::owner::Owner;
use crate::store::{TaskRecord, TaskStore};

use super::{Tasks, said};

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
pub(super) const STOPPED_AFTER: Duration = Duration::from_secs(5);

/// A task's state as the store keeps it, with its latest progress as its status message.
pub(super) fn record_of(owner: &Owner, detailed: &DetailedTask, handle: &TaskHandle) -> TaskRecord {
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

/// A stored task's state (`record_of`'s JSON) read back as rmcp's `DetailedTask`: its base
/// fields as rmcp's `Task`, its payload by the status they give. Read in two steps rather than
/// as a `DetailedTask` whole so that a server without the `asking` feature, whose tasks never
/// wait for input, does not build the reading of every request a task can wait on (rmcp's
/// forms and sampling requests); such a server refuses a task stored waiting for input, which
/// only a replica built otherwise could have written.
pub(super) fn detailed_of(mut stored: Value) -> Result<DetailedTask, String> {
    let mut take = |key: &str| stored.as_object_mut().and_then(|fields| fields.remove(key));
    let (requests, result, error) = (take("inputRequests"), take("result"), take("error"));
    let task: Task = serde_json::from_value(stored).map_err(|error| error.to_string())?;
    let object = |value: Option<Value>, key: &str| match value {
        Some(Value::Object(object)) => Ok(object),
        _ => Err(format!(
            "a task {:?} without an object `{key}`",
            task.status
        )),
    };
    let payload = match task.status {
        TaskStatus::Working => TaskPayload::Working,
        TaskStatus::Cancelled => TaskPayload::Cancelled,
        TaskStatus::Completed => TaskPayload::Completed {
            result: object(result, "result")?,
        },
        TaskStatus::Failed => TaskPayload::Failed {
            error: object(error, "error")?,
        },
        TaskStatus::InputRequired => waiting(requests)?,
        #[allow(unreachable_patterns)] // rmcp's statuses may grow.
        other => {
            return Err(format!(
                "a task {other:?}, a status this server does not know"
            ));
        }
    };
    Ok(DetailedTask::new(task, payload))
}

/// The payload of a stored task waiting for its client's input.
#[cfg(feature = "asking")]
fn waiting(requests: Option<Value>) -> Result<TaskPayload, String> {
    let requests = requests.ok_or("a task waiting for input without `inputRequests`")?;
    let input_requests = serde_json::from_value(requests).map_err(|error| error.to_string())?;
    Ok(TaskPayload::InputRequired { input_requests })
}

/// A server without the `asking` feature cannot show what a task waits for.
#[cfg(not(feature = "asking"))]
fn waiting(_requests: Option<Value>) -> Result<TaskPayload, String> {
    Err(
        "it waits for input, which this replica, built without tool-mcp's `asking` feature, \
         cannot show"
            .to_owned(),
    )
}

/// A task whose replica stopped before it finished, as it reads from then on: failed, with an
/// error saying so.
pub(super) fn stopped(detailed: DetailedTask) -> DetailedTask {
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
pub(super) fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    millis(since)
}

pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Keeps task `id`'s state in the store while this server runs it: every [`MIRROR_EVERY`],
/// takes the answers and the cancellation other replicas left, and writes the state if it
/// changed, until the finished state is written (or the task is dropped). A write that fails
/// (Redis down) is tried again at the next turn.
pub(super) async fn mirror(
    tasks: Tasks,
    store: Arc<dyn TaskStore>,
    id: String,
    handle: TaskHandle,
    mut written: Value,
) {
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
        if !cancel_passed_on && let Ok(true) = store.cancelled(&id).await {
            cancel_passed_on = true;
            let _ = tasks.manager.cancel_task(&id);
        }
        if let Ok(answers) = store.take_answers(&id).await
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
            stored = match store.put(&id, &record, keep).await {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_stored_task_reads_back_as_it_was_written() {
        let task = |status| {
            let mut task = Task::new(
                "t-1",
                status,
                "2026-12-04T00:00:00Z",
                "2026-12-04T00:00:01Z",
            );
            task.ttl_ms = Some(60_000);
            task.status_message = Some("half done".to_owned());
            task
        };
        let object = |value: Value| value.as_object().cloned().unwrap_or_default();
        let mut written = vec![
            DetailedTask::new(task(TaskStatus::Working), TaskPayload::Working),
            DetailedTask::new(task(TaskStatus::Cancelled), TaskPayload::Cancelled),
            DetailedTask::new(
                task(TaskStatus::Completed),
                TaskPayload::Completed {
                    result: object(json!({"content": [{"type": "text", "text": "7"}]})),
                },
            ),
            DetailedTask::new(
                task(TaskStatus::Failed),
                TaskPayload::Failed {
                    error: object(json!({"code": -32603, "message": "stopped"})),
                },
            ),
        ];
        if cfg!(feature = "asking") {
            let waiting = json!({
                "taskId": "t-1", "status": "input_required", "createdAt": "2026-12-04T00:00:00Z",
                "lastUpdatedAt": "2026-12-04T00:00:01Z", "ttlMs": 60000,
                "inputRequests": {"ask-1": {"method": "roots/list", "params": {}}}
            });
            written.push(serde_json::from_value(waiting).expect("rmcp reads it"));
        }
        for detailed in written {
            let stored = serde_json::to_value(&detailed).expect("writes");
            let read = detailed_of(stored.clone()).expect("reads back");
            assert_eq!(serde_json::to_value(&read).expect("writes"), stored);
        }
        let broken = json!({"taskId": "t-1", "status": "completed", "createdAt": "a",
                            "lastUpdatedAt": "b", "ttlMs": null});
        assert!(detailed_of(broken).unwrap_err().contains("`result`"));
        assert!(detailed_of(json!({"status": "working"})).is_err());
    }
}
