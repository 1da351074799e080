//! Who may call over HTTP with bearer tokens: the server as an OAuth 2.1 resource server, its
//! tokens JWTs signed by a test issuer's keys (served here, with its metadata and its JWKS, on
//! a port of its own), checked on the wire with the messages written by hand. Every bad token
//! is refused before anything runs; a good one's subject is the caller, its scopes the tools it
//! sees and calls, and the token itself what a tool reads of its caller.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::signature::KeyPair;
use serde_json::{Value, json};
use tool_core::{Answer, CallRecord, Context, Grant, Refusal, Registry, tool};
use tool_mcp::McpServer;
use tool_mcp::auth::{AccessToken, BearerAuth, JwtVerifier};

mod support;

use support::HttpServer;

/// The name clients reach the server by, which tokens are issued for.
const RESOURCE: &str = "https://notes.test/mcp";

/// How long one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(30);

/// Reads a note.
#[tool(readonly, scopes("notes:read"))]
async fn note_read(id: u64) -> String {
    format!("note {id}")
}

/// Writes a note.
#[tool(scopes("notes:write"))]
async fn note_write(text: String) -> String {
    format!("wrote {text}")
}

/// Says who is calling, as the token says.
#[tool(readonly)]
async fn whoami(ctx: &Context) -> String {
    let token = ctx.get::<AccessToken>();
    format!(
        "caller {:?}, subject {:?}, client {:?}",
        ctx.caller(),
        token.map(AccessToken::subject),
        token.and_then(AccessToken::client_id)
    )
}

/// Exports the notes, as a task.
#[tool(readonly, task)]
async fn note_export() -> String {
    "exported".to_owned()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Choice {
    /// The note to pick.
    id: u64,
}

/// Asks which note to pick.
#[tool(readonly)]
async fn note_pick(ctx: &Context) -> Result<String, Refusal> {
    match ctx.ask::<Choice>("Which note?").await? {
        Answer::Given(Choice { id }) => Ok(format!("picked {id}")),
        Answer::Declined | Answer::Cancelled => Ok("none picked".to_owned()),
    }
}

fn registry() -> Registry {
    Registry::builder()
        .tool(NoteRead)
        .tool(NoteWrite)
        .tool(Whoami)
        .tool(NoteExport)
        .tool(NotePick)
        .build()
        .unwrap()
}

/// One signing key of the test issuer: an Ed25519 pair and its key id.
#[derive(Clone)]
struct SigningKey {
    kid: String,
    pkcs8: Vec<u8>,
    public: Vec<u8>,
}

impl SigningKey {
    fn new(kid: &str) -> SigningKey {
        let random = ring::rand::SystemRandom::new();
        let pkcs8 = ring::signature::Ed25519KeyPair::generate_pkcs8(&random).unwrap();
        let pair = ring::signature::Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
        SigningKey {
            kid: kid.to_owned(),
            pkcs8: pkcs8.as_ref().to_vec(),
            public: pair.public_key().as_ref().to_vec(),
        }
    }

    fn jwk(&self) -> Value {
        json!({"kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA",
               "kid": self.kid, "x": URL_SAFE_NO_PAD.encode(&self.public)})
    }

    /// `claims` signed with this key.
    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        header.typ = Some("at+jwt".into());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&self.pkcs8)).unwrap()
    }
}

/// The test issuer: its metadata and its JWKS, which a test may change or take down.
struct Issuer {
    url: String,
    jwks: Arc<Mutex<Value>>,
    up: Arc<AtomicBool>,
    fetches: Arc<AtomicUsize>,
    /// The tokens its token endpoint issued (the client-credentials grant).
    issued: Arc<AtomicUsize>,
}

