//! Deferred loading over HTTP without a session, checked on the wire with hand-written JSON-RPC:
//! MCP 2026-07-28 requests (each naming its protocol version in `_meta`, none with a session
//! header) and 2025-11-25 requests to a server without sessions. What a caller's search finds
//! is listed and callable on that caller's later requests, and no other caller's; that caller's
//! listen streams hear of it; a request with no caller gets the schemas in the search's
//! answer and may call a found tool unlisted; ungranted tools are never found nor let through.

use std::time::Duration;

use serde_json::{Value, json};
use support::HttpServer;
use tool_core::Grant;
use tool_mcp::McpServer;

mod support;

const LEGACY: &str = "2025-11-25";
const CURRENT: &str = "2026-07-28";

/// How long one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(20);

/// A registry listing `weather` always, whose callers are named by an `x-caller` header and
/// are all granted `note_write` and `weather`, never `note_purge`, as are requests without one.
fn server() -> McpServer {
    let registry = support::notebook::deferred();
    McpServer::new(registry)
        .with_caller(|parts| {
            let caller = parts.headers.get("x-caller")?.to_str().ok()?;
            Some(caller.to_owned())
        })
        .with_grant(|_| Grant::new().tool("note_write").tool("weather"))
        .with_anonymous(Grant::new().tool("note_write").tool("weather"))
}

/// One revision's requests over HTTP, as one caller (or none) makes them.
struct Caller {
    client: reqwest::Client,
    url: String,
    name: Option<&'static str>,
    revision: &'static str,
    next_id: u64,
}

impl Caller {
    fn new(url: &str, name: Option<&'static str>, revision: &'static str) -> Caller {
        // reqwest is built with rmcp's TLS features, which need a process-wide crypto provider
        // even for plain HTTP.
        support::install_tls();
        Caller {
            client: reqwest::Client::new(),
            url: url.to_owned(),
            name,
            revision,
            next_id: 1,
        }
    }

