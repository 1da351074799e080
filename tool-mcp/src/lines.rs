//! JSON-RPC over a byte pipe, one message a line, with an answer for every line.
//!
//! rmcp's own line transport drops a line it cannot read as JSON without a word (as the other
//! official SDKs do: there is no id to answer to, and a peer that echoed errors back could
//! start a storm). A client that sent a broken line then waits for an answer that never comes,
//! so [`serve_lines`](crate::McpServer::serve_lines) gives rmcp a transport of its own: lines
//! are split by tokio-util's [`LinesCodec`] and each is read as rmcp's message type (a plain
//! `tools/call` straight into it, by `call_line`, the rest by rmcp's reading). A line that is
//! not JSON, or that only a full read refuses (bytes that are not UTF-8, a lone
//! surrogate, a number out of range, nesting past 128 levels), is answered with a JSON-RPC
//! parse error (code -32700, with `"id": null` as JSON-RPC 2.0 asks, or with the request's id
//! when only a value inside it was unreadable); JSON that is no message gets the
//! invalid-request error rmcp's own transport gives it. The parse error is itself valid
//! JSON, so a peer that echoed it back would not get another parse error for it. An answer
//! from the client that cannot be read gets no answer; rmcp is given an error under its id, so
//! that the server's request waiting on it ends. What is read before the request that starts
//! the connection passes through `opening`.

use std::io;
use std::pin::Pin;
use std::time::Duration;

use futures::stream::BoxStream;
use futures::{SinkExt, StreamExt};
use rmcp::model::{
    ClientJsonRpcMessage, ErrorData, JsonRpcError, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::service::RoleServer;
use rmcp::transport::async_rw::JsonRpcMessageCodec;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Sleep;
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, FramedRead, FramedWrite, LinesCodec, LinesCodecError};

use crate::in_flight::InFlight;
use crate::input_end::InputEnd;
use crate::opening::Opening;
use crate::unread::{Unread, unread};

/// Messages waiting to be written; past this many, rmcp and the reader wait for the writer.
const PENDING: usize = 64;

/// How long after the input ends the requests read are waited for before rmcp's loop is told
/// of the end: ample for rmcp's own steps toward an answer, each a turn of its loop. A call
/// still running then has rmcp's drain (5 s) to end in, and is cancelled after it.
const ANSWERS_DUE: Duration = Duration::from_secs(2);

/// rmcp's transport: the messages read from the pipe in, its own messages out to the writer.
///
/// A type of this crate's own rather than rmcp's `SinkStreamTransport` over a sender and a
/// boxed stream: rmcp's whole service loop is compiled for its transport's type, and every
/// function of it carries that type's name into the debug info of a user's binary, so a short
/// name keeps that binary smaller.
pub(crate) struct Transport {
    /// Messages for the writer. Each send clones it, as rmcp runs every send as a task of its
    /// own; the channel is first come, first served, so messages go out in the order their
    /// sends are first polled.
    outgoing: mpsc::Sender<ServerJsonRpcMessage>,
    /// The messages read from the pipe, each with the length of its line.
    incoming: BoxStream<'static, (ClientJsonRpcMessage, usize)>,
    /// What is read before the request that starts the connection.
    opening: Opening,
    /// Told when the input ends, as rmcp's loop stops then.
    input_end: InputEnd,
    /// The ids of the requests passed to rmcp whose answers have not been sent.
    in_flight: InFlight,
    /// The answer to a request `in_flight` refused, written before anything more is read.
    refused: Option<ServerJsonRpcMessage>,
    /// Once the input has ended, how long rmcp's loop is kept from hearing so while requests
    /// read are unanswered (see `receive`). Boxed: held here, not in the future `receive`
    /// makes for every message.
    answers_due: Option<Pin<Box<Sleep>>>,
}

impl Transport {
    /// Once the input has ended, what is waited for before `receive` says so (`None`) while
    /// requests read are unanswered and answers can still be written: [`ANSWERS_DUE`] after
    /// the end.
    ///
    /// rmcp's loop stops on the input's end, and from then on only drains answers: a request
    /// whose handler still waits on the loop itself (a listen stream, whose acknowledgement
    /// the loop has sent but not yet counted as sent when the client closes its input) would
    /// never be answered. Held back, the loop runs on while the framework's waits end with
    /// the input (`input_end`), and every answer goes out as any other. rmcp makes a new
    /// `receive` whenever it has handled something else, so the requests unanswered are
    /// counted again after each answer sent.
    fn end_held(&mut self) -> Option<Pin<&mut Sleep>> {
        let due = self.answers_due.as_mut()?;
        let answerable = self.in_flight.awaits_answers() && !self.outgoing.is_closed();
        answerable.then_some(due.as_mut())
    }
}

