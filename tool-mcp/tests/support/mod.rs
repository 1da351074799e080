//! What more than one of this crate's test files needs: the example server, the processes the
//! tests start, and the official MCP SDKs they drive.

// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

pub mod clients;
pub mod debian;
pub mod fenced;
pub mod lines;
pub mod nginx;
pub mod oidc;
pub mod process;
pub mod scripted;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use process::ChildGuard;

/// The example server's tools, in the order it lists them (its registry's).
pub const EXAMPLE_TOOLS: [&str; 8] = [
    "note_write",
    "note_search",
    "note_count",
    "note_reindex",
    "note_publish",
    "note_export",
    "note_summarize",
    "note_sources",
];

/// The example server's binary (`examples/mcp_server.rs`), built if missing or older than its
/// sources.
pub fn example_server() -> PathBuf {
    example("mcp_server")
}

/// The binary of the example `name` (in `examples/`), built again if it is missing or older
/// than a source its last build read: `cargo test -p tool-mcp` builds no examples, and a
/// binary left from before a change would test the old code. `cargo test --workspace` builds
/// them first, so there it is fresh and no build runs.
pub fn example(name: &str) -> PathBuf {
    // One check and build at a time: tests of one binary ask for it in parallel.
    static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = BUILDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let test_binary = std::env::current_exe().expect("the test binary has a path");
    let profile = test_binary
        .parent()
        .and_then(|deps| deps.parent())
        .expect("tests run from target/<profile>/deps");
    let binary = profile.join("examples").join(name);
    if stale(&binary) {
        // Cargo's profile `dev` builds into `debug`; any other into a folder of its name.
        let profile_name = match profile.file_name().and_then(|name| name.to_str()) {
            Some("debug") | None => "dev",
            Some(other) => other,
        };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .args(["build", "-p", "tool-examples", "--example", name])
            .args(["--profile", profile_name])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the example {name} failed");
    }
    binary
}

/// Whether `binary` is missing, or older than a source file its last build read: the files
/// cargo's dep-info beside it (`<binary>.d`) names, those of every crate of the workspace it
/// is built from.
fn stale(binary: &std::path::Path) -> bool {
    let modified =
        |path: &std::path::Path| std::fs::metadata(path).and_then(|meta| meta.modified());
    let Ok(built) = modified(binary) else {
        return true;
    };
    let Ok(dep_info) = std::fs::read_to_string(binary.with_extension("d")) else {
        return true;
    };
    let sources = dep_info.split_once(": ").map_or("", |(_, sources)| sources);
    sources.split_whitespace().any(|source| {
        modified(std::path::Path::new(source)).map_or(true, |changed| changed > built)
    })
}

/// The example server over streamable HTTP on a free local port, with `args` after
/// `--http 127.0.0.1:0`: the running server (stopped when dropped) and its URL.
pub fn example_http_server(args: &[&str]) -> (ChildGuard, String) {
    http_server(example_server(), args, "the example server")
}

/// The server `binary` (which takes `--http ADDR` and says `listening on URL`) on a free local
/// port, with `args` after `--http 127.0.0.1:0`; `what` names it in an error.
pub fn http_server(binary: PathBuf, args: &[&str], what: &str) -> (ChildGuard, String) {
    let mut server = ChildGuard::spawn(
        Command::new(binary)
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
        what,
    );
    let url = server.listening_on(what);
    (server, url)
}

/// The JSON-RPC answer with `id` in `body`, the body of an HTTP answer to `message`: one JSON
/// document, or server-sent events whose data lines each hold one.
pub fn answer_in(body: &str, id: u64, message: &serde_json::Value) -> serde_json::Value {
    let documents: Vec<serde_json::Value> = match serde_json::from_str(body) {
        Ok(document) => vec![document],
        Err(_) => body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect(),
    };
    documents
        .into_iter()
        .find(|answer| answer["id"] == id)
        .unwrap_or_else(|| panic!("no answer to {message} in {body:?}"))
}

/// Every JSON-RPC message in an HTTP answer's body: the body itself when it is one JSON
/// document, else the data of each server-sent event (each must be JSON).
pub fn messages_in(body: &str) -> Vec<serde_json::Value> {
    if body.trim_start().starts_with('{') {
        vec![serde_json::from_str(body).expect("a JSON body")]
    } else {
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .filter(|data| !data.is_empty())
            .map(|data| serde_json::from_str(data).expect("each event's data is JSON"))
            .collect()
    }
}

