//! A tool's log messages to whoever called it ([`Context::log`](crate::Context::log)): a
//! level from MCP's eight (syslog's, RFC 5424) and any JSON, handed to the host's listener
//! when the message is at or above the level the host listens at, and dropped otherwise.
//!
//! The host decides where messages go: in process, a closure of its own; over MCP, the
//! client's `notifications/message`, at the level the client asked for.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::Value;

/// How severe a log message is, least first: MCP's levels, which are syslog's.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detail for whoever debugs the tool.
    Debug,
    /// What the tool is doing.
    Info,
    /// Normal but worth noting.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system cannot be used.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name as MCP writes it: `debug`, `info`, …, `emergency`.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is none of [`LogLevel`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is no log level: write one of debug, info, notice, warning, error, critical, alert, emergency"
)]
pub struct UnknownLogLevel(pub String);

impl FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
            .ok_or_else(|| UnknownLogLevel(name.to_owned()))
    }
}

/// One message a tool logged: its level and what it says, any JSON (a text, or an object of
/// details).
#[derive(Clone, Debug, PartialEq)]
pub struct LogMessage {
    /// How severe it is.
    pub level: LogLevel,
    /// What it says.
    pub data: Value,
}

/// Receives the log messages of a running tool: any `Fn(LogMessage)` closure
/// ([`Context::with_log`](crate::Context::with_log)), or a host's own type shared with the
/// rest of its call ([`Context::with_log_arc`](crate::Context::with_log_arc)), so that a host
/// which keeps other state for the call makes one allocation for both.
pub trait LogListener: Send + Sync {
    /// Hears one message, at or above the level the host listens at.
    fn hear(&self, message: LogMessage);
}

impl<F: Fn(LogMessage) + Send + Sync> LogListener for F {
    fn hear(&self, message: LogMessage) {
        self(message)
    }
}

/// Where a context's log messages go: the host's listener and the least level it hears.
#[derive(Clone)]
pub(crate) struct LogSink {
    pub(crate) listener: Arc<dyn LogListener>,
    pub(crate) least: LogLevel,
}
