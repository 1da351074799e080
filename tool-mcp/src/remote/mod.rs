//! Using a remote MCP server's tools as tools of a registry: what a remote toolkit does with a
//! call is told on [`RemoteToolkit`], where a user of the crate reads it.

mod auth;
mod authorized;
mod connecting;
mod error;
mod follow;
mod forward;
mod http_client;
mod in_order;
mod listening;
mod output;
mod refused;
mod revision;
mod spec;
#[cfg(feature = "remote-oauth")]
mod step_up;
mod tool_list;

pub use self::auth::RemoteAuth;
#[cfg(feature = "remote-oauth")]
pub use self::auth::{AuthorizationCode, Authorize};
pub use self::connecting::Connecting;
pub use self::error::{RemoteError, SERVERS_VARIABLE};
pub use self::follow::Following;
pub use self::revision::Revision;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientRequest, ServerResult,
};
use rmcp::service::{ClientServiceExt, PeerRequestOptions, RoleClient, RunningService};
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::registry::RegistryBuilder;
use tool_core::tool::{Tool, ToolDefinition};
use tool_core::{Context, Refusal};

type Client = RunningService<RoleClient, Forwarder>;

use self::forward::{Forwarder, InFlight};

/// The tools of one remote MCP server, as a toolkit.
///
/// [`RemoteToolkit::connect_stdio`] starts a server as a child process,
/// [`RemoteToolkit::connect_http`] reaches one over streamable HTTP; either lists its tools
/// once and gives a toolkit of them to add to a registry. A call to a remote tool passes the
/// registry's checks first (grant, cancellation, deadline, approval), so nothing is sent for a
/// call the caller may not make; then it is forwarded. A remote refusal in this framework's
/// text form comes back as that same refusal, so a tool answers alike in process and over MCP;
/// any other `isError` result becomes `failed`. A dead server gives `failed`; a hung one is
/// ended by the tool's timeout ([`RemoteToolkit::DEFAULT_TIMEOUT`] unless set) with
/// `timed-out`. A call that is cancelled or times out here is cancelled on the server too:
/// dropping it sends `notifications/cancelled`.
///
/// What the server asks while it answers a call — a form, its client's model, its roots — is
/// put to the calling tool's context, as the tool's own questions are; its progress reaches
/// that context's listener, and its log messages the host's `tracing` log. The toolkit speaks
/// the [`Revision`] it is connected with; its tools follow the server's `tools/list_changed`
/// in a registry given to [`RemoteToolkit::follow`].
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub struct RemoteToolkit {
    name: String,
    link: Link,
    tools_changed: tokio::sync::watch::Receiver<u64>,
    definitions: Vec<ToolDefinition>,
    timeout: Duration,
    /// How long a listing may wait, when it may not wait for ever.
    limit: Option<Duration>,
}

/// What each of a toolkit's tools shares: the connection, the calls in flight on it, and
/// what the registry's names for its tools begin with.
#[derive(Clone)]
struct Link {
    server: String,
    client: Arc<Client>,
    calls: Arc<InFlight>,
    prefix: Arc<str>,
    /// The server's names of the tools left out of the registry ([`RemoteToolkit::without`]).
    left_out: Arc<[String]>,
    /// How the server is reached, for what a failure is told with (a 401 to a token sent).
    reached: error::Reached,
    /// The OAuth scopes each tool needs, by its definition ([`RemoteToolkit::with_scopes`]).
    scopes: Option<Arc<ScopesOf>>,
}

/// What [`RemoteToolkit::with_scopes`] keeps: a tool's scopes, by its definition.
type ScopesOf = dyn Fn(&ToolDefinition) -> Vec<String> + Send + Sync;

