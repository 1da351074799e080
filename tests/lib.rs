//! Integration tests of `tool-core` live in this package's test targets; this library holds
//! what more than one of them reads.

use serde_json::Value;
use tool_core::{
    Arguments, BoxFuture, Context, Output, Refusal, Registry, Tool, ToolCall, ToolDefinition,
};

/// The `fault` lines of a refusal, as (path, problem) pairs, in order.
pub fn faults(refusal: &Refusal) -> Vec<(String, String)> {
    refusal
        .lines
        .iter()
        .filter(|line| line.label == "fault")
        .map(|line| (line.cells[0].clone(), line.cells[1].clone()))
        .collect()
}

/// A `fault` line's (path, problem) pair, as [`faults`] gives them.
pub fn fault(path: &str, problem: &str) -> (String, String) {
    (path.to_owned(), problem.to_owned())
}

/// What `registry` answers a call of `name` with `arguments`: the output's text, or the
/// refusal.
pub async fn outcome(registry: &Registry, name: &str, arguments: Value) -> Result<String, Refusal> {
    registry
        .call(ToolCall::new("1", name, arguments), &Context::default())
        .await
        .outcome
        .map(|output| output.as_text().into_owned())
}

/// A tool written by hand, with whatever definition a test gives it; it reads nothing and
/// answers nothing.
pub struct Raw(pub ToolDefinition);

impl Tool for Raw {
    fn definition(&self) -> ToolDefinition {
        self.0.clone()
    }

    fn call<'a>(
        &'a self,
        _arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async { Ok(Output::Empty) })
    }
}