impl rmcp::transport::Transport<RoleServer> for Transport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static {
        self.in_flight.answered(&item);
        let outgoing = self.outgoing.clone();
        async move {
            outgoing.send(item).await.map_err(|_| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the line writer has stopped")
            })
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            // Held in the transport, not in this future (which rmcp makes for every message
            // read, so a larger one costs each its copying), and sent once the writer has room,
            // so that a client that repeats an id and reads nothing is read no further. Taken
            // only with a permit in hand: a receive dropped while it waits loses nothing.
            if self.refused.is_some() {
                let permit = self.outgoing.reserve().await;
                // Without a permit the writer has stopped: nothing more is written.
                if let (Ok(permit), Some(refused)) = (permit, self.refused.take()) {
                    permit.send(refused);
                }
            }
            let message = match self.opening.released() {
                Some(held) => held,
                None if self.answers_due.is_some() => {
                    if let Some(due) = self.end_held() {
                        due.await;
                    }
                    return None;
                }
                None => {
                    let Some((message, bytes)) = self.incoming.next().await else {
                        self.input_end.end();
                        self.answers_due = Some(Box::pin(tokio::time::sleep(ANSWERS_DUE)));
                        continue;
                    };
                    match self.opening.pass(message, bytes) {
                        Some(message) => message,
                        None => continue,
                    }
                }
            };
            self.refused = self.in_flight.refusal(&message);
            if self.refused.is_none() {
                return Some(message);
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        // The writer ends once every sender is gone (this one, the reader's in `incoming`,
        // those of sends under way), that is once rmcp drops the transport; not on close.
        Ok(())
    }
}

/// A transport for rmcp on `reader` and `writer`, and the task writing to `writer`, which ends
/// once rmcp has dropped the transport and everything said has been written: await it before
/// leaving, or the last lines may be lost. `input_end` is told when `reader` ends.
pub(crate) fn transport<R, W>(
    reader: R,
    writer: W,
    max_line_bytes: usize,
    input_end: InputEnd,
) -> (Transport, JoinHandle<()>)
where
    R: AsyncRead + Send + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (outgoing, pending) = mpsc::channel(PENDING);
    let writing = crate::background::spawn(write_lines(pending, writer));
    let answers = outgoing.clone();
    let lines = Lines(LinesCodec::new_with_max_length(max_line_bytes));
    let incoming = FramedRead::new(reader, lines)
        .filter_map(move |line| {
            let answers = answers.clone();
            async move {
                match line {
                    Ok(Line::Message(message, bytes)) => Some((message, bytes)),
                    Ok(Line::Answer(answer)) => {
                        // The channel closes only once nothing more is written.
                        let _ = answers.send(answer).await;
                        None
                    }
                    // The input ends after an error reading it.
                    Err(_) => None,
                }
            }
        })
        .boxed();
    let transport = Transport {
        outgoing,
        incoming,
        opening: Opening::default(),
        input_end,
        in_flight: InFlight::default(),
        refused: None,
        answers_due: None,
    };
    (transport, writing)
}

/// What one line holds.
enum Line {
    /// A message, for rmcp, and the length of its line.
    Message(ClientJsonRpcMessage, usize),
    /// No message: the answer to the line.
    Answer(ServerJsonRpcMessage),
}

/// Reads lines of at most a number of bytes (a longer one is read past, not kept, and answered)
/// and skips blank ones.
struct Lines(LinesCodec);

impl Decoder for Lines {
    type Item = Line;
    type Error = io::Error;

    fn decode(&mut self, buffer: &mut BytesMut) -> io::Result<Option<Line>> {
        self.next_line(buffer, LinesCodec::decode)
    }

    fn decode_eof(&mut self, buffer: &mut BytesMut) -> io::Result<Option<Line>> {
        self.next_line(buffer, LinesCodec::decode_eof)
    }
}

type Split = fn(&mut LinesCodec, &mut BytesMut) -> Result<Option<String>, LinesCodecError>;

