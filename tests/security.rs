//! The guarantees `SECURITY.md` makes, one test (at least) each: grants come first, refusals
//! name only granted tools, what a handler did not write for a model stays in the log, the
//! caller is the host's word, and the limits have safe defaults.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tool_core::args::MAX_ARGUMENT_DEPTH;
use tool_core::call::Arguments;
use tool_core::registry::{DEFAULT_BATCH_LIMIT, DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_TIMEOUT};
use tool_core::{
    Approval, ApprovalRequest, Context, Grant, Provider, Refusal, Registry, ToolCall, registry,
    tool, toolkit,
};
use tool_tests::Log;

/// Counts what reached handlers and the approver.
#[derive(Default)]
struct Counts {
    entered: AtomicUsize,
    asked: AtomicUsize,
    live: AtomicUsize,
    most_live: AtomicUsize,
}

/// Tools the caller in these tests is not granted.
struct Vault {
    counts: Arc<Counts>,
}

#[toolkit(name = "vault")]
impl Vault {
    /// Opens the vault.
    #[tool(destructive)]
    async fn vault_open(&self, combination: u32) -> String {
        self.counts.entered.fetch_add(1, Ordering::SeqCst);
        format!("opened with {combination}")
    }

    /// Lists what is in the vault.
    #[tool(readonly)]
    async fn vault_list(&self) -> String {
        self.counts.entered.fetch_add(1, Ordering::SeqCst);
        "gold".to_owned()
    }
}

/// Tools the caller is granted.
struct Desk {
    counts: Arc<Counts>,
}

#[toolkit(name = "desk")]
impl Desk {
    /// Writes a memo.
    #[tool(destructive)]
    async fn memo_write(&self, memo_text: String) -> String {
        self.counts.entered.fetch_add(1, Ordering::SeqCst);
        format!("wrote {} bytes", memo_text.len())
    }

    /// Waits a while, counting how many wait at once.
    #[tool(readonly)]
    async fn memo_wait(&self, wait_ms: u64) -> String {
        let counts = &self.counts;
        let live = counts.live.fetch_add(1, Ordering::SeqCst) + 1;
        counts.most_live.fetch_max(live, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(wait_ms)).await;
        counts.live.fetch_sub(1, Ordering::SeqCst);
        "waited".to_owned()
    }
}

fn office() -> (Registry, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let registry = registry![
        Vault {
            counts: counts.clone()
        },
        Desk {
            counts: counts.clone()
        }
    ];
    let asked = counts.clone();
    let registry = registry.with_approver(
        move |_request: ApprovalRequest| {
            asked.asked.fetch_add(1, Ordering::SeqCst);
            async { Approval::Approve }
        },
        Duration::from_secs(1),
    );
    (registry, counts)
}

const SECRET_NAMES: [&str; 3] = ["vault", "vault_open", "vault_list"];

fn names_nothing_secret(text: &str) {
    for secret in SECRET_NAMES {
        assert!(!text.contains(secret), "`{secret}` leaked: {text}");
    }
}