impl Issuer {
    async fn start(keys: &[&SigningKey]) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let jwks = Arc::new(Mutex::new(json!({"keys": []})));
        let up = Arc::new(AtomicBool::new(true));
        let fetches = Arc::new(AtomicUsize::new(0));
        let metadata = json!({"issuer": url, "jwks_uri": format!("{url}/jwks"),
                              "token_endpoint": format!("{url}/token"),
                              "authorization_endpoint": format!("{url}/authorize"),
                              "response_types_supported": ["code"],
                              "grant_types_supported": ["client_credentials"],
                              "token_endpoint_auth_methods_supported":
                                  ["client_secret_post", "client_secret_basic"]});
        let (served, serving_up, counted) = (jwks.clone(), up.clone(), fetches.clone());
        let issued = Arc::new(AtomicUsize::new(0));
        let token_endpoint = TokenEndpoint {
            issuer: url.clone(),
            key: keys.first().map(|key| (*key).clone()),
            issued: issued.clone(),
        };
        let router = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(move || async move { metadata.to_string() }),
            )
            .route(
                "/jwks",
                axum::routing::get(move || {
                    let (served, up, counted) =
                        (served.clone(), serving_up.clone(), counted.clone());
                    async move {
                        counted.fetch_add(1, Ordering::SeqCst);
                        if !up.load(Ordering::SeqCst) {
                            return (axum::http::StatusCode::SERVICE_UNAVAILABLE, String::new());
                        }
                        let body = served.lock().unwrap().to_string();
                        (axum::http::StatusCode::OK, body)
                    }
                }),
            )
            .route("/introspect", axum::routing::post(introspect))
            .route(
                "/token",
                axum::routing::post(move |body: String| {
                    let endpoint = token_endpoint.clone();
                    async move { endpoint.issue(&body) }
                }),
            );
        tokio::spawn(async move { axum::serve(listener, router).await });
        let issuer = Issuer {
            url,
            jwks,
            up,
            fetches,
            issued,
        };
        issuer.publish(keys);
        issuer
    }

    fn publish(&self, keys: &[&SigningKey]) {
        let keys: Vec<Value> = keys.iter().map(|key| key.jwk()).collect();
        *self.jwks.lock().unwrap() = json!({ "keys": keys });
    }

    /// The claims of a good token of `subject` with `scope`, for the resource, valid now.
    fn claims(&self, subject: &str, scope: &str) -> Value {
        let now = now();
        json!({"iss": self.url, "aud": RESOURCE, "sub": subject, "client_id": "notes-app",
               "scope": scope, "iat": now, "exp": now + 300})
    }
}

/// The test issuer's token endpoint: the client-credentials grant of `notes-agent`, its
/// tokens for the resource the request names, valid for two seconds.
#[derive(Clone)]
struct TokenEndpoint {
    issuer: String,
    key: Option<SigningKey>,
    issued: Arc<AtomicUsize>,
}

impl TokenEndpoint {
    fn issue(&self, body: &str) -> axum::response::Response {
        use axum::response::IntoResponse;
        let (status, answer) = self.answer(body);
        let json = [(axum::http::header::CONTENT_TYPE, "application/json")];
        (status, json, answer).into_response()
    }

    fn answer(&self, body: &str) -> (axum::http::StatusCode, String) {
        let field = |name: &str| {
            body.split('&')
                .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
                .map(|value| value.replace("%3A", ":").replace("%2F", "/"))
        };
        let (Some(key), Some("client_credentials"), Some("notes-agent-secret")) = (
            &self.key,
            field("grant_type").as_deref(),
            field("client_secret").as_deref(),
        ) else {
            return (
                axum::http::StatusCode::BAD_REQUEST,
                json!({"error": "invalid_client"}).to_string(),
            );
        };
        let now = now();
        // The client is told its token lasts two seconds, and must renew it by then; the token
        // itself lasts a minute, so that none expires on its way on a loaded machine.
        let claims = json!({"iss": self.issuer, "aud": field("resource"), "sub": "notes-agent",
                            "client_id": "notes-agent", "scope": "notes:read",
                            "iat": now, "exp": now + 60});
        self.issued.fetch_add(1, Ordering::SeqCst);
        let answer = json!({"access_token": key.sign(&claims), "token_type": "Bearer",
                            "expires_in": 2, "scope": "notes:read"});
        (axum::http::StatusCode::OK, answer.to_string())
    }
}

/// The test issuer's introspection endpoint (RFC 7662): the resource server authenticates as
/// `notes-server`; `opaque-ann` is Ann's active token, `opaque-elsewhere` one for another
/// resource, anything else is not active.
async fn introspect(
    headers: axum::http::HeaderMap,
    body: String,
) -> (axum::http::StatusCode, String) {
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode("notes-server:rs-secret")
    );
    if headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        != Some(basic.as_str())
    {
        return (axum::http::StatusCode::UNAUTHORIZED, String::new());
    }
    let token = body
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default();
    let exp = now() + 300;
    let answer = match token {
        "opaque-ann" => json!({"active": true, "sub": "ann", "client_id": "notes-app",
                               "scope": "notes:read", "aud": RESOURCE, "exp": exp}),
        "opaque-elsewhere" => {
            json!({"active": true, "sub": "ann", "aud": "https://other.test/mcp"})
        }
        _ => json!({"active": false}),
    };
    (axum::http::StatusCode::OK, answer.to_string())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A server checking the issuer's tokens, bound on a port of its own.
async fn serve(issuer: &Issuer, server: impl FnOnce(McpServer) -> McpServer) -> HttpServer {
    serve_registry(issuer, registry(), server).await
}

/// [`serve`] with `registry`'s tools.
async fn serve_registry(
    issuer: &Issuer,
    registry: Registry,
    server: impl FnOnce(McpServer) -> McpServer,
) -> HttpServer {
    let verifier = JwtVerifier::new(issuer.url.clone(), RESOURCE)
        .with_key_refresh(Duration::ZERO, Duration::from_secs(3600));
    let auth = BearerAuth::new(RESOURCE, verifier).with_authorization_server(issuer.url.clone());
    let checked = McpServer::new(registry).stateless().with_bearer_auth(auth);
    HttpServer::serve(server(checked)).await
}

