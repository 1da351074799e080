//! Why a remote server could not be used, and the variable naming servers to start.

use std::error::Error as _;

use rmcp::transport::streamable_http_client::StreamableHttpError;

/// The variable that names remote servers to start: `cmd1 args :: cmd2 args`.
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub const SERVERS_VARIABLE: &str = "TOOL_MCP_SERVERS";

/// Why a remote server could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub enum RemoteError {
    /// The child process could not be started.
    #[error(
        "could not start the MCP server `{command}`: {source}{}",
        spawn_hint(source)
    )]
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
    /// No access token could be had for the server by the client-credentials grant (its flow
    /// failed, or took longer than connecting may). An authorization-code grant that fails
    /// is told as [`RemoteError::Initialize`], as the server's first answers carry it.
    #[error("no access token for the MCP server `{server}`: {reason}")]
    Authorize {
        /// The server's URL.
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

/// What to do about a program that could not be started, where its error says.
fn spawn_hint(error: &std::io::Error) -> &'static str {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            "; check that the program is installed and on the PATH, or name it by its full path"
        }
        std::io::ErrorKind::PermissionDenied => "; check that the program may be run (its mode)",
        _ => "",
    }
}

/// How a toolkit reached its server: what a failure to connect is told with depends on it.
#[derive(Clone, Copy)]
pub(super) enum Reached {
    /// A child process's stdio ([`RemoteToolkit::connect_stdio`](super::RemoteToolkit)).
    Child,
    /// Streamable HTTP, with a token in every request or with none.
    Http {
        /// Requests carry a token.
        token_sent: bool,
    },
    /// A transport of the host's.
    Other,
}

impl Reached {
    /// Whether requests carry a token, over HTTP; `None` for another transport.
    fn token_sent(self) -> Option<bool> {
        match self {
            Reached::Http { token_sent } => Some(token_sent),
            Reached::Child | Reached::Other => None,
        }
    }
}

/// Why the MCP handshake failed, in words (see [`transport_words`]).
pub(super) fn initialize_reason(
    error: &rmcp::service::ClientInitializeError,
    reached: Reached,
) -> String {
    use rmcp::service::ClientInitializeError;
    let child = matches!(reached, Reached::Child);
    match error {
        ClientInitializeError::TransportError { error, context } => {
            let words = transport_words(error, reached.token_sent());
            let words = format!("{words} (at rmcp's step `{context}`)");
            if child && ended(&*error.error) {
                format!("{words}: {EXITED}")
            } else {
                words
            }
        }
        ClientInitializeError::ConnectionClosed(_) if child => format!("{error}: {EXITED}"),
        other => other.to_string(),
    }
}

/// What a child process that ended the handshake is told of: most often a command that starts
/// something other than an MCP server on stdio (a server without the option that makes it
/// serve, which prints its usage and exits).
const EXITED: &str = "the child process exited, or closed its standard output, before it \
                      answered: check that the command starts an MCP server on stdio";

/// Whether `error` is, or is caused by, a pipe whose other end is gone: a child that exited.
fn ended(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        let io = error.downcast_ref::<std::io::Error>();
        if io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
            return true;
        }
        cause = error.source();
    }
    false
}

/// Why a request to the server, reached as `reached` says, got no answer, in words (see
/// [`transport_words`]), or the error the server answered with.
pub(super) fn service_reason(error: &rmcp::ServiceError, reached: Reached) -> String {
    match error {
        rmcp::ServiceError::TransportSend(error) => transport_words(error, reached.token_sent()),
        rmcp::ServiceError::McpError(error) => format!(
            "it answered with JSON-RPC error {}: {}",
            error.code.0, error.message
        ),
        other => other.to_string(),
    }
}

/// Why a call to a remote tool has no result: the server's error, or why it did not answer.
pub(super) fn call_failure(server: &str, error: &rmcp::ServiceError, reached: Reached) -> String {
    let reason = service_reason(error, reached);
    match error {
        rmcp::ServiceError::McpError(_) => {
            format!("the MCP server `{server}` refused the call: {reason}")
        }
        _ => format!("the MCP server `{server}` did not answer: {reason}"),
    }
}

/// What a server that kept silent past `limit` is told of.
pub(super) fn no_answer_within(limit: std::time::Duration) -> String {
    format!(
        "no answer within {} s (to wait longer for a server that starts slowly, such as one \
         npx or docker fetches on its first run, connect with \
         `RemoteToolkit::connecting(name).within(duration)`)",
        limit.as_secs_f64()
    )
}

/// A transport's failure with each cause under it (a refused redirect says why), without the
/// transport's type name, which rmcp writes into its words and which tells a reader, a model
/// among them, nothing it can act on.
/// `token_sent`: whether the requests carry a token (`None` for a transport not HTTP), for a
/// 401's words.
fn transport_words(
    error: &rmcp::transport::DynamicTransportError,
    token_sent: Option<bool>,
) -> String {
    let mut words = error.error.to_string();
    let http = error
        .error
        .downcast_ref::<StreamableHttpError<reqwest::Error>>();
    // The HTTP client's error is held without being named its source: reached by its type.
    let mut cause = match http {
        Some(StreamableHttpError::Client(client)) => client.source(),
        _ => error.error.source(),
    };
    while let Some(under) = cause {
        let said = under.to_string();
        if !words.contains(&said) {
            words = format!("{words}: {said}");
        }
        cause = under.source();
    }
    if asks_for_a_token(http) {
        words.push_str(match token_sent {
            Some(false) => {
                "; the server takes only calls with a token: connect with \
                 `RemoteToolkit::connect_http_authorized`"
            }
            Some(true) => {
                "; the server refused the token it was sent: connect with one it takes (not \
                 expired, issued for this server's URL)"
            }
            None => {
                "; the server takes only calls with a token it accepts: connect with \
                 `RemoteToolkit::connect_http_authorized`, with a token not expired and issued \
                 for this server's URL"
            }
        });
    }
    words
}

/// Whether the HTTP client was answered 401, with a challenge or without one.
fn asks_for_a_token(error: Option<&StreamableHttpError<reqwest::Error>>) -> bool {
    match error {
        Some(StreamableHttpError::AuthRequired(_)) => true,
        // rmcp writes the status of an answer it cannot read first: `HTTP 401 Unauthorized: ...`.
        Some(StreamableHttpError::UnexpectedServerResponse(said)) => said.starts_with("HTTP 401"),
        _ => false,
    }
}
