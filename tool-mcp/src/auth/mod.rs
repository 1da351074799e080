//! Who may call over HTTP (the `oauth` feature): the server as an OAuth 2.1 resource server, as
//! MCP's authorization spec makes it. Every request to the MCP endpoint carries
//! `Authorization: Bearer <token>`; the token is checked before anything else runs, and a
//! request without a valid one is answered 401 with a `WWW-Authenticate` challenge that points
//! at the server's protected-resource metadata (RFC 9728), where a client finds the
//! authorization server to get a token from.
//!
//! The parts: this module (the [`AccessToken`] a check yields, the [`TokenVerifier`] trait and
//! its [`TokenError`]), `bearer` (the server's setting, [`BearerAuth`]), `gate` (the axum
//! middleware that answers 401, 403 and 503, and the metadata routes), `cache` (tokens already
//! checked), `jwt` ([`JwtVerifier`]: JWT access tokens signed by the issuer's keys), `keys` (the
//! issuer's metadata and its JWKS, fetched and kept) and `introspect`
//! ([`IntrospectionVerifier`]: opaque tokens through RFC 7662).
//!
//! A valid token's subject becomes each call's caller (so grants, tasks and suspended calls
//! are bound to it), its scopes a [`Grant::scopes`](tool_core::Grant::scopes) that narrows the
//! host's grant, and the token itself a context extension a tool reads with
//! `ctx.get::<AccessToken>()`.

mod bearer;
mod cache;
mod gate;
mod introspect;
mod jwt;
mod keys;

use std::time::SystemTime;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tool_core::call::BoxFuture;

pub use self::bearer::BearerAuth;
pub(crate) use self::gate::{Scopes, router};
pub use self::introspect::IntrospectionVerifier;
pub use self::jwt::JwtVerifier;

/// A checked access token: whose it is, which client holds it, what it allows, until when,
/// and every claim it carries.
///
/// Over HTTP with [`BearerAuth`], each call's context holds the caller's token; a tool reads it
/// with [`Context::get`](tool_core::Context::get) (never from its arguments):
///
/// ```
/// use tool_core::Context;
/// use tool_mcp::auth::AccessToken;
///
/// # fn tool(ctx: &Context) -> String {
/// match ctx.get::<AccessToken>() {
///     Some(token) => format!("hello, {}", token.subject()),
///     None => "hello, whoever you are".to_owned(),
/// }
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AccessToken(std::sync::Arc<Token>);

/// What an [`AccessToken`] holds, shared by its clones: every request of a caller carries its
/// token, and a clone is not a copy of its claims.
#[derive(Clone, Debug, PartialEq)]
struct Token {
    subject: String,
    client_id: Option<String>,
    scopes: Vec<String>,
    expires_at: Option<SystemTime>,
    claims: Map<String, Value>,
    /// The grant of its scopes, made once.
    grant: std::sync::OnceLock<tool_core::Grant>,
}

impl AccessToken {
    /// A token of `subject` (the caller it names), with no client, no scopes, no expiry and no
    /// other claims: what a [`TokenVerifier`] of the host's builds on.
    pub fn new(subject: impl Into<String>) -> Self {
        AccessToken(std::sync::Arc::new(Token {
            subject: subject.into(),
            client_id: None,
            scopes: Vec::new(),
            expires_at: None,
            claims: Map::new(),
            grant: std::sync::OnceLock::new(),
        }))
    }

    fn edit(mut self, change: impl FnOnce(&mut Token)) -> Self {
        let token = std::sync::Arc::make_mut(&mut self.0);
        change(token);
        token.grant = std::sync::OnceLock::new();
        self
    }

    /// The grant of the tools whose scopes the token holds ([`Grant::scopes`](tool_core::Grant::scopes)).
    pub fn grant(&self) -> tool_core::Grant {
        let held = || tool_core::Grant::scopes(self.0.scopes.iter().map(String::as_str));
        self.0.grant.get_or_init(held).clone()
    }

    /// Names the OAuth client the token was issued to.
    pub fn with_client_id(self, client_id: impl Into<String>) -> Self {
        let client_id = client_id.into();
        self.edit(|token| token.client_id = Some(client_id))
    }

    /// Sets the scopes the token grants.
    pub fn with_scopes(self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let scopes = scopes.into_iter().map(Into::into).collect();
        self.edit(|token| token.scopes = scopes)
    }

    /// Sets when the token expires: a checked token is not trusted past it.
    pub fn with_expiry(self, expires_at: SystemTime) -> Self {
        self.edit(|token| token.expires_at = Some(expires_at))
    }

    /// Sets every claim the token carries, as the issuer wrote them.
    pub fn with_claims(self, claims: Map<String, Value>) -> Self {
        self.edit(|token| token.claims = claims)
    }

    /// The subject (`sub`): the caller, as every call's context names it.
    pub fn subject(&self) -> &str {
        &self.0.subject
    }

