//! The server's bearer-token setting: which resource it is, who checks its tokens, which
//! authorization servers issue them, and the limits of checking (a token's length, the tokens
//! kept once checked).

use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;
use serde_json::{Value, json};

use super::cache::TokenCache;
use super::{JwtVerifier, TokenVerifier};

/// OAuth 2.1 bearer tokens on an HTTP server ([`McpServer::with_bearer_auth`]): every request
/// to the MCP endpoint needs a valid token, a token's subject is the caller, its scopes narrow
/// the caller's grant, and the server publishes its protected-resource metadata (RFC 9728) at
/// `/.well-known/oauth-protected-resource` (and at that address followed by the resource's
/// path, as RFC 9728 places it).
///
/// ```no_run
/// use tool_mcp::McpServer;
/// use tool_mcp::auth::BearerAuth;
///
/// # fn server(registry: tool_core::Registry) -> McpServer {
/// McpServer::new(registry).with_bearer_auth(BearerAuth::jwt(
///     "https://auth.example.com",
///     "https://notes.example.com/mcp",
/// ))
/// # }
/// ```
///
/// [`McpServer::with_bearer_auth`]: crate::McpServer::with_bearer_auth
#[derive(Clone)]
pub struct BearerAuth {
    pub(crate) verifier: Arc<dyn TokenVerifier>,
    pub(crate) resource: String,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) scopes_supported: Option<Vec<String>>,
    pub(crate) cache: TokenCache,
    pub(crate) max_token_bytes: usize,
}

impl BearerAuth {
    /// The longest token read unless set: far above any JWT an issuer writes, far below what
    /// would cost a server to hold for every request.
    pub const DEFAULT_MAX_TOKEN_BYTES: usize = 16 * 1024;

    /// How many checked tokens are kept unless set, and for how long at most (a token is never
    /// kept past its expiry; a revoked one is believed this long).
    pub const DEFAULT_TOKEN_CACHE: (usize, Duration) = (4096, Duration::from_secs(60));

    /// Tokens for `resource` (this server's URL, as clients name it: `https://host/mcp`)
    /// checked by `verifier`. Name the authorization servers clients get tokens from with
    /// [`BearerAuth::with_authorization_server`].
    pub fn new(resource: impl Into<String>, verifier: impl TokenVerifier) -> Self {
        let (max, ttl) = Self::DEFAULT_TOKEN_CACHE;
        BearerAuth {
            verifier: Arc::new(verifier),
            resource: resource.into(),
            authorization_servers: Vec::new(),
            scopes_supported: None,
            cache: TokenCache::new(max, ttl),
            max_token_bytes: Self::DEFAULT_MAX_TOKEN_BYTES,
        }
    }

    /// JWT access tokens of the issuer `issuer` for `resource`, checked by a [`JwtVerifier`]
    /// with its defaults; the issuer is the authorization server the metadata names.
    pub fn jwt(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        let (issuer, resource) = (issuer.into(), resource.into());
        let verifier = JwtVerifier::new(issuer.clone(), resource.clone());
        BearerAuth::new(resource, verifier).with_authorization_server(issuer)
    }

    /// Names an authorization server (its issuer identifier) in the metadata, where clients
    /// look for one to get a token from.
    pub fn with_authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// The scopes the metadata lists as `scopes_supported` (a 403's challenge names the scopes
    /// its call lacks). Unless set, every scope a tool of the registry needs.
    pub fn with_scopes_supported(
        mut self,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.scopes_supported = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Refuses tokens longer than `bytes` before checking them
    /// ([`BearerAuth::DEFAULT_MAX_TOKEN_BYTES`] unless set).
    pub fn with_max_token_bytes(mut self, bytes: usize) -> Self {
        self.max_token_bytes = bytes;
        self
    }

    /// Keeps at most `max` checked tokens, each at most `ttl` (and never past its expiry);
    /// `max` 0 checks every request's token afresh. See [`BearerAuth::DEFAULT_TOKEN_CACHE`].
    pub fn with_token_cache(mut self, max: usize, ttl: Duration) -> Self {
        self.cache = TokenCache::new(max, ttl);
        self
    }

    /// The resource, as tokens must be issued for it.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// Where the protected-resource metadata is, as a 401's challenge names it: the resource's
    /// origin, `/.well-known/oauth-protected-resource`, then the resource's path.
    pub fn metadata_url(&self) -> Result<String, String> {
        let url = self.resource_url()?;
        let path = url.path().trim_end_matches('/');
        Ok(format!(
            "{}/.well-known/oauth-protected-resource{path}",
            url.origin().ascii_serialization()
        ))
    }

    /// The resource as a URL: absolute, with no fragment (RFC 8707).
    pub(crate) fn resource_url(&self) -> Result<Url, String> {
        let url = Url::parse(&self.resource).map_err(|error| {
            format!(
                "the resource {:?} is not an absolute URL ({error}); name the server as \
                 clients reach it, such as https://notes.example.com/mcp",
                self.resource
            )
        })?;
        if url.fragment().is_some() || !matches!(url.scheme(), "https" | "http") {
            return Err(format!(
                "the resource {:?} must be an http(s) URL without a fragment",
                self.resource
            ));
        }
        Ok(url)
    }

    /// The protected-resource metadata document (RFC 9728), listing `scopes`.
    pub(crate) fn metadata(&self, scopes: &[String]) -> Value {
        let mut metadata = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !scopes.is_empty() {
            metadata["scopes_supported"] = json!(scopes);
        }
        metadata
    }
}

impl std::fmt::Debug for BearerAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BearerAuth")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .finish_non_exhaustive()
    }
}
