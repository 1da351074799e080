//! Each provider's dialect: golden exports, one test per provider rule, and round trips from a
//! provider's call shape through the registry to its result shape.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Value, json};
use tool_core::outcome::Content;
use tool_core::providers::{anthropic, gemini, mcp, openai};
use tool_core::registry::RegistryError;
use tool_core::tool::ToolDefinition;
use tool_core::{Context, Provider, Refusal, Registry, tool};
use tool_tests::{Raw, gemini_types, meta_schema};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Item {
    /// Stock-keeping unit.
    sku: String,
    /// How many.
    qty: u32,
}

/// How an order ships.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shipping {
    /// Picked up at the counter.
    Pickup,
    /// Sent to an address.
    Courier {
        address: String,
        express: Option<bool>,
    },
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Placed {
    order: u64,
}

/// Places an order.
#[tool(title = "Place an order", destructive, open_world)]
async fn order_place(
    /// The order's lines.
    items: Vec<Item>,
    /// How it ships.
    shipping: Shipping,
    /// A note for the packer.
    note: Option<String>,
    priority: Option<Priority>,
    /// Labels to print on the box.
    labels: BTreeMap<String, String>,
) -> Placed {
    let lines: Vec<String> = items
        .iter()
        .map(|i| format!("{}x{}", i.qty, i.sku))
        .collect();
    let to = match shipping {
        Shipping::Pickup => "the counter".to_owned(),
        Shipping::Courier { address, express } => format!("{address} ({express:?})"),
    };
    let _ = (lines, to, note, priority, labels);
    Placed { order: 7 }
}

/// Tags a note.
#[tool(readonly, idempotent)]
async fn note_tag(
    /// Which note.
    id: u64,
    /// The tags to add.
    tags: Vec<String>,
    /// A colour for the tags.
    colour: Option<Priority>,
    /// Who tags it.
    by: Option<String>,
) -> Result<String, Refusal> {
    let _ = (colour, by);
    if id == 0 {
        return Err(Refusal::new("not-found", "there is no note 0").line("ids", ["1", "2"]));
    }
    Ok(format!("tagged {id} with {}", tags.join(",")))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct TreeNode {
    label: String,
    children: Vec<TreeNode>,
}

/// Counts the nodes of a tree.
#[tool(readonly)]
async fn tree_count(root: TreeNode) -> String {
    fn count(node: &TreeNode) -> usize {
        1 + node.children.iter().map(count).sum::<usize>()
    }
    format!("{} nodes, root {}", count(&root), root.label)
}

/// Shows a picture.
#[tool(readonly)]
async fn picture_show() -> Vec<Content> {
    vec![
        Content::text("a red dot"),
        Content::image(vec![137, 80, 78, 71], "image/png"),
    ]
}

fn registry() -> Registry {
    Registry::builder()
        .providers([Provider::Mcp, Provider::OpenAi, Provider::Anthropic])
        .tool(OrderPlace)
        .tool(NoteTag)
        .tool(TreeCount)
        .tool(PictureShow)
        .build()
        .unwrap()
}

/// Compares `actual` with the golden file, or writes it when `UPDATE_GOLDEN` is set.
fn golden(name: &str, actual: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(format!("{name}.json"));
    let text = serde_json::to_string_pretty(actual).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing; run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(
        text,
        expected,
        "{name} export differs from {}",
        path.display()
    );
}

#[test]
fn every_schema_a_provider_is_shown_is_json_schema_2020_12() {
    meta_schema::assert_2020_12(&meta_schema::schemas_of(&registry()));
}

#[test]
fn golden_mcp_tools_list() {
    golden("mcp", &json!(registry().export(Provider::Mcp).unwrap()));
}

#[test]
fn golden_openai_tools() {
    golden(
        "openai",
        &json!(registry().export(Provider::OpenAi).unwrap()),
    );
}

#[test]
fn golden_anthropic_tools() {
    golden(
        "anthropic",
        &json!(registry().export(Provider::Anthropic).unwrap()),
    );
}

#[test]
fn golden_gemini_declarations() {
    let registry = registry();
    let declarations: Vec<Value> = registry
        .definitions()
        .iter()
        .map(|definition| gemini::tool(definition).unwrap())
        .collect();
    golden("gemini", &json!(declarations));
}

/// Calls `visit` on every schema object inside `value`.
fn every_schema(value: &Value, visit: &mut dyn FnMut(&serde_json::Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            visit(map);
            for child in map.values() {
                every_schema(child, visit);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| every_schema(item, visit)),
        _ => {}
    }
}

fn definition(name: &str) -> ToolDefinition {
    registry()
        .definitions()
        .iter()
        .find(|definition| definition.name == name)
        .unwrap()
        .clone()
}

#[test]
fn openai_strict_lists_every_property_as_required_and_closes_every_object() {
    let exported = openai::tool(&definition("note_tag")).unwrap();
    assert_eq!(exported["function"]["strict"], true);
    let mut objects = 0;
    every_schema(&exported["function"]["parameters"], &mut |schema| {
        if let Some(Value::Object(properties)) = schema.get("properties") {
            objects += 1;
            let required = schema["required"].as_array().unwrap();
            for field in properties.keys() {
                assert!(required.contains(&json!(field)), "{field} is not required");
            }
            assert_eq!(schema["additionalProperties"], false);
        }
    });
    assert!(objects > 0);
}

#[test]
fn openai_strict_makes_optional_fields_nullable() {
    fn accepts_null(schema: &Value) -> bool {
        let listed = |key: &str| {
            schema[key]
                .as_array()
                .is_some_and(|values| values.contains(&json!("null")))
        };
        let branch = schema["anyOf"]
            .as_array()
            .is_some_and(|branches| branches.contains(&json!({"type": "null"})));
        listed("type") || branch
    }
    let exported = openai::tool(&definition("note_tag")).unwrap();
    let properties = &exported["function"]["parameters"]["properties"];
    assert!(
        accepts_null(&properties["colour"]),
        "{}",
        properties["colour"]
    );
    assert!(accepts_null(&properties["by"]), "{}", properties["by"]);
    assert!(!accepts_null(&properties["tags"]));
    let id = &exported["function"]["parameters"]["properties"]["id"];
    assert_eq!(id["type"], "integer", "a required field stays non-null");
    assert!(id.get("format").is_none(), "integer formats are dropped");
}

/// Stamps labels, if any are given.
#[tool]
async fn label_stamp(
    /// Labels by name, if any.
    labels: Option<BTreeMap<String, String>>,
) -> String {
    format!("{labels:?}")
}

#[test]
fn openai_strict_is_off_for_maps_and_recursive_types() {
    for name in ["order_place", "tree_count"] {
        let exported = openai::tool(&definition(name)).unwrap();
        assert_eq!(exported["function"]["strict"], false, "{name}");
    }
    // A map that may be left out (`"type": ["object", "null"]`) is a map all the same.
    let registry = Registry::builder().tool(LabelStamp).build().unwrap();
    let exported = json!(registry.export(Provider::OpenAi).unwrap());
    assert_eq!(exported[0]["function"]["strict"], false, "{exported}");
}

fn five() -> u32 {
    5
}

/// Stocks a shelf.
#[tool]
async fn shelf_stock(
    /// The shelf's name.
    #[schemars(length(min = 1, max = 40))]
    name: String,
    /// What goes on it.
    items: std::collections::BTreeSet<String>,
    /// How many of each.
    #[serde(default = "five")]
    count: u32,
) -> String {
    format!("{count} each of {items:?} on {name}")
}

/// Hangs a pair of pictures.
#[tool]
async fn pair_hang(pair: (String, u32)) -> String {
    format!("{pair:?}")
}

/// The keywords of every schema in a strict export, each with where it stands.
fn strict_keywords(schema: &Value, at: &str, found: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    for (key, value) in map {
        found.push(format!("{at}: {key}"));
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties {
                    strict_keywords(property, &format!("{at}.{name}"), found);
                }
            }
            ("items", item) => strict_keywords(item, &format!("{at}[]"), found),
            ("anyOf", Value::Array(branches)) => {
                for branch in branches {
                    strict_keywords(branch, at, found);
                }
            }
            _ => {}
        }
    }
}

/// The keywords OpenAI's strict mode takes; it refuses the whole request for any other. Written
/// here apart from the export's own list, so that one added there by mistake is seen.
const OPENAI_STRICT_KEYWORDS: [&str; 19] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// The properties of an export in strict mode, once it is seen to hold no keyword OpenAI's
/// strict mode does not take.
fn strict_properties(exported: &Value) -> &Value {
    assert_eq!(exported["function"]["strict"], true, "{exported}");
    let mut found = Vec::new();
    strict_keywords(&exported["function"]["parameters"], "", &mut found);
    found.retain(|at| {
        let keyword = at.rsplit(": ").next().unwrap_or_default();
        !OPENAI_STRICT_KEYWORDS.contains(&keyword)
    });
    assert_eq!(found, Vec::<String>::new(), "{exported}");
    &exported["function"]["parameters"]["properties"]
}

