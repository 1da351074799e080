//! Calls run as tasks over MCP 2026-07-28 (the tasks extension, `io.modelcontextprotocol/tasks`),
//! driven as raw JSON-RPC over stdio and streamable HTTP against the example server (whose
//! `note_export` is a task), and over lines in process against a server of test tools: a task
//! is polled to its result (the one a direct call gives), shows its progress, is cancelled
//! mid-way with its handler stopped, asks a question answered with `tasks/update`, is gone
//! with a clear error past its time to live, belongs to whoever started it, and each bad
//! request gets a clear error that disturbs nothing. A 2025-11-25 session calls the same tool
//! as a plain call.
//!
//! The Python SDK (`mcp` 2.3.0) has no client for the tasks extension (only its types, and a
//! generic extension hook), so these tests speak JSON-RPC themselves.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tool_core::{Answer, Context, Refusal, Registry, tool};
use tool_mcp::McpServer;

mod support;

/// How long any one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(60);

/// The `_meta` of a 2026-07-28 request: the protocol version, the client, and its capabilities,
/// with the tasks extension or without.
fn meta(tasks: bool) -> Value {
    let extensions = if tasks {
        json!({"io.modelcontextprotocol/tasks": {}})
    } else {
        json!({})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
    })
}

/// A client speaking JSON-RPC to one server, over lines or over HTTP.
enum Client {
    Lines {
        writer: Box<dyn AsyncWrite + Send + Unpin>,
        lines: Box<Lines<BufReader<Box<dyn AsyncRead + Send + Unpin>>>>,
        /// The server process, when the lines are its stdio; killed when dropped.
        _child: Option<tokio::process::Child>,
        next: u64,
    },
    Http {
        http: reqwest::Client,
        url: String,
        caller: Option<String>,
        /// The `Mcp-Session-Id` of a 2025-11-25 session; without one, each request is a
        /// 2026-07-28 request of its own.
        session: Option<String>,
        next: u64,
    },
}

