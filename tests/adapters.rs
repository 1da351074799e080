//! The same answer reaches a model through every adapter as through MCP: for a good call, bad
//! arguments, a handler's refusal, a tool the grant leaves out, a tool that does not exist and
//! arguments that are not JSON, what rig's `ToolSet`, async-openai's tool message and
//! `function_call_output`, genai's `ToolResponse` and an MCP client are shown is the text of
//! the registry's own answer, the refusal's rows and all, where the framework hands the call
//! on. No framework but async-openai hands on arguments that are not JSON, and rig answers
//! them and an unknown tool itself, with a failed result of its own, which is checked too.

use ::async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionRequestToolMessageContent, FunctionCall,
};
use ::async_openai::types::responses::{FunctionCallOutput, FunctionToolCall};
use rig_agent::tool::ToolSet;
use rig_core::tool::{ToolContext, ToolErrorKind};
use serde_json::{Value, json};
use tool_core::adapters::{async_openai, genai, rig};
use tool_core::call::Arguments;
use tool_core::{Context, Grant, Refusal, Registry, ToolCall, registry, tool};
use tool_tests::genai_call;

/// Writes a note.
#[tool(name = "note_write", destructive)]
async fn note_write(
    /// The note's text.
    #[schemars(length(min = 1, max = 20))]
    text: String,
    /// The revision the caller last read.
    revision: Option<u64>,
) -> Result<String, Refusal> {
    match revision {
        Some(0) | None => Ok(format!("saved {} bytes", text.len())),
        Some(_) => Err(Refusal::new("conflict", "the note has moved on").line("revision", ["0"])),
    }
}

/// Deletes every note.
#[tool(name = "note_purge", destructive)]
async fn note_purge() -> String {
    "purged".to_owned()
}

