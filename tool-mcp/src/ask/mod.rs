//! What a tool asks of the MCP client behind its call: its user's answer to a form
//! ([`Context::ask`](tool_core::Context::ask)), a message from its model
//! ([`Context::sample`](tool_core::Context::sample)), its roots
//! ([`Context::roots`](tool_core::Context::roots)).
//!
//! Which way a request goes depends on what the client said it is:
//!
//! - a client of MCP 2025-11-25 (or older, with the `initialize` handshake) gets an
//!   `elicitation/create`, `sampling/createMessage` or `roots/list` request in the middle of
//!   the call, and its answer goes back to the tool;
//! - a client of MCP 2026-07-28, which forbids requests from server to client, gets the call's
//!   answer as `resultType: "input_required"`, with the request in `inputRequests` and an
//!   opaque `requestState`; the tool's future is kept here, suspended at its `.await`, until the
//!   client calls the tool again with `inputResponses` and that `requestState`, and then resumes
//!   where it stopped (a multi-round-trip request, `rounds`);
//! - a request the client did not declare the capability for (`elicitation` in form mode,
//!   `sampling`, `roots`) is a `cannot-ask` refusal to the tool, which it handles as it would
//!   in process; a 2026-07-28 request, whose revision forbids relying on an undeclared
//!   capability, then answers `-32021` naming the capability, once the call has ended.
//!
//! A suspended call is kept server-side, in a table keyed by its `requestState`: a random
//! UUID v4 (`SECURITY.md`, 9), used once (each round gets a fresh one), and bound to the caller the host
//! asserted, the stdio connection and the HTTP session, so that a forged, stale or borrowed
//! state finds nothing. A retry that finds nothing, or answers in the wrong shape, is a
//! JSON-RPC invalid-params error that says what to do, and the suspended call (if any) stays as
//! it was. Entries are bounded in number (overall and per caller: past either bound the tool's
//! request is a `cannot-ask` refusal) and in time: an entry nobody resumes within its time to
//! live is dropped and its call cancelled. The call's own deadline holds throughout, as in
//! process: a tool waiting past it ends `timed-out`. The shapes on the wire are `wire`'s.

mod rounds;
pub(crate) mod wire;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction,
    ServerRequest,
};
use rmcp::service::{RequestContext, RoleServer, ServiceError};
use rmcp::{ErrorData as McpError, Peer};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};
use tool_core::call::{BoxFuture, Offers, Question, Reply, Root, Sampled, SamplingRequest};
use tool_core::{Asker, Refusal, code};

use self::rounds::Round;
pub(crate) use self::rounds::{Call, SuspendableCall, Suspended};
use self::wire::{Incoming, Outgoing, unshowable};
use crate::input_end::InputEnd;

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

/// A capability of the client's that a request needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Capability {
    Elicitation,
    Sampling,
    Roots,
}

impl Capability {
    /// Why a request of this kind cannot be made of a client that did not declare it.
    fn undeclared(self) -> &'static str {
        match self {
            Capability::Elicitation => {
                "this client did not declare the `elicitation` capability (form mode), so its \
                 user cannot be asked"
            }
            Capability::Sampling => {
                "this client did not declare the `sampling` capability, so its model cannot be \
                 asked"
            }
            Capability::Roots => {
                "this client did not declare the `roots` capability, so it cannot be asked for \
                 its roots"
            }
        }
    }

    /// The capability's name among a client's capabilities.
    fn name(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }

    /// The capability, as `-32021` names it in `requiredCapabilities`.
    #[allow(deprecated)] // SEP-2577 deprecates sampling and roots; this revision still has them.
    fn required(self) -> ClientCapabilities {
        let builder = ClientCapabilities::builder();
        match self {
            Capability::Elicitation => builder.enable_elicitation().build(),
            Capability::Sampling => builder.enable_sampling().build(),
            Capability::Roots => builder.enable_roots().build(),
        }
    }
}

impl Capability {
    /// Whether `declared` holds this capability.
    fn declared_in(self, declared: Offers) -> bool {
        match self {
            Capability::Elicitation => declared.forms,
            Capability::Sampling => declared.sampling,
            Capability::Roots => declared.roots,
        }
    }
}

/// What a call asked that its client did not declare, read once the call has ended: the
/// call's asker, which notes it.
#[derive(Clone)]
pub(crate) struct Missing(Arc<ClientAsker>);

