//! The rig adapter (`tool_core::adapters::rig`) as rig runs it: through rig-agent's own agent
//! loop, with a scripted completion model answering with tool calls, and through rig's
//! `ToolSet`. What the model is offered is our MCP export; what it reads back for each call is
//! the text the registry answers with, refusals included, and the run goes on after them;
//! rig's error kinds follow the refusal's code; the caller, deadline and cancellation of rig's
//! side reach the call's context.
//!
//! The scripted model is a completion-family handler on a bus the test drives, the way rig-agent
//! serves any model: `AgentBuilder::over_bus` with the handler registered under its model key.

use std::collections::VecDeque;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use rig_agent::agent::{OutcomeAction, OutcomeEvent};
use rig_agent::bus::Bus;
use rig_agent::tool::ToolSet;
use rig_agent::{Agent, AgentBuilder, AgentHook, HookContext};
use rig_core::completion::{
    CompletionRequest, CompletionResponse, ModelRef, ProviderCapabilities, Usage,
};
use rig_core::effect::{EffectKind, FamilyDescriptor, HandlerDescriptor, Outcome, family};
use rig_core::error::{ErrorKind, ErrorReport};
use rig_core::message::{
    Api, AssistantContent, Message, Origin, ToolCall as RigCall, ToolFunction, ToolName,
    ToolResultContent, UserContent,
};
use rig_core::serve::{Dispatch, Reply, Serve};
use rig_core::tool::{DynamicTool, ToolContext, ToolErrorKind};
use serde_json::{Value, json};
use tool_core::adapters::rig::{self as adapter, Caller, Deadline, RigTools};
use tool_core::{
    Approval, ApprovalRequest, Context, Grant, Provider, RateLimit, Registry, code, registry,
    testing, tool,
};

/// Adds a note.
#[tool(name = "note_add")]
async fn note_add(
    /// The note's text.
    text: String,
    /// 1 (low) to 3 (high).
    #[schemars(range(min = 1, max = 3))]
    priority: u8,
) -> String {
    format!("added {text:?} at priority {priority}")
}

/// Deletes a note for good.
#[tool(name = "note_delete", destructive)]
async fn note_delete(
    /// Which note.
    id: u64,
) -> String {
    format!("deleted note {id}")
}

/// Says who is calling.
#[tool(name = "whoami", readonly)]
async fn whoami(ctx: &Context) -> String {
    ctx.caller().unwrap_or("nobody").to_owned()
}

/// Waits until it is cancelled, telling the test when it started and when its context was
/// cancelled.
#[tool(name = "wait", readonly)]
async fn wait(ctx: &Context) -> String {
    if let Some(probe) = ctx.get::<Probe>() {
        let token = ctx.cancellation().clone();
        let cancelled = probe.cancelled.clone();
        tokio::spawn(async move {
            token.cancelled().await;
            cancelled.notify_one();
        });
        probe.started.notify_one();
    }
    std::future::pending().await
}

/// What the `wait` tool tells the test, through the call's context.
#[derive(Clone, Default)]
struct Probe {
    started: Arc<tokio::sync::Notify>,
    cancelled: Arc<tokio::sync::Notify>,
}

fn notes() -> Registry {
    registry![NoteAdd, NoteDelete, Whoami, Wait]
}

/// Everything but deleting.
fn no_deleting() -> Grant {
    Grant::new().tool("note_add").tool("whoami").tool("wait")
}

// ---- the scripted model --------------------------------------------------------------------

const MODEL: &str = "scripted";

/// A completion model that answers each request with the next turn of its script, and keeps
/// every request it was sent.
#[derive(Clone, Default)]
struct Scripted {
    turns: Arc<Mutex<VecDeque<Vec<AssistantContent>>>>,
    requests: Arc<Mutex<Vec<CompletionRequest>>>,
}

impl Scripted {
    fn new(turns: impl IntoIterator<Item = Vec<AssistantContent>>) -> Scripted {
        Scripted {
            turns: Arc::new(Mutex::new(turns.into_iter().collect())),
            requests: Arc::default(),
        }
    }

