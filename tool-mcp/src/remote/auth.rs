//! How a remote toolkit reaches an MCP server that checks bearer tokens: with a token the host
//! holds, or (the `remote-oauth` feature) with one it gets by MCP's authorization spec: the
//! server's 401 names its protected-resource metadata, which names the authorization server,
//! whose metadata names the endpoints. The OAuth flows themselves (discovery, client
//! registration, PKCE, the token exchange and its refresh) are rmcp's.

#[cfg(feature = "remote-oauth")]
use std::sync::Arc;

#[cfg(feature = "remote-oauth")]
use tool_core::call::BoxFuture;

/// How a [`RemoteToolkit`](crate::RemoteToolkit) gets the access token it sends a server
/// ([`RemoteToolkit::connect_http_authorized`](crate::RemoteToolkit::connect_http_authorized)).
#[derive(Clone)]
#[non_exhaustive]
pub enum RemoteAuth {
    /// A token the host already holds, sent as `Authorization: Bearer` on every request.
    Bearer(String),
    /// The client-credentials grant (MCP's SEP-1046), for a service calling on its own behalf:
    /// found through the server's metadata, its token asked for with this client's id and
    /// secret, for these scopes (none: no `scope` is asked for, and the authorization
    /// server's default applies).
    #[cfg(feature = "remote-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "remote-oauth")))]
    ClientCredentials {
        /// The client's id at the authorization server.
        client_id: String,
        /// Its secret.
        client_secret: String,
        /// The scopes to ask for.
        scopes: Vec<String>,
    },
    /// The authorization-code grant with PKCE, for a host that can send its user to the
    /// authorization server (a browser): see [`AuthorizationCode`].
    #[cfg(feature = "remote-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "remote-oauth")))]
    AuthorizationCode(AuthorizationCode),
}

impl std::fmt::Debug for RemoteAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RemoteAuth::Bearer(_) => f.write_str("Bearer(<redacted>)"),
            #[cfg(feature = "remote-oauth")]
            RemoteAuth::ClientCredentials {
                client_id, scopes, ..
            } => f
                .debug_struct("ClientCredentials")
                .field("client_id", client_id)
                .field("scopes", scopes)
                .finish_non_exhaustive(),
            #[cfg(feature = "remote-oauth")]
            RemoteAuth::AuthorizationCode(code) => code.fmt(f),
        }
    }
}

/// Sends the user to the authorization server and gives back the URL it redirected to.
#[cfg(feature = "remote-oauth")]
pub type Authorize =
    Arc<dyn Fn(String) -> BoxFuture<'static, Result<String, String>> + Send + Sync>;

/// The authorization-code grant with PKCE: the client registers itself (a client-metadata
/// document, dynamic registration, or an id given here), the host's `authorize` sends the user
/// to the authorization URL and answers with the URL the authorization server redirected back
/// to (the redirect URI with its `code` and `state`), and the code is exchanged for a token,
/// refreshed as it expires.
///
/// ```no_run
/// use tool_mcp::{RemoteAuth, RemoteToolkit, Revision};
/// use tool_mcp::AuthorizationCode;
///
/// # async fn connect() -> Result<(), tool_mcp::RemoteError> {
/// let code = AuthorizationCode::new("http://127.0.0.1:8765/callback", |url: String| async move {
///     // Open `url` in the user's browser and wait for the redirect to the callback.
///     # let _ = url;
///     Ok::<_, String>("http://127.0.0.1:8765/callback?code=...&state=...".to_owned())
/// })
/// .with_client_name("notes-agent");
/// let remote = RemoteToolkit::connect_http_authorized(
///     "notes",
///     "https://notes.example.com/mcp",
///     Revision::V2026_07_28,
///     RemoteAuth::AuthorizationCode(code),
/// )
/// .await?;
/// # Ok(()) }
/// ```
#[cfg(feature = "remote-oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "remote-oauth")))]
#[derive(Clone)]
pub struct AuthorizationCode {
    pub(crate) redirect_uri: String,
    pub(crate) authorize: Authorize,
    pub(crate) client_name: Option<String>,
    pub(crate) client_id: Option<String>,
    pub(crate) client_secret: Option<String>,
    pub(crate) client_metadata_url: Option<String>,
    pub(crate) scopes: Vec<String>,
}

