//! Both MCP revisions served by one server, checked on the wire: the example server answers a
//! 2025-11-25 client (the `initialize` handshake, then a session) and a 2026-07-28 client (no
//! handshake: `server/discover`, then requests that each carry their protocol version) over
//! stdio and over streamable HTTP, and both see the same tools and the same call results; only
//! the envelope differs (`resultType` and the caching hints of 2026-07-28). The messages are
//! written by hand, as JSON lines on the server's stdin and as HTTP POSTs, so that what is
//! checked is what goes over the wire, not what an SDK makes of it.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};
use support::process::ChildGuard;
use support::{example_http_server, example_server};
use tool_core::{Collision, Registry, tool};
use tool_mcp::McpServer;

mod support;

const LEGACY: &str = "2025-11-25";
const CURRENT: &str = "2026-07-28";

/// How long the server may take to answer one message before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(20);

/// The `_meta` every 2026-07-28 request carries in place of a session.
fn current_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": CURRENT,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// What a client of one revision saw: the answer that opened it (`initialize` or
/// `server/discover`), `tools/list`, a good call and a refused one (each the `result`).
#[derive(Debug)]
struct Seen {
    opening: Value,
    list: Value,
    good: Value,
    bad: Value,
}

/// The requests after the opening one, ids 2 to 4, with `meta` in their params when given.
fn list_and_calls(meta: Option<Value>) -> [Value; 3] {
    let mut requests = [
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "note_search", "arguments": {"filter": {"tags": []}}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "note_search", "arguments": {"filter": {"tags": [7]}, "colour": "red"}}}),
    ];
    if let Some(meta) = meta {
        for request in &mut requests {
            request["params"]["_meta"] = meta.clone();
        }
    }
    requests
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "revisions", "version": "0"}}})
}

fn discover() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
           "params": {"_meta": current_meta()}})
}

/// The `result` of a JSON-RPC answer, or a panic showing the whole answer.
fn result_of(answer: Value) -> Value {
    match answer.get("result") {
        Some(result) => result.clone(),
        None => panic!("expected a result, the server answered {answer}"),
    }
}

/// The example server over stdio: lines in, lines out.
struct StdioServer {
    _server: ChildGuard,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl StdioServer {
    fn start() -> StdioServer {
        let mut server = ChildGuard::spawn(
            Command::new(example_server())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
            "the example server",
        );
        let stdin = server.stdin.take().expect("stdin is piped");
        let stdout = server.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        StdioServer {
            _server: server,
            stdin,
            lines,
        }
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("the server reads its stdin");
        self.stdin.flush().expect("the server reads its stdin");
    }

    /// Sends a request and returns the answer with its id, passing over notifications.
    fn request(&mut self, request: &Value) -> Value {
        self.request_hearing(request).1
    }

    /// Sends a request and returns the notifications that came before its answer, and the
    /// answer.
    fn request_hearing(&mut self, request: &Value) -> (Vec<Value>, Value) {
        self.send(request);
        let mut notices = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(ANSWER_LIMIT)
                .unwrap_or_else(|_| panic!("no answer to {request} within {ANSWER_LIMIT:?}"));
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|error| {
                panic!("the server wrote a line that is not JSON ({error}): {line}")
            });
            if message.get("id") == request.get("id") {
                return (notices, message);
            }
            if message.get("id").is_none() {
                notices.push(message);
            }
        }
    }

    fn legacy() -> Seen {
        let mut server = StdioServer::start();
        let opening = result_of(server.request(&initialize()));
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let [list, good, bad] =
            list_and_calls(None).map(|request| result_of(server.request(&request)));
        Seen {
            opening,
            list,
            good,
            bad,
        }
    }

    fn current() -> Seen {
        let mut server = StdioServer::start();
        let opening = result_of(server.request(&discover()));
        let [list, good, bad] =
            list_and_calls(Some(current_meta())).map(|request| result_of(server.request(&request)));
        Seen {
            opening,
            list,
            good,
            bad,
        }
    }
}

