//! The async-openai adapter (`tool_core::adapters::async_openai`): the tools it writes in
//! async-openai's types serialize to the registry's OpenAI export (and, for the Responses API,
//! to its flat function tool, deferred where the registry defers), calls come in with their ids
//! kept, and the answers carry exactly the text the registry gives, refusals included; the
//! requests a host builds with async-openai's own request types have the tool parts OpenAI's
//! API documents, and OpenAI's own Python package (its request types, `openai_types.py`) takes
//! them whole and refuses them with a part broken.

use async_openai::types::chat::{
    ChatCompletionMessageCustomToolCall, ChatCompletionMessageToolCall,
    ChatCompletionMessageToolCalls, ChatCompletionRequestAssistantMessage,
    ChatCompletionRequestMessage, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionTools, CreateChatCompletionRequest,
    CustomTool, FunctionCall,
};
use async_openai::types::responses::{
    CreateResponse, EasyInputContent, EasyInputMessage, FunctionToolCall, InputItem, InputParam,
    Item, OutputItem, Role, Tool,
};
use serde_json::{Value, json};
use tool_core::adapters::async_openai::{
    call_chat, call_chat_all, call_response, call_response_all, chat_tools, read_chat_call,
    read_response_call, response_tools, write_chat_result,
};
use tool_core::providers::{mcp, openai};
use tool_core::{Context, Provider, Registry, ToolCall, code};
use tool_tests::adapters_fixture::{granted, keys, registry};
use tool_tests::openai_types::{refused_at, valid, verdicts, without};

fn chat_call(id: &str, name: &str, arguments: &str) -> ChatCompletionMessageToolCall {
    ChatCompletionMessageToolCall {
        id: id.to_owned(),
        function: FunctionCall {
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        },
    }
}

fn response_call(call_id: &str, name: &str, arguments: &str) -> FunctionToolCall {
    FunctionToolCall {
        call_id: call_id.to_owned(),
        name: name.to_owned(),
        arguments: arguments.to_owned(),
        ..FunctionToolCall::default()
    }
}

/// What the registry itself answers a call: the text every adapter must pass on unchanged.
async fn registry_text(registry: &Registry, id: &str, name: &str, arguments: &str) -> String {
    let call = ToolCall::new(id, name, tool_core::call::Arguments::from_text(arguments));
    registry.call(call, &Context::default()).await.text()
}

fn text_of(content: &impl serde::Serialize) -> String {
    match serde_json::to_value(content).expect("content serializes") {
        Value::String(text) => text,
        other => panic!("the content is not text: {other}"),
    }
}

#[test]
fn chat_tools_serialize_to_the_openai_export() {
    let registry = registry();
    let tools = chat_tools(&registry).expect("exportable");
    let written = serde_json::to_value(&tools).expect("tools serialize");
    let exported = serde_json::to_value(&*registry.export(Provider::OpenAi).expect("exportable"))
        .expect("the export serializes");
    assert_eq!(written, exported);
    // Strictness is the export's: on where the schema allows it, off for the map.
    let strict: Vec<(&str, &Value)> = written
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            (
                tool["function"]["name"].as_str().unwrap_or_default(),
                &tool["function"]["strict"],
            )
        })
        .collect();
    assert_eq!(
        strict,
        [
            ("order_place", &json!(true)),
            ("label_print", &json!(false)),
            ("shell_run", &json!(true)),
        ]
    );
    assert!(matches!(tools[0], ChatCompletionTools::Function(_)));
}

#[test]
fn a_scoped_view_lists_only_its_granted_tools() {
    let registry = registry();
    let names: Vec<String> = chat_tools(&granted(&registry))
        .expect("exportable")
        .into_iter()
        .filter_map(|tool| match tool {
            ChatCompletionTools::Function(tool) => Some(tool.function.name),
            ChatCompletionTools::Custom(_) => None,
        })
        .collect();
    assert_eq!(names, ["order_place", "label_print"]);
}

