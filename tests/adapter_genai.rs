//! The genai adapter (`tool_core::adapters::genai`): its `Tool`s carry the registry's OpenAI
//! export (name, description, parameters, strictness), its `ToolCall`s come in with their ids
//! kept and their `fn_arguments` read as an object or as JSON text, and its `ToolResponse`s
//! carry exactly the text the registry gives, refusals included. Last, genai's own client sends
//! a follow-up request to a local stand-in for OpenAI, and the JSON it sends has the tool parts
//! OpenAI's API documents, which OpenAI's own Python request types take.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread::JoinHandle;

use genai::adapter::AdapterKind;
use genai::chat::{
    ChatMessage, ChatRequest, JsonSchemaDialect, ToolCall as GenaiCall, sanitize_json_schema,
};
use genai::resolver::{AuthData, Endpoint};
use genai::{Client, ModelIden, ServiceTarget};
use serde_json::{Value, json};
use tool_core::adapters::genai as adapter;
use tool_core::providers::mcp;
use tool_core::{Context, Provider, Registry, ToolCall, code};
use tool_tests::adapters_fixture::{granted, keys, registry};
use tool_tests::genai_call;
use tool_tests::openai_types::{refused_at, valid, verdicts, without};

#[test]
fn tools_carry_the_openai_export() {
    let registry = registry();
    let tools = adapter::tools(&registry).expect("exportable");
    let exported = registry.export(Provider::OpenAi).expect("exportable");
    assert_eq!(tools.len(), exported.len());
    for (tool, exported) in tools.iter().zip(exported.iter()) {
        let function = &exported["function"];
        assert_eq!(tool.name.as_str(), function["name"]);
        assert_eq!(
            tool.description.as_deref(),
            function["description"].as_str()
        );
        assert_eq!(tool.schema.as_ref(), Some(&function["parameters"]));
        assert_eq!(tool.strict, function["strict"].as_bool());
    }
    let strict: Vec<Option<bool>> = tools.iter().map(|tool| tool.strict).collect();
    assert_eq!(strict, [Some(true), Some(false), Some(true)]);
    // A scoped view: its granted tools only.
    let names: Vec<String> = adapter::tools(&granted(&registry))
        .expect("exportable")
        .iter()
        .map(|tool| tool.name.as_str().to_owned())
        .collect();
    assert_eq!(names, ["order_place", "label_print"]);
}

#[test]
fn genai_sends_a_strict_schema_as_the_export_wrote_it() {
    // With `strict`, genai rewrites a schema for OpenAI's strict dialect before sending it;
    // the export's strict schemas already are in it, so nothing changes. A tool that is not
    // strict (the map of `label_print`) is sent as it is, so only the strict ones are checked,
    // and which those are is checked too.
    let mut checked = Vec::new();
    for tool in adapter::tools(&registry()).expect("exportable") {
        if tool.strict != Some(true) {
            continue;
        }
        let schema = tool.schema.clone().expect("a schema");
        assert_eq!(
            sanitize_json_schema(&schema, JsonSchemaDialect::OpenAiStrictTool),
            schema,
            "{}",
            tool.name
        );
        checked.push(tool.name.as_str().to_owned());
    }
    assert_eq!(checked, ["order_place", "shell_run"]);
}

#[tokio::test]
async fn a_call_keeps_its_id_and_names_its_tool() {
    let registry = registry();
    let asked = genai_call!(
        "call_good",
        "order_place",
        json!({"lines": [{"sku": "A1", "qty": 2}], "note": null}),
    );
    assert_eq!(
        adapter::read_call(&asked),
        ToolCall::new(
            "call_good",
            "order_place",
            json!({"lines": [{"sku": "A1", "qty": 2}], "note": null})
        )
    );
    let response = adapter::call(&registry, &asked, &Context::default()).await;
    assert_eq!(response.call_id, "call_good");
    assert_eq!(response.fn_name.as_deref(), Some("order_place"));
    assert_eq!(response.content, "placed 2 of A1");
}

