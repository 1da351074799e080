//! A tool's questions ([`Context::ask`](tool_core::Context::ask)) put to the MCP client's user.
//!
//! Which way a question goes depends on what the client said it is:
//!
//! - a client of MCP 2025-11-25 (or older, with the `initialize` handshake) that declared the
//!   `elicitation` capability gets an `elicitation/create` request (form mode) in the middle of
//!   the call, and its answer goes back to the tool;
//! - a client of MCP 2026-07-28, which forbids requests from server to client, gets the call's
//!   answer as `resultType: "input_required"`, with the question in `inputRequests` and an
//!   opaque `requestState`; the tool's future is kept here, suspended at its `.await`, until the
//!   client calls the tool again with `inputResponses` and that `requestState`, and then resumes
//!   where it stopped (a multi-round-trip request);
//! - a client that did not declare the capability cannot be asked: the question is a
//!   `cannot-ask` refusal, which the tool handles as it would in process.
//!
//! A suspended call is kept server-side, in a table keyed by its `requestState`: 122 random
//! bits (a UUID v4), used once (each round gets a fresh one), and bound to the caller the host
//! asserted, the stdio connection and the HTTP session, so that a forged, stale or borrowed
//! state finds nothing. A retry that finds nothing, or answers in the wrong shape, is a
//! JSON-RPC invalid-params error that says what to do, and the suspended call (if any) stays as
//! it was. Entries are bounded in number (overall and per caller: past either bound the tool's
//! question is a `cannot-ask` refusal) and in time: an entry nobody resumes within its time to
//! live is dropped and its call cancelled. The call's own deadline holds throughout, as in
//! process: a tool waiting past it ends `timed-out`.

use std::collections::{HashMap, hash_map::Entry};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientResult, ElicitRequest, ElicitRequestParams,
    ElicitationAction, InputRequest, InputRequests, InputRequiredResult, InputResponses,
    ProtocolVersion, ServerRequest,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, Peer};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tool_core::call::{CancellationToken, Question, Reply};
use tool_core::{Asker, Refusal, ToolResult, code};

use crate::owner::Owner;

/// The bounds on calls suspended for their clients' answers (MCP 2026-07-28's
/// `input_required` round trips); see [`McpServer::with_waiting_calls`](crate::McpServer::with_waiting_calls).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitingCalls {
    /// How long a suspended call waits for the retry that answers it before it is cancelled
    /// and its `requestState` forgotten.
    pub ttl: Duration,
    /// How many calls may wait at once, all callers together.
    pub max: usize,
    /// How many calls one caller may have waiting at once.
    pub max_per_caller: usize,
}

impl WaitingCalls {
    /// How long a call suspended for its client's answer (MCP 2026-07-28) waits for the retry
    /// that carries it, unless [`McpServer::with_waiting_calls`](crate::McpServer::with_waiting_calls)
    /// says otherwise: long enough for a person to read and fill in a form, short enough that an
    /// abandoned call does not hold its memory (and its tool's resources) for long.
    pub const DEFAULT_QUESTION_TTL: Duration = Duration::from_secs(600);

    /// How many calls may wait for their clients' answers at once, all callers together.
    pub const DEFAULT_MAX_CALLS: usize = 1024;

    /// How many calls one caller (one asserted caller on one connection or session) may have
    /// waiting for answers at once, so that one client cannot take every place.
    pub const DEFAULT_MAX_PER_CALLER: usize = 32;
}

impl Default for WaitingCalls {
    fn default() -> Self {
        WaitingCalls {
            ttl: Self::DEFAULT_QUESTION_TTL,
            max: Self::DEFAULT_MAX_CALLS,
            max_per_caller: Self::DEFAULT_MAX_PER_CALLER,
        }
    }
}

/// The key a question has in `inputRequests` and its answer in `inputResponses`. One question
/// is asked a round, so one key serves.
const QUESTION_KEY: &str = "question";

