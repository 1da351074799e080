//! The server and the remote toolkit, end to end in one process: a remote tool answers as the
//! same tool in process, grants hold before anything is sent, dead or hung servers still
//! answer, and the server answers every line (`serve_lines`) and every HTTP request it is sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rmcp::service::ServiceExt;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use serde_json::json;
use support::HttpServer;
use support::lines::{ANSWER_LIMIT, LineClient};
use tool_core::call::Arguments;
use tool_core::outcome::Content;
use tool_core::{Context, Grant, Refusal, Registry, ToolCall, tool, toolkit};
use tool_mcp::{McpServer, RemoteToolkit};

mod support;

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Item {
    sku: String,
    qty: u32,
}

/// Tools that give every kind of answer, counting the calls that reach them.
struct Shop {
    calls: Arc<AtomicUsize>,
    stalled_call_cancelled: Arc<tokio::sync::Notify>,
}

#[toolkit(name = "shop")]
impl Shop {
    /// Prices items.
    #[tool(readonly)]
    async fn shop_price(&self, items: Vec<Item>, note: Option<String>) -> Result<Priced, Refusal> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if items.is_empty() {
            return Err(Refusal::new("empty", "nothing to price").line("hint", ["add items"]));
        }
        Ok(Priced {
            total: items.iter().map(|item| item.qty * 3).sum(),
            lines: items,
            note,
        })
    }

    /// Greets.
    #[tool(readonly)]
    async fn shop_greet(&self, name: String) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        format!("hello {name}\twith a tab")
    }

    /// Shows the logo.
    #[tool(readonly)]
    async fn shop_logo(&self) -> Vec<Content> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        vec![
            Content::text("logo"),
            Content::image(vec![1, 2, 3], "image/png"),
        ]
    }

    /// Breaks.
    #[tool]
    async fn shop_break(&self) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        panic!("the shop broke")
    }

    /// Does nothing.
    #[tool]
    async fn shop_idle(&self) {
        self.calls.fetch_add(1, Ordering::SeqCst);
    }

    /// Takes its time, until the call is cancelled; then says so to the test.
    #[tool]
    async fn shop_stall(&self, ctx: &Context) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(3600)) => {}
            () = ctx.cancellation().cancelled() => self.stalled_call_cancelled.notify_one(),
        }
        "done".to_owned()
    }
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Priced {
    total: u32,
    lines: Vec<Item>,
    note: Option<String>,
}

fn shop() -> (Registry, Arc<AtomicUsize>) {
    let (registry, calls, _) = shop_telling_of_cancels();
    (registry, calls)
}

/// The shop, with what `shop_stall` is told when its call is cancelled.
fn shop_telling_of_cancels() -> (Registry, Arc<AtomicUsize>, Arc<tokio::sync::Notify>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let cancelled = Arc::new(tokio::sync::Notify::new());
    let registry = tool_core::registry![Shop {
        calls: calls.clone(),
        stalled_call_cancelled: cancelled.clone(),
    }];
    (registry, calls, cancelled)
}

/// Serves `registry` over an in-memory pipe and connects a remote toolkit to it. Sending on
/// the returned channel stops the server; the task ends once it has stopped for good.
async fn over_mcp(
    registry: Registry,
) -> (
    RemoteToolkit,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(async move {
        if let Ok(running) = McpServer::new(registry).serve(server_end).await {
            // Dropping a running service closes it some time later; cancelling waits for it.
            let _ = stopped.await;
            let _ = running.cancel().await;
        }
    });
    let remote = RemoteToolkit::connect("shop", client_end)
        .await
        .expect("the server answers");
    (remote, stop, server)
}

/// `registry`'s tools as MCP is told of them, each hint left out written as MCP's default
/// (`destructiveHint` true for a tool that is not read-only, `openWorldHint` true).
fn hints_said(registry: &Registry) -> Vec<serde_json::Value> {
    let mut exported: Vec<_> = registry.export(tool_core::Provider::Mcp).unwrap().to_vec();
    for tool in &mut exported {
        let hints = tool["annotations"].as_object_mut().unwrap();
        let read_only = hints.get("readOnlyHint") == Some(&json!(true));
        hints.entry("openWorldHint").or_insert(json!(true));
        if !read_only {
            hints.entry("destructiveHint").or_insert(json!(true));
        }
    }
    exported
}

