//! JSON-RPC over a byte pipe, one message a line, with an answer for every line.
//!
//! rmcp's line transport drops a line it cannot read as JSON without a word (as the other
//! official SDKs do: there is no id to answer to, and a peer that echoed errors back could
//! start a storm). A client that sent a broken line then waits for an answer that never comes,
//! so [`serve_lines`](crate::McpServer::serve_lines) stands between the pipe and rmcp: a line
//! that is not JSON, or that only a full read refuses (bytes that are not UTF-8, a lone
//! surrogate, a number out of range, nesting past 128 levels), is answered with a JSON-RPC
//! parse error (code -32700, no id, as MCP 2026-07-28 words it) and goes no further;
//! every other line reaches rmcp unchanged, and rmcp's lines reach the pipe whole. The parse
//! error is itself valid JSON, so a peer that echoed it back would not get another parse error
//! for it: what rmcp makes of an echoed error is rmcp's, as for any other JSON it reads.

use std::fmt;

use rmcp::RoleServer;
use rmcp::model::{ErrorData, ServerJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};
use tokio::io::{ReadHalf, WriteHalf};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How much rmcp's side of the pipe buffers before a writer waits.
const PIPE_BYTES: usize = 1 << 16;

/// Parse errors waiting to be written; past this many the reader waits for the writer.
const PENDING_ERRORS: usize = 64;

/// rmcp's transport on its end of the filter.
pub(crate) type Transport =
    AsyncRwTransport<RoleServer, ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>;

/// Connects `reader` and `writer` to rmcp through a filter that answers broken lines. Returns
/// the transport for rmcp, and the task writing to `writer`, which ends once rmcp has dropped
/// the transport and everything said has been written: await it before leaving, or the last
/// lines may be lost. The task reading `reader` ends when `reader` does (rmcp then sees the
/// end of its input) or when rmcp stops reading.
pub(crate) fn filtered<R, W>(
    reader: R,
    writer: W,
    max_line_bytes: usize,
) -> (Transport, JoinHandle<()>)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (rmcp_end, our_end) = tokio::io::duplex(PIPE_BYTES);
    let (from_rmcp, to_rmcp) = tokio::io::split(our_end);
    let (errors, pending) = mpsc::channel(PENDING_ERRORS);
    tokio::spawn(forward_lines(reader, to_rmcp, errors, max_line_bytes));
    let writing = tokio::spawn(write_lines(from_rmcp, pending, writer));
    let (read, write) = tokio::io::split(rmcp_end);
    // The filter bounds every line it passes on, so rmcp's own bound is lifted: left in place
    // it would drop, without an answer, a line the filter let through when the host raised the
    // limit.
    let transport = AsyncRwTransport::new_server(read, write).with_max_line_length(usize::MAX);
    (transport, writing)
}

/// Sends each line that is JSON on to rmcp; answers each other line with a parse error, and
/// each line longer than `max_line_bytes` with an error, without keeping more of it than that.
async fn forward_lines(
    reader: impl AsyncRead + Unpin,
    mut to_rmcp: impl AsyncWrite + Unpin,
    errors: mpsc::Sender<Vec<u8>>,
    max_line_bytes: usize,
) {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        let answer = match read_line(&mut reader, &mut line, max_line_bytes).await {
            Ok(Read::End) | Err(_) => break,
            Ok(Read::TooLong) => too_long(max_line_bytes),
            Ok(Read::Line) => match message_in(&line) {
                None => continue,
                Some(Ok(text)) => {
                    if to_rmcp.write_all(text).await.is_err()
                        || to_rmcp.write_all(b"\n").await.is_err()
                    {
                        break;
                    }
                    continue;
                }
                Some(Err(error)) => parse_error(&error),
            },
        };
        if errors.send(answer).await.is_err() {
            break;
        }
    }
    // rmcp reads the end of its input, and stops.
    let _ = to_rmcp.shutdown().await;
}

/// The message a line holds, without its line ending (and a leading byte order mark, which
/// RFC 8259 lets a reader skip, as rmcp does), if rmcp can read it; `None` for a blank line,
/// which needs no answer.
fn message_in(line: &[u8]) -> Option<serde_json::Result<&[u8]>> {
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(serde_json::from_slice::<Readable>(text).map(|_| text))
}

