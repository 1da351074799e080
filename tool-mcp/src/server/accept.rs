//! The HTTP server's accept loop (the `http` feature): `axum::serve`'s, with a bound on how
//! long a client may take to send a request.
//!
//! `axum::serve` gives hyper no timer, so a client that opens a connection and sends its head
//! a byte at a time, or never, holds the connection (its socket and its task) for as long as
//! it likes; so does one that stops sending a body it announced. Enough of them use up the
//! server's file descriptors. hyper bounds the head once it has a timer, but `axum::serve`
//! takes no hyper builder, so the loop is written here: the head must come whole within the
//! read timeout, and each piece of a body within it of the last. A body that stops is refused
//! 408 (`body.rs` turns rmcp's answer into it). Everything else is as `axum::serve` does it
//! with the HTTP/1 that axum is built with here: errors accepting are logged and waited out by
//! axum's listener, every request carries the peer's address as `ConnectInfo`, and a shutdown
//! stops accepting, asks each connection to finish what it serves and waits for them. (No
//! upgrades: MCP has no use for them.)

use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::serve::Listener;
use http_body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::time::{Instant, Sleep};
use tool_core::call::BoxFuture;
use tower::ServiceExt;

/// Says, in the error a stalled body ends with, that it stalled; `body.rs` looks for it in
/// rmcp's answer.
pub(super) const BODY_STALLED: &str = "the request's body stopped coming";

/// Serves `router` on the connections `listener` accepts until `shutdown` completes, each
/// request's head and each piece of its body bounded by `read_timeout`; then waits for the
/// connections to finish.
pub(super) async fn serve(
    mut listener: impl Listener<Addr = SocketAddr>,
    router: axum::Router,
    read_timeout: Duration,
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
            let mut request = request.map(|body| Body::new(Stalling::new(body, read_timeout)));
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request)
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

/// A request's body whose next piece must come within a timeout of the last (or of the
/// head): past it, the body ends with an error.
struct Stalling {
    body: Incoming,
    timeout: Duration,
    /// When the next piece is due; reset by each one.
    due: Pin<Box<Sleep>>,
}

impl Stalling {
    fn new(body: Incoming, timeout: Duration) -> Self {
        Stalling {
            body,
            timeout,
            due: Box::pin(tokio::time::sleep(timeout)),
        }
    }
}

impl http_body::Body for Stalling {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(context) {
            let next = Instant::now() + self.timeout;
            self.due.as_mut().reset(next);
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        ready!(self.due.as_mut().poll(context));
        let waited = self.timeout;
        Poll::Ready(Some(Err(format!(
            "{BODY_STALLED}: nothing more came for {waited:?}"
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
