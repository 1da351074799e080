//! The way of one call through a registry, in the order [`Registry::call`] gives (that list is
//! the one description of it; the code that follows it is `Registry::outcome`, below), and
//! the refusals met on the way.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Registry;
use crate::args::leniency::Leniency;
use crate::args::{self, Adjustment};
use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::output::Output;
use crate::outcome::refusal::{Line, Refusal, code};
use crate::outcome::result::ToolResult;
use crate::outcome::shorten::shortened;
use crate::policy::approval::{Approval, ApprovalRequest, Approver};
use crate::run::deadline::{earliest, within};
use crate::run::execute::{self, RunSettings};
use crate::tool::Tool;
use crate::tool::definition::TaskSupport;
use crate::tool::definition::ToolDefinition;

/// How long an approver may take when no timeout is given.
const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(60);

impl Registry {
    /// Runs one call and answers it. Never panics and never fails: every problem is a
    /// [`Refusal`] in the result's outcome. Timeouts need a tokio runtime with its timer
    /// enabled to wake a waiting call; without one, a deadline is checked whenever the call
    /// wakes.
    ///
    /// # The order of a call's checks
    ///
    /// This is where the order is written down; everything else that mentions it links here.
    /// A call passes, in this order:
    ///
    /// 1. the **lookup** of its tool by name (`unknown-tool`, with the tools there are);
    /// 2. the **grant** of a scoped view (`not-permitted`), before anything reads the arguments
    ///    or any approver, budget or transport is touched;
    /// 3. the caller's **budget** of calls ([`Registry::with_rate_limit`]: `rate-limited`), so
    ///    unknown and ungranted tools use none;
    /// 4. the **size** of its arguments ([`Registry::with_max_argument_bytes`]:
    ///    `bad-arguments`), before anything reads them;
    /// 5. the **approver**, for a tool marked `destructive` ([`Registry::with_approver`]:
    ///    `declined`), shown the arguments as they came;
    /// 6. the context's **cancellation** (`cancelled`) and **deadline** (`timed-out`), which the
    ///    time limit starts from once the tool may run;
    /// 7. the tool's **arguments**, parsed against its schema (`bad-arguments`, every fault at
    ///    its path), and then its handler, ended by cancellation or its deadline, a panic
    ///    caught (`internal`), an error's message kept for the log (`failed`). A lenient
    ///    registry may adjust arguments the tool refused and call it once more
    ///    ([`Registry::with_leniency`]).
    ///
    /// Each call has a `tracing` span (see [`TraceParent`](crate::TraceParent) for its fields)
    /// and, with an observer, a [`CallRecord`](crate::CallRecord).
    pub async fn call(&self, call: ToolCall, ctx: &Context) -> ToolResult {
        let span = crate::policy::trace::span(&call, ctx);
        if span.is_disabled() && self.config.observer.is_none() {
            // Not kept across the call: the call's future stays the size it was without one.
            drop(span);
            return self.answer(call, ctx, None).await;
        }
        let draft = self.draft_of(&call);
        // Boxed: the call's own future is the plain call's, which every call's future would
        // otherwise grow by, all of it copied when the call is first polled. The toolkit is
        // learnt from the lookup the call makes anyway, for the span only.
        let answering = Box::pin(self.answer_noting_toolkit(call, ctx, !span.is_disabled()));
        self.watched(answering, span, draft, ctx).await
    }

    /// The draft of `call`'s record, when there is an observer: what the record needs of the
    /// call, copied before the call moves on.
    #[inline]
    fn draft_of(&self, call: &ToolCall) -> Option<crate::policy::observe::Draft> {
        (self.config.observer.as_ref()).map(|_| {
            crate::policy::observe::Draft::begin(call.arguments.as_str(), &call.id, &call.name)
        })
    }