impl Link {
    /// The tool the server lists as `definition`, offered under the toolkit's prefix.
    fn tool(&self, mut definition: ToolDefinition, timeout: Duration) -> RemoteTool {
        let listed_as = std::mem::take(&mut definition.name);
        definition.name = self.offered_name(&listed_as);
        if let Some(scopes) = &self.scopes {
            let needed = scopes(&definition);
            definition = definition.with_scopes(needed);
        }
        RemoteTool {
            output_check: definition.output_check(),
            definition: definition.with_timeout(timeout),
            listed_as,
            link: self.clone(),
        }
    }

    /// Whether the server's tool `listed_as` is left out ([`RemoteToolkit::without`]), by its
    /// own name or by the registry's.
    fn leaves_out(&self, listed_as: &str) -> bool {
        (self.left_out.iter())
            .any(|name| name == listed_as || name.strip_prefix(&*self.prefix) == Some(listed_as))
    }

    /// The registry's name for the server's tool `listed_as`.
    fn offered_name(&self, listed_as: &str) -> String {
        format!("{}{listed_as}", self.prefix)
    }
}

impl RemoteToolkit {
    /// How long a remote call may take unless [`RemoteToolkit::with_timeout`] says otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// How long connecting may wait for the server: for its answer to the handshake (and, as
    /// long again, with the client-credentials grant, for the token asked for before it), and
    /// for its tools to be listed (also each time [`RemoteToolkit::follow`] lists them
    /// again). A server that starts slower (a package fetched on its first run) is given
    /// up with [`RemoteError::Initialize`], unless [`Connecting::within`] waits longer. Not
    /// with the authorization-code grant ([`RemoteAuth::AuthorizationCode`](crate::RemoteAuth)),
    /// where the user logs in while the server waits to answer: there the host bounds the
    /// connecting itself, if it will.
    pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);

    /// Starts `command` as an MCP server over stdio and lists its tools; the toolkit is named
    /// `name`. [`RemoteToolkit::connecting`] sets how long to wait for it.
    pub async fn connect_stdio(
        name: impl Into<String>,
        command: tokio::process::Command,
    ) -> Result<Self, RemoteError> {
        Self::connecting(name).stdio(command).await
    }

    /// Reaches an MCP server over streamable HTTP at `url` (`http://127.0.0.1:8000/mcp`),
    /// speaking 2025-11-25, and lists its tools.
    pub async fn connect_http(name: impl Into<String>, url: &str) -> Result<Self, RemoteError> {
        Self::connecting(name).http(url).await
    }

    /// [`RemoteToolkit::connect_http`], speaking `revision`.
    pub async fn connect_http_with(
        name: impl Into<String>,
        url: &str,
        revision: Revision,
    ) -> Result<Self, RemoteError> {
        Self::connecting(name).speaking(revision).http(url).await
    }

    /// [`RemoteToolkit::connect_http_with`] to a server that checks bearer tokens, sending
    /// the tokens `auth` gets: one the host holds, or (the `remote-oauth` feature) one got
    /// by the client-credentials or the authorization-code grant through the server's
    /// metadata, refreshed as it expires.
    ///
    /// ```no_run
    /// use tool_mcp::{RemoteAuth, RemoteToolkit, Revision};
    ///
    /// # async fn connect(token: String) -> Result<(), tool_mcp::RemoteError> {
    /// let remote = RemoteToolkit::connect_http_authorized(
    ///     "notes",
    ///     "https://notes.example.com/mcp",
    ///     Revision::V2026_07_28,
    ///     RemoteAuth::Bearer(token),
    /// )
    /// .await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_http_authorized(
        name: impl Into<String>,
        url: &str,
        revision: Revision,
        auth: RemoteAuth,
    ) -> Result<Self, RemoteError> {
        let connecting = Self::connecting(name).speaking(revision);
        connecting.http_authorized(url, auth).await
    }

    /// Speaks MCP 2025-11-25 over any rmcp transport that writes messages (a child's stdio, an
    /// in-memory `tokio::io::duplex` pipe) and lists the server's tools. Messages are written
    /// in the order they are sent, so a call's cancel never overtakes the call. For streamable
    /// HTTP, use [`RemoteToolkit::connect_http`]: there each message is a request of its own,
    /// and one held back until the one before it is answered could wait for a whole call.
    pub async fn connect<T, E, A>(
        name: impl Into<String>,
        transport: T,
    ) -> Result<Self, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::connecting(name).transport(transport).await
    }

    /// [`RemoteToolkit::connect`], speaking `revision`. Like it, for transports that write
    /// messages: each is written only after the one before it, which over streamable HTTP
    /// could hold a cancel until its call is answered; use [`RemoteToolkit::connect_http_with`].
    pub async fn connect_with<T, E, A>(
        name: impl Into<String>,
        transport: T,
        revision: Revision,
    ) -> Result<Self, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::connecting(name)
            .speaking(revision)
            .transport(transport)
            .await
    }

    /// Speaks `revision` over `transport`, which writes messages in no order of its own, and
    /// lists the server's tools: over HTTP once the server's stream for what it says unasked
    /// is answered (`heard`), so that a change it tells of after the list is heard. The
    /// handshake and each listing wait at most `limit`, when there is one.
    async fn join<T, E, A>(
        name: impl Into<String>,
        transport: T,
        revision: Revision,
        reached: error::Reached,
        heard: Option<listening::Heard>,
        limit: Option<Duration>,
    ) -> Result<Self, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let name = name.into();
        let calls = Arc::new(InFlight::default());
        let (changed, tools_changed) = tokio::sync::watch::channel(0);
        let forwarder = Forwarder {
            server: name.clone(),
            calls: calls.clone(),
            info: client_config(revision),
            tools_changed: Arc::new(changed),
        };
        let serving = forwarder.serve_with_lifecycle(transport, revision::lifecycle(revision));
        let initialized = match limit {
            Some(limit) => tokio::time::timeout(limit, serving)
                .await
                .map_err(|_| error::no_answer_within(limit)),
            None => Ok(serving.await),
        };
        let client = initialized
            .and_then(|served| served.map_err(|error| error::initialize_reason(&error, reached)))
            .map_err(|reason| RemoteError::Initialize {
                server: name.clone(),
                reason,
            })?;
        if let Some(heard) = heard {
            heard.settled().await;
        }
        let definitions = tool_list::list(&name, &client, reached, limit).await?;
        Ok(RemoteToolkit {
            link: Link {
                server: name.clone(),
                client: Arc::new(client),
                calls,
                prefix: Arc::from(""),
                left_out: Arc::from([]),
                reached,
                scopes: None,
            },
            name,
            tools_changed,
            definitions,
            timeout: Self::DEFAULT_TIMEOUT,
            limit,
        })
    }

    /// Sets how long one remote call may take.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Offers each tool under `prefix` and its name on the server (`github_` offers the
    /// server's `search` as `github_search`), so that servers whose tools share names can
    /// serve one registry; calls reach the server under its own names. Set it before the
    /// tools are taken ([`RemoteToolkit::add_to`], [`RemoteToolkit::tools`],
    /// [`RemoteToolkit::follow`]).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.link.prefix = Arc::from(prefix.into());
        self
    }

    /// Gives each tool the OAuth scopes `scopes` says of its definition (as the registry
    /// offers it: under the prefix, with the server's hints), which a caller's token must hold
    /// to see and call it, as `#[tool(scopes(..))]` gives a tool of this crate. A remote
    /// server's tools need none unless told: served behind
    /// [`McpServer::with_bearer_auth`](crate::McpServer), any token for the resource may call
    /// them. Set it before the tools are taken, as the prefix.
    ///
    /// ```no_run
    /// # async fn connect() -> Result<(), tool_mcp::RemoteError> {
    /// let command = tokio::process::Command::new("notes-server");
    /// let notes = tool_mcp::RemoteToolkit::connect_stdio("notes", command)
    ///     .await?
    ///     .with_scopes(|tool| match tool.annotations.read_only {
    ///         true => ["notes:read"],
    ///         false => ["notes:write"],
    ///     });
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_scopes<I>(
        mut self,
        scopes: impl Fn(&ToolDefinition) -> I + Send + Sync + 'static,
    ) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.link.scopes = Some(Arc::new(move |definition: &ToolDefinition| {
            scopes(definition).into_iter().map(Into::into).collect()
        }));
        self
    }

    /// Leaves the server's tools of these names out of the registry, now and when
    /// [`RemoteToolkit::follow`] lists them again: a tool whose schema no provider can be
    /// shown, say, so that the server's other tools can be offered. A name is the server's own
    /// or the registry's (after [`RemoteToolkit::with_prefix`]'s prefix, as a refusal names
    /// it); one the server does not list leaves nothing out. Set it before the tools are taken,
    /// as the prefix.
    pub fn without<I: IntoIterator<Item = S>, S: Into<String>>(mut self, names: I) -> Self {
        let left_out: Vec<String> = (self.link.left_out.iter().cloned())
            .chain(names.into_iter().map(Into::into))
            .collect();
        self.link.left_out = Arc::from(left_out);
        let link = &self.link;
        self.definitions
            .retain(|definition| !link.leaves_out(&definition.name));
        self
    }

    /// The toolkit's name, which grants may use.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The definitions of the remote tools, as the server listed them (under its names, not
    /// after [`RemoteToolkit::with_prefix`]'s prefix).
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.definitions
    }

    /// The remote tools, each forwarding its calls to the server.
    pub fn tools(&self) -> Vec<Arc<dyn Tool>> {
        self.definitions
            .iter()
            .map(|definition| {
                Arc::new(self.link.tool(definition.clone(), self.timeout)) as Arc<dyn Tool>
            })
            .collect()
    }

    /// Adds the remote tools to a registry being built, in the toolkit of this name.
    pub fn add_to(&self, builder: RegistryBuilder) -> RegistryBuilder {
        self.tools().into_iter().fold(builder, |builder, tool| {
            builder.shared_tool(tool, &self.name)
        })
    }

    /// Starts every server named in `TOOL_MCP_SERVERS` (`cmd1 args :: cmd2 args`, arguments
    /// split on whitespace, no quoting); none when it is unset or empty. Each toolkit is named
    /// after its program's file name, or after what a launcher starts (`npx -y
    /// @scope/server-notes` is `server_notes`, `uvx mcp-server-fetch` `mcp_server_fetch`,
    /// `docker run -i mcp/github` `github`); a name taken already gets `_2`, `_3`, ….
    pub async fn from_env() -> Result<Vec<RemoteToolkit>, RemoteError> {
        match std::env::var(SERVERS_VARIABLE) {
            Ok(spec) => Self::from_spec(&spec).await,
            Err(_) => Ok(Vec::new()),
        }
    }

    /// Starts every server of a spec in the form `TOOL_MCP_SERVERS` takes.
    pub async fn from_spec(spec: &str) -> Result<Vec<RemoteToolkit>, RemoteError> {
        let mut toolkits = Vec::new();
        for server in spec::servers(spec)? {
            let mut command = tokio::process::Command::new(server.program);
            command.args(server.args);
            toolkits.push(RemoteToolkit::connect_stdio(server.name, command).await?);
        }
        Ok(toolkits)
    }
}

