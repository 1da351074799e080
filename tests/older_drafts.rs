//! A remote server's schema written in an older draft's forms, or with a serializer's `null`s,
//! as MCP servers publish them (OpenAPI 3.0's generators write draft-04's boolean
//! `exclusiveMinimum`, zod-to-json-schema a draft-07 `$schema`): every provider is shown it as
//! JSON Schema 2020-12, read as its writer meant it, where Anthropic's API refused the whole
//! request for it, every tool with it. A form with no reading refuses the tool, naming it.

use serde_json::{Value, json};
use tool_core::providers::mcp;
use tool_core::tool::ToolDefinition;
use tool_core::{Provider, Registry};
use tool_tests::{Raw, gemini_types, meta_schema};

/// A remote tool's definition of `schema`, as its server lists it.
fn remote(name: &str, schema: Value) -> ToolDefinition {
    let Value::Object(schema) = schema else {
        panic!("a schema object: {schema}")
    };
    ToolDefinition::new(name, "A tool of a remote server.", schema).checked_elsewhere()
}

/// The input schema MCP is shown for `schema`'s tool.
fn shown_to_mcp(schema: Value) -> Value {
    let exported = mcp::tool(&remote("probe", schema)).unwrap_or_else(|error| panic!("{error}"));
    exported["inputSchema"].clone()
}

/// Schemas as servers publish them, each slip of the module's list at least once.
fn published() -> Vec<ToolDefinition> {
    vec![
        // An OpenAPI 3.0 generator's bounds (a DNS record's time to live).
        remote(
            "record_create",
            json!({"type": "object", "required": ["name", "ttl"], "properties": {
                "name": {"type": "string"},
                "ttl": {"type": "integer", "minimum": 0, "exclusiveMinimum": true,
                        "maximum": 86400, "exclusiveMaximum": false},
                "weight": {"type": "number", "exclusiveMaximum": true}}}),
        ),
        // zod-to-json-schema's draft-07, a tuple among it.
        remote(
            "point_move",
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                   "properties": {
                       "to": {"type": "array", "items": [{"type": "number"}, {"type": "number"}],
                              "additionalItems": false, "minItems": 2},
                       "tags": {"type": "array", "items": {"type": "string"}, "additionalItems": false}},
                   "additionalProperties": false}),
        ),
        // A serializer's `null`s, names listed twice, draft-03's `any`, inside `not` too.
        remote(
            "note_put",
            json!({"type": "object", "required": ["text", "text"], "properties": {
                "text": {"type": "string", "description": null, "title": null, "enum": null,
                         "format": null, "not": {"const": "", "description": null}},
                "value": {"type": "any", "description": "Anything."},
                "kind": {"type": ["string", "null", "string"], "default": null},
                "mode": {"const": null, "x-order": null}}}),
        ),
        // `null` for keywords the registry has no check of, a `$ref` into a tuple as draft-07
        // wrote it, draft-07's `dependencies`, and a root typed `null`.
        remote(
            "span_mark",
            json!({"type": null, "properties": {
                "span": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}],
                         "additionalItems": null},
                "start": {"$ref": "#/properties/span/items/0"},
                "rest": {"type": "array", "items": [{"type": "string"}],
                         "additionalItems": {"type": "integer"}},
                "more": {"$ref": "#/properties/rest/additionalItems"},
                "label": {"type": "string", "not": null, "contentMediaType": null},
                "unit": {"type": "string"}},
                "dependencies": {"unit": ["label"], "label": {"required": ["span"]}}}),
        ),
        // A type that holds itself by a pointer into a draft-07 tuple (kept as written where
        // `$ref`s are followed), one into `dependencies`, and a writer of both tuple forms.
        remote(
            "list_walk",
            json!({"type": "object", "properties": {
                "list": {"type": "array", "items": [{"type": "object", "properties": {
                    "next": {"$ref": "#/properties/list/items/0"}}}]},
                "other": {"$ref": "#/dependencies/list"},
                "both": {"type": "array", "prefixItems": [{"type": "string"}],
                         "items": [{"type": "string"}], "additionalItems": false}},
                "dependencies": {"list": {"type": "object"}}}),
        ),
        // All of these inside a definition a `$ref` points to, and beside a `$ref`.
        remote(
            "batch_run",
            json!({"type": "object", "definitions": {"Step": {"type": "object",
                       "properties": {"at": {"type": "array", "items": [{"type": "integer",
                           "minimum": 1, "exclusiveMinimum": true}]}}, "required": null}},
                   "properties": {"steps": {"type": "array", "items": {"$ref": "#/definitions/Step"}},
                                  "first": {"$ref": "#/definitions/Step", "description": null}}}),
        ),
    ]
}

