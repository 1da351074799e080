//! Approval: a hook that may stop a destructive call before it runs.
//!
//! A registry given an [`Approver`] asks it before every call of a tool marked `destructive`,
//! after the grant check and the size limit, and before the tool runs. The approver answers
//! [`Approval::Approve`] or [`Approval::Decline`] with a reason; a decline, or no answer within
//! the approval timeout, is a `declined` refusal and the tool never runs. Tools not marked
//! `destructive` never wait on it.
//!
//! The approver sees the call's arguments as they arrived, before they are parsed: it is asked
//! whether this call may run, not whether its arguments are well formed.

use std::future::Future;

use crate::call::ToolCall;
use crate::tool::BoxFuture;

/// What an approver is asked: the call, and who makes it as the host asserted.
#[derive(Clone, Debug)]
pub struct ApprovalRequest {
    /// The call awaiting approval.
    pub call: ToolCall,
    /// The caller, as the host asserted it on the context.
    pub caller: Option<String>,
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
/// use tool_core::{Approval, ApprovalRequest, Approver};
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
