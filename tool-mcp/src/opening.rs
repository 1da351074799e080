//! A line connection's first messages: those that are no request wait until one has started
//! the connection.
//!
//! rmcp's server reads a connection's first messages looking for the request that starts it
//! (`initialize`, or a request carrying a known revision's metadata, as MCP 2026-07-28 sends
//! every request), answering pings and discovery on the way; at the first message that is no
//! request it ends the connection, answering nothing. A client may well send one first:
//! rmcp's own client writes each message from a task of its own, so the cancel of a
//! connection's first call can be written before the call. So a notification (or anything
//! else that is no request) read before the start is held, and passed on right after the
//! request that starts the connection, where rmcp reads it as it would any other. A client
//! that sends such messages and never starts gets at most [`HELD`] of them, and [`HELD_BYTES`]
//! of their lines, kept; later ones are dropped, as no notification is answered.

use std::collections::VecDeque;

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcMessage, ProtocolVersion};

/// How many messages are held before a connection has started.
pub(crate) const HELD: usize = 64;

/// How many bytes of lines are held before a connection has started: a cancel takes a few
/// hundred, and a connection that never starts should not keep lines of the 16 MiB one may
/// have.
pub(crate) const HELD_BYTES: usize = 64 * 1024;

/// What a connection has read so far: whether it has started, and the messages held until it
/// does (then released, one by one, before anything else is read).
#[derive(Default)]
pub(crate) struct Opening {
    started: bool,
    held: VecDeque<ClientJsonRpcMessage>,
    /// The bytes of the lines held so far.
    held_bytes: usize,
}

impl Opening {
    /// `message`, just read from a line of `bytes`, if it is to be passed on now; `None` if it
    /// is held (or dropped, past the bounds).
    pub(crate) fn pass(
        &mut self,
        message: ClientJsonRpcMessage,
        bytes: usize,
    ) -> Option<ClientJsonRpcMessage> {
        if self.started {
            return Some(message);
        }
        match &message {
            JsonRpcMessage::Request(request) => {
                self.started = starts(&request.request);
                Some(message)
            }
            _ => {
                let held_bytes = self.held_bytes.saturating_add(bytes);
                if self.held.len() < HELD && held_bytes <= HELD_BYTES {
                    self.held.push_back(message);
                    self.held_bytes = held_bytes;
                }
                None
            }
        }
    }

    /// The next held message to pass on, once the connection has started.
    pub(crate) fn released(&mut self) -> Option<ClientJsonRpcMessage> {
        if self.started {
            self.held.pop_front()
        } else {
            None
        }
    }
}

/// Whether rmcp starts a connection with `request`: `initialize`, or a request other than a
/// ping or a discovery with a known revision's complete metadata. rmcp accepts the revisions
/// its handler supports, and `McpServer` keeps rmcp's default, every known one: a server that
/// named fewer would have to name them here too, or a request of another would release what
/// is held before the connection has started.
fn starts(request: &ClientRequest) -> bool {
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        request => {
            let meta = request.get_meta();
            meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|version| ProtocolVersion::KNOWN_VERSIONS.contains(&version))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(value: serde_json::Value) -> ClientJsonRpcMessage {
        serde_json::from_value(value).unwrap()
    }

    fn cancel(id: i64) -> ClientJsonRpcMessage {
        message(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": id}}),
        )
    }

    fn call(id: i64, meta: Option<serde_json::Value>) -> ClientJsonRpcMessage {
        let mut params = json!({"name": "quick", "arguments": {}});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        message(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
    }

    fn ping(id: i64) -> ClientJsonRpcMessage {
        message(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
    }

    fn initialize(id: i64) -> ClientJsonRpcMessage {
        message(
            json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "opening", "version": "1"}}}),
        )
    }

    fn current_meta() -> serde_json::Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "opening", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        })
    }

    /// What is passed on after `message` is read, as each message's method: it, then
    /// whatever is released.
    fn names(opening: &mut Opening, message: ClientJsonRpcMessage) -> Vec<String> {
        let passed = opening.pass(message, 100);
        passed
            .into_iter()
            .chain(std::iter::from_fn(|| opening.released()))
            .map(|message| {
                let value = serde_json::to_value(&message).unwrap();
                value["method"].as_str().unwrap().to_owned()
            })
            .collect()
    }

    #[test]
    fn a_cancel_before_the_first_call_follows_the_call_that_starts_the_connection() {
        let mut opening = Opening::default();
        assert!(names(&mut opening, cancel(1)).is_empty());
        // A ping, and a call without the metadata rmcp needs, start nothing.
        assert_eq!(names(&mut opening, ping(2)), ["ping"]);
        assert_eq!(names(&mut opening, call(3, None)), ["tools/call"]);
        assert_eq!(
            names(&mut opening, call(1, Some(current_meta()))),
            ["tools/call", "notifications/cancelled"]
        );
        // Started: each message passes on alone.
        assert_eq!(names(&mut opening, cancel(4)), ["notifications/cancelled"]);
    }

    #[test]
    fn initialize_starts_a_connection_and_at_most_held_messages_wait_for_it() {
        let mut opening = Opening::default();
        for id in 0..HELD as i64 + 5 {
            assert!(names(&mut opening, cancel(id)).is_empty());
        }
        let passed = names(&mut opening, initialize(1));
        assert_eq!(passed.len(), 1 + HELD, "{passed:?}");
        assert_eq!(passed[0], "initialize");
    }

    #[test]
    fn at_most_held_bytes_of_lines_wait_for_the_start() {
        let mut opening = Opening::default();
        let line = HELD_BYTES / 4;
        for id in 0..6 {
            assert!(opening.pass(cancel(id), line).is_none());
        }
        assert!(opening.pass(initialize(1), 100).is_some());
        let released = std::iter::from_fn(|| opening.released()).count();
        assert_eq!(released, 4);
    }
}