#[test]
fn every_provider_is_shown_an_older_draft_s_schema_as_json_schema_2020_12() {
    let mut builder = Registry::builder();
    for definition in published() {
        builder = builder.tool(Raw(definition));
    }
    let registry = builder.build().unwrap_or_else(|error| panic!("{error}"));
    let schemas = meta_schema::schemas_of(&registry);
    let providers = [
        Provider::Mcp,
        Provider::Anthropic,
        Provider::OpenAi,
        Provider::Gemini,
    ];
    for provider in providers {
        assert!(
            schemas
                .iter()
                .any(|(what, _)| what.starts_with(&provider.to_string())),
            "{provider} is shown no schema: {schemas:?}"
        );
    }
    meta_schema::assert_2020_12(&schemas);
    let gemini = registry.export(Provider::Gemini).unwrap();
    gemini_types::assert_taken(&gemini.iter().cloned().collect::<Vec<_>>());
}

#[test]
fn an_older_draft_s_forms_are_read_as_their_writer_meant_them() {
    // Draft-04: `true` excludes the bound beside it, `false` says nothing, and `true` beside
    // no bound excludes nothing.
    let bounds = shown_to_mcp(published()[0].input_schema.clone().into());
    assert_eq!(
        bounds["properties"]["ttl"],
        json!({"type": "integer", "exclusiveMinimum": 0, "maximum": 86400})
    );
    assert_eq!(bounds["properties"]["weight"], json!({"type": "number"}));

    // Draft-07: a tuple's positions are 2020-12's `prefixItems`, what follows them `items`;
    // `additionalItems` beside no tuple said nothing. The `$schema` naming draft-07 goes with
    // them; one naming 2020-12 stays.
    let tuple = shown_to_mcp(published()[1].input_schema.clone().into());
    assert_eq!(tuple.get("$schema"), None, "{tuple}");
    assert_eq!(
        tuple["properties"]["to"],
        json!({"type": "array", "minItems": 2, "prefixItems": [{"type": "number"}, {"type": "number"}],
               "items": false})
    );
    assert_eq!(
        tuple["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    let current = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
                         "type": "object", "properties": {}});
    assert_eq!(shown_to_mcp(current.clone()), current);
    // Below the root, none, nor one naming 2020-12 with a `#`, which is written without.
    let nested = json!({"$schema": "https://json-schema.org/draft/2020-12/schema#",
        "type": "object", "properties": {"at": {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}}});
    let shown = shown_to_mcp(nested);
    assert_eq!(shown["properties"]["at"], json!({"type": "string"}));
    assert_eq!(
        shown["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );

    // `null` where a keyword takes none is absent; `const` and `default` may be null, and an
    // extension is the server's own. Names are listed once, and `any` is no type.
    let nulls = shown_to_mcp(published()[2].input_schema.clone().into());
    assert_eq!(nulls["required"], json!(["text"]));
    assert_eq!(
        nulls["properties"]["text"],
        json!({"type": "string", "not": {"const": ""}})
    );
    assert_eq!(
        nulls["properties"]["value"],
        json!({"description": "Anything."})
    );
    assert_eq!(
        nulls["properties"]["kind"],
        json!({"type": ["string", "null"], "default": null})
    );
    assert_eq!(
        nulls["properties"]["mode"],
        json!({"const": null, "x-order": null})
    );

    // `null` where a keyword takes none, whether or not the registry checks it; a `$ref` into a
    // tuple finds what it pointed at; `dependencies` split by kind.
    let span = shown_to_mcp(published()[3].input_schema.clone().into());
    assert_eq!(span.get("type"), None, "{span}");
    assert_eq!(
        span["properties"]["span"],
        json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]})
    );
    assert_eq!(span["properties"]["start"], json!({"type": "integer"}));
    assert_eq!(span["properties"]["more"], json!({"type": "integer"}));
    assert_eq!(span["properties"]["label"], json!({"type": "string"}));
    assert_eq!(span["dependentRequired"], json!({"unit": ["label"]}));
    assert_eq!(
        span["dependentSchemas"],
        json!({"label": {"required": ["span"]}})
    );
    assert_eq!(span.get("dependencies"), None, "{span}");

    // Inside a definition too, before its `$ref`s are written out.
    // A pointer through a renamed keyword points where its writer pointed.
    let list = shown_to_mcp(published()[4].input_schema.clone().into());
    assert_eq!(
        list["properties"]["list"]["prefixItems"][0]["properties"]["next"]["$ref"],
        "#/properties/list/prefixItems/0",
        "{list}"
    );
    // The schema holds itself by a pointer not into `$defs`, so it is kept as written.
    assert_eq!(
        list["properties"]["other"],
        json!({"$ref": "#/dependentSchemas/list"})
    );
    assert_eq!(
        list["properties"]["both"],
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false})
    );

    let steps = shown_to_mcp(published()[5].input_schema.clone().into());
    let step = json!({"type": "object", "properties": {"at": {"type": "array",
                      "prefixItems": [{"type": "integer", "exclusiveMinimum": 1}]}}});
    assert_eq!(steps["properties"]["steps"]["items"], step);
    assert_eq!(steps["properties"]["first"], step);
}