/// Streamable HTTP to the example server at `url`.
struct Http {
    client: reqwest::Client,
    url: String,
}

impl Http {
    /// POSTs `message` with `headers`; the answer's JSON-RPC messages (one JSON body, or the
    /// `data:` of each server-sent event) and its session id, if it gave one.
    async fn post(
        &self,
        message: &Value,
        headers: &[(&str, String)],
    ) -> (Vec<Value>, Option<String>) {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            // The example grants a request without a caller only its read-only tools; a proxy
            // in front of it names its callers.
            .header("x-caller", "alice")
            .body(message.to_string());
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let response = tokio::time::timeout(ANSWER_LIMIT, request.send())
            .await
            .unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
            .expect("the server answers HTTP");
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let body = tokio::time::timeout(ANSWER_LIMIT, response.text())
            .await
            .unwrap_or_else(|_| {
                panic!("the answer to {message} did not end within {ANSWER_LIMIT:?}")
            })
            .expect("the answer's body reads");
        assert!(
            status.is_success(),
            "{message} was answered {status}: {body}"
        );
        let messages = support::messages_in(&body);
        (messages, session)
    }

    /// POSTs a request and returns the answer with its id.
    async fn request(
        &self,
        request: &Value,
        headers: &[(&str, String)],
    ) -> (Value, Option<String>) {
        let (messages, session) = self.post(request, headers).await;
        let answer = messages
            .into_iter()
            .find(|message| message.get("id") == request.get("id"))
            .unwrap_or_else(|| panic!("no answer with the id of {request}"));
        (answer, session)
    }

    async fn legacy(&self) -> Seen {
        let (opening, session) = self.request(&initialize(), &[]).await;
        let session = session.expect("a 2025-11-25 client gets a session from `initialize`");
        let headers = [
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY.to_owned()),
        ];
        self.post(
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            &headers,
        )
        .await;
        let mut results = Vec::new();
        for request in list_and_calls(None) {
            results.push(result_of(self.request(&request, &headers).await.0));
        }
        let [list, good, bad] = <[Value; 3]>::try_from(results).expect("three answers");
        Seen {
            opening: result_of(opening),
            list,
            good,
            bad,
        }
    }

    /// A 2026-07-28 request: its version in a header as well as in `_meta`, and its method
    /// (and for a call, the tool's name) in the headers that revision has proxies route on.
    async fn current_request(&self, request: &Value) -> Value {
        let mut headers = vec![
            ("mcp-protocol-version", CURRENT.to_owned()),
            (
                "mcp-method",
                request["method"].as_str().unwrap_or_default().to_owned(),
            ),
        ];
        if let Some(name) = request["params"]["name"].as_str() {
            headers.push(("mcp-name", name.to_owned()));
        }
        let (answer, session) = self.request(request, &headers).await;
        assert_eq!(
            session, None,
            "a 2026-07-28 request gets no session: {answer}"
        );
        result_of(answer)
    }

    async fn current(&self) -> Seen {
        let opening = self.current_request(&discover()).await;
        let mut results = Vec::new();
        for request in list_and_calls(Some(current_meta())) {
            results.push(self.current_request(&request).await);
        }
        let [list, good, bad] = <[Value; 3]>::try_from(results).expect("three answers");
        Seen {
            opening,
            list,
            good,
            bad,
        }
    }
}

/// The revision-specific part of a result: what 2026-07-28 adds around the same content.
const ENVELOPE: [&str; 3] = ["resultType", "ttlMs", "cacheScope"];

/// A result without its envelope.
fn content_of(result: &Value) -> Value {
    let mut result = result.clone();
    if let Some(object) = result.as_object_mut() {
        for key in ENVELOPE {
            object.remove(key);
        }
    }
    result
}

