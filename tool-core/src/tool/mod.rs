//! The tool: the [`Tool`] trait, the [`ToolDefinition`] a tool advertises, the [`Toolkit`]
//! that groups tools, and the parameter types that carry a convention ([`DryRun`],
//! [`ExpectedRevision`], [`NonEmptyString`]).
//!
//! `#[tool]` implements `Tool` for you; implement it by hand only for tools whose shape is
//! known at run time (a remote server's tools, say), reading their arguments with an
//! [`InputSchema`] when the schema is this tool's own. The registry holds tools as
//! `Arc<dyn Tool>`, reads each definition once when the tool is added, and calls
//! [`Tool::call`] with the call's raw arguments.

pub(crate) mod conventions;
pub(crate) mod definition;
mod output_check;
pub(crate) mod toolkit;
pub(crate) mod written;

pub use self::conventions::{DryRun, ExpectedRevision, NonEmptyString};
pub use self::definition::{Annotations, Icon, IconTheme, TaskSupport, ToolDefinition};
pub use self::output_check::OutputCheck;
pub use self::toolkit::Toolkit;
pub use self::written::InputSchema;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::future::BoxFuture;
use crate::outcome::output::Output;
use crate::outcome::refusal::Refusal;

/// A function that a model, an MCP client or code can call by name with JSON arguments.
///
/// For `#[tool] async fn note_write(...)`, the macro generates a unit struct `NoteWrite`
/// (the fn's name in PascalCase) that implements this trait; pass that to the registry.
pub trait Tool: Send + Sync + 'static {
    /// What the tool advertises. The registry calls this once, when the tool is added.
    fn definition(&self) -> ToolDefinition;

    /// Runs the tool: parses `arguments` into its input, runs the handler, converts its
    /// output. Refusals for bad arguments, and the handler's own, come back as `Err`.
    ///
    /// Do the work inside the future (`Box::pin(async move { ... })`), as `#[tool]` does: the
    /// registry holds the call to its deadline and its cancellation from the future's first
    /// poll. A panic is refused as `internal`, in `call` or in the future.
    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>>;

    /// Whether `call` does nothing but make its future, as `#[tool]`'s does: the registry then
    /// holds the tool as it is, where it otherwise runs `call` under a catch of panics.
    #[doc(hidden)]
    fn __makes_its_future_only(&self) -> bool {
        false
    }
}
