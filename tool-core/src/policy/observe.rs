//! Call records for audit logs: one [`CallRecord`] per call, handed to an [`Observer`] off the
//! call's path (see [`Registry::with_observer`](crate::Registry::with_observer)).
//!
//! Records go through a bounded channel to a thread of their own, which hands them to the
//! observer one at a time. A thread rather than a tokio task: an observer that writes to a
//! file or a socket may block, and blocking a runtime's worker would slow every call on it;
//! a thread also needs no runtime, so records are kept outside one too. A call never waits
//! for the observer: when the channel is full the record is dropped and counted
//! ([`Registry::records_dropped`](crate::Registry::records_dropped)), since an audit log that
//! stalls the calls it audits turns a slow disk into an outage. An observer that panics is
//! logged and goes on receiving the next records. The arguments' checksum is computed on the
//! observer's thread too: a call copies its arguments rather than hashing them, and what else
//! the record needs into the same buffer, so the call's thread allocates once per record.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::time::{Duration, SystemTime};

#[cfg(feature = "call-records")]
use sha2::{Digest, Sha256};

use crate::outcome::content::Content;
use crate::outcome::output::Output;
use crate::outcome::result::ToolResult;

/// What one call did, for an audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallRecord {
    /// The call's id.
    pub id: String,
    /// The tool called (as the caller named it, known or not).
    pub tool: String,
    /// The caller, as [`Context::caller`](crate::Context::caller) names it.
    pub caller: Option<String>,
    /// The application the caller called through (an OAuth client's id), as
    /// [`Context::client`](crate::Context::client) names it.
    pub client: Option<String>,
    /// The SHA-256 of the arguments' JSON text as received, before any adjustment, in
    /// lowercase hex: what an auditor compares with the caller's own log.
    pub arguments_sha256: String,
    /// When the call came in.
    pub started: SystemTime,
    /// How long the call took to answer.
    pub elapsed: Duration,
    /// `ok`, or the refusal's code.
    pub outcome: String,
    /// The bytes of the output (text, JSON text, or the content blocks' text and data); 0 for
    /// a refusal.
    pub output_bytes: usize,
}

/// Receives the record of every call, on a thread of its own; see
/// [`Registry::with_observer`](crate::Registry::with_observer).
///
/// Any `FnMut(CallRecord) + Send + 'static` is one.
pub trait Observer: Send + 'static {
    /// Takes one call's record. May block (only its own thread waits) and may panic (the
    /// panic is logged and the next record still comes).
    fn record(&mut self, record: CallRecord);
}

impl<F: FnMut(CallRecord) + Send + 'static> Observer for F {
    fn record(&mut self, record: CallRecord) {
        self(record)
    }
}

/// A call's record as it is begun, before the call runs: the arguments as received, copied
/// into a text with room for what [`Draft::finish`] adds, so that the call's thread allocates
/// once per record.
pub(crate) struct Draft {
    text: String,
    arguments_end: usize,
}

impl Draft {
    /// The draft of a call of `tool` with these arguments and id.
    pub(crate) fn begin(arguments: &str, call_id: &str, tool: &str) -> Draft {
        // The outcome's code is short: `ok` or a refusal's code.
        let mut text = String::with_capacity(arguments.len() + call_id.len() + tool.len() + 24);
        text.push_str(arguments);
        Draft {
            arguments_end: text.len(),
            text,
        }
    }

    /// The record on its way, once the call has answered `result`: the call's id, the tool's
    /// name and the outcome's code written after the arguments.
    pub(crate) fn finish(
        mut self,
        result: &ToolResult,
        (caller, client): (Option<&Arc<str>>, Option<&str>),
        started: SystemTime,
        elapsed: Duration,
    ) -> Pending {
        self.text.push_str(&result.id);
        let id_end = self.text.len();
        self.text.push_str(&result.name);
        let tool_end = self.text.len();
        self.text.push_str(outcome_code(result));
        Pending {
            text: self.text,
            arguments_end: self.arguments_end,
            id_end,
            tool_end,
            caller: caller.cloned(),
            client: client.map(str::to_owned),
            started,
            elapsed,
            output_bytes: output_bytes(result),
        }
    }
}

