//! One exported tool read back as a typed function (name, description, parameters,
//! strictness), for the adapters that hand the export to an agent framework in its own types.

use serde_json::Value;

use super::gemini::JSON_SCHEMA_KEY;
use super::{ExportError, Provider};

/// A tool as a provider's export offers it to a model: what every agent framework's tool type
/// is made of.
pub(crate) struct Function {
    /// The tool's name.
    pub(crate) name: String,
    /// Its description.
    pub(crate) description: String,
    /// Its parameters' schema, as the export wrote it.
    pub(crate) parameters: Value,
    /// Whether the export asks for OpenAI's strict mode; `false` for the providers that have
    /// none.
    #[cfg_attr(
        not(any(test, feature = "async-openai", feature = "genai")),
        allow(
            dead_code,
            reason = "read by the adapters whose tools have a strict mode"
        )
    )]
    pub(crate) strict: bool,
}

impl Function {
    /// Reads one tool of `provider`'s export (an item of
    /// [`Registry::export`](crate::registry::Registry::export)): OpenAI's
    /// `{"type": "function", "function": {name, description, parameters, strict}}`, MCP's
    /// `{name, description, inputSchema, ..}`, Anthropic's `{name, description, input_schema}`
    /// or Gemini's `{name, description, parameters?}` (left out for a tool that takes
    /// nothing, read as an object of no properties; `parametersJsonSchema` in its place for a
    /// schema Gemini's subset has no form for).
    ///
    /// The export is this crate's own, so this fails only if the export and this reader ever
    /// part ways; the error then names the tool and the field, and says to report it as a bug
    /// of tool-core, rather than the tool being offered half read.
    pub(crate) fn read(exported: &Value, provider: Provider) -> Result<Function, ExportError> {
        let (function, prefix, parameters_key) = match provider {
            Provider::OpenAi => (
                exported.get("function").unwrap_or(&Value::Null),
                "function.",
                "parameters",
            ),
            Provider::Mcp => (exported, "", "inputSchema"),
            Provider::Anthropic => (exported, "", "input_schema"),
            Provider::Gemini => (exported, "", "parameters"),
        };
        let mismatch = |field: &str, expected: &str| ExportError {
            tool: function
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            provider: Some(provider),
            path: format!("(export).{prefix}{field}"),
            problem: format!(
                "tool-core's {provider} export has no {expected} `{prefix}{field}` here, which \
                 its adapters read; the export and its reader disagree, which is no fault of \
                 the tool: report it as a bug of tool-core, with the tool's definition"
            ),
        };
        let text = |field: &str| {
            function
                .get(field)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| mismatch(field, "string"))
        };
        let name = text("name")?;
        let description = text("description")?;
        let parameters = match function.get(parameters_key) {
            Some(schema @ Value::Object(_)) => schema.clone(),
            None if provider == Provider::Gemini => match function.get(JSON_SCHEMA_KEY) {
                Some(schema @ Value::Object(_)) => schema.clone(),
                None => serde_json::json!({"type": "object", "properties": {}}),
                Some(_) => return Err(mismatch(JSON_SCHEMA_KEY, "object")),
            },
            _ => return Err(mismatch(parameters_key, "object")),
        };
        let strict = match provider {
            Provider::OpenAi => function
                .get("strict")
                .and_then(Value::as_bool)
                .ok_or_else(|| mismatch("strict", "boolean"))?,
            _ => false,
        };
        Ok(Function {
            name,
            description,
            parameters,
            strict,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tool::definition::ToolDefinition;

    fn note_add() -> ToolDefinition {
        let schema = json!({
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        });
        let Value::Object(schema) = schema else {
            unreachable!("an object")
        };
        ToolDefinition::new("note_add", "Adds a note.", schema)
    }

    #[test]
    fn each_provider_s_export_reads_back_as_its_function() {
        let definition = note_add();
        for provider in Provider::ALL {
            let exported = super::super::export(&definition, provider).expect("exportable");
            let function = Function::read(&exported, provider).expect("readable");
            assert_eq!(
                (function.name.as_str(), function.description.as_str()),
                ("note_add", "Adds a note."),
                "{provider}"
            );
            assert_eq!(
                function.parameters["properties"]["text"]["type"]
                    .as_str()
                    .map(str::to_ascii_lowercase)
                    .as_deref(),
                Some("string"),
                "{provider}"
            );
            assert_eq!(function.strict, provider == Provider::OpenAi, "{provider}");
        }
    }

    #[test]
    fn a_tool_of_no_parameters_reads_from_gemini_as_an_empty_object() {
        let definition = ToolDefinition::new("ping", "Pings.", serde_json::Map::new());
        let exported = super::super::export(&definition, Provider::Gemini).expect("exportable");
        assert_eq!(exported.get("parameters"), None);
        let function = Function::read(&exported, Provider::Gemini).expect("readable");
        assert_eq!(
            function.parameters,
            json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn a_gemini_declaration_in_json_schema_reads_as_its_schema() {
        let schema = json!({
            "type": "object",
            "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}},
        });
        let Value::Object(schema) = schema else {
            unreachable!("an object")
        };
        let definition = ToolDefinition::new("label_set", "Sets labels.", schema);
        let exported = super::super::export(&definition, Provider::Gemini).expect("exportable");
        assert_eq!(exported.get("parameters"), None, "{exported}");
        let function = Function::read(&exported, Provider::Gemini).expect("readable");
        assert_eq!(
            function.parameters["properties"]["labels"]["additionalProperties"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn a_mismatch_names_the_field_and_says_to_report_it() {
        let exported = json!({"type": "function", "function": {
            "name": "note_add", "description": "Adds a note.", "parameters": {"type": "object"}
        }});
        let error = Function::read(&exported, Provider::OpenAi)
            .err()
            .expect("no `strict`");
        assert_eq!(error.tool, "note_add");
        assert_eq!(error.provider, Some(Provider::OpenAi));
        assert_eq!(error.path, "(export).function.strict");
        assert!(
            error.problem.contains("boolean `function.strict`")
                && error.problem.contains("report it as a bug of tool-core"),
            "{error}"
        );
        let error = Function::read(&json!({"name": "x"}), Provider::Mcp)
            .err()
            .expect("no `description`");
        assert_eq!(error.path, "(export).description");
    }
}