/// Everything both revisions must agree on, over one transport; returns the tools listed.
fn check_revisions(transport: &str, legacy: &Seen, current: &Seen) -> Value {
    // The handshake of 2025-11-25 and the discovery of 2026-07-28 name the same server.
    assert_eq!(
        legacy.opening["protocolVersion"], LEGACY,
        "{transport}: {}",
        legacy.opening
    );
    assert_eq!(legacy.opening["serverInfo"]["name"], "notes");
    assert!(legacy.opening["capabilities"]["tools"].is_object());
    let discovered = &current.opening;
    assert_eq!(
        discovered["resultType"], "complete",
        "{transport}: {discovered}"
    );
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "notes",
        "{transport}: {discovered}"
    );
    assert_eq!(discovered["capabilities"], legacy.opening["capabilities"]);
    let versions = discovered["supportedVersions"]
        .as_array()
        .expect("supportedVersions");
    for version in [LEGACY, CURRENT] {
        assert!(
            versions.contains(&json!(version)),
            "{transport}: {discovered}"
        );
    }

    // A list may differ by caller and change at any time: private, and not to be reused.
    assert_eq!(current.list["ttlMs"], 0, "{transport}: {}", current.list);
    assert_eq!(
        current.list["cacheScope"], "private",
        "{transport}: {}",
        current.list
    );
    // `resultType` (and the caching hints) for 2026-07-28 only; the rest the same.
    for (legacy_result, current_result, what) in [
        (&legacy.list, &current.list, "tools/list"),
        (&legacy.good, &current.good, "a good call"),
        (&legacy.bad, &current.bad, "a refused call"),
    ] {
        for key in ENVELOPE {
            assert_eq!(
                legacy_result.get(key),
                None,
                "{transport}, {what}: {legacy_result}"
            );
        }
        assert_eq!(
            current_result["resultType"], "complete",
            "{transport}, {what}: {current_result}"
        );
        assert_eq!(
            content_of(legacy_result),
            content_of(current_result),
            "{transport}, {what}"
        );
    }
    for key in ["content", "structuredContent", "isError"] {
        assert_eq!(
            legacy.good.get(key),
            current.good.get(key),
            "{transport}: {key}"
        );
        assert_eq!(
            legacy.bad.get(key),
            current.bad.get(key),
            "{transport}: {key}"
        );
    }

    // The tools, in the registry's order, with the icon one of them has.
    let tools = &legacy.list["tools"];
    let names: Vec<&str> = tools
        .as_array()
        .expect("a list of tools")
        .iter()
        .map(|tool| tool["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(names, support::EXAMPLE_TOOLS);
    assert_eq!(
        tools[1]["icons"],
        json!([{"src": "https://example.com/icons/note-search.svg",
                "mimeType": "image/svg+xml", "sizes": ["any"]}])
    );

    // A good call's structured output, and a refusal as a tool error with its text form.
    assert_eq!(legacy.good["isError"], false);
    assert_eq!(legacy.good["structuredContent"], json!({"notes": []}));
    assert_eq!(legacy.bad["isError"], true);
    let refusal = legacy.bad["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        refusal.starts_with("refused\tbad-arguments\t"),
        "{transport}: {refusal}"
    );
    tools.clone()
}

#[test]
fn stdio_answers_both_revisions_alike() {
    let legacy = StdioServer::legacy();
    let current = StdioServer::current();
    check_revisions("stdio", &legacy, &current);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_both_revisions_alike_from_one_server() {
    let (_server, url) = example_http_server(&[]);
    // reqwest is built here with rmcp's TLS features, which need a process-wide crypto
    // provider even for plain http.
    support::install_tls();
    let http = Http {
        client: reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("an HTTP client"),
        url,
    };
    let legacy = http.legacy().await;
    let current = http.current().await;
    let http_tools = check_revisions("http", &legacy, &current);

    // And the same over either transport.
    let stdio = tokio::task::spawn_blocking(StdioServer::current)
        .await
        .expect("the stdio client ran");
    assert_eq!(content_of(&stdio.list)["tools"], http_tools);
    assert_eq!(content_of(&stdio.good), content_of(&current.good));
    assert_eq!(content_of(&stdio.bad), content_of(&current.bad));
}

/// The `(level, data)` of each `notifications/message` among `notices`, each from `logger`.
fn log_messages(notices: &[Value], logger: &str) -> Vec<(String, Value)> {
    notices
        .iter()
        .filter(|notice| notice["method"] == "notifications/message")
        .map(|notice| {
            assert_eq!(notice["params"]["logger"], logger, "{notice}");
            (
                notice["params"]["level"].as_str().unwrap_or("").to_owned(),
                notice["params"]["data"].clone(),
            )
        })
        .collect()
}

fn reindex(id: u64, meta: Option<Value>) -> Value {
    let mut request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "note_reindex", "arguments": {"pace_ms": 1, "passes": 1}}});
    if let Some(meta) = meta {
        request["params"]["_meta"] = meta;
    }
    request
}

