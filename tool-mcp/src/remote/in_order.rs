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

    /// A transport that notes, as each send first runs, the request its cancel names.
    #[derive(Default)]
    struct Noting {
        began: Arc<Mutex<Vec<i64>>>,
    }

    impl Transport<RoleClient> for Noting {
        type Error = std::io::Error;

        fn send(
            &mut self,
            item: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            let began = self.began.clone();
            async move {
                let sent = serde_json::to_value(&item).map_err(std::io::Error::other)?;
                let id = sent["params"]["requestId"].as_i64().unwrap_or(-1);
                began.lock().unwrap().push(id);
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

    /// A transport in order over a noting one, and what the noting one notes.
    fn noted() -> (InOrder<Noting>, Arc<Mutex<Vec<i64>>>) {
        let noting = Noting::default();
        let began = noting.began.clone();
        (InOrder::new(noting), began)
    }

    #[test]
    fn a_later_send_run_first_waits_for_the_one_before() {
        let (mut transport, began) = noted();
        let first = transport.send(cancel(1));
        let mut second = Box::pin(transport.send(cancel(2)));
        // The second send's task runs before the first's, as rmcp's tasks may.
        assert!((&mut second).now_or_never().is_none());
        assert!(began.lock().unwrap().is_empty());
        assert!(matches!(first.now_or_never(), Some(Ok(()))));
        assert!(matches!(second.now_or_never(), Some(Ok(()))));
        assert_eq!(*began.lock().unwrap(), [1, 2]);
    }

    #[test]
    fn a_send_dropped_unwritten_holds_back_none_after_it() {
        let (mut transport, began) = noted();
        let first = transport.send(cancel(1));
        let second = transport.send(cancel(2));
        drop(first);
        assert!(matches!(second.now_or_never(), Some(Ok(()))));
        assert_eq!(*began.lock().unwrap(), [2]);
        let third = transport.send(cancel(3));
        assert!(matches!(third.now_or_never(), Some(Ok(()))));
        assert_eq!(*began.lock().unwrap(), [2, 3]);
    }
}
