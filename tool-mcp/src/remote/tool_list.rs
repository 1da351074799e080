//! Listing a remote server's tools as definitions: every page, within a time limit, and
//! never a cursor twice.
//!
//! rmcp's `list_all_tools` follows `nextCursor` for as long as the server gives one, so a
//! server that answers each page with the same cursor (or never answers) would keep a toolkit
//! connecting, and its list growing, for ever; the pages are followed here instead.

use std::collections::HashSet;

use rmcp::model::PaginatedRequestParams;
use tool_core::tool::{Annotations, ToolDefinition};

use super::{Client, RemoteError, RemoteToolkit, error};

/// The server's tools, as definitions, listed within [`RemoteToolkit::CONNECT_TIMEOUT`].
pub(super) async fn list(name: &str, client: &Client) -> Result<Vec<ToolDefinition>, RemoteError> {
    let failed = |reason: String| RemoteError::List {
        server: name.to_owned(),
        reason,
    };
    let limit = RemoteToolkit::CONNECT_TIMEOUT;
    let tools = tokio::time::timeout(limit, every_page(client))
        .await
        .map_err(|_| failed(error::no_answer_within(limit)))?
        .map_err(failed)?;
    let mut names = HashSet::new();
    if let Some(twice) = tools.iter().find(|tool| !names.insert(&tool.name)) {
        return Err(failed(format!(
            "it lists two tools named `{}`, and a call names only one",
            twice.name
        )));
    }
    Ok(tools.iter().map(definition_of).collect())
}

/// Every page of `tools/list`, refusing a cursor the server gave before.
async fn every_page(client: &Client) -> Result<Vec<rmcp::model::Tool>, String> {
    let mut tools = Vec::new();
    let mut cursor = None;
    let mut followed = HashSet::new();
    loop {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        let page = client
            .list_tools(Some(params))
            .await
            .map_err(|error| error::service_reason(&error))?;
        tools.extend(page.tools);
        match page.next_cursor {
            None => return Ok(tools),
            Some(next) if !followed.insert(next.clone()) => {
                return Err(format!(
                    "it gave the cursor `{next}` a second time, so its pages never end"
                ));
            }
            Some(next) => cursor = Some(next),
        }
    }
}

/// A remote tool's definition, read from its `tools/list` entry.
fn definition_of(tool: &rmcp::model::Tool) -> ToolDefinition {
    let hints = tool.annotations.as_ref();
    // A hint the server leaves out has MCP's default: a tool that is not read-only may
    // destroy, and any may reach the open world. Read so, a registry's approver is asked
    // before a call to an unannotated remote tool, as MCP's clients would warn of one.
    let hint = |read: fn(&rmcp::model::ToolAnnotations) -> Option<bool>, default: bool| {
        hints.and_then(read).unwrap_or(default)
    };
    let read_only = hint(|hints| hints.read_only_hint, false);
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
        read_only,
        destructive: !read_only && hint(|hints| hints.destructive_hint, true),
        idempotent: hint(|hints| hints.idempotent_hint, false),
        open_world: hint(|hints| hints.open_world_hint, true),
    };
    definition
}
