//! The HTTP transport of a remote toolkit that sends tokens: one the host gave, or one an OAuth
//! flow gets, when connecting (client credentials) or when the server asks (the
//! authorization-code grant, `step_up`).

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::auth::RemoteAuth;
#[cfg(feature = "remote-oauth")]
use super::auth::client_credentials;
use super::error::RemoteError;
#[cfg(feature = "remote-oauth")]
use super::step_up::{SteppingUp, Way};

/// The HTTP transport to `url` that sends the tokens `auth` gets.
pub(super) async fn transport(url: &str, auth: &RemoteAuth) -> Result<Transport, RemoteError> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    match auth {
        RemoteAuth::Bearer(token) => Ok(Transport::Plain(
            StreamableHttpClientTransport::from_config(config.auth_header(token.clone())),
        )),
        #[cfg(feature = "remote-oauth")]
        RemoteAuth::ClientCredentials {
            client_id,
            client_secret,
            scopes,
        } => {
            // Got now, so that a connection that cannot have a token says so at once; got
            // again once it has expired.
            let client = client_credentials(url, client_id, client_secret, scopes).await?;
            let way = Way::Credentials {
                client_id: client_id.clone(),
                client_secret: client_secret.clone(),
                scopes: scopes.clone(),
            };
            let client = SteppingUp::connected(url, way, client).await;
            Ok(Transport::SteppingUp(
                StreamableHttpClientTransport::with_client(client, config),
            ))
        }
        #[cfg(feature = "remote-oauth")]
        RemoteAuth::AuthorizationCode(code) => {
            // Authorized when the server first asks, for what it asks.
            let client = SteppingUp::new(url, Way::Code(code.clone()), None);
            Ok(Transport::SteppingUp(
                StreamableHttpClientTransport::with_client(client, config),
            ))
        }
    }
}

/// A transport carrying a token: one the host gave, or one an OAuth flow got (and refreshes).
pub(super) enum Transport {
    Plain(rmcp::transport::StreamableHttpClientTransport<reqwest::Client>),
    #[cfg(feature = "remote-oauth")]
    SteppingUp(StreamableHttpClientTransport<SteppingUp>),
}