impl Missing {
    /// The `-32021` error for the first capability a 2026-07-28 call asked for that its client
    /// did not declare (that revision forbids relying on one), if it asked for one: rmcp's,
    /// with a message that says what to declare.
    pub(crate) fn error(&self) -> Option<McpError> {
        let missing = (*self
            .0
            .missing
            .lock()
            .unwrap_or_else(PoisonError::into_inner))?;
        let mut error = McpError::missing_required_client_capability(missing.required());
        error.message = format!(
            "Missing required client capability: the tool needs the client's `{}`, which this \
             request's `io.modelcontextprotocol/clientCapabilities` did not declare; declare it \
             and call again",
            missing.name()
        )
        .into();
        Some(error)
    }
}

/// How one request's questions are put to its client.
pub(crate) struct Asking {
    asker: Arc<ClientAsker>,
    /// For `input_required` rounds (MCP 2026-07-28): where the requests gather, and where
    /// each round comes out of the call.
    rounds: Option<(Round, mpsc::UnboundedReceiver<Vec<Asked>>)>,
}

impl Asking {
    /// The way the client of `context` can be asked, from its protocol version (`current`:
    /// 2026-07-28) and capabilities; a request to it is not waited on past `input_end`.
    pub(crate) fn of(
        context: &RequestContext<RoleServer>,
        current: bool,
        input_end: &InputEnd,
    ) -> Asking {
        let declared = crate::owner::declared(context, current, |capabilities| Offers {
            forms: capabilities
                .and_then(|capabilities| capabilities.elicitation.as_ref())
                .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none()),
            sampling: capabilities.is_some_and(|capabilities| capabilities.sampling.is_some()),
            roots: capabilities.is_some_and(|capabilities| capabilities.roots.is_some()),
        });
        let (way, rounds) = match current {
            false => (
                AskerWay::Peer(context.peer.clone(), input_end.clone()),
                None,
            ),
            true if declared.forms || declared.sampling || declared.roots => {
                let (sender, receiver) = mpsc::unbounded_channel();
                let gathered: Arc<Mutex<Vec<Asked>>> = Arc::default();
                let round = Round {
                    gathered: gathered.clone(),
                    rounds: sender,
                };
                (AskerWay::Rounds(gathered), Some((round, receiver)))
            }
            true => (AskerWay::Nowhere, None),
        };
        let asker = Arc::new(ClientAsker {
            way,
            declared,
            current,
            missing: Mutex::new(None),
        });
        Asking { asker, rounds }
    }

    /// The asker to put on the call's context.
    pub(crate) fn asker(&self) -> Arc<dyn Asker> {
        self.asker.clone()
    }

    /// What the call asked that its client did not declare, once it has ended.
    pub(crate) fn missing(&self) -> Missing {
        Missing(self.asker.clone())
    }

    /// For a call asked in rounds: where its requests gather, and where each round comes out.
    pub(crate) fn into_rounds(self) -> Option<(Round, mpsc::UnboundedReceiver<Vec<Asked>>)> {
        self.rounds
    }
}

/// A request on its way out of a call, with where its answer goes.
pub(crate) struct Asked {
    request: Outgoing,
    reply: oneshot::Sender<Result<Incoming, Refusal>>,
}

enum AskerWay {
    /// Where the call's requests gather until its future next waits (`rounds::Batched`).
    Rounds(Arc<Mutex<Vec<Asked>>>),
    /// Requests to the client, answered unless its input ends first.
    Peer(Peer<RoleServer>, InputEnd),
    Nowhere,
}

/// A call's asker over MCP: each request to its client, the way the client can take it.
pub(crate) struct ClientAsker {
    way: AskerWay,
    /// What the client declared it can answer.
    declared: Offers,
    current: bool,
    /// The first capability a 2026-07-28 call asked for that its client did not declare.
    missing: Mutex<Option<Capability>>,
}

impl ClientAsker {
    /// A refusal if the client did not declare `capability` (noted, for a 2026-07-28 request).
    fn check(&self, capability: Capability) -> Result<(), Refusal> {
        if capability.declared_in(self.declared) {
            return Ok(());
        }
        if self.current {
            self.missing
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(capability);
        }
        Err(Refusal::new(code::CANNOT_ASK, capability.undeclared()))
    }

    /// Puts `request` in the call's next round, which the client answers, and waits for it.
    async fn in_round(&self, request: Outgoing) -> Result<Incoming, Refusal> {
        let gone = || {
            Refusal::new(
                code::CANNOT_ASK,
                "the client's request is no longer waiting for this call's questions",
            )
        };
        let AskerWay::Rounds(gathered) = &self.way else {
            return Err(gone());
        };
        let (reply, replied) = oneshot::channel();
        gathered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Asked { request, reply });
        replied.await.map_err(|_| gone())?
    }
}

/// The client's answer to a request, or the transport's closing if the connection's input ends
/// first: the client can no longer answer, and rmcp's loop no longer sends.
async fn asked<T>(
    input_end: &InputEnd,
    request: impl Future<Output = Result<T, ServiceError>>,
) -> Result<T, ServiceError> {
    (input_end.before(request).await).unwrap_or(Err(ServiceError::TransportClosed))
}

