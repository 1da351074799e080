//! The check every request to the MCP endpoint passes first, as an axum middleware, and the
//! metadata routes beside it. A request without a valid token is answered here (401 with the
//! challenge RFC 6750 and RFC 9728 describe, 400 for a malformed header, 503 when the token
//! cannot be checked now) and never reaches rmcp; a call of a tool whose scopes the token lacks
//! is answered 403 `insufficient_scope` naming them, so that the client can ask for a token that
//! has them (MCP's step-up). A valid token travels on in the request's extensions, where the
//! server reads the caller and its scopes.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::{BearerAuth, TokenError};

/// What the server's tools need of a token, for the check to answer 403 before the server
/// reads the request: the server implements it.
pub(crate) trait Scopes: Send + Sync + 'static {
    /// Every scope a tool needs, each once.
    fn all(&self) -> Vec<String>;

    /// The scopes (space-separated) a request of `parts` and `token`, of the method and tool
    /// `named`, needs and its token lacks, if any.
    fn needed(
        &self,
        parts: &axum::http::request::Parts,
        token: &super::AccessToken,
        named: (&str, Option<&str>),
    ) -> Option<String>;
}

/// What the check needs, shared by every request.
struct Gate {
    auth: BearerAuth,
    /// Where the metadata is, as the challenge names it.
    metadata_url: String,
    /// The server, for the scopes its tools need.
    server: Box<dyn Scopes>,
    /// Whether any tool needs a scope: only then is a request's body read here.
    scoped_tools: bool,
    /// The longest body read, as rmcp bounds it.
    max_body: usize,
}

/// `mcp` (the MCP endpoint's service) behind the token check, with the metadata routes.
pub(crate) fn router(
    server: impl Scopes,
    auth: BearerAuth,
    max_body: usize,
    mcp: axum::Router,
) -> Result<axum::Router, String> {
    let metadata_url = auth.metadata_url()?;
    let path = auth.resource_url()?.path().trim_end_matches('/').to_owned();
    let needed = server.all();
    let scopes = auth.scopes_supported.clone().unwrap_or(needed.clone());
    let metadata = auth.metadata(&scopes);
    let gate = Arc::new(Gate {
        auth,
        metadata_url,
        server: Box::new(server),
        scoped_tools: !needed.is_empty(),
        max_body,
    });
    let serve_metadata = move || {
        let metadata = metadata.clone();
        async move {
            let mut response = json_response(StatusCode::OK, &metadata);
            // A browser-based client reads it from another origin.
            response.headers_mut().insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
            response
        }
    };
    let mut router = mcp
        .layer(axum::middleware::from_fn_with_state(gate, check))
        .route(
            "/.well-known/oauth-protected-resource",
            axum::routing::get(serve_metadata.clone()),
        );
    if !path.is_empty() {
        let suffixed = format!("/.well-known/oauth-protected-resource{path}");
        router = router.route(&suffixed, axum::routing::get(serve_metadata));
    }
    Ok(router)
}

/// Checks the request's token, and lets it through with the token in its extensions.
async fn check(State(gate): State<Arc<Gate>>, mut request: Request, next: Next) -> Response {
    let token = match bearer_token(&request) {
        Ok(Some(token)) => token.to_owned(),
        Ok(None) => return gate.challenge(StatusCode::UNAUTHORIZED, None, None),
        Err(problem) => {
            return gate.challenge(
                StatusCode::BAD_REQUEST,
                Some("invalid_request"),
                Some(problem),
            );
        }
    };
    if token.len() > gate.auth.max_token_bytes {
        let problem = format!(
            "the token is longer than the {} bytes this server reads",
            gate.auth.max_token_bytes
        );
        return gate.challenge(
            StatusCode::UNAUTHORIZED,
            Some("invalid_token"),
            Some(problem),
        );
    }
    let access = match gate.auth.cache.get(&token) {
        Some(access) => access,
        None => match gate.auth.verifier.verify(&token).await {
            Ok(access) => {
                gate.auth.cache.put(&token, &access);
                access
            }
            Err(TokenError::Invalid(problem)) => {
                return gate.challenge(
                    StatusCode::UNAUTHORIZED,
                    Some("invalid_token"),
                    Some(problem),
                );
            }
            Err(TokenError::Unavailable(problem)) => return unavailable(problem),
        },
    };
    request.extensions_mut().insert(access.clone());
    if gate.scoped_tools && request.method() == Method::POST {
        // A 2026-07-28 request names its method and tool in headers, which rmcp holds to its
        // body: its body need not be read here.
        let (parts, body) = request.into_parts();
        if let Some(named) = named_in_headers(&parts.headers) {
            if let Some(needed) = gate.server.needed(&parts, &access, named) {
                return gate.refuse_scope(&access, &needed);
            }
            return next.run(Request::from_parts(parts, body)).await;
        }
        let Ok(bytes) = axum::body::to_bytes(body, gate.max_body).await else {
            return StatusCode::PAYLOAD_TOO_LARGE.into_response();
        };
        let peeked: Option<Peek<'_>> = serde_json::from_slice(&bytes).ok();
        let named = peeked.as_ref().and_then(|peek| {
            let method = peek.method.as_deref()?;
            let name = peek
                .params
                .as_ref()
                .and_then(|params| params.name.as_deref());
            Some((method, name))
        });
        if let Some(named) = named
            && let Some(needed) = gate.server.needed(&parts, &access, named)
        {
            return gate.refuse_scope(&access, &needed);
        }
        request = Request::from_parts(parts, Body::from(bytes));
    }
    next.run(request).await
}

