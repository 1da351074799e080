//! JSON Schema 2020-12 written by hand, as MCP's conformance suite writes it: `$defs` with an
//! `$anchor`, `allOf` of an `anyOf`, `if`/`then`/`else`, `const`, `additionalProperties:
//! false`. Published as written, and every rule held, each fault with its path.

use serde_json::{Value, json};
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::tool::{InputSchema, Tool, ToolDefinition};
use tool_core::{Context, Provider, Refusal, Registry, ToolCall};

fn contact() -> InputSchema {
    InputSchema::new(
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        })
        .as_object()
        .cloned()
        .unwrap(),
    )
}

fn faults(arguments: Value) -> Vec<String> {
    match contact().read::<Value>(&Arguments::from(arguments), "contact") {
        Ok(_) => Vec::new(),
        Err(refusal) => refusal
            .to_string()
            .lines()
            .filter(|line| line.starts_with("fault"))
            .map(str::to_owned)
            .collect(),
    }
}

#[test]
fn what_fits_every_rule_is_read() {
    for fits in [
        json!({"contactMethod": "phone", "phone": "555"}),
        json!({"contactMethod": "email", "email": "a@b.c"}),
        json!({"email": "a@b.c", "address": {"city": "Oslo"}}),
    ] {
        assert_eq!(faults(fits.clone()), Vec::<String>::new(), "{fits}");
    }
}

#[test]
fn each_rule_is_held_with_its_path() {
    let cases = [
        // Neither field of the `anyOf`; the `else` asks for `email` too.
        (
            json!({}),
            vec![
                "fault\t(arguments)\texpected an object with phone or an object with email, \
                 received an object",
                "fault\temail\tmissing (the schema's `else` asks for it, as the value does not \
                 fit its `if`)",
            ],
        ),
        // The `if` holds, so `then` asks for `phone`.
        (
            json!({"contactMethod": "phone", "email": "a@b.c"}),
            vec![
                "fault\tphone\tmissing (the schema's `then` asks for it, as the value fits its \
                 `if`)",
            ],
        ),
        // No `contactMethod`, so the `if` fails, and `else` asks for `email`.
        (
            json!({"phone": "555"}),
            vec![
                "fault\temail\tmissing (the schema's `else` asks for it, as the value does not \
                 fit its `if`)",
            ],
        ),
        (
            json!({"email": "a@b.c", "fax": "1"}),
            vec!["fault\tfax\tunknown field"],
        ),
        // Through the `$ref` into `$defs`.
        (
            json!({"email": "a@b.c", "address": {"city": 3}}),
            vec!["fault\taddress.city\texpected string, received 3"],
        ),
        (
            json!({"email": "a@b.c", "contactMethod": "fax"}),
            vec!["fault\tcontactMethod\texpected one of \"phone\", \"email\", received \"fax\""],
        ),
    ];
    for (arguments, expected) in cases {
        assert_eq!(faults(arguments.clone()), expected, "{arguments}");
    }
}

/// A tool that advertises the schema as written, and reads its arguments with it.
struct Contact(InputSchema);

/// `Contact` without its schema published as written: MCP is shown it as every provider is.
struct Loose(Contact);

impl Tool for Loose {
    fn definition(&self) -> ToolDefinition {
        let written = self.0.definition();
        ToolDefinition::new("loose", written.description, written.input_schema)
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        self.0.call(arguments, ctx)
    }
}

#[test]
fn a_union_at_the_top_that_is_no_one_object_is_refused_for_mcp_too_unless_written_as_is() {
    // Claude's clients send MCP tools on to Anthropic, which refuses the whole request.
    let loose = json!({
        "type": "object",
        "properties": {"n": {"type": "integer"}, "name": {"type": "string"}},
        "anyOf": [{"required": ["n"]}, {"required": ["name"]}],
        "additionalProperties": false
    });
    let schema = InputSchema::new(loose.as_object().cloned().unwrap());
    let error = Registry::builder()
        .providers([Provider::Mcp])
        .tool(Loose(Contact(schema)))
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "`loose` cannot be offered to MCP: (arguments): the input's schema has `anyOf` at \
             the top, and MCP takes one plain object there (Anthropic refuses the whole request \
             for a union there, and Claude's clients send MCP tools on to it), but it cannot be \
             written as one (the input holds `properties` beside its `anyOf`); take the union \
             as a parameter of its own (`action: Action`), or hold the rule in the handler; a \
             schema of your own may be published to MCP as written \
             (`ToolDefinition::as_written`) and its other providers left out \
             (`.providers([Provider::Mcp])`)"
        ),
        "{error}"
    );
}