#[test]
fn response_tools_are_the_export_flattened() {
    let registry = registry();
    let written = serde_json::to_value(response_tools(&registry).expect("exportable"))
        .expect("tools serialize");
    let expected: Vec<Value> = registry
        .export(Provider::OpenAi)
        .expect("exportable")
        .iter()
        .map(|tool| {
            let function = &tool["function"];
            json!({
                "type": "function",
                "name": function["name"],
                "description": function["description"],
                "parameters": function["parameters"],
                "strict": function["strict"],
            })
        })
        .collect();
    assert_eq!(written, Value::Array(expected));
}

#[test]
fn deferred_tools_get_defer_loading_and_the_hosted_search() {
    let registry = registry().with_deferred_loading(["order_place"]);
    let written = serde_json::to_value(response_tools(&registry).expect("exportable"))
        .expect("tools serialize");
    let shapes: Vec<(&str, &str, Option<&Value>)> = written
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            (
                tool["type"].as_str().unwrap_or_default(),
                tool["name"].as_str().unwrap_or_default(),
                tool.get("defer_loading"),
            )
        })
        .collect();
    assert_eq!(
        shapes,
        [
            ("tool_search", "", None),
            ("function", "order_place", None),
            ("function", "label_print", Some(&json!(true))),
            ("function", "shell_run", Some(&json!(true))),
        ]
    );
    assert_eq!(written[0], json!({"type": "tool_search"}));
    // Chat completions have no deferral: every tool, as the export lists them.
    let chat = serde_json::to_value(chat_tools(&registry).expect("exportable")).expect("json");
    assert_eq!(chat.as_array().map(Vec::len), Some(3));
    // A deferred scoped view defers its granted tools only, and lists none of the others.
    let view = granted(&registry);
    let names: Vec<(String, Option<bool>)> = response_tools(&view)
        .expect("exportable")
        .into_iter()
        .filter_map(|tool| match tool {
            Tool::Function(tool) => Some((tool.name, tool.defer_loading)),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        [
            ("order_place".to_owned(), None),
            ("label_print".to_owned(), Some(true))
        ]
    );
}

#[tokio::test]
async fn a_chat_call_keeps_its_id_and_answers_as_the_openai_writer_does() {
    let registry = registry();
    let call = chat_call(
        "call_good",
        "order_place",
        r#"{"lines":[{"sku":"A1","qty":2}],"note":null}"#,
    );
    // Read as the JSON-level reader reads the same call.
    let entry = serde_json::to_value(ChatCompletionMessageToolCalls::Function(call.clone()))
        .expect("the call serializes");
    assert_eq!(
        Ok(read_chat_call(&call)),
        openai::read_call(&entry).map_err(|refusal| refusal.to_string())
    );
    let message = call_chat(&registry, &call, &Context::default()).await;
    assert_eq!(message.tool_call_id, "call_good");
    assert_eq!(text_of(&message.content), "placed 2 of A1");
    let result = registry
        .call(read_chat_call(&call), &Context::default())
        .await;
    assert_eq!(
        serde_json::to_value(ChatCompletionRequestMessage::Tool(write_chat_result(
            &result
        )))
        .expect("the message serializes"),
        openai::write_result(&result)
    );
}

#[tokio::test]
async fn a_bad_call_reads_as_the_registry_and_mcp_refuse_it() {
    let registry = registry();
    let arguments = r#"{"lines":[{"sku":"A1","qty":200}],"colour":"red"}"#;
    let message = call_chat(
        &registry,
        &chat_call("call_bad", "order_place", arguments),
        &Context::default(),
    )
    .await;
    let expected = registry_text(&registry, "call_bad", "order_place", arguments).await;
    assert!(
        expected.starts_with("refused\tbad-arguments\t"),
        "{expected}"
    );
    assert_eq!(message.tool_call_id, "call_bad");
    assert_eq!(text_of(&message.content), expected);
    // The Responses answer carries the same text.
    let item = call_response(
        &registry,
        &response_call("fc_bad", "order_place", arguments),
        &Context::default(),
    )
    .await;
    assert_eq!(item.call_id.as_deref(), Some("fc_bad"));
    assert_eq!(text_of(&item.output), expected);
    // And so does MCP's result.
    let call = ToolCall::new(
        "1",
        "order_place",
        tool_core::call::Arguments::from_text(arguments),
    );
    let mcp = mcp::write_result(&registry.call(call, &Context::default()).await);
    assert_eq!(mcp["content"][0]["text"], json!(expected));
}