/// A client's error answering a request it was sent. An error of the client's own code is its
/// refusal (`declined`, with its reason: MCP's user who rejects a sampling request is `-1`);
/// one of JSON-RPC's reserved codes says the request could not be handled (a method the client
/// does not have, an answer that could not be read), and so does anything else: it could not
/// be asked.
fn client_failed(what: &str, error: ServiceError) -> Refusal {
    match error {
        ServiceError::McpError(error) if !JSON_RPC_CODES.contains(&error.code.0) => Refusal::new(
            code::DECLINED,
            format!("the client declined {what}: {}", error.message),
        ),
        other => Refusal::new(
            code::CANNOT_ASK,
            format!("the client could not be asked {what}: {}", said(&other)),
        ),
    }
}

/// What `error` says: a client's JSON-RPC error by its message alone.
fn said(error: &ServiceError) -> std::borrow::Cow<'_, str> {
    match error {
        ServiceError::McpError(error) => std::borrow::Cow::Borrowed(&error.message),
        other => std::borrow::Cow::Owned(other.to_string()),
    }
}

/// The error codes JSON-RPC 2.0 reserves for itself.
const JSON_RPC_CODES: std::ops::RangeInclusive<i32> = -32768..=-32000;

fn wrong_answer(what: &str) -> Refusal {
    Refusal::new(
        code::CANNOT_ASK,
        format!("the client answered something other than {what}"),
    )
}

impl Asker for ClientAsker {
    fn offers(&self) -> Offers {
        // A client is asked nowhere only when it declared none of them.
        self.declared
    }

    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            self.check(Capability::Elicitation)?;
            let (peer, input_end) = match &self.way {
                AskerWay::Peer(peer, input_end) => (peer, input_end),
                _ => {
                    return match self.in_round(Outgoing::Form(question)).await? {
                        Incoming::Form(reply) => Ok(reply),
                        _ => Err(wrong_answer("a form's result")),
                    };
                }
            };
            let params =
                serde_json::from_value::<ElicitRequestParams>(wire::form_params(&question))
                    .map_err(unshowable)?;
            // Sent as rmcp's `create_elicitation` sends it, without its `elicitation` feature
            // (which builds the `url` crate for URL-mode elicitation, a mode not used here).
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            let answered = match asked(input_end, peer.send_request(request)).await {
                Ok(ClientResult::ElicitResult(answered)) => answered,
                Ok(_) => return Err(wrong_answer("a form's result")),
                Err(error) => {
                    return Err(Refusal::new(
                        code::CANNOT_ASK,
                        format!("the client could not ask its user: {}", said(&error)),
                    ));
                }
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

    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        Box::pin(async move {
            self.check(Capability::Sampling)?;
            let (peer, input_end) = match &self.way {
                AskerWay::Peer(peer, input_end) => (peer, input_end),
                _ => {
                    return match self.in_round(Outgoing::Sample(request)).await? {
                        Incoming::Sample(sampled) => Ok(sampled),
                        _ => Err(wrong_answer("a sampling result")),
                    };
                }
            };
            let params =
                serde_json::from_value(wire::sampling_params(&request)).map_err(unshowable)?;
            #[allow(deprecated)] // SEP-2577 deprecates sampling; 2025-11-25 clients take it.
            let result = asked(input_end, peer.create_message(params))
                .await
                .map_err(|error| client_failed("to sample its model", error))?;
            let result = serde_json::to_value(result).unwrap_or_default();
            wire::read_sampled(&result).map_err(|why| {
                Refusal::new(
                    code::CANNOT_ASK,
                    format!("the client's sampling result cannot be read: {why}"),
                )
            })
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        Box::pin(async move {
            self.check(Capability::Roots)?;
            let (peer, input_end) = match &self.way {
                AskerWay::Peer(peer, input_end) => (peer, input_end),
                _ => {
                    return match self.in_round(Outgoing::Roots).await? {
                        Incoming::Roots(roots) => Ok(roots),
                        _ => Err(wrong_answer("a list of roots")),
                    };
                }
            };
            #[allow(deprecated)] // SEP-2577 deprecates roots; 2025-11-25 clients take it.
            let listed = asked(input_end, peer.list_roots())
                .await
                .map_err(|error| client_failed("its roots", error))?;
            let listed = serde_json::to_value(listed).unwrap_or_default();
            wire::read_roots(&listed).map_err(|why| {
                Refusal::new(
                    code::CANNOT_ASK,
                    format!("the client's roots cannot be read: {why}"),
                )
            })
        })
    }
}
