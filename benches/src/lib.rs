//! The workload every benchmark in this package measures: one tool, one input text, and the
//! hand-written code that is the limit a framework is measured against.
//!
//! The tool has three fields (a string, a nested struct, an optional number) and returns a
//! small struct, so a call exercises parsing, a nested type, an absent-or-present field and
//! structured output. Every contender (this project in process and over MCP, rmcp, rig, the
//! hand-written code) runs this same fn on the same argument text; the benchmarks themselves
//! live in `benches/`, the contenders that need rmcp or rig in `benches/common/`.
//!
//! Nothing here is public API of the project: it exists to be measured.

pub mod load;

use std::borrow::Cow;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Waker};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::tool::{Tool, ToolDefinition};
use tool_core::{Context, Refusal, tool};

/// A time window, the tool's nested field.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Window {
    /// The first second of the window.
    pub start: u64,
    /// The second after its last.
    pub end: u64,
}

/// What the tool answers.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Summary {
    /// How many events matched.
    pub matched: u32,
    /// How long the window was, in seconds.
    pub span: u64,
}

/// Counts events of a kind in a time window.
#[tool(readonly)]
pub async fn event_count(
    /// The kind of event.
    kind: String,
    /// When.
    window: Window,
    /// At most this many.
    limit: Option<u32>,
) -> Summary {
    Summary {
        matched: (kind.len() as u32).min(limit.unwrap_or(u32::MAX)),
        span: window.end.saturating_sub(window.start),
    }
}

/// A time window whose seconds are bounded, for [`event_count_bounded`].
#[derive(Deserialize, schemars::JsonSchema)]
pub struct BoundedWindow {
    /// The first second of the window, not before 2001.
    #[schemars(range(min = 1_000_000_000))]
    pub start: u64,
    /// The second after its last.
    pub end: u64,
}

/// [`event_count`] with bounds on three fields, which the registry holds every call to.
#[tool(readonly)]
pub async fn event_count_bounded(
    /// The kind of event.
    #[schemars(length(min = 1, max = 32))]
    kind: String,
    /// When.
    window: BoundedWindow,
    /// At most this many.
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<u32>,
) -> Summary {
    event_count(
        kind,
        Window {
            start: window.start,
            end: window.end,
        },
        limit,
    )
    .await
}

/// [`event_count`] with its window's fields at the top and no bounds: a schema that says no
/// more than its Rust types.
#[tool(readonly)]
pub async fn event_count_flat(
    /// The kind of event.
    kind: String,
    /// The first second of the window.
    start: u64,
    /// The second after its last.
    end: u64,
    /// At most this many.
    limit: Option<u32>,
) -> Summary {
    event_count(kind, Window { start, end }, limit).await
}

/// [`CALL`] to [`event_count_bounded`].
pub const CALL_BOUNDED: &str = r#"{"id":"call-1","name":"event_count_bounded","arguments":{"kind":"login","window":{"start":1700000000,"end":1700086400},"limit":10}}"#;

/// [`CALL`] to [`event_count_flat`].
pub const CALL_FLAT: &str = r#"{"id":"call-1","name":"event_count_flat","arguments":{"kind":"login","start":1700000000,"end":1700086400,"limit":10}}"#;

/// A registry of [`event_count_bounded`] and [`event_count_flat`].
pub fn registry_of_variants() -> tool_core::Registry {
    tool_core::Registry::builder()
        .tool(EventCountBounded)
        .tool(EventCountFlat)
        .build()
        .expect("the variants are valid tools")
}

/// The tool's input, as a hand-written program (or rmcp's `Parameters`, or rig's `Args`)
/// declares it.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Args {
    /// The kind of event.
    pub kind: String,
    /// When.
    pub window: Window,
    /// At most this many.
    pub limit: Option<u32>,
}

/// Runs the tool on parsed arguments.
pub async fn run(args: Args) -> Summary {
    event_count(args.kind, args.window, args.limit).await
}

/// The arguments every contender is given.
pub const ARGUMENTS: &str =
    r#"{"kind":"login","window":{"start":1700000000,"end":1700086400},"limit":10}"#;

/// The call, in this project's (and the hand-written baseline's) envelope.
pub const CALL: &str = r#"{"id":"call-1","name":"event_count","arguments":{"kind":"login","window":{"start":1700000000,"end":1700086400},"limit":10}}"#;

/// The same call as an MCP `tools/call` request.
pub const MCP_CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"event_count","arguments":{"kind":"login","window":{"start":1700000000,"end":1700086400},"limit":10}}}"#;

