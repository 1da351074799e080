//! An agent loop with a scripted model: what a host sets up around a registry, and every way a
//! batch of tool calls can go wrong without the host doing anything about it.
//!
//! The host builds a registry with `registry![...]` from a toolkit with state (notes behind a
//! mutex) and two free tools, then, for the user the model acts for:
//!
//! - scopes it to that user's [`Grant`], so other tools are neither listed nor callable;
//! - sets an [`Approver`] that declines deleting, with a reason the model is shown;
//! - sets a short default timeout, so a stuck tool cannot stall the loop;
//! - gives the model `registry.describe()` as its prompt.
//!
//! The model (a script, not a network call) sends one batch through `call_all`: one good call,
//! and one each that is refused as `bad-arguments`, `not-permitted`, `internal` (a panic),
//! `timed-out`, `declined` and `unknown-tool`. It then reads the refusals back from their text
//! with [`Refusal::parse`], as a host that keeps only text can, and retries the call whose
//! arguments it can fix.
//!
//! Then the host lists only a `tool_search` tool and `note_list`
//! ([`Registry::with_deferred_loading`]), as a host with hundreds of tools would: the model searches, and what the search finds is listed
//! and callable for the rest of its [`Session`].
//!
//! Last, the host guards a second registry with a budget of calls per caller and tool
//! ([`RateLimit`]: a sixth `note_add` in a minute is refused as `rate-limited`, with the seconds
//! to wait) and keeps large outputs as artifacts ([`Artifacts`]: a long `note_list` is shown as
//! a preview and a handle, and the model reads a part of it with `artifact_read`).
//!
//! Tabs in result text are printed as `<TAB>`, as in the docs of [`Refusal`].
//!
//! Run with `cargo run --example agent_loop`.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{
    Approval, ApprovalRequest, Artifacts, Context, Grant, RateLimit, Refusal, Registry, Session,
    TOOL_SEARCH, ToolCall, code, registry, tool, toolkit,
};

/// The user's notes, kept in memory by the toolkit itself.
#[derive(Default)]
struct Notes {
    notes: Mutex<BTreeMap<u64, Note>>,
}

/// A stored note.
#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
struct Note {
    id: u64,
    text: String,
    meta: Meta,
}

/// A note to add.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NewNote {
    /// The note's text.
    text: String,
    /// How to file it.
    meta: Meta,
}

/// How a note is filed.
#[derive(Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Meta {
    /// Tags to file it under.
    #[serde(default)]
    tags: Vec<String>,
    /// 1 (low) to 3 (high).
    #[schemars(range(min = 1, max = 3))]
    priority: u8,
}

/// What `note_add` did.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Added {
    id: u64,
}

/// What `note_list` found.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Listing {
    notes: Vec<Note>,
}

#[toolkit(name = "note")]
impl Notes {
    /// Adds a note.
    #[tool]
    async fn note_add(
        &self,
        /// The note.
        note: NewNote,
    ) -> Added {
        let mut notes = self.notes.lock().unwrap_or_else(PoisonError::into_inner);
        let id = notes.keys().next_back().map_or(1, |last| last + 1);
        let NewNote { text, meta } = note;
        notes.insert(id, Note { id, text, meta });
        Added { id }
    }

    /// Lists every note.
    #[tool(readonly)]
    async fn note_list(&self) -> Listing {
        let notes = self.notes.lock().unwrap_or_else(PoisonError::into_inner);
        Listing {
            notes: notes.values().cloned().collect(),
        }
    }

    /// Deletes a note for good.
    #[tool(destructive)]
    async fn note_delete(
        &self,
        /// Which note.
        id: u64,
    ) -> Result<String, Refusal> {
        match self
            .notes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
        {
            Some(_) => Ok(format!("deleted note {id}")),
            None => Err(Refusal::new("not-found", format!("there is no note {id}"))),
        }
    }
}

/// Sets a reminder for a note.
#[tool]
async fn reminder_set(
    /// Which note.
    note_id: u64,
    /// The time of day, as `HH:MM`.
    at: String,
) -> String {
    // A bug, kept on purpose: anything without a colon panics here instead of being refused.
    let (hours, minutes) = at.split_once(':').unwrap();
    format!("reminder for note {note_id} set at {hours}:{minutes}")
}

/// Fetches a web page.
#[tool(readonly, open_world)]
async fn web_fetch(
    /// The page's address.
    url: String,
) -> String {
    // The network is slow today: far slower than the registry's default timeout allows.
    tokio::time::sleep(Duration::from_secs(2)).await;
    format!("the page at {url}")
}

/// Runs a shell command. The host registers it, but grants it to no model.
#[tool(destructive)]
async fn shell_run(
    /// The command line.
    command: String,
) -> String {
    format!("ran {command}")
}

/// What the host lets this user's model use: everything but the shell.
fn grant_for(_caller: &str) -> Grant {
    Grant::new()
        .toolkit("note")
        .tool("reminder_set")
        .tool("web_fetch")
}

