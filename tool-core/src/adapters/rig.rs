//! A registry's tools as rig's runtime-defined tools ([`DynamicTool`]), for a rig agent
//! (`AgentBuilder::dynamic_tools`) or a `ToolSet` (`ToolSet::from_dynamic_tools`). This
//! feature brings rig-core, whose types these are; `ToolSet` and `AgentBuilder` are in the
//! `rig-agent` crate, which a user adds beside tool-core (`rig-agent = "0.44"`).
//!
//! Each tool is offered to rig with the name, description and input schema of the registry's
//! MCP export, and each call rig makes runs through [`Registry::call`](crate::Registry::call):
//! grants, approval, budgets, timeouts and argument checks apply as they do over MCP. A
//! refusal is the call's result, not an error that ends the agent's turn: rig gets a failed
//! tool result whose model-visible text is the refusal's text form (the text
//! [`ToolResult::text`] gives, fault rows and all), its error kind mapped from the code
//! ([`error_kind`]) and the code kept as the error's code.
//!
//! What rig's [`ToolContext`] carries reaches the call's [`Context`]: a [`Caller`] and a
//! [`Deadline`] the host put in it for the run, and whatever else a host reads from it with
//! [`RigTools::context`]. Rig cancels a call by dropping it; the call's context is then
//! cancelled too, so work a handler started on its token stops with it.
//!
//! ```
//! use rig_core::tool::ToolContext;
//! use tool_core::adapters::rig::{Caller, RigTools};
//! use tool_core::{Context, Grant, registry, tool};
//!
//! /// Reads a note.
//! #[tool(readonly)]
//! async fn note_read(id: u64) -> String {
//!     format!("note {id}")
//! }
//!
//! /// Deletes a note.
//! #[tool(destructive)]
//! async fn note_delete(id: u64) -> String {
//!     format!("deleted note {id}")
//! }
//!
//! let registry = registry![NoteRead, NoteDelete];
//!
//! // Only the granted tools, for an agent that is offered nothing else.
//! let tools = tool_core::adapters::rig::tools(&registry.scoped(Grant::new().tool("note_read")))
//!     .unwrap();
//! assert_eq!(tools.len(), 1);
//! assert_eq!(tools[0].name().as_str(), "note_read");
//!
//! // Every tool offered, the grant applied per call, and the host's context for each call.
//! let tools = RigTools::new(&registry)
//!     .grant(Grant::new().tool("note_read"))
//!     .context(|_: &ToolContext| Context::new().with_caller("ann"))
//!     .tools()
//!     .unwrap();
//! assert_eq!(tools.len(), 2);
//!
//! // A run's caller, as the host puts it in rig's context (`AgentRunner::tool_context`).
//! let mut run_context = ToolContext::new();
//! run_context.insert(Caller("bob".into())).unwrap();
//! ```

use std::fmt;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use ::rig_core::message::ToolName;
use ::rig_core::tool::{
    ContextValue, DynamicTool, ToolContext, ToolErrorKind, ToolExecutionError, ToolOutput,
};
use serde_json::Value;

use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::{Refusal, code};
use crate::outcome::result::ToolResult;
use crate::policy::grant::Grant;
use crate::providers::function::Function;
use crate::providers::{ExportError, Provider};
use crate::registry::Registry;

/// Makes the [`Context`] of each call from rig's [`ToolContext`] of the call.
type ContextFn = Arc<dyn Fn(&ToolContext) -> Context + Send + Sync>;

/// One rig tool for each tool `registry` lists (of a scoped view: each granted tool), each
/// called through `registry` with a [`Context`] made from rig's context of the call (see
/// [`RigTools`]).
///
/// A model that names a tool it was not offered never reaches the registry: rig answers such
/// a call itself, by its run's invalid-tool-call policy (by default the run fails). To have
/// such a call refused `not-permitted` as its result instead, offer every tool and apply the
/// grant per call, with [`RigTools::grant`].
pub fn tools(registry: &Registry) -> Result<Vec<DynamicTool>, ExportError> {
    RigTools::new(registry).tools()
}

