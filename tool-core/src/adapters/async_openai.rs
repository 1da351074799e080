//! A registry's tools in async-openai's own types, for both of OpenAI's APIs: chat
//! completions (`ChatCompletionTools` out, `tool_calls` in, `tool` messages back) and the
//! Responses API (`FunctionTool`s out, `function_call` items in, `function_call_output` items
//! back). Only async-openai's types are used, none of its client, so a host sends the request
//! however it likes.
//!
//! The tools are read from [`Registry::export`] with [`Provider::OpenAi`], so they are what
//! [`providers::openai`](crate::providers::openai) writes, strict mode and all: strict where
//! the schema can meet its rules, not where it cannot. A call is read as
//! [`openai::read_call`](crate::providers::openai::read_call) reads one (the model's arguments
//! text kept as it came, not parsed twice), runs through [`Registry::call`] (grants, approval,
//! time limits), and its answer carries the call's id and the text [`ToolResult::text`]
//! gives, a refusal's text form included: what MCP and every other adapter show the model.
//!
//! ```
//! use async_openai::types::chat::{ChatCompletionMessageToolCall, FunctionCall};
//! use tool_core::adapters::async_openai::{call_chat, chat_tools};
//! use tool_core::{Context, registry, tool};
//!
//! /// Adds two numbers.
//! #[tool(readonly)]
//! async fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let registry = registry![Add];
//! let tools = chat_tools(&registry).unwrap();
//! assert_eq!(serde_json::to_value(&tools[0]).unwrap()["function"]["strict"], true);
//!
//! let call = ChatCompletionMessageToolCall {
//!     id: "call_1".into(),
//!     function: FunctionCall { name: "add".into(), arguments: r#"{"a":2,"b":3}"#.into() },
//! };
//! let message = call_chat(&registry, &call, &Context::default()).await;
//! assert_eq!(message.tool_call_id, "call_1");
//! assert_eq!(serde_json::to_value(&message.content).unwrap(), "5");
//! # });
//! ```

use ::async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls, ChatCompletionRequestMessage,
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent, ChatCompletionTool,
    ChatCompletionTools, FunctionObject,
};
use ::async_openai::types::responses::{
    FunctionCallOutput, FunctionCallOutputItemParam, FunctionTool, FunctionToolCall, InputItem,
    Item, OutputItem, Tool, ToolSearchToolParam,
};

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::result::ToolResult;
use crate::providers::function::Function;
use crate::providers::{ExportError, Provider};
use crate::registry::{Registry, Session};

/// The registry's tools (of a scoped view: the granted ones) as chat completions function
/// tools, in order: each serializes to exactly what [`Registry::export`] gives for
/// [`Provider::OpenAi`], `{"type": "function", "function": {name, description, parameters,
/// strict}}`. An error names a tool OpenAI would refuse.
///
/// Chat completions have no deferred loading: a registry set up with
/// [`Registry::with_deferred_loading`] lists all of its tools here. [`response_tools`] defers
/// them.
pub fn chat_tools(registry: &Registry) -> Result<Vec<ChatCompletionTools>, ExportError> {
    let functions = functions(registry)?;
    Ok(functions
        .into_iter()
        .map(|function| ChatCompletionTools::Function(ChatCompletionTool { function }))
        .collect())
}

/// The registry's tools (of a scoped view: the granted ones) as Responses API tools, in order:
/// each a function tool, `{"type": "function", name, description, parameters, strict}`, with
/// the parameters and strictness of [`chat_tools`].
///
/// With [`Registry::with_deferred_loading`], the tools it lists always are listed as they are,
/// every other one with `"defer_loading": true`, and OpenAI's hosted tool search
/// (`{"type": "tool_search"}`) comes first, to find them: the model sees a deferred tool's
/// definition once that search finds it. The registry's own `tool_search` is not listed, as
/// the hosted one does its work, and a call of any granted tool runs through
/// [`Registry::call`] whether it was deferred or not.
pub fn response_tools(registry: &Registry) -> Result<Vec<Tool>, ExportError> {
    let functions = functions(registry)?;
    // A fresh session lists only the tools listed always.
    let fresh = Session::new();
    let mut deferred_any = false;
    let mut tools = Vec::with_capacity(functions.len() + 1);
    for function in functions {
        let deferred = registry.is_deferred() && !registry.is_listed_in(&fresh, &function.name);
        deferred_any |= deferred;
        tools.push(Tool::Function(FunctionTool {
            name: function.name,
            parameters: function.parameters,
            strict: function.strict,
            description: function.description,
            defer_loading: deferred.then_some(true),
            ..FunctionTool::default()
        }));
    }
    if deferred_any {
        tools.insert(0, Tool::ToolSearch(ToolSearchToolParam::default()));
    }
    Ok(tools)
}

/// A chat completions tool call as the registry's [`ToolCall`]: its id, its function's name,
/// and its `arguments` text kept as it came. Text that is not JSON is refused as
/// `bad-arguments` when the call runs.
pub fn read_chat_call(call: &ChatCompletionMessageToolCall) -> ToolCall {
    ToolCall::new(
        call.id.as_str(),
        call.function.name.as_str(),
        Arguments::from_text(call.function.arguments.as_str()),
    )
}