#[tokio::test]
async fn openai_strict_says_in_words_the_rules_it_cannot_hold_and_the_parser_holds_them() {
    let registry = Registry::builder().tool(ShelfStock).build().unwrap();
    let exported = openai::tool(&registry.definitions()[0]).unwrap();
    let properties = strict_properties(&exported);
    assert_eq!(
        properties["name"]["description"],
        "The shelf's name. (at least 1 character; at most 40 characters)"
    );
    assert_eq!(
        properties["items"]["description"],
        "What goes on it. (no item twice)"
    );
    assert_eq!(
        properties["count"]["description"],
        "How many of each. (default 5)"
    );
    // Each rule said in words is held when the call comes.
    let context = Context::default();
    let call = |arguments: Value| {
        let call = tool_core::ToolCall::new("1", "shelf_stock", arguments);
        registry.call(call, &context)
    };
    let refused = call(json!({"name": "", "items": ["a", "a"], "count": null})).await;
    let text = refused.text();
    assert!(
        text.contains("fault\tname\t") && text.contains("fault\titems\t"),
        "{text}"
    );
    let ran = call(json!({"name": "top", "items": ["a"], "count": null})).await;
    assert_eq!(ran.text(), "5 each of {\"a\"} on top");
}

#[test]
fn openai_strict_is_off_for_tuples_values_of_any_type_and_rules_it_has_no_form_for() {
    let registry = Registry::builder()
        .tool(PairHang)
        .tool(BlobPutAny)
        .build()
        .unwrap();
    for definition in registry.definitions().iter() {
        let exported = openai::tool(definition).unwrap();
        assert_eq!(exported["function"]["strict"], false, "{exported}");
    }
    for shaping in [
        json!({"not": {"type": "null"}}),
        json!({"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}),
        json!({"type": "object", "propertyNames": {"maxLength": 3}}),
        json!({"type": "string", "if": {"minLength": 2}, "then": {"pattern": "^a"}}),
        json!({"type": "object", "dependentRequired": {"a": ["b"]}}),
        // Draft-07's tuple, items of any type, fields of any name, and a field required that
        // is not described: closed, strict mode would have the model send none of them.
        json!({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "array"}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
    ] {
        let schema = json!({"type": "object", "properties": {"x": shaping}});
        let exported = openai::tool(&remote("remote", schema)).unwrap();
        assert_eq!(exported["function"]["strict"], false, "{exported}");
    }
    // Objects eleven deep, past the ten strict mode takes; ten are taken.
    let nested = |depth: usize| {
        let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
        for _ in 1..depth {
            schema = json!({"type": "object", "properties": {"inner": schema}});
        }
        openai::tool(&remote("nested", schema)).unwrap()["function"]["strict"].clone()
    };
    assert_eq!((nested(10), nested(11)), (json!(true), json!(false)));
}

#[test]
fn a_remote_schema_s_keywords_outside_strict_mode_are_said_or_left_out() {
    let schema = json!({"type": "object", "properties": {
        "site": {"type": "string", "format": "uri", "$comment": "checked by the server"},
        "filter": {"type": "object", "properties": {"x": {"type": "integer"}},
                   "minProperties": 1, "x-vendor": true},
        "word": {"type": "string", "pattern": "^(?!draft)", "deprecated": true},
        "when": {"type": "string", "format": "date-time"},
        "near": {"properties": {"lat": {"type": "number"}}},
        "ids": {"items": {"type": "integer"}},
        "above": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
        "blob": {"type": "string", "contentEncoding": "base64", "minItems": 2}
    }, "required": ["site"]});
    let exported = openai::tool(&remote("fetch", schema)).unwrap();
    let properties = strict_properties(&exported);
    assert_eq!(properties["site"]["description"], "in the `uri` format");
    assert_eq!(properties["filter"]["description"], "at least 1 field");
    assert_eq!(
        properties["word"]["description"],
        "matching the pattern `^(?!draft)`"
    );
    assert_eq!(properties["when"]["format"], "date-time");
    // A server's fields and items without their type are read as the keywords say.
    assert_eq!(properties["near"]["type"], json!(["object", "null"]));
    assert_eq!(properties["ids"]["type"], json!(["array", "null"]));
    // Draft-04's flag read as 2020-12's exclusive bound, which strict mode takes; a keyword
    // of another type's values (`minItems` of a string) bears on nothing, and is not said.
    assert_eq!(
        properties["above"],
        json!({"type": ["number", "null"], "exclusiveMinimum": 0})
    );
    assert_eq!(properties["blob"]["description"], "encoded as base64");
    // Past OpenAI's limit on `enum` values, strict mode stays off.
    let many: Vec<String> = (0..1001).map(|n| format!("v{n}")).collect();
    let schema = json!({"type": "object", "properties": {"v": {"enum": many}}});
    let exported = openai::tool(&remote("pick", schema)).unwrap();
    assert_eq!(exported["function"]["strict"], false);
}

/// Where `output` departs from `definition`'s input schema, held to it as the tool's output
/// schema is held to a remote result.
fn faults_as_output(definition: &ToolDefinition, output: &Value) -> Vec<String> {
    let mut definition = definition.clone();
    definition.output_schema = Some(definition.input_schema.clone());
    let faults = definition.output_check().unwrap().faults(output);
    faults.into_iter().map(|fault| fault.path).collect()
}

/// A remote tool's definition of `schema`, as its server lists it.
fn remote(name: &str, schema: Value) -> ToolDefinition {
    ToolDefinition::new(name, "", schema.as_object().unwrap().clone()).checked_elsewhere()
}

#[test]
fn a_remote_schema_s_references_into_itself_are_written_out_for_every_provider() {
    let point = json!({"type": "object", "required": ["x", "y"],
                       "properties": {"x": {"type": "number"}, "y": {"type": "number"}}});
    // Draft-07's `definitions` (pydantic 1), and a pointer at the first place a type was
    // written (zod-to-json-schema, .NET's exporter).
    let route = remote(
        "route",
        json!({"type": "object", "definitions": {"Point": point}, "required": ["from", "to"],
               "properties": {"from": {"$ref": "#/definitions/Point", "description": "Start."},
                              "to": {"$ref": "#/properties/from"}}}),
    );
    for provider in Provider::ALL {
        let text = tool_core::providers::export(&route, provider)
            .unwrap_or_else(|error| panic!("{provider}: {error}"))
            .to_string();
        assert!(
            !text.contains("$ref") && !text.contains("definitions"),
            "{provider}: {text}"
        );
    }
    let exported = openai::tool(&route).unwrap();
    assert_eq!(exported["function"]["strict"], true, "{exported}");
    let to = &exported["function"]["parameters"]["properties"]["to"];
    assert_eq!(
        (&to["properties"]["y"]["type"], &to["description"]),
        (&json!("number"), &json!("Start."))
    );

    // The same pointers are followed where a model's call is forwarded and where the server's
    // result is held to the output schema.
    let output = json!({"from": {"x": 1, "y": 2}, "to": {"x": "one", "y": 2}});
    assert_eq!(faults_as_output(&route, &output), ["to.x"]);
    let arguments =
        tool_core::call::Arguments::from(&json!({"from": {"x": 1, "y": 2}, "to": null}));
    let forwarded = route.arguments_object(&arguments).unwrap();
    assert_eq!(Value::Object(forwarded), json!({"from": {"x": 1, "y": 2}}));

    // A pointer into a definition, or with an escape, is followed as a JSON Pointer.
    let inner = remote(
        "inner",
        json!({"type": "object", "$defs": {"A": {"type": "object", "properties": {
                   "b": {"type": "integer"}}}, "c/d": {"type": "string"}},
               "properties": {"b": {"$ref": "#/$defs/A/properties/b"},
                              "e": {"$ref": "#/$defs/c~1d"}}}),
    );
    let exported = mcp::tool(&inner).unwrap();
    let properties = &exported["inputSchema"]["properties"];
    assert_eq!(
        (&properties["b"]["type"], &properties["e"]["type"]),
        (&json!("integer"), &json!("string"))
    );
    let output = json!({"b": "two", "e": 3});
    assert_eq!(faults_as_output(&inner, &output), ["b", "e"]);

    // A `$ref` in a keyword that says more of a value (`not`, `contains`, draft-07's tuple
    // `items: [..]`, `dependentSchemas`...) is written out too: left, it would point into
    // definitions no export sends.
    let beside = remote(
        "beside",
        json!({"type": "object", "definitions": {"Tag": {"type": "string", "minLength": 1}},
               "properties": {
                   "tags": {"type": "array", "items": {"type": "string"},
                            "contains": {"$ref": "#/definitions/Tag"}},
                   "other": {"type": "string", "not": {"$ref": "#/definitions/Tag"}},
                   "pair": {"type": "array", "items": [{"$ref": "#/definitions/Tag"},
                            {"type": "integer"}], "additionalItems": {"$ref": "#/definitions/Tag"}},
                   "keyed": {"type": "object", "properties": {"a": {"type": "string"}},
                             "propertyNames": {"$ref": "#/definitions/Tag"},
                             "dependentSchemas": {"a": {"$ref": "#/definitions/Tag"}},
                             "unevaluatedProperties": {"$ref": "#/definitions/Tag"}}}}),
    );
    for provider in Provider::ALL {
        let text = tool_core::providers::export(&beside, provider)
            .unwrap_or_else(|error| panic!("{provider}: {error}"))
            .to_string();
        assert!(
            !text.contains("$ref") && !text.contains("definitions"),
            "{provider}: {text}"
        );
    }
    // Gemini reads draft-07's tuple as 2020-12's: its items any of the positions' kinds.
    let exported = gemini::tool(&beside).unwrap();
    gemini_types::assert_in_subset(&exported["parameters"]);
    assert_eq!(
        exported["parameters"]["properties"]["pair"]["items"]["anyOf"],
        json!([{"type": "string", "minLength": 1}, {"type": "integer"}]),
        "{exported}"
    );

    // A `$ref` is a URI: its pointer is percent-decoded, and one that does not decode points
    // nowhere.
    let encoded = remote(
        "encoded",
        json!({"type": "object", "$defs": {"Shelf Item": {"type": "integer"}, "é": {"type": "string"}},
               "properties": {"a": {"$ref": "#/$defs/Shelf%20Item"}, "b": {"$ref": "#/$defs/%C3%A9"}}}),
    );
    let exported = mcp::tool(&encoded).unwrap();
    let properties = &exported["inputSchema"]["properties"];
    assert_eq!(
        (&properties["a"]["type"], &properties["b"]["type"]),
        (&json!("integer"), &json!("string"))
    );
    assert_eq!(
        faults_as_output(&encoded, &json!({"a": "x", "b": 1})),
        ["a", "b"]
    );
    // A name with a `%` of its own is still found as written.
    let literal = remote(
        "literal",
        json!({"type": "object", "definitions": {"100%": {"type": "integer"}},
               "properties": {"a": {"$ref": "#/definitions/100%"}}}),
    );
    let exported = mcp::tool(&literal).unwrap();
    assert_eq!(
        exported["inputSchema"]["properties"]["a"]["type"],
        "integer"
    );
    for reference in ["#/$defs/Shelf%2", "#/$defs/Shelf%+0Item", "#/$defs/%C3"] {
        let broken = remote(
            "broken",
            json!({"type": "object", "$defs": {"Shelf Item": {"type": "integer"}},
                   "properties": {"a": {"$ref": reference}}}),
        );
        let refused = mcp::tool(&broken).unwrap_err();
        assert!(
            refused.problem.contains(reference),
            "{reference}: {refused}"
        );
    }

    // A pointer at `false` holds no value, for every provider; at what is no schema, refused.
    let nothing = remote(
        "nothing",
        json!({"type": "object", "properties": {"x": false, "y": {"$ref": "#/properties/x"},
                                                "z": {"$ref": "#/properties/y/$ref"}}}),
    );
    let refused = mcp::tool(&nothing).unwrap_err();
    assert!(
        refused.problem.contains(
            "`$ref` #/properties/y/$ref points at \"#/properties/x\", which is no schema"
        ),
        "{refused}"
    );
    let nothing = remote(
        "nothing",
        json!({"type": "object", "properties": {"x": false, "y": {"$ref": "#/properties/x"}}}),
    );
    let exported = anthropic::tool(&nothing).unwrap();
    assert_eq!(
        exported["input_schema"]["properties"]["y"],
        json!({"not": {}})
    );

    // A type that holds itself (`#`): shown as written where `$ref`s are followed; to Gemini,
    // whose JSON Schema is known to follow `$ref`s into `$defs` alone, with the root copied
    // into `$defs` and pointed at there.
    let tree = json!({"type": "object", "properties": {"label": {"type": "string"},
                      "children": {"type": "array", "items": {"$ref": "#"}}}});
    let tree_tool = remote("tree", tree.clone());
    let exported = mcp::tool(&tree_tool).unwrap();
    assert_eq!(exported["inputSchema"], tree);
    let exported = openai::tool(&tree_tool).unwrap();
    assert_eq!(exported["function"]["strict"], false);
    assert_eq!(exported["function"]["parameters"], tree);
    let exported = gemini::tool(&tree_tool).unwrap();
    let sent = &exported["parametersJsonSchema"];
    assert_eq!(
        sent["properties"]["children"]["items"]["$ref"], "#/$defs/root",
        "{exported}"
    );
    assert_eq!(
        sent["$defs"]["root"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/root"
    );
    // So too draft-07's `definitions` (pydantic 1), which Gemini is not sent.
    let listed = remote(
        "listed",
        json!({"type": "object", "properties": {"head": {"$ref": "#/definitions/Cell"}},
               "definitions": {"Cell": {"type": "object", "properties": {
                   "value": {"type": "integer"}, "next": {"$ref": "#/definitions/Cell"}}}}}),
    );
    let exported = gemini::tool(&listed).unwrap();
    let sent = &exported["parametersJsonSchema"];
    assert!(sent.get("definitions").is_none(), "{exported}");
    assert_eq!(
        sent["$defs"]["Cell"]["properties"]["next"]["$ref"],
        "#/$defs/Cell"
    );
    gemini_types::assert_taken(&[gemini::tool(&tree_tool).unwrap(), exported]);
    // Followed where a result is checked and where a call's nulls are taken out.
    let output = json!({"label": "a", "children": [{"label": 5}]});
    assert_eq!(faults_as_output(&tree_tool, &output), ["children[0].label"]);
    let sent = json!({"label": "a", "children": [{"label": "b", "children": null}]});
    let forwarded = tree_tool.arguments_object(&tool_core::call::Arguments::from(&sent));
    assert_eq!(
        Value::Object(forwarded.unwrap()),
        json!({"label": "a", "children": [{"label": "b"}]})
    );

    // A pointer at nothing is refused, saying what is followed.
    let broken = remote(
        "broken",
        json!({"type": "object", "properties": {"a": {"$ref": "#/definitions/Missing"}}}),
    );
    let refused = mcp::tool(&broken).unwrap_err();
    assert!(
        refused
            .problem
            .contains("`$ref` #/definitions/Missing points at nothing"),
        "{refused}"
    );
}

#[test]
fn a_tagged_union_s_mapping_goes_where_its_definitions_are_written_out() {
    // pydantic's tagged union: OpenAPI's `discriminator`, its `mapping` naming definitions.
    let pets = json!({"type": "object", "properties": {"pet": {
        "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
        "discriminator": {"propertyName": "kind",
                          "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}}}},
        "$defs": {"Cat": {"type": "object", "properties": {"kind": {"const": "cat"}}},
                  "Dog": {"type": "object", "properties": {"kind": {"const": "dog"}}}}});
    let exported = mcp::tool(&remote("pet_add", pets)).unwrap();
    let pet = &exported["inputSchema"]["properties"]["pet"];
    assert_eq!(
        pet["discriminator"],
        json!({"propertyName": "kind"}),
        "{exported}"
    );
    assert!(exported["inputSchema"].get("$defs").is_none(), "{exported}");
    // Kept where its definitions are: a type that holds itself keeps its `$defs`.
    let tree = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {
            "oneOf": [{"$ref": "#/$defs/Node"}],
            "discriminator": {"propertyName": "kind", "mapping": {"node": "#/$defs/Node"}}}}}}}});
    let exported = anthropic::tool(&remote("tree_walk", tree)).unwrap();
    let kids = &exported["input_schema"]["$defs"]["Node"]["properties"]["kids"];
    assert_eq!(
        kids["items"]["discriminator"]["mapping"],
        json!({"node": "#/$defs/Node"}),
        "{exported}"
    );
}

#[test]
fn a_tagged_union_s_mapping_goes_where_gemini_s_definitions_are_repointed_and_data_stays() {
    // pydantic 1's recursive tagged union, in draft-07's `definitions`: Anthropic follows the
    // `$ref`s as written, mapping and all; Gemini's JSON Schema follows `$defs` alone, so the
    // definition is copied there and a mapping into `definitions` would point at nothing.
    let tree = json!({"type": "object", "properties": {"root": {"$ref": "#/definitions/Node"}},
        "definitions": {"Node": {"type": "object", "properties": {"kids": {"type": "array",
            "items": {"oneOf": [{"$ref": "#/definitions/Node"}],
                      "discriminator": {"propertyName": "kind",
                                        "mapping": {"node": "#/definitions/Node"}}}}}}}});
    let anthropic = anthropic::tool(&remote("tree_walk", tree.clone())).unwrap();
    assert!(
        anthropic
            .to_string()
            .contains("\"mapping\":{\"node\":\"#/definitions/Node\"}"),
        "{anthropic}"
    );
    let gemini = gemini::tool(&remote("tree_walk", tree)).unwrap();
    let text = gemini.to_string();
    assert!(text.contains("\"propertyName\":\"kind\""), "{gemini}");
    assert!(!text.contains("mapping"), "{gemini}");
    gemini_types::assert_taken(&[gemini]);

    // A value a schema lists is data, whatever its keys: a default shaped like a mapping that
    // points nowhere is sent as it is.
    let listed = json!({"type": "object", "properties": {
        "pet": {"oneOf": [{"type": "object"}], "discriminator": {"propertyName": "kind"}},
        "layout": {"type": "object", "default": {"discriminator": {"mapping": {"a": "#/x"}}}}}});
    let exported = mcp::tool(&remote("pet_show", listed.clone())).unwrap();
    assert_eq!(
        exported["inputSchema"]["properties"]["layout"],
        listed["properties"]["layout"]
    );
}

#[test]
fn a_chain_of_refs_or_a_definition_copied_past_the_limits_is_not_written_out() {
    // Each definition points at the next: past 64 inside one another, refused for every
    // provider, whose reader (a client, the checker) would follow it as deep.
    let chain = |links: usize| {
        let mut definitions = serde_json::Map::new();
        for n in 0..links {
            definitions.insert(
                format!("D{n}"),
                json!({"$ref": format!("#/definitions/D{}", n + 1)}),
            );
        }
        definitions.insert(format!("D{links}"), json!({"type": "string"}));
        remote(
            "chain",
            json!({"type": "object", "definitions": definitions,
                   "properties": {"x": {"$ref": "#/definitions/D0"}}}),
        )
    };
    assert!(mcp::tool(&chain(40)).is_ok());
    for provider in Provider::ALL {
        let refused = tool_core::providers::export(&chain(500), provider).unwrap_err();
        assert!(
            refused
                .problem
                .contains("lead through more than 64 schemas"),
            "{provider}: {refused}"
        );
    }
    // One definition of 300 fields at 1,000 places: 300,000 values written out. Shown as
    // written where `$ref`s are followed (Gemini's JSON Schema too).
    let fields: serde_json::Map<String, Value> = (0..300)
        .map(|n| (format!("f{n}"), json!({"type": "integer"})))
        .collect();
    let uses: serde_json::Map<String, Value> = (0..1000)
        .map(|n| (format!("u{n}"), json!({"$ref": "#/$defs/Wide"})))
        .collect();
    let schema = json!({"type": "object", "$defs": {"Wide": {"type": "object", "properties": fields}},
                        "properties": uses});
    let wide = remote("wide", schema.clone());
    assert_eq!(mcp::tool(&wide).unwrap()["inputSchema"], schema);
    assert_eq!(gemini::tool(&wide).unwrap()["parametersJsonSchema"], schema);
    // OpenAI's strict mode, which follows none, is left off.
    assert_eq!(openai::tool(&wide).unwrap()["function"]["strict"], false);
}

#[test]
fn exports_inline_refs_except_for_recursion() {
    for provider in [Provider::Mcp, Provider::OpenAi, Provider::Anthropic] {
        let exported = tool_core::providers::export(&definition("order_place"), provider).unwrap();
        let text = exported.to_string();
        assert!(
            !text.contains("$ref") && !text.contains("$defs"),
            "{provider}: {text}"
        );
        let recursive = tool_core::providers::export(&definition("tree_count"), provider).unwrap();
        let text = recursive.to_string();
        assert!(
            text.contains(r##""$ref":"#/$defs/TreeNode""##),
            "{provider}: {text}"
        );
    }
}

/// A step of a plan, which holds steps, under a title that is no plain name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[schemars(title = "Plan/step ~ 1")]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct PlanStep {
    /// What to do.
    task: String,
    /// The steps within it.
    steps: Vec<PlanStep>,
}

/// Runs a plan.
#[tool]
async fn plan_run(#[input] plan: PlanStep) -> String {
    format!("{plan:?}")
}

#[test]
fn a_type_holding_itself_is_defined_under_a_name_its_reference_finds() {
    // Named by its title, which, written into a JSON Pointer as it stands, pointed elsewhere
    // (`/` divides a pointer; `~` and a space are written otherwise).
    let registry = Registry::builder()
        .providers([Provider::Mcp])
        .tool(PlanRun)
        .build()
        .unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let schema = &exported[0]["inputSchema"];
    let text = schema.to_string();
    let (_, after) = text.split_once(r##""$ref":"#/$defs/"##).unwrap();
    let (name, _) = after.split_once('"').unwrap();
    let reference = format!("#/$defs/{name}");
    assert!(
        name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "{reference}"
    );
    assert_eq!(
        schema["$defs"][name]["properties"]["task"]["type"],
        "string"
    );
}

#[test]
fn gemini_uses_only_the_openapi_subset() {
    // `order_place` without its map of labels (which goes as JSON Schema, below).
    let mut schema = definition("order_place").input_schema;
    schema["properties"]
        .as_object_mut()
        .unwrap()
        .remove("labels");
    schema["required"] = json!(["items", "shipping"]);
    let exported = gemini::tool(&ToolDefinition::new(
        "order_place",
        "Places an order.",
        schema,
    ))
    .unwrap();
    assert!(exported.get("parametersJsonSchema").is_none(), "{exported}");
    gemini_types::assert_in_subset(&exported["parameters"]);
    let note = &exported["parameters"]["properties"]["note"];
    assert_eq!(note["type"], "string");
    assert_eq!(note["nullable"], true);
    let pickup = &exported["parameters"]["properties"]["shipping"]["anyOf"][0];
    assert_eq!(pickup["enum"], json!(["pickup"]), "const becomes enum");
    let kinds = Registry::builder().tool(KindsStock).build().unwrap();
    for exported in [
        gemini::tool(&definition("note_tag")).unwrap(),
        json!(kinds.export(Provider::Gemini).unwrap())[0].clone(),
    ] {
        gemini_types::assert_in_subset(&exported["parameters"]);
    }
}

#[test]
fn gemini_is_sent_nothing_its_subset_refuses_and_json_schema_where_the_subset_has_no_form() {
    // A remote schema's keywords Gemini's Schema has no field for are left out (the call is
    // still held to them), a required name that names no field is not said required, and a
    // field that is not an object says no fields.
    let slips = remote(
        "slips",
        json!({"type": "object", "$comment": "tools", "x-order": 1,
            "properties": {
                "count": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10,
                    "maximum": 5, "multipleOf": 2, "deprecated": true, "readOnly": true},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "examples": [0.5]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true,
                    "contains": {"const": "a"}, "minContains": 1, "unevaluatedItems": false},
                "name": {"type": "string", "properties": {"first": {"type": "string"}},
                    "required": ["first"], "items": {"type": "string"}, "not": {"const": ""},
                    "contentMediaType": "text/plain"},
                "owner": {"type": "object", "properties": {"id": {"type": "string"}},
                    "propertyNames": {"pattern": "^[a-z]+$"}, "dependentRequired": {"id": []},
                    "unevaluatedProperties": false, "required": ["id", "ghost"]}},
            "required": ["count", "missing"]}),
    );
    let exported = gemini::tool(&slips).unwrap();
    let parameters = &exported["parameters"];
    gemini_types::assert_in_subset(parameters);
    let properties = &parameters["properties"];
    assert_eq!(parameters["required"], json!(["count"]), "{exported}");
    assert_eq!(
        (
            &properties["count"]["minimum"],
            &properties["count"]["maximum"]
        ),
        (&json!(1), &json!(5)),
        "an integer's exclusive bounds as inclusive ones, the tighter kept: {exported}"
    );
    assert_eq!(properties["name"], json!({"type": "string"}), "{exported}");
    assert_eq!(properties["owner"]["required"], json!(["id"]), "{exported}");

    // What the subset has no form for (Gemini refuses an object of no properties, an array of
    // no items, and a field of no type) goes as JSON Schema, as written: a map, a list of
    // anything, a value of any type, a map at the top.
    let order = gemini::tool(&definition("order_place")).unwrap();
    let cases = [
        (order, json!({"type": "string"}), "labels"),
        (
            gemini::tool(&remote("paths", json!({"type": "object", "properties": {"paths": {"type": "array"}}}))).unwrap(),
            Value::Null,
            "paths",
        ),
        (
            gemini::tool(&remote("any", json!({"type": "object", "properties": {"a": {"description": "Anything."}}}))).unwrap(),
            Value::Null,
            "a",
        ),
        (
            gemini::tool(&remote("open", json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"o": {"type": "object"}}}))).unwrap(),
            Value::Null,
            "o",
        ),
    ];
    for (exported, additional, field) in cases {
        assert!(exported.get("parameters").is_none(), "{exported}");
        let schema = &exported["parametersJsonSchema"];
        assert!(schema["properties"].get(field).is_some(), "{exported}");
        assert_eq!(
            schema["properties"][field]["additionalProperties"],
            additional
        );
        assert!(schema.get("$schema").is_none(), "{exported}");
    }
    let map_at_top = remote(
        "labels",
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
    );
    let exported = gemini::tool(&map_at_top).unwrap();
    assert_eq!(
        exported["parametersJsonSchema"],
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        "a map at the top is no tool of no arguments: {exported}"
    );
    // A tool of no arguments still says none.
    let nothing = gemini::tool(&remote("nothing", json!({"type": "object"}))).unwrap();
    assert_eq!(nothing, json!({"name": "nothing", "description": ""}));
    // So too a value of any type as schemars writes it (`true`), fields of a kind of their own
    // beside the listed ones (a flattened map), and a top that takes fields of any kind.
    let any = json!(
        Registry::builder()
            .tool(BlobPutAny)
            .build()
            .unwrap()
            .export(Provider::Gemini)
            .unwrap()
    );
    assert_eq!(
        any[0]["parametersJsonSchema"]["properties"]["value"], true,
        "{any}"
    );
    for schema in [
        json!({"type": "object", "properties": {"label": {"type": "string"}},
               "additionalProperties": {"type": "integer"}}),
        json!({"type": "object", "properties": {"m": {"type": "object",
               "properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {}}}}}),
        json!({"type": "object", "additionalProperties": true}),
        json!({"type": "object", "properties": {"a": {"anyOf": [true, {"type": "string"}]}}}),
    ] {
        let exported = gemini::tool(&remote("more", schema.clone())).unwrap();
        assert_eq!(exported["parametersJsonSchema"], schema, "{exported}");
    }
    // A schema of no type that lists fields or says its items is the type that has them; an
    // exclusive bound written as a double is made the integer inclusive one, and a tighter
    // inclusive bound written beside it kept.
    let inferred = gemini::tool(&remote(
        "inferred",
        json!({"properties": {
            "point": {"properties": {"x": {"type": "integer", "exclusiveMinimum": 0.5,
                                          "exclusiveMaximum": 10.0, "maximum": 7.5}}},
            "list": {"items": {"type": "string"}}}}),
    ))
    .unwrap();
    gemini_types::assert_in_subset(&inferred["parameters"]);
    let properties = &inferred["parameters"]["properties"];
    assert_eq!(
        (&properties["point"]["type"], &properties["list"]["type"]),
        (&json!("object"), &json!("array"))
    );
    let x = &properties["point"]["properties"]["x"];
    assert_eq!(
        (&x["minimum"], &x["maximum"]),
        (&json!(1), &json!(7.5)),
        "{x}"
    );
    // A value of several types is any of one schema a type, each with its type's keywords;
    // `null` among them lets each be null; one type alone says nothing of null.
    let kinds = gemini::tool(&remote(
        "kinds",
        json!({"type": "object", "properties": {
            "id": {"type": ["string", "integer", "null"], "description": "Its id.",
                   "minLength": 1, "minimum": 0},
            "one": {"type": ["string"]}}}),
    ))
    .unwrap();
    gemini_types::assert_in_subset(&kinds["parameters"]);
    assert_eq!(
        kinds["parameters"]["properties"]["id"],
        json!({"anyOf": [
            {"type": "string", "minLength": 1, "description": "Its id.", "nullable": true},
            {"type": "integer", "minimum": 0, "description": "Its id.", "nullable": true}]}),
        "{kinds}"
    );
    assert_eq!(
        kinds["parameters"]["properties"]["one"],
        json!({"type": "string"})
    );
    // An `allOf` of objects of distinct fields (zod's intersection, an extended type) is the
    // one object of all their fields; one whose objects share a field has no Gemini form.
    let joined = gemini::tool(&remote(
        "joined",
        json!({"type": "object", "properties": {"who": {"allOf": [
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            {"properties": {"age": {"type": "integer"}}, "description": "Aged."}]}}}),
    ))
    .unwrap();
    gemini_types::assert_in_subset(&joined["parameters"]);
    let who = &joined["parameters"]["properties"]["who"];
    assert_eq!(
        (
            &who["properties"]["name"]["type"],
            &who["properties"]["age"]["type"],
            &who["required"],
            &who["description"]
        ),
        (
            &json!("string"),
            &json!("integer"),
            &json!(["name"]),
            &json!("Aged.")
        ),
        "{joined}"
    );
    let shared = json!({"type": "object", "properties": {"who": {"allOf": [
        {"properties": {"name": {"type": "string"}}},
        {"properties": {"name": {"minLength": 1}}}]}}});
    let refused = gemini::tool(&remote("shared", shared)).unwrap_err();
    assert!(
        refused.problem.contains("objects of distinct fields"),
        "{refused}"
    );
    // Listed values beside several types go each to its type's branch; a type none is of
    // takes no branch.
    let listed = gemini::tool(&remote(
        "listed",
        json!({"type": "object", "properties": {
            "pick": {"type": ["string", "integer", "boolean"], "enum": ["a", "b", 1]},
            "word": {"type": ["string", "integer"], "enum": ["x", "y"]}}}),
    ))
    .unwrap();
    gemini_types::assert_in_subset(&listed["parameters"]);
    let properties = &listed["parameters"]["properties"];
    assert_eq!(
        properties["pick"],
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "integer"}]}),
        "{listed}"
    );
    assert_eq!(
        properties["word"],
        json!({"type": "string", "enum": ["x", "y"]})
    );
    // A value only ever null, and several types beside a union, have no form in the subset;
    // JSON Schema says them, a draft-07 tuple written as 2020-12 writes one.
    for property in [
        json!({"type": ["null"]}),
        json!({"type": ["string", "integer"], "anyOf": [{"minLength": 1}, {"minimum": 0}]}),
        json!({"type": "array", "items": [{"type": "string"}]}),
    ] {
        let schema = json!({"type": "object", "properties": {"p": property}});
        let exported = gemini::tool(&remote("unsaid", schema)).unwrap();
        assert!(exported.get("parameters").is_none(), "{exported}");
        let sent = &exported["parametersJsonSchema"]["properties"]["p"];
        if property["type"] == "array" {
            assert_eq!(
                sent,
                &json!({"type": "array", "prefixItems": [{"type": "string"}]})
            );
        }
    }
}