    /// The OAuth client the token was issued to (`client_id`, or `azp`), if it says.
    pub fn client_id(&self) -> Option<&str> {
        self.0.client_id.as_deref()
    }

    /// The scopes the token grants.
    pub fn scopes(&self) -> &[String] {
        &self.0.scopes
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.0.scopes.iter().any(|held| held == scope)
    }

    /// When the token expires, if it says.
    pub fn expires_at(&self) -> Option<SystemTime> {
        self.0.expires_at
    }

    /// Every claim, as the issuer wrote them.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.0.claims
    }

    /// The claim `name` read as a `T`: `Ok(None)` when the token has no such claim, an error
    /// saying why when it has one of another shape.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_mcp::auth::AccessToken;
    ///
    /// let claims = json!({"tenant": "acme", "seats": 3}).as_object().unwrap().clone();
    /// let token = AccessToken::new("ann").with_claims(claims);
    /// assert_eq!(token.claim::<String>("tenant").unwrap().as_deref(), Some("acme"));
    /// assert_eq!(token.claim::<u32>("missing").unwrap(), None);
    /// assert!(token.claim::<u32>("tenant").is_err());
    /// ```
    pub fn claim<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, serde_json::Error> {
        self.0
            .claims
            .get(name)
            .map(|value| T::deserialize(value))
            .transpose()
    }
}

/// Why a token was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The token is not valid here (malformed, expired, not yet valid, signed by no key of the
    /// issuer's, issued by another issuer or for another resource, revoked): answered 401
    /// `invalid_token` with this text as its description.
    #[error("{0}")]
    Invalid(String),
    /// The token could not be checked now (the issuer's keys or its introspection endpoint
    /// cannot be reached, and no key already held decides): answered 503 with `Retry-After`,
    /// so that a client tries again rather than asking for another token.
    #[error("{0}")]
    Unavailable(String),
}

/// Checks a bearer token: [`JwtVerifier`] and [`IntrospectionVerifier`] are two; a host with
/// tokens of its own implements this.
///
/// ```
/// use tool_core::call::BoxFuture;
/// use tool_mcp::auth::{AccessToken, TokenError, TokenVerifier};
///
/// /// Tokens of the form `user:NAME`, for a test.
/// struct Named;
///
/// impl TokenVerifier for Named {
///     fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<AccessToken, TokenError>> {
///         Box::pin(async move {
///             match token.strip_prefix("user:") {
///                 Some(name) => Ok(AccessToken::new(name).with_scopes(["notes:read"])),
///                 None => Err(TokenError::Invalid("not a user token".into())),
///             }
///         })
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// Checks `token` (the text after `Bearer `), and says whose it is and what it allows.
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<AccessToken, TokenError>>;
}

/// The token a request's check let through, if it was checked.
pub(crate) fn token_in(parts: &crate::owner::HttpRequestParts) -> Option<&AccessToken> {
    parts.extensions.get::<AccessToken>()
}

/// The scopes a token carries: OAuth's `scope` (one string, space-separated), or the `scp`
/// some issuers write instead (a list, or one string).
fn scopes_of(claims: &Map<String, Value>) -> Vec<String> {
    let words = |text: &str| text.split_whitespace().map(str::to_owned).collect();
    match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(Value::String(text)) => words(text),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// A token's claims as an [`AccessToken`]: its subject (`sub`, or its client's id for a token
/// issued to a client on its own behalf that has none), client, scopes and expiry.
fn token_of(claims: Map<String, Value>) -> Result<AccessToken, TokenError> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let client_id = text("client_id").or_else(|| text("azp"));
    let subject = text("sub")
        .or_else(|| client_id.clone())
        .ok_or_else(|| TokenError::Invalid("the token names no subject (`sub`)".into()))?;
    let mut token = AccessToken::new(subject).with_scopes(scopes_of(&claims));
    if let Some(client_id) = client_id {
        token = token.with_client_id(client_id);
    }
    if let Some(exp) = claims.get("exp").and_then(Value::as_u64) {
        token = token.with_expiry(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(exp));
    }
    Ok(token.with_claims(claims))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn scopes_are_read_from_scope_or_scp() {
        let claims = |value: Value| value.as_object().cloned().unwrap_or_default();
        assert_eq!(scopes_of(&claims(json!({"scope": "a  b"}))), ["a", "b"]);
        assert_eq!(scopes_of(&claims(json!({"scp": ["a", "b"]}))), ["a", "b"]);
        assert!(scopes_of(&claims(json!({"scope": 3}))).is_empty());
    }

    #[test]
    fn a_token_without_a_subject_is_its_client_s_or_refused() {
        let claims = |value: Value| value.as_object().cloned().unwrap_or_default();
        let token = token_of(claims(json!({"client_id": "robot", "exp": 10}))).unwrap();
        assert_eq!(
            (token.subject(), token.client_id()),
            ("robot", Some("robot"))
        );
        assert!(token.expires_at().is_some());
        assert!(token_of(claims(json!({"scope": "a"}))).is_err());
    }
}
