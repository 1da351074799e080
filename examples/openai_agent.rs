//! One agent turn with async-openai's types: the note tools offered in a chat completions
//! request, a model's reply asking for three tool calls, each answered through
//! `tool_core::adapters::async_openai`, and the follow-up request that carries the answers.
//!
//! The model is a script (the reply is the JSON the API would send back), so this runs
//! without a network or an API key. Of its three calls, one is good, one has bad arguments and
//! one asks for a tool this user was not granted; each answer is the registry's, refusals in
//! their text form, so the model can mend the call or choose another tool.
//!
//! It prints one `tool<TAB>name<TAB>first line of the answer` line per call, then the
//! follow-up request as async-openai sends it. Run with `cargo run --example openai_agent`.

mod notes;

use async_openai::types::chat::{
    ChatCompletionMessageToolCalls, ChatCompletionRequestAssistantMessage,
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestToolMessageContent,
    ChatCompletionRequestUserMessage, ChatCompletionRequestUserMessageContent,
    CreateChatCompletionRequest, CreateChatCompletionResponse,
};
use notes::{NoteStore, granted};
use tool_core::adapters::async_openai::{call_chat_all, chat_tools};
use tool_core::{Context, Registry};

/// The first request: the granted tools, in async-openai's types, and the user's words.
fn first_request(tools: &Registry) -> CreateChatCompletionRequest {
    let system = ChatCompletionRequestSystemMessage {
        content: ChatCompletionRequestSystemMessageContent::Text(
            "You keep the user's notes with the tools you are given.".to_owned(),
        ),
        name: None,
    };
    let user = ChatCompletionRequestUserMessage {
        content: ChatCompletionRequestUserMessageContent::Text(
            "Note that I need milk, find my shopping notes, and tidy the index.".to_owned(),
        ),
        name: None,
    };
    CreateChatCompletionRequest {
        model: "gpt-4.1".to_owned(),
        messages: vec![
            ChatCompletionRequestMessage::System(system),
            ChatCompletionRequestMessage::User(user),
        ],
        tools: Some(chat_tools(tools).expect("the note tools export to OpenAI")),
        ..CreateChatCompletionRequest::default()
    }
}

/// The model's reply, as the chat completions API sends it: three tool calls. The second
/// gives `tags` as a string and a `limit` past a `u8`; the third names a tool not granted.
const REPLY: &str = r#"{
  "id": "chatcmpl-scripted",
  "object": "chat.completion",
  "created": 1767225600,
  "model": "gpt-4.1",
  "choices": [{
    "index": 0,
    "finish_reason": "tool_calls",
    "message": {
      "role": "assistant",
      "content": null,
      "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "note_write",
         "arguments": "{\"text\":\"buy milk\",\"tags\":[\"shopping\"]}"}},
        {"id": "call_2", "type": "function", "function": {"name": "note_search",
         "arguments": "{\"filter\":{\"tags\":\"shopping\"},\"limit\":1000}"}},
        {"id": "call_3", "type": "function", "function": {"name": "note_reindex",
         "arguments": "{\"pace_ms\":1}"}}
      ]
    }
  }],
  "usage": {"prompt_tokens": 412, "completion_tokens": 71, "total_tokens": 483}
}"#;

/// The scripted reply's tool calls.
fn scripted_calls() -> Vec<ChatCompletionMessageToolCalls> {
    let reply: CreateChatCompletionResponse =
        serde_json::from_str(REPLY).expect("the scripted reply is a chat completion");
    reply
        .choices
        .into_iter()
        .flat_map(|choice| choice.message.tool_calls.unwrap_or_default())
        .collect()
}

/// The whole turn: the first request, the model's calls run through the registry, and the
/// follow-up request with the model's turn and one tool message per call.
async fn turn(tools: &Registry, ctx: &Context) -> CreateChatCompletionRequest {
    let mut request = first_request(tools);
    let calls = scripted_calls();
    let answers = call_chat_all(tools, &calls, ctx).await;
    request
        .messages
        .push(ChatCompletionRequestMessage::Assistant(
            ChatCompletionRequestAssistantMessage {
                tool_calls: Some(calls),
                ..ChatCompletionRequestAssistantMessage::default()
            },
        ));
    request.messages.extend(answers);
    request
}

