//! A registry's tools in genai's own types: its `Tool` out, its `ToolCall` in, its
//! `ToolResponse` back. Only genai's types are used, not its client, so a host runs its chat
//! loop with genai's client, or any other, as it likes.
//!
//! genai speaks to many providers with one `Tool`; the tools are read from
//! [`Registry::export`] with [`Provider::OpenAi`], the dialect genai's OpenAI-compatible
//! adapters send as it is: each tool's parameters and `strict` are what
//! [`providers::openai`](crate::providers::openai) writes (strict where the schema can meet its
//! rules). A call runs through [`Registry::call`] (grants, approval, time limits), and its
//! response carries the call's id, the tool's name (which Gemini's function responses name)
//! and the text [`ToolResult::text`] gives, a refusal's text form included: what MCP and every
//! other adapter show the model.
//!
//! ```
//! use genai::chat::ToolCall;
//! use serde_json::json;
//! use tool_core::adapters::genai::{call, tools};
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
//! assert_eq!(tools(&registry).unwrap()[0].strict, Some(true));
//!
//! let asked = ToolCall {
//!     call_id: "call_1".into(),
//!     fn_name: "add".into(),
//!     fn_arguments: json!({"a": 2, "b": 3}),
//!     thought_signatures: None,
//! };
//! let response = call(&registry, &asked, &Context::default()).await;
//! assert_eq!((response.call_id.as_str(), response.content.as_str()), ("call_1", "5"));
//! # });
//! ```

use ::genai::chat;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::result::ToolResult;
use crate::providers::function::Function;
use crate::providers::{ExportError, Provider};
use crate::registry::Registry;

/// The registry's tools (of a scoped view: the granted ones) as genai tools, in order: each
/// with the name, description, parameters and `strict` of its OpenAI export. An error names a
/// tool OpenAI would refuse.
///
/// genai has no deferred loading: a registry set up with
/// [`Registry::with_deferred_loading`] lists all of its tools here.
pub fn tools(registry: &Registry) -> Result<Vec<chat::Tool>, ExportError> {
    let exported = registry.export(Provider::OpenAi)?;
    exported
        .iter()
        .map(|tool| {
            let function = Function::read(tool, Provider::OpenAi)?;
            Ok(chat::Tool::new(function.name)
                .with_description(function.description)
                .with_schema(function.parameters)
                .with_strict(function.strict))
        })
        .collect()
}

/// A genai tool call as the registry's [`ToolCall`]: its `call_id` as the id, its function's
/// name, and its arguments, an object or (as some providers send them) a string of JSON text,
/// written as text without recursing into them. Arguments that are neither are refused when
/// the call runs.
pub fn read_call(call: &chat::ToolCall) -> ToolCall {
    ToolCall::new(
        call.call_id.as_str(),
        call.fn_name.as_str(),
        Arguments::from(&call.fn_arguments),
    )
}

/// The tool response answering a call: its `call_id` the call's id, its `fn_name` the tool's
/// name, its content the result's [`text`](ToolResult::text) (a refusal's text form, when the
/// call was refused).
pub fn write_result(result: &ToolResult) -> chat::ToolResponse {
    chat::ToolResponse {
        call_id: result.id.clone(),
        fn_name: Some(result.name.clone()),
        content: result.text(),
    }
}

/// Runs a genai tool call through the registry and answers it. Never fails: every problem
/// (an unknown or ungranted tool, arguments that do not fit) is a refusal in the response's
/// text.
pub async fn call(registry: &Registry, call: &chat::ToolCall, ctx: &Context) -> chat::ToolResponse {
    write_result(&registry.call(read_call(call), ctx).await)
}

/// Runs every tool call of a model's turn together, as [`Registry::call_all`] does, and
/// answers each, in the calls' order: `ChatMessage::from(responses)` is the message that
/// follows the turn.
pub async fn call_all(
    registry: &Registry,
    calls: &[chat::ToolCall],
    ctx: &Context,
) -> Vec<chat::ToolResponse> {
    let calls = calls.iter().map(read_call).collect();
    let results = registry.call_all(calls, ctx).await;
    results.iter().map(write_result).collect()
}