impl Lines {
    /// The next line that is not blank, split from `buffer` by `split`.
    fn next_line(&mut self, buffer: &mut BytesMut, split: Split) -> io::Result<Option<Line>> {
        loop {
            let line = match split(&mut self.0, buffer) {
                Ok(Some(line)) => line,
                Ok(None) => return Ok(None),
                Err(LinesCodecError::MaxLineLengthExceeded) => {
                    return Ok(Some(Line::Answer(too_long(self.0.max_length()))));
                }
                // The codec's only error of its own: a line that is not UTF-8. (An error reading
                // the pipe reaches the stream without passing through here.)
                Err(LinesCodecError::Io(error)) => {
                    return Ok(Some(Line::Answer(parse_error(&error, None))));
                }
            };
            if let Some(read) = read(&line) {
                return Ok(Some(read));
            }
        }
    }
}

/// What a line holds, without a leading byte order mark (which RFC 8259 lets a reader skip,
/// as rmcp does); `None` for a blank line, which needs no answer.
fn read(line: &str) -> Option<Line> {
    let text = line.strip_prefix('\u{FEFF}').unwrap_or(line);
    if text.trim_ascii().is_empty() {
        return None;
    }
    if let Some(call) = crate::call_line::call(text) {
        return Some(Line::Message(call, text.len()));
    }
    Some(match serde_json::from_str(text) {
        Ok(message) => Line::Message(message, text.len()),
        Err(error) => match unread(text, error) {
            Unread::NotJson(error, id) => Line::Answer(parse_error(&error, id)),
            Unread::NoMessage(fault, id) => Line::Answer(ServerJsonRpcMessage::error(
                ErrorData::invalid_request(
                    format!("Invalid request: {fault}; it was dropped, and gets no other answer"),
                    None,
                ),
                id,
            )),
            // JSON-RPC answers no answer (an error with its id would read as the answer to the
            // client's own request of that id), so nothing is written; rmcp is handed the
            // stand-in under its id, and an answer whose id cannot be read is only dropped.
            Unread::Answer(error, id) => {
                tracing::warn!(
                    line = %tool_core::outcome::cut_after(text, 256),
                    "an answer from the client cannot be read"
                );
                Line::Message(crate::unread::stand_in(&error, id?), text.len())
            }
        },
    })
}

/// The answer to a line longer than the limit.
fn too_long(max: usize) -> ServerJsonRpcMessage {
    let message = format!(
        "Invalid request: the line is longer than {max} bytes, the longest this server reads; \
         it was dropped unread, and the request in it gets no other answer. Send each message \
         in at most {max} bytes"
    );
    ServerJsonRpcMessage::error(ErrorData::invalid_request(message, None), None)
}

/// The answer to a line that cannot be read as JSON, with the request's id when it could be
/// read.
fn parse_error(error: &dyn std::fmt::Display, id: Option<RequestId>) -> ServerJsonRpcMessage {
    let message = format!(
        "Parse error: the line cannot be read as JSON ({error}); it was dropped, and the \
         request in it gets no other answer. Send each JSON-RPC message as one line of UTF-8 \
         JSON, with numbers a 64-bit float can hold and at most 128 levels of nesting"
    );
    ServerJsonRpcMessage::error(ErrorData::parse_error(message, None), id)
}

/// Writes each message as a line, in the order they were sent, until every sender is gone;
/// then shuts `writer` down.
async fn write_lines(
    mut pending: mpsc::Receiver<ServerJsonRpcMessage>,
    writer: impl AsyncWrite + Unpin,
) {
    let mut lines = FramedWrite::new(writer, JsonRpcMessageCodec::default());
    while let Some(message) = pending.recv().await {
        let written = match message {
            // rmcp leaves out the id it could not read, as MCP 2026-07-28 words it; JSON-RPC 2.0
            // says `"id": null`, which the official Python SDK's error type requires.
            JsonRpcMessage::Error(JsonRpcError {
                id: None, error, ..
            }) => Written::Unread {
                jsonrpc: "2.0",
                id: (),
                error,
            },
            message => Written::Message(message),
        };
        if lines.send(written).await.is_err() {
            return;
        }
    }
    let _ = lines.close().await;
}

/// A line as it is written: rmcp's message, or an error answering a line whose id could not be
/// read, with `"id": null`.
#[derive(serde::Serialize)]
#[serde(untagged)]
// One at a time, on its way to the writer: boxing the larger variant would cost an allocation
// per message to save stack space nothing else needs.
#[allow(clippy::large_enum_variant)]
enum Written {
    Message(ServerJsonRpcMessage),
    Unread {
        jsonrpc: &'static str,
        id: (),
        error: ErrorData,
    },
}