#[tokio::test]
async fn grants_are_checked_before_size_parsing_and_approval() {
    let (registry, counts) = office();
    let desk = registry.scoped(Grant::new().toolkit("desk"));
    let huge = format!(
        r#"{{"combination":"{}"}}"#,
        "1".repeat(2 * DEFAULT_MAX_ARGUMENT_BYTES)
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for arguments in [
        Arguments::from(json!({"combination": 1234})),
        Arguments::from_text(huge),
        Arguments::from_text(deep),
        Arguments::from_text("{not json"),
        Arguments::from(json!({"combination": "x", "extra": true})),
    ] {
        let result = desk
            .call(
                ToolCall::new("v", "vault_open", arguments),
                &Context::default(),
            )
            .await;
        let refusal = result.refusal().unwrap();
        assert_eq!(refusal.code, "not-permitted", "{refusal}");
        assert_eq!(
            refusal.find_line("tools").unwrap().cells,
            ["memo_write", "memo_wait"]
        );
    }
    assert_eq!(
        counts.asked.load(Ordering::SeqCst),
        0,
        "the approver was asked"
    );
    assert_eq!(counts.entered.load(Ordering::SeqCst), 0, "a handler ran");

    // The same call, granted, is asked about and runs.
    let result = registry
        .call(
            ToolCall::new("v", "vault_open", json!({"combination": 1234})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.text(), "opened with 1234");
    assert_eq!(counts.asked.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_size_limit_is_checked_before_the_approver_is_asked() {
    let (registry, counts) = office();
    let registry = registry.with_max_argument_bytes(64);
    let text = "x".repeat(100);
    let result = registry
        .call(
            ToolCall::new("m", "memo_write", json!({"memo_text": text})),
            &Context::default(),
        )
        .await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "bad-arguments");
    assert!(
        refusal
            .message
            .contains("more than the 64 this registry takes")
    );
    assert_eq!(counts.asked.load(Ordering::SeqCst), 0);
    assert_eq!(counts.entered.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn refusals_never_name_tools_outside_the_grant() {
    let (registry, _) = office();
    let desk = registry.scoped(Grant::names(["desk", "vault_nothing"]));
    let calls = [
        ToolCall::new("1", "nope", json!({})),
        ToolCall::new("2", "vault", json!({})),
        ToolCall::new("3", "vault_open", json!({"combination": 1})),
        ToolCall::new("4", "vault_list", json!({})),
        ToolCall::new("5", "memo_write", json!({"memo_text": 3, "combination": 1})),
        ToolCall::new("6", "memo_write", Arguments::from_text("[")),
        ToolCall::new("7", "memo_wait", json!({"wait_ms": -1})),
        ToolCall::new("8", "", json!({})),
        ToolCall::new("9", "memo_write", json!({"memo_text": "x".repeat(2 << 20)})),
    ];
    let results = desk.call_all(calls.to_vec(), &Context::default()).await;
    assert_eq!(results.len(), calls.len());
    for (result, call) in results.iter().zip(&calls) {
        let refusal = result.refusal().unwrap();
        // A refusal may repeat the name the caller sent; it names no other ungranted tool.
        let text = refusal
            .to_string()
            .replace(&format!("`{}`", call.name), "`…`");
        names_nothing_secret(&text);
    }
    assert_eq!(results[0].refusal().unwrap().code, "unknown-tool");
    assert_eq!(results[2].refusal().unwrap().code, "not-permitted");
    assert_eq!(results[4].refusal().unwrap().code, "bad-arguments");

    // Nor does anything else the view shows.
    names_nothing_secret(&desk.describe());
    names_nothing_secret(&format!("{:?}", desk.names()));
    names_nothing_secret(&serde_json::to_string(&desk.definitions()).unwrap());
    for provider in Provider::ALL {
        names_nothing_secret(&serde_json::to_string(&desk.export(provider).unwrap()).unwrap());
    }
}

/// Reads a config file.
#[tool(readonly)]
async fn config_read(path: String) -> std::io::Result<String> {
    Err(std::io::Error::other(format!(
        "permission denied: {path} (db password hunter2)"
    )))
}

/// Reads a config file, converting errors with `?`.
#[tool(readonly)]
async fn config_parse(path: String) -> Result<String, Refusal> {
    let text = std::fs::read_to_string(format!("/nonexistent/secret-dir/{path}"))?;
    Ok(text)
}

/// Refuses in words written for a model.
#[tool(readonly)]
async fn config_check(path: String) -> Result<String, Refusal> {
    Err(Refusal::failed(format!("{path} has no [server] section")))
}

/// Panics.
#[tool(readonly)]
async fn config_crash() -> String {
    panic!("invariant broken: key sk-live-1234")
}

#[tokio::test]
async fn error_details_and_panic_text_reach_the_log_not_the_model_unless_configured() {
    let log = Log::default();
    let _guard = tracing::subscriber::set_default(log.clone());
    let registry = Registry::builder()
        .tool(ConfigRead)
        .tool(ConfigParse)
        .tool(ConfigCheck)
        .tool(ConfigCrash)
        .build()
        .unwrap();
    let ctx = Context::default();
    let call = |name: &str| ToolCall::new("c", name, json!({"path": "app.toml"}));

    let hidden = "refused\tfailed\tthe tool failed; the details were logged";
    assert_eq!(
        registry.call(call("config_read"), &ctx).await.text(),
        hidden
    );
    assert_eq!(
        registry.call(call("config_parse"), &ctx).await.text(),
        hidden
    );
    let crash = registry
        .call(ToolCall::new("c", "config_crash", json!({})), &ctx)
        .await;
    assert_eq!(
        crash.text(),
        "refused\tinternal\tthe tool failed unexpectedly; the details were logged"
    );
    let logged = log.text();
    assert!(logged.contains("hunter2"), "{logged}");
    assert!(
        logged.contains("secret-dir") || logged.contains("No such file"),
        "{logged}"
    );
    assert!(logged.contains("sk-live-1234"), "{logged}");

    // A refusal the handler wrote is for the model, and shown.
    assert_eq!(
        registry.call(call("config_check"), &ctx).await.text(),
        "refused\tfailed\tapp.toml has no [server] section"
    );

    // Configured to, the registry shows them.
    let open = registry.with_error_messages(true).with_panic_messages(true);
    assert_eq!(
        open.call(call("config_read"), &ctx).await.text(),
        "refused\tfailed\tpermission denied: app.toml (db password hunter2)"
    );
    assert!(
        open.call(call("config_parse"), &ctx)
            .await
            .text()
            .starts_with("refused\tfailed\tNo such file")
    );
    assert!(
        open.call(ToolCall::new("c", "config_crash", json!({})), &ctx)
            .await
            .text()
            .contains("sk-live-1234")
    );
}

/// Loads a profile, with errors as applications that use anyhow write them.
#[tool(readonly)]
async fn profile_load(user: String) -> anyhow::Result<String> {
    use anyhow::Context as _;
    let cause = std::io::Error::other("connection refused (token tk-5678)");
    Err(cause)
        .with_context(|| format!("reading the profile of {user}"))
        .context("loading the profile")
}

/// An error with a source, as a library returns one.
#[derive(Debug)]
struct Unreachable {
    host: String,
    cause: std::io::Error,
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot reach {}", self.host)
    }
}

impl std::error::Error for Unreachable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.cause)
    }
}

fn unreachable(host: String) -> Unreachable {
    Unreachable {
        host,
        cause: std::io::Error::other("connection refused (token tk-5678)"),
    }
}

/// Pings a host, with a boxed error.
#[tool(readonly)]
async fn host_ping(host: String) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    Err(unreachable(host).into())
}