#[test]
fn a_2025_11_25_session_hears_a_tools_log_at_the_level_it_set() {
    let mut server = StdioServer::start();
    let opening = result_of(server.request(&initialize()));
    assert_eq!(opening["capabilities"]["logging"], json!({}), "{opening}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let started = json!("reindexing 1 notes in 1 passes");
    let ended = json!({"reindexed": 1, "passes": 1});

    // Before any `logging/setLevel`, everything is sent, before the result.
    let (notices, answer) = server.request_hearing(&reindex(2, None));
    assert_eq!(result_of(answer)["isError"], false);
    assert_eq!(
        log_messages(&notices, "note_reindex"),
        [
            ("info".to_owned(), started.clone()),
            ("notice".to_owned(), ended.clone())
        ]
    );

    let set = json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel",
                     "params": {"level": "notice"}});
    assert_eq!(result_of(server.request(&set)), json!({}));
    let (notices, _) = server.request_hearing(&reindex(4, None));
    assert_eq!(
        log_messages(&notices, "note_reindex"),
        [("notice".to_owned(), ended)],
        "below the level set, nothing is sent"
    );

    let unknown = json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel",
                         "params": {"level": "verbose"}});
    let refused = server.request(&unknown);
    support::assert_refused(
        &refused,
        -32602,
        &["`verbose` is no log level: write one of debug, info"],
    );
}

#[test]
fn a_2026_07_28_request_hears_a_tools_log_only_at_the_level_its_meta_names() {
    let mut server = StdioServer::start();
    result_of(server.request(&discover()));
    let (notices, answer) = server.request_hearing(&reindex(2, Some(current_meta())));
    assert_eq!(result_of(answer)["isError"], false);
    assert_eq!(
        log_messages(&notices, "note_reindex"),
        [],
        "without a level in its `_meta`, a request hears no log"
    );
    let mut meta = current_meta();
    meta["io.modelcontextprotocol/logLevel"] = json!("info");
    let (notices, _) = server.request_hearing(&reindex(3, Some(meta)));
    assert_eq!(
        log_messages(&notices, "note_reindex")
            .into_iter()
            .map(|(level, _)| level)
            .collect::<Vec<_>>(),
        ["info", "notice"]
    );

    // A level MCP does not have is refused before the tool runs, saying which there are.
    for (id, named, says) in [
        (
            4,
            json!("verbose"),
            "`verbose` is no log level: write one of debug, info",
        ),
        (5, json!(7), "must be text, one of debug, info"),
    ] {
        let mut meta = current_meta();
        meta["io.modelcontextprotocol/logLevel"] = named;
        let (notices, refused) = server.request_hearing(&reindex(id, Some(meta)));
        support::assert_refused(
            &refused,
            -32602,
            &["`_meta[\"io.modelcontextprotocol/logLevel\"]`", says],
        );
        assert_eq!(log_messages(&notices, "note_reindex"), [], "{notices:?}");
    }
    // A `null` names no level: the call runs, and hears no log.
    let mut meta = current_meta();
    meta["io.modelcontextprotocol/logLevel"] = Value::Null;
    let (notices, answer) = server.request_hearing(&reindex(6, Some(meta)));
    assert_eq!(result_of(answer)["isError"], false);
    assert_eq!(log_messages(&notices, "note_reindex"), [], "{notices:?}");
}

