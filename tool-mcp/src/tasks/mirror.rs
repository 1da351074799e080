//! Each task's state kept in the task store while this server runs it, so that any replica
//! answers for it: written whenever it changes (and rewritten every heartbeat, so the others
//! can tell the replica is still there), with the answers and cancel other replicas left read
//! back at each turn.

use std::sync::PoisonError;
use std::time::{Duration, Instant};

use rmcp::ErrorData as McpError;
use rmcp::model::{DetailedTask, TaskPayload};
use serde_json::Value;
use tool_core::TaskHandle;

use crate::owner::Owner;
use crate::store::TaskRecord;

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
pub(super) async fn mirror(tasks: Tasks, id: String, handle: TaskHandle, mut written: Value) {
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
