//! A remote toolkit against a server on the official Python `mcp` SDK, over streamable HTTP in
//! the SDK's default mode (sessions, answers as event streams): its tools join a registry, are
//! called there, and follow the server's changes, told on the stream the toolkit opened with a
//! GET before it listed them.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use support::process::ChildGuard;
use tool_core::{Context, Registry, ToolCall};
use tool_mcp::RemoteToolkit;

/// The Python server on a free port, once it takes connections, and its URL.
fn python_server() -> (ChildGuard, String) {
    let port = support::oidc::free_port();
    let mut server = ChildGuard::spawn(
        Command::new(support::clients::python())
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/mcp_grow_server.py"
            ))
            .arg(port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        "the Python SDK's server",
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = server.try_wait() {
            panic!(
                "the Python SDK's server ended ({status}) before it listened: run \
                 tests/mcp_grow_server.py {port} with target/test-clients/python/bin/python \
                 to see why"
            );
        }
        assert!(
            Instant::now() < deadline,
            "the Python SDK's server did not listen on port {port} within two minutes"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, format!("http://127.0.0.1:{port}/mcp"))
}

fn names(registry: &Registry) -> Vec<String> {
    let mut names = registry.names();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_sdk_server_s_tools_are_called_and_followed_as_it_changes_them() {
    let (_server, url) = python_server();
    let remote = RemoteToolkit::connect_http("python", &url)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let _following = remote.follow(&registry);
    assert_eq!(names(&registry), ["add", "grow"]);
    let context = Context::default();

    let added = (registry.call(ToolCall::new("1", "add", json!({"a": 2, "b": 3})), &context)).await;
    assert!(!added.is_refused(), "{}", added.text());
    assert!(added.text().contains('5'), "{}", added.text());

    let grown = (registry.call(ToolCall::new("2", "grow", json!({})), &context)).await;
    assert!(grown.text().contains("grown"), "{}", grown.text());
    // The change is told on the session's stream; the registry has the new tool once it has
    // been listed again.
    let deadline = Instant::now() + Duration::from_secs(120);
    while names(&registry) != ["add", "grow", "twice"] {
        assert!(
            Instant::now() < deadline,
            "the server's change did not reach the registry: {:?}",
            names(&registry)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let doubled = (registry.call(ToolCall::new("3", "twice", json!({"n": 4})), &context)).await;
    assert!(doubled.text().contains('8'), "{}", doubled.text());
}
