//! Maps keyed by an enum whose variants have docs (or are otherwise more than plain names),
//! which schemars describes as a map of any key: the input type is asked the names its key
//! takes when the schema is prepared, and the schema names them, each key held to them.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use tool_core::{Provider, Registry, tool};
use tool_tests::{fault, faults, outcome};

/// A side of a shelf.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Side {
    /// The left side, by the door.
    Left,
    /// The right side.
    Right,
    /// The top shelf, over both.
    TopShelf,
}

/// A crate on a stack: a type that refers to itself.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Stack {
    /// How many on each side.
    sides: BTreeMap<Side, u8>,
    /// The crate below, if any.
    below: Option<Box<Stack>>,
}

/// Fills shelves by side, at any depth.
#[tool]
async fn shelves_fill(
    /// How many on each side.
    sides: HashMap<Side, u8>,
    /// For each room, how many on each side.
    rooms: BTreeMap<String, BTreeMap<Side, u8>>,
    /// Each week's, if any.
    weeks: Vec<Option<HashMap<Side, u8>>>,
    /// A stack of crates.
    stack: Stack,
) -> String {
    format!("{sides:?} {rooms:?} {weeks:?} {stack:?}")
}

/// The names the key takes, as the schema advertises them.
fn names(map: &serde_json::Value) -> Vec<String> {
    assert_eq!(map["additionalProperties"], false, "{map}");
    map["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_map_keyed_by_an_enum_with_docs_names_its_keys_and_holds_them() {
    let registry = (Registry::builder().tool(ShelvesFill))
        .providers([Provider::Mcp])
        .build()
        .unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let schema = &exported[0]["inputSchema"];
    let properties = &schema["properties"];
    let sides = ["left", "right", "top_shelf"];
    assert_eq!(names(&properties["sides"]), sides);
    assert_eq!(names(&properties["rooms"]["additionalProperties"]), sides);
    assert_eq!(names(&properties["weeks"]["items"]), sides);
    assert_eq!(
        names(&schema["$defs"]["Stack"]["properties"]["sides"]),
        sides
    );
    // Each name's values keep their schema.
    assert_eq!(properties["sides"]["properties"]["left"]["maximum"], 255);

    let ran = outcome(
        &registry,
        "shelves_fill",
        json!({
            "sides": {"left": 1, "top_shelf": 2},
            "rooms": {"hall": {"right": 3}},
            "weeks": [null, {"left": 4}],
            "stack": {"sides": {}, "below": {"sides": {"right": 5}}}
        }),
    );
    assert!(ran.await.is_ok());
    let refused = outcome(
        &registry,
        "shelves_fill",
        json!({
            "sides": {"Left": 1, "middle": 2},
            "rooms": {"hall": {"rigth": 3}},
            "weeks": [{"left": 300}],
            "stack": {"sides": {}, "below": {"sides": {"top_shelve": 5}}}
        }),
    )
    .await
    .unwrap_err();
    // Every fault at once, each at its key, where serde alone told the first, at the map.
    assert_eq!(
        faults(&refused),
        [
            fault("sides.Left", "unknown field; did you mean left?"),
            fault("sides.middle", "unknown field"),
            fault("rooms.hall.rigth", "unknown field; did you mean right?"),
            fault(
                "weeks[0].left",
                "expected u8, received 300, which is out of range"
            ),
            fault(
                "stack.below.sides.top_shelve",
                "unknown field; did you mean top_shelf?"
            ),
        ]
    );
}

/// A colour, or any other named.
#[derive(Debug, PartialEq, Eq, Hash, serde::Deserialize, schemars::JsonSchema)]
enum Colour {
    /// Red.
    Red,
    /// Any other.
    #[serde(other)]
    Other,
}

/// A key read as text, which schemars is told is a `Side`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
struct Label(String);

/// Holds maps whose keys the schema cannot name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Loose {
    /// By side.
    sides: BTreeMap<Side, u8>,
}

/// Holds maps whose keys are read as text.
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Labelled {
    sides: BTreeMap<Label, u8>,
}

/// Takes maps whose keys are not an enum's names alone.
#[tool]
async fn loose_fill(
    /// By character.
    letters: HashMap<char, u8>,
    /// By colour, any other taken.
    colours: HashMap<Colour, u8>,
    /// By side.
    sides: Loose,
    /// By label, described as by side.
    #[schemars(with = "Loose")]
    labels: Labelled,
) -> String {
    format!("{letters:?} {colours:?} {sides:?} {labels:?}")
}

#[tokio::test]
async fn a_map_whose_key_takes_more_than_names_keeps_any_key() {
    let registry = Registry::builder().tool(LooseFill).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    for map in [
        &properties["letters"],
        &properties["colours"],
        &properties["sides"]["properties"]["sides"],
        &properties["labels"]["properties"]["sides"],
    ] {
        assert!(map["additionalProperties"].is_object(), "{map}");
        assert!(map.get("properties").is_none(), "{map}");
    }
    let ran = outcome(
        &registry,
        "loose_fill",
        json!({
            "letters": {"a": 1}, "colours": {"Blue": 2},
            "sides": {"sides": {"left": 3}}, "labels": {"sides": {"anything": 4}}
        }),
    );
    assert!(ran.await.is_ok());
}