/// Pings a host, with a boxed error that is neither `Send` nor `Sync`.
#[tool(readonly)]
async fn host_ping_local(host: String) -> Result<String, Box<dyn std::error::Error>> {
    Err(unreachable(host).into())
}

#[tokio::test]
async fn anyhow_and_boxed_errors_are_failed_their_chain_logged_and_shown_only_if_configured() {
    let log = Log::default();
    let _guard = tracing::subscriber::set_default(log.clone());
    let registry = Registry::builder()
        .tool(ProfileLoad)
        .tool(HostPing)
        .tool(HostPingLocal)
        .build()
        .unwrap();
    let ctx = Context::default();
    let profile = || ToolCall::new("c", "profile_load", json!({"user": "ada"}));
    let ping = |name: &str| ToolCall::new("c", name, json!({"host": "db.internal"}));
    let anyhow_chain =
        "loading the profile: reading the profile of ada: connection refused (token tk-5678)";
    let boxed_chain = "cannot reach db.internal: connection refused (token tk-5678)";

    let hidden = "refused\tfailed\tthe tool failed; the details were logged";
    assert_eq!(registry.call(profile(), &ctx).await.text(), hidden);
    assert_eq!(registry.call(ping("host_ping"), &ctx).await.text(), hidden);
    assert_eq!(
        registry.call(ping("host_ping_local"), &ctx).await.text(),
        hidden
    );
    // Each error's whole chain is logged, as for any `std::error::Error`.
    let logged = log.text();
    assert!(
        logged.contains(&format!("error={anyhow_chain}")),
        "{logged}"
    );
    assert!(logged.contains(&format!("error={boxed_chain}")), "{logged}");

    let open = registry.with_error_messages(true);
    assert_eq!(
        open.call(profile(), &ctx).await.text(),
        format!("refused\tfailed\t{anyhow_chain}")
    );
    for name in ["host_ping", "host_ping_local"] {
        assert_eq!(
            open.call(ping(name), &ctx).await.text(),
            format!("refused\tfailed\t{boxed_chain}")
        );
    }
}

/// Says who is calling.
#[tool(readonly)]
async fn whoami(caller: Option<String>, ctx: &Context) -> String {
    format!("context: {:?}, argument: {caller:?}", ctx.caller())
}

/// Deletes everything, for whoever the approver lets.
#[tool(destructive)]
async fn wipe(ctx: &Context) -> String {
    format!("wiped for {:?}", ctx.caller())
}

