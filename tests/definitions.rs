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
#[tool(name = "hello", summary = "Says hello.", readonly, timeout = 250)]
fn greet() -> &'static str {
    "hello"
}

#[tool(description = "Does nothing.", destructive)]
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
    assert_eq!(hello.timeout(), Some(Duration::from_millis(250)));

    let nothing = &definitions[2];
    assert_eq!(nothing.description, "Does nothing.");
    assert!(nothing.annotations.destructive);
    assert_eq!(nothing.timeout(), None);
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