impl Client {
    /// The example server over its stdio, started with `args`.
    fn stdio(args: &[&str]) -> Client {
        let mut child = tokio::process::Command::new(support::example_server())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the example server starts");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        Client::Lines {
            writer: Box::new(stdin),
            lines: Box::new(
                BufReader::new(Box::new(stdout) as Box<dyn AsyncRead + Send + Unpin>).lines(),
            ),
            _child: Some(child),
            next: 0,
        }
    }

    /// `server` in this process, over lines.
    fn in_process(server: McpServer) -> Client {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (their_reader, their_writer) = tokio::io::split(theirs);
        tokio::spawn(server.serve_lines(their_reader, their_writer));
        let (reader, writer) = tokio::io::split(ours);
        Client::Lines {
            writer: Box::new(writer),
            lines: Box::new(
                BufReader::new(Box::new(reader) as Box<dyn AsyncRead + Send + Unpin>).lines(),
            ),
            _child: None,
            next: 0,
        }
    }

    /// A caller of the HTTP server at `url`, named by the example's `x-caller` header.
    fn http(url: &str, caller: Option<&str>) -> Client {
        // reqwest is built with rmcp's TLS features, which need a process-wide crypto provider
        // even for plain http.
        support::install_tls();
        Client::Http {
            http: reqwest::Client::builder().no_proxy().build().unwrap(),
            url: url.to_owned(),
            caller: caller.map(str::to_owned),
            session: None,
            next: 0,
        }
    }

    /// A 2025-11-25 session with the HTTP server at `url` (the `initialize` handshake), whose
    /// client declares the tasks extension in its capabilities, as a legacy client of the
    /// extension does.
    async fn http_session(url: &str) -> Client {
        // Named, as the example's proxy would name it: a request without a caller only reads.
        let mut client = Client::http(url, Some("alice"));
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
                "clientInfo": {"name": "tasks-test", "version": "1"},
            },
        });
        let Client::Http { http, session, .. } = &mut client else {
            unreachable!("an HTTP client")
        };
        let response = http
            .post(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(initialize.to_string())
            .send()
            .await
            .unwrap();
        let id = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        response.text().await.unwrap();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        http.post(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25")
            .header("mcp-session-id", id.as_str())
            .body(initialized.to_string())
            .send()
            .await
            .unwrap();
        *session = Some(id);
        client
    }

    /// Sends a request and returns the JSON-RPC response to it (`result` or `error`).
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let (id, message) = match self {
            Client::Lines { next, .. } | Client::Http { next, .. } => {
                *next += 1;
                let message =
                    json!({"jsonrpc": "2.0", "id": *next, "method": method, "params": params});
                (*next, message)
            }
        };
        let answer = tokio::time::timeout(ANSWER_LIMIT, self.send(id, method, &message)).await;
        answer.unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
    }

    async fn send(&mut self, id: u64, method: &str, message: &Value) -> Value {
        match self {
            Client::Lines { writer, lines, .. } => {
                let mut line = message.to_string();
                line.push('\n');
                writer.write_all(line.as_bytes()).await.unwrap();
                writer.flush().await.unwrap();
                loop {
                    let line = lines
                        .next_line()
                        .await
                        .unwrap()
                        .expect("the server answers before it ends");
                    let answer: Value = serde_json::from_str(&line).unwrap();
                    if answer["id"] == id {
                        return answer;
                    }
                }
            }
            Client::Http {
                http,
                url,
                caller,
                session,
                ..
            } => {
                let mut message = message.clone();
                let version = match session {
                    // A session's requests carry no per-request metadata.
                    Some(_) => {
                        if let Some(params) = message["params"].as_object_mut() {
                            params.remove("_meta");
                        }
                        "2025-11-25"
                    }
                    None => "2026-07-28",
                };
                let name = message["params"]["taskId"]
                    .as_str()
                    .or(message["params"]["name"].as_str());
                let mut request = http
                    .post(url.as_str())
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", version)
                    .header("Mcp-Method", method)
                    .body(message.to_string());
                if let Some(name) = name {
                    request = request.header("Mcp-Name", name);
                }
                if let Some(caller) = caller {
                    request = request.header("x-caller", caller.as_str());
                }
                if let Some(session) = session {
                    request = request.header("mcp-session-id", session.as_str());
                }
                let body = request.send().await.unwrap().text().await.unwrap();
                support::answer_in(&body, id, &message)
            }
        }
    }

    /// `tools/call` with 2026-07-28 metadata, declaring the tasks extension or not.
    async fn call(&mut self, name: &str, arguments: Value, tasks: bool) -> Value {
        let params = json!({"name": name, "arguments": arguments, "_meta": meta(tasks)});
        self.request("tools/call", params).await
    }

    /// Calls `name` as a task and returns the task's id.
    async fn start(&mut self, name: &str, arguments: Value) -> String {
        let answer = self.call(name, arguments, true).await;
        assert_eq!(answer["result"]["resultType"], "task", "{answer}");
        assert_eq!(answer["result"]["status"], "working", "{answer}");
        answer["result"]["taskId"].as_str().unwrap().to_owned()
    }

    /// `tasks/get`, `tasks/update` or `tasks/cancel` of task `id`, with `more` params.
    async fn task(&mut self, method: &str, id: &str, more: Value) -> Value {
        let mut params = json!({"taskId": id, "_meta": meta(true)});
        if let (Some(params), Value::Object(more)) = (params.as_object_mut(), more) {
            params.extend(more);
        }
        self.request(method, params).await
    }

    /// Polls `tasks/get` until the task has finished (as a client honouring a short poll
    /// interval does) and returns its last state.
    async fn poll(&mut self, id: &str) -> Value {
        for () in support::patiently() {
            let answer = self.task("tasks/get", id, json!({})).await;
            let status = answer["result"]["status"].as_str().unwrap_or_default();
            if ["completed", "failed", "cancelled"].contains(&status) {
                return answer["result"].clone();
            }
            assert!(
                ["working", "input_required"].contains(&status),
                "a task is working until it ends: {answer}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("task {id} did not finish");
    }

    /// What `note_count` says.
    async fn count(&mut self) -> String {
        let answer = self.call("note_count", json!({}), true).await;
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// What `note_count` says once it says `expected`, or last before a patient wait ends.
    async fn count_until(&mut self, expected: &str) -> String {
        let mut count = String::new();
        for () in support::patiently() {
            count = self.count().await;
            if count == expected {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        count
    }

    /// Writes `n` notes.
    async fn write_notes(&mut self, n: usize) {
        for index in 0..n {
            let text = format!("note {index}");
            let answer = self.call("note_write", json!({"text": text}), true).await;
            assert_eq!(answer["result"]["isError"], false, "{answer}");
        }
    }
}

/// The example server over streamable HTTP: the server (stopped when dropped) and its URL.
fn http_server(args: &[&str]) -> (support::process::ChildGuard, String) {
    support::example_http_server(args)
}

/// The error message of a JSON-RPC answer whose code must be invalid params.
fn invalid_params(answer: &Value) -> String {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_owned()
}

async fn polled_to_completion_gives_what_a_direct_call_gives(client: &mut Client) {
    client.write_notes(2).await;
    let id = client.start("note_export", json!({"pace_ms": 5})).await;
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
    let direct = client
        .call("note_export", json!({"pace_ms": 5}), false)
        .await;
    let direct = &direct["result"];
    assert_eq!(direct["isError"], false, "{direct}");
    let result = &finished["result"];
    assert_eq!(result["content"], direct["content"]);
    assert_eq!(result["structuredContent"], direct["structuredContent"]);
    assert_eq!(result["isError"], false);
    let exported = result["structuredContent"]["notes"].as_array().unwrap();
    assert_eq!(exported.len(), 2);
}

#[tokio::test]
async fn a_task_is_polled_to_completion_over_stdio_and_gives_what_a_direct_call_gives() {
    polled_to_completion_gives_what_a_direct_call_gives(&mut Client::stdio(&[])).await;
}

#[tokio::test]
async fn a_task_is_polled_to_completion_over_http_and_gives_what_a_direct_call_gives() {
    let (_server, url) = http_server(&[]);
    polled_to_completion_gives_what_a_direct_call_gives(&mut Client::http(&url, Some("alice")))
        .await;
}

/// Starts a slow export of twenty notes, watches its progress reach the client as the task's
/// status message, cancels it mid-way, and sees its handler stop.
async fn cancelled_mid_way_the_handler_stops(client: &mut Client) {
    client.write_notes(20).await;
    // Each note takes seconds, a minute in all, so that the count and the cancel below reach
    // the server while the export runs, even on a loaded machine.
    let id = client.start("note_export", json!({"pace_ms": 3000})).await;
    let mut seen = None;
    for () in support::patiently() {
        let answer = client.task("tasks/get", &id, json!({})).await;
        if let Some(message) = answer["result"]["statusMessage"].as_str() {
            seen = Some((message.to_owned(), answer["result"]["status"].clone()));
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (message, status) = seen.expect("the task's progress reached the client");
    // How far the export has gone by then is the machine's: not to its end.
    let done = message.strip_suffix(" of 20: exporting");
    let done = done.and_then(|done| done.parse::<u32>().ok());
    assert!(
        done.is_some_and(|done| (1..20).contains(&done)),
        "{message}"
    );
    assert_eq!(status, "working");
    assert_eq!(client.count().await, "20 notes, 0 reindexing, 1 exporting");

    let acknowledged = client.task("tasks/cancel", &id, json!({})).await;
    assert_eq!(
        acknowledged["result"]["resultType"], "complete",
        "{acknowledged}"
    );
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "cancelled", "{finished}");
    // The handler's future was dropped: its count of running exports went back to zero.
    assert_eq!(client.count().await, "20 notes, 0 reindexing");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = client.task("tasks/get", &id, json!({})).await;
    assert_eq!(later["result"]["status"], "cancelled", "it stays cancelled");
}

#[tokio::test]
async fn a_task_cancelled_mid_way_over_stdio_stops_its_handler_and_showed_its_progress() {
    cancelled_mid_way_the_handler_stops(&mut Client::stdio(&[])).await;
}

#[tokio::test]
async fn a_task_cancelled_mid_way_over_http_stops_its_handler_and_showed_its_progress() {
    let (_server, url) = http_server(&[]);
    cancelled_mid_way_the_handler_stops(&mut Client::http(&url, Some("alice"))).await;
}

#[tokio::test]
async fn a_task_past_its_ttl_is_gone_with_a_clear_error() {
    // Long enough for the poll to see the result on a loaded machine.
    let mut client = Client::stdio(&["--task-ttl-ms", "3000"]);
    let started = client
        .call("note_export", json!({"pace_ms": 5}), true)
        .await;
    assert_eq!(started["result"]["ttlMs"], 3000, "{started}");
    let id = started["result"]["taskId"].as_str().unwrap().to_owned();
    // The task works, then its result is kept for one time to live after it ends, then
    // dropped: the first answer that is not the task says why. (A loaded machine may poll
    // first only once the result is gone.)
    let mut gone = Value::Null;
    for () in support::patiently() {
        gone = client.task("tasks/get", &id, json!({})).await;
        if gone.get("error").is_some() {
            break;
        }
        let status = &gone["result"]["status"];
        assert!(status == "working" || status == "completed", "{gone}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        invalid_params(&gone),
        format!(
            "task `{id}` is gone: its result was dropped once its time to live (3000 ms) had \
             passed; call the tool again to start a new task"
        )
    );
    let again = client.task("tasks/get", &id, json!({})).await;
    assert!(
        invalid_params(&again).starts_with(&format!("no task `{id}` is known to this caller")),
        "{again}"
    );
    assert_eq!(client.count().await, "0 notes, 0 reindexing");
}

#[tokio::test]
async fn a_task_still_running_at_its_ttl_fails_and_its_handler_stops() {
    // The export would take three minutes; its time to live ends long before, yet leaves a
    // loaded machine ample time to see the handler start.
    let mut client = Client::stdio(&["--task-ttl-ms", "15000"]);
    client.write_notes(3).await;
    let id = client
        .start("note_export", json!({"pace_ms": 60_000}))
        .await;
    assert_eq!(
        client
            .count_until("3 notes, 0 reindexing, 1 exporting")
            .await,
        "3 notes, 0 reindexing, 1 exporting",
        "the handler runs while its task does"
    );
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "failed", "{finished}");
    assert_eq!(
        finished["error"]["message"], "task expired: TTL elapsed before completion",
        "rmcp's words"
    );
    assert_eq!(
        client.count_until("3 notes, 0 reindexing").await,
        "3 notes, 0 reindexing",
        "the handler stopped with its task"
    );
}

#[tokio::test]
async fn bad_task_requests_are_clear_errors_and_disturb_nothing() {
    let mut client = Client::stdio(&[]);
    client.write_notes(2).await;
    let running = client.start("note_export", json!({"pace_ms": 200})).await;

    let unknown = client.task("tasks/get", "no-such-task", json!({})).await;
    assert_eq!(
        invalid_params(&unknown),
        "no task `no-such-task` is known to this caller: use the taskId a tools/call of this \
         session answered with; a task's result is dropped once its time to live has passed, \
         so call the tool again to start a new task"
    );
    for method in ["tasks/update", "tasks/cancel"] {
        let more = if method == "tasks/update" {
            json!({"inputResponses": {}})
        } else {
            json!({})
        };
        let answer = client.task(method, "no-such-task", more).await;
        assert_eq!(
            invalid_params(&answer),
            invalid_params(&unknown),
            "{method}"
        );
    }

    let quick = client.start("note_export", json!({"pace_ms": 1})).await;
    assert_eq!(client.poll(&quick).await["status"], "completed");
    let late = client
        .task(
            "tasks/update",
            &quick,
            json!({"inputResponses": {"ask-1": {"action": "accept", "content": {}}}}),
        )
        .await;
    assert_eq!(
        invalid_params(&late),
        format!(
            "task `{quick}` has finished (completed) and takes no more answers; read its \
             result with tasks/get"
        )
    );
    let missing = client
        .request("tasks/get", json!({"_meta": meta(true)}))
        .await;
    assert_eq!(
        invalid_params(&missing),
        r#"Invalid params: tasks/get takes {"taskId": "..."}"#
    );
    let unreadable = client
        .request(
            "tasks/update",
            json!({"taskId": quick, "inputResponses": 7, "_meta": meta(true)}),
        )
        .await;
    assert_eq!(
        invalid_params(&unreadable),
        r#"Invalid params: tasks/update takes {"taskId": "...", "inputResponses": {...}}"#
    );

    // A client that did not declare the extension may not use it.
    let undeclared = client
        .request(
            "tasks/get",
            json!({"taskId": running, "_meta": meta(false)}),
        )
        .await;
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");

    // None of it touched the running task or the finished one.
    let finished = client.poll(&running).await;
    assert_eq!(finished["status"], "completed", "{finished}");
    assert_eq!(
        finished["result"]["structuredContent"]["notes"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let quick = client.task("tasks/get", &quick, json!({})).await;
    assert_eq!(quick["result"]["status"], "completed");
}

#[tokio::test]
async fn another_callers_task_id_is_refused_with_the_error_of_an_unknown_id() {
    let (_server, url) = http_server(&[]);
    let mut alice = Client::http(&url, Some("alice"));
    let mut bob = Client::http(&url, Some("bob"));
    let mut nobody = Client::http(&url, None);
    alice.write_notes(2).await;
    let id = alice.start("note_export", json!({"pace_ms": 200})).await;

    let unknown = invalid_params(&bob.task("tasks/get", "0000", json!({})).await);
    let as_unknown = |message: String| message.replace(&id, "0000");
    for other in [&mut bob, &mut nobody] {
        let got = other.task("tasks/get", &id, json!({})).await;
        assert_eq!(as_unknown(invalid_params(&got)), unknown);
        let cancelled = other.task("tasks/cancel", &id, json!({})).await;
        assert_eq!(as_unknown(invalid_params(&cancelled)), unknown);
        let updated = other
            .task("tasks/update", &id, json!({"inputResponses": {}}))
            .await;
        assert_eq!(as_unknown(invalid_params(&updated)), unknown);
    }
    // Bob's cancel did nothing: Alice's task runs to its end.
    let finished = alice.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
}

#[tokio::test]
async fn another_sessions_task_id_is_refused_with_the_error_of_an_unknown_id() {
    let (_server, url) = http_server(&[]);
    let mut first = Client::http_session(&url).await;
    let mut second = Client::http_session(&url).await;
    first.write_notes(2).await;
    let id = first.start("note_export", json!({"pace_ms": 200})).await;
    let unknown = invalid_params(&second.task("tasks/get", "0000", json!({})).await);
    for method in ["tasks/get", "tasks/cancel"] {
        let got = second.task(method, &id, json!({})).await;
        assert_eq!(
            invalid_params(&got).replace(&id, "0000"),
            unknown,
            "{method}"
        );
    }
    // Nor does a stateless request without the session reach it.
    let mut stateless = Client::http(&url, None);
    let got = stateless.task("tasks/get", &id, json!({})).await;
    assert_eq!(invalid_params(&got).replace(&id, "0000"), unknown);
    let finished = first.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
}

#[tokio::test]
async fn each_connection_over_stdio_has_its_own_tasks() {
    let mut first = Client::stdio(&[]);
    let mut second = Client::stdio(&[]);
    let id = first.start("note_export", json!({"pace_ms": 5})).await;
    let elsewhere = second.task("tasks/get", &id, json!({})).await;
    assert!(
        invalid_params(&elsewhere).starts_with("no task `"),
        "{elsewhere}"
    );
    assert_eq!(first.poll(&id).await["status"], "completed");
}

#[tokio::test]
async fn over_2025_11_25_a_task_tool_is_a_plain_call() {
    let mut client = Client::stdio(&[]);
    let initialized = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "tasks-test", "version": "1"},
            }),
        )
        .await;
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    if let Client::Lines { writer, .. } = &mut client {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        writer
            .write_all(format!("{note}\n").as_bytes())
            .await
            .unwrap();
    }
    let listed = client.request("tools/list", json!({})).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"note_export"), "{names:?}");
    let called = client
        .request(
            "tools/call",
            json!({"name": "note_export", "arguments": {"pace_ms": 5}}),
        )
        .await;
    let result = &called["result"];
    assert_eq!(result["isError"], false, "{called}");
    assert_eq!(result["structuredContent"], json!({"notes": []}));
    assert_eq!(result.get("taskId"), None, "not a task: {called}");
    assert_eq!(
        result.get("resultType"),
        None,
        "no 2026-07-28 field for 2025-11-25"
    );
}

#[tokio::test]
async fn a_caller_past_its_bound_of_running_tasks_is_refused_not_queued() {
    let mut client = Client::stdio(&[]);
    let mut running = Vec::new();
    // Each runs minutes, so that all are running when the bound is reached and the first is
    // cancelled, however loaded the machine.
    for _ in 0..tool_core::registry::DEFAULT_TASK_LIMIT {
        running.push(
            client
                .start("note_export", json!({"pace_ms": 300_000}))
                .await,
        );
    }
    let refused = client
        .call("note_export", json!({"pace_ms": 1}), true)
        .await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("refused\ttoo-many-tasks\tthis caller already has 16 tasks running"),
        "{text}"
    );
    let first = running.remove(0);
    client.task("tasks/cancel", &first, json!({})).await;
    assert_eq!(client.poll(&first).await["status"], "cancelled");
    let next = client.start("note_export", json!({"pace_ms": 1})).await;
    assert_eq!(client.poll(&next).await["status"], "completed");
    for id in running {
        client.task("tasks/cancel", &id, json!({})).await;
    }
}

