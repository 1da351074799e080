//! JWT access tokens (RFC 9068) signed by an issuer's keys: the algorithm on an allow-list of
//! asymmetric ones (never `none`, never an HMAC, whose key would be the issuer's public key),
//! the signature by a key of the issuer's JWKS, `iss` this issuer, `aud` this resource (RFC 8707),
//! `exp` and `nbf` with a small leeway for clocks that differ.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};
use tool_core::call::BoxFuture;

use super::keys::Issuer;
use super::{AccessToken, TokenError, TokenVerifier};

/// Checks JWT access tokens of one issuer for one resource.
///
/// ```no_run
/// use tool_mcp::auth::JwtVerifier;
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://notes.example.com/mcp");
/// ```
#[derive(Clone)]
pub struct JwtVerifier {
    issuer: Arc<Issuer>,
    audiences: Vec<String>,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
}

impl JwtVerifier {
    /// How far `exp` and `nbf` may be off unless set: clocks a few seconds apart, not a token
    /// kept long past its time.
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);

    /// The algorithms taken unless set: every asymmetric one this crate checks.
    pub const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
        Algorithm::RS256,
        Algorithm::RS384,
        Algorithm::RS512,
        Algorithm::PS256,
        Algorithm::PS384,
        Algorithm::PS512,
        Algorithm::ES256,
        Algorithm::ES384,
        Algorithm::EdDSA,
    ];

    /// Tokens of the issuer `issuer` (its identifier, an https URL; plain http only to this
    /// machine) for the resource `resource` (this server's URL, as clients name it in their
    /// token requests): the keys are found through the issuer's metadata, on the first token.
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        JwtVerifier {
            issuer: Arc::new(Issuer::new(issuer.into(), None)),
            audiences: vec![resource.into()],
            algorithms: Self::DEFAULT_ALGORITHMS.to_vec(),
            leeway: Self::DEFAULT_LEEWAY,
        }
    }

    /// Takes the issuer's keys from `jwks_uri` rather than from where its metadata says.
    pub fn with_jwks_uri(mut self, jwks_uri: impl Into<String>) -> Self {
        let (min, max) = (self.issuer.min_refresh, self.issuer.max_age);
        self.issuer = Arc::new(self.issuer.remade(Some(jwks_uri.into()), min, max));
        self
    }

    /// Also takes tokens whose `aud` is `audience` (another name the resource goes by).
    pub fn with_audience(mut self, audience: impl Into<String>) -> Self {
        self.audiences.push(audience.into());
        self
    }

    /// Takes only tokens signed with one of `algorithms`. HMAC algorithms are left out
    /// whatever is given: a resource server holds no secret shared with the issuer.
    pub fn with_algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|alg| alg.family() != jsonwebtoken::AlgorithmFamily::Hmac)
            .collect();
        self
    }

    /// Lets `exp` and `nbf` be off by `leeway` ([`JwtVerifier::DEFAULT_LEEWAY`] unless set).
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// Fetches the issuer's keys again for an unknown key id at most once per `min_interval`
    /// (thirty seconds unless set), and afresh once they are `max_age` old (an hour unless set).
    pub fn with_key_refresh(mut self, min_interval: Duration, max_age: Duration) -> Self {
        let jwks_uri = self.issuer.jwks_uri();
        self.issuer = Arc::new(self.issuer.remade(jwks_uri, min_interval, max_age));
        self
    }

    /// The issuer, as tokens must name it (`iss`).
    pub fn issuer(&self) -> &str {
        &self.issuer.issuer
    }

    async fn check(&self, token: &str) -> Result<AccessToken, TokenError> {
        if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
            return Err(TokenError::Unavailable(
                "no JWT crypto provider is chosen (jsonwebtoken is built with both of its \
                 backends): call jsonwebtoken's CryptoProvider::install_default at start"
                    .into(),
            ));
        }
        let header = jsonwebtoken::decode_header(token)
            .map_err(|error| TokenError::Invalid(format!("the token is not a JWT: {error}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(TokenError::Invalid(format!(
                "the token is signed with {:?}, which this server does not take",
                header.alg
            )));
        }
        let key = self.issuer.key(header.kid.as_deref(), header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[self.issuer.issuer.as_str()]);
        validation.set_audience(&self.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = self.leeway.as_secs();
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation)
            .map_err(|error| TokenError::Invalid(described(error.kind())))?;
        super::token_of(data.claims)
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<AccessToken, TokenError>> {
        Box::pin(self.check(token))
    }
}

/// What a JWT check's failure says to the client.
fn described(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer (`iss`)".into(),
        ErrorKind::InvalidAudience => {
            "the token was issued for another resource (`aud`); ask for one with this \
             server's URL as the `resource`"
                .into()
        }
        ErrorKind::InvalidSignature => "the token's signature does not hold".into(),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        other => format!("the token is not valid: {other:?}"),
    }
}