impl Tool for Contact {
    fn definition(&self) -> ToolDefinition {
        ToolDefinition::new("contact", "Saves a contact.", self.0.schema().clone()).as_written()
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async move {
            let contact: Value = self.0.read(arguments, "contact")?;
            Ok(Output::text(format!("saved {}", contact["email"])))
        })
    }
}

#[tokio::test]
async fn a_registry_publishes_the_schema_as_written_and_holds_calls_to_it() {
    let registry = Registry::builder()
        .providers([Provider::Mcp])
        .tool(Contact(contact()))
        .build()
        .expect("every keyword of the schema is one the registry checks");
    let exported = registry.export(Provider::Mcp).unwrap();
    let listed = serde_json::to_value(&exported).unwrap();
    let schema = &listed[0]["inputSchema"];
    for keyword in [
        "$schema",
        "$defs",
        "allOf",
        "if",
        "then",
        "else",
        "additionalProperties",
    ] {
        assert!(
            schema.get(keyword).is_some(),
            "{keyword} was not published: {schema}"
        );
    }
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");

    let good = registry
        .call(
            ToolCall::new("1", "contact", json!({"email": "a@b.c"})),
            &Context::new(),
        )
        .await;
    assert!(good.outcome.is_ok(), "{good:?}");
    let bad = registry
        .call(
            ToolCall::new("2", "contact", json!({"contactMethod": "phone"})),
            &Context::new(),
        )
        .await;
    let refusal = bad.outcome.unwrap_err().to_string();
    assert!(
        refusal.contains("fault\tphone\tmissing (the schema's `then`"),
        "{refusal}"
    );
}

#[test]
fn each_provider_gets_the_schema_in_a_form_that_keeps_its_meaning_or_refuses_it() {
    let error = Registry::builder()
        .tool(Contact(contact()))
        .build()
        .unwrap_err()
        .to_string();
    // OpenAI and Anthropic refuse a whole request whose tool has an `allOf` (or `anyOf`,
    // `oneOf`) at the top; Gemini is shown nothing to send.
    for provider in ["OpenAI", "Anthropic", "Gemini"] {
        assert!(
            error.contains(&format!(
                "`contact` cannot be offered to {provider}: (arguments): the input's schema has \
                 `allOf` at the top, and {provider} takes one plain object there (Anthropic \
                 refuses the whole request for a union there, and Claude's clients send MCP \
                 tools on to it), but it cannot be written as one (it is a rule across fields)"
            )),
            "{error}"
        );
    }
    // Without the rule across fields, the condition is kept for both.
    let mut schema = contact().schema().clone();
    schema.remove("allOf");
    let error = Registry::builder()
        .tool(Contact(InputSchema::new(schema.clone())))
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("`contact` cannot be offered to Gemini: (arguments): a condition"),
        "{error}"
    );
    let registry = Registry::builder()
        .providers([Provider::Mcp, Provider::OpenAi, Provider::Anthropic])
        .tool(Contact(InputSchema::new(schema)))
        .build()
        .unwrap();
    // Strict mode would close the `if` and ask for every field, which changes its meaning.
    let openai = serde_json::to_value(registry.export(Provider::OpenAi).unwrap()).unwrap();
    assert_eq!(openai[0]["function"]["strict"], false, "{openai}");
    assert!(
        openai[0]["function"]["parameters"]["if"].is_object(),
        "{openai}"
    );
    let anthropic = serde_json::to_value(registry.export(Provider::Anthropic).unwrap()).unwrap();
    assert!(
        anthropic[0]["input_schema"]["then"].is_object(),
        "{anthropic}"
    );
}

/// A person and their address as zod writes an intersection of two objects at the top of a
/// tool's input (`z.object(..).and(z.object(..))`).
fn intersection() -> Value {
    json!({
        "allOf": [
            {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}},
             "required": ["name"]},
            {"type": "object", "description": "Where they live.",
             "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
             "required": ["city"]}
        ],
        "description": "A person."
    })
}