/// What the server answered: its status, its `WWW-Authenticate`, its body.
struct Reply {
    status: u16,
    challenge: String,
    body: String,
}

impl Reply {
    /// The JSON-RPC result of a 200.
    fn result(&self) -> Value {
        assert_eq!(self.status, 200, "{}", self.body);
        let messages = support::messages_in(&self.body);
        let answer = messages
            .last()
            .unwrap_or_else(|| panic!("no answer in {}", self.body));
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("expected a result, the server answered {answer}"))
    }
}

/// Posts a 2026-07-28 request of `method` with `params` and `authorization`, if any.
async fn post(
    server: &HttpServer,
    authorization: Option<&str>,
    method: &str,
    params: Value,
) -> Reply {
    post_with(&server.url(), authorization, method, params, &json!({})).await
}

/// A `tools/call` of `name` with `arguments`, as [`post`] sends it.
async fn call_tool(
    server: &HttpServer,
    authorization: Option<&str>,
    name: &str,
    arguments: Value,
) -> Reply {
    let params = json!({"name": name, "arguments": arguments});
    post(server, authorization, "tools/call", params).await
}

/// [`post`] to the server at `url`.
async fn post_at(url: &str, authorization: Option<&str>, method: &str, params: Value) -> Reply {
    post_with(url, authorization, method, params, &json!({})).await
}