#[test]
fn a_type_json_schema_does_not_have_refuses_the_tool_naming_its_field() {
    for (kind, shown) in [
        (json!("int"), "\"int\""),
        (json!(["string", "date"]), "[\"string\",\"date\"]"),
        (json!([]), "[]"),
        (json!(7), "7"),
    ] {
        let schema = json!({"type": "object", "properties": {"when": {"type": kind}}});
        let refused = Registry::builder()
            .tool(Raw(remote("event_add", schema)))
            .build()
            .err()
            .unwrap_or_else(|| panic!("a registry with a `type` of {kind}"));
        let text = refused.to_string();
        for said in [
            "event_add",
            "when",
            &format!("the type it gives the field is {shown}"),
            "\"integer\"",
            "RemoteToolkit::without",
        ] {
            assert!(text.contains(said), "{said} in: {text}");
        }
    }
}

#[test]
fn a_remote_result_is_held_to_its_output_schema_as_clients_are_shown_it() {
    // A draft-07 tuple and a draft-04 bound in a server's output schema: MCP's clients are
    // shown `prefixItems` and an exclusive minimum, and a result is held to those.
    let mut definition = remote("pair_get", json!({"type": "object", "properties": {}}));
    definition.output_schema = json!({"type": "object", "properties": {
        "count": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
        "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                 "additionalItems": false}}})
    .as_object()
    .cloned();
    let shown = mcp::tool(&definition).unwrap()["outputSchema"].clone();
    assert_eq!(shown["properties"]["count"]["exclusiveMinimum"], 0);
    assert!(shown["properties"]["pair"]["prefixItems"].is_array());
    let check = definition.output_check().expect("an output schema");
    let faults = |output: Value| -> Vec<String> {
        (check.faults(&output).into_iter())
            .map(|fault| fault.path)
            .collect()
    };
    assert_eq!(faults(json!({"count": 0})), ["count"]);
    assert_eq!(faults(json!({"pair": [1, 2]})), ["pair[0]"]);
    assert_eq!(faults(json!({"pair": ["a", 2, 3]})), ["pair[2]"]);
    assert!(faults(json!({"count": 1, "pair": ["a", 2]})).is_empty());
}
