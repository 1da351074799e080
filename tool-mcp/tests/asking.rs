//! A tool's questions over MCP: the example server's `note_publish` asks, `--confirm` asks
//! before every destructive call, `note_summarize` samples the client's model and
//! `note_sources` reads its roots, answered by the official Python SDK's callbacks
//! in both protocol revisions (an `elicitation/create` request in 2025-11-25, an
//! `input_required` round trip in 2026-07-28) on both transports, with the same texts as in
//! process. Then what no SDK sends: retries with forged, stale, borrowed and ill-shaped
//! `requestState`s and answers, written as raw JSON-RPC lines, each a clear error that
//! disturbs nothing else; and the bounds on suspended calls (deadline, time to live, count).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use support::clients;
use support::{example_http_server, example_server};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tool_core::call::{Reply, SamplingRequest};
use tool_core::{Answer, Context, Refusal, Registry, ToolCall, tool};
use tool_mcp::{McpServer, WaitingCalls};

mod support;

#[path = "../../examples/notes/mod.rs"]
#[allow(dead_code)]
mod notes;

// ---------------------------------------------------------------------------------------------
// The Python SDK's `Client`, answering through its `elicitation_callback`.

#[derive(Clone, Copy)]
enum Transport {
    Stdio,
    Http,
}

/// Runs `tests/mcp_ask.py` in `mode` for `scenario` against a fresh example server and returns
/// what it saw.
fn python(mode: &str, scenario: &str, transport: Transport) -> Value {
    let mut command = clients::python_client("mcp_ask.py");
    command.args([mode, scenario]);
    let what = format!("the Python SDK's {mode} client ({scenario})");
    let args: &[&str] = if scenario == "confirm" {
        &["--confirm"]
    } else {
        &[]
    };
    let _server;
    match transport {
        Transport::Stdio => {
            command.arg("stdio").arg(example_server());
        }
        Transport::Http => {
            let (server, url) = example_http_server(args);
            _server = server;
            command.arg("http").arg(url);
        }
    }
    clients::client_session(&mut command, &what)
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The texts `note_publish` gives in process, for the answers `mcp_ask.py` gives over MCP.
async fn in_process_publish_texts() -> Vec<(&'static str, String)> {
    let answers = [
        (
            "accepted",
            Reply::Accept(
                json!({"title": "Groceries", "audience": "everyone"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        ),
        ("declined", Reply::Decline),
        ("cancelled", Reply::Cancel),
        (
            "wrong",
            Reply::Accept(
                json!({"title": "Groceries", "audience": "the moon"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        ),
    ];
    let registry = notes::registry();
    let store = Context::new().with_extension(notes::NoteStore::default());
    let written = registry
        .call(
            ToolCall::new("1", "note_write", json!({"text": "buy milk"})),
            &store,
        )
        .await;
    assert!(!written.is_refused(), "{}", written.text());
    let mut texts = Vec::new();
    for (name, reply) in answers {
        let ctx = store.clone().with_asker(move |_| {
            let reply = reply.clone();
            async move { Ok::<_, Refusal>(reply) }
        });
        let call = ToolCall::new("2", "note_publish", json!({"id": 1}));
        texts.push((name, registry.call(call, &ctx).await.text()));
    }
    texts
}

fn check_asked(seen: &Value, revision: &str) {
    assert_eq!(seen["protocol_version"], revision);
    let in_process = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(in_process_publish_texts());
    for (name, expected) in &in_process {
        assert_eq!(
            text(&seen[name]),
            expected,
            "{name}: over MCP as in process, byte for byte"
        );
    }
    assert_eq!(
        text(&seen["accepted"]),
        "published note 1 as \"Groceries\" to everyone"
    );
    assert_eq!(
        seen["declined"]["isError"], false,
        "a decline is the tool's to handle"
    );
    assert_eq!(
        text(&seen["declined"]),
        "note 1 stays unpublished: the user declined"
    );
    assert!(text(&seen["cancelled"]).starts_with("refused\tcancelled\t"));
    assert!(
        text(&seen["wrong"]).starts_with("refused\tbad-answer\t")
            && text(&seen["wrong"]).contains("\nfault\taudience\t"),
        "{}",
        text(&seen["wrong"])
    );
    let questions = seen["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 4, "one question a call: {questions:?}");
    assert_eq!(questions[0]["message"], "How should note 1 be published?");
    let form = &questions[0]["requestedSchema"];
    assert_eq!(form["required"], json!(["title", "audience"]));
    assert_eq!(
        form["properties"]["audience"]["oneOf"][1]["const"],
        "everyone"
    );
    check_unasked(
        &seen["unasked"],
        revision,
        "refused\tcannot-ask\tthis client did not declare the `elicitation` capability",
    );
}

/// What a client that did not declare `elicitation` got when the tool asked anyway: over
/// 2025-11-25 the tool's refusal (`refusal` begins it), over 2026-07-28, which forbids relying
/// on an undeclared capability, a `-32021` error naming it.
fn check_unasked(unasked: &Value, revision: &str, refusal: &str) {
    if revision == "2026-07-28" {
        assert_eq!(unasked["error"]["code"], -32021, "{unasked}");
        assert_eq!(
            unasked["error"]["data"]["requiredCapabilities"]["elicitation"],
            json!({}),
            "{unasked}"
        );
        let message = unasked["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains("needs the client's `elicitation`"),
            "{unasked}"
        );
        return;
    }
    assert_eq!(unasked["isError"], true, "{unasked}");
    assert!(text(unasked).starts_with(refusal), "{}", text(unasked));
}

fn check_confirmed(seen: &Value, revision: &str, transport: Transport) {
    assert_eq!(seen["protocol_version"], revision);
    for (name, reason) in [
        ("declined", "the user declined it"),
        ("not_approved", "the user did not approve it"),
    ] {
        assert_eq!(seen[name]["isError"], true, "{name}");
        assert_eq!(
            text(&seen[name]),
            format!("refused\tdeclined\tthe call was declined: {reason}")
        );
    }
    assert_eq!(
        seen["after_declined"], "0 notes, 0 reindexing",
        "a declined call never ran"
    );
    assert_eq!(seen["after_not_approved"], "0 notes, 0 reindexing");
    assert_eq!(seen["approved"]["isError"], false);
    assert_eq!(text(&seen["approved"]), r#"{"id":1,"revision":1}"#);
    assert_eq!(seen["after_approved"], "1 notes, 0 reindexing");
    let question = &seen["questions"][0];
    assert_eq!(
        question["message"],
        "Allow the tool `note_write` to run with these arguments?\n{\"text\":\"a\"}",
        "the question names the call and shows its arguments"
    );
    assert_eq!(
        question["requestedSchema"]["properties"]["approve"]["type"],
        "boolean"
    );
    check_unasked(
        &seen["unasked"],
        revision,
        "refused\tdeclined\tthe call was declined: nobody could be asked to approve it: this \
         client did not declare the `elicitation` capability",
    );
    // Over stdio the second client started a server of its own; over HTTP it shares the store.
    let notes_before = match transport {
        Transport::Stdio => "0 notes, 0 reindexing",
        Transport::Http => "1 notes, 0 reindexing",
    };
    assert_eq!(
        seen["after_unasked"], notes_before,
        "a client that cannot be asked never runs a destructive call"
    );
}

/// What the client-side scenario saw: the model's answer in `note_summarize`'s result, the
/// sampling request it was sent, the roots in `note_sources`'s; and, from a client that declared
/// neither capability, the refusal (2025-11-25) or the `-32021` error naming it (2026-07-28).
fn check_client_side(seen: &Value, revision: &str) {
    assert_eq!(
        text(&seen["summarized"]),
        "note 1: a list of groceries",
        "{}",
        seen["summarized"]
    );
    assert_eq!(
        seen["sampled"],
        json!([{
            "messages": ["Summarize this note in one line:\nbuy milk, eggs and bread"],
            "systemPrompt": "You summarize notes in one short line.",
            "maxTokens": 60,
        }]),
        "the sampling request the client's model was sent"
    );
    assert_eq!(
        text(&seen["sources"]),
        "notes could come from: notes (file:///home/alice/notes), file:///srv/shared"
    );
    for (name, capability) in [("unsampled", "sampling"), ("unrooted", "roots")] {
        let unasked = &seen[name];
        if revision == "2026-07-28" {
            assert_eq!(unasked["error"]["code"], -32021, "{name}: {unasked}");
            assert_eq!(
                unasked["error"]["data"]["requiredCapabilities"][capability],
                json!({}),
                "{name}: {unasked}"
            );
        } else {
            assert_eq!(unasked["isError"], true, "{name}: {unasked}");
            assert!(
                text(unasked).starts_with(&format!(
                    "refused\tcannot-ask\tthis client did not declare the `{capability}` capability"
                )),
                "{name}: {}",
                text(unasked)
            );
        }
    }
}

macro_rules! python_tests {
    ($($name:ident: $mode:literal, $scenario:ident, $transport:ident => $revision:literal;)*) => {$(
        #[test]
        fn $name() {
            let seen = python($mode, stringify!($scenario), Transport::$transport);
            python_tests!(@check $scenario, seen, $revision, Transport::$transport);
        }
    )*};
    (@check ask, $seen:ident, $revision:literal, $transport:expr) => {
        check_asked(&$seen, $revision)
    };
    (@check confirm, $seen:ident, $revision:literal, $transport:expr) => {
        check_confirmed(&$seen, $revision, $transport)
    };
    (@check client, $seen:ident, $revision:literal, $transport:expr) => {
        check_client_side(&$seen, $revision)
    };
}

python_tests! {
    a_question_is_an_elicitation_request_for_a_legacy_python_client_over_stdio:
        "legacy", ask, Stdio => "2025-11-25";
    a_question_is_an_elicitation_request_for_a_legacy_python_client_over_http:
        "legacy", ask, Http => "2025-11-25";
    a_question_is_an_input_required_round_trip_for_a_2026_07_28_python_client_over_stdio:
        "2026-07-28", ask, Stdio => "2026-07-28";
    a_question_is_an_input_required_round_trip_for_a_2026_07_28_python_client_over_http:
        "2026-07-28", ask, Http => "2026-07-28";
    a_question_reaches_the_python_client_in_its_default_mode_over_stdio:
        "auto", ask, Stdio => "2026-07-28";
    confirm_asks_a_legacy_python_client_before_a_destructive_call_over_stdio:
        "legacy", confirm, Stdio => "2025-11-25";
    confirm_asks_a_legacy_python_client_before_a_destructive_call_over_http:
        "legacy", confirm, Http => "2025-11-25";
    confirm_asks_a_2026_07_28_python_client_before_a_destructive_call_over_stdio:
        "2026-07-28", confirm, Stdio => "2026-07-28";
    confirm_asks_a_2026_07_28_python_client_before_a_destructive_call_over_http:
        "2026-07-28", confirm, Http => "2026-07-28";
    a_tool_samples_and_reads_the_roots_of_a_legacy_python_client_over_stdio:
        "legacy", client, Stdio => "2025-11-25";
    a_tool_samples_and_reads_the_roots_of_a_legacy_python_client_over_http:
        "legacy", client, Http => "2025-11-25";
    a_tool_samples_and_reads_the_roots_of_a_2026_07_28_python_client_over_stdio:
        "2026-07-28", client, Stdio => "2026-07-28";
    a_tool_samples_and_reads_the_roots_of_a_2026_07_28_python_client_over_http:
        "2026-07-28", client, Http => "2026-07-28";
}

// ---------------------------------------------------------------------------------------------
// Raw JSON-RPC lines: what no SDK sends.

/// A client writing JSON-RPC lines by hand, as MCP 2026-07-28 has them (no handshake; each
/// request names its version and the client's capabilities in `_meta`).
struct Raw {
    writer: Box<dyn AsyncWrite + Send + Unpin>,
    lines: Lines<BufReader<Box<dyn AsyncRead + Send + Unpin>>>,
    next_id: u64,
    /// Each request's `_meta`: a 2026-07-28 client's, or nothing after `initialize`.
    meta: Value,
}

/// `_meta` of a 2026-07-28 client that can show forms.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
    })
}

impl Raw {
    fn new(
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> Raw {
        let reader: Box<dyn AsyncRead + Send + Unpin> = Box::new(reader);
        Raw {
            writer: Box::new(writer),
            lines: BufReader::new(reader).lines(),
            next_id: 1,
            meta: modern_meta(),
        }
    }

    /// Opens as a 2025-11-25 client that can show forms: `initialize`, then
    /// `notifications/initialized`; requests carry no `_meta` after it.
    async fn initialize(&mut self) {
        self.initialize_with(json!({"elicitation": {"form": {}}}))
            .await;
    }

    /// [`Raw::initialize`], declaring `capabilities`.
    async fn initialize_with(&mut self, capabilities: Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "0"}}}),
        )
        .await;
        let opened = self.answer_to(id).await;
        assert_eq!(
            opened["result"]["protocolVersion"], "2025-11-25",
            "{opened}"
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        self.meta = json!({});
    }

    /// The next message the server sends, waiting at most 10 s.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("the server says something within 10 s")
            .unwrap()
            .expect("the server keeps the pipe open");
        serde_json::from_str(&line).unwrap()
    }

    /// A connection to `server` over an in-memory pipe.
    fn serve(server: McpServer) -> Raw {
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let (reader, writer) = tokio::io::split(server_end);
            let _ = server.serve_lines(reader, writer).await;
        });
        let (reader, writer) = tokio::io::split(client_end);
        Raw::new(reader, writer)
    }

    /// Sends a `tools/call` of `name` with `arguments` and `extra` params, and returns the
    /// answer to it (its `result`, or its `error`), waiting at most 10 s.
    async fn call(&mut self, name: &str, arguments: Value, extra: Value) -> Value {
        let id = self.send_call(name, arguments, extra).await;
        self.answer_to(id).await
    }

    /// Sends a `tools/call` and returns its id, without waiting for the answer.
    async fn send_call(&mut self, name: &str, arguments: Value, extra: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = json!({"name": name, "arguments": arguments, "_meta": self.meta});
        if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
            params.extend(extra);
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .await;
        id
    }

    async fn send(&mut self, message: Value) {
        self.writer
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        self.writer.flush().await.unwrap();
    }

    /// The answer to the request `id`, waiting at most 10 s.
    async fn answer_to(&mut self, id: u64) -> Value {
        loop {
            let message = self.next().await;
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// A retry of `name` answering its question with `answer`, under `state`.
    async fn answer(&mut self, name: &str, arguments: Value, state: &str, answer: Value) -> Value {
        let extra = json!({"requestState": state, "inputResponses": {key_of(name): answer}});
        self.call(name, arguments, extra).await
    }
}

/// The key of the question each tool here asks: its form type's name in snake case
/// (`Publishing`), or `value` for one value (a `bool`).
fn key_of(tool: &str) -> &'static str {
    match tool {
        "note_publish" => "publishing",
        _ => "value",
    }
}

/// The `requestState` of an `input_required` answer, checking that it is one, asking one
/// question.
fn state_of(answer: &Value) -> String {
    let result = &answer["result"];
    assert_eq!(result["resultType"], "input_required", "{answer}");
    let requests = result["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.len(), 1, "{answer}");
    assert!(
        requests
            .values()
            .all(|request| request["method"] == "elicitation/create"),
        "{answer}"
    );
    result["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no requestState: {answer}"))
        .to_owned()
}

/// An invalid-params error whose message says `says`.
fn assert_refused(answer: &Value, says: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "expected {says:?} in {message:?}");
}