/// How one request's questions are put to its client.
pub(crate) enum Asking {
    /// As `input_required` rounds (MCP 2026-07-28): the questions come out of the call here.
    Rounds {
        sender: mpsc::UnboundedSender<Asked>,
        receiver: mpsc::UnboundedReceiver<Asked>,
    },
    /// As `elicitation/create` requests to this peer (MCP 2025-11-25).
    Elicit(Peer<RoleServer>),
    /// Not at all, for this reason.
    Nobody(&'static str),
}

impl Asking {
    /// The way the client of `context` can be asked, from its protocol version and capabilities.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Asking {
        let forms = context
            .client_capabilities()
            .and_then(|capabilities| capabilities.elicitation)
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
        if !forms {
            return Asking::Nobody(
                "this client did not declare the `elicitation` capability (form mode), so its \
                 user cannot be asked",
            );
        }
        let rounds = context
            .protocol_version()
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        if rounds {
            let (sender, receiver) = mpsc::unbounded_channel();
            Asking::Rounds { sender, receiver }
        } else {
            Asking::Elicit(context.peer.clone())
        }
    }

    /// Whether the call may outlive the request (be suspended for an answer), and so needs a
    /// cancellation of its own rather than the request's.
    pub(crate) fn suspends(&self) -> bool {
        matches!(self, Asking::Rounds { .. })
    }

    /// The asker to put on the call's context.
    pub(crate) fn asker(&self) -> Arc<dyn Asker> {
        match self {
            Asking::Rounds { sender, .. } => Arc::new(RoundAsker(sender.clone())),
            Asking::Elicit(peer) => Arc::new(ElicitAsker(peer.clone())),
            Asking::Nobody(reason) => Arc::new(NobodyAsker(reason)),
        }
    }

    /// Where the questions of a call asked in rounds come out.
    pub(crate) fn into_rounds(self) -> Option<mpsc::UnboundedReceiver<Asked>> {
        match self {
            Asking::Rounds { receiver, .. } => Some(receiver),
            Asking::Elicit(_) | Asking::Nobody(_) => None,
        }
    }
}

/// A question on its way out of a call, with where its reply goes.
pub(crate) struct Asked {
    question: Question,
    reply: oneshot::Sender<Result<Reply, Refusal>>,
}

struct RoundAsker(mpsc::UnboundedSender<Asked>);

impl Asker for RoundAsker {
    fn ask(&self, question: Question) -> tool_core::call::BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            let gone = || {
                Refusal::new(
                    code::CANNOT_ASK,
                    "the client's request is no longer waiting for this call's questions",
                )
            };
            let (reply, replied) = oneshot::channel();
            self.0.send(Asked { question, reply }).map_err(|_| gone())?;
            replied.await.map_err(|_| gone())?
        })
    }
}

struct ElicitAsker(Peer<RoleServer>);

impl Asker for ElicitAsker {
    fn ask(&self, question: Question) -> tool_core::call::BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            let params = serde_json::from_value::<ElicitRequestParams>(json!({
                "mode": "form",
                "message": question.message,
                "requestedSchema": question.form,
            }))
            .map_err(unshowable)?;
            // Sent as rmcp's `create_elicitation` sends it, without its `elicitation` feature
            // (which builds the `url` crate for URL-mode elicitation, a mode not used here).
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            let could_not = |error: &dyn std::fmt::Display| {
                Refusal::new(
                    code::CANNOT_ASK,
                    format!("the client could not ask its user: {error}"),
                )
            };
            let answered = match self.0.send_request(request).await {
                Ok(ClientResult::ElicitResult(answered)) => answered,
                Ok(_) => {
                    return Err(could_not(
                        &"it answered something else than a form's result",
                    ));
                }
                Err(error) => return Err(could_not(&error)),
            };
            Ok(match answered.action {
                ElicitationAction::Accept => Reply::Accept(match answered.content {
                    Some(Value::Object(values)) => values,
                    _ => Map::new(),
                }),
                ElicitationAction::Decline => Reply::Decline,
                // Cancel, and any action a later revision adds: no answer, and stop.
                _ => Reply::Cancel,
            })
        })
    }
}

