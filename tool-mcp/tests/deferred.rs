//! Deferred loading over MCP: a registry with deferred loading lists `tool_search` and its
//! chosen few; a search grows the session's `tools/list` and sends
//! `notifications/tools/list_changed`; other connections and ungranted tools stay unlisted.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tool_core::{Grant, Registry, tool};
use tool_mcp::McpServer;

/// Writes a note to the notebook.
#[tool(tags("notes"))]
async fn note_write(text: String) -> String {
    format!("wrote {text}")
}

/// Deletes every note in the notebook.
#[tool(tags("notes"))]
async fn note_purge() -> String {
    "purged".to_owned()
}

/// Tells the weather forecast for a city.
#[tool(readonly)]
async fn weather(city: String) -> String {
    format!("sunny in {city}")
}

fn registry() -> Registry {
    Registry::builder()
        .tool(NoteWrite)
        .tool(NotePurge)
        .tool(Weather)
        .build()
        .unwrap()
        .with_deferred_loading(["weather"])
}

/// A client writing JSON-RPC lines to [`McpServer::serve_lines`] over an in-memory pipe, already
/// initialized.
struct Client {
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    next_id: i64,
    /// Notifications read while waiting for an answer.
    notifications: Vec<Value>,
}

impl Client {
    async fn connect(server: McpServer) -> Client {
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let (reader, writer) = tokio::io::split(server_end);
            let _ = server.serve_lines(reader, writer).await;
        });
        let (reader, writer) = tokio::io::split(client_end);
        let mut client = Client {
            writer,
            lines: tokio::io::BufReader::new(reader).lines(),
            next_id: 1,
            notifications: Vec::new(),
        };
        client
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "deferred", "version": "0"}}),
            )
            .await;
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        self.writer
            .write_all(message.to_string().as_bytes())
            .await
            .unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    /// Sends a request and returns its result, keeping notifications that come before it.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("the server answers")
                .unwrap()
                .expect("the pipe stays open");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message["result"].clone();
            }
            self.notifications.push(message);
        }
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
