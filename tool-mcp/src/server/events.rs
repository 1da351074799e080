//! The answer-stream events a server without sessions keeps when asked to
//! (`McpServer::with_resumable_streams`), so that a client whose stream broke mid-answer can
//! take it up again (SEP-1699): rmcp's HTTP transport opens each stream
//! with a priming event (an id and the `retry` interval) when it has an [`EventStore`], and a
//! `GET` with `Last-Event-ID` replays what followed. With sessions, rmcp keeps each session's
//! streams itself; without them it keeps nothing, and rmcp ships no store, hence this one.
//!
//! Kept in this process's memory, so a client resumes on the replica that answered it (behind
//! a load balancer, one that routes by client keeps that true). Bounded: the last
//! [`KEPT_EVENTS`] events, none older than [`KEPT_FOR`], whatever the clients do.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream,
};

/// How many events are kept, across every stream.
pub(crate) const KEPT_EVENTS: usize = 4096;

/// How long an event is kept: long enough to reconnect after the `retry` interval.
pub(crate) const KEPT_FOR: Duration = Duration::from_secs(300);

/// The events of every answer stream, oldest first.
#[derive(Default)]
pub(crate) struct MemoryEvents {
    events: Mutex<Events>,
}

#[derive(Default)]
struct Events {
    next: u64,
    kept: VecDeque<Kept>,
}

struct Kept {
    id: u64,
    stream: String,
    event: ServerSseMessage,
    at: Instant,
}

impl Events {
    fn forget_old(&mut self, now: Instant) {
        while self.kept.len() > KEPT_EVENTS
            || self
                .kept
                .front()
                .is_some_and(|oldest| now.duration_since(oldest.at) > KEPT_FOR)
        {
            self.kept.pop_front();
        }
    }
}

impl MemoryEvents {
    fn lock(&self) -> std::sync::MutexGuard<'_, Events> {
        self.events.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait::async_trait]
impl EventStore for MemoryEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let now = Instant::now();
        let mut events = self.lock();
        events.next += 1;
        let id = events.next;
        events.kept.push_back(Kept {
            id,
            stream: stream_id.to_owned(),
            event: event.clone(),
            at: now,
        });
        events.forget_old(now);
        Ok(id.to_string())
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let mut events = self.lock();
        events.forget_old(Instant::now());
        let last: u64 = last_event_id
            .parse()
            .map_err(|_| format!("`{last_event_id}` is not an event id this server gave"))?;
        let stream = events
            .kept
            .iter()
            .find(|kept| kept.id == last)
            .map(|kept| kept.stream.clone())
            .ok_or_else(|| {
                format!("the event `{last}` is not kept any more (or was never given); call again")
            })?;
        let after: Vec<ServerSseMessage> = events
            .kept
            .iter()
            .filter(|kept| kept.id > last && kept.stream == stream)
            .map(|kept| {
                let mut event = kept.event.clone();
                event.event_id = Some(kept.id.to_string());
                event
            })
            .collect();
        Ok(Box::pin(futures::stream::iter(after)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::StreamExt;

    fn event(text: &str) -> ServerSseMessage {
        let mut event = ServerSseMessage::default();
        event.retry = Some(Duration::from_millis(text.len() as u64));
        event
    }

    #[tokio::test]
    async fn a_stream_is_replayed_after_an_event_and_no_other_streams_events_with_it() {
        let store = MemoryEvents::default();
        let first = store.store_event("a", &event("x")).await.unwrap();
        store.store_event("b", &event("yy")).await.unwrap();
        let third = store.store_event("a", &event("zzz")).await.unwrap();
        let replayed: Vec<ServerSseMessage> = store
            .replay_events_after(&first)
            .await
            .unwrap()
            .collect()
            .await;
        assert_eq!(replayed.len(), 1);
        assert_eq!(replayed[0].event_id.as_deref(), Some(third.as_str()));
        assert_eq!(replayed[0].retry, Some(Duration::from_millis(3)));
        for unknown in ["999", "not-an-id"] {
            let refused = store.replay_events_after(unknown).await.err().unwrap();
            assert!(refused.to_string().contains(unknown), "{refused}");
        }
    }

    #[tokio::test]
    async fn no_more_than_the_bound_is_kept() {
        let store = MemoryEvents::default();
        let first = store.store_event("a", &event("x")).await.unwrap();
        for _ in 0..KEPT_EVENTS {
            store.store_event("a", &event("x")).await.unwrap();
        }
        assert_eq!(store.lock().kept.len(), KEPT_EVENTS);
        assert!(store.replay_events_after(&first).await.is_err());
    }
}
