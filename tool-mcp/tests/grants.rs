//! Who may use which tool over HTTP. The example server reads the caller from an `x-caller`
//! header, as a proxy in front of it would set it: a request without one only reads, `guest`
//! searches and counts, any other named caller uses every tool. And a server that names its
//! callers grants a request without one nothing unless the host says otherwise. Checked on the
//! wire, in both MCP revisions, with the messages written by hand.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::Grant;
use tool_mcp::McpServer;

mod support;

const LEGACY: &str = "2025-11-25";
const CURRENT: &str = "2026-07-28";

/// How long one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(20);

/// What one caller of one revision saw: the tools listed, and the result of a call of
/// `note_write`.
struct Seen {
    listed: Vec<Value>,
    write: Value,
}

impl Seen {
    fn names(&self) -> Vec<&str> {
        self.listed
            .iter()
            .map(|tool| tool["name"].as_str().expect("a tool has a name"))
            .collect()
    }

    /// The text of the write's result, and whether it is an error.
    fn write_text(&self) -> (&str, bool) {
        (
            self.write["content"][0]["text"]
                .as_str()
                .unwrap_or_default(),
            self.write["isError"].as_bool().unwrap_or(false),
        )
    }
}

/// Lists the tools and calls `note_write` as `caller` (or as nobody), in `revision`.
async fn as_caller(url: &str, caller: Option<&str>, revision: &str) -> Seen {
    support::install_tls();
    let client = reqwest::Client::new();
    let mut headers: Vec<(&str, String)> = Vec::new();
    if let Some(caller) = caller {
        headers.push(("x-caller", caller.to_owned()));
    }
    let mut meta = None;
    if revision == LEGACY {
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "grants", "version": "0"}}});
        let (_, session) = post(&client, url, &initialize, &headers).await;
        let session = session.expect("a 2025-11-25 client is given a session");
        headers.push(("mcp-session-id", session));
        headers.push(("mcp-protocol-version", LEGACY.to_owned()));
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(&client, url, &initialized, &headers).await;
    } else {
        meta = Some(json!({
            "io.modelcontextprotocol/protocolVersion": CURRENT,
            "io.modelcontextprotocol/clientCapabilities": {},
        }));
    }
    let with_meta = |mut message: Value| {
        if let Some(meta) = &meta {
            message["params"]["_meta"] = meta.clone();
        }
        message
    };
    let list = with_meta(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}));
    let write = with_meta(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "note_write", "arguments": {"text": "from the grants test"}}}),
    );
    let listed = result(&client, url, &list, &headers).await["tools"]
        .as_array()
        .expect("a list of tools")
        .clone();
    let write = result(&client, url, &write, &headers).await;
    Seen { listed, write }
}

/// The `result` of the answer to `request`.
async fn result(
    client: &reqwest::Client,
    url: &str,
    request: &Value,
    headers: &[(&str, String)],
) -> Value {
    let (messages, _) = post(client, url, request, headers).await;
    let answer = messages
        .into_iter()
        .find(|message| message.get("id") == request.get("id"))
        .unwrap_or_else(|| panic!("no answer to {request}"));
    match answer.get("result") {
        Some(result) => result.clone(),
        None => panic!("expected a result, the server answered {answer}"),
    }
}

/// Posts one JSON-RPC message: the messages of the answer, and its session id if it has one.
async fn post(
    client: &reqwest::Client,
    url: &str,
    message: &Value,
    headers: &[(&str, String)],
) -> (Vec<Value>, Option<String>) {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message.to_string());
    for (name, value) in headers
        .iter()
        .cloned()
        .chain(support::current_headers(message))
    {
        request = request.header(name, value);
    }
    let response = tokio::time::timeout(ANSWER_LIMIT, request.send())
        .await
        .unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
        .expect("the server answers HTTP");
    let status = response.status();
    let session = (response.headers().get("mcp-session-id"))
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let body = tokio::time::timeout(ANSWER_LIMIT, response.text())
        .await
        .unwrap_or_else(|_| panic!("the answer to {message} did not end within {ANSWER_LIMIT:?}"))
        .expect("the answer's body reads");
    assert!(
        status.is_success(),
        "{message} was answered {status}: {body}"
    );
    match body.trim() {
        "" => (Vec::new(), session),
        body => (support::messages_in(body), session),
    }
}

#[tokio::test]
async fn the_example_grants_a_request_without_a_caller_only_what_reads() {
    let (_server, url) = support::example_http_server(&[]);
    for revision in [LEGACY, CURRENT] {
        let anonymous = as_caller(&url, None, revision).await;
        assert!(!anonymous.listed.is_empty(), "{revision}: it may read");
        for tool in &anonymous.listed {
            assert_eq!(
                tool["annotations"]["readOnlyHint"], true,
                "{revision}: a request without a caller was listed {tool}"
            );
        }
        assert!(!anonymous.names().contains(&"note_write"), "{revision}");
        let (text, is_error) = anonymous.write_text();
        assert!(is_error, "{revision}: it wrote: {text}");
        assert!(
            text.starts_with("refused\tnot-permitted\t"),
            "{revision}: {text}"
        );

        let alice = as_caller(&url, Some("alice"), revision).await;
        assert_eq!(alice.names(), support::EXAMPLE_TOOLS, "{revision}");
        let (text, is_error) = alice.write_text();
        assert!(!is_error, "{revision}: alice could not write: {text}");

        let guest = as_caller(&url, Some("guest"), revision).await;
        assert_eq!(guest.names(), ["note_search", "note_count"], "{revision}");
        assert!(guest.write_text().1, "{revision}: the guest wrote");
    }
}

