//! Nobody exhausts the server: a stranger opening 2025-11-25 sessions in a loop (an
//! `initialize`, then walking away) is refused past its bound with 503 and `Retry-After`, the
//! server's memory stays bounded, and a named caller's session opened before goes on working.
//! One test in a binary of its own, so that its reading of the process's memory is its own.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{Grant, Registry, tool};
use tool_mcp::{McpServer, SessionLimits};

mod support;

/// How many sessions the stranger tries to open.
const ATTEMPTS: usize = 100_000;

/// How many of its requests are in flight at once.
const AT_ONCE: usize = 8;

/// What the stranger's attempts may add to the process's resident memory: the sessions it is
/// allowed (64) and what the allocator keeps of a hundred thousand refused requests.
const MEMORY_BOUND: u64 = 128 << 20;

/// Says hello.
#[tool(readonly)]
async fn hello() -> String {
    "hello".to_owned()
}

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bounds", "version": "0"}}})
    .to_string()
}

/// The resident memory of this process, in bytes.
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("a Linux /proc");
    let pages: u64 = statm
        .split(' ')
        .nth(1)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    body: String,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    tokio::time::timeout(Duration::from_secs(60), request.send())
        .await
        .expect("an answer in time")
        .expect("the server answers HTTP")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_opening_sessions_in_a_loop_is_bounded_and_others_go_on() {
    support::install_tls();
    let registry = Registry::builder().tool(Hello).build().unwrap();
    let server = McpServer::new(registry)
        .with_caller(|request| Some(request.headers.get("x-caller")?.to_str().ok()?.to_owned()))
        .with_anonymous(Grant::all());
    let limits = SessionLimits::default();
    let server = support::HttpServer::serve(server.with_session_limits(limits)).await;
    let url = server.url();
    let client = reqwest::Client::new();

    // A named caller opens its session first.
    let opened = post(&client, &url, initialize(), &[("x-caller", "ann")]).await;
    let session = (opened.headers().get("mcp-session-id"))
        .expect("a session for Ann")
        .to_str()
        .unwrap()
        .to_owned();
    let _ = opened.text().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let ann = [
        ("x-caller", "ann"),
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let _ = post(&client, &url, initialized, &ann).await.text().await;

    let before = resident();
    let mut opened = 0;
    let mut refused = 0;
    let mut flights = Vec::new();
    for _ in 0..AT_ONCE {
        let (client, url) = (client.clone(), url.clone());
        flights.push(tokio::spawn(async move {
            let (mut opened, mut refused) = (0, 0);
            for _ in 0..ATTEMPTS / AT_ONCE {
                let answer = post(&client, &url, initialize(), &[]).await;
                match answer.status().as_u16() {
                    200 => opened += 1,
                    503 => {
                        assert_eq!(answer.headers().get("retry-after").unwrap(), "30");
                        refused += 1;
                    }
                    other => panic!("an initialize was answered {other}"),
                }
                let _ = answer.bytes().await;
            }
            (opened, refused)
        }));
    }
    for flight in flights {
        let (more_opened, more_refused) = flight.await.unwrap();
        opened += more_opened;
        refused += more_refused;
    }
    let grown = resident().saturating_sub(before);
    eprintln!(
        "{ATTEMPTS} attempts grew the process by {} KiB",
        grown >> 10
    );
    assert_eq!(
        opened, limits.per_owner,
        "the stranger opened other than its bound"
    );
    assert_eq!(opened + refused, ATTEMPTS);
    assert!(grown < MEMORY_BOUND, "the server grew by {grown} bytes");

    // Ann's session still works, and she may open another.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}).to_string();
    let listed = post(&client, &url, list, &ann).await;
    assert_eq!(listed.status(), 200);
    let body = listed.text().await.unwrap();
    let answer = support::answer_in(&body, 2, &Value::Null);
    assert_eq!(answer["result"]["tools"][0]["name"], "hello", "{body}");
    let again = post(&client, &url, initialize(), &[("x-caller", "ann")]).await;
    assert_eq!(again.status(), 200);
    server.stop().await;
}
