//! A line connection whose client closes its input after its last request (as `printf
//! '...' | server` does) still answers the calls running then, though rmcp's loop sends
//! nothing more once its input ends: a call that logs, or asks its client, after that point is
//! answered, and a listen stream still open is ended with its answer. An input that ends
//! before any request starts a connection ends serving as any other end does.
//!
//! Each tool here waits until the server has read the end of its input (the pipe's reader says
//! so), so that what it does next is done after it; the listen stream is acknowledged before
//! the input ends.

use std::pin::Pin;
use std::task::{Context as Poll, Poll as Polled};

use serde_json::{Value, json};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::watch;
use tool_core::call::LogLevel;
use tool_core::{Answer, Context, Refusal, tool};
use tool_mcp::McpServer;

mod support;

use support::lines::{ANSWER_LIMIT, LineClient};

/// Whether the server has read the end of its input.
#[derive(Clone)]
struct InputRead(watch::Receiver<bool>);

impl InputRead {
    async fn wait(&self) {
        let mut read = self.0.clone();
        let _ = read.wait_for(|read| *read).await;
    }
}

/// Logs once the server has read the end of its input.
#[tool(readonly)]
async fn log_late(ctx: &Context) -> &'static str {
    if let Some(input) = ctx.get::<InputRead>() {
        input.wait().await;
    }
    ctx.log(LogLevel::Info, "after the input ended");
    "logged"
}

/// Asks its client once the server has read the end of its input.
#[tool(readonly)]
async fn ask_late(ctx: &Context) -> Result<String, Refusal> {
    if let Some(input) = ctx.get::<InputRead>() {
        input.wait().await;
    }
    match ctx.ask::<bool>("Go on?").await? {
        Answer::Given(yes) => Ok(format!("told {yes}")),
        Answer::Declined | Answer::Cancelled => Ok("told nothing".to_owned()),
    }
}

/// A reader that says when it has read the end of its input.
struct Telling<R> {
    inner: R,
    ended: watch::Sender<bool>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Telling<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        poll: &mut Poll<'_>,
        buffer: &mut ReadBuf<'_>,
    ) -> Polled<std::io::Result<()>> {
        let before = buffer.filled().len();
        let read = Pin::new(&mut self.inner).poll_read(poll, buffer);
        if let Polled::Ready(Ok(())) = read
            && buffer.filled().len() == before
            && buffer.remaining() > 0
        {
            self.ended.send_replace(true);
        }
        read
    }
}

/// A client of the two tools over lines, the server's reader saying when its input ends.
fn client(current: bool) -> LineClient {
    let (ended, read) = watch::channel(false);
    let registry = tool_core::registry![LogLate, AskLate];
    let server =
        McpServer::new(registry).with_context(Context::new().with_extension(InputRead(read)));
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let (reader, writer) = tokio::io::split(server_end);
    let reader = Telling {
        inner: reader,
        ended,
    };
    tokio::spawn(server.serve_lines(reader, writer));
    LineClient::over(client_end, current)
}

/// The answer to `id` among `said`.
fn answer(said: &[Value], id: i64) -> &Value {
    said.iter()
        .find(|message| message["id"] == id && message.get("method").is_none())
        .unwrap_or_else(|| panic!("no answer to request {id} in {said:#?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_logs_after_the_input_ended_is_answered() {
    let mut client = client(false);
    client.handshake().await;
    let id = (client.start("tools/call", json!({"name": "log_late", "arguments": {}}))).await;
    let said = client.close().await;
    let answered = answer(&said, id);
    assert_eq!(
        answered["result"]["content"][0]["text"], "logged",
        "{answered}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_asks_after_the_input_ended_is_refused_as_unable_to_ask() {
    let mut client = client(false);
    client.handshake_with(json!({"elicitation": {}})).await;
    let id = (client.start("tools/call", json!({"name": "ask_late", "arguments": {}}))).await;
    let said = client.close().await;
    let answered = answer(&said, id);
    assert_eq!(answered["result"]["isError"], true, "{answered}");
    let text = answered["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("refused\tcannot-ask\t"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_stream_open_when_the_input_ends_is_answered() {
    let mut client = client(true);
    let listen = json!({"notifications": {"toolsListChanged": true}});
    let id = client.start("subscriptions/listen", listen).await;
    // Once the stream is acknowledged: rmcp's own acknowledgement, sent before the stream is
    // the server's, would wait for a loop that is gone.
    let acknowledged = client.next(ANSWER_LIMIT).await;
    assert_eq!(
        acknowledged.as_ref().map(|message| &message["method"]),
        Some(&json!("notifications/subscriptions/acknowledged")),
        "{acknowledged:?}"
    );
    let said = client.close().await;
    let answered = answer(&said, id);
    assert!(answered.get("result").is_some(), "{answered}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_that_ends_before_a_connection_starts_ends_serving_without_an_error() {
    let ping = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\n";
    for input in ["", ping] {
        // Kept open, so that the answer to the ping can be written.
        let (writer, _output) = tokio::io::duplex(1 << 16);
        let server = McpServer::new(tool_core::registry![LogLate]);
        let served = server.serve_lines(input.as_bytes(), writer).await;
        assert!(served.is_ok(), "{input:?}: {served:?}");
    }
}
