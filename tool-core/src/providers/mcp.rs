//! MCP: `tools/list` entries, `tools/call` params, and the `CallToolResult` shape, written and
//! read here and nowhere else (protocols 2025-11-25 and 2026-07-28).
//!
//! A result's content blocks are written and read here too, for [`Output`]'s own JSON and for
//! `tool-mcp`, which converts between these and rmcp's typed results but does not define them.
//!
//! [`tool`] and [`write_result`] write what both revisions share and what 2026-07-28 allows (an
//! output of any JSON); [`tool_for`] and [`write_result_for`] fit that to the [`Revision`] a
//! client negotiated, for a host that writes MCP without tool-mcp.

use serde_json::{Map, Value, json};

use super::{ExportError, Provider, bad_call, inlined, string_field};
use crate::call::arguments::Arguments;
use crate::call::tool_call::ToolCall;
use crate::outcome::content::Content;
use crate::outcome::content::{read_block, write_block};
use crate::outcome::output::Output;
use crate::outcome::refusal::Refusal;
use crate::providers::inline::Recursion;
use crate::tool::definition::ToolDefinition;

pub use super::mcp_revision::Revision;

/// A `tools/list` entry: `name`, `title`, `description`, `inputSchema`, `outputSchema` (any
/// schema, as MCP 2026-07-28 allows; for a 2025-11-25 client, [`tool_for`] leaves out one that
/// is not an object's, as tool-mcp does), `annotations`, `execution: {"taskSupport":
/// "optional"}` for a tool that may run as a task (`"required"` for one that runs only as
/// one), and `icons` and `_meta` when the tool has them
/// (an icon whose `src` is not an `https:`/`http:` URL or a base64 image `data:` URI, or a
/// `_meta` key MCP's key rules refuse, is an error).
///
/// Annotations say `readOnlyHint` always, and `destructiveHint`, `idempotentHint` and
/// `openWorldHint` only when the tool claims them: left out, MCP clients assume the cautious
/// defaults (may destroy, reaches the outside world), which is right for a tool that said
/// nothing.
///
/// This is [`tool_for`] the latest revision ([`Revision::LATEST`]).
pub fn tool(definition: &ToolDefinition) -> Result<Value, ExportError> {
    tool_for(definition, Revision::LATEST)
}

/// A `tools/list` entry as [`tool`] writes it, for a client of `revision`: for a 2025-11-25
/// client, whose revision takes an object's output schema alone (and refuses the whole list
/// for another), an `outputSchema` whose root is not `"type": "object"` is left out; the tool
/// is listed, and its calls' results carry the output's JSON text ([`write_result_for`]).
///
/// A schema MCP cannot carry is an error whatever the revision, as the registry refuses it
/// for every client when it is made. An entry exported already (by [`tool`], or the
/// registry's `export(Provider::Mcp)`) is fitted to a revision by [`fit_tool`].
pub fn tool_for(definition: &ToolDefinition, revision: Revision) -> Result<Value, ExportError> {
    let input_schema = match definition.is_as_written() {
        true => definition.input_schema.clone(),
        false => inlined(definition, Provider::Mcp, Recursion::KeepRef)?,
    };
    let mut entry = Map::new();
    entry.insert("name".into(), definition.name.clone().into());
    if let Some(title) = &definition.title {
        entry.insert("title".into(), title.clone().into());
    }
    entry.insert("description".into(), definition.description.clone().into());
    entry.insert("inputSchema".into(), Value::Object(input_schema));
    // Any schema, as 2026-07-28 (SEP-2106) allows, and a result's `structuredContent` any value
    // (`write_result`). A 2025-11-25 client takes an object's alone, and refuses the whole list
    // for another: its server leaves such a schema out of that client's list, and such a value
    // out of its results (tool-mcp: rmcp's strip of the list, its own `call_tool_result`).
    if let Some(output_schema) = &definition.output_schema {
        let output_schema = crate::providers::inline::exportable(output_schema, Recursion::KeepRef)
            .map_err(|mut error| {
                // Said of the output, where a path alone reads as a field of the arguments.
                error.path = match error.path.as_str() {
                    "(arguments)" => "(output)".to_owned(),
                    path => format!("(output) {path}"),
                };
                ExportError::new(definition, Some(Provider::Mcp), error)
            })?;
        entry.insert("outputSchema".into(), Value::Object(output_schema));
    }
    let hints = definition.annotations;
    let mut annotations = Map::new();
    if let Some(title) = &definition.title {
        annotations.insert("title".into(), title.clone().into());
    }
    annotations.insert("readOnlyHint".into(), hints.read_only.into());
    for (claimed, key) in [
        (hints.destructive, "destructiveHint"),
        (hints.idempotent, "idempotentHint"),
        (hints.open_world, "openWorldHint"),
    ] {
        if claimed {
            annotations.insert(key.into(), true.into());
        }
    }
    entry.insert("annotations".into(), Value::Object(annotations));
    if definition.runs_as_task() {
        // The field of 2025-11-25; the tasks extension of 2026-07-28 has none, as its server
        // decides per call, but clients of both read it as "may run as a task".
        let mut execution = Map::new();
        let support = match definition.requires_task() {
            true => "required",
            false => "optional",
        };
        execution.insert("taskSupport".into(), support.into());
        entry.insert("execution".into(), Value::Object(execution));
    }
    super::mcp_meta::insert(definition, &mut entry)?;
    let mut entry = Value::Object(entry);
    fit_tool(&mut entry, revision);
    Ok(entry)
}

