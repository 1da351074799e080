//! What checking bearer tokens costs a call over HTTP: one server with `with_bearer_auth` (JWT
//! access tokens of a test issuer served here, EdDSA-signed) and one without, the same tools,
//! both served in this process and driven by the same client, in alternating windows so that
//! the machine's load falls on both alike.
//!
//! ```sh
//! cargo run --release -p tool-benches --bin auth_load -- [SECONDS] [ROUNDS]
//! ```
//!
//! Each call is a 2026-07-28 `tools/call` POSTed on its own, its answer read to its end. The
//! token is the same on every call, as a client holding one sends it, so what is measured is
//! reading the header and finding the checked token, not checking its signature each time
//! (the first call does that once).

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::signature::KeyPair;
use serde_json::json;
use tool_benches::load::Load;
use tool_core::{Registry, tool};
use tool_mcp::McpServer;
use tool_mcp::auth::BearerAuth;

type Error = Box<dyn std::error::Error>;

/// The name the server's tokens are issued for.
const RESOURCE: &str = "https://notes.bench/mcp";

/// Counts the notes.
#[tool(readonly, scopes("notes:read"))]
async fn note_count() -> String {
    "3 notes".to_owned()
}

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| "SECONDS is a whole number, as 5")?,
        None => 5,
    };
    let rounds: usize = match args.next() {
        Some(text) => text.parse().map_err(|_| "ROUNDS is a whole number, as 3")?,
        None => 3,
    };
    let window = Duration::from_secs(seconds);
    // ring's provider, which rustls deprecates for its lack of post-quantum key exchange:
    // what tool-mcp installs when a host chooses none, so the load is measured on it.
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(window, rounds))
}

async fn run(window: Duration, rounds: usize) -> Result<(), Error> {
    let random = ring::rand::SystemRandom::new();
    let pkcs8 = ring::signature::Ed25519KeyPair::generate_pkcs8(&random)
        .map_err(|_| "no Ed25519 key could be made")?;
    let pair = ring::signature::Ed25519KeyPair::from_pkcs8(pkcs8.as_ref())
        .map_err(|_| "the Ed25519 key does not read back")?;
    let x = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(pair.public_key().as_ref());
    let issuer = serve_issuer(
        json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1",
        "alg": "EdDSA", "use": "sig", "x": x}]}),
    )
    .await?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let claims = json!({"iss": issuer, "aud": RESOURCE, "sub": "ann", "client_id": "bench",
        "scope": "notes:read", "iat": now, "exp": now + 3600});
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some("k1".into());
    let token = jsonwebtoken::encode(&header, &claims, &EncodingKey::from_ed_der(pkcs8.as_ref()))?;

    let registry = || Registry::builder().tool(NoteCount).build();
    let plain = serve(McpServer::new(registry()?).stateless()).await?;
    let auth = BearerAuth::jwt(issuer.clone(), RESOURCE);
    let checked = serve(
        McpServer::new(registry()?)
            .stateless()
            .with_bearer_auth(auth),
    )
    .await?;
    let bearer = Arc::new(format!("Bearer {token}"));

    println!(
        "| round | without a token: p50 one at a time | calls/s, 32 at once | with a token: p50 | calls/s | p50 ratio | calls/s ratio |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        let bare_alone = drive(&plain, None, 1, window).await?;
        let token_alone = drive(&checked, Some(bearer.clone()), 1, window).await?;
        let bare_many = drive(&plain, None, 32, window).await?;
        let token_many = drive(&checked, Some(bearer.clone()), 32, window).await?;
        let p50_ratio = token_alone.p50.as_secs_f64() / bare_alone.p50.as_secs_f64();
        let rate_ratio = bare_many.per_second / token_many.per_second;
        ratios.push((p50_ratio, rate_ratio));
        println!(
            "| {round} | {:?} | {:.0} | {:?} | {:.0} | {p50_ratio:.3} | {rate_ratio:.3} |",
            bare_alone.p50, bare_many.per_second, token_alone.p50, token_many.per_second
        );
    }
    let median = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    println!(
        "\nmedian ratios (with a token / without; calls/s inverted, so above 1 is slower): p50 {:.3}, calls/s {:.3}",
        median(ratios.iter().map(|ratio| ratio.0).collect()),
        median(ratios.iter().map(|ratio| ratio.1).collect())
    );
    Ok(())
}

/// The test issuer's metadata and JWKS, served on a port of its own: its URL.
async fn serve_issuer(jwks: serde_json::Value) -> Result<String, Error> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let metadata = json!({"issuer": url, "jwks_uri": format!("{url}/jwks")}).to_string();
    let jwks = jwks.to_string();
    let router = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            axum::routing::get(move || async move { metadata }),
        )
        .route("/jwks", axum::routing::get(move || async move { jwks }));
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(url)
}

/// `server` on a free port: its URL.
async fn serve(server: McpServer) -> Result<String, Error> {
    let (bound, serving) = server
        .bind_http("127.0.0.1:0".parse()?, std::future::pending())
        .await?;
    tokio::spawn(serving);
    Ok(format!("http://{bound}/mcp"))
}

/// Calls `url` from `concurrency` loops at once for `window`, after half a second of warming
/// up; a call not answered with the result stops the run with its error.
async fn drive(
    url: &str,
    bearer: Option<Arc<String>>,
    concurrency: usize,
    window: Duration,
) -> Result<Load, Error> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()?;
    let url: Arc<str> = url.into();
    let call = move || {
        let (client, url, bearer) = (client.clone(), url.clone(), bearer.clone());
        async move { call(&client, &url, bearer.as_deref()).await }
    };
    Ok(tool_benches::load::drive(concurrency, Duration::from_millis(500), window, call).await?)
}

async fn call(client: &reqwest::Client, url: &str, bearer: Option<&String>) -> Result<(), String> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "note_count", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "note_count")
        .body(body.to_string());
    if let Some(bearer) = bearer {
        request = request.header("authorization", bearer.as_str());
    }
    let response = request
        .send()
        .await
        .map_err(|error| format!("a call to {url} failed: {error}"))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|error| format!("reading an answer from {url} failed: {error}"))?;
    if !status.is_success() || !text.contains("3 notes") {
        return Err(format!(
            "{url} answered {status} without the result: {text}"
        ));
    }
    Ok(())
}
