//! Calls suspended for their clients' answers (MCP 2026-07-28's `input_required` rounds): the
//! table keyed by `requestState`, bounded in number and time, and the driving of a call from
//! one round to the next.
//!
//! A round holds every request the tool made before it next waited: the call runs wrapped in
//! [`Batched`], which, each time the tool's future returns pending, sends what it asked during
//! that poll as one batch (a tool that `join!`s a form, a sampling request and its roots asks
//! all three in one round). A retry that answers part of a round is asked again for the rest
//! under a fresh `requestState`; one that answers none of it is asked again under the same;
//! answers to requests never made are ignored, as SEP-2322 asks.
//! A call made with `inputResponses` and no `requestState` (a client answering before it is
//! asked) runs afresh, and each of its requests whose key those responses hold is answered
//! from them.

use std::collections::{HashMap, hash_map::Entry};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;

use futures::future::BoxFuture;
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, InputRequest, InputRequests, InputRequiredResult,
    InputResponses,
};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tool_core::call::CancellationToken;
use tool_core::{Refusal, ToolResult, code};

use super::wire::{Incoming, Kind, read_one};
use super::{Asked, Missing, WaitingCalls};
use crate::owner::Owner;

/// Where a call's requests gather during one poll of its future, and where each poll's
/// gathered requests go as one round.
#[derive(Clone)]
pub(crate) struct Round {
    pub(super) gathered: Arc<Mutex<Vec<Asked>>>,
    pub(super) rounds: mpsc::UnboundedSender<Vec<Asked>>,
}

/// A call's future that, after each poll that leaves it pending, sends what it asked during
/// that poll as one round.
struct Batched {
    call: BoxFuture<'static, ToolResult>,
    round: Round,
}

impl Future for Batched {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<ToolResult> {
        let polled = self.call.as_mut().poll(cx);
        let asked = std::mem::take(
            &mut *self
                .round
                .gathered
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        // A closed channel (the request gone) drops the requests, and their askers hear so.
        if !asked.is_empty() {
            let _ = self.round.rounds.send(asked);
        }
        polled
    }
}

/// A call to run as a [`SuspendableCall`]: the tool's name, whose call it is, and the call.
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) owner: Owner,
    pub(crate) run: BoxFuture<'static, ToolResult>,
}

/// A call that may be suspended for its client's answers: its task, its rounds of requests,
/// and what it belongs to. Dropping it (its request cancelled, its entry expired) cancels the
/// call.
pub(crate) struct SuspendableCall {
    name: String,
    owner: Owner,
    task: JoinHandle<ToolResult>,
    cancel: CancellationToken,
    rounds: mpsc::UnboundedReceiver<Vec<Asked>>,
    /// What the call asked that its client did not declare it can answer.
    missing: Missing,
    /// Answers the client sent before it was asked, for the call's first round.
    offered: Option<InputResponses>,
}

