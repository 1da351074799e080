//! The asker of a call run as a task: each of its questions becomes one of the task's
//! `inputRequests`, answered by the client's `tasks/update`.

use std::sync::atomic::{AtomicU64, Ordering};

use std::sync::{Mutex, PoisonError};

use rmcp::model::{InputRequest, InputResponses};
use rmcp::task_manager::{TaskContext, TaskExit};
use serde_json::{Value, json};
use tokio::sync::watch;
use tool_core::call::{BoxFuture, Question, Reply};
use tool_core::{Asker, Refusal, code};

/// The asker of a call run as a task: each question becomes one of the task's
/// `inputRequests` (an `elicitation/create` form), and the task waits, `input_required`, for
/// the answer a `tasks/update` brings.
pub(super) struct InTask {
    /// The task, once the manager has made it (a question may come first, and waits).
    pub(super) task: watch::Receiver<Option<TaskContext>>,
    /// Numbers the questions, as each key names one question for the task's whole life.
    pub(super) keys: AtomicU64,
    /// Answers the request that started the task brought (a round answered before the call
    /// became a task), by question name: a question whose answer is here is not put again.
    pub(super) offered: Mutex<InputResponses>,
}

impl Asker for InTask {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            let offered = self
                .offered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&question.name);
            if let Some(answer) = offered {
                return reply_of(answer);
            }
            let mut task = self.task.clone();
            let task = match task.wait_for(Option::is_some).await {
                Ok(task) => task.clone(),
                Err(_) => None,
            };
            let Some(task) = task else {
                return Err(Refusal::new(
                    code::CANNOT_ASK,
                    "the task ended before its question could be put; go on without an answer",
                ));
            };
            let request = json!({
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": question.message,
                    "requestedSchema": question.form,
                },
            });
            let request: InputRequest = serde_json::from_value(request).map_err(|error| {
                Refusal::new(
                    code::CANNOT_ASK,
                    format!("the question cannot be put to an MCP client as a form: {error}"),
                )
            })?;
            let key = format!("ask-{}", self.keys.fetch_add(1, Ordering::Relaxed) + 1);
            match task.request_input(key, request).await {
                Ok(answer) => reply_of(answer),
                Err(TaskExit::Cancelled) => Err(Refusal::cancelled()),
                Err(TaskExit::Error(error)) => Err(Refusal::new(
                    code::CANNOT_ASK,
                    format!("the question could not be put: {}", error.message),
                )),
            }
        })
    }
}

/// An elicitation result, as a `tasks/update` carries it, read as a reply.
pub(super) fn reply_of(answer: Value) -> Result<Reply, Refusal> {
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => match answer.get("content") {
            Some(Value::Object(content)) => Ok(Reply::Accept(content.clone())),
            None | Some(Value::Null) => Ok(Reply::Accept(serde_json::Map::new())),
            Some(_) => Err(bad_answer()),
        },
        Some("decline") => Ok(Reply::Decline),
        Some("cancel") => Ok(Reply::Cancel),
        _ => Err(bad_answer()),
    }
}

fn bad_answer() -> Refusal {
    Refusal::new(
        code::BAD_ANSWER,
        "the answer is not an elicitation result: expected {\"action\": \"accept\", \
         \"content\": {...}}, or an action of \"decline\" or \"cancel\"",
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tool_core::code;

    use super::*;

    #[test]
    fn answers_are_read_as_replies_and_anything_else_is_a_bad_answer() {
        let accepted = reply_of(json!({"action": "accept", "content": {"value": true}}));
        let mut values = serde_json::Map::new();
        values.insert("value".into(), true.into());
        assert_eq!(accepted, Ok(Reply::Accept(values)));
        assert_eq!(reply_of(json!({"action": "decline"})), Ok(Reply::Decline));
        assert_eq!(reply_of(json!({"action": "cancel"})), Ok(Reply::Cancel));
        for bad in [
            json!(7),
            json!({"action": "maybe"}),
            json!({"action": "accept", "content": 3}),
        ] {
            assert_eq!(reply_of(bad).unwrap_err().code, code::BAD_ANSWER);
        }
    }
}