#[cfg(test)]
mod tests {
    use rmcp::transport::Transport as _;

    use super::*;

    /// What a line gets: a message (with this method), an answer (with this error code), or
    /// nothing.
    type Gets = Option<Result<&'static str, i32>>;

    /// What each line of `input` gets: `Ok` with the request's method for a message, `Err`
    /// with the answer's error code for a line without one.
    async fn read_all(input: &[u8], max_line_bytes: usize) -> Vec<Result<String, i32>> {
        let lines = Lines(LinesCodec::new_with_max_length(max_line_bytes));
        FramedRead::new(input, lines)
            .map(|line| match line.unwrap() {
                Line::Message(ClientJsonRpcMessage::Request(request), _) => {
                    Ok(request.request.method().to_owned())
                }
                Line::Message(other, _) => panic!("not a request: {other:?}"),
                Line::Answer(ServerJsonRpcMessage::Error(answer)) => Err(answer.error.code.0),
                Line::Answer(other) => panic!("not an error: {other:?}"),
            })
            .collect()
            .await
    }

    #[tokio::test]
    async fn every_line_but_a_blank_one_is_a_message_or_has_an_answer() {
        let ping: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let with_bom = [b"\xEF\xBB\xBF", ping, b"\r"].concat();
        let too_long = [b'x'; 100];
        let parse_error = Some(Err(-32700));
        let invalid_request = Some(Err(-32600));
        let lines: [(&[u8], Gets); 10] = [
            (ping, Some(Ok("ping"))),
            (b"", None),
            (b"  \r", None),
            (&with_bom, Some(Ok("ping"))),
            (b"not json", parse_error),
            (b"[1, 2]", invalid_request),
            (b"{\"a\": \"\xff\"}", parse_error),
            (&too_long, invalid_request),
            (b"", None),
            // The last line, without a newline: the input ends.
            (ping, Some(Ok("ping"))),
        ];
        let input = lines.map(|(line, _)| line).join(&b'\n');
        let expected: Vec<_> = lines
            .iter()
            .filter_map(|(_, answer)| answer.map(|answer| answer.map(str::to_owned)))
            .collect();
        assert_eq!(read_all(&input, 64).await, expected);
    }