/// A registry's tools for rig, set up before they are made: which registry the calls run
/// through, and the [`Context`] each call gets.
#[derive(Clone)]
pub struct RigTools {
    /// The registry whose tools are offered.
    offered: Registry,
    /// The registry (or scoped view of it) the calls run through.
    calls: Registry,
    context: ContextFn,
}

impl fmt::Debug for RigTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The context maker is a closure, which has no `Debug`.
        f.debug_struct("RigTools")
            .field("offered", &self.offered)
            .field("calls", &self.calls)
            .finish_non_exhaustive()
    }
}

impl RigTools {
    /// The tools of `registry` (of a scoped view: its granted tools), called through it, each
    /// call with a default [`Context`] plus what rig's context carries ([`Caller`],
    /// [`Deadline`]).
    pub fn new(registry: &Registry) -> RigTools {
        RigTools {
            offered: registry.clone(),
            calls: registry.clone(),
            context: Arc::new(|_| Context::new()),
        }
    }

    /// Runs every call through the registry scoped to `grant` as well, while rig is still
    /// offered every tool: a call of a tool the grant leaves out is answered with the
    /// `not-permitted` refusal (which lists the tools that are granted), and the model's turn
    /// goes on. Rig cannot do that for a tool it was not offered, so this is for a caller who
    /// may see more tools than use; an agent that should not see a tool at all is given the
    /// tools of a scoped view instead ([`tools`]).
    pub fn grant(mut self, grant: Grant) -> RigTools {
        self.calls = self.calls.scoped(grant);
        self
    }

    /// Makes each call's [`Context`] with `context`, from rig's context of the call (where a
    /// host's typed values are). A [`Caller`] or [`Deadline`] in rig's context still applies
    /// after it: the caller replaces the context's, the deadline is kept if it is earlier.
    pub fn context(
        mut self,
        context: impl Fn(&ToolContext) -> Context + Send + Sync + 'static,
    ) -> RigTools {
        self.context = Arc::new(context);
        self
    }

    /// One rig tool per offered tool, in the registry's order.
    ///
    /// Each is defined by the tool's entry in the registry's MCP export: its `name`,
    /// `description` and `inputSchema`. That entry is the schema as written for any client,
    /// with nested types' `$ref`s inlined; the OpenAI export's strict-mode rewriting
    /// (every field required, optional ones nullable) and Gemini's narrower schema are
    /// provider dialects, and rig's provider wires adapt a schema to their provider
    /// themselves. An error is a tool the registry cannot export so.
    pub fn tools(&self) -> Result<Vec<DynamicTool>, ExportError> {
        self.offered
            .export(Provider::Mcp)?
            .iter()
            .map(|entry| self.tool(entry))
            .collect()
    }

    fn tool(&self, entry: &Value) -> Result<DynamicTool, ExportError> {
        let Function {
            name,
            description,
            parameters,
            ..
        } = Function::read(entry, Provider::Mcp)?;
        let tool_name = ToolName::new(name.clone()).map_err(|error| ExportError {
            tool: name.clone(),
            provider: Some(Provider::Mcp),
            path: "(name)".to_owned(),
            problem: format!(
                "rig refuses the name ({error}), which the MCP export should have refused \
                 first; this is a bug of tool-core: report it, with the tool's definition"
            ),
        })?;
        let calls = self.calls.clone();
        let context = self.context.clone();
        Ok(DynamicTool::new_with_context(
            tool_name,
            description,
            parameters,
            move |tool_context, arguments| {
                let ctx = call_context(&context, tool_context);
                // Rig does not tell a tool the id of the call it runs.
                let call = ToolCall::new("", name.clone(), arguments);
                let calls = calls.clone();
                Box::pin(async move { answer(&calls, call, ctx?).await })
            },
        ))
    }
}

/// Runs one call, cancelling its context if rig drops the call before it is answered.
async fn answer(
    registry: &Registry,
    call: ToolCall,
    ctx: Context,
) -> Result<ToolOutput, ToolExecutionError> {
    let dropped = ctx.cancellation().clone().drop_guard();
    let result = registry.call(call, &ctx).await;
    dropped.disarm();
    write_result(&result)
}

