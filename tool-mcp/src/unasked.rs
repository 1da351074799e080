//! What stands in for `ask` when the `asking` feature is off: a server that puts no question
//! to its clients. A tool's [`Context::ask`](tool_core::Context::ask), `sample` and `roots`
//! meet an asker that offers nothing and refuses each request with a `cannot-ask` refusal
//! naming the feature, so that a tool written to ask learns why it cannot, and its author what
//! to turn on; no call is suspended for an answer, so no `requestState` names one.
//!
//! It has the shape of `ask`'s `Asking` that the handler uses, so that the handler is the same
//! with the feature on or off but for the parts only asking has (suspending, resuming). Its
//! test builds with the feature on too, so that it runs in the workspace's tests, which turn
//! every feature on.

#![cfg_attr(feature = "asking", allow(dead_code))]

use std::convert::Infallible;
use std::sync::{Arc, LazyLock};

use rmcp::ErrorData as McpError;
use rmcp::service::{RequestContext, RoleServer};
use tool_core::call::{BoxFuture, Offers, Question, Reply, Root, Sampled, SamplingRequest};
use tool_core::{Asker, Refusal, code};

/// Why nothing can be asked: the feature is off.
const OFF: &str = "this server puts no questions to its client (it was built without \
                   tool-mcp's `asking` feature, which its Cargo.toml turns on with \
                   `tool-mcp = { version = \"0.1\", features = [\"asking\"] }`)";

/// The asker of every call on a server without the `asking` feature.
pub(crate) struct Unasked;

impl Unasked {
    fn refusal() -> Refusal {
        Refusal::new(code::CANNOT_ASK, OFF)
    }
}

impl Asker for Unasked {
    fn offers(&self) -> Offers {
        Offers {
            forms: false,
            sampling: false,
            roots: false,
        }
    }

    fn ask(&self, _question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async { Err(Unasked::refusal()) })
    }

    fn sample(&self, _request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        Box::pin(async { Err(Unasked::refusal()) })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        Box::pin(async { Err(Unasked::refusal()) })
    }
}

/// The way a call's client is asked: never, here.
pub(crate) struct Asking;

impl Asking {
    /// The same for every client.
    pub(crate) fn of(
        _context: &RequestContext<RoleServer>,
        _current: bool,
        _input_end: &crate::input_end::InputEnd,
    ) -> Asking {
        Asking
    }

    /// The asker to put on the call's context: one for every call, as it holds nothing.
    pub(crate) fn asker(&self) -> Arc<dyn Asker> {
        static UNASKED: LazyLock<Arc<dyn Asker>> = LazyLock::new(|| Arc::new(Unasked));
        UNASKED.clone()
    }

    /// What the call asked that its client did not declare: nothing is put to a client here.
    pub(crate) fn missing(&self) -> Missing {
        Missing
    }

    /// No call is asked in rounds.
    pub(crate) fn into_rounds(self) -> Option<Infallible> {
        None
    }
}

/// Nothing a call asked for, as `ask`'s `Missing` says it.
pub(crate) struct Missing;

impl Missing {
    /// Never an error: the refusal the tool met says what is missing.
    pub(crate) fn error(&self) -> Option<McpError> {
        None
    }
}

/// The answer to a retry carrying a `requestState`: no call here waits for one.
pub(crate) fn no_waiting_call() -> McpError {
    McpError::invalid_params(
        format!(
            "requestState names no call waiting for an answer, as {OFF}: call the tool again \
             without requestState"
        ),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_request_is_refused_naming_the_feature() {
        let asker = Unasked;
        let none = Offers {
            forms: false,
            sampling: false,
            roots: false,
        };
        assert_eq!(asker.offers(), none);
        let question = Question {
            name: "publishing".to_owned(),
            message: "Publish?".to_owned(),
            form: serde_json::Map::new(),
        };
        for refusal in [
            asker.ask(question).await.err(),
            asker.sample(SamplingRequest::new("Hi")).await.err(),
            asker.roots().await.err(),
        ] {
            let refusal = refusal.expect("refused");
            assert_eq!(refusal.code, code::CANNOT_ASK);
            assert!(
                refusal.to_string().contains("`asking` feature"),
                "{refusal}"
            );
        }
        assert!(no_waiting_call().message.contains("`asking` feature"));
    }
}
