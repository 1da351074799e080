//! One agent turn with genai's types: the note tools offered in a genai `ChatRequest`, a
//! model's turn asking for three tool calls, each answered through
//! `tool_core::adapters::genai`, and the follow-up request that carries the answers.
//!
//! The model is a script (its calls are the `ToolCall`s genai hands back from a response), so
//! this runs without a network or an API key. Of its three calls, one is good, one has bad
//! arguments and one asks for a tool this user was not granted; each answer is the registry's,
//! refusals in their text form, so the model can mend the call or choose another tool.
//!
//! It prints one `tool<TAB>name<TAB>first line of the answer` line per call, then the
//! follow-up request as genai holds it, ready for `Client::exec_chat` with any provider's
//! model. Run with `cargo run --example genai_agent`.

mod notes;

use genai::chat::{ChatMessage, ChatRequest, ContentPart, ToolCall, ToolResponse};
use notes::{NoteStore, granted};
use serde_json::json;
use tool_core::adapters::genai::{call_all, tools};
use tool_core::{Context, Registry};

/// The first request: the granted tools, in genai's types, and the user's words.
fn first_request(granted: &Registry) -> ChatRequest {
    ChatRequest::from_system("You keep the user's notes with the tools you are given.")
        .append_message(ChatMessage::user(
            "Note that I need milk, find my shopping notes, and tidy the index.",
        ))
        .with_tools(tools(granted).expect("the note tools export to OpenAI"))
}

/// The model's turn, as genai's `ChatResponse::into_tool_calls` gives it: three calls. The
/// second gives `tags` as a string and a `limit` past a `u8`; the third names a tool not
/// granted.
fn scripted_calls() -> Vec<ToolCall> {
    let call = |id: &str, name: &str, arguments| ToolCall {
        call_id: id.to_owned(),
        fn_name: name.to_owned(),
        fn_arguments: arguments,
        thought_signatures: None,
    };
    vec![
        call(
            "call_1",
            "note_write",
            json!({"text": "buy milk", "tags": ["shopping"]}),
        ),
        call(
            "call_2",
            "note_search",
            json!({"filter": {"tags": "shopping"}, "limit": 1000}),
        ),
        call("call_3", "note_reindex", json!({"pace_ms": 1})),
    ]
}

/// The whole turn: the first request, the model's calls run through the registry, and the
/// follow-up request with the model's turn and one message holding every answer.
async fn turn(granted: &Registry, ctx: &Context) -> ChatRequest {
    let calls = scripted_calls();
    let answers = call_all(granted, &calls, ctx).await;
    first_request(granted)
        .append_message(ChatMessage::from(calls))
        .append_message(ChatMessage::from(answers))
}

/// Every tool response of `request`, in order.
fn answers(request: &ChatRequest) -> Vec<&ToolResponse> {
    request
        .messages
        .iter()
        .flat_map(|message| message.content.parts())
        .filter_map(|part| match part {
            ContentPart::ToolResponse(response) => Some(response),
            _ => None,
        })
        .collect()
}

/// `tool<TAB>name<TAB>first line` for each tool response of `request`.
fn answer_lines(request: &ChatRequest) -> Vec<String> {
    notes::answer_lines(
        answers(request)
            .into_iter()
            .map(|response| (response.fn_name.as_deref(), response.content.as_str())),
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let granted = granted();
    // The caller and the store come from the host, never from the model.
    let ctx = Context::new()
        .with_caller("alice")
        .with_extension(NoteStore::default());
    let request = turn(&granted, &ctx).await;
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
    use tool_core::testing;

    use super::*;

    fn ctx() -> Context {
        Context::new()
            .with_caller("alice")
            .with_extension(NoteStore::default())
    }

    /// The text of the tool response answering `id`.
    fn answer(request: &ChatRequest, id: &str) -> String {
        answers(request)
            .into_iter()
            .find(|response| response.call_id == id)
            .map(|response| response.content.clone())
            .unwrap_or_else(|| panic!("no tool response answers {id}"))
    }

    #[tokio::test]
    async fn each_call_is_answered_with_what_the_registry_says() {
        let granted = granted();
        let request = turn(&granted, &ctx()).await;

        let written = testing::call_with(
            &granted,
            &ctx(),
            "note_write",
            json!({"text": "buy milk", "tags": ["shopping"]}),
        )
        .await;
        written.assert_json(json!({"id": 1, "revision": 1}));
        assert_eq!(answer(&request, "call_1"), written.text());

        let searched = testing::call(
            &granted,
            "note_search",
            json!({"filter": {"tags": "shopping"}, "limit": 1000}),
        )
        .await;
        searched.assert_refused("bad-arguments").assert_faults(&[
            (
                "filter.tags",
                "expected array of string, received \"shopping\"",
            ),
            (
                "limit",
                "expected u8 or null, received 1000, which is out of range",
            ),
        ]);
        assert_eq!(answer(&request, "call_2"), searched.text());

        let reindexed = testing::call(&granted, "note_reindex", json!({"pace_ms": 1})).await;
        reindexed
            .assert_refused("not-permitted")
            .assert_line("tools", &["note_write", "note_search", "note_count"]);
        assert_eq!(answer(&request, "call_3"), reindexed.text());
    }

    #[tokio::test]
    async fn the_follow_up_request_answers_every_call_in_order() {
        let request = turn(&granted(), &ctx()).await;
        let answered: Vec<(&str, Option<&str>)> = answers(&request)
            .into_iter()
            .map(|response| (response.call_id.as_str(), response.fn_name.as_deref()))
            .collect();
        assert_eq!(
            answered,
            [
                ("call_1", Some("note_write")),
                ("call_2", Some("note_search")),
                ("call_3", Some("note_reindex")),
            ]
        );
        let listed: Vec<&str> = request
            .tools
            .iter()
            .flatten()
            .map(|tool| tool.name.as_str())
            .collect();
        assert_eq!(listed, ["note_write", "note_search", "note_count"]);
        assert_eq!(
            answer_lines(&request)[2],
            "tool\tnote_reindex\trefused\tnot-permitted\t`note_reindex` is not granted to this \
             caller; call one of the tools listed"
        );
    }
}