/// [`post`] to `url` from a client of these `capabilities`.
async fn post_with(
    url: &str,
    authorization: Option<&str>,
    method: &str,
    params: Value,
    capabilities: &Value,
) -> Reply {
    support::install_tls();
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": capabilities});
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message.to_string());
    for (name, value) in support::current_headers(&message) {
        request = request.header(name, value);
    }
    if let Some(authorization) = authorization {
        request = request.header("authorization", authorization);
    }
    let response = tokio::time::timeout(ANSWER_LIMIT, request.send())
        .await
        .expect("an answer in time")
        .expect("the server answers HTTP");
    let status = response.status().as_u16();
    let challenge = (response.headers().get("www-authenticate"))
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = tokio::time::timeout(ANSWER_LIMIT, response.text())
        .await
        .expect("the body in time")
        .unwrap();
    Reply {
        status,
        challenge,
        body,
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

fn names(result: &Value) -> Vec<String> {
    (result["tools"].as_array().expect("a list of tools").iter())
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn without_a_token_nothing_is_served_and_the_challenge_names_the_metadata() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let server = serve(&issuer, |server| server).await;
    let metadata_url = "https://notes.test/.well-known/oauth-protected-resource/mcp";

    for method in ["tools/list", "server/discover", "tasks/get"] {
        let answer = post(&server, None, method, json!({})).await;
        assert_eq!(answer.status, 401, "{method}: {}", answer.body);
        assert_eq!(
            answer.challenge,
            format!("Bearer resource_metadata=\"{metadata_url}\"")
        );
    }
    // The metadata itself is open, at both of RFC 9728's places.
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let url = format!("http://{}{path}", server.bound);
        let metadata: Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        assert_eq!(metadata["resource"], RESOURCE);
        assert_eq!(metadata["authorization_servers"], json!([issuer.url]));
        assert_eq!(
            metadata["scopes_supported"],
            json!(["notes:read", "notes:write"])
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_token_s_scopes_decide_what_its_caller_sees_and_calls() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let server = serve(&issuer, |server| server).await;

    let reader = bearer(&key.sign(&issuer.claims("ann", "notes:read")));
    let listed = post(&server, Some(&reader), "tools/list", json!({}))
        .await
        .result();
    assert_eq!(
        names(&listed),
        ["note_read", "whoami", "note_export", "note_pick"]
    );
    let read = call_tool(&server, Some(&reader), "note_read", json!({"id": 7}))
        .await
        .result();
    assert_eq!(text(&read), "note 7");

    // A call of a tool whose scope the token lacks: 403, naming what to ask for.
    let write = call_tool(&server, Some(&reader), "note_write", json!({"text": "x"})).await;
    assert_eq!(write.status, 403, "{}", write.body);
    assert!(
        write
            .challenge
            .starts_with("Bearer error=\"insufficient_scope\", scope=\"notes:read notes:write\""),
        "{}",
        write.challenge
    );

    // A token without either scope still sees what needs none.
    let none = bearer(&key.sign(&issuer.claims("bob", "")));
    let listed = post(&server, Some(&none), "tools/list", json!({}))
        .await
        .result();
    assert_eq!(names(&listed), ["whoami", "note_export", "note_pick"]);

    let writer = bearer(&key.sign(&issuer.claims("cy", "notes:read notes:write")));
    let wrote = call_tool(&server, Some(&writer), "note_write", json!({"text": "x"}))
        .await
        .result();
    assert_eq!(text(&wrote), "wrote x");

    // The subject is the caller, and the tool reads the token.
    let who = call_tool(&server, Some(&writer), "whoami", json!({}))
        .await
        .result();
    assert_eq!(
        text(&who),
        "caller Some(\"cy\"), subject Some(\"cy\"), client Some(\"notes-app\")"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_body_that_stalls_while_the_scope_check_reads_it_is_a_408() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let bound = Duration::from_secs(5);
    let server = serve(&issuer, |server| server.with_read_timeout(bound)).await;
    let reader = bearer(&key.sign(&issuer.claims("ann", "notes:read")));

    // A request that names its tool only in its body, which the scope check reads before
    // rmcp does; the body stops after ten bytes.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "note_read", "arguments": {"id": 7}}})
    .to_string();
    let sent = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {reader}\r\nContent-Type: \
         application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: \
         {}\r\n\r\n{}",
        server.bound,
        body.len(),
        &body[..10]
    );
    let said = support::stalled(server.bound, sent).await;
    // The client is told it was too slow, not that its body was too large.
    assert!(
        said.starts_with("HTTP/1.1 408 ") && said.contains("the request's body stopped coming"),
        "{said}"
    );
    assert!(
        said.to_ascii_lowercase().contains("connection: close"),
        "{said}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_list_the_scopes_would_leave_empty_is_a_403_not_an_empty_list() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    // The host grants only the note tools; a token with neither scope would see nothing.
    let server = serve(&issuer, |server| {
        server.with_grant(|_| Grant::names(["note_read", "note_write"]))
    })
    .await;
    let none = bearer(&key.sign(&issuer.claims("bob", "")));
    let listed = post(&server, Some(&none), "tools/list", json!({})).await;
    assert_eq!(listed.status, 403, "{}", listed.body);
    assert!(
        listed
            .challenge
            .contains("scope=\"notes:read notes:write\""),
        "{}",
        listed.challenge
    );
    let reader = bearer(&key.sign(&issuer.claims("ann", "notes:read")));
    let listed = post(&server, Some(&reader), "tools/list", json!({}))
        .await
        .result();
    assert_eq!(names(&listed), ["note_read"]);
    server.stop().await;
}

#[tokio::test]
async fn every_bad_token_is_refused_before_anything_runs() {
    let key = SigningKey::new("k1");
    let stranger = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let server = serve(&issuer, |server| server).await;
    let good = issuer.claims("ann", "notes:read");
    let changed = |change: &dyn Fn(&mut Value)| {
        let mut claims = good.clone();
        change(&mut claims);
        key.sign(&claims)
    };
    let encode = |value: &Value| URL_SAFE_NO_PAD.encode(value.to_string());
    let unsigned = format!(
        "{}.{}.",
        encode(&json!({"alg": "none", "typ": "JWT"})),
        encode(&good)
    );
    // HS256 keyed with the issuer's public key: a server that took the algorithm from the
    // token would check it with that key, and pass it.
    let mut hmac_header = Header::new(Algorithm::HS256);
    hmac_header.kid = Some("k1".into());
    let hmac = jsonwebtoken::encode(
        &hmac_header,
        &good,
        &EncodingKey::from_secret(&key.public).unwrap(),
    )
    .unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "expired",
            changed(&|claims| claims["exp"] = json!(now() - 120)),
            "the token has expired",
        ),
        (
            "not yet valid",
            changed(&|claims| claims["nbf"] = json!(now() + 120)),
            "not valid yet",
        ),
        (
            "another issuer",
            changed(&|claims| claims["iss"] = json!("https://other.test")),
            "another issuer",
        ),
        (
            "another audience",
            changed(&|claims| claims["aud"] = json!("https://other.test/mcp")),
            "another resource",
        ),
        (
            "no expiry",
            changed(&|claims| {
                claims.as_object_mut().unwrap().remove("exp");
            }),
            "no `exp` claim",
        ),
        ("alg none", unsigned, "not a JWT"),
        (
            "HS256 with the public key",
            hmac,
            "HS256, which this server does not take",
        ),
        (
            "a stranger's key of the same id",
            stranger.sign(&good),
            "signature does not hold",
        ),
        (
            "unknown kid",
            SigningKey::new("k9").sign(&good),
            "the key `k9`, which the issuer does not publish",
        ),
        (
            "past the bound",
            "a".repeat(20_000),
            "longer than the 16384 bytes",
        ),
        ("garbage", "not.a.token".to_owned(), "not a JWT"),
    ];
    for (what, token, said) in cases {
        let answer = post(
            &server,
            Some(&bearer(&token)),
            "tools/call",
            json!({"name": "whoami", "arguments": {}}),
        )
        .await;
        assert_eq!(answer.status, 401, "{what}: {}", answer.body);
        assert!(
            answer.challenge.contains("error=\"invalid_token\""),
            "{what}: {}",
            answer.challenge
        );
        assert!(answer.body.contains(said), "{what}: {}", answer.body);
    }
    // A token of a megabyte does not even reach the check: the HTTP server refuses its header.
    let huge = bearer(&"a".repeat(1 << 20));
    let answer = post(&server, Some(&huge), "tools/list", json!({})).await;
    assert_eq!(answer.status, 431, "{}", answer.body);
    for (what, header) in [
        ("another scheme", "Basic YTpi"),
        ("no token", "Bearer"),
        ("two tokens", "Bearer a b"),
    ] {
        let answer = post(&server, Some(header), "tools/list", json!({})).await;
        assert_eq!(answer.status, 400, "{what}: {}", answer.body);
        assert!(
            answer.challenge.contains("error=\"invalid_request\""),
            "{what}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn rotated_keys_are_fetched_once_and_held_keys_outlive_the_issuer_going_down() {
    let old = SigningKey::new("k1");
    let issuer = Issuer::start(&[&old]).await;
    let server = serve(&issuer, |server| server).await;
    let call = json!({"name": "whoami", "arguments": {}});
    let first = bearer(&old.sign(&issuer.claims("ann", "")));
    post(&server, Some(&first), "tools/call", call.clone())
        .await
        .result();
    let fetched = issuer.fetches.load(Ordering::SeqCst);
    assert_eq!(fetched, 1);

    // The issuer rotates: a token of the new key fetches the keys once more.
    let new = SigningKey::new("k2");
    issuer.publish(&[&old, &new]);
    let rotated = bearer(&new.sign(&issuer.claims("bob", "")));
    post(&server, Some(&rotated), "tools/call", call.clone())
        .await
        .result();
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);

    // The issuer goes down: keys held keep working, and a key never seen cannot be checked.
    issuer.up.store(false, Ordering::SeqCst);
    let again = bearer(&old.sign(&issuer.claims("cy", "")));
    post(&server, Some(&again), "tools/call", call.clone())
        .await
        .result();
    let unseen = bearer(&SigningKey::new("k3").sign(&issuer.claims("dee", "")));
    let answer = post(&server, Some(&unseen), "tools/call", call.clone()).await;
    assert_eq!(answer.status, 401, "{}", answer.body);
    server.stop().await;

    // A server that never held a key answers 503 while the issuer is down, and serves nothing.
    let fresh = serve(&issuer, |server| server).await;
    let answer = post(&fresh, Some(&again), "tools/call", call).await;
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(
        answer.body.contains("cannot be checked now"),
        "{}",
        answer.body
    );
    fresh.stop().await;
}

#[tokio::test]
async fn a_caller_cannot_reach_another_caller_s_task_or_suspended_call() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let server = serve(&issuer, |server| server).await;
    let ann = bearer(&key.sign(&issuer.claims("ann", "notes:read")));
    let bob = bearer(&key.sign(&issuer.claims("bob", "notes:read")));
    let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}, "elicitation": {}});

    let started = post_with(
        &server.url(),
        Some(&ann),
        "tools/call",
        json!({"name": "note_export", "arguments": {}}),
        &tasks,
    )
    .await
    .result();
    let id = started["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {started}"))
        .to_owned();
    let theirs = post_with(
        &server.url(),
        Some(&bob),
        "tasks/get",
        json!({"taskId": id}),
        &tasks,
    )
    .await;
    assert!(
        theirs
            .body
            .contains(&format!("no task `{id}` is known to this caller")),
        "{}",
        theirs.body
    );
    let own = post_with(
        &server.url(),
        Some(&ann),
        "tasks/get",
        json!({"taskId": id}),
        &tasks,
    )
    .await
    .result();
    assert_eq!(own["taskId"], id.as_str(), "{own}");

    // Ann's call asks; Bob retrying with her request state resumes nothing of hers.
    let round = post_with(
        &server.url(),
        Some(&ann),
        "tools/call",
        json!({"name": "note_pick", "arguments": {}}),
        &tasks,
    )
    .await
    .result();
    assert_eq!(round["resultType"], "input_required", "{round}");
    let answers = json!({"choice": {"action": "accept", "content": {"id": 3}}});
    let retry = json!({"name": "note_pick", "arguments": {},
                       "requestState": round["requestState"], "inputResponses": answers});
    let stolen = post_with(
        &server.url(),
        Some(&bob),
        "tools/call",
        retry.clone(),
        &tasks,
    )
    .await;
    assert!(!stolen.body.contains("picked 3"), "{}", stolen.body);
    let resumed = post_with(&server.url(), Some(&ann), "tools/call", retry, &tasks)
        .await
        .result();
    assert_eq!(text(&resumed), "picked 3", "{resumed}");
    server.stop().await;
}