    /// Answers `call` with `answer` rather than with one of the registry's tools (as
    /// `tool_search` and the refusal of a tool not listed are answered), with the span and the
    /// record every call has.
    pub(crate) async fn answered_by(
        &self,
        call: ToolCall,
        ctx: &Context,
        answer: impl FnOnce(&ToolCall) -> Result<Output, Refusal> + Send,
    ) -> ToolResult {
        let span = crate::policy::trace::span(&call, ctx);
        let draft = self.draft_of(&call);
        let answering = async move {
            let outcome = answer(&call);
            let result = ToolResult {
                id: call.id,
                name: call.name,
                outcome,
                notes: Vec::new(),
            };
            (result, None)
        };
        if span.is_disabled() && draft.is_none() {
            return answering.await.0;
        }
        self.watched(Box::pin(answering), span, draft, ctx).await
    }

    /// Refuses arguments of more bytes than the registry takes, as every call's are.
    #[inline]
    pub(crate) fn check_size(
        &self,
        definition: &ToolDefinition,
        arguments: &Arguments,
    ) -> Result<(), Refusal> {
        let size = arguments.as_str().len();
        match size > self.config.max_argument_bytes {
            true => Err(self.too_large(definition, size)),
            false => Ok(()),
        }
    }

    /// A call with its span entered whenever it runs, its outcome and time recorded on the
    /// span, and its record handed to the observer.
    async fn watched<F>(
        &self,
        mut answering: Pin<Box<F>>,
        span: tracing::Span,
        draft: Option<crate::policy::observe::Draft>,
        ctx: &Context,
    ) -> ToolResult
    where
        F: Future<Output = (ToolResult, Option<Arc<str>>)>,
    {
        let started = std::time::SystemTime::now();
        let clock = Instant::now();
        // Entered whenever the call runs, as `tracing::Instrument` enters a span, but kept
        // here rather than inside the future, so that the outcome is recorded on it after.
        let (result, toolkit) = std::future::poll_fn(|cx| {
            let _entered = span.enter();
            answering.as_mut().poll(cx)
        })
        .await;
        let elapsed = clock.elapsed();
        if !span.is_disabled() {
            if let Some(toolkit) = &toolkit {
                span.record("toolkit", &**toolkit);
            }
            span.record("outcome", crate::policy::observe::outcome_code(&result));
            span.record("elapsed_ms", elapsed.as_secs_f64() * 1000.0);
        }
        if let (Some(observer), Some(draft)) = (&self.config.observer, draft) {
            observer.send(draft.finish(
                &result,
                (ctx.caller_shared(), ctx.client()),
                started,
                elapsed,
            ));
        }
        result
    }

    /// [`Registry::answer`], and the toolkit of the tool called (if `wanted` and the registry
    /// has the tool).
    async fn answer_noting_toolkit(
        &self,
        call: ToolCall,
        ctx: &Context,
        wanted: bool,
    ) -> (ToolResult, Option<Arc<str>>) {
        let mut toolkit = None;
        let result = self.answer(call, ctx, wanted.then_some(&mut toolkit)).await;
        (result, toolkit)
    }

    /// Runs `call` and answers it; `toolkit`, when given, is set to the toolkit of the tool
    /// called, if the registry has it.
    async fn answer(
        &self,
        call: ToolCall,
        ctx: &Context,
        toolkit: Option<&mut Option<Arc<str>>>,
    ) -> ToolResult {
        let mut notes = Vec::new();
        let mut outcome = self.outcome(&call, ctx, &mut notes, toolkit).await;
        match &mut outcome {
            Err(refusal) => refusal.forget_maker(),
            #[cfg(feature = "artifacts")]
            Ok(output) => {
                if let Some(artifacts) = &self.config.artifacts {
                    notes.extend(artifacts.keep(output, &call.name, ctx));
                }
            }
            #[cfg(not(feature = "artifacts"))]
            Ok(_) => {}
        }
        ToolResult {
            id: call.id,
            name: call.name,
            outcome,
            notes,
        }
    }

