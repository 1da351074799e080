//! What a remote MCP server asks of, and tells, the caller whose call it is answering: its
//! questions (forms), sampling requests and requests for roots are put to the calling tool's
//! [`Context`] — whether they come as 2026-07-28 `input_required` rounds, answered on the
//! call's retry, or as 2025-11-25 requests to the client — and its progress reaches that
//! context's listener.
//!
//! A 2026-07-28 round comes back inside the call's own result, so it is always its caller's.
//! Progress names its call by the token rmcp sent it with; rmcp hands each notification to its
//! own task, so a report can be heard just after its call returned, and the last calls'
//! contexts are kept for it. A 2025-11-25 request names no call, but its call waits for the
//! answer, so it is passed on while exactly one call is in flight on the connection (a call
//! is in flight from before its request is sent); with several it is refused, never put to a
//! caller it may not belong to. A log message names no
//! call and waits for nothing, so it could reach the wrong caller: it goes to the host's
//! `tracing` log instead, with the server's name.

// SEP-2577 deprecates sampling, roots and logging; both revisions served still have them.
#![allow(deprecated)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData as McpError;
use rmcp::handler::client::ClientHandler;
use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, InputRequests, InputResponses, ListRootsResult, LoggingMessageNotificationParam,
    NumberOrString, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use tokio::sync::watch;
use tool_core::call::{LogLevel, Question, Reply, Role, SamplingMessage, SamplingRequest};
use tool_core::{Context, Refusal, code};

use crate::ask::wire::text_of;

/// The calls in flight on one connection, each with the context its caller gave it, and the
/// last ones finished, for their late progress. A call is entered before its request is sent,
/// so that whatever the server sends for it finds it; its progress token, which rmcp gives the
/// request as it is sent, is known just after.
#[derive(Default)]
pub(crate) struct InFlight {
    calls: Mutex<Calls>,
    /// Told each time a call learns its token.
    tokens: tokio::sync::Notify,
}

#[derive(Default)]
struct Calls {
    next: u64,
    flying: HashMap<u64, (Option<String>, Context)>,
    finished: VecDeque<(String, Context)>,
}

/// How many finished calls' contexts are kept for progress heard after their answer.
const FINISHED_KEPT: usize = 32;

/// How long a progress report whose token no call has yet waits for its call to learn it: the
/// moment between rmcp sending the request and giving back its token.
const TOKEN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// One call's place in [`InFlight`], left when it is dropped.
pub(crate) struct Flying {
    flights: Arc<InFlight>,
    id: u64,
}

impl Flying {
    /// The progress token rmcp sent the call's request with.
    pub(crate) fn sent_with(&self, token: &ProgressToken) {
        if let Some((known, _)) = self.flights.lock().flying.get_mut(&self.id) {
            *known = Some(token_text(token));
        }
        self.flights.tokens.notify_waiters();
    }
}

impl Drop for Flying {
    fn drop(&mut self) {
        let mut calls = self.flights.lock();
        if let Some((Some(token), ctx)) = calls.flying.remove(&self.id) {
            if calls.finished.len() == FINISHED_KEPT {
                calls.finished.pop_front();
            }
            calls.finished.push_back((token, ctx));
        }
    }
}

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, Calls> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters a call made with `ctx`, before its request is sent.
    pub(crate) fn enter(self: &Arc<Self>, ctx: &Context) -> Flying {
        let mut calls = self.lock();
        calls.next += 1;
        let id = calls.next;
        calls.flying.insert(id, (None, ctx.clone()));
        Flying {
            flights: self.clone(),
            id,
        }
    }

    /// The context of the one call in flight, if there is exactly one.
    fn only(&self) -> Option<Context> {
        let calls = self.lock();
        match calls.flying.len() {
            1 => calls.flying.values().next().map(|(_, ctx)| ctx.clone()),
            _ => None,
        }
    }

    fn by_token(&self, token: &str) -> Option<Context> {
        let calls = self.lock();
        let flying = calls
            .flying
            .values()
            .find(|(known, _)| known.as_deref() == Some(token));
        flying.map(|(_, ctx)| ctx.clone()).or_else(|| {
            calls
                .finished
                .iter()
                .find(|(finished, _)| *finished == token)
                .map(|(_, ctx)| ctx.clone())
        })
    }

    /// The context of the call `token` names, waiting a moment for a call just sent to learn
    /// its token.
    async fn by_token_soon(&self, token: &ProgressToken) -> Option<Context> {
        let token = token_text(token);
        let found = async {
            loop {
                let told = self.tokens.notified();
                if let Some(ctx) = self.by_token(&token) {
                    return ctx;
                }
                told.await;
            }
        };
        tokio::time::timeout(TOKEN_WAIT, found).await.ok()
    }
}

/// A progress token as text, `7` and `"7"` apart.
fn token_text(token: &ProgressToken) -> String {
    match &token.0 {
        NumberOrString::Number(number) => number.to_string(),
        NumberOrString::String(text) => format!("\"{text}\""),
    }
}