fn calls() -> Vec<ToolCall> {
    vec![
        ToolCall::new(
            "1",
            "shop_price",
            json!({"items": [{"sku": "a", "qty": 2}], "note": "gift"}),
        ),
        ToolCall::new("2", "shop_price", json!({"items": []})),
        ToolCall::new(
            "3",
            "shop_price",
            json!({"items": [{"sku": 1}], "colour": null}),
        ),
        ToolCall::new("4", "shop_price", json!([1, 2])),
        ToolCall::new("5", "shop_greet", json!({"name": "ann"})),
        ToolCall::new("6", "shop_logo", json!({})),
        ToolCall::new("7", "shop_break", json!({})),
        ToolCall::new("8", "shop_idle", json!({})),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_answers_byte_for_byte_alike_in_process_and_over_mcp() {
    let (local, _) = shop();
    let (served, _) = shop();
    let (remote, _stop, _server) = over_mcp(served).await;
    let through_mcp = remote.add_to(Registry::builder()).build().unwrap();
    assert_eq!(
        hints_said(&through_mcp),
        hints_said(&local),
        "the remote tools advertise what the local ones do"
    );
    // A hint the server leaves out is MCP's default, and the remote toolkit writes it out:
    // `shop_idle`, not read-only and not said to destroy, may destroy for all a client knows.
    let idle = |registry: &Registry| {
        let exported = registry.export(tool_core::Provider::Mcp).unwrap();
        let idle = exported.iter().find(|tool| tool["name"] == "shop_idle");
        idle.unwrap()["annotations"].clone()
    };
    assert_eq!(idle(&local), json!({"readOnlyHint": false}));
    assert_eq!(
        idle(&through_mcp),
        json!({"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true})
    );
    let ctx = Context::default();
    for call in calls() {
        let here = local.call(call.clone(), &ctx).await;
        let there = through_mcp.call(call, &ctx).await;
        assert_eq!(
            serde_json::to_string(&there).unwrap(),
            serde_json::to_string(&here).unwrap()
        );
    }
}

#[tokio::test]
async fn a_remote_toolkit_s_tools_need_the_scopes_it_gives_them() {
    let (shop, calls) = shop();
    let (remote, _stop, _server) = over_mcp(shop).await;
    // Told nothing, a remote tool needs no scope, and a token holding none may call it.
    let bare = remote.add_to(Registry::builder()).build().unwrap();
    assert!(bare.definitions().iter().all(|tool| tool.scopes.is_empty()));

    let remote = remote
        .with_prefix("s_")
        .with_scopes(|tool| match tool.annotations.read_only {
            true => vec!["shop:read".to_owned()],
            false => vec![format!("{}:write", tool.name)],
        });
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let mut readers = Vec::new();
    for tool in registry.definitions().iter() {
        let wanted = match tool.annotations.read_only {
            true => "shop:read".to_owned(),
            false => format!("{}:write", tool.name),
        };
        assert_eq!(tool.scopes, [wanted], "{}", tool.name);
        if tool.annotations.read_only {
            readers.push(tool.name.clone());
        }
    }
    assert_eq!(readers, ["s_shop_price", "s_shop_greet", "s_shop_logo"]);
    // A token of `shop:read` alone sees the read-only tools, and its call of another never
    // reaches the server.
    let reader = registry.scoped(Grant::scopes(["shop:read"]));
    assert_eq!(reader.names(), readers);
    let refused = reader
        .call(
            ToolCall::new("1", "s_shop_break", json!({})),
            &Context::default(),
        )
        .await;
    assert_eq!(refused.refusal().unwrap().code, "not-permitted");
    let greeted = reader
        .call(
            ToolCall::new("2", "s_shop_greet", json!({"name": "x"})),
            &Context::default(),
        )
        .await;
    assert_eq!(greeted.text(), "hello x\twith a tab");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "only the greeting reached the server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_whose_tools_share_names_serve_one_registry_under_prefixes() {
    let (first, first_calls) = shop();
    let (second, second_calls) = shop();
    let (first_remote, _stop_first, _first) = over_mcp(first.clone()).await;
    let (second_remote, _stop_second, _second) = over_mcp(second).await;

    let error = match first_remote
        .add_to(second_remote.add_to(Registry::builder()))
        .build()
    {
        Err(error) => error,
        Ok(_) => panic!("two servers' `shop_greet`s were both taken"),
    };
    assert_eq!(
        error.to_string(),
        "two tools are named `shop_price`, one of toolkit `shop`, one of toolkit `shop`; tool \
         names must be unique within a registry: offer a remote server's tools under a prefix \
         (`RemoteToolkit::with_prefix`)"
    );

    let first_remote = first_remote.with_prefix("first_");
    let second_remote = second_remote.with_prefix("second_");
    let registry = first_remote
        .add_to(second_remote.add_to(Registry::builder()))
        .build()
        .unwrap();
    assert!(registry.names().contains(&"first_shop_greet".to_owned()));
    assert!(registry.names().contains(&"second_shop_greet".to_owned()));
    let call = ToolCall::new("1", "second_shop_greet", json!({"name": "x"}));
    let result = registry.call(call, &Context::default()).await;
    assert_eq!(result.text(), "hello x\twith a tab");
    assert_eq!(
        second_calls.load(Ordering::SeqCst),
        1,
        "the call reached its server"
    );
    assert_eq!(first_calls.load(Ordering::SeqCst), 0);
    // The server's refusal names the tool as the model called it, not as the server lists it.
    let call = ToolCall::new("2", "second_shop_greet", json!({"name": 5}));
    let refusal = registry.call(call, &Context::default()).await;
    let refusal = refusal.refusal().unwrap();
    assert_eq!(refusal.code, "bad-arguments", "{refusal}");
    assert!(
        refusal.message.contains("of second_shop_greet;"),
        "{refusal}"
    );

    // Followed, a tool the server takes away goes under its prefixed name, and only it.
    let _following = first_remote.follow(&registry);
    let mut changes = registry.subscribe();
    assert!(first.remove("shop_greet"));
    let change = tokio::time::timeout(Duration::from_secs(60), changes.recv())
        .await
        .expect("the removal reached the registry")
        .unwrap();
    assert_eq!(format!("{change:?}"), r#"Removed(["first_shop_greet"])"#);
    assert!(registry.names().contains(&"second_shop_greet".to_owned()));
    assert!(registry.names().contains(&"first_shop_price".to_owned()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_left_out_of_a_toolkit_stay_out_as_it_follows_its_server() {
    let (shop, _) = shop();
    let (remote, _stop, _server) = over_mcp(shop.clone()).await;
    let remote = remote
        .without(["shop_price"])
        .without(["shop_logo", "no_such_tool"]);
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let names = registry.names();
    assert!(names.contains(&"shop_greet".to_owned()), "{names:?}");
    for left_out in ["shop_price", "shop_logo"] {
        assert!(!names.contains(&left_out.to_owned()), "{names:?}");
        let refused = registry
            .call(ToolCall::new("1", left_out, json!({})), &Context::default())
            .await;
        assert_eq!(refused.refusal().unwrap().code, "unknown-tool");
    }

    // Listed again after each change the server tells of, they are still left out: two
    // changes, the second heard only once the listing after the first is taken in full.
    let _following = remote.follow(&registry);
    let mut changes = registry.subscribe();
    for gone in ["shop_greet", "shop_idle"] {
        assert!(shop.remove(gone));
        let change = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .expect("the removal reached the registry")
            .unwrap();
        assert_eq!(format!("{change:?}"), format!(r#"Removed(["{gone}"])"#));
    }
    let names = registry.names();
    assert!(
        !names.contains(&"shop_price".to_owned()) && !names.contains(&"shop_logo".to_owned()),
        "{names:?}"
    );
    assert!(names.contains(&"shop_break".to_owned()), "{names:?}");

    // By the registry's name too, after a prefix, as a refusal names the tool.
    let (other, _) = crate::shop();
    let (remote, _stop, _server) = over_mcp(other).await;
    let remote = remote.with_prefix("p_").without(["p_shop_break"]);
    let names: Vec<_> = remote.tools().iter().map(|t| t.definition().name).collect();
    assert!(names.contains(&"p_shop_greet".to_owned()), "{names:?}");
    assert!(
        !names.iter().any(|name| name.ends_with("shop_break")),
        "{names:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_tool_whose_change_is_refused_stays_as_it_was_and_is_still_followed() {
    // The server lists `a`; then `a` with a field whose schema is no schema (refused for every
    // provider); then no `a`. Each `poke` call tells of a change.
    let listings = Arc::new(AtomicUsize::new(0));
    let relisted = Arc::new(tokio::sync::Notify::new());
    let (counted, told) = (listings.clone(), relisted.clone());
    let script = move |message: &serde_json::Value| match message["method"].as_str() {
        Some("tools/list") => {
            let listing = counted.fetch_add(1, Ordering::SeqCst);
            let a = match listing {
                0 => Some(listed("a")),
                1 => Some(json!({"name": "a", "inputSchema": {"type": "object",
                                  "properties": {"x": "string"}}})),
                _ => None,
            };
            if listing > 0 {
                told.notify_one();
            }
            let tools: Vec<_> = a.into_iter().chain([listed("poke")]).collect();
            reply(message, json!({"tools": tools}))
        }
        Some("tools/call") => {
            let mut answer = reply(message, json!({"content": []}));
            answer.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
            answer
        }
        _ => initialized(message),
    };
    let remote = scripted(script).await.expect("the scripted server joins");
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let _following = remote.follow(&registry);
    let mut changes = registry.subscribe();
    let ctx = Context::default();
    let poke = || registry.call(ToolCall::new("1", "poke", json!({})), &ctx);

    poke().await;
    tokio::time::timeout(Duration::from_secs(60), relisted.notified())
        .await
        .expect("the tools were listed again");
    // The changed `a` is refused: the registry keeps `a` as it was.
    assert!(registry.names().contains(&"a".to_owned()));
    poke().await;
    let change = tokio::time::timeout(Duration::from_secs(60), changes.recv())
        .await
        .expect("the server's removal of `a` reached the registry")
        .unwrap();
    assert_eq!(format!("{change:?}"), r#"Removed(["a"])"#);
    assert_eq!(listings.load(Ordering::SeqCst), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_tool_outside_the_grant_is_refused_with_nothing_sent() {
    let (served, remote_calls) = shop();
    let (remote, _stop, _server) = over_mcp(served).await;
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let view = registry.scoped(Grant::new().tool("shop_greet"));
    let result = view
        .call(
            ToolCall::new("1", "shop_price", json!({"items": []})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.refusal().unwrap().code, "not-permitted");
    assert_eq!(
        remote_calls.load(Ordering::SeqCst),
        0,
        "the remote was called"
    );

    // A grant of the whole remote toolkit lets its tools through.
    let toolkit_view = registry.scoped(Grant::new().toolkit("shop"));
    let result = toolkit_view
        .call(
            ToolCall::new("2", "shop_greet", json!({"name": "bo"})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.text(), "hello bo\twith a tab");
    assert_eq!(remote_calls.load(Ordering::SeqCst), 1);
}

// On tokio's paused clock, in one thread: the remote's timeout fires only once every task
// waits, the server's handler among them, so the call has started on the server before its
// cancel is sent however loaded the machine (a call cancelled before it starts never runs its
// handler, and the test waits for the handler to see its cancel).
#[tokio::test(start_paused = true)]
async fn a_hung_remote_times_out_is_cancelled_there_and_a_dead_one_fails() {
    let (served, _, cancelled) = shop_telling_of_cancels();
    let (remote, stop, server) = over_mcp(served).await;
    let registry = remote
        .with_timeout(Duration::from_secs(1))
        .add_to(Registry::builder())
        .build()
        .unwrap();
    let started = Instant::now();
    let result = registry
        .call(
            ToolCall::new("1", "shop_stall", json!({})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.refusal().unwrap().code, "timed-out");
    // Far less than the hour the tool would stall, however loaded the machine.
    assert!(started.elapsed() < Duration::from_secs(120));
    tokio::time::timeout(Duration::from_secs(120), cancelled.notified())
        .await
        .expect("the call that timed out here was cancelled on the server");

    let _ = stop.send(());
    server.await.unwrap();
    let started = Instant::now();
    let result = registry
        .call(
            ToolCall::new("2", "shop_greet", json!({"name": "x"})),
            &Context::default(),
        )
        .await;
    let refusal = result.refusal().unwrap();
    assert!(
        ["failed", "timed-out"].contains(&refusal.code.as_str()),
        "{refusal}"
    );
    assert!(started.elapsed() < Duration::from_secs(120));
}

/// Connects a remote toolkit to a server that answers by script over an in-memory pipe:
/// `answer` gives, for each message the toolkit sends, the messages to write back (none: it
/// keeps silent). Connecting that takes past 10 minutes fails the test.
async fn scripted(
    answer: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> Result<RemoteToolkit, tool_mcp::RemoteError> {
    scripted_with(RemoteToolkit::connecting("scripted"), answer).await
}

/// How connecting to a server answering by `script` ([`scripted`]) is refused; a panic if it
/// joins.
async fn refused(
    script: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> tool_mcp::RemoteError {
    refused_with(RemoteToolkit::connecting("scripted"), script).await
}

/// [`refused`], connecting as `connecting` says.
async fn refused_with(
    connecting: tool_mcp::Connecting,
    script: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> tool_mcp::RemoteError {
    match scripted_with(connecting, script).await {
        Err(error) => error,
        Ok(_) => panic!("the scripted server joined"),
    }
}

/// [`scripted`], connecting as `connecting` says.
async fn scripted_with(
    connecting: tool_mcp::Connecting,
    answer: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> Result<RemoteToolkit, tool_mcp::RemoteError> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (reader, mut writer) = tokio::io::split(server_end);
        let mut lines = tokio::io::BufReader::new(reader).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            for reply in answer(&message) {
                let line = format!("{reply}\n");
                if writer.write_all(line.as_bytes()).await.is_err() {
                    return;
                }
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(600), connecting.transport(client_end))
        .await
        .expect("connecting ends, joined or refused")
}

/// The answer to `message`, a request, with `result`.
fn reply(message: &serde_json::Value, result: serde_json::Value) -> Vec<serde_json::Value> {
    vec![json!({"jsonrpc": "2.0", "id": message["id"], "result": result})]
}

/// What a server answers to `initialize`, or nothing for any other message.
fn initialized(message: &serde_json::Value) -> Vec<serde_json::Value> {
    if message["method"] != "initialize" {
        return Vec::new();
    }
    let info = json!({
        "protocolVersion": message["params"]["protocolVersion"],
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "scripted", "version": "1"},
    });
    reply(message, info)
}

/// A `tools/list` entry for a tool named `name`.
fn listed(name: &str) -> serde_json::Value {
    json!({"name": name, "inputSchema": {"type": "object"}})
}

/// A script for [`scripted`]: a server that lists `tools` and answers each `tools/call` with
/// what `call` gives for it.
fn serving(
    tools: Vec<serde_json::Value>,
    call: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static {
    move |message| match message["method"].as_str() {
        Some("tools/list") => reply(message, json!({"tools": tools})),
        Some("tools/call") => call(message),
        _ => initialized(message),
    }
}

/// A registry of the tools of a server answering by `script` ([`scripted`]).
async fn registry_of(
    script: impl Fn(&serde_json::Value) -> Vec<serde_json::Value> + Send + 'static,
) -> Registry {
    let remote = scripted(script).await.expect("the scripted server joins");
    remote.add_to(Registry::builder()).build().unwrap()
}

// Time is paused: the toolkit waits out the whole limit on a silent server at once.
#[tokio::test(start_paused = true)]
async fn a_server_silent_at_the_handshake_or_the_listing_is_given_up_within_the_limit() {
    let error = refused(|_| Vec::new()).await;
    assert!(
        matches!(error, tool_mcp::RemoteError::Initialize { .. }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        format!("the MCP server `scripted` did not initialize: no answer within 60 s {SLOWER}")
    );

    let error = refused(initialized).await;
    assert_eq!(
        error.to_string(),
        format!("the MCP server `scripted` did not list its tools: no answer within 60 s {SLOWER}")
    );
    // Its first page answered, its second never.
    let stalled = |message: &serde_json::Value| match message["method"].as_str() {
        Some("tools/list") if message["params"]["cursor"].is_null() => reply(
            message,
            json!({"tools": [listed("one")], "nextCursor": "2"}),
        ),
        _ => initialized(message),
    };
    let error = refused(stalled).await;
    assert_eq!(
        error.to_string(),
        "the MCP server `scripted` did not list its tools: its pages did not end within 60 s (1 \
         answered)"
    );
    assert_eq!(RemoteToolkit::CONNECT_TIMEOUT, Duration::from_secs(60));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_that_is_no_mcp_server_is_told_of_with_what_to_check() {
    // A program that writes a line of its own and exits, as a server started without the
    // option that makes it serve MCP does: once it has read the request (the connection then
    // ends while the toolkit waits for an answer), and at once (the request then finds the
    // pipe closed, or the connection ended, as the two processes run).
    for script in [
        "echo 'usage: notes [--stdio]'; read line",
        "echo 'usage: notes [--stdio]'",
    ] {
        let mut command = tokio::process::Command::new("sh");
        command.args(["-c", script]);
        let error = match RemoteToolkit::connect_stdio("notes", command).await {
            Err(error) => error.to_string(),
            Ok(_) => panic!("a program that is no MCP server was taken as one"),
        };
        assert!(
            error.starts_with("the MCP server `notes` did not initialize"),
            "{script}: {error}"
        );
        assert!(
            error.ends_with("check that the command starts an MCP server on stdio"),
            "{script}: {error}"
        );
    }
}

#[tokio::test]
async fn a_program_that_is_not_there_is_told_as_such() {
    let command = tokio::process::Command::new("no-such-mcp-server-program");
    let error = match RemoteToolkit::connect_stdio("notes", command).await {
        Err(error) => error.to_string(),
        Ok(_) => panic!("a program that is not there was started"),
    };
    assert!(
        error.starts_with("could not start the MCP server")
            && error.ends_with(
                "check that the program is installed and on the PATH, or name it by its full path"
            ),
        "{error}"
    );
}

/// What a server given up for silence is told to be waited for longer with.
const SLOWER: &str = "(to wait longer for a server that starts slowly, such as one npx or docker \
                      fetches on its first run, connect with \
                      `RemoteToolkit::connecting(name).within(duration)`)";

// Time is paused: a limit is waited out at once, and so is an hour with none.
#[tokio::test(start_paused = true)]
async fn connecting_waits_as_long_as_it_is_told() {
    let within = RemoteToolkit::connecting("scripted").within(Duration::from_millis(1500));
    let error = refused_with(within, |_| Vec::new()).await.to_string();
    assert_eq!(
        error,
        format!("the MCP server `scripted` did not initialize: no answer within 1.5 s {SLOWER}")
    );
    let short = RemoteToolkit::connecting("scripted").within(Duration::from_millis(20));
    let error = refused_with(short, initialized).await.to_string();
    assert!(error.contains("no answer within 0.02 s"), "{error}");

    // With no limit, connecting to a silent server is still waiting an hour on.
    let (_server_end, client_end) = tokio::io::duplex(1 << 10);
    let unbounded = RemoteToolkit::connecting("silent").without_limit();
    let waited = tokio::time::timeout(Duration::from_secs(3600), unbounded.transport(client_end));
    assert!(waited.await.is_err(), "connecting with no limit gave up");
}

#[tokio::test]
async fn a_server_whose_pages_never_end_or_that_lists_a_name_twice_is_refused() {
    let endless = |message: &serde_json::Value| match message["method"].as_str() {
        Some("tools/list") => {
            let page = message["params"]["cursor"].as_str().unwrap_or("first");
            reply(
                message,
                json!({"tools": [listed(&format!("tool_{page}"))], "nextCursor": "again"}),
            )
        }
        _ => initialized(message),
    };
    let error = refused(endless).await;
    assert_eq!(
        error.to_string(),
        "the MCP server `scripted` did not list its tools: it gave the cursor `again` a second \
         time, so its pages never end"
    );

    let twice = serving(vec![listed("same"), listed("same")], |_| Vec::new());
    let error = refused(twice).await;
    assert_eq!(
        error.to_string(),
        "the MCP server `scripted` did not list its tools: it lists two tools named `same`, and \
         a call names only one"
    );

    // A new cursor each time, a thousand tools a page: refused past the most a server may
    // list, not when its list fills memory.
    let growing = |message: &serde_json::Value| match message["method"].as_str() {
        Some("tools/list") => {
            let page: u32 = message["params"]["cursor"]
                .as_str()
                .map_or(0, |c| c.parse().unwrap());
            let tools: Vec<_> = (0..1000)
                .map(|i| listed(&format!("tool_{page}_{i}")))
                .collect();
            let next = (page + 1).to_string();
            reply(message, json!({"tools": tools, "nextCursor": next}))
        }
        _ => initialized(message),
    };
    let error = refused(growing).await;
    assert_eq!(
        error.to_string(),
        "the MCP server `scripted` did not list its tools: it lists more than 10000 tools"
    );

    // Pages that end are all listed; an empty cursor ends them, as MCP's SDKs read it.
    let paged = |message: &serde_json::Value| match message["method"].as_str() {
        Some("tools/list") => match message["params"]["cursor"].as_str() {
            None => reply(
                message,
                json!({"tools": [listed("one")], "nextCursor": "2"}),
            ),
            Some(_) => reply(message, json!({"tools": [listed("two")], "nextCursor": ""})),
        },
        _ => initialized(message),
    };
    let remote = scripted(paged).await.unwrap();
    let names: Vec<_> = remote
        .definitions()
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["one", "two"]);
}

#[tokio::test]
async fn a_call_the_server_answers_with_an_error_is_told_the_server_s_error() {
    let refusing = serving(vec![listed("echo")], |message| {
        let error = json!({"code": -32602, "message": "`a` must be a number"});
        vec![json!({"jsonrpc": "2.0", "id": message["id"], "error": error})]
    });
    let registry = registry_of(refusing).await;
    let result = registry
        .call(
            ToolCall::new("1", "echo", json!({"a": "x"})),
            &Context::default(),
        )
        .await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "failed");
    assert_eq!(
        refusal.message,
        "the MCP server `scripted` refused the call: it answered with JSON-RPC error -32602: \
         `a` must be a number"
    );
}

#[tokio::test]
async fn a_remote_result_is_held_to_the_output_schema_the_tool_was_listed_with() {
    // `report` answers by its arguments: `structured` as its structured content, or none.
    let mut report = listed("report");
    report["outputSchema"] = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "at": {"type": "string", "format": "date-time"},
            "big": {"type": "integer", "format": "int32"},
            "code": {"type": "string", "pattern": "^(?!x)"},
        },
        "required": ["n"],
    });
    let reporting = serving(vec![report], |message| {
        let arguments = &message["params"]["arguments"];
        let mut result = json!({"content": [{"type": "text", "text": "the report"}]});
        if let Some(structured) = arguments.get("structured") {
            result["structuredContent"] = structured.clone();
        }
        if arguments.get("error").is_some() {
            result["isError"] = json!(true);
        }
        reply(message, result)
    });
    let registry = registry_of(reporting).await;
    let call = |arguments: serde_json::Value| {
        let registry = registry.clone();
        async move {
            let call = ToolCall::new("1", "report", arguments);
            registry.call(call, &Context::default()).await
        }
    };

    // Held to its shape, as MCP's SDKs hold it: a date-time without an offset (as Python
    // writes a naive one) and an `int32` past 32 bits pass, formats being annotations, and a
    // pattern with a lookahead, which this crate cannot read, is not checked.
    let held = json!({"n": 3, "at": "2026-12-06T10:00:00", "big": 3_000_000_000u64, "code": "y"});
    let result = call(json!({"structured": held})).await;
    assert_eq!(result.text(), held.to_string());

    let result = call(json!({"structured": {"n": "three"}})).await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "failed");
    assert_eq!(
        result.text(),
        "refused\tfailed\tthe MCP server `scripted` answered `report` with structured content \
         that the tool's output schema does not allow\nfault\tn\texpected integer, received \
         \"three\""
    );

    let result = call(json!({})).await;
    assert_eq!(
        result.refusal().unwrap().message,
        "the MCP server `scripted` answered `report` without structured content, though the \
         tool's output schema says what its result holds"
    );

    // A tool's error needs no structured content: it is the error it is.
    let result = call(json!({"error": true})).await;
    assert_eq!(result.refusal().unwrap().message, "the report");
}

#[tokio::test]
async fn a_null_for_a_field_that_takes_none_is_not_sent_to_the_server() {
    // As a Python server lists `search(query: str, limit: int = 10, tags: list[str] | None =
    // None)`; `echo` answers with the arguments it was sent.
    let mut search = listed("search");
    search["inputSchema"] = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "default": 10},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "near": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
        "required": ["query"],
    });
    let registry = registry_of(serving(vec![search], |message| {
        let sent = message["params"]["arguments"].to_string();
        reply(
            message,
            json!({"content": [{"type": "text", "text": sent}]}),
        )
    }))
    .await;
    // OpenAI's strict mode has each optional field sent, `null` when the model leaves it out.
    let exported = registry.export(tool_core::Provider::OpenAi).unwrap();
    assert_eq!(
        exported[0]["function"]["parameters"]["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    let arguments = json!({"query": "q", "limit": null, "tags": null, "near": {"city": null}});
    let call = ToolCall::new("1", "search", arguments);
    let result = registry.call(call, &Context::default()).await;
    assert_eq!(result.text(), r#"{"query":"q","tags":null,"near":{}}"#);
}

#[tokio::test]
async fn a_remote_schema_that_points_into_itself_joins_a_registry_written_out() {
    // As zod-to-json-schema writes a type used twice: the second use points at the first.
    let mut route = listed("route");
    route["inputSchema"] = json!({"type": "object", "properties": {
        "from": {"type": "object", "properties": {"x": {"type": "number"}}},
        "to": {"$ref": "#/properties/from"}
    }});
    let registry = registry_of(serving(vec![route], |_| Vec::new())).await;
    for provider in tool_core::Provider::ALL {
        let exported = serde_json::to_string(&registry.export(provider).unwrap()).unwrap();
        assert!(
            !exported.contains("$ref") && exported.matches(r#""x":{"type":"#).count() == 2,
            "{provider}: {exported}"
        );
    }
}

#[tokio::test]
async fn a_remote_tool_whose_arguments_are_no_object_is_offered_to_mcp_alone() {
    let mut shout = listed("shout");
    shout["inputSchema"] = json!({"type": "string"});
    let remote = scripted(serving(vec![shout], |_| Vec::new()))
        .await
        .unwrap();
    let error = match remote.add_to(Registry::builder()).build() {
        Err(error) => error.to_string(),
        Ok(_) => panic!("a tool of string arguments was offered to every provider"),
    };
    let said = |provider: &str| {
        format!(
            "`shout` cannot be offered to {provider}: (arguments): {provider} takes an object \
             of fields for a tool's arguments, and the schema this tool's server lists for them \
             is of type \"string\"; leave the tool out of the registry \
             (`RemoteToolkit::without`), or build the registry for MCP alone \
             (`.providers([Provider::Mcp])`)"
        )
    };
    assert_eq!(
        error,
        [said("OpenAI"), said("Anthropic"), said("Gemini")].join("\n")
    );
    let registry = remote
        .add_to(Registry::builder().providers([tool_core::Provider::Mcp]))
        .build()
        .unwrap();
    let exported = registry.export(tool_core::Provider::Mcp).unwrap();
    assert_eq!(exported[0]["inputSchema"], json!({"type": "string"}));
}

#[tokio::test]
async fn a_remote_tool_that_says_nothing_of_destroying_is_approved_before_it_runs() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let mut peek = listed("peek");
    peek["annotations"] = json!({"readOnlyHint": true});
    let mut append = listed("append");
    append["annotations"] = json!({"destructiveHint": false});
    let unannotated = serving(vec![listed("purge"), peek, append], move |message| {
        counted.fetch_add(1, Ordering::SeqCst);
        reply(
            message,
            json!({"content": [{"type": "text", "text": "done"}]}),
        )
    });
    let remote = scripted(unannotated).await.unwrap();
    let hints = |name: &str| {
        let definition = remote.definitions().iter().find(|d| d.name == name);
        definition.unwrap().annotations
    };
    // MCP's defaults: a tool not read-only may destroy; any may reach the open world.
    assert!(hints("purge").destructive && hints("purge").open_world);
    assert!(!hints("peek").destructive && hints("peek").read_only);
    assert!(!hints("append").destructive);
    let registry = remote
        .add_to(Registry::builder())
        .build()
        .unwrap()
        .with_approver(
            |_: tool_core::ApprovalRequest| async {
                tool_core::Approval::Decline("not today".into())
            },
            Duration::from_secs(60),
        );
    let call = |name: &str| ToolCall::new("1", name, json!({}));
    let purged = registry.call(call("purge"), &Context::default()).await;
    assert_eq!(
        purged.refusal().unwrap().code,
        "declined",
        "{}",
        purged.text()
    );
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "nothing was sent for a declined call"
    );
    for name in ["peek", "append"] {
        let result = registry.call(call(name), &Context::default()).await;
        assert_eq!(result.text(), "done", "{name}");
    }
}

/// A client that writes JSON-RPC lines by hand, to send what no SDK would, talking to
/// [`McpServer::serve_lines`] over an in-memory pipe; it has sent `initialize` and
/// `notifications/initialized`, and kept the server's answer to the first.
struct RawClient {
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    initialized: String,
}

impl RawClient {
    async fn connect(registry: Registry) -> RawClient {
        RawClient::connect_to(McpServer::new(registry)).await
    }

    async fn connect_to(server: McpServer) -> RawClient {
        let mut client = RawClient::open(server);
        client.send(initialize("raw")).await;
        client.initialized = client.next().await;
        assert!(
            client.initialized.contains("\"id\":1"),
            "{}",
            client.initialized
        );
        client
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string())
            .await;
        client
    }

    /// A pipe to `server` on which nothing has been said yet: no `initialize`, as a client of
    /// MCP 2026-07-28 starts.
    fn open(server: McpServer) -> RawClient {
        use tokio::io::AsyncBufReadExt;
        let (server_end, client_end) = tokio::io::duplex(64 << 20);
        tokio::spawn(async move {
            let (reader, writer) = tokio::io::split(server_end);
            let _ = server.serve_lines(reader, writer).await;
        });
        let (reader, writer) = tokio::io::split(client_end);
        RawClient {
            writer,
            lines: tokio::io::BufReader::new(reader).lines(),
            initialized: String::new(),
        }
    }

    /// Sends `text` and a newline.
    async fn send(&mut self, text: impl AsRef<[u8]>) {
        use tokio::io::AsyncWriteExt;
        self.writer.write_all(text.as_ref()).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    /// The server's next line, waiting at most 10 s.
    async fn next(&mut self) -> String {
        tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("the server keeps answering")
            .unwrap()
            .expect("the server keeps the pipe open")
    }

    /// The server's messages until `done` holds for them: those with an id, by id, and those
    /// without one (errors answering a line that had none to read).
    async fn answers_until(
        &mut self,
        done: impl Fn(&[(i64, serde_json::Value)], &[serde_json::Value]) -> bool,
    ) -> (Vec<(i64, serde_json::Value)>, Vec<serde_json::Value>) {
        let mut answered = Vec::new();
        let mut unanswerable = Vec::new();
        while !done(&answered, &unanswerable) {
            let message: serde_json::Value = serde_json::from_str(&self.next().await).unwrap();
            match message.get("id").and_then(serde_json::Value::as_i64) {
                Some(id) => answered.push((id, message)),
                None => unanswerable.push(message),
            }
        }
        (answered, unanswerable)
    }
}

/// An MCP `initialize` request (id 1) from a client of this name.
fn initialize(client_name: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": client_name, "version": "0"}}})
    .to_string()
}

/// A `tools/call` of `shop_greet` with this id, greeting `name`: JSON text, so that a test can
/// send what no JSON writer would (a lone surrogate, a number out of range).
fn greet(id: u32, name: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"shop_greet","arguments":{{"name":{name}}}}}}}"#
    )
}

/// The answer with this id.
fn by_id_of(answered: &[(i64, serde_json::Value)], wanted: i64) -> serde_json::Value {
    answered
        .iter()
        .find(|(id, _)| *id == wanted)
        .map(|(_, message)| message.clone())
        .unwrap_or_else(|| panic!("no answer with id {wanted}"))
}

/// A `tools/list` (id 1), a good `tools/call` (id 2) and a refused one (id 3), each with this
/// `_meta`.
fn list_and_calls(meta: serde_json::Value) -> [String; 3] {
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "shop_greet", "arguments": {"name": "a"}, "_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "shop_teleport", "arguments": {}, "_meta": meta}}),
    ]
    .map(|request| request.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_carry_result_type_for_2026_07_28_peers_and_not_for_2025_11_25_ones() {
    let (registry, _) = shop();

    // MCP 2026-07-28: no handshake; each request names its version, and every result must say
    // `resultType`, or the official Python SDK's default client cannot read it.
    let mut modern = RawClient::open(McpServer::new(registry.clone()));
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    for request in list_and_calls(meta) {
        modern.send(request).await;
    }
    let (answered, _) = modern
        .answers_until(|answered, _| answered.len() == 3)
        .await;
    for id in 1..=3 {
        let answer = by_id_of(&answered, id);
        assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
    }
    assert_eq!(by_id_of(&answered, 3)["result"]["isError"], true);

    // MCP 2025-11-25, after `initialize`: the results as that revision has them.
    let mut legacy = RawClient::connect(registry).await;
    for request in list_and_calls(json!({})) {
        legacy.send(request).await;
    }
    let (answered, _) = legacy
        .answers_until(|answered, _| {
            [2, 3]
                .iter()
                .all(|id| answered.iter().any(|(i, _)| i == id))
        })
        .await;
    for id in 2..=3 {
        let answer = by_id_of(&answered, id);
        assert!(answer["result"].is_object(), "{answer}");
        assert_eq!(answer["result"].get("resultType"), None, "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_s_arguments_as_text_are_read_as_in_process_or_refused_as_invalid_params() {
    let (registry, _) = shop();
    let mut client = RawClient::connect(registry).await;
    let call = |id: u32, arguments: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "shop_greet", "arguments": arguments}})
        .to_string()
    };
    client.send(call(2, json!(r#"{"name": "text"}"#))).await;
    client.send(call(3, json!("{not json"))).await;
    client.send(call(4, json!([1, 2]))).await;
    let (answered, _) = client
        .answers_until(|answered, _| answered.len() == 3)
        .await;
    let read = by_id_of(&answered, 2);
    assert_eq!(
        read["result"]["content"][0]["text"],
        "hello text\twith a tab"
    );
    // A 2025-11-25 result, though read on another path than rmcp's.
    assert_eq!(read["result"].get("resultType"), None, "{read}");
    for (id, problem) in [
        (3, "`arguments` is text that is not a JSON object"),
        (4, "`arguments` must be a JSON object"),
    ] {
        let answer = by_id_of(&answered, id);
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(problem), "{message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_line_s_arguments_reach_the_tool_as_written_as_in_process() {
    let (registry, _) = shop();
    let written = r#"{"name": "a", "name": "b"}"#;
    let in_process = registry
        .call(
            ToolCall::new("1", "shop_greet", Arguments::from_text(written.to_owned())),
            &Context::new(),
        )
        .await;
    let in_process = in_process
        .outcome
        .expect_err("a field sent twice")
        .to_string();
    assert!(in_process.contains("sent more than once"), "{in_process}");

    // With and without a `_meta`: the same refusal, not the last `name`.
    let mut client = RawClient::connect(registry).await;
    let meta = r#""_meta": {"progressToken": "p"}"#;
    for (id, meta) in [(2, ""), (3, meta)] {
        let comma = if meta.is_empty() { "" } else { ", " };
        client
            .send(
                format!(
                    r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/call", "params": {{"name":
                "shop_greet", "arguments": {written}{comma}{meta}}}}}"#
                )
                .replace('\n', " "),
            )
            .await;
    }
    let (answered, _) = client
        .answers_until(|answered, _| answered.len() == 2)
        .await;
    for id in [2, 3] {
        let answer = by_id_of(&answered, id);
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        assert_eq!(
            answer["result"]["content"][0]["text"], in_process,
            "{answer}"
        );
    }

    // Over HTTP too, in a session and without one: rmcp reads the body into a map, which kept
    // the last `name`.
    for stateless in [false, true] {
        let server = McpServer::new(shop().0);
        let server = match stateless {
            true => server.stateless(),
            false => server,
        };
        let http = HttpServer::serve(server).await;
        let session = match stateless {
            true => None,
            false => Some(support::HttpSession::open(&http.url()).await),
        };
        let post = |call: String| async {
            match &session {
                Some(session) => session.post_text(call).await,
                None => support::post_without_session(&http.url(), call).await,
            }
        };
        for (id, meta) in [(2, ""), (3, meta)] {
            let comma = if meta.is_empty() { "" } else { ", " };
            let call = format!(
                r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/call", "params": {{"name":
                "shop_greet", "arguments": {written}{comma}{meta}}}}}"#
            );
            let answer = support::answer_in(&post(call.clone()).await, id, &json!(call));
            assert_eq!(answer["result"]["isError"], true, "{answer}");
            assert_eq!(
                answer["result"]["content"][0]["text"], in_process,
                "{answer}"
            );
        }
        // Arguments sent once, in a call rmcp alone reads (with a field it reads past).
        let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "shop_greet", "arguments": {"name": "ann"}, "task": null}});
        let answer = support::answer_in(&post(call.to_string()).await, 4, &call);
        let greeted = &answer["result"]["content"][0]["text"];
        assert_eq!(greeted, "hello ann\twith a tab", "{answer}");
        http.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_survives_bad_input_and_answers_the_next_good_request() {
    let (registry, _) = shop();
    let mut client = RawClient::connect(registry).await;

    // Lines rmcp cannot read: not JSON at all, and JSON that only a full read refuses (a lone
    // surrogate, a number out of range, bytes that are not UTF-8, nesting past 128 levels).
    let mut not_utf8 = greet(11, "\"\"").into_bytes();
    not_utf8.splice(not_utf8.len() - 4..not_utf8.len() - 4, [0xff, 0xfe]);
    let malformed: Vec<Vec<u8>> = vec![
        b"{this is not json".to_vec(),
        br#"{"jsonrpc": "2.0", "id": 9, "method": "tools/list""#.to_vec(),
        b"\x00\x01binary".to_vec(),
        b"[1, 2,]".to_vec(),
        greet(7, r#""\ud800""#).into_bytes(),
        greet(8, "1e400").into_bytes(),
        not_utf8,
        format!("{}{}", "[".repeat(200), "]".repeat(200)).into_bytes(),
    ];
    let huge = "x".repeat(10 << 20);
    let bad_requests = malformed.iter().cloned().chain([
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/teleport", "params": {}})
            .to_string()
            .into_bytes(),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "shop_greet", "arguments": [1, 2]}})
        .to_string()
        .into_bytes(),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
               "params": {"name": "shop_greet", "arguments": {"name": huge}}})
        .to_string()
        .into_bytes(),
        // Blank lines are skipped, not answered.
        Vec::new(),
        // A byte order mark before a request is skipped, as rmcp skips it.
        format!("\u{FEFF}{}", greet(9, "\"bom\"")).into_bytes(),
    ]);
    for request in bad_requests {
        client.send(&request).await;
    }
    client.send(greet(5, "\"after\"")).await;
    // Answered last of all: every line sent before it has had its answer, if it gets one.
    client
        .send(json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}).to_string())
        .await;

    // Calls run concurrently, so answers come in any order; a line that is not JSON gets a
    // parse error with `"id": null`, and one whose id is readable though a value inside it is
    // not (a lone surrogate, a number beyond a 64-bit float) gets it with that id.
    let (answered, parse_errors) = client
        .answers_until(|answered, _| {
            [2, 3, 4, 5, 6, 7, 8, 9]
                .iter()
                .all(|wanted| answered.iter().any(|(id, _)| id == wanted))
        })
        .await;
    for id in [7, 8] {
        let answer = by_id_of(&answered, id);
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
    }
    // One parse error per line rmcp cannot read, and none for the blank line: all of them
    // were written before the answer to the ping that followed them.
    assert_eq!(parse_errors.len(), malformed.len() - 2, "{parse_errors:?}");
    for error in &parse_errors {
        assert_eq!(error.get("id"), Some(&serde_json::Value::Null), "{error}");
        assert_eq!(error["error"]["code"], -32700, "{error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Parse error: the line cannot be read as JSON ("),
            "{error}"
        );
    }
    assert_eq!(
        by_id_of(&answered, 9)["result"]["content"][0]["text"],
        "hello bom\twith a tab"
    );
    let by_id = |wanted: i64| by_id_of(&answered, wanted);
    assert!(
        by_id(2).get("error").is_some(),
        "unknown methods get an error"
    );
    let non_object = by_id(3);
    assert!(
        non_object.get("error").is_some() || non_object["result"]["isError"] == true,
        "{non_object}"
    );
    let huge_answer = by_id(4);
    assert!(
        huge_answer.get("error").is_some() || huge_answer["result"].is_object(),
        "the 10 MB call is answered"
    );
    assert_eq!(
        by_id(5)["result"]["content"][0]["text"],
        "hello after\twith a tab"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_line_rmcp_would_refuse_is_refused_though_read_apart_from_rmcp() {
    let (served, _) = shop();
    let mut client = RawClient::connect(served).await;
    let nested = |id: u32, levels: usize| {
        greet(id, &format!("{}{}", "[".repeat(levels), "]".repeat(levels)))
    };
    for line in [
        // serde would read these by position; a message and its params are objects.
        r#"["2.0",10,"tools/call",{"name":"shop_greet","arguments":{"name":"array"}}]"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":["shop_greet",{"name":"x"}]}"#
            .to_owned(),
        // Past serde_json's bound of 127 levels in the whole message, and just within it.
        nested(12, 125),
        nested(13, 124),
        r#"{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"shop_greet","arguments":{"name":"twice"}},"id":15}"#
            .to_owned(),
    ] {
        client.send(line).await;
    }
    client
        .send(json!({"jsonrpc": "2.0", "id": 16, "method": "ping"}).to_string())
        .await;
    let (answered, unanswerable) = client
        .answers_until(|answered, _| {
            [11, 12, 13, 16]
                .iter()
                .all(|wanted| answered.iter().any(|(id, _)| id == wanted))
        })
        .await;
    assert!(
        answered.iter().all(|(id, _)| ![10, 14, 15].contains(id)),
        "{answered:?}"
    );
    support::assert_refused(
        &by_id_of(&answered, 11),
        -32600,
        &["`params` must be an object"],
    );
    support::assert_refused(
        &by_id_of(&answered, 12),
        -32700,
        &["cannot be read as JSON"],
    );
    // Within the bound the call runs, and the tool refuses a name that is no text.
    assert_eq!(
        by_id_of(&answered, 13)["result"]["isError"],
        true,
        "{answered:?}"
    );
    assert_eq!(unanswerable.len(), 2, "{unanswerable:?}");
    support::assert_refused(
        &unanswerable[0],
        -32600,
        &["a JSON-RPC message is a JSON object"],
    );
    support::assert_refused(&unanswerable[1], -32600, &["`id` is sent twice"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_under_the_id_of_one_not_yet_answered_is_refused_and_the_first_runs_on() {
    let (registry, calls, stall_cancelled) = shop_telling_of_cancels();
    let mut client = LineClient::connect(McpServer::new(registry)).await;
    let stalled = client
        .start("tools/call", json!({"name": "shop_stall", "arguments": {}}))
        .await;
    // The same id again while the stalled call runs: rmcp would run both, keyed by one id,
    // and drop one of the answers.
    let twin = |name: &str| {
        json!({"jsonrpc": "2.0", "id": stalled, "method": "tools/call",
               "params": {"name": "shop_greet", "arguments": {"name": name}}})
    };
    client.send(twin("twin")).await;
    let refused = client.answer(&json!(stalled)).await;
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!(
            "Invalid request: a request under id {stalled} is still running"
        )) && message.ends_with("Give each request an id of its own"),
        "{refused}"
    );

    // The first call still runs: it is cancelled as usual, and its id stays refused, as its
    // call may still be ending. (Cancelled before its tool starts, the call would end without
    // it, and the tool would never hear of the cancel: it is waited for.)
    for () in support::patiently() {
        if calls.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the stalled call runs");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": stalled}});
    client.send(cancel).await;
    tokio::time::timeout(ANSWER_LIMIT, stall_cancelled.notified())
        .await
        .expect("the stalled call is cancelled");
    client.send(twin("after the cancel")).await;
    let refused = client.answer(&json!(stalled)).await;
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("a request this client cancelled"),
        "{refused}"
    );

    // An id is free again as soon as its request is answered.
    let greet = |name: &str| {
        json!({"jsonrpc": "2.0", "id": "again", "method": "tools/call",
               "params": {"name": "shop_greet", "arguments": {"name": name}}})
    };
    for name in ["once", "twice"] {
        client.send(greet(name)).await;
        let greeted = client.answer(&json!("again")).await;
        assert_eq!(
            greeted["result"]["content"][0]["text"],
            format!("hello {name}\twith a tab"),
            "{greeted}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_longer_than_the_limit_is_answered_and_skipped() {
    let (registry, calls) = shop();
    let mut client =
        RawClient::connect_to(McpServer::new(registry).with_max_line_bytes(1024)).await;
    let call = |id: u32, name: &str| greet(id, &json!(name).to_string());
    // Just within the limit: 1,024 bytes before the newline.
    let padding = 1024 - call(2, "").len();
    let longest = call(2, &"y".repeat(padding));
    assert_eq!(longest.len(), 1024);
    client.send(&call(1, &"x".repeat(4096))).await;
    client.send(&longest).await;
    client.send(&call(3, "after")).await;

    let (answered, errors) = client
        .answers_until(|answered, errors| answered.len() >= 2 && !errors.is_empty())
        .await;
    let mut answered: Vec<i64> = answered.into_iter().map(|(id, _)| id).collect();
    answered.sort_unstable();
    assert_eq!(answered, [2, 3], "the long line is not run, the others are");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["error"]["code"], -32600);
    assert!(
        errors[0]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Invalid request: the line is longer than 1024 bytes"),
        "{}",
        errors[0]
    );
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "the long line never reached the handler"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_changes_reach_the_client_as_list_changed() {
    let (registry, _) = shop();
    let mut client = RawClient::connect(registry.clone()).await;
    assert!(
        client.initialized.contains(r#""listChanged":true"#),
        "{}",
        client.initialized
    );
    // The server starts listening for changes once it has handled `initialized`, in a task of
    // its own: change the registry until a notice comes (a lagging listener gets one notice
    // for all the changes it missed, so this ends at the first one it sees).
    let mut notification = None;
    for () in support::patiently() {
        registry.replace(Probe).unwrap();
        if let Ok(line) =
            tokio::time::timeout(Duration::from_millis(100), client.lines.next_line()).await
        {
            notification = line.unwrap();
            break;
        }
    }
    let notification = notification.expect("a list_changed notification within two minutes");
    assert!(
        notification.contains("notifications/tools/list_changed"),
        "{notification}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_named_in_the_environment_spec_join_a_registry() {
    assert!(
        RemoteToolkit::from_spec("").await.unwrap().is_empty(),
        "nothing named: everything stays in process"
    );
    let server = support::example_server();
    let spec = format!("{} :: ", server.display());
    let toolkits = RemoteToolkit::from_spec(&spec).await.unwrap();
    assert_eq!(toolkits.len(), 1);
    assert_eq!(toolkits[0].name(), "mcp_server");
    let registry = toolkits[0].add_to(Registry::builder()).build().unwrap();
    assert_eq!(registry.names(), support::EXAMPLE_TOOLS);
    let result = registry
        .call(
            ToolCall::new("1", "note_count", json!({})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.text(), "0 notes, 0 reindexing");
    let refused = RemoteToolkit::from_spec("/no/such/server").await;
    assert!(refused.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_server_over_streamable_http_joins_a_registry() {
    let (served, calls) = shop();
    let http = HttpServer::serve(McpServer::new(served)).await;
    let bound = http.bound;
    let remote = RemoteToolkit::connect_http("shop", &format!("http://{bound}/mcp"))
        .await
        .unwrap();
    let registry = remote.add_to(Registry::builder()).build().unwrap();
    let result = registry
        .call(
            ToolCall::new(
                "1",
                "shop_price",
                json!({"items": [{"sku": "a", "qty": 1}]}),
            ),
            &Context::default(),
        )
        .await;
    assert_eq!(
        result.text(),
        r#"{"total":3,"lines":[{"sku":"a","qty":1}],"note":null}"#
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    drop(registry);
    drop(remote);
    http.stop().await;
}

/// Sends one JSON POST to `/mcp` on a connection of its own and returns the status code and
/// the body the server sent until `done` holds for it (or the body ended, or 10 s passed).
async fn post_mcp(
    bound: std::net::SocketAddr,
    body: &str,
    done: impl Fn(&str) -> bool,
) -> (u16, String) {
    post_mcp_as(bound, "application/json", body, done).await
}

/// [`post_mcp`] with the body said to be of `content_type`.
async fn post_mcp_as(
    bound: std::net::SocketAddr,
    content_type: &str,
    body: &str,
    done: impl Fn(&str) -> bool,
) -> (u16, String) {
    // reqwest is built here with rmcp's TLS features, which need a process-wide crypto
    // provider even for plain http.
    support::install_tls();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let request = client
        .post(format!("http://{bound}/mcp"))
        .header("Content-Type", content_type)
        .header("Accept", "application/json, text/event-stream")
        .body(body.to_owned())
        .send();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut response = tokio::time::timeout_at(deadline, request)
        .await
        .expect("the server answers within 10 s")
        .unwrap();
    let status = response.status().as_u16();
    let mut received = Vec::new();
    while !done(&String::from_utf8_lossy(&received)) {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => received.extend_from_slice(&chunk),
            Ok(Ok(None)) | Err(_) => break,
            Ok(Err(error)) => panic!("reading the answer failed: {error}"),
        }
    }
    (status, String::from_utf8_lossy(&received).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_server_refuses_a_body_that_is_not_json_and_serves_the_next_request() {
    let (served, _) = shop();
    let http = HttpServer::serve(McpServer::new(served)).await;
    let bound = http.bound;

    // rmcp refuses these before any handler, with 415 (as for another content type); the
    // server answers 400 with a JSON-RPC error saying why, as for a line that is not JSON.
    // Each names its first fault, under the request's id when it is a request's.
    let null = serde_json::Value::Null;
    for (broken, code, id, says) in [
        (
            "{this is not json",
            -32700,
            &null,
            "the body cannot be read as JSON",
        ),
        ("", -32700, &null, "the body cannot be read as JSON"),
        ("[1, 2,]", -32700, &null, "the body cannot be read as JSON"),
        (
            "[1, 2]",
            -32600,
            &null,
            "a JSON-RPC message is a JSON object",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1}"#,
            -32600,
            &null,
            "must name its `method`",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": []}"#,
            -32600,
            &json!(3),
            "`params` must be an object",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}"#,
            -32600,
            &null,
            "`id` must be a string or an integer",
        ),
        // Which id is the request's cannot be told.
        (
            r#"{"jsonrpc": "2.0", "id": 4, "method": "tools/list", "id": 5}"#,
            -32600,
            &null,
            "`id` is sent twice",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": {"name": "\ud800"}}"#,
            -32700,
            &json!("s"),
            "the body cannot be read as JSON",
        ),
    ] {
        let (status, answer) = post_mcp(bound, broken, |_| false).await;
        assert_eq!(status, 400, "{broken:?}: {answer}");
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(&answer["id"], id, "{broken:?}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{broken:?}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{broken:?}: {answer}");
    }
    // Another content type keeps rmcp's 415, which says to change it.
    let (status, answer) = post_mcp_as(bound, "text/plain", &initialize("raw"), |_| false).await;
    assert_eq!(status, 415, "{answer}");
    let (status, answer) = post_mcp(bound, &initialize("raw"), |seen| {
        seen.contains("\"serverInfo\"")
    })
    .await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("\"serverInfo\""), "{answer}");

    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_s_end_is_answered_204_and_the_session_is_gone_after_it() {
    let (served, _) = shop();
    let http = HttpServer::serve(McpServer::new(served)).await;
    let session = support::HttpSession::open(&http.url()).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let listed = session.request(2, &list).await;
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    // rmcp answers 202, which the official Python SDK takes for a failure to end it.
    assert_eq!(session.end().await, 204);
    support::install_tls();
    let after = reqwest::Client::new()
        .post(http.url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", &session.id)
        .header("mcp-protocol-version", "2025-11-25")
        .body(list.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(after.status().as_u16(), 404, "the ended session is gone");
    // Ending it again, or a session never held, is ending one the server does not hold.
    assert_eq!(session.end().await, 404);
    let never = support::end_session(&reqwest::Client::new(), &http.url(), "never-held").await;
    assert_eq!(never, 404);
    http.stop().await;
}

/// A session store shared by replicas, kept in memory: the ids it holds and those deleted.
#[derive(Default)]
struct SharedSessions {
    held: std::sync::Mutex<std::collections::HashMap<String, SessionState>>,
    deleted: std::sync::Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl SessionStore for SharedSessions {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        Ok(self.held.lock().unwrap().get(id).cloned())
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        self.held
            .lock()
            .unwrap()
            .insert(id.to_owned(), state.clone());
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        self.held.lock().unwrap().remove(id);
        self.deleted.lock().unwrap().push(id.to_owned());
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_session_store_ending_a_session_held_elsewhere_is_answered_204() {
    use tool_mcp::rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    let store = Arc::new(SharedSessions::default());
    let mut config = StreamableHttpServerConfig::default();
    config.session_store = Some(store.clone());
    let (served, _) = shop();
    let http = HttpServer::serve(McpServer::new(served).with_http_config(config.clone())).await;

    // A session another replica opened is not held here: ending it here is answered 204, and
    // the store forgets it.
    let (served, _) = shop();
    let replica = HttpServer::serve(McpServer::new(served).with_http_config(config)).await;
    let theirs = support::HttpSession::open(&replica.url()).await;
    assert!(store.held.lock().unwrap().contains_key(&theirs.id));
    support::install_tls();
    let client = reqwest::Client::new();
    let elsewhere = support::end_session(&client, &http.url(), &theirs.id).await;
    assert_eq!(elsewhere, 204);
    assert!(!store.held.lock().unwrap().contains_key(&theirs.id));
    assert!(store.deleted.lock().unwrap().contains(&theirs.id));
    replica.stop().await;

    // One of its own is ended as without a store.
    let session = support::HttpSession::open(&http.url()).await;
    assert!(store.held.lock().unwrap().contains_key(&session.id));
    assert_eq!(session.end().await, 204);
    assert!(!store.held.lock().unwrap().contains_key(&session.id));
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stalls_its_request_is_cut_off_and_the_server_serves_on() {
    let (served, _) = shop();
    let bounded = McpServer::new(served).with_read_timeout(Duration::from_secs(5));
    let http = HttpServer::serve(bounded).await;
    let bound = http.bound;
    let body = initialize("slow");
    let head_only = format!("POST /mcp HTTP/1.1\r\nHost: {bound}\r\nContent-Type: applic");
    let part_of_the_body = format!(
        "POST /mcp HTTP/1.1\r\nHost: {bound}\r\nContent-Type: application/json\r\nAccept: \
         application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..10]
    );
    let (head_only, part_of_the_body) = tokio::join!(
        support::stalled(bound, head_only),
        support::stalled(bound, part_of_the_body)
    );
    // hyper closes the connection, answering 408 or nothing.
    assert!(
        head_only.is_empty() || head_only.starts_with("HTTP/1.1 408 "),
        "{head_only}"
    );
    assert!(
        part_of_the_body.starts_with("HTTP/1.1 408 ")
            && part_of_the_body.contains("the request's body stopped coming"),
        "{part_of_the_body}"
    );
    let refused = part_of_the_body.to_ascii_lowercase();
    assert!(refused.contains("connection: close"), "{part_of_the_body}");

    // A client that sends its request whole is served as before.
    let (status, answer) = post_mcp(bound, &body, |seen| seen.contains("\"serverInfo\"")).await;
    assert_eq!(status, 200, "{answer}");
    http.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_body_limit_is_the_host_s_to_set() {
    use tool_mcp::rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    let initialize = initialize(&"x".repeat(2048));
    for (limit, expected) in [(None, 200), (Some(1024), 413)] {
        let (served, _) = shop();
        let mut server = McpServer::new(served);
        if let Some(limit) = limit {
            server = server.with_http_config(
                StreamableHttpServerConfig::default().with_max_request_body_bytes(limit),
            );
        }
        let http = HttpServer::serve(server).await;
        let (status, answer) = post_mcp(http.bound, &initialize, |seen| {
            seen.contains("\"serverInfo\"") || seen.contains("Payload Too Large")
        })
        .await;
        assert_eq!(status, expected, "limit {limit:?}: {answer}");
        http.stop().await;
    }
}

/// A tool to add and replace, changing a registry.
#[tool(readonly)]
async fn probe() -> String {
    "probe".to_owned()
}

#[tokio::test]
async fn serving_lines_returns_only_once_every_answer_is_written() {
    use tokio::io::AsyncReadExt;
    let (registry, _) = shop();
    // A session that ends before it begins: one broken line, then the end of the input.
    let input: &[u8] = b"not json\n";
    let (writer, mut output) = tokio::io::duplex(1 << 16);
    // Each write waits 50 ms, longer than rmcp takes to give up: were serving to return
    // without waiting for the writer, nothing would be written yet.
    let writer = Slow {
        inner: writer,
        delay: None,
    };
    let served = McpServer::new(registry).serve_lines(input, writer).await;
    // No request started a connection, and the input ended: serving ends as at any end.
    assert!(served.is_ok(), "{served:?}");
    // Everything is written, and the writer closed, by the time serving returns.
    let mut written = String::new();
    tokio::time::timeout(Duration::ZERO, output.read_to_string(&mut written))
        .await
        .expect("the answers were written before serve_lines returned")
        .unwrap();
    assert!(written.contains("-32700"), "{written}");
}

/// A writer that waits 50 ms before each write.
struct Slow<W> {
    inner: W,
    delay: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<W: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Slow<W> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        use std::future::Future;
        let this = &mut *self;
        let delay = this
            .delay
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(Duration::from_millis(50))));
        std::task::ready!(delay.as_mut().poll(cx));
        this.delay = None;
        std::pin::Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