#[test]
fn a_2026_07_28_logging_set_level_is_refused_since_that_revision_removed_it() {
    let mut server = StdioServer::start();
    result_of(server.request(&discover()));
    // A level MCP has and one it does not: both are told the method is gone, and where the
    // level goes instead.
    for (id, level) in [(2, "debug"), (3, "verbose")] {
        let set = json!({"jsonrpc": "2.0", "id": id, "method": "logging/setLevel",
                         "params": {"level": level, "_meta": current_meta()}});
        let refused = server.request(&set);
        support::assert_refused(
            &refused,
            -32601,
            &[
                "2026-07-28 has no `logging/setLevel`",
                "`_meta` as `io.modelcontextprotocol/logLevel`",
            ],
        );
    }
    // The connection serves on.
    let (_, answer) = server.request_hearing(&reindex(4, Some(current_meta())));
    assert_eq!(result_of(answer)["isError"], false);
}

#[test]
fn a_tools_list_cursor_is_refused_in_both_revisions_since_none_is_ever_given() {
    let mut server = StdioServer::start();
    result_of(server.request(&initialize()));
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let listed = result_of(server.request(&list_and_calls(None)[0]));
    assert!(listed.get("nextCursor").is_none(), "{listed}");
    for meta in [None, Some(current_meta())] {
        let mut list = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list",
                              "params": {"cursor": "page-2"}});
        if let Some(meta) = meta {
            list["params"]["_meta"] = meta;
        }
        let refused = server.request(&list);
        support::assert_refused(
            &refused,
            -32602,
            &[
                "`cursor` \"page-2\" is none this server gave",
                "send `tools/list` without a cursor",
            ],
        );
    }
}

#[test]
fn a_2026_07_28_request_of_an_unsupported_version_is_refused_naming_the_supported_ones() {
    let mut server = StdioServer::start();
    let mut meta = current_meta();
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let answer = server.request(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                                        "params": {"_meta": meta}}));
    let error = &answer["error"];
    assert!(error.is_object(), "{answer}");
    assert!(error.to_string().contains(CURRENT), "{answer}");
}

/// Says hi.
#[tool(readonly)]
async fn hi() -> &'static str {
    "hi"
}

/// Says bye.
#[tool(readonly)]
async fn bye() -> &'static str {
    "bye"
}

/// A 2026-07-28 client has no session to be told of changes on: it opens
/// `subscriptions/listen`, and hears of the tool list's changes there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_client_hears_of_tool_list_changes_on_its_listen_stream() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    let registry = Registry::builder().tool(Hi).build().expect("a registry");
    let server = McpServer::new(registry.clone());
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (reader, writer) = tokio::io::split(server_end);
        let _ = server.serve_lines(reader, writer).await;
    });
    let (reader, mut writer) = tokio::io::split(client_end);
    let mut lines = tokio::io::BufReader::new(reader).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(ANSWER_LIMIT, lines.next_line())
            .await
            .expect("the server says something")
            .expect("the pipe reads")
            .expect("the pipe stays open");
        serde_json::from_str(&line).expect("a JSON line")
    };

    let listen = json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true, "promptsListChanged": true},
        "_meta": current_meta()}});
    writer
        .write_all(format!("{listen}\n").as_bytes())
        .await
        .expect("the pipe writes");
    let acknowledged = next().await;
    assert_eq!(
        acknowledged["method"], "notifications/subscriptions/acknowledged",
        "{acknowledged}"
    );
    // Only what the server sends is accepted: no prompts here.
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({"toolsListChanged": true}),
        "{acknowledged}"
    );

    let more = Registry::builder().tool(Bye).build().expect("a registry");
    registry.merge(&more, Collision::Error).expect("bye is new");
    let changed = next().await;
    assert_eq!(
        changed["method"], "notifications/tools/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "the notice names its stream: {changed}"
    );
}
