//! The HTTP server's accept loop (the `http` feature): `axum::serve`'s, with a bound on how
//! long a client may take to send a request.
//!
//! `axum::serve` gives hyper no timer, so a client that opens a connection and sends its head
//! a byte at a time, or never, holds the connection (its socket and its task) for as long as
//! it likes; so does one that stops sending a body it announced. Enough of them use up the
//! server's file descriptors. hyper bounds the head once it has a timer, but `axum::serve`
//! takes no hyper builder, so the loop is written here:
//! - the head must come whole within the read timeout, else hyper closes the connection. hyper
//!   counts an idle kept-alive connection's wait for its next request the same way, so such a
//!   connection is closed after the timeout too;
//! - once the server waits for a piece of a body, the piece must come within the timeout, else
//!   the body ends with an error and the request is answered 408 (with `Connection: close`),
//!   whatever the layers inside made of that error (rmcp answers a body it could not read 500;
//!   the bearer check, 413).
//!
//! Everything else is as `axum::serve` does it over HTTP/1: errors accepting are logged and
//! waited out by axum's listener, every request carries the peer's address as `ConnectInfo`,
//! and a shutdown stops accepting, asks each connection to finish what it serves and waits for
//! them. It serves HTTP/1 alone, without connection upgrades: MCP has no use for either.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{Response, StatusCode, header};
use axum::response::IntoResponse;
use axum::serve::Listener;
use http_body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::time::Sleep;
use tool_core::call::BoxFuture;
use tower::ServiceExt;

/// Serves `router` on the connections `listener` accepts until `shutdown` completes, each
/// request's head and each piece of its body bounded by `read_timeout` (`None`: unbounded);
/// then waits for the connections to finish.
pub(super) async fn serve(
    mut listener: impl Listener<Addr = SocketAddr>,
    router: axum::Router,
    read_timeout: Option<Duration>,
    mut shutdown: BoxFuture<'static, ()>,
) -> std::io::Result<()> {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout);
    let graceful = GracefulShutdown::new();
    loop {
        let (io, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            answer(router.clone(), request, peer, read_timeout)
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(io), service));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::trace!(%error, "an HTTP connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// `router`'s answer to `request` from `peer`, or 408 if its body stopped coming.
async fn answer(
    router: axum::Router,
    request: http::Request<Incoming>,
    peer: SocketAddr,
    read_timeout: Option<Duration>,
) -> Result<Response<Body>, std::convert::Infallible> {
    let stalled = Arc::new(AtomicBool::new(false));
    let mut request =
        request.map(|body| Body::new(Stalling::new(body, read_timeout, stalled.clone())));
    request.extensions_mut().insert(ConnectInfo(peer));
    let response = router.oneshot(request).await?;
    if !stalled.load(Ordering::Relaxed) {
        return Ok(response);
    }
    let said = "Request Timeout: the request's body stopped coming; send it whole without pausing";
    let close = [(header::CONNECTION, "close")];
    Ok((StatusCode::REQUEST_TIMEOUT, close, said).into_response())
}

/// A request's body that ends with an error once the server has waited `timeout` for its next
/// piece (never, without one), saying so in `stalled`. Only the waits count: the time the
/// server takes before it reads, or between its reads, is not the client's.
struct Stalling<B> {
    body: B,
    timeout: Option<Duration>,
    /// When the piece waited for is due: set when a wait starts, cleared when a piece comes.
    due: Option<Pin<Box<Sleep>>>,
    stalled: Arc<AtomicBool>,
}

impl<B> Stalling<B> {
    fn new(body: B, timeout: Option<Duration>, stalled: Arc<AtomicBool>) -> Self {
        Stalling {
            body,
            timeout,
            due: None,
            stalled,
        }
    }
}

impl<B> http_body::Body for Stalling<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(context) {
            self.due = None;
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        let Some(timeout) = self.timeout else {
            return Poll::Pending;
        };
        let due = (self.due).get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(due.as_mut().poll(context));
        self.stalled.store(true, Ordering::Relaxed);
        Poll::Ready(Some(Err(format!(
            "the request's body stopped coming: nothing more came for {timeout:?}"
        )
        .into())))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use http_body::Body as _;
    use tokio::sync::mpsc;

    use super::*;

    /// A body whose pieces the test sends.
    struct Sent(mpsc::Receiver<Bytes>);

    impl http_body::Body for Sent {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            context: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            (self.0.poll_recv(context)).map(|piece| piece.map(|piece| Ok(Frame::data(piece))))
        }
    }

    async fn next(body: &mut Stalling<Sent>) -> Option<Result<Frame<Bytes>, axum::BoxError>> {
        std::future::poll_fn(|context| Pin::new(&mut *body).poll_frame(context)).await
    }

    #[tokio::test(start_paused = true)]
    async fn only_a_wait_for_the_client_counts_and_one_past_the_timeout_ends_the_body() {
        let timeout = Duration::from_secs(5);
        let (sender, pieces) = mpsc::channel(4);
        let stalled = Arc::new(AtomicBool::new(false));
        let mut body = Stalling::new(Sent(pieces), Some(timeout), stalled.clone());

        // The server reads late (as after `Expect: 100-continue`, when the client sends only
        // once asked): the time before its first read is not the client's.
        tokio::time::sleep(timeout * 3).await;
        // Pieces that each come within the timeout of the wait for them, though all of them
        // take longer.
        for _ in 0..4 {
            let sender = sender.clone();
            tokio::spawn(async move {
                tokio::time::sleep(timeout / 2).await;
                sender.send(Bytes::from_static(b" ")).await.unwrap();
            });
            assert!(matches!(next(&mut body).await, Some(Ok(_))));
        }
        assert!(!stalled.load(Ordering::Relaxed));
        // A piece that does not come.
        let waited = tokio::time::Instant::now();
        let error = next(&mut body).await.unwrap().unwrap_err();
        assert!(
            waited.elapsed() >= timeout && waited.elapsed() < timeout * 2,
            "{:?}",
            waited.elapsed()
        );
        assert!(error.to_string().contains("stopped coming"), "{error}");
        assert!(stalled.load(Ordering::Relaxed));
        drop(sender);
    }
}