/// A size, each with a word on it.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
enum Size {
    /// Fits a hand.
    Small,
    /// Fills a shelf.
    Large,
}

/// A shape, tagged.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Shape {
    /// Round.
    Circle {
        /// Its radius.
        radius: f64,
    },
    /// A point.
    Dot,
}

/// Stocks an item of every kind of schema Gemini has no keyword for.
#[tool]
async fn kinds_stock(
    /// Its size, if known.
    size: Option<Size>,
    /// Its shape, if known.
    shape: Option<Shape>,
    /// Its tags, each once.
    tags: std::collections::HashSet<String>,
    /// Where it is.
    at: (f64, f64),
    /// Its shelf and bin.
    place: (String, u8),
) -> String {
    format!("{size:?} {shape:?} {} {at:?} {place:?}", tags.len())
}

#[tokio::test]
async fn gemini_is_shown_options_of_unions_sets_and_tuples_in_its_subset_and_they_are_held() {
    let registry = Registry::builder().tool(KindsStock).build().unwrap();
    let exported = json!(registry.export(Provider::Gemini).unwrap());
    let parameters = &exported[0]["parameters"];
    every_schema(parameters, &mut |schema| {
        for refused in [
            "oneOf",
            "const",
            "prefixItems",
            "uniqueItems",
            "additionalProperties",
        ] {
            assert!(!schema.contains_key(refused), "{refused} in {schema:?}");
        }
    });
    let properties = &parameters["properties"];
    // `anyOf` alone in its schema, as some of Gemini's endpoints ask: `null` allowed in each
    // branch, the field's description said in each.
    for field in ["size", "shape"] {
        let union = properties[field].as_object().unwrap();
        assert_eq!(union.keys().collect::<Vec<_>>(), ["anyOf"], "{parameters}");
        let branches = union["anyOf"].as_array().unwrap();
        assert_eq!(branches.len(), 2, "{parameters}");
        for branch in branches {
            assert_eq!(branch["nullable"], true, "{parameters}");
            assert!(
                branch["description"].as_str().unwrap().starts_with("Its s"),
                "{parameters}"
            );
        }
    }
    gemini_types::assert_in_subset(parameters);
    let at = &properties["at"];
    assert_eq!(
        (&at["items"]["type"], &at["minItems"], &at["maxItems"]),
        (&json!("number"), &json!(2), &json!(2)),
        "{at}"
    );
    let kinds: Vec<&Value> = (properties["place"]["items"]["anyOf"].as_array().unwrap())
        .iter()
        .map(|kind| &kind["type"])
        .collect();
    assert_eq!(kinds, [&json!("string"), &json!("integer")]);
    // What Gemini is not shown, the registry still holds.
    let refused = tool_tests::outcome(
        &registry,
        "kinds_stock",
        json!({
            "size": "Small", "shape": null, "tags": ["a", "a"], "at": [1, 2], "place": [3, "x"]
        }),
    )
    .await
    .unwrap_err();
    let paths: Vec<String> = tool_tests::faults(&refused)
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert_eq!(paths, ["tags", "place[0]", "place[1]"], "{refused}");
}

