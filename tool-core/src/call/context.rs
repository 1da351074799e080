//! The per-call context a host hands to every tool.
//!
//! A [`Context`] carries what a handler may need but a model must never supply: a cancellation
//! token, the caller's identity as the host asserts it, a deadline, a progress reporter, a log
//! listener, an [`Asker`] for questions to the person behind the call, and typed extensions
//! holding application state. A handler asks for it by taking a `&Context`
//! parameter, which is injected rather than advertised.
//!
//! The context does not enforce anything by itself: the registry reads the token and the
//! deadline to end calls, and grants decide who may call what.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use tokio_util::sync::CancellationToken;

use serde_json::Value;

use crate::call::asker::Asker;
use crate::call::log::{LogLevel, LogListener, LogMessage, LogSink};

/// Receives progress reports from a running tool; see [`Context::with_progress`].
pub type ProgressReporter = Arc<dyn Fn(Progress) + Send + Sync>;

/// One progress report: `done` of `total` (when known), with an optional message.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// How much is done, in the tool's own unit.
    pub done: f64,
    /// How much there is in all, when the tool knows.
    pub total: Option<f64>,
    /// A short human-readable note.
    pub message: Option<String>,
}

/// What a tool call runs within: cancellation, caller, deadline, progress, logs and app state.
///
/// `Context::default()` is a context nobody cancels, with no caller, no deadline, no progress
/// listener and no extensions. Cloning is cheap and clones share the cancellation token.
///
/// ```
/// use std::time::Duration;
/// use tool_core::Context;
///
/// struct Db(&'static str);
///
/// let ctx = Context::new()
///     .with_caller("alice")
///     .with_timeout(Duration::from_secs(5))
///     .with_extension(Db("notes.db"));
/// assert_eq!(ctx.caller(), Some("alice"));
/// assert_eq!(ctx.get::<Db>().map(|db| db.0), Some("notes.db"));
/// ```
#[derive(Clone, Default)]
pub struct Context {
    cancel: CancellationToken,
    caller: Option<Arc<str>>,
    client: Option<Arc<str>>,
    deadline: Option<Instant>,
    progress: Option<ProgressReporter>,
    log: Option<LogSink>,
    asker: Option<Arc<dyn Asker>>,
    extensions: Extensions,
}

#[derive(Clone, Default)]
struct Extensions(Option<Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>>);

