//! A remote toolkit against a server on the official Python `mcp` SDK whose tools take what
//! pydantic writes for the types MCP servers commonly take (dicts of anything, unions, tuples,
//! literals, bounds, a model that holds itself, a tagged union): the registry takes them for
//! every provider, and each provider is shown every tool in a form it takes.

mod support;

use serde_json::{Map, Value, json};
use tool_core::{Provider, Registry};
use tool_mcp::RemoteToolkit;
use tool_tests::gemini_types;

/// The pydantic server's tools in a registry for every provider.
async fn pydantic_registry() -> Registry {
    let mut command = tokio::process::Command::new(support::clients::python());
    command.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/mcp_pydantic_server.py"
    ));
    let remote = RemoteToolkit::connect_stdio("py", command)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    remote
        .add_to(Registry::builder())
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
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

    // Gemini: what Google's own SDK reads as a declaration; in the subset where it can say the
    // schema (a tagged union), else JSON Schema (a dict of anything; a model that holds
    // itself, by `$ref`).
    let gemini = exported(&registry, Provider::Gemini);
    gemini_types::assert_taken(&gemini.values().cloned().collect::<Vec<_>>());
    gemini_types::assert_in_subset(&gemini["pet_add"]["parameters"]);
    let search = &gemini["search"]["parametersJsonSchema"];
    assert_eq!(
        search["properties"]["metadata"]["additionalProperties"], true,
        "{search}"
    );
    let tree = &gemini["tree_count"]["parametersJsonSchema"];
    assert!(tree["$defs"]["Node"].is_object(), "{tree}");

    // OpenAI: every array says its items and the root lists properties, as OpenAI asks with or
    // without strict mode; the tagged union in strict mode, with every object closed and every
    // field required.
    let openai = exported(&registry, Provider::OpenAi);
    for (name, tool) in &openai {
        let parameters = &tool["function"]["parameters"];
        assert!(parameters["properties"].is_object(), "{name}: {parameters}");
        every_object(parameters, &mut |schema| {
            if schema.get("type") == Some(&json!("array")) {
                assert!(schema.contains_key("items"), "{name}: {schema:?}");
            }
        });
    }
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

    // Anthropic: an object at the top; each `$ref` left (the model that holds itself) into
    // the definitions sent beside it.
    for (name, tool) in exported(&registry, Provider::Anthropic) {
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