#[tokio::test]
async fn opaque_tokens_are_checked_at_the_introspection_endpoint() {
    let issuer = Issuer::start(&[]).await;
    let verifier = tool_mcp::auth::IntrospectionVerifier::new(
        format!("{}/introspect", issuer.url),
        "notes-server",
        "rs-secret",
    )
    .for_resource(RESOURCE);
    let auth = BearerAuth::new(RESOURCE, verifier).with_authorization_server(issuer.url.clone());
    let server = HttpServer::serve(
        McpServer::new(registry())
            .stateless()
            .with_bearer_auth(auth),
    )
    .await;
    let who = json!({"name": "whoami", "arguments": {}});
    let answered = post(
        &server,
        Some("Bearer opaque-ann"),
        "tools/call",
        who.clone(),
    )
    .await
    .result();
    assert_eq!(
        text(&answered),
        "caller Some(\"ann\"), subject Some(\"ann\"), client Some(\"notes-app\")"
    );
    let listed = post(&server, Some("Bearer opaque-ann"), "tools/list", json!({}))
        .await
        .result();
    assert!(names(&listed).contains(&"note_read".to_owned()), "{listed}");
    for (token, said) in [
        ("opaque-elsewhere", "another resource"),
        ("revoked", "not active"),
    ] {
        let refused = post(&server, Some(&bearer(token)), "tools/call", who.clone()).await;
        assert_eq!(refused.status, 401, "{token}: {}", refused.body);
        assert!(refused.body.contains(said), "{token}: {}", refused.body);
    }
    server.stop().await;
}

