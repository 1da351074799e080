//! Maps keyed by numbers (`HashMap<u32, V>`), which schemars describes with
//! `patternProperties`: advertised, their keys and values held at every depth, and refused
//! when the registry is made where the input type reads the map from serde's buffer (a
//! flattened field, an internally tagged, adjacently tagged or untagged enum), which hands it
//! each key as text.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use tool_core::registry::RegistryError;
use tool_core::{Provider, Registry, tool};
use tool_tests::{fault, faults, outcome};

/// A bin of a shelf.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Bin {
    /// What the bin holds.
    #[schemars(length(min = 1))]
    label: String,
}

/// Stocks bins, each by its number.
#[tool]
async fn bins_stock(
    /// How many of each, by the bin's number.
    counts: BTreeMap<u32, u8>,
    /// Each bin's offset from the shelf's middle, by a signed number.
    offsets: BTreeMap<i64, String>,
    /// The bins of each shelf, by the shelf's number.
    shelves: HashMap<u16, Bin>,
) -> String {
    format!("{counts:?} {offsets:?} {:?}", shelves.len())
}

#[tokio::test]
async fn a_map_keyed_by_numbers_is_advertised_and_held_to_its_keys_and_values() {
    let registry = Registry::builder().tool(BinsStock).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    assert_eq!(
        properties["counts"]["patternProperties"]["^\\d+$"]["maximum"], 255,
        "{properties}"
    );
    assert!(properties["offsets"]["patternProperties"]["^-?\\d+$"].is_object());
    let ran = outcome(
        &registry,
        "bins_stock",
        json!({"counts": {"1": 3, "20": 4}, "offsets": {"-5": "left"}, "shelves": {"2": {"label": "nuts"}}}),
    );
    assert_eq!(ran.await.as_deref(), Ok(r#"{1: 3, 20: 4} {-5: "left"} 1"#));
    let refused = outcome(
        &registry,
        "bins_stock",
        json!({
            "counts": {"x": 3, "2": 300, "-1": 1},
            "offsets": {"1.5": "a", "-2": 7},
            "shelves": {"7": {"label": ""}, "8": {"label": "bolts", "size": 3}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("counts.x", "expected a key matching ^\\d+$"),
            fault(
                "counts.2",
                "expected u8, received 300, which is out of range"
            ),
            fault("counts.-1", "expected a key matching ^\\d+$"),
            fault("offsets[\"1.5\"]", "expected a key matching ^-?\\d+$"),
            fault("offsets.-2", "expected string, received 7"),
            fault(
                "shelves.7.label",
                "expected text that is not empty, received \"\""
            ),
            fault("shelves.8.size", "unknown field"),
        ]
    );
}

#[test]
fn a_map_keyed_by_numbers_is_shown_to_each_provider_as_it_can_take_it() {
    let registry = Registry::builder().tool(BinsStock).build().unwrap();
    let openai = json!(registry.export(Provider::OpenAi).unwrap());
    assert_eq!(openai[0]["function"]["strict"], false, "{openai}");
    let counts = &openai[0]["function"]["parameters"]["properties"]["counts"];
    assert!(counts["patternProperties"].is_object(), "{counts}");
    let gemini = json!(registry.export(Provider::Gemini).unwrap());
    let counts = &gemini[0]["parameters"]["properties"]["counts"];
    assert_eq!(
        counts,
        &json!({"type": "object", "description": "How many of each, by the bin's number."})
    );
}

/// Counts kept beside a name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Tally {
    /// How many of each, by number.
    counts: HashMap<u32, u8>,
}

/// A change to a shelf, tagged as serde tags an enum by default.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Change {
    /// Sets the counts of some bins.
    Set {
        /// The new counts, by the bin's number.
        counts: BTreeMap<u32, u8>,
    },
    /// Empties the shelf.
    Clear,
}

/// Applies changes to shelves; each map keyed by numbers is read from the call's JSON.
#[tool]
async fn shelves_change(
    /// The changes, in order.
    changes: Vec<Change>,
    /// Counts by shelf, where a shelf has them.
    by_shelf: Option<HashMap<String, HashMap<i32, Tally>>>,
) -> String {
    format!("{changes:?} {by_shelf:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_that_serde_reads_from_the_call_is_taken_at_any_depth() {
    let registry = Registry::builder().tool(ShelvesChange).build().unwrap();
    let ran = outcome(
        &registry,
        "shelves_change",
        json!({
            "changes": [{"Set": {"counts": {"3": 1}}}, "Clear"],
            "by_shelf": {"a": {"-2": {"counts": {"7": 9}}}}
        }),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok(r#"[Set { counts: {3: 1} }, Clear] Some({"a": {-2: Tally { counts: {7: 9} }}})"#)
    );
    let refused = outcome(
        &registry,
        "shelves_change",
        json!({"changes": [{"Set": {"counts": {"x": 1}}}], "by_shelf": {"a": {"2": {"counts": {"1": 256}}}}}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("changes[0].Set.counts.x", "expected a key matching ^\\d+$"),
            fault(
                "by_shelf.a.2.counts.1",
                "expected u8, received 256, which is out of range"
            ),
        ]
    );
}

/// Counts beside a label, flattened into the arguments.
#[tool]
async fn tally_flattened(
    /// The tally, its fields sent beside the label.
    #[serde(flatten)]
    tally: Tally,
    /// What is counted.
    label: String,
) -> String {
    format!("{label} {tally:?}")
}

/// Counts sent as a map of their own, flattened into the arguments.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Loose {
    /// What is counted.
    label: String,
    /// How many of each, by number, beside the label.
    #[serde(flatten)]
    counts: HashMap<u32, u8>,
}

/// A change tagged inside itself.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Inside {
    /// Sets counts.
    Set {
        /// The counts.
        counts: BTreeMap<u32, u8>,
    },
}

/// A change tagged beside its content.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", content = "of")]
#[allow(dead_code)]
enum Beside {
    /// Sets counts.
    Set(BTreeMap<u32, u8>),
}

/// A change known by its shape alone.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Shaped {
    /// Counts by number.
    Counts(BTreeMap<u32, u8>),
    /// A note.
    Note(String),
}

/// Takes a map keyed by numbers flattened into its input.
#[tool]
async fn loose_take(#[input] loose: Loose) -> String {
    format!("{loose:?}")
}

/// Takes an internally tagged change.
#[tool]
async fn inside_take(change: Inside) -> String {
    format!("{change:?}")
}

/// Takes an adjacently tagged change.
#[tool]
async fn beside_take(change: Beside) -> String {
    format!("{change:?}")
}

/// Takes an untagged change, in a list.
#[tool]
async fn shaped_take(changes: Vec<Shaped>) -> String {
    format!("{changes:?}")
}

#[test]
fn a_map_keyed_by_numbers_that_serde_reads_from_its_buffer_is_refused_when_the_registry_is_built() {
    let cases = [
        (
            Registry::builder().tool(TallyFlattened),
            "tally_flattened",
            "counts",
        ),
        (Registry::builder().tool(LooseTake), "loose_take", ""),
        (
            Registry::builder().tool(InsideTake),
            "inside_take",
            "change.counts",
        ),
        (
            Registry::builder().tool(BesideTake),
            "beside_take",
            "change.of",
        ),
        (
            Registry::builder().tool(ShapedTake),
            "shaped_take",
            "changes[0]",
        ),
    ];
    for (builder, tool, path) in cases {
        let error = builder.build().unwrap_err();
        let RegistryError::Unexportable { errors } = &error else {
            panic!("{error}");
        };
        assert_eq!(errors.len(), 1, "{tool}: {error}");
        assert_eq!(
            (errors[0].tool.as_str(), errors[0].path.as_str()),
            (tool, path),
            "{error}"
        );
        assert!(
            errors[0]
                .problem
                .contains("serde reads the map from its own buffer")
                && errors[0].problem.contains("key the map by `String`"),
            "{tool}: {}",
            errors[0].problem
        );
    }
}
