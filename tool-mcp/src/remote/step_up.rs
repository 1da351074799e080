//! A remote toolkit's OAuth grant, run when the server asks for a token, as MCP's authorization
//! spec has a client do. With the authorization-code grant, requests go without a token until
//! the server answers 401, then the user is sent to authorize the scopes that challenge names;
//! a later 403 `insufficient_scope` (the spec's step-up) authorizes again for the scopes already
//! granted and the ones the new challenge names. With the client-credentials grant, the token
//! got at connecting is got again before it expires (it has no refresh token to refresh by),
//! and again if the server answers 401. Either way the request is sent once more with the new token. At most a few
//! authorizations in a row without an answer between them, so that a server that keeps asking
//! is not asked again and again.
//!
//! rmcp's `AuthClient` refreshes a token that has a refresh token but leaves a 401 it cannot
//! answer and a 403 to its caller; this holds the client of the latest grant and answers both.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::AuthClient;
use rmcp::transport::auth::{AuthError, WWWAuthenticateParams};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};

use super::auth::AuthorizationCode;

/// How many grants in a row, with no request answered between them, one connection runs.
const MAX_AUTHORIZATIONS: u32 = 3;

/// The grant a connection gets its tokens by.
#[derive(Clone)]
pub(super) enum Way {
    /// The authorization-code grant, its user sent by the host's callback.
    Code(AuthorizationCode),
    /// The client-credentials grant.
    Credentials {
        client_id: String,
        client_secret: String,
        scopes: Vec<String>,
    },
}

/// The client of a connection: plain until the server asks for a token, then authorized.
#[derive(Clone)]
pub(super) struct SteppingUp {
    plain: reqwest::Client,
    current: Arc<tokio::sync::RwLock<Option<AuthClient<reqwest::Client>>>>,
    /// The scopes asked for so far, which a step-up asks for again.
    granted: Arc<std::sync::Mutex<Vec<String>>>,
    url: Arc<str>,
    way: Way,
    /// Grants run since a request was last answered.
    authorizations: Arc<AtomicU32>,
    /// When a client-credentials token is to be got again, before the one held expires.
    renew_at: Arc<std::sync::Mutex<Option<Instant>>>,
}

impl SteppingUp {
    /// A connection to `url` that gets its tokens by `way`, sending by `plain` until it has a
    /// token, and holding `client` if it has one.
    pub(super) fn new(
        url: &str,
        way: Way,
        plain: reqwest::Client,
        client: Option<AuthClient<reqwest::Client>>,
    ) -> Self {
        let scopes = match &way {
            Way::Code(code) => code.scopes.clone(),
            Way::Credentials { scopes, .. } => scopes.clone(),
        };
        SteppingUp {
            plain,
            current: Arc::new(tokio::sync::RwLock::new(client)),
            granted: Arc::new(std::sync::Mutex::new(scopes)),
            url: url.into(),
            way,
            authorizations: Arc::default(),
            renew_at: Arc::default(),
        }
    }

    /// A client-credentials connection holding the `client` got at connecting.
    pub(super) async fn connected(
        url: &str,
        way: Way,
        plain: reqwest::Client,
        client: AuthClient<reqwest::Client>,
    ) -> Self {
        let connection = SteppingUp::new(url, way, plain, None);
        connection.note_expiry(&client).await;
        *connection.current.write().await = Some(client);
        connection
    }

    /// Notes when the token `client` holds is to be renewed: a little before it expires, by a
    /// margin of at most 30 s and at most half its life.
    async fn note_expiry(&self, client: &AuthClient<reqwest::Client>) {
        let credentials = client.auth_manager.lock().await.get_credentials().await;
        let lifetime = credentials
            .ok()
            .and_then(|(_, token)| serde_json::to_value(token?).ok())
            .and_then(|token| token.get("expires_in")?.as_u64());
        let renew_at = lifetime.map(|seconds| {
            let margin = seconds.div_ceil(2).min(30);
            Instant::now() + Duration::from_secs(seconds.saturating_sub(margin))
        });
        *self
            .renew_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = renew_at;
    }

    /// Authorizes for what `challenge` asks, and the scopes granted before it, if the bound
    /// allows, keeping the new client.
    async fn authorize(&self, challenge: &str) -> Result<(), AuthError> {
        if self.authorizations.fetch_add(1, Ordering::SeqCst) >= MAX_AUTHORIZATIONS {
            return Err(AuthError::InternalError(format!(
                "the server asked for authorization {MAX_AUTHORIZATIONS} times in a row; not \
                 asking again"
            )));
        }
        let client = match &self.way {
            Way::Credentials {
                client_id,
                client_secret,
                scopes,
            } => super::auth::client_credentials(&self.url, client_id, client_secret, scopes)
                .await
                .map_err(|error| AuthError::InternalError(error.to_string()))?,
            Way::Code(code) => {
                let asked = reqwest::Url::parse(&self.url)
                    .ok()
                    .and_then(|base| WWWAuthenticateParams::parse(challenge, &base).scope);
                let mut code = code.clone();
                if let Some(asked) = asked {
                    let mut granted =
                        (self.granted.lock()).unwrap_or_else(std::sync::PoisonError::into_inner);
                    for scope in asked.split_whitespace() {
                        if !granted.iter().any(|held| held == scope) {
                            granted.push(scope.to_owned());
                        }
                    }
                    code.scopes = granted.clone();
                }
                super::auth::authorize(&self.url, &code, Some(challenge.to_owned()))
                    .await
                    .map_err(AuthError::InternalError)?
            }
        };
        if matches!(self.way, Way::Credentials { .. }) {
            self.note_expiry(&client).await;
        }
        *self.current.write().await = Some(client);
        Ok(())
    }
}

impl SteppingUp {
    /// Gets a new client-credentials token before a request once the one held is about to
    /// expire, so that the server never sees an expired one (rmcp refreshes only a token
    /// that came with a refresh token).
    async fn renew_if_expiring(&self) -> Result<(), AuthError> {
        let due = (*self
            .renew_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner))
        .is_some_and(|at| Instant::now() >= at);
        if due {
            self.authorize("").await?;
        }
        Ok(())
    }
}

/// Sends one request with the connection's current client, authorized or not.
macro_rules! with_current {
    ($self:expr, |$client:ident| $call:expr) => {{
        match $self.current.read().await.clone() {
            Some($client) => $call.await,
            None => {
                let $client = $self.plain.clone();
                $call.await
            }
        }
    }};
}

impl StreamableHttpClient for SteppingUp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let send = || async {
            with_current!(self, |client| client.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                limits,
            ))
        };
        if matches!(self.way, Way::Credentials { .. }) {
            self.renew_if_expiring().await?;
        }
        let answered = match send().await {
            // A 401, or a 403 for more scopes: authorized for what its challenge asks.
            Err(refused) if refused.auth_challenge().is_some() => {
                let challenge = refused.auth_challenge().unwrap_or_default().to_owned();
                self.authorize(&challenge).await?;
                send().await
            }
            answered => answered,
        };
        if answered.is_ok() {
            self.authorizations.store(0, Ordering::SeqCst);
        }
        answered
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        with_current!(self, |client| client.delete_session(
            uri,
            session_id,
            auth_header,
            custom_headers
        ))
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        with_current!(self, |client| client.get_stream(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers
        ))
    }
}
