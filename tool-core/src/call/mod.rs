//! The way into a call: the call as it arrives ([`ToolCall`]: an id, a tool's name, its
//! [`Arguments`] as the text that came), and what it runs within ([`Context`]: cancellation,
//! the caller the host asserts, a deadline, a progress reporter, the listener of its
//! [`LogMessage`]s, the [`Asker`] of its questions (and of its client's model and roots), and
//! the host's own state).

pub(crate) mod arguments;
pub(crate) mod asker;
pub(crate) mod client;
pub(crate) mod context;
pub(crate) mod future;
pub(crate) mod log;
pub(crate) mod tool_call;

pub use self::arguments::{Arguments, IntoArguments};
pub use self::asker::{Asker, Offers, Question, Reply};
pub use self::client::{Role, Root, Sampled, SamplingMessage, SamplingRequest};
pub use self::context::{CancellationToken, Context, Progress, ProgressReporter};
pub use self::future::BoxFuture;
pub use self::log::{LogLevel, LogListener, LogMessage, UnknownLogLevel};
pub use self::tool_call::ToolCall;