    fn requests(&self) -> Vec<CompletionRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Serve for Scripted {
    type Family = family::Completion;

    fn descriptor(&self) -> HandlerDescriptor {
        HandlerDescriptor {
            key: rig_core::effect::model_key(MODEL),
            family: FamilyDescriptor::Completion {
                model: ModelRef::from(MODEL),
                capabilities: ProviderCapabilities::default(),
            },
            layers: Vec::new(),
        }
    }

    async fn serve(&self, kind: EffectKind, _dispatch: Dispatch) -> Reply {
        let EffectKind::Completion { request, .. } = kind else {
            return Reply::Outcome(Err(ErrorReport::new(
                ErrorKind::HandlerUnavailable,
                "the scripted model serves completions only",
            )));
        };
        self.requests.lock().unwrap().push(request);
        let Some(choice) = self.turns.lock().unwrap().pop_front() else {
            return Reply::Outcome(Err(ErrorReport::new(
                ErrorKind::Provider,
                "the script has no more turns",
            )));
        };
        let origin = Origin::new(Api::from_static("scripted"), MODEL, MODEL);
        let response = CompletionResponse::new(choice, Usage::new(), origin, Value::Null);
        Reply::Outcome(Ok(Outcome::Completion(response)))
    }
}

fn call(id: &str, name: &str, arguments: Value) -> AssistantContent {
    let name = ToolName::new(name).unwrap();
    AssistantContent::ToolCall(RigCall::from_wire(id, ToolFunction::new(name, arguments)))
}

/// An agent of `model` and `tools`, over a bus this test's runtime drives.
fn agent(model: &Scripted, tools: Vec<DynamicTool>) -> Agent {
    let (dispatcher, registrar, mut driver) = Bus::channel();
    driver
        .register(rig_core::effect::model_key(MODEL), model.clone())
        .unwrap();
    tokio::spawn(driver);
    AgentBuilder::over_bus(
        dispatcher,
        registrar,
        "notes-agent",
        rig_core::effect::model_key(MODEL),
    )
    .dynamic_tools(tools)
    .build()
}

/// Each tool result of a request's history: the tool's name, its text and whether it is an
/// error, in order.
fn tool_results(request: &CompletionRequest) -> Vec<(String, String, bool)> {
    request
        .chat_history
        .iter()
        .filter_map(|message| match message {
            Message::User { content } => Some(content),
            _ => None,
        })
        .flatten()
        .filter_map(|content| match content {
            UserContent::ToolResult(result) => Some(result),
            _ => None,
        })
        .map(|result| {
            let text: Vec<&str> = result
                .content
                .iter()
                .map(|content| match content {
                    ToolResultContent::Text(text) => text.text.as_str(),
                    other => panic!("a tool result that is not text: {other:?}"),
                })
                .collect();
            (result.name.to_string(), text.join(""), result.is_error)
        })
        .collect()
}

/// What rig's agent loop made of each tool call: the tool, rig's disposition of the result,
/// its error kind and code.
type Seen = (String, &'static str, Option<ToolErrorKind>, Option<String>);

/// Keeps what rig's agent loop made of each tool call.
#[derive(Clone, Default)]
struct Outcomes(Arc<Mutex<Vec<Seen>>>);

impl AgentHook for Outcomes {
    async fn on_outcome(&self, _ctx: &HookContext, event: OutcomeEvent<'_>) -> OutcomeAction {
        if let (EffectKind::ToolCall { name, .. }, Ok(Outcome::ToolResult { result })) =
            (event.kind, event.outcome)
        {
            let error = result.error().or(result.refusal());
            self.0.lock().unwrap().push((
                name.clone(),
                result.status_name(),
                error.map(|error| error.kind()),
                error.and_then(|error| error.code().map(str::to_owned)),
            ));
        }
        OutcomeAction::Proceed
    }
}

// ---- through the agent loop ----------------------------------------------------------------

#[tokio::test]
async fn a_turn_of_calls_reaches_the_model_as_tool_results_and_the_run_goes_on() {
    let registry = notes();
    let tools = RigTools::new(&registry)
        .grant(no_deleting())
        .tools()
        .unwrap();
    let good = json!({"text": "buy milk", "priority": 2});
    let bad = json!({"text": 3, "colour": "red"});
    let ungranted = json!({"id": 7});
    let model = Scripted::new([
        vec![
            call("call-1", "note_add", good.clone()),
            call("call-2", "note_add", bad.clone()),
            call("call-3", "note_delete", ungranted.clone()),
        ],
        vec![AssistantContent::text("one note added")],
    ]);
    let outcomes = Outcomes::default();

    let response = agent(&model, tools)
        .prompt("file my note")
        .max_turns(3)
        .add_hook(outcomes.clone())
        .await
        .unwrap();

    assert_eq!(response.output(), "one note added");
    let requests = model.requests();
    assert_eq!(requests.len(), 2, "one request per turn");
    assert_eq!(tool_results(&requests[0]), []);
    // What the model reads is what the registry answers, as the testing helpers call it.
    let view = registry.scoped(no_deleting());
    let good = testing::call(&view, "note_add", good).await;
    good.assert_text("added \"buy milk\" at priority 2");
    let bad = testing::call(&view, "note_add", bad).await;
    bad.assert_refused(code::BAD_ARGUMENTS).assert_faults(&[
        ("colour", "unknown field"),
        ("text", "expected string, received 3"),
        ("priority", "missing; expected u8"),
    ]);
    let ungranted = testing::call(&view, "note_delete", ungranted).await;
    ungranted.assert_refused(code::NOT_PERMITTED);
    let expected = vec![
        ("note_add".to_owned(), good.text(), false),
        ("note_add".to_owned(), bad.text(), true),
        ("note_delete".to_owned(), ungranted.text(), true),
    ];
    assert_eq!(tool_results(&requests[1]), expected);

    assert_eq!(
        *outcomes.0.lock().unwrap(),
        [
            ("note_add".to_owned(), "success", None, None),
            (
                "note_add".to_owned(),
                "error",
                Some(ToolErrorKind::InvalidArgs),
                Some("bad-arguments".to_owned()),
            ),
            (
                "note_delete".to_owned(),
                "error",
                Some(ToolErrorKind::PermissionDenied),
                Some("not-permitted".to_owned()),
            ),
        ]
    );
}

#[tokio::test]
async fn the_model_is_offered_our_mcp_export() {
    let registry = notes();
    let view = registry.scoped(no_deleting());
    for (offered, tools) in [
        (
            &registry,
            RigTools::new(&registry).grant(no_deleting()).tools(),
        ),
        (&view, adapter::tools(&view)),
    ] {
        let model = Scripted::new([vec![AssistantContent::text("nothing to do")]]);
        agent(&model, tools.unwrap()).prompt("hello").await.unwrap();
        let sent: Vec<Value> = model.requests()[0]
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name.as_str(),
                    "description": tool.description,
                    "inputSchema": tool.parameters,
                })
            })
            .collect();
        let exported: Vec<Value> = offered
            .export(Provider::Mcp)
            .unwrap()
            .iter()
            .map(|entry| {
                json!({
                    "name": entry["name"],
                    "description": entry["description"],
                    "inputSchema": entry["inputSchema"],
                })
            })
            .collect();
        assert_eq!(sent, exported);
    }
    // A scoped view's tools are only the granted ones; with a grant applied per call, every
    // tool is offered.
    let names = |tools: Vec<DynamicTool>| -> Vec<String> {
        tools.iter().map(|tool| tool.name().to_string()).collect()
    };
    assert_eq!(
        names(adapter::tools(&view).unwrap()),
        ["note_add", "whoami", "wait"]
    );
    assert_eq!(
        names(
            RigTools::new(&registry)
                .grant(no_deleting())
                .tools()
                .unwrap()
        ),
        ["note_add", "note_delete", "whoami", "wait"]
    );
}

