//! [`RedisTaskStore`]: the tasks (and the tools callers found) of every replica that shares
//! one Redis.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tool_core::call::BoxFuture;

use super::{StoreResult, TaskRecord, TaskStore, TaskStoreError};

/// The tasks of every replica that shares one Redis (through redis-rs's `ConnectionManager`,
/// which reconnects by itself once Redis is back).
///
/// Task `ID` is kept under three keys, each with its own expiry: `PREFIX:ID` (the record as
/// JSON), `PREFIX:ID:answers` (a hash of answers waiting to be taken) and `PREFIX:ID:cancel`.
/// The prefix is `tool-mcp:task` unless set with [`RedisTaskStore::with_prefix`]. The tools
/// caller `NAME`'s searches found (a registry with deferred loading served without sessions,
/// see [`TaskStore::found`]) are a set under `PREFIX:found:NAME`, kept for the caller's idle
/// time after its last request. The Redis must be private to the servers: it holds every
/// task's result.
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisTaskStore {
    client: redis::Client,
    connection: Arc<tokio::sync::OnceCell<redis::aio::ConnectionManager>>,
    prefix: String,
}

/// How long a connection to Redis, and an answer from it, may take: a task call fails with
/// a clear error rather than wait on a Redis that has gone.
const REDIS_WAIT: Duration = Duration::from_secs(2);

impl RedisTaskStore {
    /// A store in the Redis at `url` (`redis://host:port/db`, or `rediss://` for TLS where
    /// redis-rs is built with it: tool-mcp builds it without, and a host that turns on one of
    /// its TLS features, `tokio-rustls-comp` or `tokio-native-tls-comp`, in its own
    /// `Cargo.toml` has it for both). Nothing is connected until the first task call, so a
    /// server starts while Redis is down, and its task calls work once Redis is up.
    pub fn open(url: &str) -> StoreResult<Self> {
        let client = redis::Client::open(url).map_err(|error| {
            // redis-rs names TLS only when a URL asks for it and it is built without it; any
            // other fault of a URL is told as it is.
            TaskStoreError::new(match error.to_string().contains("TLS") {
                true => format!(
                    "`{url}` asks for TLS ({error}): tool-mcp builds redis-rs without it; turn \
                     on redis-rs's `tokio-rustls-comp` feature in your Cargo.toml \
                     (`redis = {{ version = \"1\", features = [\"tokio-rustls-comp\"] }}`), \
                     or give a redis:// URL"
                ),
                false => {
                    format!("`{url}` is not a Redis URL ({error}); give one as redis://HOST:PORT")
                }
            })
        })?;
        Ok(RedisTaskStore {
            client,
            connection: Arc::default(),
            prefix: "tool-mcp:task".to_owned(),
        })
    }

    /// Keeps tasks under `prefix` instead of `tool-mcp:task`, so that two servers whose
    /// tasks must not meet can share one Redis.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    async fn connection(&self) -> StoreResult<redis::aio::ConnectionManager> {
        let connection = self
            .connection
            .get_or_try_init(|| async {
                let config = redis::aio::ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(REDIS_WAIT))
                    .set_response_timeout(Some(REDIS_WAIT))
                    // A request fails at once while Redis is down; the next one reconnects.
                    .set_number_of_retries(1);
                redis::aio::ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            })
            .await
            .map_err(|error| self.unreachable(error))?;
        Ok(connection.clone())
    }

    /// Runs `command`, once more if the connection had broken: the first request after Redis
    /// returns meets the broken connection and sets off the reconnection the second uses.
    async fn command<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> StoreResult<T> {
        let mut connection = self.connection().await?;
        match command.query_async(&mut connection).await {
            Err(error) if broken(&error) => command.query_async(&mut connection).await,
            answered => answered,
        }
        .map_err(|error| self.unreachable(error))
    }

    /// Runs `pipeline` as [`RedisTaskStore::command`] runs a command.
    async fn pipeline<T: redis::FromRedisValue>(
        &self,
        pipeline: &redis::Pipeline,
    ) -> StoreResult<T> {
        let mut connection = self.connection().await?;
        match pipeline.query_async(&mut connection).await {
            Err(error) if broken(&error) => pipeline.query_async(&mut connection).await,
            answered => answered,
        }
        .map_err(|error| self.unreachable(error))
    }

    fn unreachable(&self, error: redis::RedisError) -> TaskStoreError {
        let info = self.client.get_connection_info();
        TaskStoreError::new(format!("Redis at {} did not answer ({error})", info.addr()))
    }

    /// The key of the set of tools `caller` found: no task's key, as a task's id is a UUID.
    fn found_key(&self, caller: &str) -> String {
        format!("{}:found:{caller}", self.prefix)
    }

    fn key(&self, id: &str, part: &str) -> String {
        match part {
            "" => format!("{}:{id}", self.prefix),
            part => format!("{}:{id}:{part}", self.prefix),
        }
    }
}

