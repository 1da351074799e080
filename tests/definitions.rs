//! What tools advertise: names, descriptions, schemas and hints.

use std::time::Duration;

use serde_json::json;
use tool_core::{Context, Registry, tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Item {
    /// Stock-keeping unit.
    sku: String,
    /// How many.
    qty: u32,
}

/// Places an order.
///
/// Orders ship within a day.
#[tool(title = "Place an order", idempotent, open_world, timeout = "5s")]
async fn order_place(
    /// The order's lines.
    items: Vec<Item>,
    /// A note for the packer.
    note: Option<String>,
    _ctx: &Context,
) -> String {
    let lines: Vec<String> = items
        .iter()
        .map(|i| format!("{}x{}", i.qty, i.sku))
        .collect();
    format!("{lines:?} {note:?}")
}

/// Says hello. This long description is not advertised, since the tool has a summary.
#[tool(name = "hello", summary = "Says hello.", readonly)]
fn greet() -> &'static str {
    "hello"
}

#[tool(description = "Does nothing.", destructive, timeout = "250ms")]
async fn nothing() {}

fn registry() -> Registry {
    Registry::builder()
        .tool(OrderPlace)
        .tool(Greet)
        .tool(Nothing)
        .build()
        .unwrap()
}

#[test]
fn schema_has_documented_optional_and_nested_fields() {
    let registry = registry();
    let definition = &registry.definitions()[0];
    assert_eq!(
        serde_json::to_value(&definition.input_schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "items": {
                    "description": "The order's lines.",
                    "type": "array",
                    "items": {"$ref": "#/$defs/Item"}
                },
                "note": {
                    "description": "A note for the packer.",
                    "type": ["string", "null"]
                }
            },
            "required": ["items"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {
                        "sku": {"description": "Stock-keeping unit.", "type": "string"},
                        "qty": {
                            "description": "How many.",
                            "type": "integer",
                            "format": "uint32",
                            "minimum": 0
                        }
                    },
                    "required": ["sku", "qty"],
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn a_tool_without_parameters_advertises_an_empty_object() {
    let registry = registry();
    for definition in &registry.definitions()[1..] {
        assert_eq!(
            serde_json::to_value(&definition.input_schema).unwrap(),
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            "{}",
            definition.name
        );
    }
}

#[test]
fn definitions_carry_names_descriptions_hints_in_insertion_order() {
    let registry = registry();
    let definitions = registry.definitions();
    let names: Vec<_> = definitions.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["order_place", "hello", "nothing"]);

    let order = &definitions[0];
    assert_eq!(order.title.as_deref(), Some("Place an order"));
    assert_eq!(
        order.description,
        "Places an order.\n\nOrders ship within a day."
    );
    assert!(order.annotations.idempotent && order.annotations.open_world);
    assert!(!order.annotations.read_only && !order.annotations.destructive);
    assert_eq!(order.timeout(), Some(Duration::from_secs(5)));

    let hello = &definitions[1];
    assert_eq!(hello.description, "Says hello.");
    assert!(hello.annotations.read_only);
    assert_eq!(hello.timeout(), None);

    let nothing = &definitions[2];
    assert_eq!(nothing.description, "Does nothing.");
    assert!(nothing.annotations.destructive);
    assert_eq!(nothing.timeout(), Some(Duration::from_millis(250)));
}

#[test]
fn definitions_serialize_as_json_objects() {
    let json = serde_json::to_value(registry().definitions()).unwrap();
    let hello = &json[1];
    assert_eq!(hello["name"], "hello");
    assert_eq!(hello["description"], "Says hello.");
    assert_eq!(hello["input_schema"]["type"], "object");
    assert_eq!(hello["annotations"]["read_only"], true);
    assert!(hello.get("title").is_none());
}

#[test]
fn definitions_are_computed_once() {
    let registry = registry();
    let first = registry.definitions();
    let second = registry.definitions();
    assert!(std::ptr::eq(&first[0], &second[0]));
}

#[test]
fn the_fn_stays_an_ordinary_fn() {
    assert_eq!(greet(), "hello");
    let text = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(order_place(Vec::new(), None, &Context::default()));
    assert_eq!(text, "[] None");
}

#[test]
fn describe_lists_nested_fields_below_their_field() {
    let text = registry().describe();
    let expected = "order_place: Places an order.\n    \n    Orders ship within a day.\n  \
items (array of object with fields sku, qty, required): The order's lines.\n    \
sku (string, required): Stock-keeping unit.\n    \
qty (u32, required): How many.\n  \
note (string or null, optional): A note for the packer.\n";
    assert!(text.starts_with(expected), "{text}");
    assert!(text.contains("\nhello: Says hello.\n"), "{text}");
}

/// Reads the clock.
#[tool(
    readonly,
    icon = "https://example.com/clock.svg",
    icon(
        src = "data:image/png;base64,iVBORw0KGgo=",
        mime_type = "image/png",
        sizes = ["48x48", "96x96"],
        theme = "dark"
    ),
    meta("com.example/category" = "time", rank = 2),
    meta("com.example/tags" = ["a", "b"], "com.example/beta" = true, "com.example/skew" = -1.5)
)]
async fn clock_read() -> &'static str {
    "noon"
}