/// Fits a `tools/list` entry that [`tool`] wrote (or the registry's `export(Provider::Mcp)`)
/// to a client of `revision`, as [`tool_for`] writes it: for 2025-11-25, an `outputSchema`
/// whose root is not `"type": "object"` is left out.
pub fn fit_tool(entry: &mut Value, revision: Revision) {
    if !revision.takes_any_output()
        && let Value::Object(entry) = entry
        && entry
            .get("outputSchema")
            .and_then(|schema| schema.get("type"))
            != Some(&"object".into())
    {
        entry.remove("outputSchema");
    }
}

/// Reads `tools/call` params (`{"name": ..., "arguments": {...}}`) into a call with the
/// request's `id`.
pub fn read_call(params: &Value, id: impl Into<String>) -> Result<ToolCall, Refusal> {
    let name = string_field(params, "name").ok_or_else(|| {
        bad_call(
            "MCP tools/call params",
            r#"{"name": "...", "arguments": {...}}"#,
        )
    })?;
    let arguments = params
        .get("arguments")
        .map_or_else(Arguments::empty, Arguments::from);
    Ok(ToolCall::new(id, name, arguments))
}

/// A `CallToolResult`: `content` (the text, or the blocks), `structuredContent` for structured
/// output (with its JSON text as the content too, as MCP asks) or for the first
/// [`Content::Structured`] block (that block's text is the content where it stands), whatever
/// JSON it is, as MCP 2026-07-28 allows (for a 2025-11-25 client, whose revision takes an
/// object alone, [`write_result_for`] writes the first structured block that is one, or none),
/// and `isError`, true for a refusal, whose text form is the content. The result's
/// [`notes`](crate::ToolResult::notes), if any, follow as one more text block, so the model
/// reads them and the output's own blocks stay as they were.
///
/// This is the shape both revisions share, with 2026-07-28's `structuredContent` of any JSON
/// and without its `resultType`: [`write_result_for`] fits it to one revision.
pub fn write_result(result: &crate::outcome::result::ToolResult) -> Value {
    let mut written = match &result.outcome {
        Err(refusal) => json!({
            "content": [{"type": "text", "text": refusal.to_string()}],
            "isError": true,
        }),
        Ok(output) => {
            let mut written = json!({"content": content(output), "isError": false});
            if let Some(value) = structured_content(output) {
                written["structuredContent"] = value;
            }
            written
        }
    };
    if !result.notes.is_empty()
        && let Some(Value::Array(blocks)) = written.get_mut("content")
    {
        blocks.push(json!({"type": "text", "text": result.notes_text()}));
    }
    written
}

/// A `CallToolResult` as [`write_result`] writes it, for a client of `revision`:
/// - 2026-07-28: with `"resultType": "complete"`, which that revision requires of every result;
/// - 2025-11-25, whose revision takes an object alone: a `structuredContent` that is not an
///   object is replaced by the value of the output's first structured block that is one, or
///   left out. Nothing is lost to the model: the value's JSON text (or each structured
///   block's own text) is in the content already.
pub fn write_result_for(result: &crate::outcome::result::ToolResult, revision: Revision) -> Value {
    let mut written = write_result(result);
    if revision.takes_any_output() {
        written["resultType"] = "complete".into();
    } else if let Value::Object(fields) = &mut written
        && fields
            .get("structuredContent")
            .is_some_and(|value| !value.is_object())
    {
        match first_object_block(&result.outcome) {
            Some(value) => fields.insert("structuredContent".into(), value.clone()),
            None => fields.remove("structuredContent"),
        };
    }
    written
}

/// The value of the first of an output's structured blocks that is an object.
fn first_object_block(outcome: &Result<Output, Refusal>) -> Option<&Value> {
    let Ok(Output::Content(blocks)) = outcome else {
        return None;
    };
    blocks.iter().find_map(|block| match block {
        Content::Structured { value, .. } if value.is_object() => Some(value),
        _ => None,
    })
}

