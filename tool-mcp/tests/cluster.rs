//! Several replicas of the example server, served without sessions (`--stateless`), behind a
//! real nginx, driven by the official Python SDK from ten sessions at once (half of MCP
//! 2025-11-25, half of 2026-07-28): every call is
//! answered as one process answers it, and a replica killed mid-run costs at most the calls it
//! was running, each failed with an error the client sees, while the rest keep succeeding.
//! Replicas checking bearer tokens take the same tokens, sharing nothing but the issuer.
//!
//! nginx is Debian's, installed by the tests' support when missing (see `support/nginx.rs`).

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::process::ChildGuard;
use support::{clients, example_http_server, nginx};

/// How many calls a run makes, shared among [`SESSIONS`].
const CALLS: usize = 1000;
/// How many sessions make them at once.
const SESSIONS: usize = 10;
/// How long one run of the client script may take, all sessions together.
const RUN_LIMIT: Duration = Duration::from_secs(180);

/// A folder of the test's own, removed when dropped (after what runs in it is stopped).
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let path = std::env::temp_dir().join(format!("tool-mcp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|error| panic!("creating {}: {error}", path.display()));
        Folder(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Three stateless replicas and the nginx in front of them, each stopped when dropped (nginx
/// first, then the replicas, then the folder).
struct Cluster {
    nginx: ChildGuard,
    replicas: Vec<ChildGuard>,
    /// Each replica's `HOST:PORT`.
    upstreams: Vec<String>,
    url: String,
    _folder: Folder,
}

impl Cluster {
    fn start(name: &str) -> Cluster {
        Cluster::start_with(name, free_port(), &["--stateless"])
    }

    /// Three replicas started with `args`, behind nginx on `port` (chosen by the caller, for
    /// replicas that must know the cluster's URL before they start).
    fn start_with(name: &str, port: u16, args: &[&str]) -> Cluster {
        let folder = Folder::new(name);
        let url = format!("http://127.0.0.1:{port}/mcp");
        let mut replicas = Vec::new();
        let mut upstreams = Vec::new();
        for _ in 0..3 {
            let (replica, url) = example_http_server(args);
            let authority = url
                .strip_prefix("http://")
                .and_then(|rest| rest.strip_suffix("/mcp"))
                .unwrap_or_else(|| panic!("a replica's URL is http://HOST:PORT/mcp, not {url}"))
                .to_owned();
            replicas.push(replica);
            upstreams.push(authority);
        }
        let config = nginx::config(&folder.0, &format!("127.0.0.1:{port}"), &upstreams);
        let nginx = nginx::start(&folder.0, &config, port);
        Cluster {
            nginx,
            replicas,
            upstreams,
            url,
            _folder: folder,
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.nginx.kill();
        let _ = self.nginx.wait();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free local port");
    listener.local_addr().expect("a bound address").port()
}

/// Runs `mcp_cluster.py` against `url`, calling `on_signal` when it says `signal` (after
/// `signal_after` calls were answered), and returns the document it prints at the end. The
/// whole run is bounded by [`RUN_LIMIT`]: a client that hangs fails the test.
fn drive(url: &str, signal_after: Option<usize>, on_signal: impl FnOnce()) -> Value {
    let mut command = clients::python_client("mcp_cluster.py");
    command
        .arg(url)
        .arg(SESSIONS.to_string())
        .arg(CALLS.to_string());
    if let Some(after) = signal_after {
        command.arg(after.to_string());
    }
    let mut client = ChildGuard::spawn(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
        "the Python cluster client",
    );
    let stdout = client.stdout.take().expect("stdout is piped");
    let mut stderr = client.stderr.take().expect("stderr is piped");
    let (lines, said) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let complaints = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + RUN_LIMIT;
    let mut on_signal = Some(on_signal);
    let document = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match said.recv_timeout(left) {
            Ok(line) if line == "signal" => {
                if let Some(act) = on_signal.take() {
                    act();
                }
            }
            Ok(line) => break line,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                drop(client);
                panic!("the Python cluster client had not finished after {RUN_LIMIT:?}");
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = client.wait();
                panic!(
                    "the Python cluster client ended without its answers; it said:\n{}",
                    complaints.join().unwrap_or_default()
                );
            }
        }
    };
    assert!(
        on_signal.is_none() || signal_after.is_none(),
        "the client finished without saying `signal`"
    );
    serde_json::from_str(&document)
        .unwrap_or_else(|error| panic!("the client's answers are not JSON ({error}): {document}"))
}

/// The answers one replica, alone and reached directly, gives to the same calls: what every
/// run through nginx is held to.
fn reference() -> &'static Vec<Value> {
    static REFERENCE: OnceLock<Vec<Value>> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let (_replica, url) = example_http_server(&["--stateless"]);
        let seen = drive(&url, None, || {});
        let calls = answers(&seen);
        for (i, call) in calls.iter().enumerate() {
            assert!(
                call.get("result").is_some(),
                "one replica, reached directly, did not answer call {i}: {call}"
            );
        }
        calls
    })
}

/// Each call's outcome, in call order, without how long it took.
fn answers(seen: &Value) -> Vec<Value> {
    let calls = seen["calls"]
        .as_array()
        .unwrap_or_else(|| panic!("the client's answers have no `calls`: {seen}"));
    assert_eq!(calls.len(), CALLS, "one outcome a call");
    calls
        .iter()
        .map(|call| {
            let mut call = call.clone();
            if let Some(fields) = call.as_object_mut() {
                fields.remove("seconds");
            }
            call
        })
        .collect()
}

#[test]
fn a_thousand_calls_through_nginx_are_answered_as_one_process_answers_them() {
    let expected = reference();
    // The calls are good and bad alike, and a third of them report progress.
    assert!(
        expected
            .iter()
            .any(|call| call["result"]["isError"] == true)
    );
    assert!(
        expected
            .iter()
            .any(|call| call["progress"].as_array().is_some_and(|p| p.len() == 3))
    );

    let cluster = Cluster::start("cluster-all");
    let seen = drive(&cluster.url, None, || {});
    assert_eq!(
        seen["versions"],
        serde_json::json!(["2025-11-25", "2026-07-28"]),
        "sessions of both revisions went through nginx"
    );
    let calls = answers(&seen);
    for (i, (call, expected)) in calls.iter().zip(expected).enumerate() {
        assert_eq!(
            call, expected,
            "call {i} through nginx was answered otherwise than by one process"
        );
    }
    // Every replica answered a share: the calls were spread, not sent to one.
    let replicas = seen["replicas"].as_object().expect("answers by replica");
    assert_eq!(replicas.len(), 3, "three replicas answered: {replicas:?}");
    for (replica, count) in replicas {
        assert!(
            count.as_u64().is_some_and(|count| count >= 50),
            "replica {replica} answered only {count} requests of {CALLS} calls"
        );
    }
}

#[test]
fn a_replica_killed_mid_run_fails_only_its_running_calls_and_the_rest_succeed() {
    let expected = reference();
    let mut cluster = Cluster::start("cluster-kill");
    let mut killed = false;
    let url = cluster.url.clone();
    let seen = drive(&url, Some(CALLS / 3), || {
        let victim = &mut cluster.replicas[1];
        victim.kill().expect("the replica can be killed");
        victim.wait().expect("the killed replica is reaped");
        killed = true;
    });
    assert!(killed, "the replica was killed mid-run");
    let calls = answers(&seen);
    let mut failed = Vec::new();
    for (i, (call, expected)) in calls.iter().zip(expected).enumerate() {
        if let Some(error) = call.get("error") {
            assert!(
                call.get("timed_out").is_none(),
                "call {i} hung until the client gave it up: {call}"
            );
            let error = error.as_str().unwrap_or_default();
            // The SDK's own error for a request that failed (a 502 from nginx, or a response
            // stream cut short), not a session that broke or a crash of the client.
            assert!(
                error.starts_with("MCPError: ") && error.len() > "MCPError: ".len(),
                "call {i} failed without a clear error: {call}"
            );
            failed.push((i, error.to_owned()));
        } else {
            assert_eq!(
                call, expected,
                "call {i} was answered otherwise than by one process"
            );
        }
    }
    // At most the calls the killed replica was running: one a session.
    assert!(
        failed.len() <= SESSIONS,
        "{} calls failed, more than the {SESSIONS} that can have been running on the killed \
         replica: {failed:?}",
        failed.len()
    );
    // The rest kept succeeding: each session's last calls, made well after the kill, all did.
    for (i, call) in calls.iter().enumerate().skip(CALLS - 5 * SESSIONS) {
        assert!(
            call.get("result").is_some(),
            "call {i}, long after the kill, failed: {call}"
        );
    }
    eprintln!(
        "{} of {CALLS} calls failed when a replica was killed: {failed:?}",
        failed.len()
    );
}

/// POSTs one JSON-RPC message to a stateless server as a 2025-11-25 client without a session
/// does, and returns the response (its body not yet read).
async fn post(client: &reqwest::Client, url: &str, message: Value) -> reqwest::Response {
    client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        // The example grants a request without a caller only its read-only tools; a proxy in
        // front of it names its callers.
        .header("x-caller", "alice")
        .body(message.to_string())
        .send()
        .await
        .unwrap_or_else(|error| panic!("POST to {url} failed: {error}"))
}

async fn text_of(response: reqwest::Response) -> String {
    tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .expect("the answer ends within 10 s")
        .expect("the answer can be read")
}

fn call(id: u64, name: &str, arguments: Value) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    })
}