/// The method and the tool a 2026-07-28 request names in its `Mcp-Method` and `Mcp-Name`
/// headers, if it names its method so.
fn named_in_headers(headers: &axum::http::HeaderMap) -> Option<(&str, Option<&str>)> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    Some((text("mcp-method")?, text("mcp-name")))
}

/// The request's bearer token, `None` without an `Authorization` header, or what is wrong
/// with the header.
fn bearer_token(request: &Request) -> Result<Option<&str>, String> {
    let Some(value) = request.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value
        .to_str()
        .map_err(|_| "the Authorization header is not ASCII text".to_owned())?;
    let (scheme, token) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(format!(
            "the Authorization header uses the {scheme:?} scheme; send `Authorization: Bearer <token>`"
        ));
    }
    let token = token.trim();
    if token.is_empty() || token.contains(' ') {
        return Err("the Authorization header holds no single bearer token".to_owned());
    }
    Ok(Some(token))
}

impl Gate {
    /// 403 for a request that needs `needed` (space-separated), asking for those and what the
    /// token holds already.
    fn refuse_scope(&self, access: &super::AccessToken, needed: &str) -> Response {
        let problem = format!("this request needs the scope {needed:?}");
        let mut scope = access.scopes().to_vec();
        for each in needed.split(' ') {
            if !scope.iter().any(|held| held == each) {
                scope.push(each.to_owned());
            }
        }
        self.challenge_scope(&scope.join(" "), problem)
    }

    /// A refusal with the challenge: where the metadata is, and what went wrong if anything.
    fn challenge(
        &self,
        status: StatusCode,
        error: Option<&str>,
        problem: Option<String>,
    ) -> Response {
        let mut challenge = format!("Bearer resource_metadata=\"{}\"", self.metadata_url);
        if let Some(error) = error {
            challenge.push_str(&format!(", error=\"{error}\""));
        }
        if let Some(problem) = &problem {
            challenge.push_str(&format!(", error_description=\"{}\"", quoted(problem)));
        }
        let body = json!({
            "error": error.unwrap_or("invalid_token"),
            "error_description": problem.unwrap_or_else(|| {
                "this server needs an access token: send `Authorization: Bearer <token>`, with a \
                 token from an authorization server its metadata names"
                    .to_owned()
            }),
        });
        refusal(status, challenge, body)
    }

    /// 403 `insufficient_scope`, naming every scope the client should ask for.
    fn challenge_scope(&self, scope: &str, problem: String) -> Response {
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\", \
             error_description=\"{}\"",
            quoted(scope),
            self.metadata_url,
            quoted(&problem)
        );
        let body =
            json!({"error": "insufficient_scope", "error_description": problem, "scope": scope});
        refusal(StatusCode::FORBIDDEN, challenge, body)
    }
}

fn refusal(status: StatusCode, challenge: String, body: serde_json::Value) -> Response {
    let mut response = json_response(status, &body);
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// `value` as a JSON answer of `status`.
fn json_response(status: StatusCode, value: &serde_json::Value) -> Response {
    let body = value.to_string();
    let json = HeaderValue::from_static("application/json");
    (status, [(header::CONTENT_TYPE, json)], body).into_response()
}

/// 503 with `Retry-After`: the token could not be checked now.
fn unavailable(problem: String) -> Response {
    let body = json!({"error": "temporarily_unavailable", "error_description": problem});
    let mut response = json_response(StatusCode::SERVICE_UNAVAILABLE, &body);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// `text` fit for a quoted string of a challenge: printable ASCII, without `"` or `\`.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_ascii_graphic() || c == ' ' => c,
            _ => '?',
        })
        .collect()
}

/// Of a request's JSON-RPC body, what the scope check reads.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(borrow)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<PeekParams<'a>>,
}

/// Of a request's params, the tool it calls.
#[derive(Deserialize)]
struct PeekParams<'a> {
    #[serde(borrow)]
    name: Option<std::borrow::Cow<'a, str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_header(value: &str) -> Request {
        Request::builder()
            .header(header::AUTHORIZATION, value)
            .body(Body::empty())
            .unwrap_or_default()
    }

    #[test]
    fn a_bearer_token_is_read_from_the_authorization_header() {
        assert_eq!(bearer_token(&with_header("Bearer abc")), Ok(Some("abc")));
        assert_eq!(bearer_token(&with_header("bearer  abc ")), Ok(Some("abc")));
        assert!(bearer_token(&with_header("Basic YTpi")).is_err());
        assert!(bearer_token(&with_header("Bearer")).is_err());
        assert!(bearer_token(&with_header("Bearer a b")).is_err());
        assert_eq!(bearer_token(&Request::default()), Ok(None));
    }

    #[test]
    fn a_challenge_s_text_stays_one_quoted_string() {
        assert_eq!(quoted("say \"hi\"\n"), "say 'hi'?");
    }
}