/// A JSON value as rmcp will read it: every string valid UTF-8 with its escapes (no lone
/// surrogate), every number in range, nesting within serde_json's 128 levels. Unlike
/// `IgnoredAny`, which only skips over the text, this reads each part (without keeping it),
/// so a line that rmcp could not read, and would drop without an answer, is answered here.
struct Readable;

impl<'de> Deserialize<'de> for Readable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Readable)
    }
}

impl<'de> Visitor<'de> for Readable {
    type Value = Readable;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_str<E>(self, _: &str) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_unit<E>(self) -> Result<Readable, E> {
        Ok(Readable)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Readable, A::Error> {
        while seq.next_element::<Readable>()?.is_some() {}
        Ok(Readable)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Readable, A::Error> {
        while map.next_key::<Readable>()?.is_some() {
            map.next_value::<Readable>()?;
        }
        Ok(Readable)
    }
}

/// What [`read_line`] read.
enum Read {
    /// A line, in the buffer (with its newline, unless the input ended first).
    Line,
    /// A line longer than the limit, read past and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line into `line`, or past it if it is longer than `max` bytes.
async fn read_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Read> {
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::End,
                (false, false) => Read::Line,
            });
        }
        let (taken, ended) = match available.iter().position(|&byte| byte == b'\n') {
            Some(newline) => (newline + 1, true),
            None => (available.len(), false),
        };
        if !too_long && line.len() + taken > max.saturating_add(1) {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(&available[..taken]);
        }
        reader.consume(taken);
        if ended {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// The line that answers a line longer than the limit.
fn too_long(max: usize) -> Vec<u8> {
    error_line(ErrorData::invalid_request(
        format!(
            "Invalid request: the line is longer than {max} bytes, the longest this server \
             reads; it was dropped unread, and the request in it gets no other answer. Send \
             each message in at most {max} bytes"
        ),
        None,
    ))
}

/// The line that answers a line rmcp could not read.
fn parse_error(error: &serde_json::Error) -> Vec<u8> {
    let message = format!(
        "Parse error: the line cannot be read as JSON ({error}); it was dropped, and the \
         request in it gets no other answer. Send each JSON-RPC message as one line of UTF-8 \
         JSON, with numbers a 64-bit float can hold and at most 128 levels of nesting"
    );
    error_line(ErrorData::parse_error(message, None))
}

/// A JSON-RPC error without an id, as a line.
fn error_line(error: ErrorData) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&ServerJsonRpcMessage::error(error, None)).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Writes rmcp's lines and the filter's parse errors to `writer`, each line whole.
async fn write_lines(
    from_rmcp: impl AsyncRead + Unpin,
    mut pending: mpsc::Receiver<Vec<u8>>,
    mut writer: impl AsyncWrite + Unpin,
) {
    let mut from_rmcp = BufReader::new(from_rmcp);
    // A line read in part when a parse error came first stays here and is read on from where
    // it stopped (`read_until` keeps what it read when cancelled).
    let mut line = Vec::new();
    let mut errors_open = true;
    loop {
        tokio::select! {
            // When both are ready, a parse error goes first rather than waiting behind rmcp's
            // answers to later lines. (Errors still queued when rmcp closes are written by the
            // drain below.)
            biased;
            error = pending.recv(), if errors_open => match error {
                Some(error) => {
                    if write_line(&mut writer, &error).await.is_err() {
                        break;
                    }
                }
                None => errors_open = false,
            },
            read = from_rmcp.read_until(b'\n', &mut line) => {
                if matches!(read, Ok(0) | Err(_)) {
                    break;
                }
                let written = write_line(&mut writer, &line).await;
                line.clear();
                if written.is_err() {
                    break;
                }
            }
        }
    }
    // What the filter queued while rmcp was closing.
    while let Ok(error) = pending.try_recv() {
        if write_line(&mut writer, &error).await.is_err() {
            break;
        }
    }
    let _ = writer.shutdown().await;
}

async fn write_line(writer: &mut (impl AsyncWrite + Unpin), line: &[u8]) -> std::io::Result<()> {
    writer.write_all(line).await?;
    writer.flush().await
}
