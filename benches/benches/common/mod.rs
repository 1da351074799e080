//! The contenders that need rmcp or rig (dev-dependencies, so they live beside the benchmarks),
//! each running the workload's tool fn on the workload's input text.

#![allow(dead_code)] // each benchmark target uses some of these

use std::convert::Infallible;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientJsonRpcMessage, GetExtensions, GetMeta, Implementation,
    RequestId, ServerJsonRpcMessage,
};
use rmcp::service::{Peer, RequestContext, RoleClient, RoleServer, RunningService, Service};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tool_benches::{Args, Summary};

/// The tool with rmcp's macros, its router built once and kept, as rmcp's own examples do
/// with `#[tool_handler(router = self.tool_router)]`.
#[derive(Clone)]
pub struct RmcpStored {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl RmcpStored {
    pub fn new() -> Self {
        RmcpStored {
            tool_router: Self::tool_router(),
        }
    }

    /// Counts events of a kind in a time window.
    #[tool(name = "event_count", annotations(read_only_hint = true))]
    async fn event_count(&self, Parameters(args): Parameters<Args>) -> Json<Summary> {
        Json(tool_benches::run(args).await)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpStored {}

/// The same, with the plain `#[tool_handler]` of rmcp's README, which builds the router again
/// for every call.
#[derive(Clone)]
pub struct RmcpRebuilt;

#[tool_router]
impl RmcpRebuilt {
    /// Counts events of a kind in a time window.
    #[tool(name = "event_count", annotations(read_only_hint = true))]
    async fn event_count(&self, Parameters(args): Parameters<Args>) -> Json<Summary> {
        Json(tool_benches::run(args).await)
    }
}

#[tool_handler]
impl ServerHandler for RmcpRebuilt {}

/// The same tool through rig's `Tool` trait (via `PortableTool`, the context-free form).
pub struct RigEventCount;

impl rig_core::tool::PortableTool for RigEventCount {
    const NAME: &'static str = "event_count";
    type Args = Args;
    type Output = Summary;
    type Error = Infallible;

    fn description(&self) -> String {
        "Counts events of a kind in a time window.".to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(Args)).expect("a schema is JSON")
    }

    async fn call(&self, args: Args) -> Result<Summary, Infallible> {
        Ok(tool_benches::run(args).await)
    }
}

/// A server-side `Peer`, for building the `RequestContext` that `Service::handle_request`
/// takes, from a service served directly on a pipe nobody writes to. Keep the returned
/// service alive while the peer is used. Needs a tokio runtime (to spawn its loop).
pub fn idle_peer<S: Service<RoleServer>>(
    service: S,
) -> (RunningService<RoleServer, S>, Peer<RoleServer>) {
    let (end, _other) = tokio::io::duplex(64);
    std::mem::forget(_other); // an open, silent pipe: the service waits forever
    let running = rmcp::service::serve_directly(service, end, None);
    let peer = running.peer().clone();
    (running, peer)
}

/// What rmcp's service loop does with one request's text, minus the transport: parse the
/// JSON-RPC message, move its meta and extensions into a `RequestContext`, call
/// `handle_request`, and serialize the response.
pub async fn handle_mcp_text<S: Service<RoleServer>>(
    service: &S,
    peer: &Peer<RoleServer>,
    text: &str,
) -> String {
    let message: ClientJsonRpcMessage = serde_json::from_str(text).expect("a JSON-RPC message");
    let (mut request, id): (_, RequestId) = message.into_request().expect("a request");
    let mut context = RequestContext::new(id.clone(), peer.clone());
    std::mem::swap(&mut context.meta, request.get_meta_mut());
    std::mem::swap(&mut context.extensions, request.extensions_mut());
    let response = match service.handle_request(request, context).await {
        Ok(result) => ServerJsonRpcMessage::response(result, id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    };
    serde_json::to_string(&response).expect("a response serializes")
}

/// Serves `service` on `end` in a task of the current runtime, until the client leaves.
pub fn spawn_server<S: Service<RoleServer> + Send>(service: S, end: DuplexStream) {
    tokio::spawn(async move {
        if let Ok(running) = service.serve(end).await {
            let _ = running.waiting().await;
        }
    });
}

/// Serves `server` on `end` behind `serve_lines`, the line filter `serve_stdio` uses.
pub fn spawn_lines_server(server: tool_mcp::McpServer, end: DuplexStream) {
    tokio::spawn(async move {
        let (reader, writer) = tokio::io::split(end);
        let _ = server.serve_lines(reader, writer).await;
    });
}

/// An rmcp client on `transport`, as `tool-mcp`'s `RemoteToolkit` makes one (but for the
/// order it keeps among its writes).
pub async fn rmcp_client(transport: DuplexStream) -> RunningService<RoleClient, ClientConfig> {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("bench", "0"),
    )
    .serve(transport)
    .await
    .expect("the client initializes")
}

/// The limit of a round trip over a pipe: one call per line each way, answered by the
/// hand-written [`tool_benches::baseline`]. Serves until the other end closes.
pub async fn serve_json_lines(end: DuplexStream) {
    let (read, mut write) = tokio::io::split(end);
    let mut lines = BufReader::new(read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let mut answer = tool_benches::baseline(&line).unwrap_or_default();
        answer.push('\n');
        if write.write_all(answer.as_bytes()).await.is_err() {
            break;
        }
    }
}

/// The client half of [`serve_json_lines`].
pub struct JsonLinesClient {
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    write: tokio::io::WriteHalf<DuplexStream>,
}

impl JsonLinesClient {
    pub fn new(end: DuplexStream) -> Self {
        let (read, write) = tokio::io::split(end);
        JsonLinesClient {
            lines: BufReader::new(read).lines(),
            write,
        }
    }

    /// Sends one call and reads its answer.
    pub async fn call(&mut self, call: &str) -> String {
        let mut line = String::with_capacity(call.len() + 1);
        line.push_str(call);
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.expect("sent");
        self.lines
            .next_line()
            .await
            .expect("read")
            .expect("answered")
    }
}

/// The same tool as a rig `DynamicTool`, rig's own form for a tool defined at run time: its
/// callback takes the arguments as the `Value` rig parsed them into.
pub fn rig_dynamic_event_count() -> rig_core::tool::DynamicTool {
    let name = rig_core::message::ToolName::new("event_count").expect("a tool name");
    let parameters = serde_json::to_value(schemars::schema_for!(Args)).expect("a schema is JSON");
    rig_core::tool::DynamicTool::new(
        name,
        "Counts events of a kind in a time window.",
        parameters,
        |arguments: serde_json::Value| {
            Box::pin(async move {
                let args =
                    <Args as serde::Deserialize>::deserialize(&arguments).map_err(|error| {
                        rig_core::tool::ToolExecutionError::new(
                            rig_core::tool::ToolErrorKind::InvalidArgs,
                            error.to_string(),
                        )
                    })?;
                let summary = tool_benches::run(args).await;
                serde_json::to_string(&summary)
                    .map(rig_core::tool::ToolOutput::text)
                    .map_err(|error| {
                        rig_core::tool::ToolExecutionError::new(
                            rig_core::tool::ToolErrorKind::Other,
                            error.to_string(),
                        )
                    })
            })
        },
    )
}
