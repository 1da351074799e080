//! Calls run together: a batch answered in input order, at most a set number at once.

use std::sync::Arc;

use super::Registry;
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::{Refusal, code};
use crate::outcome::result::ToolResult;

impl Registry {
    /// Runs a batch of calls concurrently, each with a child of `ctx`, and answers in input
    /// order: one result per call, each isolated from the others (duplicate ids stay distinct
    /// calls). See [`Registry::call_each`].
    pub async fn call_all(&self, calls: Vec<ToolCall>, ctx: &Context) -> Vec<ToolResult> {
        self.call_each(calls.into_iter().map(|call| (call, ctx.child(None))))
            .await
    }

    /// Runs a batch of calls, each with its own context, concurrently (at most the batch limit
    /// at once), and answers in input order. Inside a tokio runtime each call is a task of its
    /// own, so calls run in parallel on a multi-threaded runtime; dropping the returned future
    /// aborts them all. Outside one, the calls run one after another.
    pub async fn call_each(
        &self,
        calls: impl IntoIterator<Item = (ToolCall, Context)>,
    ) -> Vec<ToolResult> {
        let calls: Vec<(ToolCall, Context)> = calls.into_iter().collect();
        if tokio::runtime::Handle::try_current().is_err() {
            let mut results = Vec::with_capacity(calls.len());
            for (call, ctx) in calls {
                results.push(self.call(call, &ctx).await);
            }
            return results;
        }
        let limit = Arc::new(tokio::sync::Semaphore::new(self.config.batch_limit));
        let mut labels = Vec::with_capacity(calls.len());
        let mut tasks = tokio::task::JoinSet::new();
        for (position, (call, ctx)) in calls.into_iter().enumerate() {
            labels.push((call.id.clone(), call.name.clone()));
            // Never closed, so this waits only for a permit.
            let permit = limit.clone().acquire_owned().await.ok();
            let registry = self.clone();
            tasks.spawn(async move {
                let result = registry.call(call, &ctx).await;
                drop(permit);
                (position, result)
            });
        }
        let mut results: Vec<Option<ToolResult>> = labels.iter().map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            if let Ok((position, result)) = joined {
                results[position] = Some(result);
            }
        }
        results
            .into_iter()
            .zip(labels)
            .map(|(result, (id, name))| {
                result.unwrap_or_else(|| ToolResult {
                    id,
                    name,
                    outcome: Err(Refusal::new(
                        code::INTERNAL,
                        "the call's task ended without an answer",
                    )),
                    notes: Vec::new(),
                })
            })
            .collect()
    }
}