/// Reads a `CallToolResult` back into what came of the call: the refusal for `isError` (the
/// very refusal, when its text is one's text form, with the lines of any notes block after
/// it; else a `failed` one with the text), else
/// the `structuredContent`, else the content: nothing, one text, or the blocks (those of a type
/// this framework does not have are left out). JSON that is not an object is a `failed`
/// refusal.
pub fn read_result(result: &Value) -> Result<Output, Refusal> {
    let Value::Object(result) = result else {
        return Err(Refusal::failed(format!(
            "this is not an MCP CallToolResult: {result}"
        )));
    };
    let content = result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let text: Vec<&str> = content
            .iter()
            .filter_map(|block| string_field(block, "text"))
            .collect();
        let text = text.join("\n");
        return Err(Refusal::parse(&text).unwrap_or_else(|| Refusal::failed(text)));
    }
    if let Some(structured) = result.get("structuredContent") {
        let json = serde_json::value::to_raw_value(structured)
            .map_err(|error| Refusal::failed(error.to_string()))?;
        return Ok(Output::Json(json));
    }
    let blocks: Vec<Content> = content.iter().filter_map(read_block).collect();
    Ok(match blocks.as_slice() {
        [] => Output::Empty,
        [Content::Text(text)] => Output::Text(text.clone()),
        _ => Output::Content(blocks),
    })
}

/// The result's `structuredContent`: structured output, or the value of the first structured
/// block, whatever JSON it is, as MCP 2026-07-28 allows. (A 2025-11-25 client takes an object
/// alone: its server leaves out any other, whose text is the content already.)
fn structured_content(output: &Output) -> Option<Value> {
    match output {
        Output::Json(json) => serde_json::from_str(json.get()).ok(),
        Output::Content(blocks) => blocks.iter().find_map(|block| match block {
            Content::Structured { value, .. } => Some(value.clone()),
            _ => None,
        }),
        _ => None,
    }
}

