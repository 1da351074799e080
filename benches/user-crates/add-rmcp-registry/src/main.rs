//! The add tool's registry served over stdio by rmcp's server, through a handler written by
//! hand: tools listed and called, nothing more (no tool-mcp). What any server made of
//! tool-core and rmcp's server builds at the least, beside which tool-mcp's own is measured.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use tool_core::{Context, Registry, ToolCall, registry, tool};

/// Adds two numbers.
#[tool(readonly)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

struct ByHand(Registry);

fn internal(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

impl ServerHandler for ByHand {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut list = ListToolsResult::default();
        for definition in self.0.definitions().iter() {
            let tool = tool_core::providers::mcp::tool(definition).map_err(internal)?;
            list.tools
                .push(serde_json::from_value(tool).map_err(internal)?);
        }
        Ok(list)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let call = ToolCall::new(context.id.to_string(), request.name, arguments);
        let result = self.0.call(call, &Context::new()).await;
        let result = tool_core::providers::mcp::write_result(&result);
        let result: CallToolResult = serde_json::from_value(result).map_err(internal)?;
        Ok(result.into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = ByHand(registry![Add])
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