/// What the crate's docs say of serving without sessions, held to one replica: no session is
/// issued, there is no standing stream, a 2025-11-25 client cannot be asked (so the tool is
/// refused at once rather than waiting for an answer that could not arrive), and closing a
/// call's request cancels it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_replica_keeps_nothing_between_requests() {
    support::install_tls();
    let (_replica, url) = example_http_server(&["--stateless"]);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client");

    let initialize = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "cluster-test", "version": "1"},
        },
    });
    let answered = post(&client, &url, initialize).await;
    assert!(answered.status().is_success(), "{}", answered.status());
    assert!(
        answered.headers().get("mcp-session-id").is_none(),
        "a stateless server issues no session"
    );
    assert!(text_of(answered).await.contains("\"serverInfo\""));

    let standing = client
        .get(&url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("GET is answered");
    assert_eq!(
        standing.status(),
        405,
        "no standing stream to carry list_changed"
    );

    let written = post(
        &client,
        &url,
        call(2, "note_write", serde_json::json!({"text": "a"})),
    )
    .await;
    let written = text_of(written).await;
    assert!(
        written.contains("revision") && !written.contains(r#""isError":true"#),
        "{written}"
    );
    // The client declared elicitation in `initialize`, but no request after it carries that.
    let published = post(
        &client,
        &url,
        call(3, "note_publish", serde_json::json!({"id": 1})),
    )
    .await;
    let published = text_of(published).await;
    assert!(
        published.contains("cannot-ask"),
        "a 2025-11-25 client without a session cannot be asked: {published}"
    );

    let count = |id| {
        let client = client.clone();
        let url = url.clone();
        async move {
            text_of(post(&client, &url, call(id, "note_count", serde_json::json!({}))).await).await
        }
    };
    let slow = call(
        4,
        "note_reindex",
        serde_json::json!({"pace_ms": 1000, "passes": 55}),
    );
    let posted = Instant::now();
    let running = post(&client, &url, slow).await;
    // The answer's headers may come before the call has begun: wait until it runs.
    let mut runs = false;
    for () in support::patiently() {
        if count(5).await.contains("1 reindexing") {
            runs = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(runs, "the call runs");
    drop(running);
    let mut counted = String::new();
    for () in support::patiently() {
        counted = count(6).await;
        if counted.contains("0 reindexing") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Ended before its 55 s of passes could have: cancelled, not finished.
    assert!(
        counted.contains("0 reindexing") && posted.elapsed() < Duration::from_secs(50),
        "closing the request did not cancel the call: {counted} after {:?}",
        posted.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_check_the_same_tokens_sharing_nothing_but_the_issuer() {
    // The resource is the cluster's URL, which nginx serves; each replica checks tokens for it
    // with keys it fetches from the issuer itself.
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let (issuer, _issuer) = support::oidc::start(&resource);
    let args = [
        "--stateless",
        "--oauth-issuer",
        issuer.as_str(),
        "--resource",
        resource.as_str(),
    ];
    let cluster = Cluster::start_with("cluster-oauth", port, &args);
    assert_eq!(cluster.url, resource);

    let token = support::oidc::client_token(&issuer, "notes-reader", "notes:read", &resource).await;
    let client = reqwest::Client::new();
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let listed = |url: String, token: Option<String>| {
        let (client, list) = (client.clone(), list.clone());
        async move {
            let mut request = client
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/list")
                .body(list.to_string());
            if let Some(token) = token {
                request = request.header("authorization", format!("Bearer {token}"));
            }
            let answer = request.send().await.expect("an answer");
            let status = answer.status().as_u16();
            (status, answer.text().await.unwrap_or_default())
        }
    };
    // Each replica alone takes the token, and refuses a request without one.
    for upstream in &cluster.upstreams {
        let url = format!("http://{upstream}/mcp");
        let (status, body) = listed(url.clone(), Some(token.clone())).await;
        assert_eq!(status, 200, "{upstream}: {body}");
        assert!(
            body.contains("note_search") && !body.contains("note_write"),
            "{body}"
        );
        assert_eq!(listed(url, None).await.0, 401, "{upstream}");
    }
    // Through nginx, calls spread over the replicas are all taken.
    for _ in 0..30 {
        let (status, body) = listed(resource.clone(), Some(token.clone())).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(
        listed(resource.clone(), Some("not-a-token".into())).await.0,
        401
    );
    drop(cluster);
}
