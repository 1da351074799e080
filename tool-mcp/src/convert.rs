//! Between rmcp's typed `CallToolResult` and this framework's results, both ways: a served
//! call's [`ToolResult`] becomes rmcp's result, and a remote server's result becomes a call's
//! outcome; rmcp's log level as this framework's; and a request's id as a call's.
//!
//! The shape itself is [`tool_core::providers::mcp`]'s, which writes and reads it as JSON; this
//! module only moves between that JSON and rmcp's types. Every served call passes through here,
//! so the common results (a refusal, text, structured output, nothing) are built directly rather
//! than through a JSON value; a test holds them to what the provider writes.

use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolResult, ContentBlock, ResultType};
use serde_json::Value;
#[cfg(feature = "remote")]
use tool_core::Refusal;
use tool_core::ToolResult;
use tool_core::outcome::Output;
use tool_core::providers::mcp;

/// rmcp's log level (a client's `logging/setLevel`, or a request's `_meta`) as the context's.
#[allow(deprecated)] // SEP-2577 deprecates logging; its levels are still MCP's.
pub(crate) fn log_level(level: rmcp::model::LoggingLevel) -> tool_core::call::LogLevel {
    use rmcp::model::LoggingLevel as Rmcp;
    use tool_core::call::LogLevel;
    match level {
        Rmcp::Debug => LogLevel::Debug,
        Rmcp::Info => LogLevel::Info,
        Rmcp::Notice => LogLevel::Notice,
        Rmcp::Warning => LogLevel::Warning,
        Rmcp::Error => LogLevel::Error,
        Rmcp::Critical => LogLevel::Critical,
        Rmcp::Alert => LogLevel::Alert,
        Rmcp::Emergency => LogLevel::Emergency,
    }
}

/// The context's log level as rmcp's, for a `notifications/message`.
#[allow(deprecated)] // SEP-2577 deprecates logging; its levels are still MCP's.
pub(crate) fn logging_level(level: tool_core::call::LogLevel) -> rmcp::model::LoggingLevel {
    use rmcp::model::LoggingLevel as Rmcp;
    use tool_core::call::LogLevel;
    match level {
        LogLevel::Debug => Rmcp::Debug,
        LogLevel::Info => Rmcp::Info,
        LogLevel::Notice => Rmcp::Notice,
        LogLevel::Warning => Rmcp::Warning,
        LogLevel::Error => Rmcp::Error,
        LogLevel::Critical => Rmcp::Critical,
        LogLevel::Alert => Rmcp::Alert,
        LogLevel::Emergency => Rmcp::Emergency,
    }
}