#[tokio::test]
async fn an_intersection_of_objects_at_the_top_is_shown_as_one_object_and_held_as_written() {
    let schema = InputSchema::new(intersection().as_object().cloned().unwrap());
    // Every provider, MCP too: Anthropic refuses an `allOf` at the top, and Claude's clients
    // send MCP tools on to it.
    let registry = Registry::builder()
        .tool(Loose(Contact(schema)))
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    // The address's description is kept, after the person's.
    let one_object = json!({
        "type": "object", "description": "A person.\n\nWhere they live.",
        "properties": {"name": {"type": "string", "minLength": 1}, "city": {"type": "string"},
                       "zip": {"type": "string"}},
        "required": ["name", "city"]
    });
    let mcp = serde_json::to_value(registry.export(Provider::Mcp).unwrap()).unwrap();
    assert_eq!(mcp[0]["inputSchema"], one_object);
    let anthropic = serde_json::to_value(registry.export(Provider::Anthropic).unwrap()).unwrap();
    assert_eq!(anthropic[0]["input_schema"], one_object);
    let gemini = serde_json::to_value(registry.export(Provider::Gemini).unwrap()).unwrap();
    assert_eq!(
        gemini[0]["parameters"]["required"],
        json!(["name", "city"]),
        "{gemini}"
    );
    tool_tests::meta_schema::assert_2020_12(&tool_tests::meta_schema::schemas_of(&registry));

    // The calls are held to the intersection as written.
    let refused = registry
        .call(
            ToolCall::new("1", "loose", json!({"name": "", "zip": "0150"})),
            &Context::new(),
        )
        .await;
    let refusal = refused.outcome.unwrap_err().to_string();
    for fault in ["name", "city"] {
        assert!(
            refusal.contains(&format!("\t{fault}\t")),
            "{fault}: {refusal}"
        );
    }
    let taken = registry
        .call(
            ToolCall::new("2", "loose", json!({"name": "Ada", "city": "Oslo"})),
            &Context::new(),
        )
        .await;
    assert!(taken.outcome.is_ok(), "{taken:?}");
}

#[test]
fn a_remote_intersection_closed_as_a_whole_is_one_closed_object() {
    // 2020-12's `unevaluatedProperties: false` beside the `allOf`, as zod closes an
    // intersection: no field but the objects' own.
    let mut closed = intersection();
    closed["unevaluatedProperties"] = json!(false);
    let definition = ToolDefinition::new(
        "person_add",
        "Adds a person.",
        closed.as_object().cloned().unwrap(),
    )
    .checked_elsewhere();
    let registry = Registry::builder()
        .tool(tool_tests::Raw(definition))
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let anthropic = serde_json::to_value(registry.export(Provider::Anthropic).unwrap()).unwrap();
    let schema = &anthropic[0]["input_schema"];
    assert_eq!(schema["additionalProperties"], false, "{schema}");
    assert_eq!(schema.get("unevaluatedProperties"), None, "{schema}");
    assert_eq!(schema.get("allOf"), None, "{schema}");
    let openai = serde_json::to_value(registry.export(Provider::OpenAi).unwrap()).unwrap();
    assert_eq!(openai[0]["function"]["strict"], true, "{openai}");

    // A name two objects require is listed once.
    let mut twice = intersection();
    twice["allOf"][1]["required"] = json!(["name", "city"]);
    twice["required"] = json!(["city"]);
    let definition = ToolDefinition::new(
        "person_put",
        "Puts a person.",
        twice.as_object().cloned().unwrap(),
    )
    .checked_elsewhere();
    let anthropic = tool_core::providers::anthropic::tool(&definition).unwrap();
    assert_eq!(
        anthropic["input_schema"]["required"],
        json!(["city", "name"])
    );
}

#[test]
fn an_intersection_a_ref_points_into_is_not_taken_apart() {
    // A type that holds itself, by a pointer into the `allOf` as zod writes one: the schema is
    // kept as written for the providers that follow `$ref`s, and the pointer must still lead
    // somewhere, so the `allOf` stays (refused at the top as a rule across fields).
    let schema = json!({"allOf": [{"type": "object", "properties": {
        "name": {"type": "string"},
        "next": {"$ref": "#/allOf/0"}}}]});
    let definition = ToolDefinition::new(
        "chain_add",
        "Adds a chain.",
        schema.as_object().cloned().unwrap(),
    )
    .checked_elsewhere();
    let refused = tool_core::providers::anthropic::tool(&definition)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("it is a rule across fields"), "{refused}");
    let mcp = tool_core::providers::mcp::tool(&definition).unwrap();
    assert_eq!(mcp["inputSchema"], schema);
}

#[test]
fn an_intersection_whose_objects_share_a_field_is_refused_as_a_rule_across_fields() {
    let mut shared = intersection();
    shared["allOf"][1]["properties"]["name"] = json!({"type": "string", "maxLength": 9});
    let schema = InputSchema::new(shared.as_object().cloned().unwrap());
    let error = Registry::builder()
        .providers([Provider::Anthropic])
        .tool(Loose(Contact(schema)))
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("has `allOf` at the top") && error.contains("it is a rule across fields"),
        "{error}"
    );
}
