//! Opaque access tokens, checked by asking the authorization server (token introspection, RFC
//! 7662): the server says whether the token is active, whose it is and what it allows. A
//! resource server authenticates itself to the introspection endpoint as an OAuth client.

use std::time::{Duration, SystemTime};

use serde_json::Value;
use tool_core::call::BoxFuture;

use super::keys::{checked_url, read_json};
use super::{AccessToken, TokenError, TokenVerifier};

/// Checks tokens at an authorization server's introspection endpoint.
///
/// ```no_run
/// use tool_mcp::auth::IntrospectionVerifier;
///
/// let verifier = IntrospectionVerifier::new(
///     "https://auth.example.com/token/introspect",
///     "notes-server",
///     "its client secret",
/// )
/// .for_resource("https://notes.example.com/mcp");
/// ```
#[derive(Clone)]
pub struct IntrospectionVerifier {
    http: reqwest::Client,
    endpoint: String,
    client_id: String,
    client_secret: String,
    resource: Option<String>,
}

impl IntrospectionVerifier {
    /// Asks `endpoint` (an https URL; plain http only to this machine), authenticating as the
    /// client `client_id` with `client_secret` (HTTP Basic, as RFC 7662 shows).
    pub fn new(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        IntrospectionVerifier {
            http: super::keys::client(),
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            resource: None,
        }
    }

    /// Takes only tokens whose audience (`aud`), where the answer names one, includes
    /// `resource` (RFC 8707).
    pub fn for_resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    async fn check(&self, token: &str) -> Result<AccessToken, TokenError> {
        checked_url(&self.endpoint).map_err(TokenError::Unavailable)?;
        let body = format!("token={}&token_type_hint=access_token", form_encoded(token));
        let request = (self.http.post(&self.endpoint))
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(body);
        let answer = read_json(&self.endpoint, request)
            .await
            .map_err(|problem| {
                TokenError::Unavailable(format!("the token cannot be checked now: {problem}"))
            })?;
        let Value::Object(claims) = answer else {
            return Err(TokenError::Unavailable(format!(
                "{} answered with something other than a JSON object",
                self.endpoint
            )));
        };
        if claims.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenError::Invalid(
                "the token is not active (expired, revoked or never issued)".into(),
            ));
        }
        if let Some(exp) = claims.get("exp").and_then(Value::as_u64)
            && SystemTime::UNIX_EPOCH + Duration::from_secs(exp) <= SystemTime::now()
        {
            return Err(TokenError::Invalid("the token has expired".into()));
        }
        if let (Some(resource), Some(audience)) = (&self.resource, claims.get("aud")) {
            let names = |name: &Value| name.as_str() == Some(resource);
            let fits = match audience {
                Value::Array(audiences) => audiences.iter().any(names),
                one => names(one),
            };
            if !fits {
                return Err(TokenError::Invalid(
                    "the token was issued for another resource (`aud`)".into(),
                ));
            }
        }
        super::token_of(claims)
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<AccessToken, TokenError>> {
        Box::pin(self.check(token))
    }
}

/// `text` as a value of an `application/x-www-form-urlencoded` body.
fn form_encoded(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                encoded.push(char::from(byte));
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_token_is_form_encoded() {
        assert_eq!(super::form_encoded("a.b-c_d~e"), "a.b-c_d~e");
        assert_eq!(super::form_encoded("a+b/c= d"), "a%2Bb%2Fc%3D%20d");
    }
}
