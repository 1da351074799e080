//! What a call asks of its client, and what comes back, as MCP writes them: a form as an
//! `elicitation/create`, a sampling request as a `sampling/createMessage`, a request for the
//! client's roots as a `roots/list`, each as a 2026-07-28 input request keyed in
//! `inputRequests`; and the answers read back from a retry's `inputResponses` (or from a
//! 2025-11-25 client's answer to the same request), each checked for the shape asked for.

use rmcp::model::InputRequest;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tool_core::call::{Question, Reply, Root, Sampled, SamplingRequest};
use tool_core::{Refusal, code};

/// One thing a call asks of its client.
pub(crate) enum Outgoing {
    /// A form for its user.
    Form(Question),
    /// A message from its model.
    Sample(SamplingRequest),
    /// Its roots.
    Roots,
}

/// The client's answer to an [`Outgoing`] of the same kind.
pub(crate) enum Incoming {
    Form(Reply),
    Sample(Sampled),
    Roots(Vec<Root>),
}

/// The kind of an [`Outgoing`], which its answer must match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Form,
    Sample,
    Roots,
}

impl Kind {
    /// What the answer to the request keyed `key` is, for an error that says what to send.
    fn shape(self, key: &str) -> String {
        match self {
            Kind::Form => format!(
                "send inputResponses {{\"{key}\": {{\"action\": \"accept\", \"content\": \
                 {{...}}}}}}, or an action of \"decline\" or \"cancel\""
            ),
            Kind::Sample => format!(
                "send inputResponses {{\"{key}\": {{\"role\": \"assistant\", \"content\": \
                 {{\"type\": \"text\", \"text\": \"...\"}}, \"model\": \"...\"}}}}"
            ),
            Kind::Roots => format!(
                "send inputResponses {{\"{key}\": {{\"roots\": [{{\"uri\": \"file:///...\"}}]}}}}"
            ),
        }
    }
}

impl Outgoing {
    /// The key the request has in `inputRequests`, and its answer in `inputResponses`: a
    /// question's name (its type's), `sampling`, `roots`. A round that holds two of a key
    /// numbers the others (`sampling_2`).
    pub(crate) fn key(&self) -> &str {
        match self {
            Outgoing::Form(question) if !question.name.is_empty() => &question.name,
            Outgoing::Form(_) => "question",
            Outgoing::Sample(_) => "sampling",
            Outgoing::Roots => "roots",
        }
    }

    pub(crate) fn kind(&self) -> Kind {
        match self {
            Outgoing::Form(_) => Kind::Form,
            Outgoing::Sample(_) => Kind::Sample,
            Outgoing::Roots => Kind::Roots,
        }
    }

    /// The request as a 2026-07-28 input request, or why a client cannot be sent it.
    pub(crate) fn input_request(&self) -> Result<InputRequest, Refusal> {
        let request = match self {
            Outgoing::Form(question) => json!({
                "method": "elicitation/create",
                "params": form_params(question),
            }),
            Outgoing::Sample(request) => json!({
                "method": "sampling/createMessage",
                "params": sampling_params(request),
            }),
            Outgoing::Roots => json!({"method": "roots/list", "params": {}}),
        };
        serde_json::from_value(request).map_err(unshowable)
    }
}

/// A question's `elicitation/create` params, in form mode.
pub(crate) fn form_params(question: &Question) -> Value {
    json!({
        "mode": "form",
        "message": question.message,
        "requestedSchema": question.form,
    })
}

/// A sampling request's `sampling/createMessage` params: its messages as text blocks.
pub(crate) fn sampling_params(request: &SamplingRequest) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|message| {
            json!({"role": message.role, "content": {"type": "text", "text": message.text}})
        })
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(prompt) = &request.system_prompt {
        params["systemPrompt"] = prompt.as_str().into();
    }
    if let Some(temperature) = request.temperature {
        params["temperature"] = temperature.into();
    }
    params
}

/// A request MCP's schema does not take (a form `format` it does not know, say).
pub(crate) fn unshowable(error: serde_json::Error) -> Refusal {
    Refusal::new(
        code::CANNOT_ASK,
        format!("the request is not one an MCP client can be sent: {error}"),
    )
}

/// A `sampling/createMessage` result: its text blocks' text, its model and stop reason.
pub(crate) fn read_sampled(result: &Value) -> Result<Sampled, String> {
    let model = result["model"]
        .as_str()
        .ok_or("it has no `model` (text)")?
        .to_owned();
    if result["role"] != "assistant" {
        return Err("its `role` is not \"assistant\"".to_owned());
    }
    Ok(Sampled {
        text: text_of(&result["content"])?,
        model,
        stop_reason: result["stopReason"].as_str().map(str::to_owned),
    })
}

/// A sampling message's `content`, one block or (since 2025-11-25) a list of them: its text
/// blocks' text, one after the other.
pub(crate) fn text_of(content: &Value) -> Result<String, String> {
    let blocks = match content {
        Value::Array(blocks) => blocks.iter().collect::<Vec<_>>(),
        block @ Value::Object(_) => vec![block],
        _ => return Err("its `content` is neither a content block nor a list of them".to_owned()),
    };
    let texts: Vec<&str> = blocks
        .iter()
        .filter(|block| block["type"] == "text")
        .filter_map(|block| block["text"].as_str())
        .collect();
    if texts.is_empty() {
        return Err("its `content` holds no text block".to_owned());
    }
    Ok(texts.concat())
}

