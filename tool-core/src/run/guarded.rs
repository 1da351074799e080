//! A tool written by hand, its `call` run under a catch of panics. The registry catches a
//! panic from a call's first poll on ([`execute`](super::execute)); a `Tool` written by hand may
//! do work in `call` itself, before its future exists, and a panic there would reach the
//! registry's caller. Such a tool is wrapped when it is added, and the panic handed on to its
//! future's first poll, where the registry meets it as any other. A tool that makes its future
//! and nothing else, as `#[tool]`'s do, says so and is held as it is: the calls of most tools
//! pay nothing for the few.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::future::BoxFuture;
use crate::outcome::output::Output;
use crate::outcome::refusal::Refusal;
use crate::tool::{Tool, ToolDefinition};

/// `tool`, as the registry holds it: wrapped unless its `call` only makes its future.
pub(crate) fn guarded(tool: Arc<dyn Tool>) -> Arc<dyn Tool> {
    match tool.__makes_its_future_only() {
        true => tool,
        false => Arc::new(Guarded(tool)),
    }
}

/// A tool whose `call` runs under a catch.
struct Guarded(Arc<dyn Tool>);

impl Tool for Guarded {
    fn definition(&self) -> ToolDefinition {
        self.0.definition()
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        match catch_unwind(AssertUnwindSafe(|| self.0.call(arguments, ctx))) {
            Ok(future) => future,
            // The panic hook has written it already; the registry refuses the call as it
            // refuses any panic, at the first poll.
            Err(panic) => Box::pin(async move { resume_unwind(panic) }),
        }
    }

    fn __makes_its_future_only(&self) -> bool {
        true
    }
}