/// The example server over its stdin and stdout, as an MCP host starts it.
fn example_over_stdio() -> (tokio::process::Child, Raw) {
    let mut child = tokio::process::Command::new(example_server())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the example server starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    (child, Raw::new(stdout, stdin))
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_stale_and_ill_shaped_retries_are_clear_errors_that_disturb_nothing() {
    let (_child, mut raw) = example_over_stdio();
    let publish = json!({"id": 1});
    let written = raw
        .call("note_write", json!({"text": "a"}), json!({}))
        .await;
    assert_eq!(written["result"]["isError"], false, "{written}");
    let state = state_of(&raw.call("note_publish", publish.clone(), json!({})).await);
    let good = accept(json!({"title": "T", "audience": "team"}));

    // A forged state finds nothing.
    for forged in ["forged", "", &"0".repeat(32), &state.to_uppercase()] {
        let answer = raw
            .answer("note_publish", publish.clone(), forged, good.clone())
            .await;
        assert_refused(
            &answer,
            "requestState names no call waiting for this caller's answer",
        );
        assert_refused(&answer, "call the tool again without requestState");
    }
    // Answers in the wrong shape, and a retry of another tool, leave the waiting call as it is.
    for (wrong, says) in [
        (json!("yes"), "`publishing` is not an elicitation result"),
        (json!({"action": "maybe"}), "`maybe` is no action"),
        (
            json!({"action": "accept", "content": "T"}),
            "must be an object",
        ),
        (json!({"content": {}}), "missing field `action`"),
    ] {
        let answer = raw
            .answer("note_publish", publish.clone(), &state, wrong)
            .await;
        assert_refused(&answer, says);
        assert_refused(&answer, "send inputResponses {\"publishing\"");
    }
    let elsewhere = raw
        .call(
            "note_publish",
            publish.clone(),
            json!({"requestState": state, "inputResponses": {"other": good}}),
        )
        .await;
    // Answers to what was not asked are ignored: the question is asked again, under the same
    // state, as it is of a retry that answers nothing.
    for retry in [
        elsewhere,
        raw.call(
            "note_publish",
            publish.clone(),
            json!({"requestState": state}),
        )
        .await,
    ] {
        assert_eq!(
            state_of(&retry),
            state,
            "asked again under the same state: {retry}"
        );
        assert!(
            retry["result"]["inputRequests"]["publishing"].is_object(),
            "{retry}"
        );
    }
    let other_tool = raw
        .answer("note_count", json!({}), &state, good.clone())
        .await;
    assert_refused(
        &other_tool,
        "this requestState belongs to a call of `note_publish`, not `note_count`",
    );
    // A call that brings its answer before it is asked (no requestState) runs afresh and
    // takes it; one whose answer holds no key of its question is asked it.
    let answered_first = raw
        .call(
            "note_publish",
            json!({"id": 1}),
            json!({"inputResponses": {"publishing": accept(json!({"title": "U", "audience": "everyone"}))}}),
        )
        .await;
    assert_eq!(
        answered_first["result"]["content"][0]["text"], "published note 1 as \"U\" to everyone",
        "{answered_first}"
    );
    let unkeyed = raw
        .call(
            "note_publish",
            publish.clone(),
            json!({"inputResponses": {"question": good.clone()}}),
        )
        .await;
    assert_ne!(
        state_of(&unkeyed),
        state,
        "a fresh call is a round of its own"
    );

    // Other calls go on meanwhile.
    let count = raw.call("note_count", json!({}), json!({})).await;
    assert_eq!(
        count["result"]["content"][0]["text"],
        "1 notes, 0 reindexing"
    );

    // An answer of the wrong type reaches the tool, which refuses it; the state is spent.
    let wrong_type = raw
        .answer(
            "note_publish",
            publish.clone(),
            &state,
            accept(json!({"title": 7, "audience": "team"})),
        )
        .await;
    assert_eq!(
        wrong_type["result"]["resultType"], "complete",
        "{wrong_type}"
    );
    assert_eq!(wrong_type["result"]["isError"], true);
    let refused = wrong_type["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        refused.starts_with("refused\tbad-answer\t") && refused.contains("\nfault\ttitle\t"),
        "{refused}"
    );
    let stale = raw
        .answer("note_publish", publish.clone(), &state, good.clone())
        .await;
    assert_refused(
        &stale,
        "requestState names no call waiting for this caller's answer",
    );

    // A later call asks afresh and is answered.
    let again = state_of(&raw.call("note_publish", publish.clone(), json!({})).await);
    assert_ne!(again, state, "each round has a new state");
    let published = raw.answer("note_publish", publish, &again, good).await;
    assert_eq!(
        published["result"]["content"][0]["text"], "published note 1 as \"T\" to the team",
        "{published}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_can_be_asked_still_cancels_its_call() {
    let (_child, mut raw) = example_over_stdio();
    let slow = json!({"pace_ms": 1000, "passes": 55});
    let sent = std::time::Instant::now();
    let id = raw.send_call("note_reindex", slow, json!({})).await;
    let mut count = Value::Null;
    for () in support::patiently() {
        count = raw.call("note_count", json!({}), json!({})).await;
        if count["result"]["content"][0]["text"] == "0 notes, 1 reindexing" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        count["result"]["content"][0]["text"],
        "0 notes, 1 reindexing"
    );
    raw.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": id, "_meta": modern_meta()}}),
    )
    .await;
    for () in support::patiently() {
        count = raw.call("note_count", json!({}), json!({})).await;
        if count["result"]["content"][0]["text"] == "0 notes, 0 reindexing" {
            // Sooner than its 55 s of passes could end it: cancelled, not finished.
            assert!(
                sent.elapsed() < Duration::from_secs(50),
                "the call ended only after {:?}",
                sent.elapsed()
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the cancelled call still runs: {count}");
}

/// Asks whether to go on, and says what it was told.
#[tool]
async fn go_on(ctx: &Context) -> Result<String, Refusal> {
    ask_to_go_on(ctx).await
}

/// Asks whether to go on, and says what it was told, within 2 s.
#[tool(timeout = "2s")]
async fn go_on_quickly(ctx: &Context) -> Result<String, Refusal> {
    ask_to_go_on(ctx).await
}

/// Asks whether to go on, counting the calls that are running.
async fn ask_to_go_on(ctx: &Context) -> Result<String, Refusal> {
    let running = ctx.get::<Arc<AtomicUsize>>().cloned().unwrap_or_default();
    running.fetch_add(1, Ordering::SeqCst);
    let _counted = Counted(running);
    match ctx.ask::<bool>("Go on?").await? {
        Answer::Given(yes) => Ok(format!("told {yes}")),
        Answer::Declined | Answer::Cancelled => Ok("told nothing".to_owned()),
    }
}

struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Asks whether to go on, the client's model for a word and the client's roots, all at once.
#[tool]
async fn gather(ctx: &Context) -> Result<String, Refusal> {
    let (told, sampled, roots) = tokio::join!(
        ctx.ask::<bool>("Go on?"),
        ctx.sample(SamplingRequest::new("A word, please.").with_max_tokens(5)),
        ctx.roots(),
    );
    let roots: Vec<String> = roots?.into_iter().map(|root| root.uri).collect();
    Ok(format!(
        "told {:?}; sampled {}; roots {}",
        told?.given(),
        sampled?.text,
        roots.join(" ")
    ))
}

fn asking_server(running: &Arc<AtomicUsize>) -> McpServer {
    let registry = Registry::builder()
        .tool(GoOn)
        .tool(GoOnQuickly)
        .tool(Gather)
        .build()
        .unwrap();
    McpServer::new(registry).with_context(Context::new().with_extension(running.clone()))
}

/// A sampling result, as a client sends one.
fn sampled(text: &str) -> Value {
    json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": text}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_holds_every_request_made_before_the_tool_waits_and_asks_again_for_the_rest() {
    let running = Arc::new(AtomicUsize::new(0));
    let mut raw = Raw::serve(asking_server(&running));
    raw.meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}});
    let first = raw.call("gather", json!({}), json!({})).await;
    let requests = first["result"]["inputRequests"]
        .as_object()
        .unwrap_or_else(|| panic!("one round of requests: {first}"));
    let methods: Vec<(&str, &str)> = requests
        .iter()
        .map(|(key, request)| (key.as_str(), request["method"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        methods,
        [
            ("roots", "roots/list"),
            ("sampling", "sampling/createMessage"),
            ("value", "elicitation/create")
        ],
        "{first}"
    );
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();

    // Two of three answered, and one never asked: asked again for the third alone.
    let partial = raw
        .call(
            "gather",
            json!({}),
            json!({"requestState": state, "inputResponses": {
                "value": accept(json!({"value": true})),
                "sampling": sampled("hello"),
                "weather": {"sunny": true},
            }}),
        )
        .await;
    let again = &partial["result"];
    assert_eq!(again["resultType"], "input_required", "{partial}");
    assert_eq!(
        again["inputRequests"]
            .as_object()
            .map(|requests| requests.len()),
        Some(1),
        "{partial}"
    );
    assert_eq!(again["inputRequests"]["roots"]["method"], "roots/list");
    let next = again["requestState"].as_str().unwrap().to_owned();
    assert_ne!(next, state, "a round that changed has a fresh state");
    let stale = raw
        .call(
            "gather",
            json!({}),
            json!({"requestState": state, "inputResponses": {"roots": {"roots": []}}}),
        )
        .await;
    assert_refused(&stale, "requestState names no call waiting");

    let done = raw
        .call(
            "gather",
            json!({}),
            json!({"requestState": next, "inputResponses": {
                "roots": {"roots": [{"uri": "file:///work"}]},
            }}),
        )
        .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "told Some(true); sampled hello; roots file:///work",
        "{done}"
    );

    // Answers sent before anything is asked: the call needs no round at all.
    let ahead = raw
        .call(
            "gather",
            json!({}),
            json!({"inputResponses": {
                "value": accept(json!({"value": false})),
                "sampling": sampled("hi"),
                "roots": {"roots": []},
            }}),
        )
        .await;
    assert_eq!(
        ahead["result"]["content"][0]["text"], "told Some(false); sampled hi; roots ",
        "{ahead}"
    );
}

async fn eventually(what: &str, holds: impl Fn() -> bool) {
    for () in support::patiently() {
        if holds() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what} did not happen within two minutes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_connection_s_request_state_finds_nothing() {
    let running = Arc::new(AtomicUsize::new(0));
    let server = asking_server(&running);
    let mut mine = Raw::serve(server.clone());
    let mut theirs = Raw::serve(server);
    let state = state_of(&mine.call("go_on", json!({}), json!({})).await);
    let borrowed = theirs
        .answer("go_on", json!({}), &state, accept(json!({"value": true})))
        .await;
    assert_refused(
        &borrowed,
        "requestState names no call waiting for this caller's answer",
    );
    let answered = mine
        .answer("go_on", json!({}), &state, accept(json!({"value": true})))
        .await;
    assert_eq!(
        answered["result"]["content"][0]["text"], "told true",
        "{answered}"
    );
}

/// A `tools/call` over HTTP as `caller` (the `x-caller` header), with `extra` params: the
/// JSON-RPC answer.
async fn post_as(url: &str, caller: &str, extra: Value) -> Value {
    support::install_tls();
    let mut params = json!({"name": "go_on", "arguments": {}, "_meta": modern_meta()});
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("x-caller", caller)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "go_on")
        .body(body.to_string())
        .send();
    let text = tokio::time::timeout(Duration::from_secs(10), async {
        response.await.unwrap().text().await.unwrap()
    })
    .await
    .expect("the server answers within 10 s");
    text.lines()
        .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|message| message["id"] == 1)
        .unwrap_or_else(|| panic!("no answer in {text:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_caller_s_request_state_finds_nothing_over_http() {
    let running = Arc::new(AtomicUsize::new(0));
    let server = asking_server(&running).with_caller(|request| {
        request
            .headers
            .get("x-caller")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    });
    let http = support::HttpServer::serve(server).await;
    let url = http.url();
    let state = state_of(&post_as(&url, "alice", json!({})).await);
    let answer = json!({"requestState": state, "inputResponses": {"value": accept(json!({"value": false}))}});
    let borrowed = post_as(&url, "bob", answer.clone()).await;
    assert_refused(
        &borrowed,
        "requestState names no call waiting for this caller's answer",
    );
    let answered = post_as(&url, "alice", answer).await;
    assert_eq!(
        answered["result"]["content"][0]["text"], "told false",
        "{answered}"
    );
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suspended_call_ends_at_its_deadline_and_is_forgotten_after_its_time_to_live() {
    let running = Arc::new(AtomicUsize::new(0));
    // The tool's deadline (2 s) passes while it waits: a late answer gets that result. Its
    // entry lives as long as by default, so however slow the machine, the answer finds it.
    let mut raw = Raw::serve(asking_server(&running));
    let state = state_of(&raw.call("go_on_quickly", json!({}), json!({})).await);
    assert_eq!(running.load(Ordering::SeqCst), 1);
    eventually("the call's end at its deadline", || {
        running.load(Ordering::SeqCst) == 0
    })
    .await;
    let late = raw
        .answer(
            "go_on_quickly",
            json!({}),
            &state,
            accept(json!({"value": true})),
        )
        .await;
    assert_eq!(late["result"]["isError"], true, "{late}");
    let late = late["result"]["content"][0]["text"].as_str().unwrap();
    assert!(late.starts_with("refused\ttimed-out\t"), "{late}");

    // Past its time to live, a waiting call is cancelled and its state forgotten.
    let server = asking_server(&running).with_waiting_calls(WaitingCalls {
        ttl: Duration::from_secs(4),
        ..WaitingCalls::default()
    });
    let mut raw = Raw::serve(server);
    let state = state_of(&raw.call("go_on", json!({}), json!({})).await);
    assert_eq!(running.load(Ordering::SeqCst), 1);
    eventually("the call's end when its entry expires", || {
        running.load(Ordering::SeqCst) == 0
    })
    .await;
    let expired = raw
        .answer("go_on", json!({}), &state, accept(json!({"value": true})))
        .await;
    assert_refused(
        &expired,
        "requestState names no call waiting for this caller's answer",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_client_that_never_answers_its_elicitation_holds_the_call_no_longer_than_its_deadline()
 {
    let running = Arc::new(AtomicUsize::new(0));
    let mut raw = Raw::serve(asking_server(&running));
    raw.initialize().await;
    let id = raw.send_call("go_on_quickly", json!({}), json!({})).await;
    let asked = raw.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(asked["params"]["message"], "Go on?");
    assert_eq!(asked["params"]["mode"], "form");
    // Never answered: the tool's deadline (2 s) ends the call.
    let result = raw.answer_to(id).await;
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("refused\ttimed-out\t"), "{result}");
    assert_eq!(
        result["result"].get("resultType"),
        None,
        "a 2025-11-25 result"
    );

    // Answered, the question's answer reaches the tool.
    let id = raw.send_call("go_on", json!({}), json!({})).await;
    let asked = raw.next().await;
    raw.send(json!({"jsonrpc": "2.0", "id": asked["id"],
                    "result": {"action": "accept", "content": {"value": true}}}))
        .await;
    let result = raw.answer_to(id).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "told true",
        "{result}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_client_s_unreadable_or_failed_answer_refuses_its_question_at_once() {
    let running = Arc::new(AtomicUsize::new(0));
    let mut raw = Raw::serve(asking_server(&running));
    raw.initialize_with(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}}))
        .await;

    // An error without a code cannot be read. The question is refused as the answer comes,
    // not at the call's deadline (60 s, past the 10 s `answer_to` waits).
    let id = raw.send_call("go_on", json!({}), json!({})).await;
    let asked = raw.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    raw.send(json!({"jsonrpc": "2.0", "id": asked["id"], "error": {"message": "no code"}}))
        .await;
    let refused = raw.answer_to(id).await;
    let said = text(&refused["result"]);
    assert!(said.starts_with("refused\tcannot-ask\t"), "{refused}");
    assert!(
        said.contains("the client's answer cannot be read"),
        "{refused}"
    );

    // `gather` asks all three at once; each is answered as `answers` says for its method.
    let accepted = json!({"result": {"action": "accept", "content": {"value": true}}});
    let word = json!({"result": sampled("word")});
    let roots = json!({"result": {"roots": [{"uri": "file:///r"}]}});
    let rejected = json!({"error": {"code": -1, "message": "User rejected sampling request"}});
    let no_method = json!({"error": {"code": -32601, "message": "Method not found"}});
    let unreadable = json!({"error": {"code": "x", "message": "m"}});
    for (sampling, listing, says) in [
        (
            &word,
            &roots,
            "told Some(true); sampled word; roots file:///r",
        ),
        // A client's own code is its refusal; JSON-RPC's say it could not be asked.
        (
            &rejected,
            &roots,
            "refused\tdeclined\tthe client declined to sample its model: User rejected sampling \
             request",
        ),
        (
            &word,
            &no_method,
            "refused\tcannot-ask\tthe client could not be asked its roots: Method not found",
        ),
        (
            &word,
            &unreadable,
            "refused\tcannot-ask\tthe client could not be asked its roots: the client's answer \
             cannot be read",
        ),
    ] {
        let id = raw.send_call("gather", json!({}), json!({})).await;
        for _ in 0..3 {
            let asked = raw.next().await;
            let mut answer = match asked["method"].as_str().unwrap_or_default() {
                "elicitation/create" => accepted.clone(),
                "sampling/createMessage" => sampling.clone(),
                "roots/list" => listing.clone(),
                _ => panic!("asked something else: {asked}"),
            };
            answer["jsonrpc"] = json!("2.0");
            answer["id"] = asked["id"].clone();
            raw.send(answer).await;
        }
        let result = raw.answer_to(id).await;
        assert!(text(&result["result"]).starts_with(says), "{result}");
    }
}

/// Posts `message` to `url`, in `session` once there is one, as a 2025-11-25 client does.
async fn post_legacy(url: &str, session: Option<&str>, message: &Value) -> reqwest::Response {
    support::install_tls();
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message.to_string());
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    tokio::time::timeout(Duration::from_secs(10), request.send())
        .await
        .expect("an answer within 10 s")
        .expect("the server answers HTTP")
}

/// Reads `stream` on, for at most 20 s, until a message of it is `wanted`; the messages read by
/// then.
async fn read_until(
    stream: &mut reqwest::Response,
    read: &mut Vec<u8>,
    wanted: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    // Well within the call's deadline (60 s), which would end the question too.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let messages = support::messages_in(&String::from_utf8_lossy(read));
        if messages.iter().any(&wanted) {
            return messages;
        }
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .unwrap_or_else(|_| panic!("no more within 20 s; read {messages:?}"))
            .expect("the stream reads");
        let Some(chunk) = chunk else {
            panic!("the stream ended; read {messages:?}");
        };
        read.extend_from_slice(&chunk);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_legacy_client_s_unreadable_answer_refuses_its_question_at_once() {
    let running = Arc::new(AtomicUsize::new(0));
    let http = support::HttpServer::serve(asking_server(&running)).await;
    let url = http.url();
    let opened = post_legacy(
        &url,
        None,
        &json!({"jsonrpc": "2.0", "id": 1,
        "method": "initialize", "params": {"protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "unreadable", "version": "0"}}}),
    )
    .await;
    let session = (opened.headers().get("mcp-session-id"))
        .and_then(|value| value.to_str().ok())
        .expect("a session")
        .to_owned();
    let session = Some(session.as_str());
    post_legacy(
        &url,
        session,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "go_on", "arguments": {}}});
    let mut stream = post_legacy(&url, session, &call).await;
    let mut read = Vec::new();
    let messages = read_until(&mut stream, &mut read, |message| {
        message["method"] == "elicitation/create"
    })
    .await;
    let asked = messages
        .iter()
        .find(|message| message["method"] == "elicitation/create")
        .expect("asked");

    // An error without a code cannot be read: refused, and the question ended in its place.
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "error": {"message": "no code"}});
    let refused = post_legacy(&url, session, &answer).await;
    assert_eq!(refused.status().as_u16(), 400);
    let refused: Value = refused.json().await.expect("a JSON-RPC error");
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(
        (refused["error"]["message"].as_str().unwrap_or_default())
            .contains("waiting under its `id`, if any, was ended"),
        "{refused}"
    );
    let messages = read_until(&mut stream, &mut read, |message| message["id"] == 2).await;
    let result = messages
        .iter()
        .find(|message| message["id"] == 2)
        .expect("the call's answer");
    let said = text(&result["result"]);
    assert!(said.starts_with("refused\tcannot-ask\t"), "{result}");
    assert!(
        said.contains("the client's answer cannot be read"),
        "{result}"
    );
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_bound_on_waiting_calls_a_question_is_refused_and_the_others_wait_on() {
    let running = Arc::new(AtomicUsize::new(0));
    let server = asking_server(&running).with_waiting_calls(WaitingCalls {
        max_per_caller: 2,
        ..WaitingCalls::default()
    });
    let mut raw = Raw::serve(server);
    let first = state_of(&raw.call("go_on", json!({}), json!({})).await);
    let second = state_of(&raw.call("go_on", json!({}), json!({})).await);
    let third = raw.call("go_on", json!({}), json!({})).await;
    assert_eq!(third["result"]["isError"], true, "{third}");
    let refused = third["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        refused.starts_with(
            "refused\tcannot-ask\tthis caller has as many calls waiting for answers as it may (2)"
        ),
        "{refused}"
    );
    for (state, value) in [(first, true), (second, false)] {
        let answered = raw
            .answer("go_on", json!({}), &state, accept(json!({"value": value})))
            .await;
        assert_eq!(
            answered["result"]["content"][0]["text"],
            format!("told {value}")
        );
    }
}