#[tokio::test]
async fn google_s_own_sdk_takes_every_gemini_declaration() {
    // Every tool of this file, and remote schemas with what Gemini's subset has no field for,
    // as Google's `google-genai` reads a `FunctionDeclaration` (fields it does not name refused).
    let mut definitions: Vec<ToolDefinition> = registry().definitions().iter().cloned().collect();
    for registry in [
        Registry::builder().tool(KindsStock).build().unwrap(),
        Registry::builder().tool(BlobPutAny).build().unwrap(),
        Registry::builder().tool(FanPick).build().unwrap(),
    ] {
        definitions.extend(registry.definitions().iter().cloned());
    }
    for (name, schema) in [
        (
            "slips",
            json!({"type": "object", "$comment": "c", "x-order": 1,
            "properties": {
                "count": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 2,
                          "deprecated": true, "readOnly": true, "examples": [2]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true,
                         "contains": {"const": "a"}},
                "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                         "additionalItems": false},
                "pet": {"oneOf": [{"type": "object", "properties": {"kind": {"const": "cat"}}},
                                  {"type": "object", "properties": {"kind": {"const": "dog"}}}],
                        "discriminator": {"propertyName": "kind"}, "description": "A pet."},
                "name": {"type": ["string", "null"], "properties": {"a": {"type": "string"}},
                         "not": {"const": ""}}},
            "required": ["count", "ghost"]}),
        ),
        (
            "map",
            json!({"type": "object", "properties": {"m": {"type": "object",
            "additionalProperties": {"type": "string"}}}}),
        ),
        (
            "anything",
            json!({"type": "object", "properties": {"a": {}, "b": true}}),
        ),
    ] {
        definitions.push(remote(name, schema));
    }
    let declarations: Vec<Value> = definitions
        .iter()
        .map(|definition| gemini::tool(definition).unwrap())
        .collect();
    gemini_types::assert_taken(&declarations);
}

