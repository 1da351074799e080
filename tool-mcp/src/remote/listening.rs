//! A remote toolkit's HTTP client, watched for the stream on which the server says what it
//! says unasked.
//!
//! Over streamable HTTP a server with sessions tells its client things outside any request
//! (that its tools changed, say) on a stream the client opens with a GET once initialized.
//! rmcp opens that stream on a task of its own, so a request sent at once can reach the server
//! before it, and a change the server tells of in between is told to nobody. A toolkit lists the
//! server's tools only once that stream is answered (open, or refused by a server that has
//! none), so a change after the list always has a listener; and a server that cannot tell that
//! stream from a call's resumed one is not handed the call's answer on it.
//!
//! [`Listening`] forwards every request to the client it holds, each limit and all, and notes
//! what it sees: `initialize` answered with a session (a stream to come) or without one, and
//! the stream's GET answered.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};
use tokio::sync::watch;

/// How long a toolkit waits for the server to answer the stream's GET before it lists the
/// tools anyway: a server that holds the GET unanswered slows its connection by this, not more.
const STREAM_LIMIT: Duration = Duration::from_secs(5);

/// What is known of the server's stream for what it says unasked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stream {
    /// `initialize` is not answered yet, or the revision spoken has no such stream.
    Unknown,
    /// The server gave a session: the client opens the stream.
    Coming,
    /// The stream's GET is answered, or the server gave no session and there is none.
    Settled,
}

/// `C`, its requests forwarded as they are, noting what becomes of the stream.
#[derive(Clone)]
pub(super) struct Listening<C> {
    inner: C,
    stream: Arc<watch::Sender<Stream>>,
}

/// Where a toolkit waits for the stream of a [`Listening`] client.
pub(super) struct Heard(watch::Receiver<Stream>);

impl<C> Listening<C> {
    /// `inner`, watched, and where to wait for its stream.
    pub(super) fn new(inner: C) -> (Self, Heard) {
        let (stream, heard) = watch::channel(Stream::Unknown);
        let stream = Arc::new(stream);
        (Listening { inner, stream }, Heard(heard))
    }

    /// Notes what the answer to an `initialize` says of the stream.
    fn note_initialized<E>(&self, answer: &Result<StreamableHttpPostResponse, E>) {
        let session = matches!(
            answer,
            Ok(StreamableHttpPostResponse::Json(_, Some(_))
                | StreamableHttpPostResponse::Sse(_, Some(_)))
        );
        let now = if session {
            Stream::Coming
        } else {
            Stream::Settled
        };
        self.stream.send_if_modified(|stream| {
            let first = *stream == Stream::Unknown;
            if first {
                *stream = now;
            }
            first
        });
    }

    /// Notes that the stream's GET is answered.
    fn note_stream(&self) {
        self.stream.send_replace(Stream::Settled);
    }
}

/// Whether `message` is `initialize`, whose answer says whether there is a session.
fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::InitializeRequest(_)))
}

/// Whether a GET is the stream's: in a session, resuming nothing.
fn is_the_stream(session_id: &Option<Arc<str>>, last_event_id: &Option<String>) -> bool {
    session_id.is_some() && last_event_id.is_none()
}

impl Heard {
    /// Waits until the stream is answered, or there is none to wait for, or the limit passes.
    pub(super) async fn settled(mut self) {
        let waited = tokio::time::timeout(
            STREAM_LIMIT,
            self.0.wait_for(|stream| *stream != Stream::Coming),
        )
        .await;
        if waited.is_err() {
            tracing::debug!(
                "the server did not answer its stream's GET within {STREAM_LIMIT:?}; listing \
                 its tools without it"
            );
        }
    }
}

/// An answer to a POST or a GET, as the client gave it.
type Answered<T, E> = Result<T, StreamableHttpError<E>>;

impl<C: StreamableHttpClient + Sync> Listening<C> {
    /// The answer `post` gives, noted if the message posted was `initialize`.
    async fn posted(
        &self,
        initialize: bool,
        post: impl Future<Output = Answered<StreamableHttpPostResponse, C::Error>>,
    ) -> Answered<StreamableHttpPostResponse, C::Error> {
        let answer = post.await;
        if initialize {
            self.note_initialized(&answer);
        }
        answer
    }

    /// The stream `get` opens, noted if it is the server's own.
    async fn got(
        &self,
        the_stream: bool,
        get: impl Future<Output = Answered<BoxStream<'static, Result<Sse, SseError>>, C::Error>>,
    ) -> Answered<BoxStream<'static, Result<Sse, SseError>>, C::Error> {
        let answer = get.await;
        if the_stream {
            self.note_stream();
        }
        answer
    }
}

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for Listening<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Answered<StreamableHttpPostResponse, Self::Error> {
        let initialize = is_initialize(&message);
        let post = (self.inner).post_message(uri, message, session_id, auth_header, custom_headers);
        self.posted(initialize, post).await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Answered<StreamableHttpPostResponse, Self::Error> {
        let initialize = is_initialize(&message);
        let post = (self.inner).post_message_with_max_sse_event_size(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        );
        self.posted(initialize, post).await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Answered<StreamableHttpPostResponse, Self::Error> {
        let initialize = is_initialize(&message);
        let post = (self.inner).post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        );
        self.posted(initialize, post).await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Answered<(), Self::Error> {
        (self.inner)
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Answered<BoxStream<'static, Result<Sse, SseError>>, Self::Error> {
        let the_stream = is_the_stream(&session_id, &last_event_id);
        let get =
            (self.inner).get_stream(uri, session_id, last_event_id, auth_header, custom_headers);
        self.got(the_stream, get).await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Answered<BoxStream<'static, Result<Sse, SseError>>, Self::Error> {
        let the_stream = is_the_stream(&session_id, &last_event_id);
        let get = (self.inner).get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        );
        self.got(the_stream, get).await
    }
}