#[tokio::test]
async fn the_caller_is_the_hosts_word_never_the_arguments() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let registry = Registry::builder()
        .tool(Whoami)
        .tool(Wipe)
        .build()
        .unwrap()
        .with_approver(
            move |request: ApprovalRequest| {
                record.lock().unwrap().push(request.caller.clone());
                async { Approval::Approve }
            },
            Duration::from_secs(1),
        );
    let alice = Context::new().with_caller("alice");
    let result = registry
        .call(
            ToolCall::new("1", "whoami", json!({"caller": "mallory"})),
            &alice,
        )
        .await;
    assert_eq!(
        result.text(),
        "context: Some(\"alice\"), argument: Some(\"mallory\")"
    );
    let anonymous = registry
        .call(
            ToolCall::new("2", "whoami", json!({"caller": "admin"})),
            &Context::default(),
        )
        .await;
    assert_eq!(anonymous.text(), "context: None, argument: Some(\"admin\")");

    // A tool that does not take `caller` refuses it; the approver hears the host's caller.
    let result = registry
        .call(
            ToolCall::new("3", "wipe", json!({"caller": "admin"})),
            &alice,
        )
        .await;
    assert_eq!(result.refusal().unwrap().code, "bad-arguments");
    let result = registry
        .call(ToolCall::new("4", "wipe", json!({})), &alice)
        .await;
    assert_eq!(result.text(), "wiped for Some(\"alice\")");
    assert_eq!(
        *seen.lock().unwrap(),
        [Some("alice".to_owned()), Some("alice".to_owned())]
    );
}

/// Sleeps for an hour.
#[tool(readonly)]
async fn nap() -> String {
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "rested".to_owned()
}

#[tokio::test(start_paused = true)]
async fn limits_have_safe_defaults() {
    assert_eq!(DEFAULT_MAX_ARGUMENT_BYTES, 1 << 20);
    assert_eq!(MAX_ARGUMENT_DEPTH, 128);
    assert_eq!(DEFAULT_TIMEOUT, Duration::from_secs(60));
    assert_eq!(DEFAULT_BATCH_LIMIT, 64);

    // A batch runs at most the default batch limit at once.
    let (registry, counts) = office();
    let calls: Vec<ToolCall> = (0..200)
        .map(|i| ToolCall::new(format!("{i}"), "memo_wait", json!({"wait_ms": 20})))
        .collect();
    let results = registry.call_all(calls, &Context::default()).await;
    for result in &results {
        assert_eq!(result.text(), "waited");
    }
    assert_eq!(counts.most_live.load(Ordering::SeqCst), DEFAULT_BATCH_LIMIT);

    // Arguments up to the default size are read; one byte more is refused unread.
    let (registry, _) = office();
    let at_limit = format!(
        r#"{{"memo_text":"{}"}}"#,
        "x".repeat(DEFAULT_MAX_ARGUMENT_BYTES - 16)
    );
    assert_eq!(at_limit.len(), DEFAULT_MAX_ARGUMENT_BYTES);
    let result = registry
        .call(
            ToolCall::new("m", "memo_write", Arguments::from_text(at_limit.clone())),
            &Context::default(),
        )
        .await;
    assert_eq!(
        result.text(),
        format!("wrote {} bytes", DEFAULT_MAX_ARGUMENT_BYTES - 16)
    );
    let over = format!("{at_limit} ");
    let result = registry
        .call(
            ToolCall::new("m", "memo_write", Arguments::from_text(over)),
            &Context::default(),
        )
        .await;
    assert_eq!(result.refusal().unwrap().code, "bad-arguments");

    // A handler that never finishes is stopped after the default timeout. Time is paused: the
    // runtime jumps to each timer. The registry's deadlines are `std` instants, which paused
    // time does not move, so the wait is read against the `std` clock: from just before the
    // call to the instant the tokio clock jumped to, the deadline's.
    let registry = Registry::builder().tool(Nap).build().unwrap();
    let started = std::time::Instant::now();
    let result = registry
        .call(ToolCall::new("n", "nap", json!({})), &Context::default())
        .await;
    assert_eq!(result.refusal().unwrap().code, "timed-out");
    let waited = tokio::time::Instant::now()
        .into_std()
        .saturating_duration_since(started);
    assert!(
        waited >= DEFAULT_TIMEOUT && waited < DEFAULT_TIMEOUT + Duration::from_secs(5),
        "{waited:?}"
    );
}