#[test]
fn gemini_is_told_a_tuple_s_items_as_far_as_they_are_known() {
    let declaration_of = |items: Value| {
        let schema = json!({"type": "object", "properties": {"t": items}});
        gemini::tool(&remote("tuple", schema)).unwrap()
    };
    let gemini_of = |items: Value| {
        let declaration = declaration_of(items);
        gemini_types::assert_in_subset(&declaration["parameters"]);
        declaration["parameters"]["properties"]["t"].clone()
    };
    // Closed: any of the positions' kinds, as many as the schema says.
    let pair = gemini_of(json!({
        "type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
        "minItems": 2, "maxItems": 2
    }));
    assert_eq!(
        pair["items"]["anyOf"].as_array().map(Vec::len),
        Some(2),
        "{pair}"
    );
    assert_eq!(
        (&pair["minItems"], &pair["maxItems"]),
        (&json!(2), &json!(2))
    );
    // Items past the positions of a kind of their own: that kind too, no count made up.
    let rest = gemini_of(json!({
        "type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}
    }));
    assert_eq!(
        rest["items"]["anyOf"].as_array().map(Vec::len),
        Some(2),
        "{rest}"
    );
    assert!(
        rest.get("minItems").is_none() && rest.get("maxItems").is_none(),
        "{rest}"
    );
    // Items past the positions of any kind: the subset has no form for them (Gemini refuses
    // an array that says nothing of its items), so the tuple is sent as written.
    let open = json!({"type": "array", "prefixItems": [{"type": "string"}]});
    let declaration = declaration_of(open.clone());
    assert_eq!(declaration["parametersJsonSchema"]["properties"]["t"], open);
}