#[tokio::test]
async fn unknown_key_ids_fetch_the_keys_at_most_once_per_interval() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    // The verifier's defaults: at most one fetch for unknown keys per 30 s.
    let verifier = JwtVerifier::new(issuer.url.clone(), RESOURCE);
    let auth = BearerAuth::new(RESOURCE, verifier);
    let server = HttpServer::serve(
        McpServer::new(registry())
            .stateless()
            .with_bearer_auth(auth),
    )
    .await;
    let who = json!({"name": "whoami", "arguments": {}});
    let good = bearer(&key.sign(&issuer.claims("ann", "")));
    post(&server, Some(&good), "tools/call", who.clone())
        .await
        .result();
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);
    // A stranger's tokens of ever new key ids, within the interval after that fetch: refused
    // without asking the issuer again.
    for kid in ["s1", "s2", "s3", "s4", "s5"] {
        let forged = bearer(&SigningKey::new(kid).sign(&issuer.claims("mallory", "")));
        let refused = post(&server, Some(&forged), "tools/call", who.clone()).await;
        assert_eq!(refused.status, 401, "{}", refused.body);
    }
    assert_eq!(
        issuer.fetches.load(Ordering::SeqCst),
        1,
        "the issuer was asked again within the interval"
    );
    server.stop().await;
}

#[tokio::test]
async fn serving_beyond_this_machine_with_no_caller_check_is_warned_of() {
    let lines = support::Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let warned = || String::from_utf8_lossy(&lines.0.lock().unwrap()).contains("no caller check");

    let (_, serving) = McpServer::new(registry())
        .bind_http("0.0.0.0:0".parse().unwrap(), async {})
        .await
        .unwrap();
    drop(serving);
    assert!(warned(), "no warning for an open server beyond loopback");
    // Where it serves is said too, for a reader of the log to point a client at.
    let logged = String::from_utf8_lossy(&lines.0.lock().unwrap()).into_owned();
    assert!(
        logged.contains("serving MCP over streamable HTTP at http://0.0.0.0:"),
        "{logged}"
    );
    lines.0.lock().unwrap().clear();
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let checked =
        McpServer::new(registry()).with_bearer_auth(BearerAuth::jwt(issuer.url.clone(), RESOURCE));
    let (_, serving) = checked
        .bind_http("0.0.0.0:0".parse().unwrap(), async {})
        .await
        .unwrap();
    drop(serving);
    let (_, serving) = McpServer::new(registry())
        .bind_http("127.0.0.1:0".parse().unwrap(), async {})
        .await
        .unwrap();
    drop(serving);
    assert!(
        !warned(),
        "a warning for a server that checks tokens, or serves this machine alone"
    );
}

/// The client-credentials grant of the client the test issuers know, `notes-agent`, for
/// `notes:read`.
fn notes_agent() -> tool_mcp::RemoteAuth {
    tool_mcp::RemoteAuth::ClientCredentials {
        client_id: "notes-agent".into(),
        client_secret: "notes-agent-secret".into(),
        scopes: vec!["notes:read".into()],
    }
}

