//! JSON Schema 2020-12's meta-schema, judging the schemas every export writes
//! (`meta_schema.py` beside this file): Anthropic's API holds each tool's `input_schema` to it
//! and refuses the whole request, every tool with it, for one that fails, and Claude's clients
//! send MCP tools on to it; OpenAI's API checks a function's `parameters` against JSON Schema's
//! form, and Gemini its `parametersJsonSchema`.

use serde_json::Value;
use tool_core::tool::Tool;
use tool_core::{Provider, Registry};

/// Where each provider's tool holds its JSON Schemas: MCP's `inputSchema` and `outputSchema`,
/// Anthropic's `input_schema`, OpenAI's `parameters`, Gemini's `parametersJsonSchema`.
const PLACES: [(Provider, &[&str]); 4] = [
    (Provider::Mcp, &["/inputSchema", "/outputSchema"]),
    (Provider::Anthropic, &["/input_schema"]),
    (Provider::OpenAi, &["/function/parameters"]),
    (Provider::Gemini, &["/parametersJsonSchema"]),
];

/// The JSON Schemas of `tool`, as `provider` is shown it, each named by provider, tool and
/// place.
fn schemas_in(provider: Provider, tool: &Value, schemas: &mut Vec<(String, Value)>) {
    let name = tool.pointer("/function/name").unwrap_or(&tool["name"]);
    for (_, pointers) in PLACES.iter().filter(|(each, _)| *each == provider) {
        for pointer in pointers.iter() {
            if let Some(schema) = tool.pointer(pointer) {
                schemas.push((format!("{provider} {name} {pointer}"), schema.clone()));
            }
        }
    }
}

/// Every schema `registry` shows a provider in JSON Schema (MCP's `inputSchema` and
/// `outputSchema`, Anthropic's `input_schema`, OpenAI's `parameters`, Gemini's
/// `parametersJsonSchema`). A provider the registry is not made for is skipped.
pub fn schemas_of(registry: &Registry) -> Vec<(String, Value)> {
    let mut schemas = Vec::new();
    for (provider, _) in PLACES {
        let Ok(tools) = registry.export(provider) else {
            continue;
        };
        for tool in tools.iter() {
            schemas_in(provider, tool, &mut schemas);
        }
    }
    schemas
}

/// Every schema each provider is shown of each tool of `tools`, as [`schemas_of`], for tools a
/// registry may refuse for some providers: what a provider refuses is skipped.
pub fn schemas_of_tools(tools: &[&dyn Tool]) -> Vec<(String, Value)> {
    let mut schemas = Vec::new();
    for tool in tools {
        let definition = tool.definition();
        for (provider, _) in PLACES {
            if let Ok(exported) = tool_core::providers::export(&definition, provider) {
                schemas_in(provider, &exported, &mut schemas);
            }
        }
    }
    schemas
}

/// Asserts that every schema each provider is shown of each tool of `tools`
/// ([`schemas_of_tools`]) is a JSON Schema 2020-12 schema.
pub fn assert_tools_2020_12(tools: &[&dyn Tool]) {
    assert_2020_12(&schemas_of_tools(tools));
}

/// Asserts that every schema of `schemas` (each with what it is) is a JSON Schema 2020-12
/// schema, naming each that is not, where, and why.
pub fn assert_2020_12(schemas: &[(String, Value)]) {
    assert!(!schemas.is_empty(), "no schemas to judge");
    // Each schema judged once, however many providers are shown it.
    let mut distinct: Vec<&Value> = Vec::new();
    for (_, schema) in schemas {
        if !distinct.contains(&schema) {
            distinct.push(schema);
        }
    }
    let values: Vec<Value> = distinct.iter().map(|schema| (*schema).clone()).collect();
    let verdicts = crate::judge::verdicts(
        "meta_schema.py",
        "JSON Schema 2020-12's meta-schema (meta_schema.py)",
        &values,
    );
    let verdict_of = |schema: &Value| {
        let at = distinct.iter().position(|each| *each == schema);
        &verdicts[at.expect("every schema is among the distinct ones")]
    };
    let refused: Vec<String> = (schemas.iter())
        .filter(|(_, schema)| verdict_of(schema)["valid"] != true)
        .map(|(what, schema)| format!("{what}: {}\n  {schema}", verdict_of(schema)["errors"]))
        .collect();
    assert!(
        refused.is_empty(),
        "not JSON Schema 2020-12:\n{}",
        refused.join("\n")
    );
}
