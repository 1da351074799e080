//! A remote tool's answer held to the output schema it was listed with, which the registry
//! advertises as the tool's own.
//!
//! MCP's SDKs refuse, in a client, a result whose tool has an output schema but that carries
//! no `structuredContent`, or carries one the schema does not allow; a registry serving the
//! tool on would otherwise pass such a result to its clients, and tell a model a shape that
//! is not true. As those SDKs do, a `format` is read as an annotation.

use rmcp::model::CallToolResult;
use tool_core::Refusal;
use tool_core::tool::OutputCheck;

/// Refuses, as `failed`, a result `server` gave for its tool `tool` that does not hold what
/// the tool's output schema says (`check`); a tool without one takes any result.
pub(super) fn held_to_schema(
    server: &str,
    tool: &str,
    check: Option<&OutputCheck>,
    result: &CallToolResult,
) -> Result<(), Refusal> {
    let Some(check) = check else {
        return Ok(());
    };
    let Some(structured) = &result.structured_content else {
        return Err(Refusal::failed(format!(
            "the MCP server `{server}` answered `{tool}` without structured content, though \
             the tool's output schema says what its result holds"
        )));
    };
    let faults = check.faults(structured);
    if faults.is_empty() {
        return Ok(());
    }
    let mut refusal = Refusal::failed(format!(
        "the MCP server `{server}` answered `{tool}` with structured content that the tool's \
         output schema does not allow"
    ));
    for fault in faults {
        refusal = refusal.line("fault", [fault.path, fault.problem]);
    }
    Err(refusal)
}