/// A record on its way to the observer, made on the call's thread: the arguments, the call's
/// id, the tool's name and the outcome's code one after another in one text, which the
/// observer's thread cuts into the record's fields (and hashes the arguments of). The caller
/// is the context's shared name.
pub(crate) struct Pending {
    text: String,
    arguments_end: usize,
    id_end: usize,
    tool_end: usize,
    caller: Option<Arc<str>>,
    client: Option<String>,
    started: SystemTime,
    elapsed: Duration,
    output_bytes: usize,
}

impl Pending {
    /// The record, its checksum computed.
    fn into_record(self) -> CallRecord {
        let text = self.text.as_str();
        CallRecord {
            id: text[self.arguments_end..self.id_end].to_owned(),
            tool: text[self.id_end..self.tool_end].to_owned(),
            caller: self.caller.as_deref().map(str::to_owned),
            client: self.client,
            arguments_sha256: sha256_hex(&text[..self.arguments_end]),
            started: self.started,
            elapsed: self.elapsed,
            outcome: text[self.tool_end..].to_owned(),
            output_bytes: self.output_bytes,
        }
    }
}

/// The sending end a registry keeps: records in, counted when dropped.
#[derive(Clone)]
pub(crate) struct Sink {
    sender: SyncSender<Pending>,
    dropped: Arc<AtomicU64>,
}

impl Sink {
    /// Starts the thread that hands records to `observer`; it ends once every clone of the
    /// sink (every registry configured with it) is gone.
    pub(crate) fn start(mut observer: impl Observer, buffer: usize) -> Sink {
        let (sender, receiver) = mpsc::sync_channel::<Pending>(buffer.max(1));
        let spawned = std::thread::Builder::new()
            .name("tool-core-observer".into())
            .spawn(move || {
                for pending in receiver {
                    let record = pending.into_record();
                    let tool = record.tool.clone();
                    if catch_unwind(AssertUnwindSafe(|| observer.record(record))).is_err() {
                        tracing::error!(%tool, "a call observer panicked on a record; it keeps receiving the next ones");
                        crate::outcome::host_log::without_subscriber(|| {
                            format!("a call observer panicked on the record of a call of `{tool}`; it keeps receiving the next ones")
                        });
                    }
                }
            });
        if let Err(error) = spawned {
            // Without its thread every record is dropped (and counted), and calls go on.
            tracing::error!(%error, "could not start the call observer's thread; records will be dropped");
        }
        Sink {
            sender,
            dropped: Arc::default(),
        }
    }

    /// Hands `record` on without waiting: dropped and counted if the observer is behind.
    pub(crate) fn send(&self, pending: Pending) {
        match self.sender.try_send(pending) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// The lowercase hex SHA-256 of `text`.
#[cfg(feature = "call-records")]
pub(crate) fn sha256_hex(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    hex
}

/// Without the `call-records` feature no observer is ever set (setting one is a compile error
/// naming the feature), so no record is hashed.
#[cfg(not(feature = "call-records"))]
pub(crate) fn sha256_hex(_text: &str) -> String {
    String::new()
}

/// The outcome's code: `ok`, or the refusal's.
pub(crate) fn outcome_code(result: &ToolResult) -> &str {
    match &result.outcome {
        Ok(_) => "ok",
        Err(refusal) => &refusal.code,
    }
}

/// The bytes of a result's output; 0 for a refusal.
fn output_bytes(result: &ToolResult) -> usize {
    match &result.outcome {
        Ok(output) => size_of_output(output),
        Err(_) => 0,
    }
}

fn size_of_output(output: &Output) -> usize {
    match output {
        Output::Empty => 0,
        Output::Text(text) => text.len(),
        Output::Json(json) => json.get().len(),
        Output::Content(blocks) => blocks
            .iter()
            .map(|block| match block {
                Content::Text(text) => text.len(),
                Content::Image { data, .. } | Content::Audio { data, .. } => data.len(),
                Content::Resource {
                    contents: crate::outcome::ResourceContents::Blob(data),
                    ..
                } => data.len(),
                other => other.as_text().len(),
            })
            .sum(),
    }
}

#[cfg(all(test, feature = "call-records"))]
mod tests {
    #[test]
    fn checksum_is_sha256_in_hex() {
        assert_eq!(
            super::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