    /// The outcome of `call`, through the checks in the order [`Registry::call`] lists.
    async fn outcome(
        &self,
        call: &ToolCall,
        ctx: &Context,
        notes: &mut Vec<Line>,
        toolkit: Option<&mut Option<Arc<str>>>,
    ) -> Result<Output, Refusal> {
        let catalog = self.catalog();
        let Some(&position) = catalog.index.get(&call.name) else {
            return Err(self.unknown_tool(&call.name));
        };
        if let Some(toolkit) = toolkit {
            *toolkit = Some(catalog.entries[position].toolkit.clone());
        }
        if !self.permits(&catalog, position) {
            return Err(self.not_permitted(&call.name));
        }
        let tool = catalog.entries[position].tool.as_ref();
        let definition = &catalog.definitions[position];
        self.take_from_budget(ctx, &definition.name)?;
        self.check_size(definition, &call.arguments)?;
        if let Some(approver) = &self.config.approver
            && definition.annotations.destructive
            && !ctx.is_cancelled()
        {
            // Boxed: asking an approver is rare, and its future (a timer and a wait for
            // cancellation) would otherwise make every call's future larger, all of it copied
            // when the call is first polled.
            Box::pin(self.approve(approver.as_ref(), call, ctx)).await?;
        }
        let settings = self.run_settings(definition, ctx);
        let refused = match execute::run(tool, &call.name, &call.arguments, ctx, settings).await {
            Err(refused) if refused.is_by_parser() => refused,
            outcome => return outcome,
        };
        let leniency = self.leniency_for(definition);
        if leniency.is_none() {
            return Err(refused);
        }
        // Boxed, as asking an approver is: only a lenient call its tool's parser refused comes
        // here, and the future every call polls holds no more of it than a pointer.
        Box::pin(self.adjusted(tool, definition, call, ctx, leniency, refused, notes)).await
    }

    /// How the tool may run, from now: its time starts once it may run, so waiting for
    /// approval is not its time.
    #[inline]
    fn run_settings(&self, definition: &ToolDefinition, ctx: &Context) -> RunSettings {
        let timeout = definition.timeout().or(self.config.default_timeout);
        let now = Instant::now();
        RunSettings {
            deadline: earliest(ctx, timeout, now),
            now,
            show_panics: self.config.show_panics,
            show_errors: self.config.show_errors,
        }
    }

    /// The slips forgiven in `definition`'s arguments: the tool's own choice, else none for a
    /// destructive tool, else the registry's.
    fn leniency_for(&self, definition: &ToolDefinition) -> Leniency {
        match definition.leniency() {
            Some(own) => own,
            None if definition.annotations.destructive => Leniency::none(),
            None => self.config.leniency,
        }
    }

    /// The second and last try of a call whose arguments its tool refused (`refused`, made by
    /// its parser, so nothing ran): the arguments adjusted for the slips `leniency` forgives,
    /// each adjustment logged and noted for the model, and the tool called again with them.
    /// With nothing to adjust, the refusal stands. If the tool refuses the adjusted arguments
    /// too, that refusal is the answer: its faults are those left to mend, at the paths of
    /// the arguments the notes describe (inside an object read from JSON text, say), where the
    /// first one would list again the slips leniency forgives.
    #[allow(clippy::too_many_arguments)]
    async fn adjusted(
        &self,
        tool: &dyn Tool,
        definition: &ToolDefinition,
        call: &ToolCall,
        ctx: &Context,
        leniency: Leniency,
        refused: Refusal,
        notes: &mut Vec<Line>,
    ) -> Result<Output, Refusal> {
        let Some((text, adjustments)) =
            args::adjust(call.arguments.as_str(), &definition.input_schema, leniency)
        else {
            return Err(refused);
        };
        // A list of one is two bytes longer: arguments at the size limit stay refused.
        if text.len() > self.config.max_argument_bytes {
            return Err(refused);
        }
        notes.reserve_exact(adjustments.len());
        for Adjustment { path, done } in adjustments {
            let path = args::shown(path);
            tracing::info!(
                tool = %call.name,
                path = %path,
                adjustment = %done,
                "adjusted a call's arguments leniently"
            );
            notes.push(Line::new("adjusted", [path, done]));
        }
        let arguments = Arguments::from_text(text);
        if let Some(approver) = &self.config.approver
            && definition.annotations.destructive
            && !ctx.is_cancelled()
        {
            // The approver approves the arguments that will run, not those that could not.
            let adjusted = ToolCall {
                arguments: arguments.clone(),
                ..call.clone()
            };
            self.approve(approver.as_ref(), &adjusted, ctx).await?;
        }
        let settings = self.run_settings(definition, ctx);
        execute::run(tool, &call.name, &arguments, ctx, settings).await
    }

