//! The host's own code the server runs (its rmcp handler beside the tools, its caller and grant
//! hooks), a panic in it caught where it is called, logged, and stood in for. rmcp runs each
//! request in a task of its own and answers it when the handler returns: a task that panics
//! answers nothing, and the client waits for ever (over HTTP, the connection ends instead).

use std::any::Any;
use std::fmt::{Debug, Display};
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};

use futures::FutureExt;
use rmcp::ErrorData as McpError;
use tool_core::call::BoxFuture;

/// `run`, the host's code for `what`, or what `instead` gives if it panics.
pub(super) fn or_instead<T>(what: &str, run: impl FnOnce() -> T, instead: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        logged(&what, &*panic);
        instead()
    })
}

/// The host's handler's answer to `method`, which `answer` makes, boxed: a panic in it, as
/// the answer is made or awaited, answered as an internal error that names the method (its
/// text logged, not shown: a handler's panic may tell of its internals).
pub(super) fn caught<'a, T: 'a, F>(
    method: impl Display + Debug + Send + 'a,
    answer: impl FnOnce() -> F + Send + 'a,
) -> BoxFuture<'a, Result<T, McpError>>
where
    F: Future<Output = Result<T, McpError>> + Send + 'a,
{
    Box::pin(async move {
        match AssertUnwindSafe(async move { answer().await })
            .catch_unwind()
            .await
        {
            Ok(answer) => answer,
            Err(panic) => {
                logged(&method, &*panic);
                Err(McpError::internal_error(
                    format!(
                        "the server's handler failed unexpectedly answering `{method}`; the \
                         details were logged"
                    ),
                    None,
                ))
            }
        }
    })
}

/// Logs a panic of the host's code in what it was doing (`what`, which a client may have
/// named, written quoted).
fn logged(what: &dyn Debug, panic: &(dyn Any + Send)) {
    let text = (panic.downcast_ref::<&str>().copied())
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    tracing::error!(?what, panic = text, "the host's code panicked");
}