#[tokio::test]
async fn an_ungranted_call_is_refused() {
    let view = granted(&registry());
    let message = call_chat(
        &view,
        &chat_call("call_shell", "shell_run", r#"{"command":"rm -rf /"}"#),
        &Context::default(),
    )
    .await;
    let text = text_of(&message.content);
    assert_eq!(message.tool_call_id, "call_shell");
    assert!(
        text.starts_with(&format!("refused\t{}\t", code::NOT_PERMITTED)),
        "{text}"
    );
    assert!(text.ends_with("tools\torder_place\tlabel_print"), "{text}");
}

#[tokio::test]
async fn arguments_that_are_not_json_are_refused_not_a_panic() {
    let registry = registry();
    for arguments in ["{oops", "[1, 2]", "\"lines\""] {
        let message = call_chat(
            &registry,
            &chat_call("call_broken", "order_place", arguments),
            &Context::default(),
        )
        .await;
        let text = text_of(&message.content);
        assert!(
            text.starts_with(&format!("refused\t{}\t", code::BAD_ARGUMENTS)),
            "{arguments}: {text}"
        );
        assert_eq!(
            text,
            registry_text(&registry, "x", "order_place", arguments).await
        );
    }
    let message = call_chat(
        &registry,
        &chat_call("call_broken", "order_place", "{oops"),
        &Context::default(),
    )
    .await;
    let text = text_of(&message.content);
    assert!(text.contains("\tnot valid JSON: "), "{text}");
}

#[tokio::test]
async fn a_response_call_keeps_its_call_id() {
    let registry = registry();
    let call = response_call("fc_1", "label_print", r#"{"labels":{"1":"fragile"}}"#);
    assert_eq!(
        read_response_call(&call),
        ToolCall::new("fc_1", "label_print", json!({"labels": {"1": "fragile"}}))
    );
    let item = call_response(&registry, &call, &Context::default()).await;
    assert_eq!(
        serde_json::to_value(Item::FunctionCallOutput(item)).expect("the item serializes"),
        json!({"type": "function_call_output", "call_id": "fc_1", "output": "printed 1 labels"})
    );
}

/// The scripted assistant turn: a good call, a bad one, an ungranted one and a call of the
/// host's own custom tool (named as one of the registry's, which does not make it the
/// registry's).
fn assistant_turn() -> Vec<ChatCompletionMessageToolCalls> {
    vec![
        ChatCompletionMessageToolCalls::Function(chat_call(
            "call_1",
            "order_place",
            r#"{"lines":[{"sku":"A1","qty":2}]}"#,
        )),
        ChatCompletionMessageToolCalls::Function(chat_call(
            "call_2",
            "label_print",
            r#"{"labels":["fragile"]}"#,
        )),
        ChatCompletionMessageToolCalls::Function(chat_call(
            "call_3",
            "shell_run",
            r#"{"command":"ls"}"#,
        )),
        ChatCompletionMessageToolCalls::Custom(ChatCompletionMessageCustomToolCall {
            id: "call_4".to_owned(),
            custom_tool: CustomTool {
                name: "order_place".to_owned(),
                input: "two boxes of A1".to_owned(),
            },
        }),
    ]
}

/// The Chat Completions request a host sends after [`assistant_turn`]: the user's message, the
/// assistant's calls, the adapter's answers and the host's own, with the adapter's tools; as
/// JSON.
async fn follow_up_chat_request() -> Value {
    let view = granted(&registry());
    let calls = assistant_turn();
    let answers = call_chat_all(&view, &calls, &Context::default()).await;
    // The function calls are answered; the custom tool's call is the host's to answer.
    let answered: Vec<&str> = answers
        .iter()
        .map(|message| match message {
            ChatCompletionRequestMessage::Tool(message) => message.tool_call_id.as_str(),
            other => panic!("not a tool message: {other:?}"),
        })
        .collect();
    assert_eq!(answered, ["call_1", "call_2", "call_3"]);
    let host_answer = ChatCompletionRequestMessage::Tool(ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text("the host queued it".to_owned()),
        tool_call_id: "call_4".to_owned(),
    });
    let mut messages = vec![
        ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
            content: ChatCompletionRequestUserMessageContent::Text("order two A1".to_owned()),
            name: None,
        }),
        ChatCompletionRequestMessage::Assistant(ChatCompletionRequestAssistantMessage {
            tool_calls: Some(calls),
            ..ChatCompletionRequestAssistantMessage::default()
        }),
    ];
    messages.extend(answers);
    messages.push(host_answer);
    let request = CreateChatCompletionRequest {
        model: "gpt-4.1".to_owned(),
        messages,
        tools: Some(chat_tools(&view).expect("exportable")),
        ..CreateChatCompletionRequest::default()
    };
    serde_json::to_value(&request).expect("the request serializes")
}

