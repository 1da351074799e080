//! A call's notices to its client, in the order the tool made them and all before the call's
//! result: its progress as `notifications/progress` and its log messages as
//! `notifications/message`.

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

use rmcp::Peer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::RoleServer;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tool_core::call::{LogListener, LogMessage, Progress};

use crate::input_end::InputEnd;

/// One notice of a call.
enum Notice {
    Progress(Progress),
    Log(LogMessage),
}

/// A call's notices on their way to the client. Every request an rmcp client sends carries a
/// progress token, and few tools report progress or log, so the channel and the task that
/// sends the notifications start with the first notice.
pub(super) struct Notices {
    peer: Peer<RoleServer>,
    /// The request's progress token: without one, progress is not sent.
    token: Option<ProgressToken>,
    /// The logger the client reads in each message: the tool's name.
    logger: String,
    /// The runtime the call came in on, for a notice made on a thread outside it.
    runtime: tokio::runtime::Handle,
    /// After the connection's input ends, nothing can be sent: what is left is dropped.
    input_end: InputEnd,
    started: Mutex<Option<(UnboundedSender<Notice>, JoinHandle<()>)>>,
}

impl Notices {
    pub(super) fn new(
        peer: Peer<RoleServer>,
        token: Option<ProgressToken>,
        tool: Cow<'static, str>,
        input_end: InputEnd,
    ) -> Self {
        Notices {
            peer,
            token,
            logger: tool.into_owned(),
            runtime: tokio::runtime::Handle::current(),
            input_end,
            started: Mutex::new(None),
        }
    }

    /// Whether the request asked for progress (it carries a progress token).
    pub(super) fn reports_progress(&self) -> bool {
        self.token.is_some()
    }

    /// Sends a progress report; only a request that asked for progress (`reports_progress`)
    /// is given a progress listener.
    pub(super) fn progress(&self, progress: Progress) {
        self.send(Notice::Progress(progress));
    }

    fn send(&self, notice: Notice) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        let (sender, _) = started.get_or_insert_with(|| {
            let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
            let forwarding = forward(
                self.peer.clone(),
                self.token.clone(),
                self.logger.clone(),
                receiver,
                self.input_end.clone(),
            );
            (
                sender,
                crate::background::spawn_on(&self.runtime, forwarding),
            )
        });
        // The call may outlive its listener; a closed channel is not the tool's concern.
        let _ = sender.send(notice);
    }

    /// Returns once the notices made so far are sent, so that they reach the client before
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

/// The call's log listener is its notices themselves, so that a call makes one allocation for
/// both.
impl LogListener for Notices {
    fn hear(&self, message: LogMessage) {
        self.send(Notice::Log(message));
    }
}

async fn forward(
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
    logger: String,
    mut receiver: tokio::sync::mpsc::UnboundedReceiver<Notice>,
    input_end: InputEnd,
) {
    while let Some(notice) = receiver.recv().await {
        // Once the input has ended nothing can be sent, and the call's answer waits on this.
        let sent = match notice {
            Notice::Progress(progress) => {
                // Progress is sent only on a request's progress token, and as numbers JSON can
                // carry: a report whose count is not finite is dropped, a total that is not
                // finite left out.
                let Some(token) = token.clone().filter(|_| progress.done.is_finite()) else {
                    continue;
                };
                let mut params = ProgressNotificationParam::new(token, progress.done);
                if let Some(total) = progress.total.filter(|total| total.is_finite()) {
                    params = params.with_total(total);
                }
                if let Some(message) = progress.message {
                    params = params.with_message(message);
                }
                input_end.before(peer.notify_progress(params)).await
            }
            Notice::Log(message) => {
                let level = crate::convert::logging_level(message.level);
                #[allow(deprecated)] // SEP-2577 deprecates logging; 2025-11-25 clients use it.
                let params = rmcp::model::LoggingMessageNotificationParam::new(level, message.data)
                    .with_logger(logger.as_str());
                #[allow(deprecated)]
                input_end.before(peer.notify_logging_message(params)).await
            }
        };
        let Some(Ok(())) = sent else {
            break;
        };
    }
}
