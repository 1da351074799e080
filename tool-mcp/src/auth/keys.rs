//! An issuer's keys, as a resource server finds and keeps them: the issuer's metadata (RFC 8414,
//! or OpenID discovery) names its JWKS, whose signing keys are fetched once and kept; a token
//! signed with a key id not among them has the JWKS fetched again (the issuer rotated its keys),
//! at most once per interval, and keys are fetched afresh once they are old. Keys already held
//! keep working while the issuer cannot be reached.
//!
//! Written here rather than taken from a crate: the OAuth crates fetch keys for a client, not
//! for a resource server that must bound how often a stranger's token makes it fetch.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use reqwest::Url;
use serde_json::Value;

use super::TokenError;

/// The longest document (metadata, a JWKS, an introspection answer) read from an issuer.
const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// How long a request to the issuer may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// One signing key of the issuer's.
pub(crate) struct Key {
    kid: Option<String>,
    /// The algorithm the JWK names, if it names one: a token must use that one.
    alg: Option<Value>,
    pub(crate) key: DecodingKey,
}

impl Key {
    /// Whether a token of algorithm `alg` may be checked with this key.
    fn fits(&self, alg: Algorithm) -> bool {
        let named = self
            .alg
            .as_ref()
            .is_none_or(|named| serde_json::to_value(alg).is_ok_and(|alg| alg == *named));
        named && self.key.family() == alg.family()
    }
}

/// What is held of the issuer.
#[derive(Default)]
struct Held {
    keys: Arc<Vec<Arc<Key>>>,
    /// When the keys were last fetched (or a fetch last failed), if ever.
    fetched: Option<Instant>,
    /// The JWKS's address, once discovered.
    jwks_uri: Option<String>,
}

/// One issuer, its metadata and its keys.
pub(crate) struct Issuer {
    pub(crate) http: reqwest::Client,
    pub(crate) issuer: String,
    held: RwLock<Held>,
    /// One fetch at a time: the others wait for it and use what it found.
    fetching: tokio::sync::Mutex<()>,
    pub(crate) min_refresh: Duration,
    pub(crate) max_age: Duration,
}

impl Issuer {
    /// The issuer at `issuer`, its keys at `jwks_uri` or, without one, where its metadata says.
    pub(crate) fn new(issuer: String, jwks_uri: Option<String>) -> Issuer {
        Issuer {
            http: client(),
            issuer,
            held: RwLock::new(Held {
                jwks_uri,
                ..Held::default()
            }),
            fetching: tokio::sync::Mutex::new(()),
            min_refresh: Duration::from_secs(30),
            max_age: Duration::from_secs(60 * 60),
        }
    }

    /// This issuer anew (nothing fetched), its keys at `jwks_uri`, fetched at most once per
    /// `min_refresh` for an unknown key and afresh at `max_age`.
    pub(crate) fn remade(
        &self,
        jwks_uri: Option<String>,
        min_refresh: Duration,
        max_age: Duration,
    ) -> Issuer {
        Issuer {
            min_refresh,
            max_age,
            ..Issuer::new(self.issuer.clone(), jwks_uri)
        }
    }

    /// Where the keys are, if given or discovered already.
    pub(crate) fn jwks_uri(&self) -> Option<String> {
        let held = self.held.read().unwrap_or_else(PoisonError::into_inner);
        held.jwks_uri.clone()
    }