#[tokio::test]
async fn a_client_credentials_toolkit_is_given_up_within_its_connecting_limit() {
    // A server that gives its token and never answers the handshake made with it: connecting
    // gives up at its limit, the grant's token had or not, so a host's start is never held.
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let port = support::oidc::free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let verifier = JwtVerifier::new(issuer.url.clone(), resource.clone());
    let auth =
        BearerAuth::new(resource.clone(), verifier).with_authorization_server(issuer.url.clone());
    let router = McpServer::new(registry())
        .with_bearer_auth(auth)
        .http_router()
        .unwrap()
        .layer(axum::middleware::from_fn(
            |request: axum::extract::Request, next: axum::middleware::Next| async move {
                if request.headers().contains_key("authorization") {
                    std::future::pending::<()>().await;
                }
                next.run(request).await
            },
        ));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });

    let connecting = tool_mcp::RemoteToolkit::connecting("notes")
        .within(Duration::from_secs(2))
        .http_authorized(&resource, notes_agent());
    let connected = tokio::time::timeout(Duration::from_secs(120), connecting)
        .await
        .expect("connecting waited past its limit");
    let error = match connected {
        Ok(_) => panic!("a server that never answered was connected to"),
        Err(error) => error.to_string(),
    };
    assert!(
        error.starts_with("the MCP server `notes` did not initialize: no answer within 2 s"),
        "{error}"
    );
}

#[tokio::test]
async fn a_remote_toolkit_gets_a_new_client_credentials_token_before_its_token_expires() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    // The server must be named by its own URL: the toolkit holds the resource to it.
    let port = support::oidc::free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let verifier =
        JwtVerifier::new(issuer.url.clone(), resource.clone()).with_leeway(Duration::ZERO);
    let auth =
        BearerAuth::new(resource.clone(), verifier).with_authorization_server(issuer.url.clone());
    let server = McpServer::new(registry())
        .stateless()
        .with_bearer_auth(auth);
    // Served here, its refusals of a token counted: a renewal made before expiry meets none.
    let refusals = Arc::new(AtomicUsize::new(0));
    let counted = refusals.clone();
    let router = server
        .http_router()
        .unwrap()
        .layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let counted = counted.clone();
                // A request without a token is discovery's; one with a token refused is not.
                let carried = request.headers().contains_key("authorization");
                async move {
                    let answer = next.run(request).await;
                    if carried && answer.status() == axum::http::StatusCode::UNAUTHORIZED {
                        counted.fetch_add(1, Ordering::SeqCst);
                    }
                    answer
                }
            },
        ));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });

    let remote = tool_mcp::RemoteToolkit::connect_http_authorized(
        "notes",
        &resource,
        tool_mcp::Revision::V2026_07_28,
        notes_agent(),
    )
    .await
    .unwrap_or_else(|error| panic!("the toolkit could not connect: {error}"));
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let call = || tool_core::ToolCall::new("1", "whoami", json!({}));
    let first = registry.call(call(), &Context::new()).await;
    assert!(first.text().contains("notes-agent"), "{}", first.text());
    let issued = issuer.issued.load(Ordering::SeqCst);
    // Past the token's two seconds, the next call gets a new one and goes through.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let later = registry.call(call(), &Context::new()).await;
    assert!(later.text().contains("notes-agent"), "{}", later.text());
    assert!(
        issuer.issued.load(Ordering::SeqCst) > issued,
        "no new token was asked for"
    );
    assert_eq!(
        refusals.load(Ordering::SeqCst),
        0,
        "an expired token reached the server"
    );
}

#[tokio::test]
async fn a_remote_toolkit_with_oauth_follows_no_redirect_to_another_host() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    // Elsewhere: another host, counting what reaches it.
    let reached = Arc::new(AtomicUsize::new(0));
    let counted = reached.clone();
    let elsewhere = axum::Router::new().fallback(move || {
        let counted = counted.clone();
        async move {
            counted.fetch_add(1, Ordering::SeqCst);
            axum::http::StatusCode::INTERNAL_SERVER_ERROR
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let elsewhere_url = format!(
        "http://localhost:{}/mcp",
        listener.local_addr().unwrap().port()
    );
    tokio::spawn(async move { axum::serve(listener, elsewhere).await });
    // The server, which sends every request that carries a token elsewhere.
    let port = support::oidc::free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let verifier = JwtVerifier::new(issuer.url.clone(), resource.clone());
    let auth =
        BearerAuth::new(resource.clone(), verifier).with_authorization_server(issuer.url.clone());
    let server = McpServer::new(registry()).with_bearer_auth(auth);
    let router = server
        .http_router()
        .unwrap()
        .layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let to = elsewhere_url.clone();
                async move {
                    if request.headers().contains_key("authorization") {
                        use axum::response::IntoResponse;
                        let moved = axum::http::StatusCode::TEMPORARY_REDIRECT;
                        return (moved, [("location", to)]).into_response();
                    }
                    next.run(request).await
                }
            },
        ));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });

    let connected = tool_mcp::RemoteToolkit::connect_http_authorized(
        "notes",
        &resource,
        tool_mcp::Revision::V2025_11_25,
        notes_agent(),
    )
    .await;
    assert!(connected.is_err(), "the redirect was followed to a server");
    assert_eq!(
        reached.load(Ordering::SeqCst),
        0,
        "a request was sent on to another host"
    );
}