impl SuspendableCall {
    /// Starts `call` (a registry call whose context is cancelled by `cancel` and asks in
    /// `round`s, which come out of `rounds`) on a task of its own, so that it can outlive the
    /// request; `missing` is what its asker notes, and `offered` are answers its client sent
    /// before it was asked.
    pub(crate) fn start(
        call: Call,
        cancel: CancellationToken,
        (round, rounds): (Round, mpsc::UnboundedReceiver<Vec<Asked>>),
        missing: Missing,
        offered: Option<InputResponses>,
    ) -> SuspendableCall {
        let Call { name, owner, run } = call;
        SuspendableCall {
            name,
            owner,
            task: tokio::spawn(Batched { call: run, round }),
            cancel,
            rounds,
            missing,
            offered,
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

/// One request of a round: its key, what its answer must be, the request (to ask again), and
/// where its answer goes once the whole round is answered.
struct Pending {
    key: String,
    kind: Kind,
    request: InputRequest,
    reply: oneshot::Sender<Result<Incoming, Refusal>>,
    answer: Option<Incoming>,
}

/// A call suspended at a round, waiting for the retries that answer it.
struct Waiting {
    running: SuspendableCall,
    pending: Vec<Pending>,
    /// The timer that drops the entry past its time to live; stopped when the entry is taken,
    /// so that quick rounds do not leave timers behind.
    expiry: tokio::task::AbortHandle,
}

impl Waiting {
    /// The requests of the round not answered yet, as the client is asked them.
    fn unanswered(&self) -> InputRequests {
        let mut requests = InputRequests::new();
        for pending in self
            .pending
            .iter()
            .filter(|pending| pending.answer.is_none())
        {
            requests.insert(pending.key.clone(), pending.request.clone());
        }
        requests
    }
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
                    if let Some(missing) = running.missing.error() {
                        return Err(missing);
                    }
                    return match joined {
                        // Rounds are 2026-07-28's alone.
                        Ok(result) => crate::convert::call_tool_result(result, true).map(Into::into),
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
                Some(round) = running.rounds.recv() => {
                    match self.suspend(running, round) {
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

    /// Keeps `running` until the retries answering `round` come, and says so to the client;
    /// or, when nothing is left to ask (each request answered from what the client offered, or
    /// refused) or past the bounds, answers or refuses the requests and hands the call back.
    fn suspend(
        &self,
        mut running: SuspendableCall,
        round: Vec<Asked>,
    ) -> Result<InputRequiredResult, Box<SuspendableCall>> {
        let offered = running.offered.take().unwrap_or_default();
        let mut pending: Vec<Pending> = Vec::with_capacity(round.len());
        for Asked { request, reply } in round {
            let input = match request.input_request() {
                Ok(input) => input,
                Err(refusal) => {
                    let _ = reply.send(Err(refusal));
                    continue;
                }
            };
            let kind = request.kind();
            let key = unique_key(request.key(), &pending);
            let answer = offered
                .get(&key)
                .and_then(|value| read_one(kind, &key, value).ok());
            pending.push(Pending {
                key,
                kind,
                request: input,
                reply,
                answer,
            });
        }
        if pending.iter().all(|pending| pending.answer.is_some()) {
            answer_all(pending);
            return Err(Box::new(running));
        }
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(full) = self.full(&table, &running.owner) {
            for pending in pending {
                let _ = pending
                    .reply
                    .send(Err(Refusal::new(code::CANNOT_ASK, full.clone())));
            }
            return Err(Box::new(running));
        }
        Ok(self.keep(&mut table, running, pending))
    }

    /// Why `owner` may not have another call waiting, if it may not.
    fn full(&self, table: &HashMap<String, Waiting>, owner: &Owner) -> Option<String> {
        let mine = table
            .values()
            .filter(|waiting| waiting.running.owner == *owner)
            .count();
        if table.len() >= self.limits.max {
            Some(format!(
                "the server has as many calls waiting for answers as it keeps ({}); try again \
                 later",
                self.limits.max
            ))
        } else if mine >= self.limits.max_per_caller {
            Some(format!(
                "this caller has as many calls waiting for answers as it may ({}); answer or \
                 abandon one first",
                self.limits.max_per_caller
            ))
        } else {
            None
        }
    }

    /// Keeps the call waiting for `pending` under a fresh `requestState`, and asks the client
    /// for what is not answered yet.
    fn keep(
        &self,
        table: &mut HashMap<String, Waiting>,
        running: SuspendableCall,
        pending: Vec<Pending>,
    ) -> InputRequiredResult {
        let state = uuid::Uuid::new_v4().simple().to_string();
        // Started while the table is locked, so that even a time to live of zero finds the
        // entry in it.
        let expiry = crate::background::spawn({
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
            pending,
            expiry,
        };
        let requests = waiting.unanswered();
        table.insert(state.clone(), waiting);
        InputRequiredResult::new(Some(requests), Some(state))
    }

    /// Stops the call `state` names, for a tool that runs again as a task with the answers
    /// its retry brings; the error `resume` gives if `owner` may not, or the state names a
    /// call of another tool.
    pub(crate) fn forget(&self, name: &str, state: String, owner: &Owner) -> Result<(), McpError> {
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        let Entry::Occupied(waiting) = table.entry(state) else {
            return Err(no_such_waiting());
        };
        if waiting.get().running.owner != *owner || waiting.get().running.name != name {
            return Err(no_such_waiting());
        }
        let waiting = waiting.remove();
        waiting.expiry.abort();
        // Dropping it cancels the call.
        drop(waiting);
        Ok(())
    }

    /// Resumes the call `request`'s `requestState` names with the answers in its
    /// `inputResponses`: once its round is answered whole, drives it on; else asks again for
    /// the rest. An error (and the suspended call untouched) if the state is not one `owner`
    /// may resume or an answer is not in the shape asked for.
    pub(crate) async fn resume(
        &self,
        request: CallToolRequestParams,
        state: String,
        owner: Owner,
        cancelled: CancellationToken,
    ) -> Result<CallToolResponse, McpError> {
        let responses = request.input_responses.unwrap_or_default();
        let running = {
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
            // Every answer is read before any is taken, so that a bad one leaves all as it was.
            let mut answers = Vec::new();
            for (at, pending) in waiting.get().pending.iter().enumerate() {
                if let (None, Some(value)) = (&pending.answer, responses.get(&pending.key)) {
                    let answer = read_one(pending.kind, &pending.key, value)
                        .map_err(|problem| McpError::invalid_params(problem, None))?;
                    answers.push((at, answer));
                }
            }
            if answers.is_empty() {
                // Nothing new: asked again for the same, under the same state.
                let asked = waiting.get().unanswered();
                return Ok(
                    InputRequiredResult::new(Some(asked), Some(waiting.key().clone())).into(),
                );
            }
            let Waiting {
                running,
                mut pending,
                expiry,
            } = waiting.remove();
            expiry.abort();
            for (at, answer) in answers {
                pending[at].answer = Some(answer);
            }
            if pending.iter().any(|pending| pending.answer.is_none()) {
                return Ok(self.keep(&mut table, running, pending).into());
            }
            answer_all(pending);
            running
        };
        self.drive(running, cancelled).await
    }
}

/// Sends each request of a round its answer. The tool may have stopped waiting (its deadline
/// passed): its result says so.
fn answer_all(pending: Vec<Pending>) {
    for pending in pending {
        if let Some(answer) = pending.answer {
            let _ = pending.reply.send(Ok(answer));
        }
    }
}

/// `key`, or, if a request of the round has it already, `key_2`, `key_3`, ...
fn unique_key(key: &str, round: &[Pending]) -> String {
    let taken = |candidate: &str| round.iter().any(|pending| pending.key == candidate);
    if !taken(key) {
        return key.to_owned();
    }
    (2..)
        .map(|n| format!("{key}_{n}"))
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| key.to_owned())
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