#[tokio::test]
async fn arguments_sent_as_json_text_are_read_as_openai_sends_them() {
    let registry = registry();
    let asked = genai_call!(
        "call_text",
        "order_place",
        json!(r#"{"lines":[{"sku":"B2","qty":3}]}"#),
    );
    let response = adapter::call(&registry, &asked, &Context::default()).await;
    assert_eq!(response.content, "placed 3 of B2");
}

#[tokio::test]
async fn a_bad_call_reads_as_the_registry_and_mcp_refuse_it() {
    let registry = registry();
    let arguments = json!({"lines": [{"sku": "A1", "qty": 200}], "colour": "red"});
    let response = adapter::call(
        &registry,
        &genai_call!("call_bad", "order_place", arguments.clone()),
        &Context::default(),
    )
    .await;
    let result = registry
        .call(
            ToolCall::new("call_bad", "order_place", arguments),
            &Context::default(),
        )
        .await;
    let expected = result.text();
    assert!(
        expected.starts_with("refused\tbad-arguments\t"),
        "{expected}"
    );
    assert_eq!(response.call_id, "call_bad");
    assert_eq!(response.content, expected);
    assert_eq!(adapter::write_result(&result).content, expected);
    assert_eq!(
        mcp::write_result(&result)["content"][0]["text"],
        json!(expected)
    );
}

#[tokio::test]
async fn an_ungranted_call_is_refused() {
    let view = granted(&registry());
    let response = adapter::call(
        &view,
        &genai_call!("call_shell", "shell_run", json!({"command": "rm -rf /"})),
        &Context::default(),
    )
    .await;
    assert_eq!(response.call_id, "call_shell");
    assert!(
        response
            .content
            .starts_with(&format!("refused\t{}\t", code::NOT_PERMITTED)),
        "{}",
        response.content
    );
    assert!(
        response
            .content
            .ends_with("tools\torder_place\tlabel_print"),
        "{}",
        response.content
    );
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_refused_not_a_panic() {
    let registry = registry();
    for arguments in [json!("{oops"), json!([1, 2]), json!(7), json!(null)] {
        let response = adapter::call(
            &registry,
            &genai_call!("call_broken", "order_place", arguments.clone()),
            &Context::default(),
        )
        .await;
        assert_eq!(response.call_id, "call_broken");
        assert!(
            response
                .content
                .starts_with(&format!("refused\t{}\t", code::BAD_ARGUMENTS)),
            "{arguments}: {}",
            response.content
        );
    }
    let response = adapter::call(
        &registry,
        &genai_call!("call_broken", "order_place", json!("{oops")),
        &Context::default(),
    )
    .await;
    assert!(
        response.content.contains("\tnot valid JSON: "),
        "{}",
        response.content
    );
}

/// The scripted turn: a good call, a bad one, an ungranted one.
fn model_turn() -> Vec<GenaiCall> {
    vec![
        genai_call!(
            "call_1",
            "order_place",
            json!({"lines": [{"sku": "A1", "qty": 2}]}),
        ),
        genai_call!("call_2", "label_print", json!({"labels": ["fragile"]})),
        genai_call!("call_3", "shell_run", json!({"command": "ls"})),
    ]
}

/// The follow-up request: the user's message, the model's calls and the answers, with tools.
async fn follow_up(view: &Registry) -> ChatRequest {
    let calls = model_turn();
    let responses = adapter::call_all(view, &calls, &Context::default()).await;
    ChatRequest::new(vec![
        ChatMessage::user("order two A1"),
        ChatMessage::from(calls),
        ChatMessage::from(responses),
    ])
    .with_tools(adapter::tools(view).expect("exportable"))
}

#[tokio::test]
async fn the_follow_up_chat_request_holds_every_answer() {
    let view = granted(&registry());
    let request = follow_up(&view).await;
    let json = serde_json::to_value(&request).expect("the request serializes");
    let tools = json["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2);
    assert_eq!(keys(&tools[0]), ["description", "name", "schema", "strict"]);
    let answers: Vec<(&str, &str, &str)> = json["messages"][2]["content"]
        .as_array()
        .expect("the tool message's parts")
        .iter()
        .map(|part| {
            let response = &part["ToolResponse"];
            let content = response["content"].as_str().expect("text");
            (
                response["call_id"].as_str().expect("an id"),
                response["fn_name"].as_str().expect("a name"),
                content.lines().next().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(answers[0], ("call_1", "order_place", "placed 2 of A1"));
    assert_eq!(answers[1].0, "call_2");
    assert!(
        answers[1].2.starts_with("refused\tbad-arguments\t"),
        "{}",
        answers[1].2
    );
    assert_eq!(answers[2].0, "call_3");
    assert!(
        answers[2].2.starts_with("refused\tnot-permitted\t"),
        "{}",
        answers[2].2
    );
}

/// A stand-in for OpenAI's chat completions endpoint: takes one request on a local port,
/// answers it with a short completion, and hands back the request's JSON body.
fn one_request_server() -> (SocketAddr, JoinHandle<Value>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let address = listener.local_addr().expect("its address");
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("a connection");
        let mut reader = BufReader::new(stream.try_clone().expect("the stream clones"));
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header line");
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("the body");
        let answer = json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4.1",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "ordered"}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        })
        .to_string();
        let mut stream = stream;
        write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{answer}",
            answer.len()
        )
        .expect("the answer is written");
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    });
    (address, server)
}

#[tokio::test]
async fn genai_sends_the_tools_and_answers_in_the_shape_openai_documents() {
    let view = granted(&registry());
    let request = follow_up(&view).await;
    let (address, server) = one_request_server();
    let target = ServiceTarget {
        endpoint: Endpoint::from_owned(format!("http://{address}/v1/")),
        auth: AuthData::from_single("test-key"),
        model: ModelIden::new(AdapterKind::OpenAI, "gpt-4.1"),
    };
    // Built with every workspace crate, reqwest has rustls without a crypto provider of its
    // own (the one tool-mcp's remote features choose): a program using both installs one.
    // ring's, as tool-mcp does, deprecated by rustls for its lack of post-quantum key exchange.
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = Client::builder().build().expect("a client");
    let answered = client.exec_chat(target, request, None).await;
    if answered.is_err() {
        // Frees the server's wait, so the failure is reported rather than hung on.
        let _ = TcpStream::connect(address);
    }
    let sent = server.join().expect("the server ran");
    let answered = answered.expect("genai read the completion");
    assert_eq!(answered.first_text(), Some("ordered"));

    // OpenAI's own request types take what genai sent, as they refuse it without a tool
    // message's call id.
    let first_answer = sent["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .position(|message| message["role"] == "tool")
        .expect("a tool message");
    let unanswered = without(&sent, &format!("/messages/{first_answer}"), "tool_call_id");
    let judged = verdicts(&[("chat", &sent), ("chat", &unanswered)]);
    assert_eq!(judged[0], valid(), "what genai sent");
    assert!(refused_at(&judged[1], "tool_call_id"), "{}", judged[1]);

    let tools = sent["tools"].as_array().expect("tools");
    let exported = view.export(Provider::OpenAi).expect("exportable");
    // What genai sends OpenAI is the export, strict schemas included.
    assert_eq!(tools.as_slice(), &*exported);
    let messages = sent["messages"].as_array().expect("messages");
    let assistant = messages
        .iter()
        .find(|message| message["role"] == "assistant")
        .expect("the model's turn");
    let asked: Vec<(&str, &str)> = assistant["tool_calls"]
        .as_array()
        .expect("tool calls")
        .iter()
        .map(|call| {
            assert_eq!(call["type"], "function");
            assert!(call["function"]["arguments"].is_string(), "{call}");
            (
                call["id"].as_str().expect("an id"),
                call["function"]["name"].as_str().expect("a name"),
            )
        })
        .collect();
    assert_eq!(
        asked,
        [
            ("call_1", "order_place"),
            ("call_2", "label_print"),
            ("call_3", "shell_run")
        ]
    );
    let answers: Vec<(&str, String)> = messages
        .iter()
        .filter(|message| message["role"] == "tool")
        .map(|message| {
            assert_eq!(keys(message), ["content", "role", "tool_call_id"]);
            let content = message["content"].as_str().expect("text");
            (
                message["tool_call_id"].as_str().expect("an id"),
                content.lines().next().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0], ("call_1", "placed 2 of A1".to_owned()));
    assert!(
        answers[1].1.starts_with("refused\tbad-arguments\t"),
        "{answers:?}"
    );
    assert!(
        answers[2].1.starts_with("refused\tnot-permitted\t"),
        "{answers:?}"
    );
}
