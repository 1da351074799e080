//! Connecting to a remote MCP server with what the shortcuts (`RemoteToolkit::connect_stdio`
//! and the rest) leave at their defaults: how long to wait for the server, and the MCP
//! revision to speak. Each shortcut is one of these settings.

use std::time::Duration;

use rmcp::service::RoleClient;
use rmcp::transport::TokioChildProcess;

use super::error::Reached;
use super::{RemoteAuth, RemoteError, RemoteToolkit, Revision, authorized, in_order};

/// How to connect to a remote MCP server, made by [`RemoteToolkit::connecting`]; nothing
/// happens until [`stdio`](Connecting::stdio), [`http`](Connecting::http),
/// [`http_authorized`](Connecting::http_authorized) or [`transport`](Connecting::transport)
/// is awaited.
///
/// ```no_run
/// use std::time::Duration;
/// use tool_mcp::RemoteToolkit;
///
/// # async fn connect() -> Result<(), tool_mcp::RemoteError> {
/// // A server docker pulls on its first run may take minutes to answer.
/// let mut command = tokio::process::Command::new("docker");
/// command.args(["run", "-i", "--rm", "mcp/github"]);
/// let github = RemoteToolkit::connecting("github")
///     .within(Duration::from_secs(600))
///     .stdio(command)
///     .await?;
/// # Ok(()) }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
#[must_use = "nothing connects until `stdio`, `http`, `http_authorized` or `transport` is awaited"]
#[derive(Clone, Debug)]
pub struct Connecting {
    name: String,
    limit: Option<Duration>,
    revision: Revision,
}

impl RemoteToolkit {
    /// Connecting to a server whose toolkit is named `name`, waiting at most
    /// [`RemoteToolkit::CONNECT_TIMEOUT`] and speaking 2025-11-25 unless told otherwise.
    pub fn connecting(name: impl Into<String>) -> Connecting {
        Connecting {
            name: name.into(),
            limit: Some(Self::CONNECT_TIMEOUT),
            revision: Revision::default(),
        }
    }
}

impl Connecting {
    /// Waits at most `limit` for the server's answer to the handshake and for each listing of
    /// its tools (also each time [`RemoteToolkit::follow`] lists them again), in place of
    /// [`RemoteToolkit::CONNECT_TIMEOUT`]: longer for a server fetched on its first run
    /// (`npx`, `uvx`, `docker run`), shorter where a slow server should not hold a host's
    /// start.
    pub fn within(mut self, limit: Duration) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Waits for the server as long as it takes, for a host that bounds connecting itself.
    pub fn without_limit(mut self) -> Self {
        self.limit = None;
        self
    }

    /// Speaks `revision` of MCP.
    pub fn speaking(mut self, revision: Revision) -> Self {
        self.revision = revision;
        self
    }

    /// Starts `command` as an MCP server over stdio and lists its tools.
    pub async fn stdio(
        self,
        command: tokio::process::Command,
    ) -> Result<RemoteToolkit, RemoteError> {
        let shown = format!("{:?}", command.as_std());
        let transport = TokioChildProcess::new(command).map_err(|source| RemoteError::Spawn {
            command: shown,
            source,
        })?;
        self.reached(transport, Reached::Child).await
    }

    /// Reaches an MCP server over streamable HTTP at `url` (`http://127.0.0.1:8000/mcp`) and
    /// lists its tools.
    pub async fn http(self, url: &str) -> Result<RemoteToolkit, RemoteError> {
        self.over_http(url, None).await
    }

    /// [`Connecting::http`] to a server that checks bearer tokens, sending the tokens `auth`
    /// gets (see [`RemoteToolkit::connect_http_authorized`]); a client-credentials token is
    /// asked for first, waited for as long as the handshake is. With the authorization-code grant,
    /// whose user logs in while the server waits to answer, connecting has no limit.
    pub async fn http_authorized(
        self,
        url: &str,
        auth: RemoteAuth,
    ) -> Result<RemoteToolkit, RemoteError> {
        self.over_http(url, Some(&auth)).await
    }

    /// Speaks MCP to the server at `url` over streamable HTTP, sending the tokens `auth` gets,
    /// if any; with the authorization-code grant, where the user logs in inside the server's
    /// first answers, without a limit.
    async fn over_http(
        self,
        url: &str,
        auth: Option<&RemoteAuth>,
    ) -> Result<RemoteToolkit, RemoteError> {
        // The HTTP client refuses to start without a process-wide TLS provider.
        crate::tls::install_provider();
        let reached = Reached::Http {
            token_sent: auth.is_some(),
        };
        let (name, revision) = (self.name, self.revision);
        #[cfg(feature = "remote-oauth")]
        let logs_in = matches!(auth, Some(RemoteAuth::AuthorizationCode(_)));
        #[cfg(not(feature = "remote-oauth"))]
        let logs_in = false;
        let limit = self.limit.filter(|_| !logs_in);
        // A client-credentials token is asked for before the handshake, within a limit of its
        // own of the same length.
        let transport = authorized::transport(&name, url, auth);
        let transport = match limit {
            Some(limit) => tokio::time::timeout(limit, transport).await.map_err(|_| {
                RemoteError::Authorize {
                    server: url.to_owned(),
                    reason: format!(
                        "no token within {} s (the server's metadata and its authorization \
                         server were asked; connect with \
                         `RemoteToolkit::connecting(name).within(duration)` to wait longer)",
                        limit.as_secs_f64()
                    ),
                }
            })?,
            None => transport.await,
        };
        match transport? {
            (authorized::Transport::Plain(transport), heard) => {
                RemoteToolkit::join(name, transport, revision, reached, Some(heard), limit).await
            }
            #[cfg(feature = "remote-oauth")]
            (authorized::Transport::SteppingUp(transport), heard) => {
                RemoteToolkit::join(name, transport, revision, reached, Some(heard), limit).await
            }
        }
    }

    /// Speaks MCP over any rmcp transport that writes messages (a child's stdio, an in-memory
    /// `tokio::io::duplex` pipe) and lists the server's tools; see [`RemoteToolkit::connect`].
    pub async fn transport<T, E, A>(self, transport: T) -> Result<RemoteToolkit, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.reached(transport, Reached::Other).await
    }

    /// [`Connecting::transport`], reached as `reached` says, for what a failure is told with.
    async fn reached<T, E, A>(
        self,
        transport: T,
        reached: Reached,
    ) -> Result<RemoteToolkit, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let in_order = in_order::InOrder::new(transport.into_transport());
        let (name, revision, limit) = (self.name, self.revision, self.limit);
        RemoteToolkit::join(name, in_order, revision, reached, None, limit).await
    }
}
