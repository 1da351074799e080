//! A registry's tools in rig's agent loop (rig-agent's `Agent`), with a scripted model instead
//! of a provider: no network, no key.
//!
//! The host has the shared note tools and a caller who may only read: the agent is offered
//! every tool, and the grant (`Grant::read_only()`) is applied to each call
//! (`RigTools::grant`), so the model's call of `note_write` is answered with a refusal rather
//! than ending the run. The caller's name travels in rig's tool context for the run
//! (`adapters::rig::Caller`).
//!
//! The model's first turn asks for three calls at once: a search that finds the note the host
//! wrote, a search with bad arguments, and a write it is not granted. Rig runs them through the
//! registry and hands the results back; the model's second turn reads the refusals' codes from
//! that text and answers. Each result is printed as `tool<TAB><name><TAB><text>`, its text as
//! the model read it (a refusal's rows on the lines after), and then `answer<TAB><text>`.
//!
//! Run with `cargo run --example rig_agent`.

mod notes;

use std::sync::{Arc, Mutex};

use notes::NoteStore;
use rig_agent::AgentBuilder;
use rig_agent::bus::Bus;
use rig_core::completion::{
    CompletionRequest, CompletionResponse, ModelRef, ProviderCapabilities, Usage,
};
use rig_core::effect::{EffectKind, FamilyDescriptor, HandlerDescriptor, Outcome, family};
use rig_core::error::{ErrorKind, ErrorReport};
use rig_core::message::{
    Api, AssistantContent, EmptyToolName, Message, Origin, ToolCall as RigCall, ToolFunction,
    ToolName, ToolResultContent, UserContent,
};
use rig_core::serve::{Dispatch, Reply, Serve};
use rig_core::tool::ToolContext;
use serde_json::{Value, json};
use tool_core::adapters::rig::{Caller, RigTools};
use tool_core::{Context, Grant, Refusal, Registry, ToolCall};

/// The model's label on the bus.
const MODEL: &str = "scripted";

/// The three calls of the model's first turn: a good one, one with bad arguments, and one of a
/// tool the caller is not granted.
fn first_turn() -> [(&'static str, &'static str, Value); 3] {
    [
        (
            "call-1",
            "note_search",
            json!({"filter": {"tags": ["shopping"]}}),
        ),
        (
            "call-2",
            "note_search",
            json!({"filter": {"tags": "shopping"}, "limit": 500}),
        ),
        ("call-3", "note_write", json!({"text": "buy oat milk"})),
    ]
}

/// A stand-in for a language model: the first request gets the three calls, the second an
/// answer made from the tool results it carries. It keeps every request it is sent.
#[derive(Clone, Default)]
struct ScriptedModel {
    requests: Arc<Mutex<Vec<CompletionRequest>>>,
}

impl ScriptedModel {
    fn requests(&self) -> Vec<CompletionRequest> {
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// What the model says to `request`.
    fn reply(request: &CompletionRequest) -> Result<Vec<AssistantContent>, EmptyToolName> {
        let results = tool_results(request);
        if results.is_empty() {
            return first_turn()
                .into_iter()
                .map(|(id, name, arguments)| {
                    let function = ToolFunction::new(ToolName::new(name)?, arguments);
                    Ok(AssistantContent::ToolCall(RigCall::from_wire(id, function)))
                })
                .collect();
        }
        // A model reads a refusal's code from its first row, as `Refusal::parse` does.
        let refused: Vec<String> = results
            .iter()
            .filter_map(|(_, text, _)| Refusal::parse(text).map(|refusal| refusal.code))
            .collect();
        Ok(vec![AssistantContent::text(format!(
            "{} of {} calls answered; refused: {}",
            results.len() - refused.len(),
            results.len(),
            refused.join(", ")
        ))])
    }
}

impl Serve for ScriptedModel {
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
                "the scripted model answers completions only",
            )));
        };
        let choice = Self::reply(&request);
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(request);
        let reply = choice
            .map(|choice| {
                let origin = Origin::new(Api::from_static("scripted"), MODEL, MODEL);
                Outcome::Completion(CompletionResponse::new(
                    choice,
                    Usage::new(),
                    origin,
                    Value::Null,
                ))
            })
            .map_err(|error| ErrorReport::new(ErrorKind::Provider, error.to_string()));
        Reply::Outcome(reply)
    }
}