/// A `roots/list` result: each root's URI and name.
pub(crate) fn read_roots(result: &Value) -> Result<Vec<Root>, String> {
    let Some(roots) = result["roots"].as_array() else {
        return Err("it has no `roots` list".to_owned());
    };
    roots
        .iter()
        .enumerate()
        .map(|(at, root)| {
            let uri = root["uri"]
                .as_str()
                .ok_or_else(|| format!("`roots[{at}]` has no `uri` (text)"))?;
            Ok(Root {
                uri: uri.to_owned(),
                name: root["name"].as_str().map(str::to_owned),
            })
        })
        .collect()
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

/// The answer to the request keyed `key` (of kind `kind`) in a retry's `inputResponses`, or
/// what is wrong with it and what to send instead.
pub(crate) fn read_one(kind: Kind, key: &str, answer: &Value) -> Result<Incoming, String> {
    let read = match kind {
        Kind::Form => read_form_answer(key, answer).map(Incoming::Form),
        Kind::Sample => read_sampled(answer)
            .map(Incoming::Sample)
            .map_err(|why| format!("`{key}` is not a sampling result: {why}")),
        Kind::Roots => read_roots(answer)
            .map(Incoming::Roots)
            .map_err(|why| format!("`{key}` is not a roots result: {why}")),
    };
    read.map_err(|problem| format!("{problem}; {}", kind.shape(key)))
}

fn read_form_answer(key: &str, answer: &Value) -> Result<Reply, String> {
    if !answer.is_object() {
        return Err(format!(
            "`{key}` is not an elicitation result (an object holding `action`)"
        ));
    }
    let answered = Answered::deserialize(answer)
        .map_err(|error| format!("`{key}` is not an elicitation result: {error}"))?;
    match (answered.action.as_str(), answered.content) {
        ("accept", Some(Value::Object(values))) => Ok(Reply::Accept(values)),
        ("accept", None) => Ok(Reply::Accept(Map::new())),
        ("accept", Some(_)) => Err(format!(
            "the `content` of `{key}` must be an object of the form's fields"
        )),
        ("decline", _) => Ok(Reply::Decline),
        ("cancel", _) => Ok(Reply::Cancel),
        (other, _) => Err(format!(
            "`{other}` is no action; the action is \"accept\", \"decline\" or \"cancel\""
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_must_be_an_elicitation_result() {
        let accepted = read_one(
            Kind::Form,
            "question",
            &json!({"action": "accept", "content": {"title": "x"}}),
        );
        assert!(
            matches!(accepted, Ok(Incoming::Form(Reply::Accept(values))) if values["title"] == "x")
        );
        assert!(matches!(
            read_one(Kind::Form, "question", &json!({"action": "decline"})),
            Ok(Incoming::Form(Reply::Decline))
        ));
        for (wrong, says) in [
            (json!("yes"), "not an elicitation result"),
            (json!({"action": "maybe"}), "`maybe` is no action"),
            (
                json!({"action": "accept", "content": [1]}),
                "must be an object",
            ),
        ] {
            let Err(problem) = read_one(Kind::Form, "question", &wrong) else {
                panic!("{wrong} was read as an answer");
            };
            assert!(problem.contains(says), "{wrong}: {problem}");
            assert!(
                problem.contains("send inputResponses {\"question\""),
                "{problem}"
            );
        }
    }

    #[test]
    fn a_sampling_result_and_a_roots_result_are_read_and_checked() {
        let sampled = read_one(
            Kind::Sample,
            "sampling",
            &json!({"role": "assistant", "model": "m",
                "content": {"type": "text", "text": "Paris"}, "stopReason": "endTurn"}),
        );
        assert!(
            matches!(sampled, Ok(Incoming::Sample(Sampled { ref text, .. })) if text == "Paris")
        );
        let listed = read_roots(
            &json!({"roots": [{"uri": "file:///a", "name": "a"}, {"uri": "file:///b"}]}),
        );
        assert_eq!(
            listed,
            Ok(vec![
                Root {
                    uri: "file:///a".into(),
                    name: Some("a".into())
                },
                Root {
                    uri: "file:///b".into(),
                    name: None
                },
            ])
        );
        for (kind, wrong, says) in [
            (
                Kind::Sample,
                json!({"role": "assistant", "content": {"type": "text", "text": "x"}}),
                "no `model`",
            ),
            (
                Kind::Sample,
                json!({"role": "assistant", "model": "m", "content": {"type": "image"}}),
                "no text block",
            ),
            (
                Kind::Roots,
                json!({"roots": [{"name": "a"}]}),
                "`roots[0]` has no `uri`",
            ),
        ] {
            let Err(problem) = read_one(kind, "k", &wrong) else {
                panic!("{wrong} was read as an answer");
            };
            assert!(problem.contains(says), "{wrong}: {problem}");
            assert!(problem.contains("send inputResponses {\"k\""), "{problem}");
        }
    }

    #[test]
    fn each_request_becomes_its_input_request_under_its_key() {
        let form = tool_core::run::form_for::<bool>().unwrap();
        let question = Outgoing::Form(Question {
            name: "confirm".into(),
            message: "Sure?".into(),
            form,
        });
        assert_eq!(question.key(), "confirm");
        let wire = serde_json::to_value(question.input_request().unwrap()).unwrap();
        assert_eq!(wire["method"], "elicitation/create");
        assert_eq!(wire["params"]["message"], "Sure?");
        assert_eq!(
            wire["params"]["requestedSchema"]["properties"]["value"]["type"],
            "boolean"
        );
        let sampling =
            Outgoing::Sample(SamplingRequest::new("Capital of France?").with_max_tokens(100));
        assert_eq!(sampling.key(), "sampling");
        let wire = serde_json::to_value(sampling.input_request().unwrap()).unwrap();
        assert_eq!(wire["method"], "sampling/createMessage");
        assert_eq!(
            wire["params"],
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 100})
        );
        let roots = serde_json::to_value(Outgoing::Roots.input_request().unwrap()).unwrap();
        assert_eq!(roots["method"], "roots/list");
    }
}