/// A call with one fault, deep in the nested field.
pub const BAD_NESTED_CALL: &str = r#"{"id":"call-1","name":"event_count","arguments":{"kind":"login","window":{"start":1700000000,"end":"tomorrow"},"limit":10}}"#;

/// A call with three faults at once: a wrong type in the nested field, a number out of range,
/// and a field the tool does not have.
pub const BAD_THREE_CALL: &str = r#"{"id":"call-1","name":"event_count","arguments":{"kind":"login","window":{"start":1700000000,"end":"tomorrow"},"limit":-1,"colour":"red"}}"#;

/// The answer every in-process contender writes for [`CALL`], byte for byte.
pub const ANSWER: &str =
    r#"{"id":"call-1","name":"event_count","output":{"matched":5,"span":86400}}"#;

/// Runs a future that never waits (none of the in-process contenders does, for this tool) to
/// completion on the calling thread: the same driver for every in-process contender, so no
/// executor's cost is in any of them. Inlined into every caller: called from more than one
/// place, the compiler kept it out of line, and each contender's future was then copied into
/// its frame (488 bytes for this project's, measured in `tool_core_call`), a cost of the
/// driver rather than of any contender.
#[inline(always)]
pub fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the benchmarked future waited"),
    }
}

/// The runtime every benchmark runs its set-up (and any spawned service) on: one thread, time
/// and I/O enabled.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime builds")
}

/// The answer to one call, as this project writes it: the call text in, the result's JSON out.
pub fn tool_core_call(registry: &tool_core::Registry, ctx: &Context, text: &str) -> String {
    let result = match tool_core::ToolCall::from_json(text) {
        Ok(call) => ready(registry.call(call, ctx)),
        Err(refusal) => return refusal.to_string(),
    };
    serde_json::to_string(&result).expect("a result serializes")
}

/// A good call taken apart, each part beside the baseline's same part, to show where the time
/// between [`baseline`] and [`tool_core_call`] goes. Each part does what it does within the
/// whole call, and gives what the next step would take; the answer is not written. The
/// registry's own part is not measured alone: it is [`parts::registry`] less
/// [`parts::envelope`] and [`parts::tool()`], a difference (exact in instructions; in wall-clock time, of three medians).
pub mod parts {
    use super::*;

    /// The baseline's envelope: borrowed strings, the arguments as raw text.
    pub fn envelope_baseline(text: &str) -> Envelope<'_> {
        serde_json::from_str(std::hint::black_box(text)).expect("an envelope")
    }

    /// This project's envelope: a `ToolCall`, which owns its id, name and arguments.
    pub fn envelope(text: &str) -> tool_core::ToolCall {
        tool_core::ToolCall::from_json(std::hint::black_box(text)).expect("a call")
    }

    /// The baseline's tool: the arguments read into the struct, the fn called, its output
    /// written into `out` (cleared first), a buffer the caller keeps, as the whole baseline
    /// writes the output into its answer's buffer without an allocation of its own.
    pub fn tool_baseline(arguments: &str, out: &mut Vec<u8>) {
        let args: Args = serde_json::from_str(std::hint::black_box(arguments)).expect("arguments");
        out.clear();
        serde_json::to_writer(out, &ready(run(args))).expect("an output");
    }

    /// This project's tool alone, called as the registry calls it: `Tool::call` (a boxed
    /// future) reads the arguments, runs the fn and keeps its output's JSON text.
    pub fn tool(arguments: &Arguments, ctx: &Context) -> Output {
        ready(EventCount.call(std::hint::black_box(arguments), ctx)).expect("an output")
    }

    /// The envelope and `Registry::call` (lookup, grants, limits, the deadline, cancellation,
    /// the tool), the result not written: with [`envelope`] and [`tool()`], the registry's own
    /// part is what this costs beyond the two.
    pub fn registry(
        registry: &tool_core::Registry,
        ctx: &Context,
        text: &str,
    ) -> tool_core::ToolResult {
        ready(registry.call(envelope(text), ctx))
    }
}

/// A call envelope as a hand-written host reads it: borrowed strings, arguments left as text.
#[derive(Deserialize)]
pub struct Envelope<'a> {
    /// The caller's id.
    #[serde(borrow)]
    pub id: Cow<'a, str>,
    /// The tool's name.
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    /// The arguments' text.
    #[serde(borrow)]
    pub arguments: &'a RawValue,
}

#[derive(Serialize)]
struct Answer<'a, T> {
    id: &'a str,
    name: &'a str,
    output: T,
}