/// The client side of a remote toolkit's connection: it declares forms, sampling and roots
/// (each answered by whoever the calling context reaches), and passes on what the server
/// sends while a call is in flight.
#[derive(Clone)]
pub(crate) struct Forwarder {
    /// The toolkit's name, for the host's log.
    pub(crate) server: String,
    pub(crate) calls: Arc<InFlight>,
    pub(crate) info: ClientConfig,
    /// Counts the server's `notifications/tools/list_changed`.
    pub(crate) tools_changed: Arc<watch::Sender<u64>>,
}

impl Forwarder {
    /// The one call a 2025-11-25 request can belong to, or the error the server is sent.
    fn only_caller(&self, what: &str) -> Result<Context, McpError> {
        self.calls.only().ok_or_else(|| {
            McpError::invalid_request(
                format!(
                    "{what} can be passed on only while exactly one call is in flight on this \
                     connection, since a 2025-11-25 request does not say which call it belongs \
                     to; connect the toolkit with `Revision::V2026_07_28`, where it comes with \
                     its call, or make one call at a time"
                ),
                None,
            )
        })
    }
}

impl Forwarder {
    /// A 2025-11-25 request (`what`, `method` with `params`) put to the one call in flight, and
    /// its answer as rmcp's result for the method.
    async fn forwarded<T: DeserializeOwned>(
        &self,
        what: &str,
        key: &str,
        method: &str,
        params: Value,
    ) -> Result<T, McpError> {
        let ctx = self.only_caller(what)?;
        let answer = answer(&ctx, key, method, &params).await.map_err(refused)?;
        retyped(answer)
    }
}

/// A refusal as the error a 2025-11-25 server is answered with.
fn refused(refusal: Refusal) -> McpError {
    McpError::internal_error(refusal.to_string(), None)
}

/// rmcp's params read as JSON, and an answer written as JSON read as rmcp's result.
fn retyped<T: DeserializeOwned>(value: Value) -> Result<T, McpError> {
    serde_json::from_value(value).map_err(|error| McpError::internal_error(error.to_string(), None))
}

fn params_of(params: impl serde::Serialize) -> Result<Value, McpError> {
    serde_json::to_value(params).map_err(|error| McpError::internal_error(error.to_string(), None))
}