/// Each tool result in a request's history, in order: the tool's name, the text the model
/// reads, and whether rig marked it an error.
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
            let text: String = result
                .content
                .iter()
                .filter_map(|content| match content {
                    ToolResultContent::Text(text) => Some(text.text.as_str()),
                    _ => None,
                })
                .collect();
            (result.name.to_string(), text, result.is_error)
        })
        .collect()
}

/// What one run of the agent came to.
struct Turn {
    /// The tool results the model read in its second request.
    results: Vec<(String, String, bool)>,
    /// The model's final answer.
    answer: String,
}

/// The note tools, with one note written by the host and the store every call reaches.
async fn host() -> (Registry, Context) {
    let registry = notes::registry();
    let ctx = Context::new().with_extension(NoteStore::default());
    let written = registry
        .call(
            ToolCall::new(
                "host-1",
                "note_write",
                json!({"text": "buy milk", "tags": ["shopping"]}),
            ),
            &ctx,
        )
        .await;
    assert!(!written.is_refused(), "{}", written.text());
    (registry, ctx)
}

/// Runs the scripted turn through rig's agent loop, for `caller`, who may only read.
async fn run(
    registry: &Registry,
    ctx: &Context,
    caller: &str,
) -> Result<Turn, Box<dyn std::error::Error>> {
    let base = ctx.clone();
    let tools = RigTools::new(registry)
        .grant(Grant::read_only())
        .context(move |_| base.clone())
        .tools()?;

    let model = ScriptedModel::default();
    let (dispatcher, registrar, mut driver) = Bus::channel();
    driver.register(rig_core::effect::model_key(MODEL), model.clone())?;
    tokio::spawn(driver);
    let agent = AgentBuilder::over_bus(
        dispatcher,
        registrar,
        "notes-agent",
        rig_core::effect::model_key(MODEL),
    )
    .preamble("You keep the user's notes.")
    .dynamic_tools(tools)
    .build();

    let mut tool_context = ToolContext::new();
    tool_context.insert(Caller(caller.to_owned()))?;
    let response = agent
        .prompt("What is on my shopping list? Add oat milk.")
        .max_turns(3)
        .tool_context(tool_context)
        .await?;
    let results = model
        .requests()
        .last()
        .map(tool_results)
        .unwrap_or_default();
    Ok(Turn {
        results,
        answer: response.output(),
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (registry, ctx) = host().await;
    let turn = run(&registry, &ctx, "ann").await?;
    for (name, text, _) in &turn.results {
        println!("tool\t{name}\t{text}");
    }
    println!("answer\t{}", turn.answer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use tool_core::{Grant, code, testing};

    use super::{first_turn, host, run};

    /// Rig hands the model, for each call, exactly what the registry answers the same call
    /// with, and the run goes on to the model's answer.
    #[tokio::test]
    async fn the_model_reads_what_the_registry_answers() {
        let (registry, ctx) = host().await;
        let turn = run(&registry, &ctx, "ann").await.expect("the run ends");
        let view = registry.scoped(Grant::read_only());
        let [good, bad, ungranted] = first_turn();

        let good = testing::call_with(&view, &ctx, good.1, good.2).await;
        good.assert_json(serde_json::json!({"notes": [
            {"id": 1, "text": "buy milk", "tags": ["shopping"], "revision": 1}
        ]}));
        let bad = testing::call_with(&view, &ctx, bad.1, bad.2).await;
        bad.assert_refused(code::BAD_ARGUMENTS).assert_faults(&[
            (
                "filter.tags",
                "expected array of string, received \"shopping\"",
            ),
            (
                "limit",
                "expected u8 or null, received 500, which is out of range",
            ),
        ]);
        let ungranted = testing::call_with(&view, &ctx, ungranted.1, ungranted.2).await;
        ungranted.assert_refused(code::NOT_PERMITTED);

        let expected = vec![
            ("note_search".to_owned(), good.text(), false),
            ("note_search".to_owned(), bad.text(), true),
            ("note_write".to_owned(), ungranted.text(), true),
        ];
        assert_eq!(turn.results, expected);
        assert_eq!(
            turn.answer,
            "1 of 3 calls answered; refused: bad-arguments, not-permitted"
        );
    }
}