    async fn approve(
        &self,
        approver: &dyn Approver,
        call: &ToolCall,
        ctx: &Context,
    ) -> Result<(), Refusal> {
        let request = ApprovalRequest {
            call: call.clone(),
            caller: ctx.caller().map(str::to_owned),
            context: ctx.clone(),
        };
        let timeout = self
            .config
            .approval_timeout
            .unwrap_or(DEFAULT_APPROVAL_TIMEOUT);
        let asked = approver.approve(request);
        let answer = tokio::select! {
            answer = within(timeout, asked) => answer,
            () = ctx.cancellation().cancelled() => return Err(Refusal::cancelled()),
        };
        match answer {
            Some(Approval::Approve) => Ok(()),
            Some(Approval::Decline(reason)) => Err(Refusal::new(
                code::DECLINED,
                format!("the call was declined: {reason}"),
            )),
            None => Err(Refusal::new(
                code::DECLINED,
                format!("the call was declined: no approval came within {timeout:?}"),
            )),
        }
    }

    /// Whether this registry (or view) has a tool `name` and lets its caller reach it: what
    /// [`Registry::reachable`] checks, without the definition or the refusal.
    pub(crate) fn grants(&self, name: &str) -> bool {
        let catalog = self.catalog();
        catalog
            .index
            .get(name)
            .is_some_and(|&position| self.permits(&catalog, position))
    }

    /// Whether the tool `name` runs as a task (`#[tool(task)]`), and whether only as one
    /// (`task = "required"`): what a server serving the registry decides a call by. A tool
    /// this registry (or view) does not let its caller reach runs as no task, so the answer
    /// says nothing of tools out of reach.
    pub fn task_support(&self, name: &str) -> TaskSupport {
        let catalog = self.catalog();
        if !catalog.tasks {
            return TaskSupport::None;
        }
        let Some(&position) = catalog.index.get(name) else {
            return TaskSupport::None;
        };
        let definition = &catalog.definitions[position];
        match (definition.runs_as_task(), definition.requires_task()) {
            (false, _) => TaskSupport::None,
            _ if !self.permits(&catalog, position) => TaskSupport::None,
            (true, true) => TaskSupport::Required,
            (true, false) if definition.asks_before_task() => TaskSupport::AfterInput,
            (true, false) => TaskSupport::Optional,
        }
    }

    /// The definition of the tool `name`, if this registry (or view) lets its caller reach
    /// it; else the refusal a call of it would get.
    pub(crate) fn reachable(&self, name: &str) -> Result<ToolDefinition, Refusal> {
        let catalog = self.catalog();
        let Some(&position) = catalog.index.get(name) else {
            return Err(self.unknown_tool(name));
        };
        if !self.permits(&catalog, position) {
            return Err(self.not_permitted(name));
        }
        Ok(catalog.definitions[position].clone())
    }

    fn unknown_tool(&self, name: &str) -> Refusal {
        let names = self.names();
        let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
        let message = match crate::outcome::suggest::nearest_tool(name, &candidates) {
            Some(meant) => format!(
                "there is no tool named `{}`; did you mean `{meant}`? Call one of the tools listed",
                shortened(name)
            ),
            None => format!(
                "there is no tool named `{}`; call one of the tools listed",
                shortened(name)
            ),
        };
        Refusal::new(code::UNKNOWN_TOOL, message).line("tools", names)
    }

    fn not_permitted(&self, name: &str) -> Refusal {
        Refusal::new(
            code::NOT_PERMITTED,
            format!(
                "`{}` is not granted to this caller; call one of the tools listed",
                shortened(name)
            ),
        )
        .line("tools", self.names())
    }

    fn too_large(&self, definition: &ToolDefinition, size: usize) -> Refusal {
        let fields = definition
            .input_schema
            .get("properties")
            .and_then(serde_json::Value::as_object)
            .map(|properties| properties.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        Refusal::new(
            code::BAD_ARGUMENTS,
            format!(
                "the arguments of {} are {size} bytes, more than the {} this registry takes; \
                 nothing ran: send less (the host can raise the limit with \
                 Registry::with_max_argument_bytes)",
                definition.name, self.config.max_argument_bytes
            ),
        )
        .line("fields", fields)
    }
}
