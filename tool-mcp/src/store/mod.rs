//! Where the state of tasks is kept, so that any replica of a server can answer `tasks/*` for
//! a task another replica runs: [`TaskStore`], with [`MemoryTaskStore`] (one process, the
//! default) and `RedisTaskStore` (every replica that shares one Redis; the `redis` feature).
//!
//! The replica that runs a task writes its state (a [`TaskRecord`]: status, progress, the
//! questions it asked, and its result) whenever it changes, and reads the store for what other
//! replicas leave for it: answers to its questions, and a request to cancel. Every replica
//! reads the record to answer `tasks/get`. The store keeps nothing past the time it is told to
//! keep it, so abandoned tasks do not pile up.
//!
//! A store may also keep the tools each caller's searches found (a registry with deferred
//! loading, served over HTTP without a session: [`TaskStore::found`], [`TaskStore::add_found`]),
//! so that a search on one replica is listed and callable on all of them. `RedisTaskStore`
//! does; a store that does not override them shares none, and each replica lists what its own
//! searches found.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tool_core::call::BoxFuture;

#[cfg(feature = "redis")]
mod redis_store;

#[cfg(feature = "redis")]
pub use self::redis_store::RedisTaskStore;

/// One task's state as every replica reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The HTTP session that started the task, if it had one.
    pub session: Option<String>,
    /// The caller the host named for the request that started the task, if any.
    pub caller: Option<String>,
    /// The task as `tasks/get` answers it (rmcp's `DetailedTask` as JSON): its status and
    /// status message, its open questions (`inputRequests`), and its result once it has one.
    pub task: Value,
    /// When the server running the task last wrote this record, in milliseconds since the
    /// Unix epoch. It rewrites the record of an unfinished task every so often even when
    /// nothing changed, so a record left unwritten for long says that server has stopped.
    #[serde(default)]
    pub written_ms: u64,
}

/// Why a store could not be read or written (Redis unreachable, say).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskStoreError(String);

impl TaskStoreError {
    /// An error saying `what` went wrong.
    pub fn new(what: impl fmt::Display) -> Self {
        TaskStoreError(what.to_string())
    }
}

impl fmt::Display for TaskStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TaskStoreError {}

/// What a store gives back.
pub type StoreResult<T> = Result<T, TaskStoreError>;

/// The shared state of tasks: each task's record, the answers waiting for it, and whether it
/// was asked to stop; and, if the store overrides [`TaskStore::found`] and
/// [`TaskStore::add_found`], the tools each caller's searches found. Every write says how long
/// to keep what it writes; a store forgets it after that.
///
/// A store that cannot be reached fails task calls with an error saying so; reading or
/// writing found tools fails nothing: the server logs a warning and lists what it knows.
pub trait TaskStore: Send + Sync + 'static {
    /// Writes task `id`'s record, replacing the one before, kept for `keep`.
    fn put<'a>(
        &'a self,
        id: &'a str,
        record: &'a TaskRecord,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>>;

    /// Task `id`'s record, `None` if there is none (never written, or past its time).
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>>;

    /// Leaves answers (question key to elicitation result) for task `id`, kept for `keep`;
    /// a later answer to the same key replaces an earlier one not yet taken.
    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: Map<String, Value>,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>>;

    /// Takes the answers left for task `id` since it last took them (each is taken once).
    fn take_answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Map<String, Value>>>;

    /// Asks task `id` to stop, remembered for `keep`.
    fn cancel<'a>(&'a self, id: &'a str, keep: Duration) -> BoxFuture<'a, StoreResult<()>>;

    /// Whether task `id` was asked to stop.
    fn cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<bool>>;

    /// Whether the store answers now: asked before a task starts, so that a task whose state
    /// could not be kept is refused before its handler runs. Answers `Ok` unless overridden.
    fn ready(&self) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async { Ok(()) })
    }

    /// The names of the tools `caller`'s searches found on any server sharing this store (a
    /// registry with deferred loading, served over HTTP without a session), and keeps them
    /// `keep` longer, as the caller has just made a request. A server asks it before it lists
    /// tools for such a caller or calls one, and lists what it answers as if its own search
    /// had found it.
    ///
    /// Answers none unless overridden: a store that does not implement it shares no found
    /// tools, and each server lists what its own searches found (see
    /// [`TaskStore::add_found`]).
    fn found<'a>(
        &'a self,
        caller: &'a str,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<Vec<String>>> {
        let _ = (caller, keep);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Adds `names` to the tools `caller`'s searches found, all of them kept for `keep` from
    /// now (a caller idle that long starts from the short list again, on every server).
    /// A server calls it after a call of `caller`'s found tools it had not found before.
    ///
    /// Keeps nothing unless overridden, together with the default [`TaskStore::found`].
    fn add_found<'a>(
        &'a self,
        caller: &'a str,
        names: &'a [String],
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        let _ = (caller, names, keep);
        Box::pin(async { Ok(()) })
    }
}