/// The `tool` message answering a call: its `tool_call_id` the call's id, its content the
/// result's [`text`](ToolResult::text) (a refusal's text form, when the call was refused).
/// Serializes (as a [`ChatCompletionRequestMessage`]) to what
/// [`openai::write_result`](crate::providers::openai::write_result) writes.
pub fn write_chat_result(result: &ToolResult) -> ChatCompletionRequestToolMessage {
    ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text(result.text()),
        tool_call_id: result.id.clone(),
    }
}

/// Runs a chat completions tool call through the registry and answers it with its `tool`
/// message. Never fails: every problem (an unknown or ungranted tool, arguments that are not
/// JSON or do not fit) is a refusal in the message's text.
pub async fn call_chat(
    registry: &Registry,
    call: &ChatCompletionMessageToolCall,
    ctx: &Context,
) -> ChatCompletionRequestToolMessage {
    write_chat_result(&registry.call(read_chat_call(call), ctx).await)
}

/// Runs every function call of an assistant message (its `tool_calls`) together, as
/// [`Registry::call_all`] does, and answers each with its `tool` message, in the calls' order,
/// ready to follow the assistant message in the next request.
///
/// Only function calls are the registry's to answer: a call of a custom tool (which
/// [`chat_tools`] never lists, so the host offered it) is passed over, as
/// [`call_response_all`] passes over every item but a `function_call`. OpenAI expects an
/// answer to every call, so the host answers the calls of its own tools itself, with a `tool`
/// message of the call's id beside these.
///
/// A host that sends the assistant message back with a custom tool's call in it should know
/// that the async-openai this feature builds on writes that call's tool under `custom_tool`,
/// where OpenAI's API names it `custom` (the adapter's tests fail once that changes).
pub async fn call_chat_all(
    registry: &Registry,
    calls: &[ChatCompletionMessageToolCalls],
    ctx: &Context,
) -> Vec<ChatCompletionRequestMessage> {
    let calls = calls
        .iter()
        .filter_map(|call| match call {
            ChatCompletionMessageToolCalls::Function(call) => Some(read_chat_call(call)),
            ChatCompletionMessageToolCalls::Custom(_) => None,
        })
        .collect();
    let results = registry.call_all(calls, ctx).await;
    results
        .iter()
        .map(|result| ChatCompletionRequestMessage::Tool(write_chat_result(result)))
        .collect()
}

/// A Responses API `function_call` item as the registry's [`ToolCall`]: its `call_id` as the
/// id, its name, and its `arguments` text kept as it came.
pub fn read_response_call(call: &FunctionToolCall) -> ToolCall {
    ToolCall::new(
        call.call_id.as_str(),
        call.name.as_str(),
        Arguments::from_text(call.arguments.as_str()),
    )
}

/// The `function_call_output` item answering a call: `{"type": "function_call_output",
/// "call_id", "output"}` once put in an [`Item`], its `call_id` the call's and its output the
/// result's [`text`](ToolResult::text).
pub fn write_response_result(result: &ToolResult) -> FunctionCallOutputItemParam {
    FunctionCallOutputItemParam {
        call_id: Some(result.id.clone()),
        output: FunctionCallOutput::Text(result.text()),
        id: None,
        status: None,
        name: None,
        namespace: None,
        caller: None,
    }
}

/// Runs a Responses API function call through the registry and answers it with its
/// `function_call_output` item. Never fails, as [`call_chat`] does not.
pub async fn call_response(
    registry: &Registry,
    call: &FunctionToolCall,
    ctx: &Context,
) -> FunctionCallOutputItemParam {
    write_response_result(&registry.call(read_response_call(call), ctx).await)
}

/// Runs every `function_call` among a response's output items together, as
/// [`Registry::call_all`] does, and answers each with its `function_call_output` item, in
/// order, ready for the next request's input. Every other item is passed over, as
/// [`call_chat_all`] passes over custom tools' calls: messages and reasoning need no answer,
/// nor do the calls of the tools OpenAI hosts and runs (web search, file search, the tool
/// search); the calls of the host's own tools (custom tools, and the tools OpenAI defines but
/// the host runs, such as a shell or computer use), which the registry never lists, OpenAI
/// expects an answer to, and the host answers them itself (a `custom_tool_call_output` and
/// the like) beside these items.
pub async fn call_response_all(
    registry: &Registry,
    output: &[OutputItem],
    ctx: &Context,
) -> Vec<InputItem> {
    let calls = output
        .iter()
        .filter_map(|item| match item {
            OutputItem::FunctionCall(call) => Some(read_response_call(call)),
            _ => None,
        })
        .collect();
    let results = registry.call_all(calls, ctx).await;
    results
        .iter()
        .map(|result| InputItem::Item(Item::FunctionCallOutput(write_response_result(result))))
        .collect()
}

/// The registry's OpenAI export, each tool's `function` in async-openai's type.
fn functions(registry: &Registry) -> Result<Vec<FunctionObject>, ExportError> {
    let exported = registry.export(Provider::OpenAi)?;
    exported
        .iter()
        .map(|tool| {
            let function = Function::read(tool, Provider::OpenAi)?;
            Ok(FunctionObject {
                name: function.name,
                description: Some(function.description),
                parameters: Some(function.parameters),
                strict: Some(function.strict),
            })
        })
        .collect()
}
