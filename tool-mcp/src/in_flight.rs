//! The ids of a line connection's requests not yet answered, so that a request reusing one is
//! refused.
//!
//! MCP forbids a client to reuse a request's id, and rmcp keys the requests it runs by their
//! ids: a second request under the id of one still running takes its place in rmcp's table,
//! and one of the two answers is dropped, leaving the client waiting for it. Refused here, the
//! second gets an answer at once and the first runs on. An id is free again once its answer is
//! sent (before it is written, so a client that takes an id again after its answer is never
//! refused) or once the client cancels it, as rmcp then sends no answer.

use std::collections::HashSet;

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ErrorData, JsonRpcError, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};

/// The ids of the requests passed to rmcp whose answers have not been sent, hashed with
/// foldhash (seeded per process), as std's SipHash costs every request's path far more.
#[derive(Default)]
pub(crate) struct InFlight(HashSet<RequestId, foldhash::fast::RandomState>);

impl InFlight {
    /// Notes `message`, read from the client; for a request under the id of one not yet
    /// answered, the error that answers it instead of passing it on to rmcp.
    pub(crate) fn refusal(
        &mut self,
        message: &ClientJsonRpcMessage,
    ) -> Option<ServerJsonRpcMessage> {
        match message {
            JsonRpcMessage::Request(request) if !self.0.insert(request.id.clone()) => {
                return Some(reused(&request.id));
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.0.remove(id);
                }
            }
            _ => {}
        }
        None
    }

    /// Notes that `message`, about to be written, answers the request of its id.
    pub(crate) fn answered(&mut self, message: &ServerJsonRpcMessage) {
        let id = match message {
            JsonRpcMessage::Response(response) => &response.id,
            JsonRpcMessage::Error(JsonRpcError { id: Some(id), .. }) => id,
            _ => return,
        };
        self.0.remove(id);
    }
}

/// The answer to a request under the id of one not yet answered.
fn reused(id: &RequestId) -> ServerJsonRpcMessage {
    let shown = match id {
        RequestId::Number(number) => number.to_string(),
        RequestId::String(text) => format!("\"{}\"", tool_core::outcome::shortened(text)),
    };
    let message = format!(
        "Invalid request: id {shown} is that of a request not yet answered; this one was \
         dropped, and gets no other answer. Give each request an id of its own"
    );
    ServerJsonRpcMessage::error(ErrorData::invalid_request(message, None), Some(id.clone()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(value: serde_json::Value) -> ClientJsonRpcMessage {
        serde_json::from_value(value).unwrap()
    }

    fn ping(id: serde_json::Value) -> ClientJsonRpcMessage {
        message(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
    }

    fn answer(id: i64) -> ServerJsonRpcMessage {
        serde_json::from_value(json!({"jsonrpc": "2.0", "id": id, "result": {}})).unwrap()
    }

    #[test]
    fn an_id_is_refused_while_its_request_is_unanswered_and_free_once_answered_or_cancelled() {
        let mut in_flight = InFlight::default();
        assert!(in_flight.refusal(&ping(json!(1))).is_none());
        assert!(
            in_flight.refusal(&ping(json!("1"))).is_none(),
            "a string id is another id"
        );
        let Some(JsonRpcMessage::Error(refused)) = in_flight.refusal(&ping(json!(1))) else {
            panic!("a second request 1 is passed on");
        };
        assert_eq!(refused.id, Some(RequestId::Number(1)));
        assert!(
            (refused.error.message).starts_with("Invalid request: id 1 is that of a request not"),
            "{}",
            refused.error.message
        );
        let Some(JsonRpcMessage::Error(refused)) = in_flight.refusal(&ping(json!("1"))) else {
            panic!("a second request \"1\" is passed on");
        };
        assert!(refused.error.message.contains("id \"1\" is"), "{refused:?}");

        in_flight.answered(&answer(1));
        assert!(
            in_flight.refusal(&ping(json!(1))).is_none(),
            "answered, 1 is free"
        );
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 1}});
        assert!(in_flight.refusal(&message(cancel)).is_none());
        assert!(
            in_flight.refusal(&ping(json!(1))).is_none(),
            "cancelled, 1 is free"
        );
    }
}