#[tokio::test]
async fn a_server_that_names_its_callers_grants_a_request_without_one_nothing_unless_told() {
    let notebook = || {
        tool_core::Registry::builder()
            .tool(support::notebook::NoteWrite)
            .tool(support::notebook::Weather)
            .build()
            .expect("a registry")
    };
    let named = || {
        McpServer::new(notebook())
            .with_caller(|parts| {
                let caller = parts.headers.get("x-caller")?.to_str().ok()?;
                Some(caller.to_owned())
            })
            .with_grant(|_| Grant::all())
    };
    let closed = support::HttpServer::serve(named()).await;
    let open = support::HttpServer::serve(named().with_anonymous(Grant::all())).await;
    // A server with neither hook checks no one.
    let unchecked = support::HttpServer::serve(McpServer::new(notebook())).await;
    for revision in [LEGACY, CURRENT] {
        let nobody = as_caller(&closed.url(), None, revision).await;
        assert!(nobody.listed.is_empty(), "{revision}: {:?}", nobody.names());
        let (text, is_error) = nobody.write_text();
        assert!(
            is_error && text.starts_with("refused\tnot-permitted\t"),
            "{revision}: {text}"
        );
        let alice = as_caller(&closed.url(), Some("alice"), revision).await;
        assert!(
            !alice.write_text().1,
            "{revision}: {:?}",
            alice.write_text()
        );

        for server in [&open, &unchecked] {
            let nobody = as_caller(&server.url(), None, revision).await;
            assert_eq!(nobody.names(), ["note_write", "weather"], "{revision}");
            assert!(
                !nobody.write_text().1,
                "{revision}: {:?}",
                nobody.write_text()
            );
        }
    }
    closed.stop().await;
    open.stop().await;
    unchecked.stop().await;
}

#[tokio::test]
async fn a_hook_that_panics_grants_nothing_and_every_request_is_answered() {
    let registry = tool_core::Registry::builder()
        .tool(support::notebook::NoteWrite)
        .tool(support::notebook::Weather)
        .build()
        .expect("a registry");
    let server = McpServer::new(registry)
        .with_caller(|parts| {
            let caller = parts.headers.get("x-caller")?.to_str().ok()?;
            assert_ne!(caller, "crash", "a caller the hook cannot name");
            Some(caller.to_owned())
        })
        .with_grant(|caller| {
            assert_ne!(caller, "boom", "a caller the hook cannot grant");
            Grant::all()
        });
    let server = support::HttpServer::serve(server).await;
    for revision in [LEGACY, CURRENT] {
        for caller in ["crash", "boom"] {
            let seen = as_caller(&server.url(), Some(caller), revision).await;
            assert!(
                seen.listed.is_empty(),
                "{revision} {caller}: {:?}",
                seen.names()
            );
            let (text, is_error) = seen.write_text();
            assert!(
                is_error && text.starts_with("refused\tnot-permitted\t"),
                "{revision} {caller}: {text}"
            );
        }
        let alice = as_caller(&server.url(), Some("alice"), revision).await;
        assert_eq!(alice.names(), ["note_write", "weather"], "{revision}");
    }
    server.stop().await;
}

#[test]
fn the_example_server_refuses_an_argument_it_would_otherwise_ignore() {
    // An argument the server would ignore stops it, saying what to write: a misspelt
    // `--confirm` would serve without confirmation, `--redis` over stdio would keep nothing.
    let cases: [(&[&str], &str); 4] = [
        (
            &["--http", "127.0.0.1:0", "--confrim"],
            "unknown argument `--confrim`",
        ),
        (
            &["--http", "--confrim"],
            "--http takes HOST:PORT, as --http 127.0.0.1:8000, not `--confrim`",
        ),
        (
            &["--redis", "--http"],
            "--redis takes a value, as --redis redis://127.0.0.1:6379",
        ),
        (
            &["--redis", "redis://127.0.0.1:6379"],
            "--redis is for HTTP",
        ),
    ];
    for (args, said) in cases {
        // Served instead of refused, the server would be stopped at the limit, and the test fail.
        let mut command = std::process::Command::new(support::example_server());
        command.args(args);
        let ran =
            support::process::run_within(&mut command, Duration::from_secs(120), "the server");
        assert!(
            !ran.status.success() && ran.stderr.contains(said),
            "{args:?}: {}",
            ran.stderr
        );
    }
}