/// The `CallToolResult` that `mcp::write_result_for` writes for `result` in the request's
/// revision, with `resultType: "complete"` whatever the revision (rmcp strips it for older
/// peers). The result is taken whole so that its text moves into the answer rather than being
/// copied.
///
/// `current`: the request is of 2026-07-28, which takes `structuredContent` of any JSON
/// (SEP-2106). For an older one, a value that is not an object is left out; its text is the
/// content already (the output's JSON text, or a structured block's own text, such as a large
/// output's preview), where rmcp, left to drop it, would write the value's whole text first.
pub(crate) fn call_tool_result(
    result: ToolResult,
    current: bool,
) -> Result<CallToolResult, McpError> {
    let revision = match current {
        true => mcp::Revision::V2026_07_28,
        false => mcp::Revision::V2025_11_25,
    };
    let written = |result: &ToolResult| -> Result<CallToolResult, McpError> {
        serde_json::from_value(mcp::write_result_for(result, revision))
            .map_err(|error| McpError::internal_error(error.to_string(), None))
    };
    let mut built = match result.outcome {
        // Notes are rare (a lenient registry's adjustments): written as the provider writes them.
        _ if !result.notes.is_empty() => written(&result)?,
        Err(refusal) => CallToolResult::error(vec![ContentBlock::text(refusal.to_string())]),
        Ok(Output::Empty) => CallToolResult::success(Vec::new()),
        Ok(Output::Text(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Ok(Output::Json(json)) => {
            let structured = serde_json::from_str::<Value>(json.get()).ok();
            let text: Box<str> = json.into();
            let mut built = CallToolResult::success(vec![ContentBlock::text(String::from(text))]);
            built.structured_content = structured;
            built
        }
        Ok(_) => written(&result)?,
    };
    if !current {
        built.structured_content.take_if(|value| !value.is_object());
    }
    built.result_type = Some(ResultType::COMPLETE);
    Ok(built)
}

#[cfg(feature = "remote")]
/// What a remote server's `CallToolResult` means here, as `mcp::read_result` reads it.
pub(crate) fn outcome_of(result: &CallToolResult) -> Result<Output, Refusal> {
    let written = serde_json::to_value(result).map_err(|error| {
        Refusal::failed(format!("the MCP server's answer was unreadable: {error}"))
    })?;
    mcp::read_result(&written)
}

/// A request's id as a call's: its number's digits, or its text.
pub(crate) fn id_text(id: &rmcp::model::RequestId) -> String {
    match id {
        rmcp::model::NumberOrString::Number(number) => itoa::Buffer::new().format(*number).into(),
        rmcp::model::NumberOrString::String(text) => text.as_ref().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_core::Refusal;
    use tool_core::outcome::Content;

    #[test]
    fn log_levels_are_mcp_s_both_ways() {
        for level in tool_core::call::LogLevel::ALL {
            let rmcp = logging_level(level);
            assert_eq!(log_level(rmcp), level);
            // The name on the wire is the one the level has in this crate's own JSON.
            assert_eq!(json!(rmcp), json!(level));
        }
    }

    fn outcomes() -> Vec<Result<Output, Refusal>> {
        vec![
            Ok(Output::Empty),
            Ok(Output::text("two\tcolumns")),
            Output::json(&json!({"matched": 5, "tags": ["a", "b"]})),
            Output::json(&json!([1, 2])),
            Output::json(&json!("text")),
            Output::json(&json!(null)),
            Ok(Output::Content(vec![
                Content::text("a"),
                Content::image(vec![1, 2], "image/png"),
            ])),
            // A large structured output's preview: the text for the model, the value whole.
            Ok(Output::Content(vec![Content::structured(
                json!({"rows": [1, 2]}),
                "the output is 14 bytes",
            )])),
            Ok(Output::Content(vec![Content::structured(
                json!([1, 2]),
                "two numbers",
            )])),
            // Of several blocks, the first is the current revision's value, and the first
            // object the older one's.
            Ok(Output::Content(vec![
                Content::structured(json!([1, 2]), "two numbers"),
                Content::structured(json!({"sum": 3}), "their sum"),
                Content::structured(json!({"product": 2}), "their product"),
            ])),
            Err(Refusal::new("conflict", "the note moved on").line("fault", ["id", "stale"])),
        ]
    }

    fn result_of(outcome: Result<Output, Refusal>) -> ToolResult {
        ToolResult {
            id: "1".into(),
            name: "t".into(),
            outcome,
            notes: Vec::new(),
        }
    }

    /// Every outcome, without notes and with one.
    fn results() -> Vec<ToolResult> {
        let note =
            tool_core::outcome::Line::new("adjusted", ["tags", "read one value as a list of one"]);
        outcomes()
            .into_iter()
            .flat_map(|outcome| {
                let plain = result_of(outcome);
                let noted = ToolResult {
                    notes: vec![note.clone()],
                    ..plain.clone()
                };
                [plain, noted]
            })
            .collect()
    }

    #[test]
    fn results_are_built_as_the_mcp_provider_writes_them_for_each_revision() {
        for result in results() {
            for (current, revision) in [
                (true, mcp::Revision::V2026_07_28),
                (false, mcp::Revision::V2025_11_25),
            ] {
                // As the wire has it, where a client reads it (before rmcp strips an older
                // peer's `resultType`).
                let mut written = mcp::write_result_for(&result, revision);
                assert_eq!(
                    written.get("resultType").is_some(),
                    current,
                    "2026-07-28 alone is written a resultType"
                );
                written["resultType"] = json!(ResultType::COMPLETE);
                let built = call_tool_result(result.clone(), current).unwrap();
                assert_eq!(
                    serde_json::to_value(built).unwrap(),
                    written,
                    "{revision}: {result:?}"
                );
            }
        }
    }

    #[test]
    fn an_older_revision_s_result_holds_an_object_alone_as_structured_content() {
        let mut left_out = 0;
        for result in results() {
            let current = call_tool_result(result.clone(), true).unwrap();
            let older = call_tool_result(result.clone(), false).unwrap();
            // The text is the same for both: the value's, or a structured block's own.
            assert_eq!(older.content, current.content, "{result:?}");
            match &current.structured_content {
                Some(value) if !value.is_object() => {
                    let first_object = match &result.outcome {
                        Ok(Output::Content(blocks)) if blocks.len() > 1 => Some(json!({"sum": 3})),
                        _ => None,
                    };
                    assert_eq!(older.structured_content, first_object, "{result:?}");
                    left_out += 1;
                }
                kept => assert_eq!(older.structured_content.as_ref(), kept.as_ref()),
            }
        }
        // A list, a text and null as output, a list in a block, and a list before two objects;
        // each with a note and without.
        assert_eq!(left_out, 10);
    }

    #[test]
    fn an_older_revision_s_list_is_what_rmcp_strips_it_to() {
        use rmcp::model::{ListToolsResult, ServerResult, Tool};
        use serde::Deserialize;
        use tool_core::tool::ToolDefinition;
        let input = json!({"type": "object", "properties": {}, "additionalProperties": false});
        let object = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let outputs = [
            None,
            Some(object.clone()),
            Some(json!({"type": "array", "items": {"type": "string"}})),
            Some(json!({"anyOf": [object, {"type": "object", "properties": {}}]})),
            Some(json!({"type": ["object", "null"], "properties": {}})),
        ];
        for output in outputs {
            let mut definition =
                ToolDefinition::new("t", "A tool.", input.as_object().unwrap().clone());
            definition.output_schema = output.as_ref().and_then(Value::as_object).cloned();
            let latest = mcp::tool(&definition).unwrap();
            let mut listed = ServerResult::ListToolsResult(ListToolsResult::with_all_items(vec![
                Tool::deserialize(&latest).unwrap(),
            ]));
            listed.strip_non_object_output_for_legacy_peer();
            let ServerResult::ListToolsResult(listed) = listed else {
                unreachable!("stripped in place")
            };
            let older = mcp::tool_for(&definition, mcp::Revision::V2025_11_25).unwrap();
            assert_eq!(json!(listed.tools[0]), older, "{output:?}");
        }
    }

    #[test]
    #[cfg(feature = "remote")]
    fn a_result_read_back_is_what_the_mcp_provider_reads() {
        for result in results() {
            let built = call_tool_result(result.clone(), true).unwrap();
            assert_eq!(
                outcome_of(&built),
                mcp::read_result(&mcp::write_result(&result)),
                "{result:?}"
            );
        }
    }
}