/// A [`TaskStore`] in one process's memory: for several servers in one process that share
/// their tasks (one per listener, say), and for testing code that uses a store. A single
/// server needs no store: without one it keeps the tasks it runs in its own memory.
#[derive(Clone, Default)]
pub struct MemoryTaskStore {
    tasks: Arc<Mutex<HashMap<String, Kept>>>,
}

/// What is kept of one task, and until when.
#[derive(Default)]
struct Kept {
    record: Option<(TaskRecord, Instant)>,
    answers: Option<(Map<String, Value>, Instant)>,
    cancelled: Option<Instant>,
}

impl Kept {
    fn is_empty(&self) -> bool {
        self.record.is_none() && self.answers.is_none() && self.cancelled.is_none()
    }

    /// Drops what is past its time.
    fn expire(&mut self, now: Instant) {
        if self.record.as_ref().is_some_and(|(_, until)| *until <= now) {
            self.record = None;
        }
        if self
            .answers
            .as_ref()
            .is_some_and(|(_, until)| *until <= now)
        {
            self.answers = None;
        }
        if self.cancelled.is_some_and(|until| until <= now) {
            self.cancelled = None;
        }
    }
}

impl MemoryTaskStore {
    /// Runs `change` on task `id`'s entry, with what is past its time dropped first, and
    /// forgets the entry if nothing is left of it. A write (`sweep`) drops what is past its
    /// time of every task, so that a process with many short tasks does not keep them all;
    /// a read, which the running task makes every turn, looks at its own task only.
    fn with<T>(&self, id: &str, sweep: bool, change: impl FnOnce(&mut Kept, Instant) -> T) -> T {
        let now = Instant::now();
        let mut tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        if sweep {
            tasks.retain(|_, kept| {
                kept.expire(now);
                !kept.is_empty()
            });
        }
        let kept = tasks.entry(id.to_owned()).or_default();
        kept.expire(now);
        let out = change(kept, now);
        if kept.is_empty() {
            tasks.remove(id);
        }
        out
    }
}

impl TaskStore for MemoryTaskStore {
    fn put<'a>(
        &'a self,
        id: &'a str,
        record: &'a TaskRecord,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        self.with(id, true, |kept, now| {
            kept.record = Some((record.clone(), now + keep));
        });
        Box::pin(async { Ok(()) })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        let record = self.with(id, false, |kept, _| {
            kept.record.as_ref().map(|(r, _)| r.clone())
        });
        Box::pin(async { Ok(record) })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: Map<String, Value>,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        self.with(id, true, |kept, now| {
            let (waiting, until) = kept.answers.get_or_insert_with(|| (Map::new(), now));
            waiting.extend(answers);
            *until = now + keep;
        });
        Box::pin(async { Ok(()) })
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Map<String, Value>>> {
        let answers = self.with(id, false, |kept, _| {
            kept.answers
                .take()
                .map(|(answers, _)| answers)
                .unwrap_or_default()
        });
        Box::pin(async { Ok(answers) })
    }

    fn cancel<'a>(&'a self, id: &'a str, keep: Duration) -> BoxFuture<'a, StoreResult<()>> {
        self.with(id, true, |kept, now| kept.cancelled = Some(now + keep));
        Box::pin(async { Ok(()) })
    }

    fn cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<bool>> {
        let cancelled = self.with(id, false, |kept, _| kept.cancelled.is_some());
        Box::pin(async move { Ok(cancelled) })
    }
}
