//! Deferred loading over MCP: a registry with deferred loading lists `tool_search` and its
//! chosen few; a search grows the session's `tools/list` and sends
//! `notifications/tools/list_changed` (to a 2026-07-28 client, on the listen streams of its
//! connection); other connections and ungranted tools stay unlisted. (Without sessions:
//! `deferred_without_sessions.rs`.)

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{Grant, Registry};
use tool_mcp::McpServer;

mod support;

use support::lines::{ANSWER_LIMIT, LineClient as Client};

fn registry() -> Registry {
    support::notebook::deferred()
}

/// What only these tests ask of a line client.
impl Client {
    /// Opens a `subscriptions/listen` stream for tool-list changes; its id, once acknowledged.
    async fn listen(&mut self) -> i64 {
        let id = self
            .start(
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true}}),
            )
            .await;
        let acknowledged = self.next(ANSWER_LIMIT).await.expect("an acknowledgment");
        assert_eq!(
            acknowledged["method"], "notifications/subscriptions/acknowledged",
            "{acknowledged}"
        );
        id
    }

    /// The `list_changed` notices heard so far on the listen stream `id`.
    fn heard_on(&self, id: i64) -> usize {
        self.notifications
            .iter()
            .filter(|message| {
                message["method"] == "notifications/tools/list_changed"
                    && message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == id
            })
            .count()
    }

    async fn listed(&mut self) -> Vec<String> {
        let result = self.request("tools/list", json!({})).await;
        result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    }

    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
    }

    fn heard_list_changed(&self) -> bool {
        self.notifications
            .iter()
            .any(|message| message["method"] == "notifications/tools/list_changed")
    }
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_search_grows_the_session_s_list_and_says_so() {
    let server = McpServer::new(registry());
    let mut client = Client::connect(server.clone()).await;
    assert_eq!(client.listed().await, ["tool_search", "weather"]);

    let refused = client.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert!(text_of(&refused).contains("tool_search"), "{refused}");

    let found = client
        .call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    assert!(text_of(&found).contains("note_write"), "{found}");
    assert!(client.heard_list_changed(), "{:?}", client.notifications);
    assert_eq!(
        client.listed().await,
        ["tool_search", "note_write", "weather"]
    );
    let written = client.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(text_of(&written), "wrote hi", "{written}");

    // Another connection to the same server has found nothing.
    let mut other = Client::connect(server).await;
    assert_eq!(other.listed().await, ["tool_search", "weather"]);
}

#[tokio::test]
async fn a_search_never_finds_nor_lets_through_an_ungranted_tool() {
    let server = McpServer::new(registry().scoped(Grant::new().tool("note_write").tool("weather")));
    let mut client = Client::connect(server).await;
    let found = client
        .call(
            "tool_search",
            json!({"query": "notes notebook delete write", "limit": 10}),
        )
        .await;
    assert!(text_of(&found).contains("note_write"), "{found}");
    assert!(!text_of(&found).contains("note_purge"), "{found}");
    assert!(!client.listed().await.contains(&"note_purge".to_owned()));
    let refused = client.call("note_purge", json!({})).await;
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert!(!text_of(&refused).contains("purged"), "{refused}");
}

/// Over stdio a 2026-07-28 client's connection is its session: a search there grows what that
/// connection is listed, and every listen stream open on it hears so; another connection's
/// streams hear nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_client_hears_of_its_search_on_each_of_its_listen_streams() {
    let server = McpServer::new(registry());
    let mut client = Client::connect_current(server.clone());
    let mut other = Client::connect_current(server);
    let first = client.listen().await;
    let second = client.listen().await;
    let elsewhere = other.listen().await;

    let found = client
        .call("tool_search", json!({"query": "write a note", "limit": 1}))
        .await;
    assert!(text_of(&found).contains("note_write"), "{found}");
    // The notices may come after the search's answer: wait for both.
    while client.heard_on(first) == 0 || client.heard_on(second) == 0 {
        let message = client
            .next(ANSWER_LIMIT)
            .await
            .unwrap_or_else(|| panic!("both streams hear: {:?}", client.notifications));
        client.notifications.push(message);
    }
    assert_eq!(
        client.listed().await,
        ["tool_search", "note_write", "weather"]
    );
    let written = client.call("note_write", json!({"text": "hi"})).await;
    assert_eq!(text_of(&written), "wrote hi", "{written}");

    // Only the listen streams carry the notice to a 2026-07-28 client, once each.
    let notices = client
        .notifications
        .iter()
        .filter(|message| message["method"] == "notifications/tools/list_changed")
        .count();
    assert_eq!(notices, 2, "{:?}", client.notifications);

    assert!(other.next(Duration::from_millis(500)).await.is_none());
    assert_eq!(other.heard_on(elsewhere), 0);
    assert_eq!(other.listed().await, ["tool_search", "weather"]);
}

/// A 2025-11-25 HTTP session keeps what its searches found; another session does not see it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_session_keeps_what_its_searches_found() {
    let http = support::HttpServer::serve(McpServer::new(registry())).await;
    let listed = async |session: &support::HttpSession| -> Vec<String> {
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
        let answer = session.request(1, &list).await;
        answer["result"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|tool| tool["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let one = support::HttpSession::open(&http.url()).await;
    let two = support::HttpSession::open(&http.url()).await;
    let search = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "tool_search", "arguments": {"query": "write a note", "limit": 1}}});
    let found = one.request(1, &search).await;
    assert!(text_of(&found["result"]).contains("note_write"), "{found}");
    assert_eq!(listed(&one).await, ["tool_search", "note_write", "weather"]);
    assert_eq!(listed(&two).await, ["tool_search", "weather"]);
    http.stop().await;
}