#[tokio::test]
async fn the_runs_caller_reaches_the_call_over_the_hosts() {
    let registry = notes();
    let host = |_: &ToolContext| Context::new().with_caller("host");
    for (run_caller, seen) in [(None, "host"), (Some("ann"), "ann")] {
        let model = Scripted::new([
            vec![call("call-1", "whoami", json!({}))],
            vec![AssistantContent::text("done")],
        ]);
        let tools = RigTools::new(&registry).context(host).tools().unwrap();
        let mut tool_context = ToolContext::new();
        if let Some(caller) = run_caller {
            tool_context.insert(Caller(caller.to_owned())).unwrap();
        }
        agent(&model, tools)
            .prompt("who am I?")
            .max_turns(2)
            .tool_context(tool_context)
            .await
            .unwrap();
        assert_eq!(
            tool_results(&model.requests()[1]),
            [("whoami".to_owned(), seen.to_owned(), false)]
        );
    }
}

#[tokio::test]
async fn a_run_past_its_deadline_has_its_calls_refused_timed_out() {
    let model = Scripted::new([
        vec![call(
            "call-1",
            "note_add",
            json!({"text": "late", "priority": 1}),
        )],
        vec![AssistantContent::text("too late")],
    ]);
    let mut tool_context = ToolContext::new();
    tool_context
        .insert(Deadline(SystemTime::UNIX_EPOCH))
        .unwrap();
    let outcomes = Outcomes::default();
    let response = agent(&model, adapter::tools(&notes()).unwrap())
        .prompt("add a note")
        .max_turns(2)
        .tool_context(tool_context)
        .add_hook(outcomes.clone())
        .await
        .unwrap();
    assert_eq!(response.output(), "too late");
    let results = tool_results(&model.requests()[1]);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].1.starts_with("refused\ttimed-out\t"),
        "{results:?}"
    );
    assert_eq!(
        *outcomes.0.lock().unwrap(),
        [(
            "note_add".to_owned(),
            "error",
            Some(ToolErrorKind::Timeout),
            Some("timed-out".to_owned()),
        )]
    );
}