#[test]
fn icons_and_meta_from_the_attribute_are_in_the_mcp_export_only() {
    let registry = Registry::builder()
        .tool(Greet)
        .tool(ClockRead)
        .build()
        .unwrap();
    let mcp = registry.export(tool_core::Provider::Mcp).unwrap();
    let clock = &mcp[1];
    assert_eq!(
        clock["icons"],
        json!([
            {"src": "https://example.com/clock.svg"},
            {"src": "data:image/png;base64,iVBORw0KGgo=", "mimeType": "image/png",
             "sizes": ["48x48", "96x96"], "theme": "dark"},
        ])
    );
    assert_eq!(
        clock["_meta"],
        json!({"com.example/category": "time", "rank": 2, "com.example/tags": ["a", "b"],
               "com.example/beta": true, "com.example/skew": -1.5})
    );
    assert!(mcp[0].get("icons").is_none() && mcp[0].get("_meta").is_none());
    for provider in [
        tool_core::Provider::OpenAi,
        tool_core::Provider::Anthropic,
        tool_core::Provider::Gemini,
    ] {
        let text = serde_json::to_string(&*registry.export(provider).unwrap()).unwrap();
        assert!(
            !text.contains("clock.svg") && !text.contains("com.example"),
            "{provider}: {text}"
        );
    }
}

#[test]
fn icons_and_meta_can_be_given_to_a_definition_by_hand() {
    use tool_core::tool::{Icon, IconTheme, ToolDefinition};
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let definition =
        ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone())
            .with_icon(Icon::new("https://example.com/ping.png").with_theme(IconTheme::Light))
            .with_meta("com.example/origin", json!({"server": "far"}));
    let exported = tool_core::providers::export(&definition, tool_core::Provider::Mcp).unwrap();
    assert_eq!(
        exported["icons"],
        json!([{"src": "https://example.com/ping.png", "theme": "light"}])
    );
    assert_eq!(
        exported["_meta"],
        json!({"com.example/origin": {"server": "far"}})
    );
}

#[test]
fn a_hand_made_definition_with_a_bad_icon_or_meta_key_is_refused_when_exported() {
    use tool_core::tool::{Icon, ToolDefinition};
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let plain = ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone());
    let cases = [
        (
            plain.clone().with_icon(Icon::new("file:///etc/icon.png")),
            "`remote_ping` cannot be offered to MCP: (icons)[0]: \"file:///etc/icon.png\" is not \
             an icon MCP clients may load; write an `https://` URL or a \
             `data:image/...;base64,...` URI",
        ),
        (
            plain.clone().with_meta("io.modelcontextprotocol/x", 1),
            "`remote_ping` cannot be offered to MCP: (_meta).io.modelcontextprotocol/x: the \
             prefix `io.modelcontextprotocol/` is reserved for MCP itself; use a reverse-DNS \
             prefix of your own, such as \"com.example/\"",
        ),
    ];
    for (definition, expected) in cases {
        let error =
            tool_core::providers::export(&definition, tool_core::Provider::Mcp).unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
}

#[test]
fn the_mcp_export_lists_tools_in_the_registry_s_order_every_time() {
    let forward = Registry::builder()
        .tool(ClockRead)
        .tool(OrderPlace)
        .tool(Greet)
        .tool(Nothing)
        .build()
        .unwrap();
    let backward = Registry::builder()
        .tool(Nothing)
        .tool(Greet)
        .tool(OrderPlace)
        .tool(ClockRead)
        .build()
        .unwrap();
    let names = |registry: &Registry| -> Vec<String> {
        registry
            .export(tool_core::Provider::Mcp)
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    };
    for _ in 0..3 {
        assert_eq!(
            names(&forward),
            ["clock_read", "order_place", "hello", "nothing"]
        );
        assert_eq!(
            names(&backward),
            ["nothing", "hello", "order_place", "clock_read"]
        );
        // A fresh registry of the same tools, whose tables hash differently, lists them alike.
        let again = Registry::builder()
            .tool(ClockRead)
            .tool(OrderPlace)
            .tool(Greet)
            .tool(Nothing)
            .build()
            .unwrap();
        assert_eq!(names(&again), names(&forward));
    }
}

/// A count, read as a bare number.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Count(u64);

/// What to list.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    /// Only these.
    tag: String,
}

/// Counts, read as a bare list.
type Counts = Vec<u64>;

/// A filter or none.
type MaybeFilter = Option<Filter>;

/// Squares a count.
#[tool]
async fn count_square(#[input] count: Count) -> u64 {
    count.0 * count.0
}

/// Adds counts.
#[tool]
async fn counts_add(#[input] counts: Counts) -> u64 {
    counts.iter().sum()
}

/// Lists what a filter lets through.
#[tool]
async fn filter_list(#[input] filter: MaybeFilter) -> String {
    filter.map(|filter| filter.tag).unwrap_or_default()
}

/// What to list, written in place where it is used.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[schemars(inline)]
struct InlineFilter {
    /// Only these.
    tag: String,
}

