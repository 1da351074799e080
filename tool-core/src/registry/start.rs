//! Starting a call as a task ([`Registry::start`]): the checks a start passes before anything
//! runs (the lookup and grant, the tool's being a task, a runtime to run on, the caller's
//! count of tasks and budget of calls), then the call, run as the task `run::task` watches.

use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::{Refusal, code};
use crate::registry::Registry;
use crate::run::task::TaskHandle;

impl Registry {
    /// Starts `call` as a task and returns its handle at once; the call runs on the current
    /// tokio runtime, with `ctx` as it would with [`Registry::call`], but with its own
    /// cancellation (a child of `ctx`'s: cancelling `ctx` cancels the task too).
    ///
    /// Refused, with nothing started, when the tool is unknown or not granted (the refusal a
    /// call would get), when it is not marked `#[tool(task)]` (`bad-call`), when the caller
    /// has used its budget of calls ([`Registry::with_rate_limit`]: `rate-limited`, and the
    /// task's call takes nothing more from it), when it already has as many tasks running as
    /// [`Registry::with_task_limit`] allows (`too-many-tasks`), or when there is no tokio
    /// runtime to run on (`internal`).
    ///
    /// ```
    /// use tool_core::{Context, Registry, ToolCall, tool};
    /// use tool_core::run::TaskStatus;
    ///
    /// /// Exports every note, slowly.
    /// #[tool(task)]
    /// async fn export(ctx: &Context) -> String {
    ///     ctx.progress(1.0, Some(1.0), Some("exported"));
    ///     "1 note".to_owned()
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let registry = Registry::builder().tool(Export).build().unwrap();
    /// let task = registry
    ///     .start(ToolCall::new("1", "export", serde_json::json!({})), &Context::default())
    ///     .unwrap();
    /// assert_eq!(task.result().await.text(), "1 note");
    /// assert_eq!(task.status(), TaskStatus::Completed);
    /// assert_eq!(task.progress().unwrap().message.as_deref(), Some("exported"));
    /// # });
    /// ```
    pub fn start(&self, call: ToolCall, ctx: &Context) -> Result<TaskHandle, Refusal> {
        let definition = self.reachable(&call.name).map_err(|mut refusal| {
            refusal.forget_maker();
            refusal
        })?;
        if !definition.runs_as_task() {
            return Err(Refusal::new(
                code::BAD_CALL,
                format!(
                    "`{}` does not run as a task; call it directly (its tool is not marked \
                     #[tool(task)])",
                    definition.name
                ),
            ));
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return Err(Refusal::new(
                code::INTERNAL,
                "a task needs a tokio runtime to run on; start it from within one",
            ));
        };
        let (counts, limit) = self.tasks();
        let slot = counts.take(ctx.caller(), limit).ok_or_else(|| {
            Refusal::new(
                code::TOO_MANY_TASKS,
                format!(
                    "this caller already has {limit} tasks running, as many as one caller may \
                     have; wait for one to finish, or cancel one, then start this again"
                ),
            )
        })?;
        // The budget is taken when the task starts, so that a caller over it hears so at
        // once rather than in the task's result, and only by a start nothing else refuses
        // (the slot is given back if it is refused); the task's own call takes none again.
        self.take_from_budget(ctx, &definition.name)?;

        let registry = self.without_budget();
        Ok(TaskHandle::spawn(
            &runtime,
            definition.name,
            ctx,
            slot,
            move |task_ctx| async move { registry.call(call, &task_ctx).await },
        ))
    }
}