fn content(output: &Output) -> Vec<Value> {
    match output {
        Output::Empty => Vec::new(),
        Output::Content(blocks) => blocks.iter().map(write_block).collect(),
        other => vec![json!({"type": "text", "text": other.as_text()})],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::result::ToolResult;

    fn written(outcome: Result<Output, Refusal>) -> Value {
        write_result(&ToolResult {
            id: "1".into(),
            name: "t".into(),
            outcome,
            notes: Vec::new(),
        })
    }

    #[test]
    fn notes_are_one_more_text_block_after_the_outcome() {
        let note = crate::outcome::refusal::Line::new(
            "adjusted",
            ["limit", "read the text \"10\" as the number 10"],
        );
        let noted = |outcome| {
            write_result(&ToolResult {
                id: "1".into(),
                name: "t".into(),
                outcome,
                notes: vec![note.clone()],
            })
        };
        let note_block = json!({"type": "text", "text": "adjusted\tlimit\tread the text \"10\" as the number 10"});
        let structured = noted(Output::json(&json!({"matched": 5})));
        assert_eq!(
            structured["content"],
            json!([{"type": "text", "text": r#"{"matched":5}"#}, note_block])
        );
        assert_eq!(structured["structuredContent"], json!({"matched": 5}));
        let refused = noted(Err(Refusal::bad_arguments("1 fault")));
        assert_eq!(refused["content"][1], note_block);
        assert_eq!(
            read_result(&refused),
            Err(Refusal::bad_arguments("1 fault").line("adjusted", note.cells.clone()))
        );
    }

    #[test]
    fn a_result_reads_back_as_what_was_written() {
        let outcomes = [
            Ok(Output::Empty),
            Ok(Output::text("two\tcolumns")),
            Output::json(&json!({"matched": 5, "tags": ["a", "b"]})),
            Ok(Output::Content(vec![
                Content::text("a"),
                Content::image(vec![1, 2], "image/png"),
                Content::audio(vec![3], "audio/wav"),
                Content::resource_link("file:///n.md", "n"),
                Content::resource_text("file:///n.md", "text/markdown", "# n"),
                Content::resource_blob("file:///n.bin", "application/octet-stream", [0u8, 255]),
            ])),
            Err(Refusal::new("conflict", "the note moved on").line("fault", ["id", "stale"])),
        ];
        for outcome in outcomes {
            assert_eq!(read_result(&written(outcome.clone())), outcome);
        }
    }

    #[test]
    fn structured_output_of_any_json_is_the_structured_content_beside_its_text() {
        // MCP 2026-07-28 (SEP-2106): a list, a number, text, null.
        for value in [json!([1, 2]), json!(7), json!("seven"), json!(null)] {
            let output = Output::json(&value);
            let result = written(output.clone());
            assert_eq!(result["structuredContent"], value);
            assert_eq!(
                result["content"],
                json!([{"type": "text", "text": value.to_string()}])
            );
            assert_eq!(read_result(&result), output);
        }
    }

    #[test]
    fn what_mcp_cannot_tell_apart_reads_as_the_plainer_output() {
        assert_eq!(
            read_result(&written(Ok(Output::Content(vec![Content::text("a")])))),
            Ok(Output::text("a"))
        );
        // A structured block reads back as structured output of its value, its text lost.
        let value = json!({"rows": [1, 2]});
        let block = Content::structured(value.clone(), "2 rows");
        assert_eq!(
            read_result(&written(Ok(Output::Content(vec![block])))),
            Output::json(&value)
        );
    }

    #[test]
    fn a_structured_block_is_its_text_for_the_model_and_its_value_for_programs() {
        let value = json!({"rows": [1, 2]});
        let structured = written(Ok(Output::Content(vec![
            Content::image(vec![1], "image/png"),
            Content::structured(value.clone(), "2 rows"),
            Content::structured(json!({"other": true}), "not this one"),
        ])));
        assert_eq!(
            structured["content"][1],
            json!({"type": "text", "text": "2 rows"})
        );
        assert_eq!(structured["structuredContent"], value);
        // A value of any JSON, as 2026-07-28 allows.
        let listed = written(Ok(Output::Content(vec![Content::structured(
            json!([1, 2]),
            "2 numbers",
        )])));
        assert_eq!(
            listed,
            json!({"content": [{"type": "text", "text": "2 numbers"}], "isError": false,
                "structuredContent": [1, 2]})
        );
    }

    #[test]
    fn each_revision_is_written_the_structured_content_it_takes() {
        let listed = json!([1, 2]);
        let sum = json!({"sum": 3});
        let outcomes = [
            (Output::json(&listed), None),
            (Output::json(&json!("seven")), None),
            (Output::json(&json!(null)), None),
            (Output::json(&sum), Some(sum.clone())),
            (
                Ok(Output::Content(vec![
                    Content::structured(listed.clone(), "two numbers"),
                    Content::structured(sum.clone(), "their sum"),
                    Content::structured(json!({"product": 2}), "their product"),
                ])),
                Some(sum.clone()),
            ),
            (Ok(Output::text("plain")), None),
            (Err(Refusal::failed("no")), None),
        ];
        let note = crate::outcome::refusal::Line::new("adjusted", ["limit", "read as 10"]);
        let noted = |outcome: &Result<Output, Refusal>, notes: &[_]| ToolResult {
            id: "1".into(),
            name: "t".into(),
            outcome: outcome.clone(),
            notes: notes.to_vec(),
        };
        let results = outcomes.iter().flat_map(|(outcome, older_takes)| {
            [
                (noted(outcome, &[]), older_takes),
                (noted(outcome, std::slice::from_ref(&note)), older_takes),
            ]
        });
        for (result, older_takes) in results {
            let shared = write_result(&result);
            let mut latest = shared.clone();
            latest["resultType"] = json!("complete");
            assert_eq!(write_result_for(&result, Revision::V2026_07_28), latest);
            let older = write_result_for(&result, Revision::V2025_11_25);
            assert_eq!(
                older.get("structuredContent"),
                older_takes.as_ref(),
                "{older}"
            );
            assert_eq!(older.get("resultType"), None);
            // What the model reads is the same: a value left out is in the text already.
            assert_eq!(older["content"], shared["content"]);
            assert_eq!(older["isError"], shared["isError"]);
        }
    }

    #[test]
    fn a_foreign_result_reads_as_far_as_it_can() {
        let error = json!({"content": [{"type": "text", "text": "disk full"}], "isError": true});
        assert_eq!(read_result(&error), Err(Refusal::failed("disk full")));
        let unknown = json!({"content": [
            {"type": "hologram", "uri": "file:///a"},
            {"type": "text", "text": "kept"},
        ]});
        assert_eq!(read_result(&unknown), Ok(Output::text("kept")));
        let embedded = json!({"content": [
            {"type": "resource", "resource": {"uri": "file:///a", "text": "a"}},
            {"type": "text", "text": "kept"},
        ]});
        assert_eq!(
            read_result(&embedded),
            Ok(Output::Content(vec![
                Content::Resource {
                    uri: "file:///a".to_owned(),
                    mime_type: None,
                    contents: crate::outcome::ResourceContents::Text("a".to_owned()),
                },
                Content::text("kept"),
            ]))
        );
        assert_eq!(read_result(&json!({})), Ok(Output::Empty));
        assert_eq!(read_result(&json!([])).unwrap_err().code, "failed");
    }
}
