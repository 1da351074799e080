//! A client transport that writes messages in the order rmcp hands them over.
//!
//! rmcp's service loop calls `send` in order, but runs each future it gets back on a task of
//! its own, and a line transport takes its writer only when that future first runs. So the
//! `notifications/cancelled` a dropped call sends right after its `tools/call` can be written
//! first, and a server that stops only the requests it has already seen (rmcp's does) runs the
//! call to its end for nobody. Here each send waits for the one before it to finish (or be
//! dropped) before it starts. The transports a toolkit is given (a child's stdio, a pipe) are
//! wrapped; streamable HTTP is not: there each message is a request of its own, rmcp's HTTP
//! client places cancels itself, and a request answered with JSON finishes sending only when
//! its call is answered, so a cancel held back behind it would wait for the call's end.

use std::future::Future;

use rmcp::service::{RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::oneshot;

/// `inner`, its sends written one after another, in the order they were made.
pub(super) struct InOrder<T> {
    inner: T,
    /// Ends when the last send made has finished or been dropped.
    last: Option<oneshot::Receiver<()>>,
}

impl<T> InOrder<T> {
    pub(super) fn new(inner: T) -> Self {
        InOrder { inner, last: None }
    }
}

impl<R: ServiceRole, T: Transport<R>> Transport<R> for InOrder<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<R>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Dropped, `done` tells the next send to go: whether this one was written or given up.
        let (done, finished) = oneshot::channel::<()>();
        let before = self.last.replace(finished);
        let send = self.inner.send(item);
        async move {
            if let Some(before) = before {
                let _ = before.await;
            }
            let sent = send.await;
            drop(done);
            sent
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<R>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures::FutureExt;
    use rmcp::model::{
        CancelledNotification, CancelledNotificationParam, ClientNotification, JsonRpcMessage,
        NumberOrString,
    };
    use rmcp::service::RoleClient;

    use super::*;

    /// A transport that notes which message each send began writing, when it first runs.
    #[derive(Default)]
    struct Noting {
        began: Arc<Mutex<Vec<String>>>,
    }

    impl Transport<RoleClient> for Noting {
        type Error = std::io::Error;

        fn send(
            &mut self,
            item: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            let began = self.began.clone();
            async move {
                let text = serde_json::to_string(&item).map_err(std::io::Error::other)?;
                began
                    .lock()
                    .map_err(|_| std::io::Error::other("poisoned"))?
                    .push(text);
                Ok(())
            }
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            None
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn cancel(id: i64) -> TxJsonRpcMessage<RoleClient> {
        let id = NumberOrString::Number(id);
        JsonRpcMessage::notification(ClientNotification::CancelledNotification(
            CancelledNotification::new(CancelledNotificationParam::new(Some(id), None)),
        ))
    }

    fn began(noting: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
        let texts = noting.lock().unwrap().clone();
        texts
            .iter()
            .map(|text| {
                let value: serde_json::Value = serde_json::from_str(text).unwrap();
                value["params"]["requestId"].to_string()
            })
            .collect()
    }

    #[test]
    fn a_later_send_run_first_waits_for_the_one_before() {
        let noting = Noting::default();
        let seen = noting.began.clone();
        let mut transport = InOrder::new(noting);
        let first = transport.send(cancel(1));
        let mut second = Box::pin(transport.send(cancel(2)));
        // The second send's task runs before the first's, as rmcp's tasks may.
        assert!((&mut second).now_or_never().is_none());
        assert!(began(&seen).is_empty(), "{:?}", began(&seen));
        assert!(matches!(first.now_or_never(), Some(Ok(()))));
        assert!(matches!(second.now_or_never(), Some(Ok(()))));
        assert_eq!(began(&seen), ["1", "2"]);
    }

    #[test]
    fn a_send_dropped_unwritten_holds_back_none_after_it() {
        let noting = Noting::default();
        let seen = noting.began.clone();
        let mut transport = InOrder::new(noting);
        let first = transport.send(cancel(1));
        let second = transport.send(cancel(2));
        drop(first);
        assert!(matches!(second.now_or_never(), Some(Ok(()))));
        assert_eq!(began(&seen), ["2"]);
        let third = transport.send(cancel(3));
        assert!(matches!(third.now_or_never(), Some(Ok(()))));
        assert_eq!(began(&seen), ["2", "3"]);
    }
}