/// What the toolkit's client declares: forms, sampling and roots, each answered by whoever
/// the calling tool's context reaches (a call whose context reaches nobody is refused).
fn client_config(revision: Revision) -> ClientConfig {
    let capabilities: ClientCapabilities = serde_json::from_value(serde_json::json!({
        "elicitation": {"form": {}},
        "sampling": {},
        "roots": {},
    }))
    .unwrap_or_default();
    let mut config = ClientConfig::new(
        capabilities,
        rmcp::model::Implementation::new("tool-mcp", env!("CARGO_PKG_VERSION")),
    );
    config.protocol_version = revision::version(revision);
    config
}

/// One tool of a remote server.
struct RemoteTool {
    /// As offered: under the toolkit's prefix.
    definition: ToolDefinition,
    /// The tool's name on the server.
    listed_as: String,
    /// What its results are held to, when its server lists an output schema.
    output_check: Option<tool_core::tool::OutputCheck>,
    link: Link,
}

/// How many `input_required` rounds one call may take before it is given up.
const MAX_ROUNDS: usize = 16;

impl RemoteTool {
    /// Sends one `tools/call` and waits for its answer, the call's context entered as the one
    /// the server's progress (by the token rmcp gave the request) and requests belong to.
    /// Dropped before the answer (the call cancelled or out of time), it tells the server
    /// with `notifications/cancelled`.
    async fn call_once(
        &self,
        params: CallToolRequestParams,
        ctx: &Context,
    ) -> Result<ServerResult, Refusal> {
        let unanswered = |error: rmcp::ServiceError| {
            Refusal::failed(error::call_failure(
                &self.link.server,
                &error,
                self.link.reached,
            ))
        };
        let peer = self.link.client.peer();
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let flying = self.link.calls.enter(ctx);
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(unanswered)?;
        flying.sent_with(&handle.progress_token);
        let mut abandoned = Abandoned {
            peer,
            id: Some(handle.id.clone()),
        };
        let answer = handle.await_response().await;
        abandoned.id = None;
        answer.map_err(unanswered)
    }
}