    /// The key to check a token of key id `kid` and algorithm `alg` with.
    pub(crate) async fn key(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<Arc<Key>, TokenError> {
        let (held, fetched) = self.snapshot();
        let fresh = fetched.is_some_and(|at| at.elapsed() < self.max_age);
        if let Some(key) = find(&held, kid, alg)
            && fresh
        {
            return Ok(key);
        }
        // An unknown key id fetches the keys again, but not more often than `min_refresh`:
        // a stranger's token must not make the server ask the issuer on every request.
        let may_fetch = fetched.is_none_or(|at| at.elapsed() >= self.min_refresh) || !fresh;
        if !may_fetch {
            return Err(unknown(kid));
        }
        let _one = self.fetching.lock().await;
        let (again, fetched_again) = self.snapshot();
        if fetched_again != fetched {
            // Another request fetched while this one waited.
            return find(&again, kid, alg).ok_or_else(|| unknown(kid));
        }
        match self.fetch_keys().await {
            Ok(keys) => {
                let keys = Arc::new(keys);
                let mut held = self.held.write().unwrap_or_else(PoisonError::into_inner);
                held.keys = keys.clone();
                held.fetched = Some(Instant::now());
                drop(held);
                find(&keys, kid, alg).ok_or_else(|| unknown(kid))
            }
            Err(problem) => {
                self.held
                    .write()
                    .unwrap_or_else(PoisonError::into_inner)
                    .fetched = Some(Instant::now());
                tracing::warn!(issuer = %self.issuer, %problem, "the issuer's keys could not be fetched");
                match find(&held, kid, alg) {
                    // A key already held keeps working while the issuer is away.
                    Some(key) => Ok(key),
                    None if held.is_empty() => Err(TokenError::Unavailable(format!(
                        "the token cannot be checked now: {problem}"
                    ))),
                    None => Err(unknown(kid)),
                }
            }
        }
    }

    fn snapshot(&self) -> (Arc<Vec<Arc<Key>>>, Option<Instant>) {
        let held = self.held.read().unwrap_or_else(PoisonError::into_inner);
        (held.keys.clone(), held.fetched)
    }

    /// The issuer's signing keys, fetched now.
    async fn fetch_keys(&self) -> Result<Vec<Arc<Key>>, String> {
        let known = (self.held.read().unwrap_or_else(PoisonError::into_inner))
            .jwks_uri
            .clone();
        let jwks_uri = match known {
            Some(uri) => uri,
            None => {
                let metadata = self.metadata().await?;
                let uri = (metadata.get("jwks_uri").and_then(Value::as_str))
                    .ok_or_else(|| format!("{}'s metadata names no `jwks_uri`", self.issuer))?
                    .to_owned();
                let mut held = self.held.write().unwrap_or_else(PoisonError::into_inner);
                held.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let jwks = get_json(&self.http, &jwks_uri).await?;
        let keys = (jwks.get("keys").and_then(Value::as_array))
            .ok_or_else(|| format!("{jwks_uri} is not a JWKS (no `keys` list)"))?;
        Ok(keys.iter().filter_map(signing_key).map(Arc::new).collect())
    }

    /// The issuer's metadata, from the first of the places RFC 8414 and OpenID discovery name
    /// that answers with the metadata of this very issuer.
    pub(crate) async fn metadata(&self) -> Result<serde_json::Map<String, Value>, String> {
        let mut problems = Vec::new();
        for address in metadata_addresses(&self.issuer)? {
            match get_json(&self.http, &address).await {
                Ok(Value::Object(metadata)) => {
                    if metadata.get("issuer").and_then(Value::as_str) == Some(&self.issuer) {
                        return Ok(metadata);
                    }
                    problems.push(format!("{address} is the metadata of another issuer"));
                }
                Ok(_) => problems.push(format!("{address} is not a JSON object")),
                Err(problem) => problems.push(problem),
            }
        }
        Err(format!(
            "no metadata found for the issuer {}: {}",
            self.issuer,
            problems.join("; ")
        ))
    }
}

/// The key of id `kid` (or, for a token naming none, the one key there is) fit for `alg`.
fn find(keys: &[Arc<Key>], kid: Option<&str>, alg: Algorithm) -> Option<Arc<Key>> {
    let mut fitting = keys.iter().filter(|key| key.fits(alg));
    match kid {
        Some(kid) => fitting.find(|key| key.kid.as_deref() == Some(kid)).cloned(),
        None => {
            let first = fitting.next()?;
            fitting.next().is_none().then(|| first.clone())
        }
    }
}

fn unknown(kid: Option<&str>) -> TokenError {
    TokenError::Invalid(match kid {
        Some(kid) => format!("the token is signed with the key `{kid}`, which the issuer does not publish"),
        None => "the token names no key (`kid`), and the issuer publishes no single key for its algorithm".into(),
    })
}

/// A JWKS entry as a key to check signatures with, or `None` for one that is not: a key for
/// encryption, a symmetric key (a resource server never checks an HMAC), one this crate cannot
/// read.
fn signing_key(entry: &Value) -> Option<Key> {
    let jwk: Jwk = serde_json::from_value(entry.clone()).ok()?;
    if matches!(
        jwk.common.public_key_use,
        Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
    ) {
        return None;
    }
    let key = DecodingKey::from_jwk(&jwk).ok()?;
    if key.family() == jsonwebtoken::AlgorithmFamily::Hmac {
        return None;
    }
    Some(Key {
        kid: jwk.common.key_id,
        alg: entry.get("alg").cloned(),
        key,
    })
}

/// Where an issuer's metadata may be: RFC 8414's well-known address (the path after it), then
/// OpenID discovery's in both forms.
fn metadata_addresses(issuer: &str) -> Result<Vec<String>, String> {
    let url = checked_url(issuer)?;
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    let mut addresses = vec![format!(
        "{origin}/.well-known/oauth-authorization-server{path}"
    )];
    addresses.push(format!("{origin}/.well-known/openid-configuration{path}"));
    if !path.is_empty() {
        addresses.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    Ok(addresses)
}

/// `address` as a URL a token's keys may come from: HTTPS, or HTTP to this machine alone.
pub(crate) fn checked_url(address: &str) -> Result<Url, String> {
    let url = Url::parse(address).map_err(|error| format!("{address} is not a URL: {error}"))?;
    let host = url.host_str().unwrap_or_default();
    let ip = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost"
        || ip
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match url.scheme() {
        "https" => Ok(url),
        "http" if loopback => Ok(url),
        _ => Err(format!(
            "{address} is not an https URL (plain http is taken only to this machine)"
        )),
    }
}

/// The HTTP client every request to an issuer is made with.
pub(crate) fn client() -> reqwest::Client {
    crate::tls::install_provider();
    reqwest::Client::builder()
        .timeout(FETCH_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// GETs `address` and reads its JSON, at most [`MAX_DOCUMENT_BYTES`] of it.
pub(crate) async fn get_json(http: &reqwest::Client, address: &str) -> Result<Value, String> {
    checked_url(address)?;
    let request = http.get(address).header("accept", "application/json");
    read_json(address, request).await
}

/// Sends `request` and reads its JSON answer, at most [`MAX_DOCUMENT_BYTES`] of it.
pub(crate) async fn read_json(
    address: &str,
    request: reqwest::RequestBuilder,
) -> Result<Value, String> {
    let mut response = request
        .send()
        .await
        .map_err(|error| format!("{address} could not be reached: {error}"))?;
    if !response.status().is_success() {
        return Err(format!("{address} answered {}", response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| format!("{address}'s answer broke off: {error}"))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!(
                "{address}'s answer is longer than {MAX_DOCUMENT_BYTES} bytes"
            ));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body)
        .map_err(|error| format!("{address}'s answer is not JSON: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_rfc_8414_and_openid_say() {
        assert_eq!(
            metadata_addresses("https://as.example.com").unwrap(),
            [
                "https://as.example.com/.well-known/oauth-authorization-server",
                "https://as.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_addresses("https://as.example.com/tenant/1/").unwrap(),
            [
                "https://as.example.com/.well-known/oauth-authorization-server/tenant/1",
                "https://as.example.com/.well-known/openid-configuration/tenant/1",
                "https://as.example.com/tenant/1/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn keys_come_over_https_or_from_this_machine() {
        assert!(checked_url("https://as.example.com/jwks").is_ok());
        assert!(checked_url("http://127.0.0.1:9/jwks").is_ok());
        assert!(checked_url("http://localhost/jwks").is_ok());
        assert!(checked_url("http://as.example.com/jwks").is_err());
        assert!(checked_url("file:///etc/passwd").is_err());
    }

    #[test]
    fn symmetric_and_encryption_keys_are_never_used_to_check_a_signature() {
        let hmac = serde_json::json!({"kty": "oct", "k": "c2VjcmV0", "kid": "h"});
        assert!(signing_key(&hmac).is_none());
        let ed = serde_json::json!({
            "kty": "OKP", "crv": "Ed25519", "kid": "e",
            "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
        });
        assert!(signing_key(&ed).is_some());
        let mut for_encryption = ed;
        for_encryption["use"] = "enc".into();
        assert!(signing_key(&for_encryption).is_none());
    }
}