impl Context {
    /// The same as `Context::default()`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses this token for cancellation: cancelling it ends every call made with the context.
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancel = token;
        self
    }

    /// Records who is calling, as the host asserts it.
    ///
    /// The framework forwards this unverified: it is the host's word, never read from a call's
    /// arguments.
    pub fn with_caller(mut self, caller: impl Into<Arc<str>>) -> Self {
        self.caller = Some(caller.into());
        self
    }

    /// Records which application the caller calls through (an OAuth client's id, say), as the
    /// host asserts it: call records carry it beside the caller.
    pub fn with_client(mut self, client: impl Into<Arc<str>>) -> Self {
        self.client = Some(client.into());
        self
    }

    /// Sets the instant by which calls made with this context must finish.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Sets the deadline to `timeout` from now.
    pub fn with_timeout(self, timeout: Duration) -> Self {
        self.with_deadline(Instant::now() + timeout)
    }

    /// Listens to the progress that tools report with [`Context::progress`].
    pub fn with_progress(mut self, reporter: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(reporter));
        self
    }

    /// Hears the messages that tools log with [`Context::log`] at `least` or above; those
    /// below it are dropped before they are made into a message.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use tool_core::Context;
    /// use tool_core::call::{LogLevel, LogMessage};
    ///
    /// let heard: Arc<Mutex<Vec<LogMessage>>> = Arc::default();
    /// let sink = heard.clone();
    /// let ctx = Context::new().with_log(LogLevel::Info, move |message| sink.lock().unwrap().push(message));
    /// ctx.log(LogLevel::Debug, "not heard");
    /// ctx.log(LogLevel::Warning, "disk almost full");
    /// let heard = heard.lock().unwrap();
    /// assert_eq!(heard.len(), 1);
    /// assert_eq!((heard[0].level, heard[0].data.as_str()), (LogLevel::Warning, Some("disk almost full")));
    /// ```
    pub fn with_log(
        self,
        least: LogLevel,
        listener: impl Fn(LogMessage) + Send + Sync + 'static,
    ) -> Self {
        self.with_log_arc(least, Arc::new(listener))
    }

    /// As [`Context::with_log`], with a listener the host already holds in an `Arc`: a type of
    /// its own that implements [`LogListener`], shared with whatever else keeps the call's
    /// state, where a closure would be one more allocation per call.
    pub fn with_log_arc(mut self, least: LogLevel, listener: Arc<dyn LogListener>) -> Self {
        self.log = Some(LogSink { listener, least });
        self
    }

    /// Adds a value of application state that handlers read with [`Context::get`]; a value of
    /// the same type added before is replaced.
    pub fn with_extension<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        let mut map = self.extensions.0.as_deref().cloned().unwrap_or_default();
        map.insert(TypeId::of::<T>(), Arc::new(value));
        self.extensions = Extensions(Some(Arc::new(map)));
        self
    }

    /// The cancellation token of this context.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    /// Whether the context has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The caller's identity, as the host asserted it.
    pub fn caller(&self) -> Option<&str> {
        self.caller.as_deref()
    }

    /// The application the caller calls through, as the host asserted it.
    pub fn client(&self) -> Option<&str> {
        self.client.as_deref()
    }

    /// The caller's identity as the context shares it, for what keeps it beyond the call (a
    /// budget's key, a call record) without copying the text.
    pub(crate) fn caller_shared(&self) -> Option<&Arc<str>> {
        self.caller.as_ref()
    }

    /// The deadline, if one was set.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Puts this context's questions ([`Context::ask`]) to `asker`.
    pub fn with_asker(self, asker: impl Asker) -> Self {
        self.with_asker_arc(Arc::new(asker))
    }

    /// Puts this context's questions to `asker` (shared); see [`Context::with_asker`].
    pub fn with_asker_arc(mut self, asker: Arc<dyn Asker>) -> Self {
        self.asker = Some(asker);
        self
    }

    /// The asker questions go to, if the host set one.
    pub fn asker(&self) -> Option<&Arc<dyn Asker>> {
        self.asker.as_ref()
    }

    /// The extension of type `T`, if the host added one.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.extensions
            .0
            .as_ref()?
            .get(&TypeId::of::<T>())?
            .downcast_ref::<T>()
    }

    /// Reports progress to the host; does nothing unless the host listens.
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(reporter) = &self.progress {
            reporter(Progress {
                done,
                total,
                message: message.map(str::to_owned),
            });
        }
    }

    /// Logs `data` (a text, or any JSON) at `level` to the host; does nothing unless the host
    /// listens at `level` or below ([`Context::with_log`]). Over MCP the client hears it as
    /// `notifications/message`, at the level it asked for.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) {
        if let Some(sink) = &self.log
            && level >= sink.least
        {
            sink.listener.hear(LogMessage {
                level,
                data: data.into(),
            });
        }
    }

    /// Whether a message logged at `level` is heard: for a tool to skip making a costly one.
    pub fn logs(&self, level: LogLevel) -> bool {
        self.log.as_ref().is_some_and(|sink| level >= sink.least)
    }

    /// A context for one call within this one: it shares caller, client, progress, logs and extensions, its
    /// token is a child of this one's (cancelling this cancels it, not the other way round),
    /// and its deadline is the earlier of this one's and `deadline`.
    pub fn child(&self, deadline: Option<Instant>) -> Context {
        Context {
            cancel: self.cancel.child_token(),
            caller: self.caller.clone(),
            client: self.client.clone(),
            deadline: earlier(self.deadline, deadline),
            progress: self.progress.clone(),
            log: self.log.clone(),
            asker: self.asker.clone(),
            extensions: self.extensions.clone(),
        }
    }
}

