//! Why a remote server could not be used, and the variable naming servers to start.

/// The variable that names remote servers to start: `cmd1 args :: cmd2 args`.
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub const SERVERS_VARIABLE: &str = "TOOL_MCP_SERVERS";

/// Why a remote server could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub enum RemoteError {
    /// The child process could not be started.
    #[error("could not start the MCP server `{command}`: {source}")]
    Spawn {
        /// The command.
        command: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The server did not complete the MCP handshake.
    #[error("the MCP server `{server}` did not initialize: {reason}")]
    Initialize {
        /// The server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// No access token could be had for the server (its OAuth flow failed).
    #[error("no access token for the MCP server `{server}`: {reason}")]
    Authorize {
        /// The server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The server would not list its tools.
    #[error("the MCP server `{server}` did not list its tools: {reason}")]
    List {
        /// The server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The environment variable could not be read as servers.
    #[error("{SERVERS_VARIABLE} is not `command args :: command args`: {reason}")]
    Environment {
        /// What went wrong.
        reason: String,
    },
}
