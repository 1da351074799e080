//! The end of a line connection's input, and what may no longer be waited for once it has come.
//!
//! When the client's input ends (it closed its end of the pipe after its last request, as
//! `printf '...' | server` does), rmcp stops reading its own queue of messages for the client
//! and only drains the answers of calls still running, for a few seconds, before cancelling
//! them. A notification or a request to the client made after that point would wait for a
//! loop that is gone, and hold its call's answer past the drain. So the line transport says
//! when the input ends, and each of the framework's waits on rmcp's loop ends with it: notices
//! are dropped (nothing could carry them), a question is refused, a listen stream ends, and the
//! call's answer is written. rmcp's own steps toward an answer wait on its loop too (a listen
//! stream's acknowledgement is counted as sent there), so the transport tells rmcp of the end
//! only once every request read is answered, or `ANSWERS_DUE` on (`lines.rs`), and
//! the loop runs until then. A host's own handler (`McpServer::with_handler`) talks to rmcp's
//! peer directly, and is not covered.

use std::sync::Arc;

use tool_core::call::CancellationToken;

/// Whether a connection's input has ended; shared by its transport and its server. A server
/// that serves no line connection has one that never ends, and over HTTP every session shares
/// it (each request's stream ends on its own): ending it there would end every session's
/// waits.
///
/// Each call holds a clone, so the token sits behind an `Arc`: cloning a token itself takes
/// its tree's lock.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputEnd(Arc<CancellationToken>);

impl InputEnd {
    /// Says that the input has ended: what waits on rmcp's loop stops waiting.
    pub(crate) fn end(&self) {
        self.0.cancel();
    }

    /// `work`'s output, or `None` if the input ends first (or has ended before it starts).
    ///
    /// `work` is boxed before it is awaited: held by value, it would be stored twice in the
    /// future awaiting it (as the argument, and as the future polled), and that future is part
    /// of every request's task, however rarely this is reached.
    pub(crate) fn before<'a, T: 'a>(
        &'a self,
        work: impl Future<Output = T> + 'a,
    ) -> impl Future<Output = Option<T>> + 'a {
        self.0.run_until_cancelled(Box::pin(work))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wait_ends_when_the_input_does_and_work_done_first_is_kept() {
        let input = InputEnd::default();
        assert_eq!(input.before(async { 7 }).await, Some(7));
        let waiting = tokio::spawn({
            let input = input.clone();
            async move { input.before(std::future::pending::<()>()).await }
        });
        input.end();
        assert_eq!(waiting.await.ok(), Some(None));
        // Once ended, work that is not ready is not waited for.
        assert_eq!(input.before(std::future::pending::<()>()).await, None);
    }
}