/// The earlier of two deadlines, either of which may be none: the one rule for a call's
/// deadline, a child context's, and a question's.
pub(crate) fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("cancelled", &self.is_cancelled())
            .field("caller", &self.caller)
            .field("client", &self.client)
            .field("deadline", &self.deadline)
            .field("progress", &self.progress.is_some())
            .field("log", &self.log.as_ref().map(|sink| sink.least))
            .field("asker", &self.asker.is_some())
            .field(
                "extensions",
                &self.extensions.0.as_ref().map_or(0, |map| map.len()),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn progress_is_a_no_op_unless_the_host_listens() {
        Context::default().progress(1.0, Some(2.0), Some("half"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let ctx = Context::new().with_progress(move |p| sink.lock().unwrap().push(p));
        ctx.progress(1.0, Some(2.0), Some("half"));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].message.as_deref(), Some("half"));
    }

    #[test]
    fn a_log_below_the_least_level_is_dropped_and_a_child_logs_to_the_same_listener() {
        Context::default().log(LogLevel::Emergency, "nobody listens");
        assert!(!Context::default().logs(LogLevel::Emergency));
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        let ctx = Context::new().with_log(LogLevel::Notice, move |m| sink.lock().unwrap().push(m));
        assert!(!ctx.logs(LogLevel::Info) && ctx.logs(LogLevel::Notice));
        ctx.log(LogLevel::Info, "below");
        ctx.child(None)
            .log(LogLevel::Error, serde_json::json!({"disk": "full"}));
        let heard = heard.lock().unwrap();
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert_eq!(heard[0].level, LogLevel::Error);
        assert_eq!(heard[0].data["disk"], "full");
    }

    #[test]
    fn a_host_type_shared_with_its_call_hears_the_call_s_logs() {
        /// A host's state for one call, which also hears its logs.
        #[derive(Default)]
        struct CallState {
            heard: Mutex<Vec<LogMessage>>,
        }
        impl LogListener for CallState {
            fn hear(&self, message: LogMessage) {
                self.heard.lock().unwrap().push(message);
            }
        }
        let state = Arc::new(CallState::default());
        let ctx = Context::new().with_log_arc(LogLevel::Warning, state.clone());
        ctx.log(LogLevel::Info, "below");
        ctx.child(None).log(LogLevel::Error, "heard");
        let heard = state.heard.lock().unwrap();
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert_eq!(heard[0].data, "heard");
    }

    #[test]
    fn a_level_reads_back_from_its_name() {
        for level in LogLevel::ALL {
            assert_eq!(level.as_str().parse::<LogLevel>(), Ok(level));
            assert_eq!(serde_json::to_value(level).unwrap(), level.as_str());
        }
        let unknown = "verbose".parse::<LogLevel>().unwrap_err();
        assert!(
            unknown.to_string().contains("one of debug, info"),
            "{unknown}"
        );
        assert!(LogLevel::Debug < LogLevel::Info && LogLevel::Alert < LogLevel::Emergency);
    }

    #[test]
    fn child_takes_the_earlier_deadline_and_follows_the_parent_token() {
        let soon = Instant::now() + Duration::from_secs(1);
        let late = soon + Duration::from_secs(10);
        let parent = Context::new().with_deadline(soon);
        let child = parent.child(Some(late));
        assert_eq!(child.deadline(), Some(soon));
        assert!(!child.is_cancelled());
        parent.cancellation().cancel();
        assert!(child.is_cancelled());
    }

    #[test]
    fn a_copy_with_another_token_keeps_everything_else() {
        let soon = Instant::now() + Duration::from_secs(1);
        let base = Context::new()
            .with_caller("alice")
            .with_deadline(soon)
            .with_extension(7u32);
        let token = CancellationToken::new();
        let copy = base.clone().with_cancellation(token.clone());
        assert_eq!(copy.caller(), Some("alice"));
        assert_eq!(copy.deadline(), Some(soon));
        assert_eq!(copy.get::<u32>(), Some(&7));
        token.cancel();
        assert!(copy.is_cancelled());
        assert!(!base.is_cancelled(), "the base keeps its own token");
    }

    #[test]
    fn extensions_are_typed() {
        let ctx = Context::new().with_extension(7u32).with_extension("s");
        assert_eq!(ctx.get::<u32>(), Some(&7));
        assert_eq!(ctx.get::<&str>(), Some(&"s"));
        assert_eq!(ctx.get::<u64>(), None);
    }
}
