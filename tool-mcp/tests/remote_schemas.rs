//! Remote toolkits against servers on the official Python and TypeScript SDKs whose tools take
//! what pydantic and zod write for the types MCP servers commonly take (dicts of anything,
//! unions, tuples, literals, bounds, formats, a model that holds itself, a tagged union): the
//! registry takes them for every provider, and each provider is shown every tool in a form it
//! takes.

mod support;

use serde_json::{Map, Value, json};
use tool_core::tool::ToolDefinition;
use tool_core::{Provider, Registry};
use tool_mcp::RemoteToolkit;
use tool_tests::{gemini_types, meta_schema};

/// The tools of the server `command` starts, in a registry for every provider.
async fn registry_of(name: &str, command: tokio::process::Command) -> Registry {
    let remote = RemoteToolkit::connect_stdio(name, command)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    remote
        .add_to(Registry::builder())
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The pydantic server's tools in a registry for every provider.
async fn pydantic_registry() -> Registry {
    let mut command = tokio::process::Command::new(support::clients::python());
    command.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/mcp_pydantic_server.py"
    ));
    registry_of("pydantic", command).await
}

/// The zod server's tools in a registry for every provider.
async fn zod_registry() -> Registry {
    let command = support::clients::node_client("mcp_zod_server.mjs");
    registry_of("zod", command.into()).await
}

/// Asserts what every provider takes of every tool of `registry`: Google's SDK reads each
/// Gemini declaration, in the subset when it says no JSON Schema; OpenAI sees items in every
/// array and properties at the root; Anthropic an object at the top whose `$ref`s point into
/// the definitions beside them; and every provider's JSON Schema is 2020-12's, which
/// Anthropic's API holds each tool's schema to.
fn assert_every_provider_takes(registry: &Registry) {
    meta_schema::assert_2020_12(&meta_schema::schemas_of(registry));
    let gemini = exported(registry, Provider::Gemini);
    gemini_types::assert_taken(&gemini.values().cloned().collect::<Vec<_>>());
    for declaration in gemini.values() {
        if let Some(parameters) = declaration.get("parameters") {
            gemini_types::assert_in_subset(parameters);
        }
    }
    for (name, tool) in &exported(registry, Provider::OpenAi) {
        let parameters = &tool["function"]["parameters"];
        assert!(parameters["properties"].is_object(), "{name}: {parameters}");
        every_object(parameters, &mut |schema| {
            if schema.get("type") == Some(&json!("array")) {
                assert!(schema.contains_key("items"), "{name}: {schema:?}");
            }
        });
    }
    for (name, tool) in exported(registry, Provider::Anthropic) {
        let schema = &tool["input_schema"];
        assert_eq!(schema["type"], "object", "{name}: {schema}");
        every_object(schema, &mut |map| {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let target = reference.strip_prefix("#/$defs/").unwrap_or_default();
                assert!(schema["$defs"][target].is_object(), "{name}: {reference}");
            }
        });
    }
}

/// Calls `visit` on every schema object within `schema`, keywords' values included.
fn every_object(schema: &Value, visit: &mut dyn FnMut(&Map<String, Value>)) {
    match schema {
        Value::Object(map) => {
            visit(map);
            map.values().for_each(|value| every_object(value, visit));
        }
        Value::Array(items) => items.iter().for_each(|item| every_object(item, visit)),
        _ => {}
    }
}

/// The export of `provider` as a map from each tool's name to its exported tool.
fn exported(registry: &Registry, provider: Provider) -> Map<String, Value> {
    let tools = registry.export(provider).unwrap();
    tools
        .iter()
        .cloned()
        .map(|tool| {
            let name = match provider {
                Provider::OpenAi => tool["function"]["name"].clone(),
                _ => tool["name"].clone(),
            };
            (name.as_str().unwrap().to_owned(), tool)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pydantic_s_schemas_are_shown_to_every_provider_in_a_form_it_takes() {
    let registry = pydantic_registry().await;

    assert_every_provider_takes(&registry);
    // Gemini: in the subset where it can say the schema (a tagged union), else JSON Schema (a
    // dict of anything; a model that holds itself, by `$ref`).
    let gemini = exported(&registry, Provider::Gemini);
    assert!(gemini["pet_add"]["parameters"].is_object(), "{gemini:?}");
    let search = &gemini["search"]["parametersJsonSchema"];
    assert_eq!(
        search["properties"]["metadata"]["additionalProperties"], true,
        "{search}"
    );
    let tree = &gemini["tree_count"]["parametersJsonSchema"];
    assert!(tree["$defs"]["Node"].is_object(), "{tree}");
    // OpenAI: the tagged union in strict mode, every object closed and every field required.
    let openai = exported(&registry, Provider::OpenAi);
    let pet = &openai["pet_add"]["function"];
    assert_eq!(pet["strict"], true, "{pet}");
    every_object(&pet["parameters"], &mut |schema| {
        assert!(!schema.contains_key("discriminator"), "{schema:?}");
        if let Some(Value::Object(properties)) = schema.get("properties") {
            assert_eq!(schema["additionalProperties"], false, "{schema:?}");
            let required: Vec<&str> = schema["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|name| name.as_str().unwrap())
                .collect();
            let listed: Vec<&str> = properties.keys().map(String::as_str).collect();
            assert_eq!(required, listed, "{schema:?}");
        }
    });
    assert_eq!(openai["search"]["function"]["strict"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zod_s_schemas_are_shown_to_every_provider_in_a_form_it_takes() {
    let registry = zod_registry().await;
    assert_every_provider_takes(&registry);
    // A record of anything has no form in Gemini's subset; the tagged union has one.
    let gemini = exported(&registry, Provider::Gemini);
    assert!(
        gemini["search"]["parametersJsonSchema"].is_object(),
        "{gemini:?}"
    );
    assert!(gemini["pet_add"]["parameters"].is_object(), "{gemini:?}");
    // zod writes a union of a string and a number as one schema of two types, which Gemini's
    // subset says as a branch a type (shown here without the records, which take the schema
    // out of the subset).
    let search = registry
        .definitions()
        .iter()
        .find(|definition| definition.name == "search")
        .cloned()
        .unwrap();
    let mut schema = search.input_schema.clone();
    assert_eq!(
        schema["properties"]["value"]["type"],
        json!(["string", "number"]),
        "{schema:?}"
    );
    for record in ["metadata", "labels", "rows"] {
        schema["properties"].as_object_mut().unwrap().remove(record);
    }
    let narrowed = ToolDefinition::new("search", "Searches.", schema).checked_elsewhere();
    let declaration = tool_core::providers::gemini::tool(&narrowed).unwrap();
    gemini_types::assert_taken(std::slice::from_ref(&declaration));
    let kinds: Vec<&Value> = declaration["parameters"]["properties"]["value"]["anyOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{declaration}"))
        .iter()
        .map(|branch| &branch["type"])
        .collect();
    assert_eq!(kinds, [&json!("string"), &json!("number")], "{declaration}");
}