/// The headers MCP 2026-07-28 asks of a request that carries its protocol version in its
/// `_meta` (the version, the method and what it names: a tool, a resource, a task), as its client sends
/// them; none for any other message.
pub fn current_headers(message: &serde_json::Value) -> Vec<(&'static str, String)> {
    let version = &message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"];
    let Some(version) = version.as_str() else {
        return Vec::new();
    };
    let mut headers = vec![("mcp-protocol-version", version.to_owned())];
    if let Some(method) = message["method"].as_str() {
        headers.push(("mcp-method", method.to_owned()));
    }
    // What the method names: a tool or prompt, a resource, a task.
    let params = &message["params"];
    let name = (params["name"].as_str())
        .or_else(|| params["uri"].as_str())
        .or_else(|| params["taskId"].as_str());
    if let Some(name) = name {
        headers.push(("mcp-name", name.to_owned()));
    }
    headers
}

/// The tools of the deferred-loading tests: two note tools tagged `notes`, one of which a
/// grant may leave out, and a weather tool.
pub mod notebook {
    use tool_core::{Registry, tool};

    /// The three tools with deferred loading, `weather` listed always.
    pub fn deferred() -> Registry {
        Registry::builder()
            .tool(NoteWrite)
            .tool(NotePurge)
            .tool(Weather)
            .build()
            .expect("a registry")
            .with_deferred_loading(["weather"])
    }

    /// Writes a note to the notebook.
    #[tool(tags("notes"))]
    pub async fn note_write(text: String) -> String {
        format!("wrote {text}")
    }

    /// Deletes every note in the notebook.
    #[tool(tags("notes"))]
    pub async fn note_purge() -> String {
        "purged".to_owned()
    }

    /// Tells the weather forecast for a city.
    #[tool(readonly)]
    pub async fn weather(city: String) -> String {
        format!("sunny in {city}")
    }
}

/// A server of this process answering streamable HTTP at `http://{bound}/mcp` on a free local
/// port.
pub struct HttpServer {
    pub bound: std::net::SocketAddr,
    stop: tokio_util::sync::CancellationToken,
    serving: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    pub async fn serve(server: tool_mcp::McpServer) -> HttpServer {
        let stop = tokio_util::sync::CancellationToken::new();
        let shutdown = stop.clone();
        let (bound, serving) = server
            .bind_http("127.0.0.1:0".parse().unwrap(), async move {
                shutdown.cancelled().await
            })
            .await
            .unwrap();
        HttpServer {
            bound,
            stop,
            serving: tokio::spawn(serving),
        }
    }

    /// The address its clients post to.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.bound)
    }

    /// What `command`, a client script given the server's URL, `tool` and its `arguments`, saw
    /// of a fresh server of `server` (`clients::client_session`). The client runs as a child
    /// process, waited for off the runtime that serves it.
    #[allow(dead_code)] // Not every test binary drives a client script.
    pub async fn client_saw(
        server: tool_mcp::McpServer,
        mut command: Command,
        tool: &str,
        arguments: &serde_json::Value,
        what: &'static str,
    ) -> serde_json::Value {
        let http = HttpServer::serve(server).await;
        command.arg(http.url()).arg(tool).arg(arguments.to_string());
        let seen = tokio::task::spawn_blocking(move || clients::client_session(&mut command, what))
            .await
            .unwrap();
        http.stop().await;
        seen
    }

    /// Stops serving, waiting at most 5 s for it to end.
    pub async fn stop(self) {
        self.stop.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.serving).await;
    }
}

/// The rounds of a wait for something that happens in its own time (a task's state, a count
/// that settles): as many as fit in two minutes, so that a loaded machine is waited for and a
/// fast one is not. The caller sleeps between rounds.
#[allow(dead_code)] // Not every test binary waits.
pub fn patiently() -> impl Iterator<Item = ()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    std::iter::from_fn(move || (std::time::Instant::now() < deadline).then_some(()))
}