/// Asks whether to export, then exports or not.
#[tool(task)]
async fn report_export(ctx: &Context) -> Result<String, Refusal> {
    match ctx.ask::<bool>("Export the report?").await? {
        Answer::Given(true) => Ok("exported".to_owned()),
        Answer::Given(false) | Answer::Declined => Ok("not exported".to_owned()),
        Answer::Cancelled => Ok("stopped".to_owned()),
    }
}

#[tokio::test]
async fn a_question_inside_a_task_is_input_required_and_tasks_update_answers_it() {
    let registry = Registry::builder().tool(ReportExport).build().unwrap();
    let mut client = Client::in_process(McpServer::new(registry));
    let id = client.start("report_export", json!({})).await;
    let mut asked = None;
    for () in support::patiently() {
        let answer = client.task("tasks/get", &id, json!({})).await;
        if answer["result"]["status"] == "input_required" {
            asked = Some(answer["result"]["inputRequests"].clone());
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let asked = asked.expect("the task asked");
    let question = &asked["ask-1"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert_eq!(question["params"]["message"], "Export the report?");
    assert_eq!(
        question["params"]["requestedSchema"]["properties"]["value"]["type"],
        "boolean"
    );

    // An answer of the wrong type reaches the tool as a bad answer; the task ends with it.
    let wrong = client.start("report_export", json!({})).await;
    wait_for_input(&mut client, &wrong).await;
    let answer =
        json!({"inputResponses": {"ask-1": {"action": "accept", "content": {"value": "yes"}}}});
    let acknowledged = client.task("tasks/update", &wrong, answer).await;
    assert_eq!(
        acknowledged["result"]["resultType"], "complete",
        "{acknowledged}"
    );
    let finished = client.poll(&wrong).await;
    let text = finished["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("refused\tbad-answer\t"), "{text}");

    // A task cancelled while it waits for an answer stops waiting, and is cancelled.
    let dropped = client.start("report_export", json!({})).await;
    wait_for_input(&mut client, &dropped).await;
    client.task("tasks/cancel", &dropped, json!({})).await;
    assert_eq!(client.poll(&dropped).await["status"], "cancelled");

    let answer =
        json!({"inputResponses": {"ask-1": {"action": "accept", "content": {"value": true}}}});
    client.task("tasks/update", &id, answer).await;
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "completed");
    assert_eq!(finished["result"]["content"][0]["text"], "exported");
}

async fn wait_for_input(client: &mut Client, id: &str) {
    for () in support::patiently() {
        let answer = client.task("tasks/get", id, json!({})).await;
        if answer["result"]["status"] == "input_required" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("task {id} never asked");
}

/// Sums the numbers it is given, as a task.
#[tool(task)]
async fn sum_later(numbers: Vec<i64>) -> i64 {
    numbers.iter().sum()
}

#[tokio::test]
async fn a_task_over_the_callers_budget_is_refused_at_once_not_in_its_result() {
    let budget = tool_core::RateLimit::per_caller(
        std::num::NonZeroU32::new(1).unwrap(),
        Duration::from_secs(3600),
    );
    let registry = Registry::builder()
        .tool(SumLater)
        .build()
        .unwrap()
        .with_rate_limit(budget);
    let mut client = Client::in_process(McpServer::new(registry));
    let id = client.start("sum_later", json!({"numbers": [1, 2]})).await;
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
    // The budget was taken when the task started, and only then.
    assert_eq!(finished["result"]["content"][0]["text"], "3", "{finished}");

    let refused = client
        .call("sum_later", json!({"numbers": [3]}), true)
        .await;
    assert_ne!(refused["result"]["resultType"], "task", "{refused}");
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("refused\trate-limited\t"), "{text}");
    assert!(text.contains("\nretry-after\t"), "{text}");
}

/// Purges everything, and only as a task.
#[tool(destructive, task = "required")]
async fn purge_all() -> &'static str {
    "purged"
}

/// Goes wrong inside, as a panic would.
#[tool(task)]
async fn break_inside() -> Result<String, Refusal> {
    Err(Refusal::new(
        tool_core::code::INTERNAL,
        "the index is corrupt",
    ))
}

#[tokio::test]
async fn a_tool_that_runs_only_as_a_task_refuses_a_client_without_the_extension() {
    let registry = Registry::builder()
        .tool(PurgeAll)
        .tool(BreakInside)
        .build()
        .unwrap();
    let listed = registry.export(tool_core::Provider::Mcp).unwrap();
    let listed = serde_json::to_value(&listed).unwrap();
    assert_eq!(
        listed[0]["execution"]["taskSupport"], "required",
        "{listed}"
    );
    assert_eq!(
        listed[1]["execution"]["taskSupport"], "optional",
        "{listed}"
    );

    let mut client = Client::in_process(McpServer::new(registry));
    let refused = client.call("purge_all", json!({}), false).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{refused}"
    );
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`purge_all` runs only as a task"),
        "{message}"
    );

    let id = client.start("purge_all", json!({})).await;
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
    assert_eq!(finished["result"]["content"][0]["text"], "purged");

    // A tool that goes wrong inside fails its task, with no result; the refusal's text is the
    // error's message.
    let id = client.start("break_inside", json!({})).await;
    let failed = client.poll(&id).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(failed.get("result").is_none(), "{failed}");
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("refused\tinternal\tthe index is corrupt"),
        "{message}"
    );
    // Called directly, the same refusal is the tool's answer.
    let direct = client.call("break_inside", json!({}), false).await;
    assert_eq!(direct["result"]["isError"], true, "{direct}");
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Folder {
    /// Where to export.
    path: String,
}