struct NobodyAsker(&'static str);

impl Asker for NobodyAsker {
    fn ask(&self, _question: Question) -> tool_core::call::BoxFuture<'_, Result<Reply, Refusal>> {
        let reason = self.0;
        Box::pin(async move { Err(Refusal::new(code::CANNOT_ASK, reason)) })
    }
}

/// A form that MCP's elicitation schema does not take (a `format` it does not know, say).
fn unshowable(error: serde_json::Error) -> Refusal {
    Refusal::new(
        code::CANNOT_ASK,
        format!("the question's form is not one an MCP client can show: {error}"),
    )
}

/// A call that may be suspended for its client's answers: its task, its questions, and what
/// it belongs to. Dropping it (its request cancelled, its entry expired) cancels the call.
pub(crate) struct SuspendableCall {
    name: String,
    owner: Owner,
    task: JoinHandle<ToolResult>,
    cancel: CancellationToken,
    questions: mpsc::UnboundedReceiver<Asked>,
}

impl SuspendableCall {
    /// Starts `call` (a registry call whose context is cancelled by `cancel` and asks through
    /// the sender of `questions`) on a task of its own, so that it can outlive the request.
    pub(crate) fn start(
        name: String,
        owner: Owner,
        call: BoxFuture<'static, ToolResult>,
        cancel: CancellationToken,
        questions: mpsc::UnboundedReceiver<Asked>,
    ) -> SuspendableCall {
        SuspendableCall {
            name,
            owner,
            task: tokio::spawn(call),
            cancel,
            questions,
        }
    }
}

impl Drop for SuspendableCall {
    fn drop(&mut self) {
        // A finished task ignores both.
        self.cancel.cancel();
        self.task.abort();
    }
}

/// A call suspended at a question, waiting for the retry that answers it.
struct Waiting {
    running: SuspendableCall,
    reply: oneshot::Sender<Result<Reply, Refusal>>,
    /// The timer that drops the entry past its time to live; stopped when the entry is taken,
    /// so that quick rounds do not leave timers behind.
    expiry: tokio::task::AbortHandle,
}

/// The calls suspended for their clients' answers, shared by every clone of a server (an HTTP
/// server makes one per session, or per request for a client without a session).
#[derive(Clone, Default)]
pub(crate) struct Suspended {
    table: Arc<Mutex<HashMap<String, Waiting>>>,
    pub(crate) limits: WaitingCalls,
}

impl Suspended {
    /// Runs `running` until it ends (its result) or asks (an `input_required` result, the call
    /// kept here), or until `request` is cancelled (the call with it).
    pub(crate) async fn drive(
        &self,
        mut running: SuspendableCall,
        request: CancellationToken,
    ) -> Result<CallToolResponse, McpError> {
        loop {
            tokio::select! {
                joined = &mut running.task => {
                    return match joined {
                        Ok(result) => crate::convert::call_tool_result(&result).map(Into::into),
                        Err(error) => Err(McpError::internal_error(
                            format!(
                                "the tool `{}` ended without a result: its task {} on the server",
                                running.name,
                                if error.is_panic() { "panicked" } else { "was aborted" },
                            ),
                            None,
                        )),
                    };
                }
                Some(asked) = running.questions.recv() => {
                    match self.suspend(running, asked) {
                        Ok(result) => return Ok(result.into()),
                        Err(back) => running = *back,
                    }
                }
                () = request.cancelled() => {
                    return Err(McpError::invalid_request("the call was cancelled", None));
                }
            }
        }
    }

