//! `subscriptions/listen`, the way MCP 2026-07-28 clients hear of changes: a 2025-11-25 client
//! gets `notifications/tools/list_changed` for its session once it is initialized, but a
//! 2026-07-28 client has no session and no `initialized` notification, and hears of a change
//! only on a listen stream it opened. rmcp acknowledges the stream and narrows its filter to
//! what the server advertises; this module says which notifications the server sends (the tool
//! list's changes, as it advertises `tools.listChanged`) and sends them until the client
//! closes the stream. The tool list changes when the registry does, and, with deferred
//! loading, when a search grows the listing of the stream's own session (its stdio connection,
//! or over HTTP its caller's).

use rmcp::ErrorData as McpError;
use rmcp::model::SubscriptionFilter;
use rmcp::service::SubscriptionContext;
use tokio::sync::broadcast::error::RecvError;
use tool_core::{Registry, Session};

use crate::input_end::InputEnd;

/// What of a client's requested filter the server can send: changes of the tool list.
pub(crate) fn accepted(_requested: &SubscriptionFilter) -> SubscriptionFilter {
    SubscriptionFilter::builder().tools_list_changed().build()
}

/// Sends `notifications/tools/list_changed` on the stream for every change of `registry`'s
/// tools since its `seen` generation, and every growth of `session` (what the stream's caller
/// is listed), until the client cancels the stream, it can no longer be written to, or the
/// connection's input ends (nothing could be sent after that).
pub(crate) async fn listen(
    registry: &Registry,
    seen: Option<u64>,
    session: Option<Session>,
    context: SubscriptionContext,
    input_end: &InputEnd,
) -> Result<(), McpError> {
    input_end
        .before(tell(registry, seen, session, context))
        .await
        .unwrap_or(Ok(()))
}

/// What `listen` does until the input ends.
async fn tell(
    registry: &Registry,
    seen: Option<u64>,
    session: Option<Session>,
    context: SubscriptionContext,
) -> Result<(), McpError> {
    let mut changes = registry.subscribe();
    // A change made after the stream was acknowledged and before the subscription above is
    // told once at the start, as the registry was at `seen` when the stream was accepted.
    let missed = seen.is_none_or(|seen| seen != registry.generation());
    // The session is held here, so that what it tells of is heard for as long as the stream
    // is open.
    let mut grown = session.as_ref().map(Session::changes);
    // rmcp acknowledges the stream before this runs, so a search the client made once it was
    // acknowledged may have grown the session already: a session that has found anything is
    // told once at the start. A notice too many only makes the client list again.
    if let Some(receiver) = &mut grown
        && *receiver.borrow() > 0
    {
        receiver.mark_changed();
    }
    // A client that asked for no tool-list changes gets none; the stream stays open until it
    // closes it, as the revision says.
    let wants_tools = context.accepted().tools_list_changed == Some(true);
    if missed && wants_tools && context.sink().notify_tool_list_changed().await.is_err() {
        return Ok(());
    }
    loop {
        let changed = tokio::select! {
            () = context.cancelled() => return Ok(()),
            change = changes.recv() => match change {
                // A lagging listener missed some changes, but one notice covers them all.
                Ok(_) | Err(RecvError::Lagged(_)) => true,
                Err(RecvError::Closed) => return Ok(()),
            },
            grew = grew(&mut grown) => grew,
        };
        if changed && wants_tools && context.sink().notify_tool_list_changed().await.is_err() {
            return Ok(());
        }
    }
}

/// Waits until the session grows (several growths at once are one); never, without a session.
async fn grew(grown: &mut Option<tokio::sync::watch::Receiver<usize>>) -> bool {
    match grown {
        Some(receiver) => match receiver.changed().await {
            Ok(()) => true,
            // Not while the session is held; should it be, there is nothing more to hear.
            Err(_) => {
                *grown = None;
                false
            }
        },
        None => std::future::pending().await,
    }
}
