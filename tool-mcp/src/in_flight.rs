//! The ids of a line connection's requests not yet answered, so that a request reusing one is
//! refused.
//!
//! MCP forbids a client to reuse a request's id, and rmcp keys the requests it runs by their
//! ids: a second request under the id of one still running takes its place in rmcp's table,
//! and one of the two answers is dropped, leaving the client waiting for it. Refused here, the
//! second gets an answer at once and the first runs on. An id is free again once its answer is
//! sent (before it is written, so a client that takes an id again after its answer is never
//! refused). A cancelled request gets no answer from rmcp, but its call may still be ending,
//! and its late answer would be taken for that of a request reusing the id: so the ids of the
//! last [`KEPT`] cancelled requests stay refused.

use std::collections::{HashMap, VecDeque};

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ErrorData, JsonRpcError, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};

/// How many cancelled requests' ids stay refused.
pub(crate) const KEPT: usize = 1024;

/// The ids of the requests passed to rmcp whose answers have not been sent, each with whether
/// the client cancelled it; hashed with foldhash (seeded per process), as std's SipHash costs
/// every request's path far more.
#[derive(Default)]
pub(crate) struct InFlight {
    ids: HashMap<RequestId, Cancelled, foldhash::fast::RandomState>,
    /// The cancelled ones, oldest first.
    cancelled: VecDeque<RequestId>,
}

/// Whether the client cancelled a request.
type Cancelled = bool;

impl InFlight {
    /// Notes `message`, read from the client; for a request under the id of one not yet
    /// answered, the error that answers it instead of passing it on to rmcp.
    pub(crate) fn refusal(
        &mut self,
        message: &ClientJsonRpcMessage,
    ) -> Option<ServerJsonRpcMessage> {
        match message {
            JsonRpcMessage::Request(request) => {
                if let Some(cancelled) = self.ids.get(&request.id) {
                    return Some(reused(&request.id, *cancelled));
                }
                self.ids.insert(request.id.clone(), false);
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.cancel(id);
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
        self.ids.remove(id);
    }

    /// Whether a request passed to rmcp and not cancelled is still to be answered.
    pub(crate) fn awaits_answers(&self) -> bool {
        self.ids.values().any(|cancelled| !cancelled)
    }

    /// Notes that the client cancelled the request `id`, if it runs; past [`KEPT`], the oldest
    /// cancelled id is free again.
    fn cancel(&mut self, id: &RequestId) {
        let Some(cancelled) = self.ids.get_mut(id) else {
            return;
        };
        if *cancelled {
            return;
        }
        *cancelled = true;
        self.cancelled.push_back(id.clone());
        if self.cancelled.len() > KEPT
            && let Some(oldest) = self.cancelled.pop_front()
            // Answered since, it may have been taken again by a request still running.
            && self.ids.get(&oldest) == Some(&true)
        {
            self.ids.remove(&oldest);
        }
    }
}

/// The answer to a request under the id of one not yet answered (`cancelled`: which the
/// client cancelled).
fn reused(id: &RequestId, cancelled: Cancelled) -> ServerJsonRpcMessage {
    let id_shown = match id {
        RequestId::Number(number) => number.to_string(),
        RequestId::String(text) => format!("{:?}", tool_core::outcome::shortened(text)),
    };
    let message = if cancelled {
        format!(
            "Invalid request: id {id_shown} is that of a request this client cancelled, whose \
             call may still be ending; this one was refused, and gets no other answer. Give \
             each request an id of its own"
        )
    } else {
        format!(
            "Invalid request: a request under id {id_shown} is still running; this second one \
             was refused, and the first will be answered under {id_shown}. Give each request \
             an id of its own"
        )
    };
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

    fn cancel(id: i64) -> ClientJsonRpcMessage {
        message(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": id}}),
        )
    }

    /// The message of the refusal of `message`, or a panic if it is passed on.
    fn refused(in_flight: &mut InFlight, message: &ClientJsonRpcMessage) -> String {
        match in_flight.refusal(message) {
            Some(JsonRpcMessage::Error(refused)) => refused.error.message.into_owned(),
            _ => panic!("passed on: {message:?}"),
        }
    }

    #[test]
    fn an_id_is_refused_until_its_answer_is_sent_and_a_cancelled_one_for_longer() {
        let mut in_flight = InFlight::default();
        assert!(in_flight.refusal(&ping(json!(1))).is_none());
        assert!(
            in_flight.refusal(&ping(json!("1"))).is_none(),
            "a string id is another id"
        );
        let message = refused(&mut in_flight, &ping(json!(1)));
        assert!(
            message.starts_with("Invalid request: a request under id 1 is still running;")
                && message.contains("the first will be answered under 1"),
            "{message}"
        );
        let message = refused(&mut in_flight, &ping(json!("1")));
        assert!(message.contains("under id \"1\" is"), "{message}");

        in_flight.answered(&answer(1));
        assert!(
            in_flight.refusal(&ping(json!(1))).is_none(),
            "answered, 1 is free"
        );

        // Cancelled, its call may still be ending: its id stays refused, until past the
        // last `KEPT` cancelled ones.
        assert!(in_flight.refusal(&cancel(1)).is_none());
        let message = refused(&mut in_flight, &ping(json!(1)));
        assert!(
            message.contains("a request this client cancelled"),
            "{message}"
        );
        for id in 2..=KEPT as i64 {
            assert!(in_flight.refusal(&ping(json!(id))).is_none());
            assert!(in_flight.refusal(&cancel(id)).is_none());
        }
        refused(&mut in_flight, &ping(json!(1)));
        let past = KEPT as i64 + 1;
        assert!(in_flight.refusal(&ping(json!(past))).is_none());
        assert!(in_flight.refusal(&cancel(past)).is_none());
        assert!(
            in_flight.refusal(&ping(json!(1))).is_none(),
            "the oldest cancelled id is free again"
        );
        refused(&mut in_flight, &ping(json!(2)));
        // A cancel of a request not running marks nothing.
        assert!(in_flight.refusal(&cancel(past + 1)).is_none());
        assert!(in_flight.refusal(&ping(json!(past + 1))).is_none());
    }
}