#[tokio::test]
async fn dropping_the_run_cancels_the_calls_context() {
    let probe = Probe::default();
    let in_context = probe.clone();
    let tools = RigTools::new(&notes())
        .context(move |_| Context::new().with_extension(in_context.clone()))
        .tools()
        .unwrap();
    let model = Scripted::new([vec![call("call-1", "wait", json!({}))]]);
    let run = agent(&model, tools)
        .prompt("wait")
        .max_turns(2)
        .into_future();
    tokio::select! {
        result = run => panic!("the run ended while its call waits: {result:?}"),
        () = probe.started.notified() => {}
    }
    // The run, and with it the call, is dropped; the call's token is cancelled. The timeout
    // only keeps a broken adapter from hanging the test.
    tokio::time::timeout(Duration::from_secs(60), probe.cancelled.notified())
        .await
        .expect("the call's context is cancelled when rig drops the call");
}

// ---- through rig's ToolSet ------------------------------------------------------------------

#[tokio::test]
async fn each_refusal_is_a_failed_result_of_rigs_kind_with_our_text() {
    /// Declines every deletion.
    async fn decline(_: ApprovalRequest) -> Approval {
        Approval::Decline("deleting needs a confirmation".to_owned())
    }
    let registry = notes()
        .with_approver(decline, Duration::from_secs(5))
        // Three calls: the good one, the bad one and the declined one use the budget (an
        // ungranted call uses none), so the fifth call is over it.
        .with_rate_limit(RateLimit::per_caller(
            NonZeroU32::new(3).unwrap(),
            Duration::from_secs(3600),
        ));
    let set = ToolSet::from_dynamic_tools(
        RigTools::new(&registry)
            .grant(Grant::new().tool("note_add").tool("note_delete"))
            .tools()
            .unwrap(),
    );
    let mut context = ToolContext::new();
    context.insert(Caller("ann".to_owned())).unwrap();
    let cases = [
        ("note_add", json!({"text": "hi", "priority": 1}), None),
        (
            "note_add",
            json!({"text": "hi", "priority": 9}),
            Some((ToolErrorKind::InvalidArgs, code::BAD_ARGUMENTS)),
        ),
        (
            "whoami",
            json!({}),
            Some((ToolErrorKind::PermissionDenied, code::NOT_PERMITTED)),
        ),
        (
            "note_delete",
            json!({"id": 1}),
            Some((ToolErrorKind::PermissionDenied, code::DECLINED)),
        ),
        (
            "note_add",
            json!({"text": "again", "priority": 1}),
            Some((ToolErrorKind::RateLimited, code::RATE_LIMITED)),
        ),
    ];
    for (name, arguments, refused) in cases {
        let result = set.execute(name, arguments.to_string(), &mut context).await;
        let text = result.output().as_text().unwrap().to_owned();
        match refused {
            None => {
                assert!(result.is_success(), "{name}: {text}");
                assert_eq!(text, "added \"hi\" at priority 1");
            }
            Some((kind, refusal_code)) => {
                assert!(
                    text.starts_with(&format!("refused\t{refusal_code}\t")),
                    "{name}: {text}"
                );
                // An approver's no is rig's refusal; every other refusal is an error.
                let error = match refusal_code == code::DECLINED {
                    true => result.refusal(),
                    false => result.error(),
                }
                .unwrap_or_else(|| panic!("{name}: {result:?}"));
                assert_eq!(error.kind(), kind, "{name}");
                assert_eq!(error.code(), Some(refusal_code), "{name}");
                assert_eq!(error.model_feedback(), Some(text.as_str()), "{name}");
            }
        }
    }
}

