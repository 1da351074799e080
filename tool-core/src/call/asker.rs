//! Who answers a tool's questions: the [`Asker`] a host puts on a call's [`Context`], the
//! [`Question`] it is given and the [`Reply`] it gives; and, when the host can, the client's
//! model ([`SamplingRequest`]) and roots. What a tool does with the reply (the form a type
//! becomes, the answer read back as it) is `run::ask`'s.
//!
//! [`Context`]: crate::Context

use std::future::Future;

use serde_json::{Map, Value};

use crate::call::client::{Root, Sampled, SamplingRequest};
use crate::call::future::BoxFuture;
use crate::outcome::refusal::{Refusal, code};

/// One question for the person behind a call.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// What is asked for, as a name: the asked type's in snake case (`user_name` for a
    /// `UserName`), `value` for one value. Over MCP 2026-07-28 it keys the question in
    /// `inputRequests`, and so its answer in `inputResponses`.
    pub name: String,
    /// What the person is asked, as the tool wrote it.
    pub message: String,
    /// The form: a JSON Schema object (`type`, `properties`, `required`) whose properties are
    /// each a string (with `minLength`, `maxLength`, `format`, or `enum`/`oneOf` of strings),
    /// a number or integer (`minimum`, `maximum`), a boolean, or an array of a string enum's
    /// values (a multi-select, with `minItems`, `maxItems`), as MCP's elicitation takes it.
    pub form: Map<String, Value>,
}

/// What the person did with a question, as an [`Asker`] reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// They filled in the form; the values by property name.
    Accept(Map<String, Value>),
    /// They said no, and the call may go on without an answer.
    Decline,
    /// They dismissed the question; the call should stop.
    Cancel,
}

/// What an [`Asker`] can reach: see [`Context::can_ask`](crate::Context::can_ask).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offers {
    /// A person who answers forms ([`Asker::ask`]).
    pub forms: bool,
    /// A model that writes messages ([`Asker::sample`]).
    pub sampling: bool,
    /// Roots to tell ([`Asker::roots`]).
    pub roots: bool,
}

/// Puts questions to the person behind a call; see [`Context::with_asker`](crate::Context::with_asker).
///
/// It answers `Err` with a [`Refusal`] (code [`cannot-ask`](crate::code::CANNOT_ASK)) when it cannot
/// reach anyone: a client without forms, a closed connection. Any
/// `Fn(Question) -> impl Future<Output = Result<Reply, Refusal>>` is an asker:
///
/// ```
/// use tool_core::{Context, Refusal};
/// use tool_core::call::{Question, Reply};
///
/// let ctx = Context::new().with_asker(|question: Question| async move {
///     println!("{}", question.message);
///     Ok::<_, Refusal>(Reply::Decline)
/// });
/// ```
///
/// An asker that can also reach the client's model or roots implements [`Asker::sample`] and
/// [`Asker::roots`]; by default each is a `cannot-ask` refusal saying so.
pub trait Asker: Send + Sync + 'static {
    /// Asks one question and waits for the reply.
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>>;

    /// What this asker can reach, for a tool to ask only what will be answered (over MCP, what
    /// the client declared). By default, a person's answers to forms, and nothing else.
    fn offers(&self) -> Offers {
        Offers {
            forms: true,
            sampling: false,
            roots: false,
        }
    }

    /// Asks the client's model for a message and waits for it. A client that declines says
    /// so with a [`declined`](crate::code::DECLINED) refusal.
    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        let _ = request;
        Box::pin(async {
            Err(Refusal::new(
                code::CANNOT_ASK,
                "this caller's client has no model to ask",
            ))
        })
    }

    /// The client's roots.
    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        Box::pin(async {
            Err(Refusal::new(
                code::CANNOT_ASK,
                "this caller's client has no roots to tell",
            ))
        })
    }
}

impl<F, Fut> Asker for F
where
    F: Fn(Question) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Reply, Refusal>> + Send + 'static,
{
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(self(question))
    }
}