/// The call's context: the host's, with the caller and deadline rig's context carries, and a
/// token of its own (a child of the host's), so that dropping the call cancels only it.
fn call_context(
    context: &ContextFn,
    tool_context: &ToolContext,
) -> Result<Context, ToolExecutionError> {
    let mut ctx = context(tool_context);
    if let Some(Caller(caller)) = tool_context.get::<Caller>()? {
        ctx = ctx.with_caller(caller);
    }
    let deadline = tool_context
        .get::<Deadline>()?
        .and_then(|Deadline(at)| instant_of(at));
    Ok(ctx.child(deadline))
}

/// The instant of a wall-clock time: now, for one already past; none for one too far ahead
/// for an `Instant` to hold, which no call waits for anyway.
fn instant_of(at: SystemTime) -> Option<Instant> {
    let now = Instant::now();
    match at.duration_since(SystemTime::now()) {
        Ok(left) => now.checked_add(left),
        Err(_) => Some(now),
    }
}

/// What rig's tool answers for `result`: the output's text, or a refusal as a failed call
/// whose model-visible text is the refusal's text form, with its kind from [`error_kind`],
/// the refusal's code as its code, and its message as the operator's message. `declined` (an
/// approver said no) is rig's refusal disposition; every other code is an error of its kind.
/// The notes a registry adds (a lenient registry's `adjusted` lines) follow the text either
/// way, as in [`ToolResult::text`].
pub fn write_result(result: &ToolResult) -> Result<ToolOutput, ToolExecutionError> {
    match &result.outcome {
        Ok(_) => Ok(ToolOutput::text(result.text())),
        Err(refusal) => Err(refusal_error(refusal).with_model_feedback(result.text())),
    }
}

fn refusal_error(refusal: &Refusal) -> ToolExecutionError {
    let message = refusal.message.clone();
    let error = match refusal.code.as_str() {
        code::DECLINED => ToolExecutionError::refused(message),
        other => ToolExecutionError::new(error_kind(other), message),
    };
    error.with_code(refusal.code.clone())
}

/// Rig's kind of error for a refusal's code: `bad-arguments` and `bad-call` are invalid
/// arguments, `not-permitted` and `declined` a denied permission, `timed-out` a timeout,
/// `cancelled` a cancellation, `rate-limited` and `too-many-tasks` a rate limit,
/// `unknown-tool` and `unknown-artifact` not found; any other code (`failed`, `internal`,
/// `conflict`, an application's own) is rig's `other`.
pub fn error_kind(refusal_code: &str) -> ToolErrorKind {
    match refusal_code {
        code::BAD_ARGUMENTS | code::BAD_CALL => ToolErrorKind::InvalidArgs,
        code::NOT_PERMITTED | code::DECLINED => ToolErrorKind::PermissionDenied,
        code::TIMED_OUT => ToolErrorKind::Timeout,
        code::CANCELLED => ToolErrorKind::Cancelled,
        code::RATE_LIMITED | code::TOO_MANY_TASKS => ToolErrorKind::RateLimited,
        code::UNKNOWN_TOOL | code::UNKNOWN_ARTIFACT => ToolErrorKind::NotFound,
        _ => ToolErrorKind::Other,
    }
}

/// Who is calling, as the host asserts it, in rig's [`ToolContext`]: put there for a run
/// (`AgentRunner::tool_context`), it is the caller of that run's calls
/// ([`Context::caller`]), for grants' and budgets' sake.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Caller(pub String);

impl ContextValue for Caller {
    const KEY: &'static str = "tool_core.caller";
}

/// When a run's calls must have finished, in rig's [`ToolContext`]: a call still running then
/// is refused `timed-out`, and one made after it is refused before it runs. Wall-clock time,
/// since rig's context holds serializable data rather than an `Instant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Deadline(pub SystemTime);

impl ContextValue for Deadline {
    const KEY: &'static str = "tool_core.deadline";
}