/// Whether `error` says the connection broke (Redis gone, or gone and back), rather than that
/// Redis refused the command.
fn broken(error: &redis::RedisError) -> bool {
    error.is_io_error() || error.is_connection_dropped() || error.is_connection_refusal()
}

/// Milliseconds for a Redis expiry: at least one, as Redis refuses zero.
fn millis(keep: Duration) -> u64 {
    // Redis takes expiry times up to a signed 64-bit count of milliseconds from now, and
    // refuses a command with a longer one; so long a time is for ever anyway.
    const MOST: u64 = (i64::MAX as u64) / 2;
    u64::try_from(keep.as_millis())
        .unwrap_or(MOST)
        .clamp(1, MOST)
}

impl TaskStore for RedisTaskStore {
    fn put<'a>(
        &'a self,
        id: &'a str,
        record: &'a TaskRecord,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let json = serde_json::to_string(record).map_err(TaskStoreError::new)?;
            let mut set = redis::cmd("SET");
            set.arg(self.key(id, ""))
                .arg(json)
                .arg("PX")
                .arg(millis(keep));
            self.command(&set).await
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        Box::pin(async move {
            let json: Option<String> = self
                .command(redis::cmd("GET").arg(self.key(id, "")))
                .await?;
            json.map(|json| {
                serde_json::from_str(&json).map_err(|error| {
                    TaskStoreError::new(format!(
                        "the record of task `{id}` in Redis is not one this server wrote \
                         ({error}); is another program using the key prefix `{}`?",
                        self.prefix
                    ))
                })
            })
            .transpose()
        })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: Map<String, Value>,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            if answers.is_empty() {
                return Ok(());
            }
            let key = self.key(id, "answers");
            let mut pipe = redis::pipe();
            pipe.atomic();
            for (question, answer) in &answers {
                pipe.cmd("HSET")
                    .arg(&key)
                    .arg(question)
                    .arg(answer.to_string())
                    .ignore();
            }
            pipe.cmd("PEXPIRE").arg(&key).arg(millis(keep)).ignore();
            self.pipeline(&pipe).await
        })
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Map<String, Value>>> {
        Box::pin(async move {
            let key = self.key(id, "answers");
            // Read and delete in one transaction, so an answer left in between is not lost.
            let mut take = redis::pipe();
            take.atomic()
                .cmd("HGETALL")
                .arg(&key)
                .cmd("DEL")
                .arg(&key)
                .ignore();
            let (answers,): (HashMap<String, String>,) = self.pipeline(&take).await?;
            Ok(answers
                .into_iter()
                .map(|(question, answer)| {
                    let answer = serde_json::from_str(&answer).unwrap_or(Value::String(answer));
                    (question, answer)
                })
                .collect())
        })
    }

    fn cancel<'a>(&'a self, id: &'a str, keep: Duration) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            let mut set = redis::cmd("SET");
            set.arg(self.key(id, "cancel"))
                .arg(1)
                .arg("PX")
                .arg(millis(keep));
            self.command(&set).await
        })
    }

    fn ready(&self) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move { self.command(&redis::cmd("PING")).await })
    }

    fn cancelled<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<bool>> {
        Box::pin(async move {
            self.command(redis::cmd("EXISTS").arg(self.key(id, "cancel")))
                .await
        })
    }

    fn found<'a>(
        &'a self,
        caller: &'a str,
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<Vec<String>>> {
        Box::pin(async move {
            let key = self.found_key(caller);
            // Read and refresh in one round trip: a caller that keeps using its tools keeps
            // them on every replica, as it does in each replica's memory.
            let mut read = redis::pipe();
            read.cmd("SMEMBERS")
                .arg(&key)
                .cmd("PEXPIRE")
                .arg(&key)
                .arg(millis(keep))
                .ignore();
            let (mut names,): (Vec<String>,) = self.pipeline(&read).await?;
            // A set has no order; a listing follows the registry's order anyway.
            names.sort();
            Ok(names)
        })
    }

    fn add_found<'a>(
        &'a self,
        caller: &'a str,
        names: &'a [String],
        keep: Duration,
    ) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            if names.is_empty() {
                return Ok(());
            }
            let key = self.found_key(caller);
            let mut pipe = redis::pipe();
            pipe.atomic();
            pipe.cmd("SADD").arg(&key).arg(names).ignore();
            pipe.cmd("PEXPIRE").arg(&key).arg(millis(keep)).ignore();
            self.pipeline(&pipe).await
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn an_expiry_longer_than_redis_takes_is_held_to_what_it_takes() {
        assert_eq!(super::millis(Duration::from_secs(2)), 2000);
        assert_eq!(super::millis(Duration::ZERO), 1);
        assert!(super::millis(Duration::MAX) <= i64::MAX as u64 / 2);
    }
}
