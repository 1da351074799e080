//! Using a remote MCP server's tools as tools of a registry.
//!
//! [`RemoteToolkit::connect_stdio`] starts a server as a child process,
//! [`RemoteToolkit::connect_http`] reaches one over streamable HTTP; either lists its tools
//! once and gives a toolkit of them to add to a registry. A call to a remote tool passes the
//! registry's checks first (grant, cancellation, deadline, approval), so nothing is sent for a
//! call the caller may not make; then it is forwarded. A remote refusal in this framework's
//! text form comes back as that same refusal, so a tool answers alike in process and over MCP;
//! any other `isError` result becomes `failed`. A dead server gives `failed`; a hung one is
//! ended by the tool's timeout ([`RemoteToolkit::DEFAULT_TIMEOUT`] unless set) with `timed-out`. A
//! call that is cancelled or times out here is cancelled on the server too: dropping it sends
//! `notifications/cancelled`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::registry::RegistryBuilder;
use tool_core::tool::{Annotations, Tool, ToolDefinition};
use tool_core::{Context, Refusal};

/// The variable that names remote servers to start: `cmd1 args :: cmd2 args`.
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub const SERVERS_VARIABLE: &str = "TOOL_MCP_SERVERS";

type Client = RunningService<RoleClient, ClientConfig>;

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

/// The tools of one remote MCP server, as a toolkit.
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub struct RemoteToolkit {
    name: String,
    client: Arc<Client>,
    definitions: Vec<ToolDefinition>,
    timeout: Duration,
}

impl RemoteToolkit {
    /// How long a remote call may take unless [`RemoteToolkit::with_timeout`] says otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// Starts `command` as an MCP server over stdio and lists its tools; the toolkit is named
    /// `name`.
    pub async fn connect_stdio(
        name: impl Into<String>,
        command: tokio::process::Command,
    ) -> Result<Self, RemoteError> {
        let shown = format!("{:?}", command.as_std());
        let transport = TokioChildProcess::new(command).map_err(|source| RemoteError::Spawn {
            command: shown,
            source,
        })?;
        Self::connect(name, transport).await
    }

    /// Reaches an MCP server over streamable HTTP at `url` (`http://127.0.0.1:8000/mcp`) and
    /// lists its tools.
    pub async fn connect_http(name: impl Into<String>, url: &str) -> Result<Self, RemoteError> {
        // The HTTP client refuses to start without a process-wide TLS provider; install ring's
        // unless the host installed one already (then this does nothing).
        let _ = rustls::crypto::ring::default_provider().install_default();
        Self::connect(name, StreamableHttpClientTransport::from_uri(url)).await
    }

    /// Speaks MCP over any rmcp transport (an in-memory `tokio::io::duplex` pipe, say) and
    /// lists the server's tools.
    pub async fn connect<T, E, A>(
        name: impl Into<String>,
        transport: T,
    ) -> Result<Self, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let name = name.into();
        let client =
            client_config()
                .serve(transport)
                .await
                .map_err(|error| RemoteError::Initialize {
                    server: name.clone(),
                    reason: error.to_string(),
                })?;
        Self::from_client(name, client).await
    }

    async fn from_client(name: String, client: Client) -> Result<Self, RemoteError> {
        let tools = client
            .list_all_tools()
            .await
            .map_err(|error| RemoteError::List {
                server: name.clone(),
                reason: error.to_string(),
            })?;
        let definitions = tools
            .into_iter()
            .map(|tool| definition_of(&tool))
            .collect::<Result<_, _>>()
            .map_err(|reason| RemoteError::List {
                server: name.clone(),
                reason,
            })?;
        Ok(RemoteToolkit {
            name,
            client: Arc::new(client),
            definitions,
            timeout: Self::DEFAULT_TIMEOUT,
        })
    }

    /// Sets how long one remote call may take.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The toolkit's name, which grants may use.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The definitions of the remote tools, as the server listed them.
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.definitions
    }

    /// The remote tools, each forwarding its calls to the server.
    pub fn tools(&self) -> Vec<Arc<dyn Tool>> {
        self.definitions
            .iter()
            .map(|definition| {
                let definition = definition.clone().with_timeout(self.timeout);
                Arc::new(RemoteTool {
                    definition,
                    server: self.name.clone(),
                    client: self.client.clone(),
                }) as Arc<dyn Tool>
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
    /// after its program's file name.
    pub async fn from_env() -> Result<Vec<RemoteToolkit>, RemoteError> {
        match std::env::var(SERVERS_VARIABLE) {
            Ok(spec) => Self::from_spec(&spec).await,
            Err(_) => Ok(Vec::new()),
        }
    }

    /// Starts every server of a spec in the form `TOOL_MCP_SERVERS` takes.
    pub async fn from_spec(spec: &str) -> Result<Vec<RemoteToolkit>, RemoteError> {
        let value = spec;
        let mut toolkits = Vec::new();
        for spec in value
            .split("::")
            .map(str::trim)
            .filter(|spec| !spec.is_empty())
        {
            let mut words = spec.split_whitespace();
            let Some(program) = words.next() else {
                continue;
            };
            let name = std::path::Path::new(program)
                .file_stem()
                .and_then(|stem| stem.to_str())
                .map(|stem| stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_"))
                .ok_or_else(|| RemoteError::Environment {
                    reason: format!("`{program}` has no file name"),
                })?;
            let mut command = tokio::process::Command::new(program);
            command.args(words);
            toolkits.push(RemoteToolkit::connect_stdio(name, command).await?);
        }
        Ok(toolkits)
    }
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        rmcp::model::Implementation::new("tool-mcp", env!("CARGO_PKG_VERSION")),
    )
}

/// A remote tool's definition, read from its `tools/list` entry.
fn definition_of(tool: &rmcp::model::Tool) -> Result<ToolDefinition, String> {
    let hints = tool.annotations.as_ref();
    let hint = |read: fn(&rmcp::model::ToolAnnotations) -> Option<bool>| {
        hints.and_then(read).unwrap_or(false)
    };
    // The remote server owns its schemas and checks calls against them; this registry cannot
    // retype them, nor refuse a keyword it could not check itself.
    let mut definition = ToolDefinition::new(
        tool.name.to_string(),
        tool.description.as_deref().unwrap_or_default(),
        (*tool.input_schema).clone(),
    )
    .allowing_any()
    .checked_elsewhere();
    definition.title = tool
        .title
        .clone()
        .or_else(|| hints.and_then(|hints| hints.title.clone()));
    definition.output_schema = tool.output_schema.as_deref().cloned();
    definition.annotations = Annotations {
        read_only: hint(|hints| hints.read_only_hint),
        destructive: hint(|hints| hints.destructive_hint),
        idempotent: hint(|hints| hints.idempotent_hint),
        open_world: hint(|hints| hints.open_world_hint),
    };
    Ok(definition)
}

/// One tool of a remote server.
struct RemoteTool {
    definition: ToolDefinition,
    server: String,
    client: Arc<Client>,
}

impl Tool for RemoteTool {
    fn definition(&self) -> ToolDefinition {
        self.definition.clone()
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async move {
            let arguments = self.definition.arguments_object(arguments)?;
            let params =
                CallToolRequestParams::new(self.definition.name.clone()).with_arguments(arguments);
            let result = self.client.call_tool(params).await.map_err(|error| {
                Refusal::failed(format!(
                    "the MCP server `{}` did not answer: {error}",
                    self.server
                ))
            })?;
            crate::convert::outcome_of(&result)
        })
    }
}