/// The calls, each as a model sends it: a name and its arguments' text.
const CALLS: [(&str, &str); 6] = [
    ("note_write", r#"{"text":"buy milk"}"#),
    ("note_write", r#"{"text":"","revision":"one","colour":1}"#),
    ("note_write", r#"{"text":"oat","revision":3}"#),
    ("note_purge", "{}"),
    ("note_wirte", r#"{"text":"a"}"#),
    ("note_write", r#"{"text": "#),
];

/// The registry as a caller granted only `note_write` sees it.
fn granted() -> Registry {
    registry![NoteWrite, NotePurge].scoped(Grant::new().tool("note_write"))
}

/// What the registry itself answers each call with, as text.
async fn registry_texts(registry: &Registry) -> Vec<String> {
    let mut texts = Vec::new();
    for (name, arguments) in CALLS {
        let call = ToolCall::new("call_1", name, Arguments::from_text(arguments));
        texts.push(registry.call(call, &Context::default()).await.text());
    }
    texts
}

#[tokio::test]
async fn every_adapter_shows_the_model_the_registry_s_own_text() {
    let registry = granted();
    let expected = registry_texts(&registry).await;
    // The cases are what they say: a good call, then refusals of each kind.
    let codes: Vec<Option<String>> = expected
        .iter()
        .map(|text| Refusal::parse(text).map(|refusal| refusal.code))
        .collect();
    assert_eq!(
        codes,
        [
            None,
            Some("bad-arguments".to_owned()),
            Some("conflict".to_owned()),
            Some("not-permitted".to_owned()),
            Some("unknown-tool".to_owned()),
            Some("bad-arguments".to_owned()),
        ]
    );
    assert!(
        expected[1].contains("fault\tcolour\tunknown field"),
        "{}",
        expected[1]
    );

    // rig: a ToolSet of every tool, the grant applied per call, as a host serving many callers
    // does; what the model is shown is the result's model-visible output.
    let rig_tools = rig::RigTools::new(&registry![NoteWrite, NotePurge])
        .grant(Grant::new().tool("note_write"))
        .tools()
        .expect("the tools export");
    let toolset = ToolSet::from_dynamic_tools(rig_tools);
    for ((name, arguments), expected) in CALLS.iter().zip(&expected) {
        let mut context = ToolContext::new();
        let result = toolset.execute(name, *arguments, &mut context).await;
        let shown = result.output().render();
        // rig answers a tool it was not given, and arguments that are not JSON, itself, before
        // any tool is asked (its dynamic tools take the arguments parsed): a failed result of
        // rig's own kind and text, with no refusal's code, rather than the registry's
        // `unknown-tool` or `bad-arguments`.
        let by_rig = match (*name, serde_json::from_str::<Value>(arguments)) {
            ("note_wirte", _) => Some((ToolErrorKind::NotFound, "tool `note_wirte` not found")),
            (_, Err(_)) => Some((
                ToolErrorKind::InvalidArgs,
                "failed to parse tool arguments: ",
            )),
            _ => None,
        };
        match by_rig {
            None => assert_eq!(&shown, expected, "rig, {name} {arguments}"),
            Some((kind, text)) => {
                let error = result
                    .error()
                    .unwrap_or_else(|| panic!("rig, {name} {arguments}: {result:?}"));
                assert_eq!(
                    (error.kind(), error.code()),
                    (kind, None),
                    "rig, {name} {arguments}"
                );
                assert!(shown.starts_with(text), "rig, {name} {arguments}: {shown}");
            }
        }
    }

    for ((name, arguments), expected) in CALLS.iter().zip(&expected) {
        // async-openai, chat completions.
        let call = ChatCompletionMessageToolCall {
            id: "call_1".to_owned(),
            function: FunctionCall {
                name: (*name).to_owned(),
                arguments: (*arguments).to_owned(),
            },
        };
        let message = async_openai::call_chat(&registry, &call, &Context::default()).await;
        assert_eq!(message.tool_call_id, "call_1");
        match message.content {
            ChatCompletionRequestToolMessageContent::Text(text) => {
                assert_eq!(&text, expected, "chat completions, {name} {arguments}")
            }
            other => panic!("a tool message of parts: {other:?}"),
        }

        // async-openai, the Responses API.
        let call = FunctionToolCall {
            arguments: (*arguments).to_owned(),
            call_id: "call_1".to_owned(),
            namespace: None,
            name: (*name).to_owned(),
            id: None,
            status: None,
            caller: None,
            r#async: None,
        };
        let item = async_openai::call_response(&registry, &call, &Context::default()).await;
        assert_eq!(item.call_id.as_deref(), Some("call_1"));
        match item.output {
            FunctionCallOutput::Text(text) => {
                assert_eq!(&text, expected, "responses, {name} {arguments}")
            }
            other => panic!("a function_call_output of parts: {other:?}"),
        }

        // genai: its calls carry the arguments parsed, so text that is not JSON never reaches
        // an adapter (genai refuses it while reading the model's answer).
        if let Ok(parsed) = serde_json::from_str::<Value>(arguments) {
            let call = genai_call!("call_1", *name, parsed);
            let response = genai::call(&registry, &call, &Context::default()).await;
            assert_eq!(response.call_id, "call_1");
            assert_eq!(&response.content, expected, "genai, {name} {arguments}");
        }
    }
}

#[tokio::test]
async fn an_mcp_client_is_shown_the_same_text() {
    let registry = granted();
    let expected = registry_texts(&registry).await;
    let client = tool_mcp::testing::connect(tool_mcp::McpServer::new(registry))
        .await
        .expect("connects");
    for ((name, arguments), expected) in CALLS.iter().zip(&expected) {
        // MCP carries arguments as JSON: text that is not JSON cannot be sent.
        let Ok(parsed) = serde_json::from_str::<Value>(arguments) else {
            continue;
        };
        let answer = client.call(name, parsed).await.expect("answered");
        let refused = expected.starts_with("refused\t");
        assert_eq!(answer.is_error, Some(refused), "{name} {arguments}");
        assert_eq!(
            &tool_mcp::testing::text(&answer),
            expected,
            "MCP, {name} {arguments}"
        );
    }
    assert_eq!(
        client
            .call("note_write", json!({"text": "buy milk"}))
            .await
            .map(|answer| tool_mcp::testing::text(&answer))
            .ok(),
        Some("saved 8 bytes".to_owned())
    );
}
