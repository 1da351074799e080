//! Requests whose params rmcp could not read as their method's: `logging/setLevel` and
//! `tools/call` come to the handler as custom requests, and are read again here, or refused
//! with what their params should be.

use rmcp::ErrorData as McpError;
use rmcp::model::CallToolRequestParams;
use serde_json::Value;

/// Why a `logging/setLevel` rmcp could not read is refused: what its level should be.
pub(super) fn set_level(params: Option<Value>) -> McpError {
    let problem = match params.as_ref().and_then(|params| params.get("level")) {
        Some(Value::String(name)) => match name.parse::<tool_core::call::LogLevel>() {
            Err(unknown) => unknown.to_string(),
            Ok(_) => "the params are not those of `logging/setLevel` (a `level`)".to_owned(),
        },
        Some(_) => "`level` must be text, one of debug, info, notice, warning, error, \
                    critical, alert, emergency"
            .to_owned(),
        None => "the params must be an object holding `level`".to_owned(),
    };
    McpError::invalid_params(format!("Invalid params: {problem}"), None)
}

/// A `tools/call`'s params that rmcp could not read, read as a call's if their arguments are
/// JSON text holding an object; else what is wrong with them.
pub(super) fn call_params(params: Option<Value>) -> Result<CallToolRequestParams, &'static str> {
    let mut params = params.unwrap_or(Value::Null);
    let problem = match params.get("arguments") {
        _ if !params.is_object() => "the params must be an object holding `name` and `arguments`",
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(object @ Value::Object(_)) => {
                params["arguments"] = object;
                return serde_json::from_value(params).map_err(
                    |_| "the params are not those of a tool call (a `name` and `arguments`)",
                );
            }
            _ => "`arguments` is text that is not a JSON object",
        },
        Some(Value::Object(_)) | None => {
            "the params are not those of a tool call (a `name` and `arguments`)"
        }
        Some(_) => "`arguments` must be a JSON object (or text holding one)",
    };
    Err(problem)
}