    #[test]
    fn a_parse_error_carries_the_id_of_a_request_and_never_that_of_an_answer() {
        for (text, expected) in [
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":1e400}}"#,
                Some(3),
            ),
            (r#"{"jsonrpc":"2.0","id":3,"result":{"x":1e400}}"#, None),
            (r#"{"jsonrpc":"2.0","id":3,"result":{"x":"\ud800"}}"#, None),
        ] {
            match read(text) {
                Some(Line::Answer(ServerJsonRpcMessage::Error(answer))) => {
                    assert_eq!(answer.error.code.0, -32700, "{text}");
                    assert_eq!(answer.id, expected.map(RequestId::Number), "{text}");
                }
                _ => panic!("{text} gets no parse error"),
            }
        }
    }

    #[test]
    fn an_unreadable_answer_gets_none_and_ends_the_request_waiting_on_it() {
        for (text, id) in [
            (
                r#"{"jsonrpc":"2.0","id":0,"error":{"message":"no code"}}"#,
                Some(RequestId::Number(0)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":"s","error":{"code":"x","message":"m"}}"#,
                Some(RequestId::String("s".into())),
            ),
            (r#"{"jsonrpc":"2.0","id":1.5,"result":7}"#, None),
        ] {
            match (read(text), id) {
                (None, None) => {}
                (Some(Line::Message(ClientJsonRpcMessage::Error(unread), _)), Some(id)) => {
                    assert_eq!(unread.id, Some(id), "{text}");
                    let message = unread.error.message;
                    assert!(
                        message.starts_with("the client's answer cannot be read: "),
                        "{text}: {message}"
                    );
                }
                (read, _) => panic!("{text}: {:?}", read.is_some()),
            }
        }
    }

    #[test]
    fn json_that_is_no_message_is_told_what_to_fix() {
        // Each line, and what its answer says and the id it carries.
        type Told = Option<(&'static str, Option<i64>)>;
        let cases: [(&str, Told); 7] = [
            (
                r#"{"jsonrpc":"2.0","id":3}"#,
                Some(("must name its `method`", None)),
            ),
            (
                r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
                Some(("`jsonrpc` must be \"2.0\"", Some(3))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                Some(("`id` must be a string or an integer", None)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"ping","result":{}}"#,
                Some(("carries no `result` or `error`", Some(2))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":5}"#,
                Some(("`method` must be a string", Some(4))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}"#,
                Some(("`params` must be an object", Some(5))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":5}}"#,
                Some(("`params._meta` must be an object", Some(6))),
            ),
        ];
        for (text, expected) in cases {
            let said = match read(text) {
                None => None,
                Some(Line::Answer(ServerJsonRpcMessage::Error(answer))) => {
                    assert_eq!(answer.error.code.0, -32600, "{text}");
                    let id = answer.id.map(|id| match id {
                        RequestId::Number(number) => number,
                        RequestId::String(_) => panic!("a string id for {text}"),
                    });
                    Some((answer.error.message.into_owned(), id))
                }
                Some(_) => panic!("{text} is read as a message"),
            };
            match (said, expected) {
                (None, None) => {}
                (Some((message, id)), Some((fault, expected_id))) => {
                    assert!(message.contains(fault), "{text}: {message}");
                    assert_eq!(id, expected_id, "{text}");
                }
                (said, _) => panic!("{text}: {said:?}"),
            }
        }
    }

    /// A transport reading `input`, and its writer's output (of room enough for every test).
    fn over(input: &'static [u8]) -> (Transport, InputEnd, tokio::io::DuplexStream) {
        let (writer, output) = tokio::io::duplex(1 << 16);
        let input_end = InputEnd::default();
        let (transport, _writing) = transport(input, writer, 1024, input_end.clone());
        (transport, input_end, output)
    }

    fn pong(id: i64) -> ServerJsonRpcMessage {
        serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}))
            .unwrap()
    }

    /// Whether `transport` says, within a tenth of [`ANSWERS_DUE`] (virtual time), that its
    /// input has ended.
    async fn tells_the_end(transport: &mut Transport) -> bool {
        let received = tokio::time::timeout(ANSWERS_DUE / 10, transport.receive()).await;
        match received {
            Ok(None) => true,
            Ok(Some(message)) => panic!("a message after the input's end: {message:?}"),
            Err(_) => false,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_input_s_end_is_told_once_the_requests_read_are_answered() {
        // The connection starts at `initialize`, so that the cancel is passed on as it is read.
        let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":\
            {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\
            \"clientInfo\":{\"name\":\"lines\",\"version\":\"1\"}}}\n\
            {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n\
            {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n\
            {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}\n";
        let (mut transport, input_end, _output) = over(input);
        for _ in 0..4 {
            assert!(transport.receive().await.is_some());
        }
        assert!(
            !tells_the_end(&mut transport).await,
            "1 and 2 are unanswered"
        );
        // What waits on rmcp's loop stops waiting as soon as the input ends.
        assert_eq!(input_end.before(std::future::pending::<()>()).await, None);
        transport.send(pong(1)).await.unwrap();
        assert!(!tells_the_end(&mut transport).await, "2 is unanswered");
        // 3 was cancelled: rmcp sends it no answer.
        transport.send(pong(2)).await.unwrap();
        assert!(tells_the_end(&mut transport).await);
        assert!(tells_the_end(&mut transport).await, "the end is told again");
    }

    #[tokio::test(start_paused = true)]
    async fn the_input_s_end_is_told_at_once_when_nothing_more_can_be_written() {
        let (mut transport, _, output) =
            over(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        assert!(transport.receive().await.is_some());
        // The client reads no more: the next line written fails, and the writer stops.
        drop(output);
        transport.send(pong(7)).await.unwrap();
        while !transport.outgoing.is_closed() {
            tokio::task::yield_now().await;
        }
        let ended = tokio::time::Instant::now();
        assert!(
            transport.receive().await.is_none(),
            "1 is unanswered, but cannot be"
        );
        assert_eq!(ended.elapsed(), Duration::ZERO);
    }

    #[tokio::test(start_paused = true)]
    async fn the_input_s_end_is_told_at_last_with_requests_unanswered() {
        let (mut transport, _, _output) =
            over(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        assert!(transport.receive().await.is_some());
        let ended = tokio::time::Instant::now();
        assert!(transport.receive().await.is_none());
        assert_eq!(ended.elapsed(), ANSWERS_DUE);
        assert!(tells_the_end(&mut transport).await);
    }
}
