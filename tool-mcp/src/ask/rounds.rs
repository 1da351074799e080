//! Calls suspended for their clients' answers (MCP 2026-07-28's `input_required` rounds): the
//! table keyed by `requestState`, bounded in number and time, and the driving of a call from
//! one round to the next.

use std::collections::{HashMap, hash_map::Entry};
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolRequestParams, CallToolResponse, InputRequests, InputRequiredResult};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tool_core::call::CancellationToken;
use tool_core::{Refusal, ToolResult, code};

use super::wire::{Incoming, Kind, read_answer};
use super::{Asked, Asking, Missing, WaitingCalls};
use crate::owner::Owner;

/// A call that may be suspended for its client's answers: its task, its questions, and what
/// it belongs to. Dropping it (its request cancelled, its entry expired) cancels the call.
pub(crate) struct SuspendableCall {
    name: String,
    owner: Owner,
    task: JoinHandle<ToolResult>,
    cancel: CancellationToken,
    questions: mpsc::UnboundedReceiver<Asked>,
    /// What the call asked that its client did not declare it can answer.
    missing: Missing,
}

impl SuspendableCall {
    /// Starts `call` (a registry call whose context is cancelled by `cancel` and asks through
    /// `asking`'s asker) on a task of its own, so that it can outlive the request.
    pub(crate) fn start(
        name: String,
        owner: Owner,
        call: BoxFuture<'static, ToolResult>,
        cancel: CancellationToken,
        asking: Asking,
    ) -> SuspendableCall {
        let missing = asking.missing();
        SuspendableCall {
            name,
            owner,
            task: tokio::spawn(call),
            cancel,
            questions: asking.into_rounds(),
            missing,
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
    /// What was asked, which the answer must be.
    kind: Kind,
    reply: oneshot::Sender<Result<Incoming, Refusal>>,
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
                    if let Some(missing) = running.missing.error() {
                        return Err(missing);
                    }
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
        let Asked { request, reply } = asked;
        let kind = request.kind();
        let input = match request.input_request() {
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
                kind,
                reply,
                expiry,
            };
            table.insert(state.clone(), waiting);
        }
        let mut requests = InputRequests::new();
        requests.insert(kind.key().to_owned(), input);
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
            let reply = read_answer(waiting.get().kind, request.input_responses)?;
            (waiting.remove(), reply)
        };
        let (
            Waiting {
                running,
                reply,
                expiry,
                ..
            },
            answer,
        ) = waiting;
        expiry.abort();
        // The tool may have stopped waiting (its deadline passed): its result says so.
        let _ = reply.send(Ok(answer));
        self.drive(running, cancelled).await
    }
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