/// Where a test's `tracing` subscriber writes its lines, for the test to read.
#[allow(dead_code)] // Not every test binary reads its log.
#[derive(Clone, Default)]
pub struct Lines(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A 2025-11-25 client of a streamable-HTTP server in a session of its own: each message is
/// posted with the session's id, and each answer read whole within
/// [`ANSWER_LIMIT`](lines::ANSWER_LIMIT).
pub struct HttpSession {
    client: reqwest::Client,
    url: String,
    /// The session's id, as the server gave it.
    pub id: String,
}

impl HttpSession {
    /// Opens a session at `url`: `initialize`, then `notifications/initialized`.
    pub async fn open(url: &str) -> HttpSession {
        install_tls();
        let client = reqwest::Client::builder()
            .timeout(lines::ANSWER_LIMIT)
            .build()
            .expect("an HTTP client");
        let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "tool-mcp-tests", "version": "0"}}});
        let response = (posting(&client, url, initialize.to_string(), None).send())
            .await
            .expect("the server answers `initialize`");
        let id = (response.headers().get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .expect("a session")
            .to_owned();
        let session = HttpSession {
            client,
            url: url.to_owned(),
            id,
        };
        session
            .post(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    /// Posts `message` in the session; the answer's body.
    pub async fn post(&self, message: &serde_json::Value) -> String {
        self.post_text(message.to_string()).await
    }

    /// Posts `message`, JSON text as written (a key twice, say), in the session; the answer's
    /// body.
    pub async fn post_text(&self, message: String) -> String {
        let request = posting(&self.client, &self.url, message.clone(), Some(&self.id));
        let response = (request.send())
            .await
            .unwrap_or_else(|error| panic!("no answer to {message}: {error}"));
        (response.text().await).unwrap_or_else(|error| panic!("no answer to {message}: {error}"))
    }

    /// Ends the session with a `DELETE`, as a client that leaves does; the answer's status.
    pub async fn end(&self) -> u16 {
        end_session(&self.client, &self.url, &self.id).await
    }

    /// Posts request `message`, whose id is `id`, in the session; its answer.
    pub async fn request(&self, id: u64, message: &serde_json::Value) -> serde_json::Value {
        answer_in(&self.post(message).await, id, message)
    }
}

/// Posts `message`, JSON text as written, to a server without sessions at `url`; the answer's
/// body, read whole within [`ANSWER_LIMIT`](lines::ANSWER_LIMIT).
pub async fn post_without_session(url: &str, message: String) -> String {
    install_tls();
    let client = reqwest::Client::builder()
        .timeout(lines::ANSWER_LIMIT)
        .build()
        .expect("an HTTP client");
    let response = (posting(&client, url, message.clone(), None).send())
        .await
        .unwrap_or_else(|error| panic!("no answer to {message}: {error}"));
    (response.text().await).unwrap_or_else(|error| panic!("no answer to {message}: {error}"))
}

/// Asserts that `answer` is a JSON-RPC error of `code` whose message says each of `says`.
pub fn assert_refused(answer: &serde_json::Value, code: i64, says: &[&str]) {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or("");
    for said in says {
        assert!(message.contains(said), "{said:?} in {answer}");
    }
}

/// Opens a connection to `bound`, writes `sent` (a request cut short) and nothing more, and
/// returns what the server says until it closes the connection, within 60 s.
pub async fn stalled(bound: std::net::SocketAddr, sent: String) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut connection = tokio::net::TcpStream::connect(bound).await.unwrap();
    connection.write_all(sent.as_bytes()).await.unwrap();
    let mut said = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        connection.read_to_end(&mut said),
    )
    .await
    .expect("the server closes a stalled connection");
    // A reset closes it too.
    drop(read);
    String::from_utf8_lossy(&said).into_owned()
}

/// Ends the session `id` at `url` with a `DELETE`, as a 2025-11-25 client that leaves does;
/// the answer's status.
pub async fn end_session(client: &reqwest::Client, url: &str, id: &str) -> u16 {
    let response = (client.delete(url))
        .header("mcp-session-id", id)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("the server answers a DELETE");
    response.status().as_u16()
}

/// A POST of `message` to `url` as a 2025-11-25 client sends it, in `session` once it has one.
fn posting(
    client: &reqwest::Client,
    url: &str,
    message: String,
    session: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = (client.post(url))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message);
    match session {
        Some(id) => request
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25"),
        None => request,
    }
}

/// How many of a test's handlers are running: each holds what [`Running::enter`] gives while
/// it runs, so that one the server dropped counts no more.
#[derive(Clone, Default)]
pub struct Running(std::sync::Arc<std::sync::atomic::AtomicUsize>);

/// One running handler in a [`Running`] count, taken out when dropped.
pub struct Entered(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl Running {
    /// Counts a handler in until the returned guard is dropped.
    pub fn enter(&self) -> Entered {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Entered(self.0.clone())
    }

    /// How many are running now.
    pub fn now(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Waits until `count` are running, or two minutes have passed; whether they are.
    pub async fn until(&self, count: usize) -> bool {
        for () in patiently() {
            if self.now() == count {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.now() == count
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Installs ring's TLS provider for the process, as a host does before it makes an HTTP client
/// with the `remote` or `oauth` feature (reqwest has rustls there, without a provider of its
/// own); nothing when one is installed already.
// rustls deprecates ring's provider for its lack of post-quantum key exchange, which these
// tests' connections to their own machine do not need; ring is what the crate builds.
#[allow(deprecated)]
pub fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
