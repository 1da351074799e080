//! Approval: a hook that may stop a destructive call before it runs.
//!
//! A registry given an [`Approver`] asks it before every call of a tool marked `destructive`,
//! after the grant, the budget and the size limit, and before the tool runs (the order
//! [`Registry::call`](crate::Registry::call) gives). The approver answers
//! [`Approval::Approve`] or [`Approval::Decline`] with a reason; a decline, or no answer within
//! the approval timeout, is a `declined` refusal and the tool never runs. Tools not marked
//! `destructive` never wait on it.
//!
//! The approver sees the call's arguments as they arrived, before they are parsed: it is asked
//! whether this call may run, not whether its arguments are well formed.
//!
//! [`ApproveByAsking`] is an approver that puts the question to the person behind the call,
//! through the call's [`Asker`](crate::Asker) (over MCP: the client's user), so the mechanism
//! that lets a tool ask for a value lets a host ask for consent.

use std::future::Future;

use crate::call::context::Context;
use crate::call::future::BoxFuture;
use crate::call::tool_call::ToolCall;
use crate::outcome::refusal::code;
use crate::run::ask::Answer;

/// What an approver is asked: the call, who makes it as the host asserted, and the call's
/// context (whose [`Context::ask`] reaches the person behind the call, if anyone can).
#[derive(Clone, Debug)]
pub struct ApprovalRequest {
    /// The call awaiting approval.
    pub call: ToolCall,
    /// The caller, as the host asserted it on the context.
    pub caller: Option<String>,
    /// The context the call would run with: its asker, cancellation, deadline and extensions.
    pub context: Context,
}

/// An approver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approval {
    /// The call may run.
    Approve,
    /// The call may not run, for this reason (shown to the model).
    Decline(String),
}

/// Decides whether destructive calls may run: asked before every call of a tool marked
/// `destructive`, after the grant check and before the arguments are parsed; a decline, or no
/// answer within the registry's approval timeout, is a `declined` refusal. When a destructive
/// tool that is lenient (`#[tool(destructive, lenient)]`) refuses its arguments and the
/// registry adjusts them, it is asked again, with the adjusted arguments, before they run.
///
/// Any `Fn(ApprovalRequest) -> impl Future<Output = Approval>` is an approver:
///
/// ```
/// use tool_core::{Approval, ApprovalRequest};
/// use tool_core::policy::approval::Approver;
///
/// fn only_alice() -> impl Approver {
///     |request: ApprovalRequest| async move {
///         match request.caller.as_deref() {
///             Some("alice") => Approval::Approve,
///             _ => Approval::Decline("only alice may delete notes".into()),
///         }
///     }
/// }
/// ```
pub trait Approver: Send + Sync + 'static {
    /// Answers one request.
    fn approve(&self, request: ApprovalRequest) -> BoxFuture<'_, Approval>;
}

impl<F, Fut> Approver for F
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Approval> + Send + 'static,
{
    fn approve(&self, request: ApprovalRequest) -> BoxFuture<'_, Approval> {
        Box::pin(self(request))
    }
}

/// An approver that asks the person behind each destructive call, through the call's
/// [`Asker`](crate::Asker), whether it may run; the question names the tool and shows its
/// arguments.
///
/// Only a yes runs the call. A no, a decline, a dismissed question, an answer that is not a
/// yes or no, and a caller nobody can ask (no asker, or an asker that answers `cannot-ask`)
/// are each a decline, with the reason, so a call is never run silently because nobody could
/// be asked.
///
/// ```
/// use std::time::Duration;
/// use tool_core::{ApproveByAsking, Registry};
///
/// # fn make(registry: Registry) -> Registry {
/// registry.with_approver(ApproveByAsking, Duration::from_secs(120))
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ApproveByAsking;

/// The form a person approves a call with.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Consent {
    /// Let this call run.
    approve: bool,
}

/// How much of a call's arguments a question shows: enough to judge a call, and a bound on
/// what an untrusted caller's arguments put in front of a person.
const SHOWN_ARGUMENT_CHARS: usize = 2000;

impl Approver for ApproveByAsking {
    fn approve(&self, request: ApprovalRequest) -> BoxFuture<'_, Approval> {
        Box::pin(async move {
            if request.context.asker().is_none() {
                return Approval::Decline(
                    "nobody can be asked to approve it: the host gave this call no asker".into(),
                );
            }
            let arguments = request.call.arguments.as_str();
            let shown = crate::outcome::shorten::cut_after(arguments, SHOWN_ARGUMENT_CHARS);
            let message = format!(
                "Allow the tool `{}` to run with these arguments?\n{shown}",
                request.call.name
            );
            match request.context.ask::<Consent>(message).await {
                Ok(Answer::Given(Consent { approve: true })) => Approval::Approve,
                Ok(Answer::Given(Consent { approve: false })) => {
                    Approval::Decline("the user did not approve it".into())
                }
                Ok(Answer::Declined) => Approval::Decline("the user declined it".into()),
                Ok(Answer::Cancelled) => {
                    Approval::Decline("the user dismissed the question".into())
                }
                Err(refusal) if refusal.code == code::CANNOT_ASK => Approval::Decline(format!(
                    "nobody could be asked to approve it: {}",
                    refusal.message
                )),
                Err(refusal) => Approval::Decline(format!(
                    "no approval came ({}: {})",
                    refusal.code, refusal.message
                )),
            }
        })
    }
}