#[cfg(feature = "remote-oauth")]
impl AuthorizationCode {
    /// The grant redirecting to `redirect_uri`, the user sent by `authorize`.
    pub fn new<F, Fut>(redirect_uri: impl Into<String>, authorize: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<String, String>> + Send + 'static,
    {
        AuthorizationCode {
            redirect_uri: redirect_uri.into(),
            authorize: Arc::new(move |url| Box::pin(authorize(url))),
            client_name: None,
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            scopes: Vec::new(),
        }
    }

    /// Names the client where it registers itself.
    pub fn with_client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = Some(name.into());
        self
    }

    /// Uses a client registered beforehand, with its secret if it has one.
    pub fn with_client(mut self, client_id: impl Into<String>, secret: Option<String>) -> Self {
        self.client_id = Some(client_id.into());
        self.client_secret = secret;
        self
    }

    /// Names the client by the URL of its metadata document (SEP-991), where the
    /// authorization server takes those.
    pub fn with_client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// Asks for these scopes; without, what the server's challenge or metadata names.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

#[cfg(feature = "remote-oauth")]
impl std::fmt::Debug for AuthorizationCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthorizationCode")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

/// What the flows below need of rmcp.
#[cfg(feature = "remote-oauth")]
mod flows {
    use rmcp::transport::auth::{AuthorizationRequest, OAuthState};
    use rmcp::transport::{AuthClient, ClientCredentialsConfig};

    use super::AuthorizationCode;
    use crate::remote::error::RemoteError;
    use crate::remote::http_client::http_client;

    fn failed(url: &str, error: impl std::fmt::Display) -> RemoteError {
        RemoteError::Authorize {
            server: url.to_owned(),
            reason: error.to_string(),
        }
    }

    /// A client that holds a token of the client-credentials grant.
    pub(crate) async fn client_credentials(
        url: &str,
        client_id: &str,
        client_secret: &str,
        scopes: &[String],
    ) -> Result<AuthClient<reqwest::Client>, RemoteError> {
        let mut oauth = OAuthState::new(url, None)
            .await
            .map_err(|error| failed(url, error))?;
        let config = ClientCredentialsConfig::ClientSecret {
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            scopes: scopes.to_vec(),
            // The MCP server's URL is the resource its tokens are for (RFC 8707).
            resource: Some(url.to_owned()),
        };
        oauth
            .authenticate_client_credentials(config)
            .await
            .map_err(|error| failed(url, error))?;
        let manager = oauth
            .into_authorization_manager()
            .ok_or_else(|| failed(url, "the flow ended unauthorized"))?;
        let client = http_client().map_err(|error| failed(url, error))?;
        Ok(AuthClient::new(client, manager))
    }

    /// The authorization-code grant for `url`, for what `challenge` (a `WWW-Authenticate`
    /// header of the server's) asks, if given.
    pub(crate) async fn authorize(
        url: &str,
        code: &AuthorizationCode,
        challenge: Option<String>,
    ) -> Result<AuthClient<reqwest::Client>, String> {
        let mut oauth = OAuthState::new(url, None)
            .await
            .map_err(|error| error.to_string())?;
        let mut request = AuthorizationRequest::new(code.redirect_uri.clone());
        if let Some(name) = &code.client_name {
            request = request.with_client_name(name.clone());
        }
        if let Some(id) = &code.client_id {
            request = request.with_preregistered_client(id.clone());
        }
        if let Some(secret) = &code.client_secret {
            request = request.with_client_secret(secret.clone());
        }
        if let Some(metadata) = &code.client_metadata_url {
            request = request.with_client_metadata_url(metadata.clone());
        }
        if !code.scopes.is_empty() {
            request = request.with_scopes(code.scopes.iter().cloned());
        }
        if let Some(challenge) = challenge {
            request = request.with_challenge(challenge);
        }
        oauth
            .start_authorization(request)
            .await
            .map_err(|error| error.to_string())?;
        let address = oauth
            .get_authorization_url()
            .await
            .map_err(|error| error.to_string())?;
        let redirected = (code.authorize)(address)
            .await
            .map_err(|error| format!("the user was not authorized: {error}"))?;
        oauth
            .handle_callback_url(&redirected)
            .await
            .map_err(|error| error.to_string())?;
        let manager = oauth
            .into_authorization_manager()
            .ok_or("the flow ended unauthorized")?;
        let client = http_client().map_err(|error| error.to_string())?;
        Ok(AuthClient::new(client, manager))
    }
}

#[cfg(feature = "remote-oauth")]
pub(super) use flows::{authorize, client_credentials};