/// A request whose answer nobody waits for any more, cancelled on the server when dropped.
struct Abandoned<'a> {
    peer: &'a rmcp::service::Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let peer = self.peer.clone();
        let cancelled =
            CancelledNotificationParam::new(Some(id), Some("the caller stopped waiting".into()));
        // Drop cannot wait for the notification to be sent; the connection's own task sends it.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            crate::background::spawn_on(&runtime, async move {
                let _ = peer.notify_cancelled(cancelled).await;
            });
        }
    }
}

impl Tool for RemoteTool {
    fn definition(&self) -> ToolDefinition {
        self.definition.clone()
    }

    fn __makes_its_future_only(&self) -> bool {
        true
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async move {
            let arguments = self.definition.arguments_object(arguments)?;
            let mut params =
                CallToolRequestParams::new(self.listed_as.clone()).with_arguments(arguments);
            for _ in 0..MAX_ROUNDS {
                match self.call_once(params.clone(), ctx).await? {
                    ServerResult::CallToolResult(result) => {
                        let outcome = crate::convert::outcome_of(&result).map_err(|refused| {
                            refused::as_offered(refused, &self.listed_as, &self.definition.name)
                        })?;
                        let check = self.output_check.as_ref();
                        output::held_to_schema(&self.link.server, &self.listed_as, check, &result)?;
                        return Ok(outcome);
                    }
                    ServerResult::InputRequiredResult(round) => {
                        let requests = round.input_requests.unwrap_or_default();
                        if requests.is_empty() && round.request_state.is_none() {
                            return Err(Refusal::failed(format!(
                                "the MCP server `{}` answered `input_required` with nothing \
                                 to answer and no state to send back",
                                self.link.server
                            )));
                        }
                        let answers = forward::answer_round(ctx, requests).await?;
                        params.input_responses = (!answers.is_empty()).then_some(answers);
                        params.request_state = round.request_state;
                    }
                    ServerResult::CreateTaskResult(_) => {
                        return Err(Refusal::failed(format!(
                            "the MCP server `{}` made the call a task, which a remote toolkit \
                             does not follow",
                            self.link.server
                        )));
                    }
                    _ => {
                        return Err(Refusal::failed(format!(
                            "the MCP server `{}` answered `tools/call` with something else \
                             than a tool's result",
                            self.link.server
                        )));
                    }
                }
            }
            Err(Refusal::failed(format!(
                "the MCP server `{}` asked for input {MAX_ROUNDS} times without answering",
                self.link.server
            )))
        })
    }
}