/// The host's approver, asked before every call of a `destructive` tool the grant lets through.
async fn approve(request: ApprovalRequest) -> Approval {
    let caller = request.caller.as_deref().unwrap_or("nobody");
    println!("  (approver asked: may {caller} run {})", request.call.name);
    if request.call.name.ends_with("_delete") {
        Approval::Decline(format!("{caller} must confirm deletions in the app"))
    } else {
        Approval::Approve
    }
}

/// A stand-in for a language model: it follows a script rather than the prompt, but it sees
/// only what a real one would, the prompt and the text of each result.
struct ScriptedModel;

impl ScriptedModel {
    /// The first turn: one batch of calls, most of them doomed.
    fn first_turn(&self, _prompt: &str) -> Vec<ToolCall> {
        vec![
            // Fine.
            ToolCall::new(
                "call-1",
                "note_add",
                json!({"note": {"text": "buy milk", "meta": {"tags": ["shopping"], "priority": 1}}}),
            ),
            // A word where a number belongs, two objects deep.
            ToolCall::new(
                "call-2",
                "note_add",
                json!({"note": {"text": "call mum", "meta": {"priority": "high"}}}),
            ),
            // Registered, but not granted to this user.
            ToolCall::new("call-3", "shell_run", json!({"command": "rm -rf notes/"})),
            // Hits the bug in `reminder_set`.
            ToolCall::new(
                "call-4",
                "reminder_set",
                json!({"note_id": 1, "at": "noon"}),
            ),
            // Sleeps past the default timeout.
            ToolCall::new("call-5", "web_fetch", json!({"url": "https://example.com"})),
            // Destructive: the approver says no.
            ToolCall::new("call-6", "note_delete", json!({"id": 1})),
            // No such tool anywhere.
            ToolCall::new("call-7", "note_search", json!({"query": "milk"})),
            // A number the schema's bound refuses, though a `u8` would hold it.
            ToolCall::new(
                "call-8",
                "note_add",
                json!({"note": {"text": "pay rent", "meta": {"priority": 200}}}),
            ),
        ]
    }

    /// The second turn: reads each answer back and retries what it can fix.
    fn second_turn(&self, sent: &[ToolCall], answers: &[String]) -> Vec<ToolCall> {
        let mut retries = Vec::new();
        for (call, answer) in sent.iter().zip(answers) {
            let Some(refusal) = Refusal::parse(answer) else {
                println!("{}: done", call.id);
                continue;
            };
            let verdict = match refusal.code.as_str() {
                code::BAD_ARGUMENTS => match fix_arguments(call, &refusal) {
                    Some(fixed) => {
                        let verdict = format!("retry as {}", fixed.id);
                        retries.push(fixed);
                        verdict
                    }
                    None => "cannot fix the arguments; give up".to_owned(),
                },
                code::NOT_PERMITTED | code::UNKNOWN_TOOL => {
                    let tools = refusal.find_line("tools").map(|line| line.cells.join(", "));
                    format!("use only {}", tools.unwrap_or_default())
                }
                code::DECLINED => format!("tell the user: {}", refusal.message),
                code::TIMED_OUT => "try again later".to_owned(),
                _ => "report it to the user".to_owned(),
            };
            println!("{}: {} -> {verdict}", call.id, refusal.code);
        }
        retries
    }
}

/// Rewrites each field a `fault` line points at. A real model would reason from the fault's
/// text; this one knows a single fix, priority words to numbers.
fn fix_arguments(call: &ToolCall, refusal: &Refusal) -> Option<ToolCall> {
    let mut arguments = call.arguments.to_value().ok()?;
    for fault in refusal.lines.iter().filter(|line| line.label == "fault") {
        let [path, problem] = fault.cells.as_slice() else {
            return None;
        };
        // `note.meta.priority` or `items[2].qty` as a JSON pointer.
        let pointer = format!("/{}", path.replace(['.', '['], "/").replace(']', ""));
        let field = arguments.pointer_mut(&pointer)?;
        *field = match (problem.starts_with("expected u8"), field.as_str()?) {
            (true, "low") => json!(1),
            (true, "normal") => json!(2),
            (true, "high") => json!(3),
            _ => return None,
        };
    }
    Some(ToolCall::new(
        format!("{}-retry", call.id),
        call.name.clone(),
        arguments,
    ))
}

/// Shows a result's text with its tabs visible.
fn show(id: &str, name: &str, text: &str) {
    println!("{id} {name}:");
    for line in text.lines() {
        println!("  {}", line.replace('\t', "<TAB>"));
    }
}