#[test]
fn gemini_is_sent_a_recursive_type_as_json_schema_by_reference() {
    // Gemini's subset has no `$ref`; its JSON Schema follows one, so a type that holds itself
    // is no reason to refuse the registry.
    let exported = gemini::tool(&definition("tree_count")).unwrap();
    assert!(exported.get("parameters").is_none(), "{exported}");
    let schema = &exported["parametersJsonSchema"];
    assert_eq!(
        schema["properties"]["root"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/TreeNode"}),
        "{exported}"
    );
    assert!(schema["$defs"]["TreeNode"].is_object(), "{exported}");
    let registry = Registry::builder().tool(TreeCount).build().unwrap();
    assert_eq!(registry.export(Provider::Gemini).unwrap().len(), 1);
    // So too a list linked through `Option<Box<..>>` (an `anyOf` of the `$ref` and `null`),
    // and a remote schema's `$ref` wrapped in an `allOf` beside fields of its own.
    let linked = Registry::builder().tool(ChainWalk).build().unwrap();
    let wrapped = remote(
        "wrapped",
        json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
               "$defs": {"Node": {"type": "object", "properties": {
                   "label": {"type": "string"},
                   "next": {"type": "object", "properties": {"note": {"type": "string"}},
                            "allOf": [{"$ref": "#/$defs/Node"}]}}}}}),
    );
    let declarations = [
        json!(linked.export(Provider::Gemini).unwrap())[0].clone(),
        gemini::tool(&wrapped).unwrap(),
    ];
    for declaration in &declarations {
        assert!(declaration.get("parameters").is_none(), "{declaration}");
        assert!(
            declaration["parametersJsonSchema"]["$defs"].is_object(),
            "{declaration}"
        );
    }
    gemini_types::assert_taken(&declarations);
}

/// A link of a chain.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Link {
    /// Its label.
    label: String,
    /// The link after it, if any.
    next: Option<Box<Link>>,
}

/// Walks a chain.
#[tool]
async fn chain_walk(first: Link) -> String {
    format!("{first:?}")
}