#[derive(Serialize)]
struct Failure<'a> {
    id: &'a str,
    name: &'a str,
    error: String,
}

/// The limit: what a careful hand-written host does with [`CALL`]. Parse the envelope with the
/// arguments as raw text, match the name, `from_str` the arguments, call the fn directly,
/// serialize the answer. A bad call is answered with serde's first error; a call that is not
/// readable at all is `None`.
pub fn baseline(text: &str) -> Option<String> {
    let call: Envelope<'_> = serde_json::from_str(text).ok()?;
    match &*call.name {
        "event_count" => match serde_json::from_str::<Args>(call.arguments.get()) {
            Ok(args) => {
                let output = ready(run(args));
                serde_json::to_string(&Answer {
                    id: &call.id,
                    name: &call.name,
                    output,
                })
                .ok()
            }
            Err(error) => serde_json::to_string(&Failure {
                id: &call.id,
                name: &call.name,
                error: error.to_string(),
            })
            .ok(),
        },
        _ => None,
    }
}

/// [`baseline`] through `serde_json::Value`: the whole call parsed into a value first, the
/// arguments then read from it. The cost of a generic JSON tree.
pub fn baseline_via_value(text: &str) -> Option<String> {
    let mut call: serde_json::Value = serde_json::from_str(text).ok()?;
    let id = call.get("id")?.as_str()?.to_owned();
    let name = call.get("name")?.as_str()?.to_owned();
    match name.as_str() {
        "event_count" => {
            let args: Args = serde_json::from_value(call.get_mut("arguments")?.take()).ok()?;
            let output = ready(run(args));
            serde_json::to_string(&Answer {
                id: &id,
                name: &name,
                output,
            })
            .ok()
        }
        _ => None,
    }
}

/// The same tool under another name: for registries of many tools.
pub struct Numbered {
    definition: ToolDefinition,
}

impl Numbered {
    /// `event_count_{number}`.
    pub fn new(number: usize) -> Self {
        let mut definition = EventCount.definition();
        definition.name = format!("event_count_{number}");
        Numbered { definition }
    }
}

impl Tool for Numbered {
    fn definition(&self) -> ToolDefinition {
        self.definition.clone()
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        EventCount.call(arguments, ctx)
    }
}

/// A registry of `count` tools: [`EventCount`] and `count - 1` [`Numbered`] copies.
pub fn registry_of(count: usize) -> tool_core::Registry {
    let builder = tool_core::Registry::builder().tool(EventCount);
    (1..count)
        .fold(builder, |builder, number| {
            builder.shared_tool(Arc::new(Numbered::new(number)), "numbered")
        })
        .build()
        .expect("the generated tools are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baselines_answer_what_the_registry_answers() {
        assert_eq!(
            tool_core_call(&registry_of(1), &Context::default(), CALL),
            ANSWER
        );
        assert_eq!(baseline(CALL).unwrap(), ANSWER);
        assert_eq!(baseline_via_value(CALL).unwrap(), ANSWER);
    }

    #[test]
    fn the_parts_do_the_same_work_on_both_sides() {
        let registry = registry_of(1);
        let ctx = Context::default();
        let envelope = parts::envelope_baseline(CALL);
        let call = parts::envelope(CALL);
        assert_eq!((&*envelope.id, &*envelope.name), ("call-1", "event_count"));
        assert_eq!(
            (call.id.as_str(), call.name.as_str()),
            ("call-1", "event_count")
        );
        assert_eq!(envelope.arguments.get(), call.arguments.as_str());
        let mut out = Vec::new();
        parts::tool_baseline(ARGUMENTS, &mut out);
        let output = parts::tool(&call.arguments, &ctx);
        assert_eq!(output.as_text().as_bytes(), out);
        assert_eq!(parts::registry(&registry, &ctx, CALL).outcome, Ok(output));
    }

    #[test]
    fn the_bad_calls_are_refused_with_every_fault() {
        let registry = registry_of(1);
        // Three faults and the fields; one fault and the fields.
        for (text, lines) in [(BAD_THREE_CALL, 4), (BAD_NESTED_CALL, 2)] {
            let refusal = parts::registry(&registry, &Context::default(), text);
            assert_eq!(
                refusal.refusal().unwrap().lines.len(),
                lines,
                "{}",
                refusal.text()
            );
        }
        assert!(baseline(BAD_THREE_CALL).unwrap().contains("error"));
    }

    #[test]
    fn registries_of_many_tools_build() {
        assert_eq!(registry_of(100).definitions().len(), 100);
    }
}