impl ClientHandler for Forwarder {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let params = params_of(request)?;
        self.forwarded("a question", "question", "elicitation/create", params)
            .await
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        let params = params_of(params)?;
        self.forwarded(
            "a sampling request",
            "sampling",
            "sampling/createMessage",
            params,
        )
        .await
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, McpError> {
        self.forwarded("a request for roots", "roots", "roots/list", json!({}))
            .await
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(ctx) = self.calls.by_token_soon(&params.progress_token).await {
            ctx.progress(params.progress, params.total, params.message.as_deref());
        }
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let level = crate::convert::log_level(params.level);
        let (logger, data) = (params.logger.unwrap_or_default(), params.data);
        match level {
            LogLevel::Debug => tracing::debug!(server = %self.server, %logger, %data),
            LogLevel::Info | LogLevel::Notice => {
                tracing::info!(server = %self.server, %logger, %data)
            }
            LogLevel::Warning => tracing::warn!(server = %self.server, %logger, %data),
            _ => tracing::error!(server = %self.server, %logger, level = %level, %data),
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.send_modify(|changes| *changes += 1);
    }
}

/// The answers to one 2026-07-28 round, each asked of `ctx` at once, keyed as they were asked.
pub(crate) async fn answer_round(
    ctx: &Context,
    requests: InputRequests,
) -> Result<InputResponses, Refusal> {
    let asked = requests.into_iter().map(|(key, request)| async move {
        let written = serde_json::to_value(&request).map_err(|error| {
            Refusal::failed(format!(
                "the server's request `{key}` is unreadable: {error}"
            ))
        })?;
        let method = written["method"].as_str().unwrap_or_default();
        let answer = answer(ctx, &key, method, &written["params"]).await?;
        Ok::<_, Refusal>((key, answer))
    });
    futures::future::try_join_all(asked)
        .await
        .map(|answers| answers.into_iter().collect())
}

/// Asks `ctx` what the server asked for (`method` with `params`, keyed `key`), and writes the
/// answer as MCP's result for that method.
async fn answer(ctx: &Context, key: &str, method: &str, params: &Value) -> Result<Value, Refusal> {
    match method {
        "elicitation/create" => {
            let question = question_of(key, params)?;
            Ok(match ctx.ask_form(question).await? {
                Reply::Accept(values) => json!({"action": "accept", "content": values}),
                Reply::Decline => json!({"action": "decline"}),
                Reply::Cancel => json!({"action": "cancel"}),
            })
        }
        "sampling/createMessage" => {
            let sampled = ctx.sample(sampling_of(params)?).await?;
            let mut answer = json!({
                "role": "assistant",
                "content": {"type": "text", "text": sampled.text},
                "model": sampled.model,
            });
            if let Some(reason) = sampled.stop_reason {
                answer["stopReason"] = reason.into();
            }
            Ok(answer)
        }
        "roots/list" => {
            let roots: Vec<Value> = ctx
                .roots()
                .await?
                .into_iter()
                .map(|root| match root.name {
                    Some(name) => json!({"uri": root.uri, "name": name}),
                    None => json!({"uri": root.uri}),
                })
                .collect();
            Ok(json!({"roots": roots}))
        }
        other => Err(cannot_pass_on(format!(
            "the server asks for `{other}`, which a remote toolkit cannot pass on"
        ))),
    }
}

fn cannot_pass_on(why: String) -> Refusal {
    Refusal::new(code::CANNOT_ASK, why)
}

/// An `elicitation/create`'s params as a question named `key`; a URL-mode one cannot be put.
fn question_of(key: &str, params: &Value) -> Result<Question, Refusal> {
    if params["mode"] == "url" {
        return Err(cannot_pass_on(format!(
            "the server asks the caller to open {}, and a remote toolkit passes on forms only",
            params["url"]
        )));
    }
    let form = match &params["requestedSchema"] {
        Value::Object(form) => form.clone(),
        _ => Map::new(),
    };
    Ok(Question {
        name: key.to_owned(),
        message: params["message"].as_str().unwrap_or_default().to_owned(),
        form,
    })
}

/// A `sampling/createMessage`'s params as a sampling request: text messages only.
fn sampling_of(params: &Value) -> Result<SamplingRequest, Refusal> {
    let Some(messages) = params["messages"].as_array() else {
        return Err(cannot_pass_on(
            "the server's sampling request has no `messages`".to_owned(),
        ));
    };
    let messages = messages
        .iter()
        .enumerate()
        .map(|(at, message)| {
            let role = match message["role"].as_str() {
                Some("assistant") => Role::Assistant,
                _ => Role::User,
            };
            // Only text can be passed on.
            let text = text_of(&message["content"]).map_err(|_| {
                cannot_pass_on(format!(
                    "message {at} of the server's sampling request is not text, and a remote \
                     toolkit passes on text only"
                ))
            })?;
            Ok(SamplingMessage { role, text })
        })
        .collect::<Result<Vec<_>, Refusal>>()?;
    let max_tokens = params["maxTokens"]
        .as_u64()
        .and_then(|max| u32::try_from(max).ok())
        .unwrap_or(SamplingRequest::DEFAULT_MAX_TOKENS);
    Ok(SamplingRequest {
        messages,
        system_prompt: params["systemPrompt"].as_str().map(str::to_owned),
        max_tokens,
        temperature: params["temperature"].as_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::wire::{read_roots, read_sampled};
    use tool_core::call::{Root, Sampled};

    struct Answers;

    impl tool_core::call::Asker for Answers {
        fn ask(
            &self,
            question: Question,
        ) -> tool_core::call::BoxFuture<'_, Result<Reply, Refusal>> {
            Box::pin(async move {
                let mut values = Map::new();
                values.insert("asked".to_owned(), question.name.into());
                Ok(Reply::Accept(values))
            })
        }

        fn sample(
            &self,
            request: SamplingRequest,
        ) -> tool_core::call::BoxFuture<'_, Result<Sampled, Refusal>> {
            Box::pin(async move {
                Ok(Sampled {
                    text: format!("{} messages", request.messages.len()),
                    model: "m".to_owned(),
                    stop_reason: None,
                })
            })
        }

        fn roots(&self) -> tool_core::call::BoxFuture<'_, Result<Vec<Root>, Refusal>> {
            Box::pin(async {
                Ok(vec![Root {
                    uri: "file:///work".to_owned(),
                    name: None,
                }])
            })
        }
    }

    #[tokio::test]
    async fn each_request_is_put_to_the_calling_context_and_answered_as_mcp_writes_it() {
        let ctx = Context::new().with_asker(Answers);
        let form = answer(
            &ctx,
            "title",
            "elicitation/create",
            &json!({"mode": "form", "message": "Title?", "requestedSchema": {"type": "object"}}),
        )
        .await
        .unwrap();
        assert_eq!(
            form,
            json!({"action": "accept", "content": {"asked": "title"}})
        );
        let sampled = answer(
            &ctx,
            "sampling",
            "sampling/createMessage",
            &json!({"messages": [
                {"role": "user", "content": {"type": "text", "text": "a"}},
                {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
            ], "maxTokens": 10}),
        )
        .await
        .unwrap();
        assert_eq!(read_sampled(&sampled).unwrap().text, "2 messages");
        let roots = answer(&ctx, "roots", "roots/list", &json!({}))
            .await
            .unwrap();
        assert_eq!(read_roots(&roots).unwrap()[0].uri, "file:///work");

        let url = answer(
            &ctx,
            "question",
            "elicitation/create",
            &json!({"mode": "url", "url": "https://x", "message": "go"}),
        )
        .await
        .unwrap_err();
        assert!(url.to_string().contains("passes on forms only"), "{url}");
        let nobody = answer(&Context::new(), "roots", "roots/list", &json!({}))
            .await
            .unwrap_err();
        assert_eq!(nobody.code, code::CANNOT_ASK);
    }
}
