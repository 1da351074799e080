//! A registry's tools inside the agent frameworks and provider crates Rust applications run
//! their model loops with: each adapter writes our definitions in the framework's own types and
//! runs the framework's tool calls through [`Registry::call`](crate::Registry::call), so grants,
//! approval, timeouts and every refusal's text reach the model as they do over MCP.
//!
//! Each adapter is behind the cargo feature of its name, off by default:
//!
//! | feature | module | the framework's types |
//! | --- | --- | --- |
//! | `rig` | `rig` | rig-core's tools, in a `ToolSet` or an agent |
//! | `async-openai` | `async_openai` | chat completions' `ChatCompletionTools` and tool messages; the Responses API's `FunctionTool` and `function_call_output` |
//! | `genai` | `genai` | genai's `Tool`, `ToolCall` and `ToolResponse` |

#[cfg(feature = "async-openai")]
#[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
pub mod async_openai;
#[cfg(feature = "genai")]
#[cfg_attr(docsrs, doc(cfg(feature = "genai")))]
pub mod genai;
#[cfg(feature = "rig")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig")))]
pub mod rig;
