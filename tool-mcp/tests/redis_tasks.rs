//! Task state shared through Redis: a real `redis-server` (Debian's, installed when missing and
//! this runs as root with apt, else the test fails saying what to install) started on a
//! loopback port, and copies of the example server over HTTP each given `--redis`. A task
//! started through one copy is polled, answered, cancelled and read through the others, with
//! the same owner checks; with Redis killed, task calls fail with a clear error while plain
//! calls keep working, and task calls work again once Redis is back; a task whose replica
//! stopped reads as failed on the others. Three in-process replicas of a registry with deferred
//! loading, without sessions, share what a caller's search found through the same Redis, and
//! answer from what each knows once it is gone. The stores themselves
//! (in memory and Redis) pass one suite of [`TaskStore`] tests.

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tool_mcp::{McpServer, MemoryTaskStore, RedisTaskStore, TaskRecord, TaskStore};

mod support;

use support::process::ChildGuard;

/// How long any one answer may take before the test fails.
const ANSWER_LIMIT: Duration = Duration::from_secs(15);

/// A `redis-server` of this test's own, in a temp dir, stopped (and the dir removed) when
/// dropped.
struct Redis {
    server: Option<ChildGuard>,
    port: u16,
    dir: PathBuf,
}

impl Redis {
    /// A Redis on a free loopback port.
    fn start() -> Redis {
        let program = redis_server();
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let dir =
            std::env::temp_dir().join(format!("tool-mcp-redis-{}-{port}", std::process::id()));
        fs::create_dir_all(&dir).expect("the redis temp dir is made");
        let mut redis = Redis {
            server: None,
            port,
            dir,
        };
        redis.restart_with(&program);
        redis
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server, as a crash or a network cut would take it away.
    fn kill(&mut self) {
        self.server = None;
    }

    /// Starts the server again on the same port.
    fn restart(&mut self) {
        self.restart_with(&redis_server());
    }

    fn restart_with(&mut self, program: &str) {
        let port = self.port.to_string();
        let server = ChildGuard::spawn(
            Command::new(program)
                .args(["--port", &port, "--bind", "127.0.0.1", "--save", ""])
                .args(["--appendonly", "no", "--dir"])
                .arg(&self.dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
            "redis-server",
        );
        self.server = Some(server);
        let deadline = Instant::now() + ANSWER_LIMIT;
        while !self.pongs() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer PING on port {port} within {ANSWER_LIMIT:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn pongs(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut answer = [0u8; 5];
        stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut answer).is_ok()
            && &answer == b"+PONG"
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.server = None;
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// The `redis-server` program, installed first if need be (see `support::debian`).
fn redis_server() -> String {
    support::debian::program("redis-server", "redis-server")
        .display()
        .to_string()
}

/// The `_meta` of a 2026-07-28 request from a client that declares the tasks extension, or not.
fn meta(tasks: bool) -> Value {
    let extensions = match tasks {
        true => json!({"io.modelcontextprotocol/tasks": {}}),
        false => json!({}),
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "redis-tasks-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
    })
}

/// One caller of one replica, speaking raw JSON-RPC 2026-07-28 (no session).
struct Caller {
    http: reqwest::Client,
    url: String,
    name: String,
}

impl Caller {
    fn new(url: &str, name: &str) -> Caller {
        // reqwest is built with rmcp's TLS features, which need a process-wide crypto provider
        // even for plain http.
        support::install_tls();
        Caller {
            http: reqwest::Client::builder().no_proxy().build().unwrap(),
            url: url.to_owned(),
            name: name.to_owned(),
        }
    }

    /// Sends a request and returns the JSON-RPC answer to it (`result` or `error`).
    async fn request(&self, method: &str, params: Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let mut request = self
            .http
            .post(self.url.as_str())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .header("x-caller", self.name.as_str());
        if let Some(name) = params["taskId"].as_str().or(params["name"].as_str()) {
            request = request.header("Mcp-Name", name);
        }
        let sent = async { request.body(message.to_string()).send().await?.text().await };
        let body = tokio::time::timeout(ANSWER_LIMIT, sent)
            .await
            .unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
            .unwrap_or_else(|error| panic!("{message} was not answered: {error}"));
        support::answer_in(&body, 1, &message)
    }

    async fn call(&self, name: &str, arguments: Value, tasks: bool) -> Value {
        let params = json!({"name": name, "arguments": arguments, "_meta": meta(tasks)});
        self.request("tools/call", params).await
    }

    /// Calls `name` as a task and returns the task's id.
    async fn start(&self, name: &str, arguments: Value) -> String {
        let answer = self.call(name, arguments, true).await;
        assert_eq!(answer["result"]["resultType"], "task", "{answer}");
        answer["result"]["taskId"].as_str().unwrap().to_owned()
    }

    /// `tasks/get`, `tasks/update` or `tasks/cancel` of task `id`, with `more` params.
    async fn task(&self, method: &str, id: &str, more: Value) -> Value {
        let mut params = json!({"taskId": id, "_meta": meta(true)});
        if let (Some(params), Value::Object(more)) = (params.as_object_mut(), more) {
            params.extend(more);
        }
        self.request(method, params).await
    }

    /// Polls `tasks/get` until `done` holds of the task's state, and returns that state.
    async fn until(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut answer = Value::Null;
        for () in support::patiently() {
            answer = self.task("tasks/get", id, json!({})).await;
            let state = &answer["result"];
            assert!(state.is_object(), "tasks/get failed: {answer}");
            if done(state) {
                return state.clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("task {id} was not {what} within two minutes: {answer}");
    }

    async fn write_notes(&self, n: usize) {
        for index in 0..n {
            let text = format!("note {index}");
            let answer = self.call("note_write", json!({"text": text}), false).await;
            assert_eq!(answer["result"]["isError"], false, "{answer}");
        }
    }
}

fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |state| state["status"] == status
}

/// The message of an invalid-params error, with the task id taken out.
fn unknown_id_message(answer: &Value, id: &str) -> String {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    answer["error"]["message"]
        .as_str()
        .unwrap()
        .replace(id, "ID")
}

/// Copies of the example server sharing `redis`.
fn replicas(redis: &Redis, count: usize) -> Vec<(ChildGuard, String)> {
    let url = redis.url();
    (0..count)
        .map(|_| support::example_http_server(&["--redis", &url]))
        .collect()
}

#[tokio::test]
async fn a_task_started_on_one_replica_is_polled_answered_cancelled_and_read_on_the_others() {
    let redis = Redis::start();
    let servers = replicas(&redis, 3);
    let [a, b, c] = [0, 1, 2].map(|at| Caller::new(&servers[at].1, "alice"));
    a.write_notes(3).await;

    // Asked on one replica, answered on another, read on a third.
    let id = a
        .start("note_export", json!({"pace_ms": 5, "confirm": true}))
        .await;
    let asking = b.until(&id, "asking", status_is("input_required")).await;
    assert_eq!(
        asking["inputRequests"]["ask-1"]["params"]["message"], "Export every note?",
        "{asking}"
    );
    let yes =
        json!({"inputResponses": {"ask-1": {"action": "accept", "content": {"value": true}}}});
    let acknowledged = c.task("tasks/update", &id, yes).await;
    assert!(acknowledged.get("error").is_none(), "{acknowledged}");
    let finished = c.until(&id, "completed", status_is("completed")).await;
    let exported = finished["result"]["structuredContent"]["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("an export's result lists its notes: {finished}"));
    assert_eq!(exported.len(), 3, "the notes of the replica that ran it");
    // Read again on each replica, the same.
    for replica in [&a, &b] {
        let again = replica.task("tasks/get", &id, json!({})).await;
        assert_eq!(again["result"]["result"], finished["result"], "{again}");
    }
    // A finished task takes no more answers, on any replica.
    let late = json!({"inputResponses": {"ask-1": {"action": "decline"}}});
    let refused = b.task("tasks/update", &id, late).await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("has finished")),
        "{refused}"
    );

    // Its progress shows on another replica, and a cancel sent to a third stops it. Thirty
    // notes at two seconds each: a minute, so that however loaded the machine the export
    // still runs when the progress is seen and the cancel sent.
    a.write_notes(27).await;
    let slow = a.start("note_export", json!({"pace_ms": 2000})).await;
    let working = b
        .until(&slow, "showing progress", |state| {
            state["statusMessage"]
                .as_str()
                .is_some_and(|message| message.ends_with("of 30: exporting"))
        })
        .await;
    assert_eq!(working["status"], "working", "{working}");
    let cancelled = c.task("tasks/cancel", &slow, json!({})).await;
    assert!(cancelled.get("error").is_none(), "{cancelled}");
    b.until(&slow, "cancelled", status_is("cancelled")).await;

    // Another caller's task id gets, on every replica, the very error an unknown id gets.
    let never = "00000000-0000-4000-8000-000000000000";
    for url in servers.iter().map(|(_, url)| url) {
        let bob = Caller::new(url, "bob");
        let theirs = bob.task("tasks/get", &id, json!({})).await;
        let unknown = bob.task("tasks/get", never, json!({})).await;
        assert_eq!(
            unknown_id_message(&theirs, &id),
            unknown_id_message(&unknown, never)
        );
        let cancel = bob.task("tasks/cancel", &slow, json!({})).await;
        assert_eq!(cancel["error"]["code"], -32602, "{cancel}");
    }
}

#[tokio::test]
async fn with_redis_gone_task_calls_fail_clearly_plain_calls_work_and_both_recover() {
    let mut redis = Redis::start();
    let servers = replicas(&redis, 2);
    let [a, b] = [0, 1].map(|at| Caller::new(&servers[at].1, "alice"));
    let id = a.start("note_export", json!({"pace_ms": 5})).await;
    b.until(&id, "completed", status_is("completed")).await;

    redis.kill();
    let down = |answer: &Value| {
        assert_eq!(answer["error"]["code"], -32603, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("the task store cannot be reached")
                && message.contains(&format!("127.0.0.1:{}", redis.port))
                && message.contains("Plain tool calls are not affected"),
            "{answer}"
        );
    };
    // A replica that did not run the task cannot read it, nor can any replica start one.
    down(&b.task("tasks/get", &id, json!({})).await);
    down(&b.call("note_export", json!({"pace_ms": 5}), true).await);
    down(&a.call("note_export", json!({"pace_ms": 5}), true).await);
    // Plain calls, of the same tool too, are served as ever.
    for replica in [&a, &b] {
        let count = replica.call("note_count", json!({}), true).await;
        assert_eq!(count["result"]["isError"], false, "{count}");
        let export = replica
            .call("note_export", json!({"pace_ms": 5}), false)
            .await;
        assert_eq!(export["result"]["isError"], false, "{export}");
    }

    redis.restart();
    // Redis restarted empty (no persistence), so earlier tasks are gone; new ones work.
    let mut again = None;
    let mut answer = Value::Null;
    for () in support::patiently() {
        answer = a.call("note_export", json!({"pace_ms": 5}), true).await;
        if answer["result"]["resultType"] == "task" {
            again = answer["result"]["taskId"].as_str().map(str::to_owned);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let again = again.unwrap_or_else(|| {
        panic!("task calls did not recover within two minutes of Redis's return: {answer}")
    });
    b.until(&again, "completed", status_is("completed")).await;
}

#[tokio::test]
async fn a_task_whose_replica_stopped_reads_as_failed_on_the_others() {
    let redis = Redis::start();
    let mut servers = replicas(&redis, 2);
    let [a, b] = [0, 1].map(|at| Caller::new(&servers[at].1, "alice"));
    a.write_notes(2).await;
    let id = a.start("note_export", json!({"pace_ms": 60_000})).await;
    b.until(&id, "working", status_is("working")).await;
    // Still working on the other replica for longer than a heartbeat.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let working = b.task("tasks/get", &id, json!({})).await;
    assert_eq!(working["result"]["status"], "working", "{working}");

    drop(servers.remove(0));
    let failed = b.until(&id, "failed", status_is("failed")).await;
    let message = failed["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("stopped before it finished") && message.contains("call the tool again"),
        "{failed}"
    );
    let late = b
        .task("tasks/update", &id, json!({"inputResponses": {}}))
        .await;
    assert_eq!(
        late["error"]["code"], -32602,
        "a stopped task takes no answers: {late}"
    );
}

/// A replica of a registry with deferred loading (`weather` listed always) served without
/// sessions, sharing `redis` for its tasks, whose callers are named by an `x-caller` header.
async fn deferred_replica(redis: &Redis) -> support::HttpServer {
    let registry = support::notebook::deferred();
    let store = RedisTaskStore::open(&redis.url()).expect("a Redis URL");
    let server = McpServer::new(registry)
        .with_caller(|parts| {
            let caller = parts.headers.get("x-caller")?.to_str().ok()?;
            Some(caller.to_owned())
        })
        .with_task_store(store)
        .stateless();
    support::HttpServer::serve(server).await
}

/// Posts one request of `revision` (2026-07-28 carries its `_meta`) as `caller` and returns
/// its `result`.
async fn post(url: &str, caller: &str, revision: &str, method: &str, mut params: Value) -> Value {
    support::install_tls();
    if revision == "2026-07-28" {
        params["_meta"] = meta(false);
    }
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut request = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client")
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", revision)
        .header("Mcp-Method", method)
        .header("x-caller", caller);
    if let Some(name) = params["name"].as_str() {
        request = request.header("Mcp-Name", name);
    }
    let sent = async { request.body(message.to_string()).send().await?.text().await };
    let body = tokio::time::timeout(ANSWER_LIMIT, sent)
        .await
        .unwrap_or_else(|_| panic!("no answer to {message} within {ANSWER_LIMIT:?}"))
        .unwrap_or_else(|error| panic!("{message} was not answered: {error}"));
    let answer = support::messages_in(&body)
        .into_iter()
        .find(|each| each["id"] == 1)
        .unwrap_or_else(|| panic!("no answer to {message} in {body}"));
    match answer.get("result") {
        Some(result) => result.clone(),
        None => panic!("expected a result to {message}, the server answered {answer}"),
    }
}

/// The names `tools/list` gives `caller` on `url`.
async fn listed(url: &str, caller: &str, revision: &str) -> Vec<String> {
    let result = post(url, caller, revision, "tools/list", json!({})).await;
    result["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("a list of tools: {result}"))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

async fn call(url: &str, caller: &str, name: &str, arguments: Value) -> Value {
    let params = json!({"name": name, "arguments": arguments});
    post(url, caller, "2026-07-28", "tools/call", params).await
}

fn text_of(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_caller_s_search_on_one_replica_is_listed_and_callable_on_the_others() {
    let mut redis = Redis::start();
    let mut replicas = Vec::new();
    for _ in 0..3 {
        replicas.push(deferred_replica(&redis).await);
    }
    let [one, two, three] = [0, 1, 2].map(|at| replicas[at].url());
    let short = ["tool_search", "weather"];
    assert_eq!(listed(&two, "alice", "2026-07-28").await, short);

    let found = call(
        &one,
        "alice",
        "tool_search",
        json!({"query": "write a note", "limit": 1}),
    )
    .await;
    assert!(text_of(&found).contains("note_write"), "{found}");

    // Listed on another replica, for that caller only, in both revisions without a session.
    let grown = ["tool_search", "note_write", "weather"];
    for revision in ["2026-07-28", "2025-11-25"] {
        assert_eq!(listed(&two, "alice", revision).await, grown, "{revision}");
        assert_eq!(listed(&two, "bob", revision).await, short, "{revision}");
    }
    // Callable on a third, which had never heard of the caller.
    let written = call(&three, "alice", "note_write", json!({"text": "hi"})).await;
    assert_eq!(text_of(&written), "wrote hi", "{written}");
    let refused = call(&three, "bob", "note_write", json!({"text": "hi"})).await;
    assert_eq!(refused["isError"], true, "{refused}");

    // With Redis gone, listings and plain calls answer from what each replica knows.
    redis.kill();
    assert_eq!(listed(&two, "alice", "2026-07-28").await, grown);
    assert_eq!(listed(&three, "bob", "2025-11-25").await, short);
    let purge = call(
        &one,
        "alice",
        "tool_search",
        json!({"query": "delete notes"}),
    )
    .await;
    assert!(text_of(&purge).contains("note_purge"), "{purge}");
    let purged = call(&one, "alice", "note_purge", json!({})).await;
    assert_eq!(text_of(&purged), "purged", "{purged}");
    let weather = call(&three, "carol", "weather", json!({"city": "Oslo"})).await;
    assert_eq!(text_of(&weather), "sunny in Oslo", "{weather}");

    for replica in replicas {
        replica.stop().await;
    }
}

/// What every [`TaskStore`] must do: keep a record for its time, hand each answer over once,
/// remember a cancel, and keep tasks apart.
async fn keeps_what_tasks_need(store: &dyn TaskStore) {
    let id = format!("task-{}", uuid_like());
    let record = TaskRecord {
        session: None,
        caller: Some("alice".to_owned()),
        task: json!({"taskId": id, "status": "working"}),
        written_ms: 1,
    };
    let long = Duration::from_secs(60);
    assert_eq!(store.get(&id).await.unwrap(), None);
    store.put(&id, &record, long).await.unwrap();
    assert_eq!(store.get(&id).await.unwrap(), Some(record.clone()));
    let finished = TaskRecord {
        task: json!({"taskId": id, "status": "completed", "result": {"content": []}}),
        ..record.clone()
    };
    store.put(&id, &finished, long).await.unwrap();
    assert_eq!(store.get(&id).await.unwrap(), Some(finished));

    let mut first = Map::new();
    first.insert(
        "ask-1".into(),
        json!({"action": "accept", "content": {"value": true}}),
    );
    let mut second = Map::new();
    second.insert("ask-2".into(), json!({"action": "decline"}));
    assert!(store.take_answers(&id).await.unwrap().is_empty());
    store.answer(&id, first.clone(), long).await.unwrap();
    store.answer(&id, second.clone(), long).await.unwrap();
    let mut both = first;
    both.extend(second);
    assert_eq!(store.take_answers(&id).await.unwrap(), both);
    assert!(
        store.take_answers(&id).await.unwrap().is_empty(),
        "taken once"
    );

    assert!(!store.cancelled(&id).await.unwrap());
    store.cancel(&id, long).await.unwrap();
    assert!(store.cancelled(&id).await.unwrap());

    let other = format!("{id}-other");
    assert_eq!(store.get(&other).await.unwrap(), None);
    assert!(!store.cancelled(&other).await.unwrap());

    let brief = Duration::from_millis(50);
    store.put(&other, &record, brief).await.unwrap();
    store.cancel(&other, brief).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(store.get(&other).await.unwrap(), None, "past its time");
    assert!(!store.cancelled(&other).await.unwrap(), "past its time");
    assert!(store.get(&id).await.unwrap().is_some(), "others are kept");
}

/// A name no other run of this test uses.
fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    format!("{}-{nanos}", std::process::id())
}

#[tokio::test]
async fn the_in_memory_store_keeps_what_tasks_need() {
    keeps_what_tasks_need(&MemoryTaskStore::default()).await;
    // One process shares its callers' sessions in memory: this store keeps no found tools.
    let store = MemoryTaskStore::default();
    let names = ["weather".to_owned()];
    let long = Duration::from_secs(60);
    store.add_found("alice", &names, long).await.unwrap();
    assert!(store.found("alice", long).await.unwrap().is_empty());
}

#[tokio::test]
async fn the_redis_store_keeps_what_tasks_need() {
    let redis = Redis::start();
    let store = RedisTaskStore::open(&redis.url()).unwrap();
    keeps_what_tasks_need(&store).await;
    // Another prefix is another set of tasks in the same Redis.
    let apart = RedisTaskStore::open(&redis.url())
        .unwrap()
        .with_prefix("elsewhere");
    let record = TaskRecord {
        session: None,
        caller: None,
        task: json!({}),
        written_ms: 1,
    };
    store
        .put("shared-id", &record, Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(apart.get("shared-id").await.unwrap(), None);

    // A caller's found tools: added to, read by any store on the same prefix, forgotten once
    // idle past their time.
    let long = Duration::from_secs(60);
    assert!(store.found("alice", long).await.unwrap().is_empty());
    let names = ["weather".to_owned(), "note_write".to_owned()];
    store.add_found("alice", &names, long).await.unwrap();
    store.add_found("alice", &names[..1], long).await.unwrap();
    assert_eq!(
        store.found("alice", long).await.unwrap(),
        ["note_write", "weather"]
    );
    assert!(store.found("bob", long).await.unwrap().is_empty());
    assert!(apart.found("alice", long).await.unwrap().is_empty());
    let brief = Duration::from_millis(50);
    store.add_found("carol", &names, brief).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(store.found("carol", long).await.unwrap().is_empty());
}

#[test]
fn a_bad_redis_url_is_refused_saying_what_to_give() {
    let error = RedisTaskStore::open("http://example.com").err().unwrap();
    assert!(error.to_string().contains("redis://HOST:PORT"), "{error}");
    // A TLS URL is a Redis URL: what it lacks is redis-rs's TLS, which the host turns on.
    for url in ["rediss://127.0.0.1:6380", "VALKEYS://127.0.0.1:6380"] {
        let error = RedisTaskStore::open(url).err().unwrap().to_string();
        assert!(
            error.contains("asks for TLS") && error.contains("features = [\"tokio-rustls-comp\"]"),
            "{url}: {error}"
        );
    }
}
