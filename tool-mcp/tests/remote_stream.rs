//! A remote toolkit over streamable HTTP lists the server's tools only once the server has
//! answered the stream it opens for what the server says unasked: a change told after the
//! list is told to a listener, and a server that takes any GET for a call's resumed stream
//! (MCP's conformance suite's does) is not handed a call's answer on it.

mod support;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::Notify;
use tool_mcp::{RemoteAuth, RemoteToolkit, Revision};

/// How long the server holds the stream's GET unanswered unless the tools are listed first:
/// long enough that a client not waiting for the answer lists the tools while it is held, and
/// short of the toolkit's own limit on waiting.
const HOLD: Duration = Duration::from_secs(1);

/// What the server saw, in order.
#[derive(Default)]
struct Seen {
    events: Mutex<Vec<&'static str>>,
    listed: Notify,
}

impl Seen {
    fn note(&self, event: &'static str) {
        self.events
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(event);
    }
}

/// A server of one session: `initialize` answered with its id, `tools/list` with one tool, and
/// the stream's GET held for [`HOLD`] (or until the tools are listed) before it is opened.
async fn serve(seen: Arc<Seen>) -> std::net::SocketAddr {
    let post_seen = seen.clone();
    let router = axum::Router::new().route(
        "/mcp",
        axum::routing::post(move |body: String| {
            let seen = post_seen.clone();
            async move { answer_post(&seen, &body) }
        })
        .get(move |headers: HeaderMap| {
            let seen = seen.clone();
            async move { open_stream(&seen, &headers).await }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    bound
}

fn answer_post(seen: &Seen, body: &str) -> Response {
    let (method, message) = support::scripted::read(body);
    if method.as_deref() == Some("tools/list") {
        seen.note("tools/list");
        seen.listed.notify_one();
    }
    support::scripted::answer(method.as_deref(), &message, Some("one"))
}

async fn open_stream(seen: &Seen, headers: &HeaderMap) -> Response {
    if headers.get("last-event-id").is_some() {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let _ = tokio::time::timeout(HOLD, seen.listed.notified()).await;
    seen.note("stream answered");
    let open = futures::stream::pending::<Result<Bytes, Infallible>>();
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(open),
    )
        .into_response()
}

/// The order the server saw a connection in, made by `connect` to its URL.
async fn order_seen<F>(connect: impl FnOnce(String) -> F) -> Vec<&'static str>
where
    F: Future<Output = Result<RemoteToolkit, tool_mcp::RemoteError>>,
{
    let seen = Arc::new(Seen::default());
    let bound = serve(seen.clone()).await;
    let remote = connect(format!("http://{bound}/mcp")).await.unwrap();
    assert_eq!(remote.definitions().len(), 1);
    seen.events.lock().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_are_listed_once_the_server_s_stream_is_answered() {
    let events = order_seen(|url| async move {
        RemoteToolkit::connect_http_with("held", &url, Revision::V2025_11_25).await
    })
    .await;
    assert_eq!(
        events,
        ["stream answered", "tools/list"],
        "the tools were listed before the server answered the stream's GET"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_token_too_the_tools_are_listed_once_the_stream_is_answered() {
    let events = order_seen(|url| async move {
        let auth = RemoteAuth::Bearer("a-token".to_owned());
        RemoteToolkit::connect_http_authorized("held", &url, Revision::V2025_11_25, auth).await
    })
    .await;
    assert_eq!(
        events,
        ["stream answered", "tools/list"],
        "the tools were listed before the server answered the stream's GET"
    );
}