#[test]
fn mcp_entries_carry_annotations_and_output_schema() {
    let exported = mcp::tool(&definition("order_place")).unwrap();
    assert_eq!(
        exported["annotations"],
        json!({"title": "Place an order", "readOnlyHint": false, "destructiveHint": true, "openWorldHint": true})
    );
    assert_eq!(exported["outputSchema"]["required"], json!(["order"]));
    let tag = mcp::tool(&definition("note_tag")).unwrap();
    assert_eq!(
        tag["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert!(tag.get("outputSchema").is_none());
}

#[test]
fn a_remote_output_schema_of_no_object_is_shown_to_mcp() {
    // 2026-07-28 (SEP-2106) lets a server describe an array as a tool's output. (A 2025-11-25
    // client's server leaves it out of that client's list: tool-mcp's `output_values` test.)
    let mut listed = remote("tags_list", json!({"type": "object", "properties": {}}));
    listed.output_schema = json!({"type": "array", "items": {"type": "string"}})
        .as_object()
        .cloned();
    let exported = mcp::tool(&listed).unwrap();
    assert_eq!(
        exported["outputSchema"],
        json!({"type": "array", "items": {"type": "string"}}),
        "{exported}"
    );
    // Its results are held to it.
    let check = listed.output_check().expect("the server's output schema");
    assert_eq!(check.faults(&json!(["a", 1])).len(), 1);
    assert!(check.faults(&json!(["a", "b"])).is_empty());
    // An object's is shown.
    listed.output_schema = json!({"type": "object", "properties": {"tags": {"type": "array"}}})
        .as_object()
        .cloned();
    let exported = mcp::tool(&listed).unwrap();
    assert_eq!(exported["outputSchema"]["type"], "object", "{exported}");
}

#[test]
fn a_2025_11_25_client_is_listed_an_object_s_output_schema_alone() {
    use mcp::Revision;
    let mut listed = remote("tags_list", json!({"type": "object", "properties": {}}));
    let array = json!({"type": "array", "items": {"type": "string"}});
    let object = json!({"type": "object", "properties": {"tags": array}});
    // Of objects, but not an object's schema at its root: a 2025-11-25 client refuses it too.
    let union = json!({"anyOf": [object, {"type": "object", "properties": {}}]});
    for (schema, older_takes_it) in [(array, false), (union, false), (object, true)] {
        listed.output_schema = schema.as_object().cloned();
        let latest = mcp::tool_for(&listed, Revision::V2026_07_28).unwrap();
        assert_eq!(latest, mcp::tool(&listed).unwrap());
        assert_eq!(latest["outputSchema"], schema);
        let older = mcp::tool_for(&listed, Revision::V2025_11_25).unwrap();
        assert_eq!(
            older.get("outputSchema").is_some(),
            older_takes_it,
            "{older}"
        );
        // An entry exported already is fitted alike.
        let mut fitted = latest.clone();
        mcp::fit_tool(&mut fitted, Revision::V2025_11_25);
        assert_eq!(fitted, older);
        // Nothing else differs: the tool is listed, its input and hints as they were.
        let mut without = latest.clone();
        without.as_object_mut().unwrap().remove("outputSchema");
        let mut older_without = older.clone();
        older_without
            .as_object_mut()
            .unwrap()
            .remove("outputSchema");
        assert_eq!(older_without, without);
    }
    assert_eq!(Revision::of("2025-06-18"), Some(Revision::V2025_11_25));
    assert_eq!(
        Revision::of("2026-07-28").map(|r| r.to_string()).as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(Revision::of("2026-7-28"), None);
}

fn raw(name: &str, input_schema: Value) -> Raw {
    let mut definition = definition("note_tag");
    definition.name = name.to_owned();
    definition.input_schema = input_schema.as_object().unwrap().clone();
    Raw(definition)
}

#[test]
fn a_name_a_configured_provider_refuses_fails_the_build() {
    let long = "a".repeat(70);
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let refused = Registry::builder()
        .providers([Provider::OpenAi])
        .tool(raw(&long, schema.clone()))
        .build()
        .unwrap_err();
    let message = refused.to_string();
    assert!(
        message.contains("cannot be offered to OpenAI: (name)"),
        "{message}"
    );
    assert!(
        Registry::builder()
            .providers([Provider::Mcp])
            .tool(raw(&long, schema.clone()))
            .build()
            .is_ok(),
        "MCP allows 128 characters"
    );
    let dotted = Registry::builder()
        .providers([Provider::Anthropic])
        .tool(raw("note.read", schema))
        .build();
    assert!(dotted.is_err());
}

/// Stores anything.
#[tool]
async fn blob_put(key: String, value: serde_json::Value) -> String {
    format!("{key}={value}")
}

/// Stores anything, knowingly.
#[tool(allow_any)]
async fn blob_put_any(key: String, value: serde_json::Value) -> String {
    format!("{key}={value}")
}

#[test]
fn a_field_of_no_single_type_is_refused_unless_the_tool_opts_in() {
    let refused = Registry::builder().tool(BlobPut).build().unwrap_err();
    let RegistryError::Unexportable { errors } = refused else {
        panic!("expected an export error");
    };
    assert_eq!(
        (errors[0].tool.as_str(), errors[0].path.as_str()),
        ("blob_put", "value")
    );
    assert_eq!(errors[0].provider, None);
    assert!(Registry::builder().tool(BlobPutAny).build().is_ok());

    // `registry![...]` refuses it too, at once, by panicking with the same words.
    let panic = std::panic::catch_unwind(|| tool_core::registry![BlobPut]).unwrap_err();
    let message = panic.downcast_ref::<String>().expect("a formatted panic");
    assert!(message.contains("`blob_put`: value: "), "{message}");
    assert!(tool_core::registry![BlobPutAny].check().is_ok());
}

async fn round_trip(call: Result<tool_core::ToolCall, Refusal>) -> tool_core::ToolResult {
    registry().call(call.unwrap(), &Context::default()).await
}

#[tokio::test]
async fn openai_round_trip() {
    let entry = json!({
        "id": "call_1", "type": "function",
        "function": {"name": "note_tag", "arguments": "{\"id\": 3, \"tags\": [\"a\", \"b\"]}"}
    });
    let result = round_trip(openai::read_call(&entry)).await;
    assert_eq!(
        openai::write_result(&result),
        json!({"role": "tool", "tool_call_id": "call_1", "content": "tagged 3 with a,b"})
    );
    let bad = json!({
        "id": "call_2", "type": "function",
        "function": {"name": "note_tag", "arguments": "{\"id\": \"three\"}"}
    });
    let result = round_trip(openai::read_call(&bad)).await;
    let written = openai::write_result(&result);
    assert_eq!(
        written["content"],
        "refused\tbad-arguments\t2 faults in the arguments of note_tag; nothing ran\n\
         fault\tid\texpected u64, received \"three\"\n\
         fault\ttags\tmissing; expected array of string\n\
         fields\tid\ttags\tcolour\tby"
    );
}

#[tokio::test]
async fn anthropic_round_trip() {
    let block = json!({"type": "tool_use", "id": "toolu_1", "name": "note_tag", "input": {"id": 0, "tags": []}});
    let result = round_trip(anthropic::read_call(&block)).await;
    assert_eq!(
        anthropic::write_result(&result),
        json!({
            "type": "tool_result", "tool_use_id": "toolu_1", "is_error": true,
            "content": "refused\tnot-found\tthere is no note 0\nids\t1\t2"
        })
    );
    let block = json!({"type": "tool_use", "id": "toolu_2", "name": "picture_show", "input": {}});
    let result = round_trip(anthropic::read_call(&block)).await;
    let written = anthropic::write_result(&result);
    assert_eq!(written["is_error"], false);
    assert_eq!(
        written["content"][0],
        json!({"type": "text", "text": "a red dot"})
    );
    assert_eq!(
        written["content"][1]["source"],
        json!({"type": "base64", "media_type": "image/png", "data": "iVBORw=="})
    );
}

#[tokio::test]
async fn mcp_round_trip() {
    let params = json!({"name": "order_place", "arguments": {
        "items": [{"sku": "a", "qty": 1}], "shipping": "pickup", "labels": {}
    }});
    let result = round_trip(mcp::read_call(&params, "7")).await;
    assert_eq!(
        mcp::write_result(&result),
        json!({
            "content": [{"type": "text", "text": "{\"order\":7}"}],
            "structuredContent": {"order": 7},
            "isError": false
        })
    );
    let params =
        json!({"name": "order_place", "arguments": {"shipping": {"courier": {"express": true}}}});
    let result = round_trip(mcp::read_call(&params, "8")).await;
    let written = mcp::write_result(&result);
    assert_eq!(written["isError"], true);
    let text = written["content"][0]["text"].as_str().unwrap();
    let refusal = Refusal::parse(text).unwrap();
    let paths: Vec<_> = tool_tests::faults(&refusal)
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert_eq!(paths, ["items", "shipping.courier.address", "labels"]);

    let result = round_trip(mcp::read_call(&json!({"name": "picture_show"}), "9")).await;
    assert_eq!(
        mcp::write_result(&result)["content"][1],
        json!({"type": "image", "data": "iVBORw==", "mimeType": "image/png"})
    );
}

#[tokio::test]
async fn gemini_round_trip() {
    let part = json!({"functionCall": {"name": "note_tag", "args": {"id": 2, "tags": ["x"]}}});
    let result = round_trip(gemini::read_call(&part)).await;
    assert_eq!(
        gemini::write_result(&result),
        json!({"functionResponse": {"name": "note_tag", "response": {"output": "tagged 2 with x"}}})
    );
    let part = json!({"functionCall": {"id": "g1", "name": "note_tags", "args": {}}});
    let result = round_trip(gemini::read_call(&part)).await;
    let written = gemini::write_result(&result);
    assert_eq!(written["functionResponse"]["id"], "g1");
    let error = written["functionResponse"]["response"]["error"]
        .as_str()
        .unwrap();
    assert!(error.starts_with("refused\tunknown-tool\t"), "{error}");
}

#[test]
fn readers_refuse_what_is_not_their_shape() {
    for shape in [json!(null), json!([]), json!({"name": 3}), json!("x")] {
        assert_eq!(openai::read_call(&shape).unwrap_err().code, "bad-call");
        assert_eq!(anthropic::read_call(&shape).unwrap_err().code, "bad-call");
        assert_eq!(gemini::read_call(&shape).unwrap_err().code, "bad-call");
        assert_eq!(mcp::read_call(&shape, "1").unwrap_err().code, "bad-call");
    }
}

#[test]
fn exports_are_made_once_and_again_after_a_change() {
    let registry = registry();
    let first = registry.export(Provider::Mcp).unwrap();
    let again = registry.export(Provider::Mcp).unwrap();
    assert!(std::ptr::eq(first.as_ptr(), again.as_ptr()));
    assert!(registry.remove("note_tag"));
    let after = registry.export(Provider::Mcp).unwrap();
    assert_eq!(after.len(), first.len() - 1);
    assert!(after.iter().all(|tool| tool["name"] != "note_tag"));
    let scoped = registry.scoped(tool_core::Grant::new().tool("order_place"));
    assert_eq!(scoped.export(Provider::Mcp).unwrap().len(), 1);
}

/// Books a host for a while.
#[tool]
async fn host_book(
    /// From when.
    from: chrono::NaiveDateTime,
    /// Until when on the day.
    until: chrono::NaiveTime,
    host: std::net::IpAddr,
) -> String {
    format!("{from} {until} {host}")
}

#[tokio::test]
async fn a_format_no_provider_knows_is_said_in_words_and_its_example_is_taken() {
    let registry = Registry::builder().tool(HostBook).build().unwrap();
    for provider in [
        Provider::Mcp,
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
    ] {
        let exported = json!(registry.export(provider).unwrap());
        let text = exported.to_string();
        for format in ["partial-date-time", "partial-time", "\"ip\""] {
            assert!(!text.contains(format), "{provider:?}: {text}");
        }
        for words in [
            "From when. (a date and time without an offset, as 2024-01-31T09:30:00)",
            "Until when on the day. (a time of day, as 09:30:00)",
            "\"an IPv4 or IPv6 address\"",
        ] {
            assert!(text.contains(words), "{provider:?}: {words} in {text}");
        }
    }
    let ran = tool_tests::outcome(
        &registry,
        "host_book",
        json!({"from": "2024-01-31T09:30:00", "until": "09:30:00", "host": "::1"}),
    );
    assert_eq!(ran.await.as_deref(), Ok("2024-01-31 09:30:00 09:30:00 ::1"));
}

/// Four ways to the next level, six levels deep: written out in full, the last level's type is
/// copied 4^6 times.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Fan0 {
    A(Fan1),
    B(Fan1),
    C(Fan1),
    D(Fan1),
}

macro_rules! fan {
    ($($level:ident => $next:ident),*) => {$(
        /// One level of [`Fan0`].
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        enum $level {
            A($next),
            B($next),
            C($next),
            D($next),
        }
    )*};
}
fan!(Fan1 => Fan2, Fan2 => Fan3, Fan3 => Fan4, Fan4 => Fan5);

/// The bottom of [`Fan0`].
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Fan5 {
    Leaf { x: u8 },
}

/// Picks a way down.
#[tool(readonly)]
async fn fan_pick(choice: Fan0) -> String {
    let _ = choice;
    "picked".to_owned()
}

#[tokio::test]
async fn a_schema_copying_one_type_thousands_of_times_is_shown_by_reference() {
    // Every provider is shown the definitions, as schemars wrote them, not thousands of
    // copies: Gemini in JSON Schema, which follows a `$ref`.
    let registry = Registry::builder().tool(FanPick).build().unwrap();
    let definition = &registry.definitions()[0];
    for exported in [
        mcp::tool(definition).unwrap()["inputSchema"].clone(),
        anthropic::tool(definition).unwrap()["input_schema"].clone(),
        openai::tool(definition).unwrap()["function"]["parameters"].clone(),
        gemini::tool(definition).unwrap()["parametersJsonSchema"].clone(),
    ] {
        let text = exported.to_string();
        assert!(
            exported["$defs"].get("Fan4").is_some() && text.len() < 4_000,
            "{} bytes: {}",
            text.len(),
            &text[..text.len().min(400)]
        );
    }
    // And the registry takes a call to it as before.
    let call = json!({"choice": {"Leaf": {"x": 1}}});
    let picked = tool_tests::outcome(&registry, "fan_pick", call).await;
    assert_eq!(picked.unwrap(), json!("picked"));
}

#[tokio::test]
async fn a_fault_under_unions_of_one_type_written_several_times_is_found_where_it_is() {
    // Each level's four variants are one type: tried once, not 4^6 times over, so the fault
    // is found at its place within the checker's budget.
    let registry = Registry::builder()
        .providers([Provider::Mcp])
        .tool(FanPick)
        .build()
        .unwrap();
    let wrong = json!({"choice": {"Leaf": {"x": 300}}});
    let refused = tool_tests::outcome(&registry, "fan_pick", wrong)
        .await
        .unwrap_err();
    let faults = tool_tests::faults(&refused);
    assert_eq!(faults.len(), 1, "{refused}");
    assert_eq!(faults[0].0, "choice.Leaf.x", "{refused}");
}

/// A name, another name, or a number: two variants of one type.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum NoteId {
    Name(String),
    Alias(String),
    Number(u64),
}

/// Finds a note.
#[tool(readonly)]
async fn note_find(id: NoteId) -> String {
    let _ = id;
    "found".to_owned()
}

#[tokio::test]
async fn a_union_of_one_type_written_twice_is_said_once_in_a_fault() {
    let registry = Registry::builder().tool(NoteFind).build().unwrap();
    let refused = tool_tests::outcome(&registry, "note_find", json!({"id": true}))
        .await
        .unwrap_err();
    let faults = tool_tests::faults(&refused);
    assert_eq!(
        faults,
        [(
            "id".to_owned(),
            "expected string or u64, received true".to_owned()
        )],
        "{refused}"
    );
}

#[test]
fn each_provider_is_sent_what_it_asks_of_every_schema() {
    // OpenAI refuses a whole request, strict mode or not, for an object at the root that
    // lists no `properties` and for an array without `items`: both common in MCP servers'
    // schemas. Each is added as the schema that admits anything.
    let map_root = remote(
        "labels",
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
    );
    let exported = openai::tool(&map_root).unwrap();
    assert_eq!(exported["function"]["strict"], false, "{exported}");
    assert_eq!(
        exported["function"]["parameters"],
        json!({"type": "object", "additionalProperties": {"type": "string"}, "properties": {}})
    );
    // A root that names no type (MCP asks for an object there) is sent as an object to each
    // provider but MCP: Anthropic refuses an `input_schema` of no type.
    let anything = remote("anything", json!({}));
    let exported = openai::tool(&anything).unwrap();
    assert_eq!(
        exported["function"]["parameters"],
        json!({"type": "object", "properties": {}})
    );
    let untyped = remote("untyped", json!({"properties": {"a": {"type": "string"}}}));
    for definition in [&anything, &untyped] {
        let exported = anthropic::tool(definition).unwrap();
        assert_eq!(exported["input_schema"]["type"], "object", "{exported}");
        let exported = mcp::tool(definition).unwrap();
        assert!(exported["inputSchema"].get("type").is_none(), "{exported}");
    }
    let arrays = remote(
        "arrays",
        json!({"type": "object", "properties": {
            "paths": {"type": "array", "description": "Files."},
            "either": {"type": ["string", "array"]},
            "any": {"type": "array", "items": true},
            "rows": {"type": "array", "items": {"type": "array"}},
            "kept": {"type": "array", "items": {"type": "integer"}}}}),
    );
    let exported = openai::tool(&arrays).unwrap();
    let properties = &exported["function"]["parameters"]["properties"];
    assert_eq!(
        properties,
        &json!({
            "paths": {"type": "array", "description": "Files.", "items": {}},
            "either": {"type": ["string", "array"], "items": {}},
            "any": {"type": "array", "items": {}},
            "rows": {"type": "array", "items": {"type": "array", "items": {}}},
            "kept": {"type": "array", "items": {"type": "integer"}}}),
        "{exported}"
    );
    // Every array and every root the export sends has them, whatever it exports.
    for definition in [&map_root, &arrays] {
        let exported = openai::tool(definition).unwrap();
        let parameters = &exported["function"]["parameters"];
        assert!(parameters.get("properties").is_some(), "{exported}");
        every_schema(parameters, &mut |schema| {
            let array = schema.get("type").is_some_and(|kinds| {
                kinds == "array"
                    || kinds
                        .as_array()
                        .is_some_and(|k| k.contains(&json!("array")))
            });
            let items = schema.get("items");
            assert!(
                !array || items.is_some_and(Value::is_object),
                "{schema:?} in {exported}"
            );
        });
    }
    // Other providers are sent the schema as the server wrote it.
    let exported = anthropic::tool(&arrays).unwrap();
    assert_eq!(
        exported["input_schema"]["properties"]["paths"],
        json!({"type": "array", "description": "Files."})
    );
}

#[test]
fn a_remote_schema_s_slips_are_read_as_meant_and_one_with_no_reading_is_refused() {
    // PHP's `[]` for an empty map, a `required` of `null`, and draft-03's `required: true` on a
    // property: each provider checks a schema against JSON Schema's own and refuses the whole
    // request for these, so each is written in today's form, for every provider.
    let slips = remote(
        "slips",
        json!({"type": "object", "required": null, "properties": {
            "name": {"type": "string", "required": true},
            "note": {"type": "string", "required": false},
            "meta": {"type": "object", "properties": []}}}),
    );
    let exported = anthropic::tool(&slips).unwrap();
    assert_eq!(
        exported["input_schema"],
        json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"},
            "note": {"type": "string"},
            "meta": {"type": "object", "properties": {}}}})
    );
    for provider in Provider::ALL {
        let exported = tool_core::providers::export(&slips, provider)
            .unwrap_or_else(|error| panic!("{provider}: {error}"));
        let text = exported.to_string();
        assert!(
            !text.contains("\"required\":true")
                && !text.contains("\"required\":null")
                && !text.contains("\"properties\":[]"),
            "{provider}: {text}"
        );
    }
    let exported = openai::tool(&slips).unwrap();
    assert_eq!(exported["function"]["strict"], true, "{exported}");
    assert_eq!(
        exported["function"]["parameters"]["properties"]["name"]["type"], "string",
        "required, so not made nullable: {exported}"
    );

    // Read before a `$ref` is written out: a slip beside one does not stand in for the
    // keyword of the schema it points to; `properties: null` is no properties.
    let beside = remote(
        "beside",
        json!({"type": "object", "$defs": {"Person": {"type": "object", "required": ["age"],
                   "properties": {"age": {"type": "integer"}}}},
               "properties": {"who": {"$ref": "#/$defs/Person", "required": true},
                              "none": {"type": "object", "properties": null}}}),
    );
    let exported = anthropic::tool(&beside).unwrap();
    let schema = &exported["input_schema"];
    assert_eq!(schema["required"], json!(["who"]), "{exported}");
    assert_eq!(
        schema["properties"]["who"]["required"],
        json!(["age"]),
        "{exported}"
    );
    assert_eq!(
        schema["properties"]["none"],
        json!({"type": "object"}),
        "{exported}"
    );
    // In draft-07's `definitions` too, kept where a type holds itself.
    let tree = remote(
        "tree",
        json!({"type": "object", "definitions": {"Node": {"type": "object", "properties": {
                   "tags": {"type": "array"}, "kids": {"type": "array", "items": {"$ref": "#/definitions/Node"}}}}},
               "properties": {"root": {"$ref": "#/definitions/Node"}}}),
    );
    let exported = openai::tool(&tree).unwrap();
    let node = &exported["function"]["parameters"]["definitions"]["Node"];
    assert_eq!(
        node["properties"]["tags"],
        json!({"type": "array", "items": {}}),
        "{exported}"
    );

    // Said of the output where it is the output's.
    let mut output = remote("output", json!({"type": "object"}));
    output.output_schema = json!({"type": "object", "properties": {"total": "number"}})
        .as_object()
        .cloned();
    let refused = mcp::tool(&output).unwrap_err().to_string();
    assert!(refused.contains("(output) total: "), "{refused}");

    // A field whose schema is no schema, or `properties` that are no map: refused, named.
    for (schema, path, said) in [
        (
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": "string"}}}}),
            "a.b",
            "the schema it lists for the field is \"string\"",
        ),
        (
            json!({"type": "object", "properties": [{"type": "string"}]}),
            "(arguments)",
            "the `properties` it lists for the object are [",
        ),
    ] {
        let broken = remote("broken", schema);
        for provider in Provider::ALL {
            let refused = tool_core::providers::export(&broken, provider).unwrap_err();
            let shown = refused.to_string();
            assert!(
                shown.contains(path)
                    && shown.contains(said)
                    && shown.contains("leave the tool out"),
                "{provider}: {shown}"
            );
        }
    }
}