#[tokio::test]
async fn the_follow_up_chat_request_has_the_shape_openai_documents() {
    let json = follow_up_chat_request().await;
    let tools = json["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2);
    for tool in tools {
        assert_eq!(keys(tool), ["function", "type"]);
        assert_eq!(tool["type"], "function");
        assert_eq!(
            keys(&tool["function"]),
            ["description", "name", "parameters", "strict"]
        );
        assert_eq!(tool["function"]["parameters"]["type"], "object");
        assert!(tool["function"]["strict"].is_boolean());
    }

    let messages = json["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 6);
    let assistant = &messages[1];
    assert_eq!(assistant["role"], "assistant");
    let asked = assistant["tool_calls"].as_array().expect("tool calls");
    assert_eq!(
        asked[0],
        json!({"id": "call_1", "type": "function", "function": {
            "name": "order_place", "arguments": r#"{"lines":[{"sku":"A1","qty":2}]}"#}})
    );
    // Every call answered once, in order, by a tool message of exactly three keys: the
    // adapter's for the function calls, the host's for its custom tool.
    let answered: Vec<(&str, &str)> = messages[2..]
        .iter()
        .map(|message| {
            assert_eq!(keys(message), ["content", "role", "tool_call_id"]);
            assert_eq!(message["role"], "tool");
            let content = message["content"].as_str().expect("text content");
            // A refusal's first line is `refused<TAB>code<TAB>message`.
            let code = match content.strip_prefix("refused\t") {
                Some(rest) => rest.split('\t').next().unwrap_or_default(),
                None => "ran",
            };
            (message["tool_call_id"].as_str().expect("an id"), code)
        })
        .collect();
    assert_eq!(
        answered,
        [
            ("call_1", "ran"),
            ("call_2", code::BAD_ARGUMENTS),
            ("call_3", code::NOT_PERMITTED),
            ("call_4", "ran"),
        ]
    );
    assert_eq!(messages[5]["content"], "the host queued it");
    assert_eq!(messages[2]["content"], "placed 2 of A1");
}

/// The Responses request a host sends after a turn of three function calls (a good one, a bad
/// one, an ungranted one): the user's message, the calls and the adapter's answers, with the
/// adapter's tools, one of them deferred; as JSON.
async fn follow_up_responses_request() -> Value {
    let view = granted(&registry()).with_deferred_loading(["order_place"]);
    let output = vec![
        OutputItem::FunctionCall(response_call(
            "fc_1",
            "order_place",
            r#"{"lines":[{"sku":"A1","qty":1}]}"#,
        )),
        OutputItem::FunctionCall(response_call("fc_2", "label_print", "{oops")),
        OutputItem::FunctionCall(response_call("fc_3", "shell_run", r#"{"command":"ls"}"#)),
    ];
    let answers = call_response_all(&view, &output, &Context::default()).await;
    let mut input = vec![InputItem::EasyMessage(EasyInputMessage {
        role: Role::User,
        content: EasyInputContent::Text("order one A1".to_owned()),
        ..EasyInputMessage::default()
    })];
    for item in &output {
        if let OutputItem::FunctionCall(call) = item {
            input.push(InputItem::Item(Item::FunctionCall(call.clone())));
        }
    }
    input.extend(answers);
    let request = CreateResponse {
        model: Some("gpt-5.4".to_owned()),
        input: InputParam::Items(input),
        tools: Some(response_tools(&view).expect("exportable")),
        ..CreateResponse::default()
    };
    serde_json::to_value(&request).expect("the request serializes")
}

#[tokio::test]
async fn the_follow_up_responses_request_has_the_shape_openai_documents() {
    let json = follow_up_responses_request().await;
    let tools = json["tools"].as_array().expect("tools");
    assert_eq!(tools[0], json!({"type": "tool_search"}));
    assert_eq!(
        keys(&tools[1]),
        ["description", "name", "parameters", "strict", "type"]
    );
    assert_eq!(
        keys(&tools[2]),
        [
            "defer_loading",
            "description",
            "name",
            "parameters",
            "strict",
            "type"
        ]
    );
    assert_eq!(
        (&tools[2]["name"], &tools[2]["defer_loading"]),
        (&json!("label_print"), &json!(true))
    );

    let input = json["input"].as_array().expect("input items");
    assert_eq!(input.len(), 7);
    assert_eq!(
        input[1],
        json!({"type": "function_call", "call_id": "fc_1", "name": "order_place",
               "arguments": r#"{"lines":[{"sku":"A1","qty":1}]}"#})
    );
    let outputs: Vec<(&str, &str)> = input[4..]
        .iter()
        .map(|item| {
            assert_eq!(keys(item), ["call_id", "output", "type"]);
            assert_eq!(item["type"], "function_call_output");
            let output = item["output"].as_str().expect("text output");
            (
                item["call_id"].as_str().expect("an id"),
                output.lines().next().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(outputs[0], ("fc_1", "placed 1 of A1"));
    assert_eq!(outputs[1].0, "fc_2");
    assert!(
        outputs[1].1.starts_with("refused\tbad-arguments\t"),
        "{}",
        outputs[1].1
    );
    assert_eq!(outputs[2].0, "fc_3");
    assert!(
        outputs[2].1.starts_with("refused\tnot-permitted\t"),
        "{}",
        outputs[2].1
    );
}

#[tokio::test]
async fn openai_s_own_request_types_take_both_requests_and_refuse_them_broken() {
    let mut chat = follow_up_chat_request().await;
    let responses = follow_up_responses_request().await;
    // async-openai writes the host's custom tool call with its tool under `custom_tool`, where
    // OpenAI's API (and its types) name it `custom`. That call is the host's, not the
    // adapter's: renamed here, so that the check judges the rest. Should async-openai come to
    // write `custom`, this fails, and the renaming goes.
    let custom_call = chat["messages"][1]["tool_calls"][3]
        .as_object_mut()
        .expect("the custom tool call");
    let custom_tool = custom_call
        .remove("custom_tool")
        .expect("async-openai names the custom tool `custom_tool`");
    custom_call.insert("custom".to_owned(), custom_tool);
    // A copy of each with one part the adapter writes dropped or spoiled: were these taken
    // too, the types' taking the whole requests would show nothing.
    let chat_unanswered = without(&chat, "/messages/2", "tool_call_id");
    let mut chat_tool_unknown_key = chat.clone();
    chat_tool_unknown_key["tools"][0]["function"]["returns"] = json!("text");
    // (A function call output's `call_id` is optional in OpenAI's types, so dropping it
    // would show nothing: the output is dropped instead.)
    let responses_unanswered = without(&responses, "/input/4", "output");
    let mut responses_deferred_as_text = responses.clone();
    responses_deferred_as_text["tools"][2]["defer_loading"] = json!("yes");

    let verdicts = verdicts(&[
        ("chat", &chat),
        ("responses", &responses),
        ("chat", &chat_unanswered),
        ("chat", &chat_tool_unknown_key),
        ("responses", &responses_unanswered),
        ("responses", &responses_deferred_as_text),
    ]);
    assert_eq!(verdicts[0], valid(), "chat");
    assert_eq!(verdicts[1], valid(), "responses");
    for (verdict, key) in
        verdicts[2..]
            .iter()
            .zip(["tool_call_id", "returns", "output", "defer_loading"])
    {
        assert!(refused_at(verdict, key), "not refused at {key}: {verdict}");
    }
}
