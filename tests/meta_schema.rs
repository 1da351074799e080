//! JSON Schema 2020-12's meta-schema, judging the schemas every export writes
//! (`meta_schema.py` beside this file): Anthropic's API holds each tool's `input_schema` to it
//! and refuses the whole request, every tool with it, for one that fails, and Claude's clients
//! send MCP tools on to it; OpenAI's API checks a function's `parameters` against JSON Schema's
//! form, and Gemini its `parametersJsonSchema`.

use serde_json::Value;
use tool_core::{Provider, Registry};

/// Every schema `registry` shows a provider in JSON Schema, each named by provider, tool and
/// place: MCP's `inputSchema` and `outputSchema`, Anthropic's `input_schema`, OpenAI's
/// `parameters`, Gemini's `parametersJsonSchema`. A provider the registry is not made for is
/// skipped.
pub fn schemas_of(registry: &Registry) -> Vec<(String, Value)> {
    let places: [(Provider, &[&str]); 4] = [
        (Provider::Mcp, &["/inputSchema", "/outputSchema"]),
        (Provider::Anthropic, &["/input_schema"]),
        (Provider::OpenAi, &["/function/parameters"]),
        (Provider::Gemini, &["/parametersJsonSchema"]),
    ];
    let mut schemas = Vec::new();
    for (provider, pointers) in places {
        let Ok(tools) = registry.export(provider) else {
            continue;
        };
        for tool in tools.iter() {
            let name = tool.pointer("/function/name").unwrap_or(&tool["name"]);
            for pointer in pointers {
                if let Some(schema) = tool.pointer(pointer) {
                    schemas.push((format!("{provider} {name} {pointer}"), schema.clone()));
                }
            }
        }
    }
    schemas
}

/// Asserts that every schema of `schemas` (each with what it is) is a JSON Schema 2020-12
/// schema, naming each that is not, where, and why.
pub fn assert_2020_12(schemas: &[(String, Value)]) {
    assert!(!schemas.is_empty(), "no schemas to judge");
    let values: Vec<Value> = schemas.iter().map(|(_, schema)| schema.clone()).collect();
    let verdicts = crate::judge::verdicts(
        "meta_schema.py",
        "JSON Schema 2020-12's meta-schema (meta_schema.py)",
        &values,
    );
    let refused: Vec<String> = (schemas.iter().zip(&verdicts))
        .filter(|(_, verdict)| verdict["valid"] != true)
        .map(|((what, schema), verdict)| format!("{what}: {}\n  {schema}", verdict["errors"]))
        .collect();
    assert!(
        refused.is_empty(),
        "not JSON Schema 2020-12:\n{}",
        refused.join("\n")
    );
}