/// A number or a text: no variant an object.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Plain {
    /// A number.
    Number(u64),
    /// A text.
    Text(String),
}

/// Says a plain value.
#[tool]
async fn plain_say(#[input] plain: Plain) -> String {
    match plain {
        Plain::Number(number) => number.to_string(),
        Plain::Text(text) => text,
    }
}

/// A filter written in place, or none: `"type": ["object", "null"]`.
type MaybeInlineFilter = Option<InlineFilter>;

/// Lists what a filter written in place lets through.
#[tool]
async fn inline_filter_list(#[input] filter: MaybeInlineFilter) -> String {
    filter.map(|filter| filter.tag).unwrap_or_default()
}

#[test]
fn an_input_that_is_no_object_is_refused_when_the_registry_is_made() {
    for (tool, said) in [
        (
            Registry::builder().tool(CountSquare).build(),
            "of type \"integer\", which no call can send: take the value as a field of its own",
        ),
        (
            Registry::builder().tool(CountsAdd).build(),
            "of type \"array\", which no call can send",
        ),
        (
            Registry::builder().tool(FilterList).build(),
            "takes `null` beside it (an `#[input]` `Option`, or an untagged enum's unit \
             variant), which no call can send: make the struct's fields optional instead",
        ),
        (
            Registry::builder().tool(InlineFilterList).build(),
            "takes `null` beside it (an `#[input]` `Option`, or",
        ),
        (
            Registry::builder().tool(PlainSay).build(),
            "is a union none of whose variants is an object (an untagged enum of plain values)",
        ),
    ] {
        let refused = tool.unwrap_err();
        let tool_core::registry::RegistryError::Unexportable { errors } = &refused else {
            panic!("expected an export error: {refused}");
        };
        // One error a tool: the providers' own are not piled on it.
        assert_eq!(errors.len(), 1, "{refused}");
        assert_eq!(errors[0].path, "(arguments)");
        assert!(errors[0].problem.contains(said), "{refused}");
    }
}

/// Counts the notes, not needing the context it is given.
#[tool(readonly)]
async fn note_tally(_: &Context) -> u64 {
    3
}

#[tokio::test]
async fn a_context_taken_without_a_name_is_handed_to_the_tool() {
    let registry = Registry::builder().tool(NoteTally).build().unwrap();
    let definition = &registry.definitions()[0];
    // No field for it: the context is the host's, not the caller's.
    assert_eq!(definition.input_schema["properties"], json!({}));
    let counted = tool_tests::outcome(&registry, "note_tally", json!({})).await;
    assert_eq!(counted.unwrap(), json!("3"));
}

/// Reads a note.
#[doc = concat!("Kept ", "for ", "a day.")]
///   Indented.
#[tool(readonly)]
async fn note_peek(id: u64) -> String {
    id.to_string()
}

// A doc the macro cannot read alone is a description: the compiler writes it.
#[doc = concat!("Glances ", "at a note.")]
#[tool(readonly)]
async fn note_glance(id: u64) -> String {
    id.to_string()
}

#[test]
fn a_doc_the_macro_cannot_read_is_written_into_the_description_by_the_compiler() {
    let registry = Registry::builder()
        .tool(NotePeek)
        .tool(NoteGlance)
        .build()
        .unwrap();
    assert_eq!(
        registry.definitions()[0].description,
        "Reads a note.\nKept for a day.\n  Indented."
    );
    assert_eq!(registry.definitions()[1].description, "Glances at a note.");
}

/// Inputs the macros must not mistake for values no call can send: a map, a type of the
/// user's named as a standard one, an input named as the tool's struct through its module.
mod own_inputs {
    use tool_core::tool;

    /// A value of the user's own, named as serde_json's.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Value {
        /// What it holds.
        pub x: u8,
    }

    /// Arguments kept in a module of their own.
    pub mod args {
        /// What `ph_search` takes, named as the tool's struct.
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        pub struct PhSearch {
            /// What to find.
            pub query: String,
        }
    }

    /// Sets a value.
    #[tool]
    pub async fn value_set(#[input] value: Value) -> u8 {
        value.x
    }

    /// Counts the entries it is sent.
    #[tool]
    pub async fn entries_tally(#[input] entries: std::collections::HashMap<String, u8>) -> usize {
        entries.len()
    }

    /// Searches.
    #[tool]
    pub async fn ph_search(#[input] args: args::PhSearch) -> String {
        args.query
    }
}

#[tokio::test]
async fn a_map_a_user_type_named_as_a_standard_one_and_a_path_are_inputs() {
    let registry = Registry::builder()
        .tool(own_inputs::ValueSet)
        .tool(own_inputs::EntriesTally)
        .tool(own_inputs::PhSearch)
        .build()
        .unwrap();
    for (tool, arguments, answer) in [
        ("value_set", json!({"x": 7}), json!("7")),
        ("entries_tally", json!({"a": 1, "b": 2}), json!("2")),
        ("ph_search", json!({"query": "q"}), json!("q")),
    ] {
        let answered = tool_tests::outcome(&registry, tool, arguments).await;
        assert_eq!(answered.unwrap(), answer, "{tool}");
    }
}