/// Asks where to export while its client waits, then exports as a task.
#[tool(task = "after_input")]
async fn export_to(ctx: &Context) -> Result<String, Refusal> {
    match ctx.ask::<Folder>("Where to?").await? {
        Answer::Given(Folder { path }) => Ok(format!("exported to {path}")),
        Answer::Declined | Answer::Cancelled => Ok("not exported".to_owned()),
    }
}

#[tokio::test]
async fn a_tool_that_asks_first_asks_in_a_round_and_runs_as_a_task_once_answered() {
    let registry = Registry::builder().tool(ExportTo).build().unwrap();
    let mut client = Client::in_process(McpServer::new(registry));
    // A client that answers forms, with the tasks extension or without.
    let asking = |tasks: bool| {
        let mut meta = meta(tasks);
        meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"] = json!({});
        meta
    };
    let call = |tasks: bool| json!({"name": "export_to", "arguments": {}, "_meta": asking(tasks)});

    let round = client.request("tools/call", call(true)).await;
    assert_eq!(round["result"]["resultType"], "input_required", "{round}");
    assert!(round["result"].get("taskId").is_none(), "{round}");
    let asked = &round["result"]["inputRequests"]["folder"];
    assert_eq!(asked["params"]["message"], "Where to?", "{round}");
    let state = round["result"]["requestState"].clone();

    let answers = json!({"folder": {"action": "accept", "content": {"path": "/tmp/out"}}});
    let mut retry = call(true);
    retry["requestState"] = state;
    retry["inputResponses"] = answers;
    let started = client.request("tools/call", retry.clone()).await;
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    assert!(started["result"].get("requestState").is_none(), "{started}");
    let id = started["result"]["taskId"].as_str().unwrap().to_owned();
    let finished = client.poll(&id).await;
    assert_eq!(finished["status"], "completed", "{finished}");
    assert_eq!(
        finished["result"]["content"][0]["text"],
        "exported to /tmp/out"
    );

    // The round's state is spent: the same retry again names nothing.
    let again = client.request("tools/call", retry).await;
    assert!(again["error"]["message"].is_string(), "{again}");

    // Answers sent ahead start the task at once.
    let mut ahead = call(true);
    ahead["inputResponses"] = json!({"folder": {"action": "accept", "content": {"path": "/srv"}}});
    let started = client.request("tools/call", ahead).await;
    let id = started["result"]["taskId"].as_str().unwrap().to_owned();
    let finished = client.poll(&id).await;
    assert_eq!(finished["result"]["content"][0]["text"], "exported to /srv");

    // A client without the extension gets the rounds, and the answer on the retry.
    let plain = client.request("tools/call", call(false)).await;
    assert_eq!(plain["result"]["resultType"], "input_required", "{plain}");
}
