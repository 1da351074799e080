//! Listing a remote server's tools as definitions: every page, within a time limit, never a
//! cursor twice, and at most [`MAX_TOOLS`] tools.
//!
//! rmcp's `list_all_tools` follows `nextCursor` for as long as the server gives one, so a
//! server that answers each page with the same cursor, or a new one each time, would keep a
//! toolkit connecting, and its list growing, for ever; the pages are followed here instead.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::PaginatedRequestParams;
use tool_core::tool::{Annotations, ToolDefinition};

use super::{Client, RemoteError, error};

/// How many tools one server may list: far more than a model can be offered at once, and few
/// enough that a server listing without end is refused long before its list fills memory.
pub(super) const MAX_TOOLS: usize = 10_000;

/// The server's tools, as definitions, listed within `limit` when there is one; a failure told
/// as a server reached as `reached` says.
pub(super) async fn list(
    name: &str,
    client: &Client,
    reached: error::Reached,
    limit: Option<Duration>,
) -> Result<Vec<ToolDefinition>, RemoteError> {
    let failed = |reason: String| RemoteError::List {
        server: name.to_owned(),
        reason,
    };
    let pages = AtomicUsize::new(0);
    let listing = every_page(client, reached, &pages);
    let tools = match limit {
        None => listing.await,
        Some(limit) => match tokio::time::timeout(limit, listing).await {
            Ok(listed) => listed,
            Err(_) if pages.load(Ordering::Relaxed) == 0 => Err(error::no_answer_within(limit)),
            Err(_) => Err(format!(
                "its pages did not end within {} s ({} answered)",
                limit.as_secs_f64(),
                pages.load(Ordering::Relaxed)
            )),
        },
    };
    Ok(tools.map_err(failed)?.iter().map(definition_of).collect())
}

/// Every page of `tools/list`, counted in `pages` as each is answered; refused at a cursor
/// the server gave before, a name it listed before, or past [`MAX_TOOLS`] tools. An empty
/// cursor ends the list, as MCP's SDKs read it.
async fn every_page(
    client: &Client,
    reached: error::Reached,
    pages: &AtomicUsize,
) -> Result<Vec<rmcp::model::Tool>, String> {
    let mut tools = Vec::new();
    let mut names = HashSet::new();
    let mut cursor = None;
    let mut followed = HashSet::new();
    loop {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        let page = client
            .list_tools(Some(params))
            .await
            .map_err(|error| error::service_reason(&error, reached))?;
        pages.fetch_add(1, Ordering::Relaxed);
        for tool in page.tools {
            if !names.insert(tool.name.clone()) {
                return Err(format!(
                    "it lists two tools named `{}`, and a call names only one",
                    tool.name
                ));
            }
            if names.len() > MAX_TOOLS {
                return Err(format!("it lists more than {MAX_TOOLS} tools"));
            }
            tools.push(tool);
        }
        match page.next_cursor.filter(|next| !next.is_empty()) {
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
