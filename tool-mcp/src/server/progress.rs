//! A call's progress as MCP's `notifications/progress`: each report sent in order as it comes,
//! the last sent before the call's result.

use std::sync::{Mutex, PoisonError};

use rmcp::Peer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::RoleServer;
use serde_json::json;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tool_core::call::Progress;

/// A call's progress reports on their way to the client as `notifications/progress`. Every
/// request an rmcp client sends carries a progress token, and few tools report progress, so
/// the channel and the task that sends the notifications start with the first report.
pub(super) struct ProgressSink {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    /// The runtime the call came in on, for a report made on a thread outside it.
    runtime: tokio::runtime::Handle,
    started: Mutex<Option<(UnboundedSender<Progress>, JoinHandle<()>)>>,
}

impl ProgressSink {
    pub(super) fn new(peer: Peer<RoleServer>, token: ProgressToken) -> Self {
        ProgressSink {
            peer,
            token,
            runtime: tokio::runtime::Handle::current(),
            started: Mutex::new(None),
        }
    }

    pub(super) fn report(&self, progress: Progress) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        let (sender, _) = started.get_or_insert_with(|| {
            let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
            let forwarding = forward_progress(self.peer.clone(), self.token.clone(), receiver);
            (sender, self.runtime.spawn(forwarding))
        });
        // The call may outlive its listener; a closed channel is not the tool's concern.
        let _ = sender.send(progress);
    }

    /// Returns once the reports made so far are sent, so that they reach the client before
    /// the result does.
    pub(super) async fn finish(&self) {
        let started = self
            .started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((sender, forwarding)) = started {
            drop(sender);
            let _ = forwarding.await;
        }
    }
}

async fn forward_progress(
    peer: Peer<RoleServer>,
    token: ProgressToken,
    mut receiver: tokio::sync::mpsc::UnboundedReceiver<Progress>,
) {
    while let Some(progress) = receiver.recv().await {
        let params = json!({
            "progressToken": token,
            "progress": progress.done,
            "total": progress.total,
            "message": progress.message,
        });
        let Ok(params) = serde_json::from_value::<ProgressNotificationParam>(params) else {
            continue;
        };
        if peer.notify_progress(params).await.is_err() {
            break;
        }
    }
}