#[test]
fn refusal_codes_map_to_rigs_kinds() {
    let kinds = [
        (code::BAD_ARGUMENTS, ToolErrorKind::InvalidArgs),
        (code::BAD_CALL, ToolErrorKind::InvalidArgs),
        (code::NOT_PERMITTED, ToolErrorKind::PermissionDenied),
        (code::DECLINED, ToolErrorKind::PermissionDenied),
        (code::TIMED_OUT, ToolErrorKind::Timeout),
        (code::CANCELLED, ToolErrorKind::Cancelled),
        (code::RATE_LIMITED, ToolErrorKind::RateLimited),
        (code::TOO_MANY_TASKS, ToolErrorKind::RateLimited),
        (code::UNKNOWN_TOOL, ToolErrorKind::NotFound),
        (code::UNKNOWN_ARTIFACT, ToolErrorKind::NotFound),
        (code::FAILED, ToolErrorKind::Other),
        (code::INTERNAL, ToolErrorKind::Other),
        (code::CONFLICT, ToolErrorKind::Other),
        ("not-found", ToolErrorKind::Other),
    ];
    for (refusal_code, kind) in kinds {
        assert_eq!(adapter::error_kind(refusal_code), kind, "{refusal_code}");
    }
}

#[tokio::test]
async fn write_result_is_what_rig_is_handed() {
    let registry = notes();
    let good = registry
        .call(
            tool_core::ToolCall::new("1", "note_add", json!({"text": "hi", "priority": 1})),
            &Context::default(),
        )
        .await;
    let output = adapter::write_result(&good).expect("a success");
    assert_eq!(output.as_text(), Some(good.text().as_str()));
    let bad = registry
        .call(
            tool_core::ToolCall::new("2", "note_add", json!({"text": "hi"})),
            &Context::default(),
        )
        .await;
    let error = adapter::write_result(&bad).expect_err("a refusal");
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(error.code(), Some(code::BAD_ARGUMENTS));
    assert_eq!(error.model_feedback(), Some(bad.text().as_str()));
}

#[test]
fn rig_tools_show_their_registries_in_debug() {
    let registry = notes();
    let shown = format!("{:?}", RigTools::new(&registry).grant(no_deleting()));
    assert!(
        shown.starts_with("RigTools { offered: Registry {"),
        "{shown}"
    );
    assert!(shown.contains("\"note_delete\""), "{shown}");
    assert!(shown.contains("scoped: true"), "{shown}");
}