/// `tool<TAB>name<TAB>first line` for each tool message of `request`, the name found from the
/// call it answers.
fn answer_lines(request: &CreateChatCompletionRequest) -> Vec<String> {
    let mut names = std::collections::HashMap::new();
    let mut answers = Vec::new();
    for message in &request.messages {
        match message {
            ChatCompletionRequestMessage::Assistant(assistant) => {
                for call in assistant.tool_calls.iter().flatten() {
                    if let ChatCompletionMessageToolCalls::Function(call) = call {
                        names.insert(call.id.as_str(), call.function.name.as_str());
                    }
                }
            }
            ChatCompletionRequestMessage::Tool(answer) => {
                let text = match &answer.content {
                    ChatCompletionRequestToolMessageContent::Text(text) => text.as_str(),
                    ChatCompletionRequestToolMessageContent::Array(_) => "",
                };
                answers.push((names.get(answer.tool_call_id.as_str()).copied(), text));
            }
            _ => {}
        }
    }
    notes::answer_lines(answers)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tools = granted();
    // The caller and the store come from the host, never from the model.
    let ctx = Context::new()
        .with_caller("alice")
        .with_extension(NoteStore::default());
    let request = turn(&tools, &ctx).await;
    for line in answer_lines(&request) {
        println!("{line}");
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&request).expect("the request serializes")
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tool_core::testing;

    use super::*;

    fn ctx() -> Context {
        Context::new()
            .with_caller("alice")
            .with_extension(NoteStore::default())
    }

    /// The text of the tool message answering `id`.
    fn answer(request: &CreateChatCompletionRequest, id: &str) -> String {
        request
            .messages
            .iter()
            .find_map(|message| match message {
                ChatCompletionRequestMessage::Tool(answer) if answer.tool_call_id == id => {
                    match &answer.content {
                        ChatCompletionRequestToolMessageContent::Text(text) => Some(text.clone()),
                        ChatCompletionRequestToolMessageContent::Array(_) => None,
                    }
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no tool message answers {id}"))
    }

    #[tokio::test]
    async fn each_call_is_answered_with_what_the_registry_says() {
        let tools = granted();
        let request = turn(&tools, &ctx()).await;

        let written = testing::call_with(
            &tools,
            &ctx(),
            "note_write",
            json!({"text": "buy milk", "tags": ["shopping"]}),
        )
        .await;
        written.assert_json(json!({"id": 1, "revision": 1}));
        assert_eq!(answer(&request, "call_1"), written.text());

        let searched = testing::call(
            &tools,
            "note_search",
            json!({"filter": {"tags": "shopping"}, "limit": 1000}),
        )
        .await;
        searched
            .assert_refused("bad-arguments")
            .assert_fault(
                "limit",
                "expected u8 or null, received 1000, which is out of range",
            )
            .assert_fault(
                "filter.tags",
                "expected array of string, received \"shopping\"",
            );
        assert_eq!(answer(&request, "call_2"), searched.text());

        let reindexed = testing::call(&tools, "note_reindex", json!({"pace_ms": 1})).await;
        reindexed
            .assert_refused("not-permitted")
            .assert_line("tools", &["note_write", "note_search", "note_count"]);
        assert_eq!(answer(&request, "call_3"), reindexed.text());
    }

    #[tokio::test]
    async fn the_follow_up_request_answers_every_call_in_order() {
        let request = turn(&granted(), &ctx()).await;
        let json = serde_json::to_value(&request).expect("the request serializes");
        let roles: Vec<&str> = json["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|message| message["role"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            roles,
            ["system", "user", "assistant", "tool", "tool", "tool"]
        );
        let ids: Vec<&Value> = json["messages"].as_array().expect("messages")[3..]
            .iter()
            .map(|message| &message["tool_call_id"])
            .collect();
        assert_eq!(ids, [&json!("call_1"), &json!("call_2"), &json!("call_3")]);
        let names: Vec<&str> = json["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|tool| tool["function"]["name"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(names, ["note_write", "note_search", "note_count"]);
        assert_eq!(
            answer_lines(&request)[2],
            "tool\tnote_reindex\trefused\tnot-permitted\t`note_reindex` is not granted to this \
             caller; call one of the tools listed"
        );
    }
}