    /// A request of `method`, with the `_meta` of 2026-07-28 when that is the revision.
    fn message(&mut self, method: &str, mut params: Value) -> Value {
        if self.revision == CURRENT {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": CURRENT,
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    fn post(&self, message: &Value) -> reqwest::RequestBuilder {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", self.revision)
            .body(message.to_string());
        if let Some(method) = message["method"].as_str() {
            request = request.header("mcp-method", method);
        }
        if let Some(name) = message["params"]["name"].as_str() {
            request = request.header("mcp-name", name);
        }
        if let Some(caller) = self.name {
            request = request.header("x-caller", caller);
        }
        request
    }

    /// Sends a request; every JSON-RPC message of its answer (one JSON body, or each event's
    /// data), the answer last. No answer carries a session id.
    async fn exchange(&mut self, method: &str, params: Value) -> Vec<Value> {
        let message = self.message(method, params);
        let response = tokio::time::timeout(ANSWER_LIMIT, self.post(&message).send())
            .await
            .unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
            .expect("the server answers HTTP");
        assert!(
            response.headers().get("mcp-session-id").is_none(),
            "no session is issued: {message}"
        );
        let status = response.status();
        let body = tokio::time::timeout(ANSWER_LIMIT, response.text())
            .await
            .expect("the answer ends")
            .expect("the answer reads");
        assert!(
            status.is_success(),
            "{message} was answered {status}: {body}"
        );
        let messages: Vec<Value> = support::messages_in(&body);
        assert!(
            messages.iter().any(|each| each["id"] == message["id"]),
            "no answer to {message} in {body}"
        );
        messages
    }

    /// Sends a request and returns its `result`.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let messages = self.exchange(method, params).await;
        let answer = messages.last().cloned().unwrap_or_default();
        match answer.get("result") {
            Some(result) => result.clone(),
            None => panic!("expected a result, the server answered {answer}"),
        }
    }

    async fn listed(&mut self) -> Vec<String> {
        let result = self.request("tools/list", json!({})).await;
        result["tools"]
            .as_array()
            .expect("a list of tools")
            .iter()
            .map(|tool| tool["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// Opens a `subscriptions/listen` stream (2026-07-28) and reads its acknowledgment.
    async fn listen(&mut self) -> Stream {
        let message = self.message(
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        );
        let response = tokio::time::timeout(ANSWER_LIMIT, self.post(&message).send())
            .await
            .expect("the stream opens")
            .expect("the server answers HTTP");
        assert!(response.status().is_success(), "{}", response.status());
        let mut stream = Stream {
            response,
            pending: String::new(),
        };
        let acknowledged = stream.next(ANSWER_LIMIT).await.expect("an acknowledgment");
        assert_eq!(
            acknowledged["method"], "notifications/subscriptions/acknowledged",
            "{acknowledged}"
        );
        stream
    }
}

/// An open listen stream's server-sent events.
struct Stream {
    response: reqwest::Response,
    pending: String,
}

impl Stream {
    /// The next JSON-RPC message on the stream, or `None` if none comes within `limit`.
    async fn next(&mut self, limit: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            while let Some(end) = self.pending.find('\n') {
                let line: String = self.pending.drain(..=end).collect();
                if let Some(data) = line.trim().strip_prefix("data:")
                    && let Ok(message) = serde_json::from_str::<Value>(data.trim())
                {
                    return Some(message);
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .ok()?
                .expect("the stream reads")?;
            self.pending.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The next `notifications/tools/list_changed`, passing over keep-alive and other events.
    async fn list_changed(&mut self, limit: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = self.next(left).await?;
            if message["method"] == "notifications/tools/list_changed" {
                return Some(message);
            }
        }
    }
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// What the tests below check for each revision: a search on one request lists (and lets
/// through) the found tool on the caller's next requests, and not on another caller's.
async fn a_caller_s_search_lasts_across_its_requests(server: McpServer, revision: &'static str) {
    let http = HttpServer::serve(server).await;
    let mut ann = Caller::new(&http.url(), Some("ann"), revision);
    let mut bob = Caller::new(&http.url(), Some("bob"), revision);
    assert_eq!(ann.listed().await, ["tool_search", "weather"]);
    let refused = ann.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");

    let found = ann
        .call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    assert!(text_of(&found).contains("note_write"), "{found}");
    // Listed: the schema is not in the answer.
    assert!(!text_of(&found).contains("inputSchema"), "{found}");
    assert_eq!(
        ann.listed().await,
        ["tool_search", "note_write", "weather"],
        "{revision}"
    );
    let written = ann.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(text_of(&written), "wrote hi", "{revision}: {written}");

    // Bob has found nothing.
    assert_eq!(bob.listed().await, ["tool_search", "weather"], "{revision}");
    let refused = bob.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(refused["isError"], json!(true), "{revision}: {refused}");
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_caller_s_search_is_listed_on_its_later_requests_only() {
    a_caller_s_search_lasts_across_its_requests(server(), CURRENT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_caller_s_search_lasts_on_a_server_without_sessions() {
    a_caller_s_search_lasts_across_its_requests(server().stateless(), LEGACY).await;
}

/// A 2025-11-25 search without a session is told of the growth on the call's own answer
/// stream, the one stream it has.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_search_without_a_session_says_the_list_changed_in_its_answer() {
    let http = HttpServer::serve(server().stateless()).await;
    let mut ann = Caller::new(&http.url(), Some("ann"), LEGACY);
    let messages = ann
        .exchange(
            "tools/call",
            json!({"name": "tool_search", "arguments": {"query": "write a note"}}),
        )
        .await;
    assert!(
        messages
            .iter()
            .any(|message| message["method"] == "notifications/tools/list_changed"),
        "{messages:?}"
    );
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_s_listen_stream_hears_of_its_own_search() {
    let http = HttpServer::serve(server()).await;
    let mut ann = Caller::new(&http.url(), Some("ann"), CURRENT);
    let mut bob = Caller::new(&http.url(), Some("bob"), CURRENT);
    let mut ann_listening = ann.listen().await;
    let mut bob_listening = bob.listen().await;

    ann.call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    let changed = ann_listening
        .list_changed(ANSWER_LIMIT)
        .await
        .expect("ann's stream hears of ann's search");
    assert!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number(),
        "the notice names its stream: {changed}"
    );
    assert!(
        bob_listening
            .list_changed(Duration::from_millis(500))
            .await
            .is_none(),
        "bob's stream hears nothing of ann's search"
    );

    // A search finding nothing new is not a change.
    ann.call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    assert!(
        ann_listening
            .list_changed(Duration::from_millis(500))
            .await
            .is_none(),
        "ann's list did not change"
    );
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_with_no_caller_gets_schemas_and_calls_found_tools_unlisted() {
    for (revision, server) in [(CURRENT, server()), (LEGACY, server().stateless())] {
        let http = HttpServer::serve(server).await;
        let mut anyone = Caller::new(&http.url(), None, revision);
        let found = anyone
            .call(
                "tool_search",
                json!({"query": "notes notebook delete write", "limit": 10}),
            )
            .await;
        let answer: Value = serde_json::from_str(&text_of(&found)).expect("a JSON answer");
        let tools = answer["tools"].as_array().expect("the tools found");
        let write = tools
            .iter()
            .find(|tool| tool["name"] == "note_write")
            .unwrap_or_else(|| panic!("{revision}: note_write is found: {answer}"));
        assert_eq!(
            write["inputSchema"]["properties"]["text"]["type"], "string",
            "{revision}: the answer carries what is needed to call it: {answer}"
        );
        assert!(
            !tools.iter().any(|tool| tool["name"] == "note_purge"),
            "{revision}: an ungranted tool is never found: {answer}"
        );
        // Nothing ties this request to the next: the list stays short...
        assert_eq!(anyone.listed().await, ["tool_search", "weather"]);
        // ...but a granted tool is called all the same, and an ungranted one refused.
        let written = anyone.call("note_write", json!({"text": "hi"})).await;
        assert_eq!(text_of(&written), "wrote hi", "{revision}: {written}");
        let refused = anyone.call("note_purge", json!({})).await;
        assert_eq!(refused["isError"], json!(true), "{revision}: {refused}");
        assert!(!text_of(&refused).contains("purged"), "{refused}");
        // Refused as a tool that is not there: the refusal tells no ungranted tool from none.
        let missing = anyone.call("note_burn", json!({})).await;
        let shape = |answer: &Value| {
            text_of(answer)
                .replace("note_purge", "NAME")
                .replace("note_burn", "NAME")
        };
        assert!(
            text_of(&refused).starts_with("refused\tunknown-tool\t"),
            "{revision}: {refused}"
        );
        assert_eq!(shape(&refused), shape(&missing), "{revision}");
        http.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_never_finds_nor_calls_an_ungranted_tool() {
    let http = HttpServer::serve(server()).await;
    let mut ann = Caller::new(&http.url(), Some("ann"), CURRENT);
    let found = ann
        .call(
            "tool_search",
            json!({"query": "notes notebook delete purge write", "limit": 10}),
        )
        .await;
    assert!(text_of(&found).contains("note_write"), "{found}");
    assert!(!text_of(&found).contains("note_purge"), "{found}");
    assert!(!ann.listed().await.contains(&"note_purge".to_owned()));
    let refused = ann.call("note_purge", json!({})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert!(!text_of(&refused).contains("purged"), "{refused}");
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_caller_s_found_tools_are_forgotten() {
    // Long enough for the listing right after the search to come within it on a loaded machine.
    let idle = Duration::from_secs(6);
    let server = server().with_caller_sessions(100, idle);
    let http = HttpServer::serve(server).await;
    let mut ann = Caller::new(&http.url(), Some("ann"), CURRENT);
    ann.call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    assert_eq!(ann.listed().await, ["tool_search", "note_write", "weather"]);
    // Every request is a use: wait without one, past the idle time.
    tokio::time::sleep(idle + Duration::from_secs(1)).await;
    assert_eq!(ann.listed().await, ["tool_search", "weather"]);
    http.stop().await;
}