#[tokio::test]
async fn a_call_record_names_the_token_s_subject_and_client() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]).await;
    let (sender, records) = std::sync::mpsc::channel();
    let sender = Mutex::new(sender);
    let registry = registry().with_observer(move |record: CallRecord| {
        let _ = sender.lock().unwrap().send(record);
    });
    let server = serve_registry(&issuer, registry, |server| server).await;
    let ann = bearer(&key.sign(&issuer.claims("ann", "")));
    let call = json!({"name": "whoami", "arguments": {}});
    post(&server, Some(&ann), "tools/call", call).await.result();
    let record = records
        .recv_timeout(ANSWER_LIMIT)
        .expect("the call's record");
    assert_eq!(record.caller.as_deref(), Some("ann"));
    assert_eq!(record.client.as_deref(), Some("notes-app"));
    server.stop().await;
}

#[tokio::test]
async fn tokens_of_a_real_authorization_server_are_taken_and_the_python_sdk_finds_its_way() {
    let port = support::oidc::free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let (issuer, _issuer_process) = support::oidc::start(&resource);

    // The example server, as the README starts it.
    let mut server = support::process::ChildGuard::spawn(
        std::process::Command::new(support::example_server())
            .args(["--http", &format!("127.0.0.1:{port}")])
            .args(["--oauth-issuer", &issuer, "--resource", &resource])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null()),
        "the example server",
    );
    let line = server.first_line(Duration::from_secs(60));
    assert!(line.contains(&resource), "{line}");

    // A reader's token (RS256, from oidc-provider's own keys) lists the read-only tools only.
    let reader = bearer(
        &support::oidc::client_token(&issuer, "notes-reader", "notes:read", &resource).await,
    );
    let listed = post_at(&resource, Some(&reader), "tools/list", json!({}))
        .await
        .result();
    let names = names(&listed);
    assert!(names.contains(&"note_search".to_owned()), "{names:?}");
    assert!(!names.contains(&"note_write".to_owned()), "{names:?}");
    let write = post_at(
        &resource,
        Some(&reader),
        "tools/call",
        json!({"name": "note_write", "arguments": {"text": "x"}}),
    )
    .await;
    assert_eq!(write.status, 403, "{}", write.body);
    let writer = bearer(
        &support::oidc::client_token(&issuer, "notes-app", "notes:read notes:write", &resource)
            .await,
    );
    let wrote = post_at(
        &resource,
        Some(&writer),
        "tools/call",
        json!({"name": "note_write", "arguments": {"text": "x"}}),
    )
    .await
    .result();
    assert_eq!(wrote["isError"], json!(false), "{wrote}");

    // The Python SDK starts from a 401 and finds the token endpoint by itself. It asks for
    // what the metadata lists as supported (every scope a tool needs), as MCP's scope
    // selection says, so the client is one allowed both.
    let seen = support::clients::client_session(
        std::process::Command::new(support::clients::python())
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_oauth.py"))
            .args([
                resource.as_str(),
                issuer.as_str(),
                "notes-app",
                "notes-app-secret",
                "notes:read",
            ]),
        "the Python SDK's client-credentials client",
    );
    let tools: Vec<&str> = (seen["tools"].as_array().unwrap().iter())
        .map(|name| name.as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"note_count") && tools.contains(&"note_write"),
        "{seen}"
    );
    assert_eq!(seen["count"]["isError"], json!(false), "{seen}");

    // A remote toolkit finds its way too, by the client-credentials grant, and so does a
    // static token.
    let remote = tool_mcp::RemoteToolkit::connect_http_authorized(
        "notes",
        &resource,
        tool_mcp::Revision::V2026_07_28,
        notes_agent(),
    )
    .await
    .unwrap_or_else(|error| panic!("the remote toolkit could not connect: {error}"));
    let remote_names: Vec<&str> = (remote.definitions().iter())
        .map(|definition| definition.name.as_str())
        .collect();
    assert!(
        remote_names.contains(&"note_count") && !remote_names.contains(&"note_write"),
        "{remote_names:?}"
    );
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let counted = registry
        .call(
            tool_core::ToolCall::new("1", "note_count", json!({})),
            &Context::new(),
        )
        .await;
    assert!(counted.outcome.is_ok(), "{}", counted.text());
    let token =
        support::oidc::client_token(&issuer, "notes-app", "notes:read notes:write", &resource)
            .await;
    let with_token = tool_mcp::RemoteToolkit::connect_http_authorized(
        "notes",
        &resource,
        tool_mcp::Revision::V2025_11_25,
        tool_mcp::RemoteAuth::Bearer(token),
    )
    .await
    .unwrap();
    assert!(
        with_token
            .definitions()
            .iter()
            .any(|definition| definition.name == "note_write")
    );
    let refused = tool_mcp::RemoteToolkit::connect_http_authorized(
        "notes",
        &resource,
        tool_mcp::Revision::V2025_11_25,
        tool_mcp::RemoteAuth::Bearer("not-a-token".into()),
    )
    .await;
    assert!(refused.is_err(), "a bad token connected");
}