    /// Keeps `running` until the retry answering `asked` comes, and says so to the client; or,
    /// past the bounds, refuses the question to the tool and hands the call back.
    fn suspend(
        &self,
        running: SuspendableCall,
        asked: Asked,
    ) -> Result<InputRequiredResult, Box<SuspendableCall>> {
        let Asked { question, reply } = asked;
        let input = match input_request(question) {
            Ok(input) => input,
            Err(refusal) => {
                let _ = reply.send(Err(refusal));
                return Err(Box::new(running));
            }
        };
        let state = uuid::Uuid::new_v4().simple().to_string();
        {
            let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
            let mine = table
                .values()
                .filter(|waiting| waiting.running.owner == running.owner)
                .count();
            let full = if table.len() >= self.limits.max {
                Some(format!(
                    "the server has as many calls waiting for answers as it keeps ({}); try \
                     again later",
                    self.limits.max
                ))
            } else if mine >= self.limits.max_per_caller {
                Some(format!(
                    "this caller has as many calls waiting for answers as it may ({}); answer \
                     or abandon one first",
                    self.limits.max_per_caller
                ))
            } else {
                None
            };
            if let Some(full) = full {
                let _ = reply.send(Err(Refusal::new(code::CANNOT_ASK, full)));
                return Err(Box::new(running));
            }
            // Started while the table is locked, so that even a time to live of zero finds the
            // entry in it.
            let expiry = tokio::spawn({
                let table = self.table.clone();
                let ttl = self.limits.ttl;
                let state = state.clone();
                async move {
                    tokio::time::sleep(ttl).await;
                    let expired = table
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(&state);
                    // Dropping it cancels the call.
                    drop(expired);
                }
            })
            .abort_handle();
            let waiting = Waiting {
                running,
                reply,
                expiry,
            };
            table.insert(state.clone(), waiting);
        }
        let mut requests = InputRequests::new();
        requests.insert(QUESTION_KEY.to_owned(), input);
        Ok(InputRequiredResult::new(Some(requests), Some(state)))
    }

    /// Resumes the call `request`'s `requestState` names with the answer in its
    /// `inputResponses`, and drives it on; an error (and the suspended call untouched) if the
    /// state is not one `owner` may resume or the answer is not in the shape asked for.
    pub(crate) async fn resume(
        &self,
        request: CallToolRequestParams,
        owner: Owner,
        cancelled: CancellationToken,
    ) -> Result<CallToolResponse, McpError> {
        let Some(state) = request.request_state else {
            return Err(McpError::invalid_params(
                "inputResponses came without a requestState: send them with the requestState of \
                 the input_required result they answer",
                None,
            ));
        };
        let waiting = {
            let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
            let Entry::Occupied(waiting) = table.entry(state) else {
                return Err(no_such_waiting());
            };
            if waiting.get().running.owner != owner {
                return Err(no_such_waiting());
            }
            if waiting.get().running.name != request.name {
                return Err(McpError::invalid_params(
                    format!(
                        "this requestState belongs to a call of `{}`, not `{}`: retry that call \
                         with it",
                        waiting.get().running.name,
                        request.name
                    ),
                    None,
                ));
            }
            let reply = read_answer(request.input_responses)?;
            (waiting.remove(), reply)
        };
        let (
            Waiting {
                running,
                reply,
                expiry,
            },
            answer,
        ) = waiting;
        expiry.abort();
        // The tool may have stopped waiting (its deadline passed): its result says so.
        let _ = reply.send(Ok(answer));
        self.drive(running, cancelled).await
    }
}

/// A question as an `elicitation/create` input request, or why a client cannot show it.
fn input_request(question: Question) -> Result<InputRequest, Refusal> {
    serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": question.message,
            "requestedSchema": question.form,
        },
    }))
    .map_err(unshowable)
}

/// An elicitation result, as a client sends one in `inputResponses`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answered {
    action: String,
    content: Option<Value>,
    #[serde(rename = "_meta")]
    #[allow(dead_code)]
    meta: Option<Value>,
}

