//! The HTTP transport of a remote toolkit, watched for the server's stream (`listening`):
//! without a token, or sending one the host gave, or one an OAuth flow gets, when connecting
//! (client credentials) or when the server asks (the authorization-code grant, `step_up`).

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::auth::RemoteAuth;
#[cfg(feature = "remote-oauth")]
use super::auth::client_credentials;
use super::error::RemoteError;
use super::http_client::http_client_for;
use super::listening::{Heard, Listening};
#[cfg(feature = "remote-oauth")]
use super::step_up::{SteppingUp, Way};

/// The HTTP transport to the server `name` at `url` that sends the tokens `auth` gets (none
/// without it), and where to wait for the server's stream.
pub(super) async fn transport(
    name: &str,
    url: &str,
    auth: Option<&RemoteAuth>,
) -> Result<(Transport, Heard), RemoteError> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let plain = http_client_for(name)?;
    match auth {
        None => Ok(without_grant(plain, config)),
        Some(RemoteAuth::Bearer(token)) => {
            Ok(without_grant(plain, config.auth_header(token.clone())))
        }
        #[cfg(feature = "remote-oauth")]
        Some(RemoteAuth::ClientCredentials {
            client_id,
            client_secret,
            scopes,
        }) => {
            // Got now, so that a connection that cannot have a token says so at once; got
            // again once it has expired.
            let client = client_credentials(url, client_id, client_secret, scopes).await?;
            let way = Way::Credentials {
                client_id: client_id.clone(),
                client_secret: client_secret.clone(),
                scopes: scopes.clone(),
            };
            let connected = SteppingUp::connected(url, way, plain, client).await;
            let (client, heard) = Listening::new(connected);
            let transport = StreamableHttpClientTransport::with_client(client, config);
            Ok((Transport::SteppingUp(transport), heard))
        }
        #[cfg(feature = "remote-oauth")]
        Some(RemoteAuth::AuthorizationCode(code)) => {
            // Authorized when the server first asks, for what it asks.
            let (client, heard) =
                Listening::new(SteppingUp::new(url, Way::Code(code.clone()), plain, None));
            let transport = StreamableHttpClientTransport::with_client(client, config);
            Ok((Transport::SteppingUp(transport), heard))
        }
    }
}

/// The transport that sends by `client` what `config` says, with no grant to run.
fn without_grant(
    client: reqwest::Client,
    config: StreamableHttpClientTransportConfig,
) -> (Transport, Heard) {
    let (client, heard) = Listening::new(client);
    let transport = StreamableHttpClientTransport::with_client(client, config);
    (Transport::Plain(transport), heard)
}

/// A transport: plain (without a token, or with one the host gave), or carrying one an OAuth
/// flow got (and refreshes).
pub(super) enum Transport {
    Plain(StreamableHttpClientTransport<Listening<reqwest::Client>>),
    #[cfg(feature = "remote-oauth")]
    SteppingUp(StreamableHttpClientTransport<Listening<SteppingUp>>),
}
