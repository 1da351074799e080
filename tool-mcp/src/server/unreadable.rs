//! Requests whose params this server cannot take, refused with what they should be:
//! `logging/setLevel` and `tools/call` whose params rmcp could not read (they come to the
//! handler as custom requests, and a call is read again here), a 2026-07-28 `_meta` log level
//! MCP does not have, a 2026-07-28 `logging/setLevel` (that revision removed the method), and a
//! `tools/list` cursor this server never gave.

use rmcp::ErrorData as McpError;
use rmcp::model::CallToolRequestParams;
use serde_json::Value;
use tool_core::call::{LogLevel, UnknownLogLevel};

/// Why a `logging/setLevel` rmcp could not read is refused: what its level should be, or, for
/// a 2026-07-28 request (`current`), that the method is gone.
pub(super) fn set_level(params: Option<Value>, current: bool) -> McpError {
    if current {
        return set_level_removed();
    }
    let problem = match params.as_ref().and_then(|params| params.get("level")) {
        Some(level) => match level_named(level, "`level`") {
            Ok(_) => "the params are not those of `logging/setLevel` (a `level`)".to_owned(),
            Err(problem) => problem,
        },
        None => "the params must be an object holding `level`".to_owned(),
    };
    McpError::invalid_params(format!("Invalid params: {problem}"), None)
}

/// Why a 2026-07-28 `logging/setLevel` is refused: that revision removed the method, and each
/// request names its own least level in `_meta`. Answering `{}` would tell the client a level
/// was set that no later request hears.
pub(super) fn set_level_removed() -> McpError {
    McpError::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        "Method not found: MCP 2026-07-28 has no `logging/setLevel`; name the least level a \
         request should hear in its own `_meta` as `io.modelcontextprotocol/logLevel`",
        None,
    )
}

/// The log level a 2026-07-28 request's `_meta` names, or why the request is refused rather
/// than run without the log it asked for.
pub(super) fn meta_log_level(named: &Value) -> Result<LogLevel, McpError> {
    let field = "`_meta[\"io.modelcontextprotocol/logLevel\"]`";
    level_named(named, field)
        .map_err(|problem| McpError::invalid_params(format!("Invalid params: {problem}"), None))
}

/// Why a `tools/list` that sends a `cursor` is refused: every tool is listed in one page and
/// no `nextCursor` is given, so the cursor is none this server made (MCP asks for -32602).
pub(super) fn cursor(cursor: &str) -> McpError {
    McpError::invalid_params(
        format!(
            "Invalid params: `cursor` \"{}\" is none this server gave: it lists every tool in \
             one page, without a `nextCursor`; send `tools/list` without a cursor",
            tool_core::outcome::shortened(cursor)
        ),
        None,
    )
}

/// The log level `level` (the value of `field`) names, or what is wrong with it as one.
fn level_named(level: &Value, field: &str) -> Result<LogLevel, String> {
    match level {
        Value::String(name) => name.parse::<LogLevel>().map_err(|_| {
            let unknown = UnknownLogLevel(tool_core::outcome::shortened(name).into_owned());
            format!("{field}: {unknown}")
        }),
        _ => Err(format!(
            "{field} must be text, one of debug, info, notice, warning, error, critical, alert, \
             emergency"
        )),
    }
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