/// The error for a `requestState` that names no call the caller may resume.
fn no_such_waiting() -> McpError {
    McpError::invalid_params(
        "requestState names no call waiting for this caller's answer (it is not one this server \
         gave, or it was used already, or it expired, or another caller has it): call the tool \
         again without requestState",
        None,
    )
}

/// The reply in a retry's `inputResponses`, which must answer the one question asked, as an
/// elicitation result.
fn read_answer(responses: Option<InputResponses>) -> Result<Reply, McpError> {
    let shape = format!(
        "send inputResponses {{\"{QUESTION_KEY}\": {{\"action\": \"accept\", \"content\": \
         {{...}}}}}}, or an action of \"decline\" or \"cancel\""
    );
    let bad = |problem: String| McpError::invalid_params(format!("{problem}; {shape}"), None);
    let mut responses = responses.unwrap_or_default();
    let Some(answer) = responses.remove(QUESTION_KEY) else {
        return Err(bad(format!(
            "inputResponses has no answer to `{QUESTION_KEY}`, the question asked"
        )));
    };
    if !responses.is_empty() {
        let others: Vec<&str> = responses.keys().map(String::as_str).collect();
        return Err(bad(format!(
            "inputResponses answers requests this server did not make: {}",
            others.join(", ")
        )));
    }
    if !answer.is_object() {
        return Err(bad(format!(
            "`{QUESTION_KEY}` is not an elicitation result (an object holding `action`)"
        )));
    }
    let answered = Answered::deserialize(answer).map_err(|error| {
        bad(format!(
            "`{QUESTION_KEY}` is not an elicitation result: {error}"
        ))
    })?;
    match (answered.action.as_str(), answered.content) {
        ("accept", Some(Value::Object(values))) => Ok(Reply::Accept(values)),
        ("accept", None) => Ok(Reply::Accept(Map::new())),
        ("accept", Some(_)) => Err(bad(format!(
            "the `content` of `{QUESTION_KEY}` must be an object of the form's fields"
        ))),
        ("decline", _) => Ok(Reply::Decline),
        ("cancel", _) => Ok(Reply::Cancel),
        (other, _) => Err(bad(format!(
            "`{other}` is no action; the action is \"accept\", \"decline\" or \"cancel\""
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn responses(value: Value) -> Option<InputResponses> {
        serde_json::from_value(value).ok()
    }

    #[test]
    fn an_answer_must_be_an_elicitation_result_for_the_one_question() {
        let accepted = read_answer(responses(
            json!({"question": {"action": "accept", "content": {"title": "x"}}}),
        ));
        assert!(matches!(accepted, Ok(Reply::Accept(values)) if values["title"] == "x"));
        assert!(matches!(
            read_answer(responses(json!({"question": {"action": "decline"}}))),
            Ok(Reply::Decline)
        ));
        for (wrong, says) in [
            (json!({}), "no answer to `question`"),
            (json!({"question": "yes"}), "not an elicitation result"),
            (
                json!({"question": {"action": "maybe"}}),
                "`maybe` is no action",
            ),
            (
                json!({"question": {"action": "accept", "content": [1]}}),
                "must be an object",
            ),
            (
                json!({"question": {"action": "decline"}, "other": {}}),
                "did not make: other",
            ),
        ] {
            let error = read_answer(responses(wrong.clone())).unwrap_err();
            assert!(error.message.contains(says), "{wrong}: {}", error.message);
            assert!(
                error.message.contains("send inputResponses"),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn a_question_becomes_an_elicitation_input_request() {
        let form = tool_core::run::form_for::<bool>().unwrap();
        let request = input_request(Question {
            message: "Sure?".into(),
            form,
        })
        .unwrap();
        let wire = serde_json::to_value(&request).unwrap();
        assert_eq!(wire["method"], "elicitation/create");
        assert_eq!(wire["params"]["message"], "Sure?");
        assert_eq!(
            wire["params"]["requestedSchema"]["properties"]["value"]["type"],
            "boolean"
        );
    }
}