// One thread: the batch's calls still run concurrently, but in a fixed order, so the lines the
// panic hook and the approver print come out the same on every run.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    // What the model is not shown (a panic's text, a handler's error) goes to `tracing`: here,
    // one line each on stderr. Without a subscriber it would go to stderr anyway, unformatted.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    // `reminder_set` will panic. The registry catches the panic and answers `internal`, keeping
    // the panic's text from the model. Rust's panic hook still runs first, and by default
    // prints the panic to stderr, with a whole backtrace if RUST_BACKTRACE is set; this hook
    // prints one line instead.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("  (panic hook) {}", info.to_string().replace('\n', " "));
    }));

    // All the tools the application has; the compiler checks that no two share a name.
    let all = registry![Notes::default(), ReminderSet, WebFetch, ShellRun];

    // What this user's model gets: a view of the same tools, narrowed and guarded.
    let caller = "alice";
    let tools = all
        .scoped(grant_for(caller))
        .with_approver(approve, Duration::from_secs(1))
        .with_default_timeout(Duration::from_millis(200));
    // The caller comes from the host's session, never from the model's arguments.
    let ctx = Context::new().with_caller(caller);

    let prompt = tools.describe();
    println!("== the prompt: the granted tools ==\n{prompt}");

    let model = ScriptedModel;
    let batch = model.first_turn(&prompt);
    println!("== round 1: the model sends ==");
    for call in &batch {
        println!("{}", serde_json::to_string(call).expect("calls serialize"));
    }

    println!("\n== round 1: the registry answers ==");
    let results = tools.call_all(batch.clone(), &ctx).await;
    let answers: Vec<String> = results.iter().map(|result| result.text()).collect();
    for (result, answer) in results.iter().zip(&answers) {
        show(&result.id, &result.name, answer);
    }

    // The model is handed only the text, as it would be over any provider's API.
    println!("\n== round 2: the model reads the answers ==");
    let retries = model.second_turn(&batch, &answers);
    println!("\n== round 2: the registry answers ==");
    for result in tools.call_all(retries, &ctx).await {
        show(&result.id, &result.name, &result.text());
    }

    // The host can call tools itself too, through the same view: here, to show the state.
    let listed = tools
        .call(ToolCall::new("host-1", "note_list", Value::Null), &ctx)
        .await;
    println!("\n== the notes now ==");
    show(&listed.id, &listed.name, &listed.text());

    searched(&all, &ctx).await;
    guarded(&ctx).await;
}

/// Only `tool_search` and `note_list` are listed at first; the model finds the tool it needs
/// and calls it.
async fn searched(all: &Registry, ctx: &Context) {
    println!("\n== only a search is listed, and what it finds ==");
    let tools = all
        .scoped(grant_for("alice"))
        .with_deferred_loading(["note_list"]);
    // One session per conversation: what its searches found stays listed in it.
    let session = Session::new();
    let names = |session: &Session| -> Vec<String> {
        let listed = tools.definitions_in(session);
        listed.iter().map(|tool| tool.name.clone()).collect()
    };
    println!("listed: {}", names(&session).join(", "));
    let search = json!({"query": "add a note to remember", "limit": 2});
    let found = tools
        .call_in(
            &session,
            ToolCall::new("search-1", TOOL_SEARCH, search),
            ctx,
        )
        .await;
    show(&found.id, &found.name, &found.text());
    println!("listed: {}", names(&session).join(", "));
    let note = json!({"note": {"text": "found by a search", "meta": {"priority": 1}}});
    let added = tools
        .call_in(&session, ToolCall::new("add-found", "note_add", note), ctx)
        .await;
    show(&added.id, &added.name, &added.text());
}

/// A registry with a budget of calls and artifacts for large outputs, and a model that meets
/// both.
async fn guarded(ctx: &Context) {
    println!("\n== a budget of calls, and a large output ==");
    // Outputs over 300 bytes are kept; the model sees their first 120 and a handle.
    let artifacts = Artifacts::over(300).preview_bytes(120);
    let five = NonZeroU32::new(5).expect("five is not zero");
    let tools = Registry::builder()
        .toolkit(Notes::default())
        .toolkit(artifacts.reader())
        .build()
        .expect("the tools have distinct names")
        // Five calls a minute of each tool for each caller.
        .with_rate_limit(RateLimit::per_caller(five, Duration::from_secs(60)).per_tool())
        .with_artifacts(artifacts);
    for n in 1..=6 {
        let note = json!({"note": {"text": format!("errand {n}"), "meta": {"priority": 2}}});
        let result = tools
            .call(ToolCall::new(format!("add-{n}"), "note_add", note), ctx)
            .await;
        if result.is_refused() {
            // The sixth: over the budget, with the seconds to wait.
            show(&result.id, &result.name, &result.text());
        }
    }
    let listed = tools
        .call(ToolCall::new("list-1", "note_list", Value::Null), ctx)
        .await;
    show(&listed.id, &listed.name, &listed.text());
    let handle = listed
        .notes
        .iter()
        .find(|line| line.label == "artifact")
        .map(|line| line.cells[0].clone())
        .unwrap_or_default();
    let read = json!({"handle": handle, "offset": 120, "length": 100});
    let part = tools
        .call(ToolCall::new("read-1", "artifact_read", read), ctx)
        .await;
    show(&part.id, &part.name, &part.text());
}
