//! Maps keyed by numbers (`HashMap<u32, V>`), which schemars describes with
//! `patternProperties`: advertised, their keys and values held at every depth, and refused
//! when the registry is made where the input type reads the map from serde's buffer (a
//! flattened field, an internally tagged, adjacently tagged or untagged enum), which hands it
//! each key as text.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use tool_core::registry::{RegistryBuilder, RegistryError};
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

/// The fault of a key not of a map keyed by `u32`.
const UNSIGNED: &str =
    "expected a key that is a whole number from 0 to 4294967295, in digits without a leading zero";

/// The fault of a key not of a map keyed by `i64`, a range too wide to advertise.
const SIGNED: &str = "expected a key that is a whole number in digits (after a minus if below \
    zero), without a leading zero";

/// The fault of a key not of a map keyed by unsigned integers of no range asked.
const UNSIGNED_ANY: &str =
    "expected a key that is a whole number in digits, without a leading zero";

/// The pattern of the keys of a map keyed by `u16`, as serde_json reads them.
const U16_KEYS: &str =
    "^(0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$";

/// What building `builder`'s registry refuses for every provider: each path and problem.
fn refused(builder: RegistryBuilder) -> Vec<(String, String)> {
    let error = builder.build().unwrap_err();
    let RegistryError::Unexportable { errors } = error else {
        panic!("{error}");
    };
    (errors.into_iter())
        .filter(|error| error.provider.is_none())
        .map(|error| (error.path, error.problem))
        .collect()
}

/// That `builder`'s registry is refused for one map keyed by numbers, at `path`, which serde
/// reads from its own buffer.
fn refused_as_buffered(builder: RegistryBuilder, path: &str) {
    let refused = refused(builder);
    let paths: Vec<&str> = refused.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(paths, [path], "{refused:?}");
    let problem = &refused[0].1;
    assert!(
        problem.contains("serde reads the map from its own buffer")
            && problem.contains("key the map by `String`"),
        "{problem}"
    );
}

#[tokio::test]
async fn a_map_keyed_by_numbers_is_advertised_and_held_to_its_keys_and_values() {
    let registry = Registry::builder().tool(BinsStock).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    // The keys serde_json reads: schemars' `^\\d+$` would take `-0`, `007` and `65536`.
    let shelves = &properties["shelves"]["patternProperties"];
    assert!(shelves[U16_KEYS].is_object(), "{shelves}");
    let counts = properties["counts"]["patternProperties"]
        .as_object()
        .unwrap();
    assert_eq!(counts.values().next().unwrap()["maximum"], 255);
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
            "counts": {"x": 3, "2": 300, "-1": 1, "007": 1},
            "offsets": {"1.5": "a", "-2": 7, "-0": "b"},
            "shelves": {"7": {"label": ""}, "8": {"label": "bolts", "size": 3}, "65536": {"label": "x"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("counts.x", UNSIGNED),
            fault(
                "counts.2",
                "expected u8, received 300, which is out of range"
            ),
            fault("counts.-1", UNSIGNED),
            fault("counts.007", UNSIGNED),
            fault("offsets[\"1.5\"]", SIGNED),
            fault("offsets.-2", "expected string, received 7"),
            fault("offsets.-0", SIGNED),
            fault(
                "shelves.7.label",
                "expected text that is not empty, received \"\""
            ),
            fault("shelves.8.size", "unknown field"),
            fault(
                "shelves.65536",
                "expected a key that is a whole number from 0 to 65535, in digits without a \
                 leading zero"
            ),
        ]
    );
}

#[test]
fn a_map_keyed_by_numbers_is_shown_to_each_provider_as_it_can_take_it() {
    let registry = Registry::builder().tool(BinsStock).build().unwrap();
    let openai = json!(registry.export(Provider::OpenAi).unwrap());
    assert_eq!(openai[0]["function"]["strict"], false, "{openai}");
    let openai_counts = &openai[0]["function"]["parameters"]["properties"]["counts"];
    assert!(
        openai_counts["patternProperties"].is_object(),
        "{openai_counts}"
    );
    // Gemini's subset has no form for a map (it refuses an object of no properties), so the
    // schema goes to Gemini as JSON Schema, the keys' rule with it.
    let gemini = json!(registry.export(Provider::Gemini).unwrap());
    assert!(gemini[0].get("parameters").is_none(), "{gemini}");
    let counts = &gemini[0]["parametersJsonSchema"]["properties"]["counts"];
    assert_eq!(
        counts["patternProperties"], openai_counts["patternProperties"],
        "{gemini}"
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
            fault("changes[0].Set.counts.x", UNSIGNED),
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
        (Registry::builder().tool(TallyFlattened), "counts"),
        (Registry::builder().tool(LooseTake), ""),
        (Registry::builder().tool(InsideTake), "change.counts"),
        (Registry::builder().tool(BesideTake), "change.of"),
        (Registry::builder().tool(ShapedTake), "changes[0]"),
    ];
    for (builder, path) in cases {
        refused_as_buffered(builder, path);
    }
}

/// A node of a tree whose children are known by their shape alone.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Node {
    /// Counts at this node, by number.
    counts: HashMap<u32, u8>,
    /// The node's children.
    kids: Vec<Kid>,
}

/// A child: a node, or a leaf's name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Kid {
    /// A node below.
    Node(Node),
    /// A leaf.
    Leaf(String),
}

/// Takes a tree whose nodes below the first are read from serde's buffer.
#[tool]
async fn tree_take(root: Node) -> String {
    format!("{root:?}")
}

/// Takes counts flattened under an `Option`, which serde reads as `None` when they fail.
#[tool]
async fn maybe_flattened(
    /// The counts, if any.
    #[serde(flatten)]
    tally: Option<Tally>,
    /// What is counted.
    name: String,
) -> String {
    format!("{name} {tally:?}")
}

/// Values by number or by name, told apart by serde trying each.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ByEither<V> {
    /// By number.
    ById(HashMap<u32, V>),
    /// By name.
    ByName(HashMap<String, V>),
}

/// Takes counts by number or by name.
#[tool]
async fn either_take(counts: ByEither<u8>) -> String {
    format!("{counts:?}")
}

#[test]
fn a_map_keyed_by_numbers_read_from_a_buffer_on_any_way_to_it_is_refused() {
    // Below a type that refers to itself through an untagged enum; under a flattened `Option`
    // (whose failure serde drops, so the entry would be lost); beside a branch that takes
    // every key as text (so no call could reach the map keyed by numbers).
    let cases = [
        (Registry::builder().tool(TreeTake), "root.kids[0].counts"),
        (Registry::builder().tool(MaybeFlattened), "counts"),
        (Registry::builder().tool(EitherTake), "counts"),
    ];
    for (builder, path) in cases {
        refused_as_buffered(builder, path);
    }
}

/// A user, by number.
#[derive(Debug, PartialEq, Eq, Hash, serde::Deserialize, schemars::JsonSchema)]
struct UserId(u32);

/// A side of a shelf. Its variants carry no docs: schemars then names them as a map's keys
/// (with docs it describes the map as keyed by any text, and no key the asking can guess
/// reaches the map keyed by numbers below, which is then refused).
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[allow(missing_docs)]
enum Side {
    Left,
    Right,
}

/// Takes maps keyed by numbers beside fields of every kind the least arguments must be made
/// of, and below maps keyed by other text.
#[tool]
#[allow(clippy::too_many_arguments)] // a tool's parameters are its arguments' fields
async fn everything_take(
    /// Scores by user.
    scores: HashMap<UserId, f64>,
    /// Large counts.
    large: BTreeMap<u128, u8>,
    /// Counts by side, then number.
    by_side: BTreeMap<Side, BTreeMap<u32, u8>>,
    /// Counts by letter, then number.
    by_letter: BTreeMap<char, BTreeMap<i16, u8>>,
    /// Counts by day, then number.
    by_day: BTreeMap<chrono::NaiveDate, BTreeMap<u32, u8>>,
    /// Counts by shelf, then number.
    by_shelf: BTreeMap<uuid::Uuid, BTreeMap<u32, u8>>,
    /// Counts by bin, never 0.
    nonzero: BTreeMap<std::num::NonZeroU32, u8>,
    /// A point.
    at: [f64; 3],
    /// An address.
    ip: std::net::IpAddr,
    /// When.
    when: chrono::NaiveDateTime,
) -> String {
    format!(
        "{scores:?} {large:?} {by_side:?} {by_letter:?} {by_day:?} {} {nonzero:?} {at:?} {ip} {when}",
        by_shelf.len()
    )
}

#[tokio::test]
async fn a_map_keyed_by_numbers_beside_any_field_and_below_any_map_is_taken() {
    let registry = Registry::builder().tool(EverythingTake).build().unwrap();
    let ran = outcome(
        &registry,
        "everything_take",
        json!({
            "scores": {"7": 1.5},
            "large": {"340282366920938463463374607431768211455": 1},
            "by_side": {"Left": {"1": 2}},
            "by_letter": {"a": {"-3": 4}},
            "by_day": {"2026-12-05": {"5": 6}},
            "by_shelf": {"67e55044-10b1-426f-9247-bb680e5fe0c8": {"7": 8}},
            "nonzero": {"9": 10},
            "at": [1.0, 2.0, 3.0],
            "ip": "10.0.0.1",
            "when": "2026-12-05T10:00:00"
        }),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok(
            "{UserId(7): 1.5} {340282366920938463463374607431768211455: 1} {Left: {1: 2}} \
            {'a': {-3: 4}} {2026-12-05: {5: 6}} 1 {9: 10} [1.0, 2.0, 3.0] 10.0.0.1 \
            2026-12-05 10:00:00"
        )
    );
}

/// A change tagged inside itself, wrapping a struct defined apart.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Wrapped {
    /// Sets counts.
    Set(Tally),
}

/// Takes an internally tagged change wrapping a tally.
#[tool]
async fn wrapped_take(change: Wrapped) -> String {
    format!("{change:?}")
}

/// Nodes eight wide, four deep, each with counts: reached too many ways to check each.
macro_rules! wide {
    ($name:ident, $below:ty) => {
        /// A wide node.
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[allow(dead_code)]
        struct $name {
            a: Box<$below>,
            b: Box<$below>,
            c: Box<$below>,
            d: Box<$below>,
            e: Box<$below>,
            f: Box<$below>,
            g: Box<$below>,
            h: Box<$below>,
            counts: BTreeMap<u32, u8>,
        }
    };
}
wide!(Wide3, Tally);
wide!(Wide2, Wide3);
wide!(Wide1, Wide2);

/// Takes a wide tree.
#[tool]
async fn wide_take(root: Wide1) -> String {
    format!("{}", root.counts.len())
}

#[test]
fn where_the_asking_stops_the_map_is_refused_and_each_map_is_named_once() {
    // The struct an internally tagged variant wraps is defined apart: the map is named where
    // the call has it, not again in its definition.
    refused_as_buffered(Registry::builder().tool(WrappedTake), "change.counts");
    let refused = refused(Registry::builder().tool(WideTake));
    let unasked = "too many ways to check each";
    assert!(
        refused.iter().all(|(_, problem)| problem.contains(unasked)),
        "{refused:?}"
    );
    assert!(
        refused.iter().any(|(path, _)| path == "root.counts"),
        "{refused:?}"
    );
}

/// A value of any plain kind, told apart by serde trying each.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Scalar {
    /// A truth value.
    Flag(bool),
    /// Text.
    Text(String),
    /// A number.
    Number(f64),
}

/// Takes values of any plain kind by number or by name.
#[tool]
async fn any_either(values: ByEither<Scalar>) -> String {
    format!("{values:?}")
}

/// Values of any plain kind by number, beside a name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct AnyTally {
    /// The values, by number.
    values: HashMap<u32, Scalar>,
}

/// Takes values flattened under an `Option`.
#[tool]
async fn any_flattened(
    /// The values, if any.
    #[serde(flatten)]
    tally: Option<AnyTally>,
    /// What is counted.
    name: String,
) -> String {
    format!("{name} {tally:?}")
}

#[test]
fn a_map_keyed_by_numbers_whose_values_take_any_plain_kind_is_asked_by_its_key() {
    // No value the entry's schema refuses is left to send: the key read as an integer, or
    // not, tells.
    for (builder, path) in [
        (Registry::builder().tool(AnyEither), "values"),
        (Registry::builder().tool(AnyFlattened), "values"),
    ] {
        refused_as_buffered(builder, path);
    }
}

/// A colour.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
enum Colour {
    /// Red.
    Red,
    /// Green.
    Green,
}

/// A change of paint, tagged as serde tags an enum by default.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Paint {
    /// Paints bins, by number.
    Set(BTreeMap<u32, Colour>),
    /// Paints some bins of a shelf.
    Shelf(u8, BTreeMap<u32, Option<Colour>>),
}

/// Counts reads `counts` as numbers it trusts the guard to have held to the schema.
fn trusted<'de, D: serde::Deserializer<'de>>(de: D) -> Result<BTreeMap<u32, u8>, D::Error> {
    let read: BTreeMap<u32, serde_json::Value> = serde::Deserialize::deserialize(de)?;
    Ok(read
        .into_iter()
        .map(|(key, value)| {
            let value = value.as_u64().expect("the schema says a number");
            (
                key,
                u8::try_from(value).expect("the schema says at most 255"),
            )
        })
        .collect())
}

/// A week of counts, by day.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Week {
    monday: Tally,
    tuesday: Tally,
    wednesday: Tally,
    thursday: Tally,
    friday: Tally,
    saturday: Tally,
    sunday: Tally,
}

/// Takes maps keyed by numbers inside an enum's variants, below a map keyed by addresses,
/// read by a `deserialize_with` that trusts the schema, and many ways over.
#[tool]
async fn paint_take(
    /// The change.
    paint: Paint,
    /// Counts by host, then number.
    by_host: BTreeMap<std::net::IpAddr, BTreeMap<u32, u8>>,
    /// Counts read trusting the schema.
    #[serde(deserialize_with = "trusted")]
    trusted: BTreeMap<u32, u8>,
    /// This week's counts.
    this: Week,
    /// Last week's.
    last: Week,
    /// Next week's, if planned.
    next: Option<Week>,
) -> String {
    format!(
        "{paint:?} {by_host:?} {trusted:?} {} {} {}",
        this.monday.counts.len(),
        last.sunday.counts.len(),
        next.is_some()
    )
}

#[tokio::test]
async fn a_map_keyed_by_numbers_in_a_variant_or_read_by_code_of_its_own_is_taken() {
    let registry = Registry::builder().tool(PaintTake).build().unwrap();
    let week = json!({
        "monday": {"counts": {"1": 1}}, "tuesday": {"counts": {}},
        "wednesday": {"counts": {}}, "thursday": {"counts": {}}, "friday": {"counts": {}},
        "saturday": {"counts": {}}, "sunday": {"counts": {"2": 2}}
    });
    let ran = outcome(
        &registry,
        "paint_take",
        json!({
            "paint": {"Set": {"1": "Red"}},
            "by_host": {"10.0.0.1": {"3": 4}},
            "trusted": {"5": 6},
            "this": week, "last": week, "next": null
        }),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("Set({1: Red}) {10.0.0.1: {3: 4}} {5: 6} 1 1 false")
    );
    let refused = outcome(
        &registry,
        "paint_take",
        json!({
            "paint": {"Shelf": [2, {"x": "Red", "1": "Blue"}]},
            "by_host": {}, "trusted": {"5": "six"},
            "this": week, "last": week
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("paint.Shelf[1].x", UNSIGNED),
            fault(
                "paint.Shelf[1].1",
                "expected \"Red\" or \"Green\", received \"Blue\""
            ),
            fault("trusted.5", "expected u8, received \"six\""),
        ]
    );
}

/// A shelf's address, which serde reads from text a JSON Schema names no format for.
#[tool]
async fn addressed_take(
    /// Where the shelf answers.
    address: std::net::SocketAddr,
    /// Counts, by number.
    counts: HashMap<u32, u8>,
    /// The shelf's hosts, by name.
    hosts: BTreeMap<String, Host>,
) -> String {
    format!("{address} {counts:?} {hosts:?}")
}

/// A mailbox, read by a rule of its own that a schema of any text does not show.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "String")]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Mailbox(String);

impl TryFrom<String> for Mailbox {
    type Error = &'static str;

    fn try_from(text: String) -> Result<Mailbox, &'static str> {
        match text.contains('@') {
            true => Ok(Mailbox(text)),
            false => Err("a mailbox has an @"),
        }
    }
}

/// A host of a shelf: its fields before its map read by rules no schema shows.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Host {
    /// Who answers for it.
    owner: Mailbox,
    /// Where it answers, first and second.
    at: [std::net::SocketAddr; 2],
    /// Its bins, by number.
    bins: BTreeMap<u8, String>,
}

#[tokio::test]
async fn a_map_keyed_by_numbers_beside_fields_whose_least_values_are_refused_is_asked_without_them()
{
    let registry = Registry::builder().tool(AddressedTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    let bins = &properties["hosts"]["additionalProperties"]["properties"]["bins"];
    assert!(
        bins["patternProperties"]["^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"].is_object(),
        "{bins}"
    );
    let host = json!({"owner": "a@b", "at": ["10.0.0.1:80", "10.0.0.2:80"], "bins": {"7": "nuts"}});
    let ran = outcome(
        &registry,
        "addressed_take",
        json!({"address": "10.0.0.1:80", "counts": {"4294967295": 1}, "hosts": {"front": host}}),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok(
            "10.0.0.1:80 {4294967295: 1} {\"front\": Host { owner: Mailbox(\"a@b\"), at: \
            [10.0.0.1:80, 10.0.0.2:80], bins: {7: \"nuts\"} }}"
        )
    );
    let past = outcome(
        &registry,
        "addressed_take",
        json!({
            "address": "10.0.0.1:80", "counts": {"4294967296": 1},
            "hosts": {"front": {"owner": "a@b", "at": ["10.0.0.1:80", "10.0.0.2:80"], "bins": {"256": "x"}}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&past),
        [
            fault("counts.4294967296", UNSIGNED),
            fault(
                "hosts.front.bins.256",
                "expected a key that is a whole number from 0 to 255, in digits without a \
                 leading zero"
            ),
        ]
    );
}

/// Counts beside a cube too large for the least arguments to hold.
#[tool]
async fn cubed_take(
    /// Bytes, by layer, row and column.
    cube: [[[u8; 32]; 32]; 32],
    /// Counts, by number.
    counts: BTreeMap<u8, u8>,
) -> String {
    format!("{} {counts:?}", cube[31][31][31])
}

#[tokio::test]
async fn a_map_keyed_by_numbers_beside_a_field_too_large_to_send_is_asked_without_it() {
    let registry = Registry::builder().tool(CubedTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let counts = &exported[0]["inputSchema"]["properties"]["counts"];
    assert!(
        counts["patternProperties"]["^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"].is_object(),
        "{counts}"
    );
    let mut cube = [[[0u8; 32]; 32]; 32];
    cube[31][31][31] = 9;
    let ran = outcome(
        &registry,
        "cubed_take",
        json!({"cube": cube, "counts": {"255": 1}}),
    );
    assert_eq!(ran.await.as_deref(), Ok("9 {255: 1}"));
}

/// Counts beside an address, in a pair, after an address the asking leaves out.
#[tool]
async fn paired_take(
    /// Where the pair comes from.
    from: std::net::SocketAddr,
    /// An address, and counts by number.
    pair: (std::net::SocketAddr, HashMap<u32, u8>),
) -> String {
    format!("{from} {pair:?}")
}

/// An address beside counts flattened into the same object.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct AddressedCounts {
    /// Where the counts come from.
    address: std::net::SocketAddr,
    /// Counts, by number.
    #[serde(flatten)]
    counts: HashMap<u32, u8>,
}

/// Takes counts flattened beside an address.
#[tool]
async fn flattened_take(
    /// The counts.
    counts: AddressedCounts,
) -> String {
    format!("{counts:?}")
}

#[test]
fn a_map_keyed_by_numbers_its_type_reads_only_after_a_field_it_refuses_is_refused_naming_it() {
    // An item of a pair cannot be left out; a flattened struct misses the field before it
    // reads the map.
    for (builder, map, at) in [
        (Registry::builder().tool(PairedTake), "pair[1]", "pair[0]"),
        (
            Registry::builder().tool(FlattenedTake),
            "counts",
            "counts.address",
        ),
    ] {
        let refused = refused(builder);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].0, map, "{refused:?}");
        let stopped = format!(
            "it sends the simplest value the schema allows for each field, and the type \
             refused the value at `{at}` (invalid socket address syntax) and reads the map only \
             after that field; key the map by `String`"
        );
        assert!(refused[0].1.contains(&stopped), "{refused:?}");
    }
}

/// A slot on a rack: a number up to 1000, read by a rule of its own.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "u16")]
#[schemars(with = "u16")]
struct Slot(u16);

impl TryFrom<u16> for Slot {
    type Error = &'static str;

    fn try_from(number: u16) -> Result<Slot, &'static str> {
        match number {
            0..=1000 => Ok(Slot(number)),
            _ => Err("a slot is at most 1000"),
        }
    }
}

/// Racks, each a map of maps keyed by numbers of every width.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Rack {
    /// Levels by floor, then by offset from the middle.
    levels: BTreeMap<u8, BTreeMap<i8, u8>>,
}

/// A crate on a stack: a type that refers to itself, and so is a definition of its schema.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Stack {
    /// How many of each, by number.
    counts: BTreeMap<u8, u8>,
    /// The crate below, if any.
    below: Option<Box<Stack>>,
}

/// Takes maps keyed by integers of every width, and by a key of its own.
#[tool]
async fn racks_fill(
    /// By floor.
    floors: BTreeMap<std::num::NonZeroU32, u8>,
    /// By offset, never 0.
    offsets: BTreeMap<std::num::NonZeroI16, u8>,
    /// This rack, and the spare.
    rack: Rack,
    /// The spare.
    spare: Rack,
    /// By slot.
    slots: BTreeMap<Slot, u8>,
    /// A stack of crates.
    stack: Stack,
) -> String {
    format!("{floors:?} {offsets:?} {rack:?} {spare:?} {slots:?} {stack:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_advertises_and_holds_the_range_its_key_type_takes() {
    let registry = Registry::builder().tool(RacksFill).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let schema = &exported[0]["inputSchema"];
    let keys = |at: &serde_json::Value| -> Vec<String> {
        at["patternProperties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let properties = &schema["properties"];
    // schemars gives a `NonZeroU32` key the signed pattern, and says no range at all.
    assert_eq!(
        keys(&properties["floors"]),
        [
            "^([1-9][0-9]{0,8}|[1-3][0-9]{9}|4[0-1][0-9]{8}|42[0-8][0-9]{7}|429[0-3][0-9]{6}|\
          4294[0-8][0-9]{5}|42949[0-5][0-9]{4}|429496[0-6][0-9]{3}|4294967[0-1][0-9]{2}|\
          42949672[0-8][0-9]|429496729[0-5])$"
        ]
    );
    // A map of maps, in both fields of its type: both keys narrowed.
    let u8_keys = "^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$";
    for rack in ["rack", "spare"] {
        let levels = &properties[rack]["properties"]["levels"];
        assert_eq!(keys(levels), [u8_keys]);
        assert_eq!(
            keys(&levels["patternProperties"][u8_keys]),
            ["^(0|[1-9][0-9]?|1[0-1][0-9]|12[0-7]|-([1-9][0-9]?|1[0-1][0-9]|12[0-8]))$"]
        );
    }
    // In a definition, which a way reaches twice.
    assert_eq!(
        keys(&schema["$defs"]["Stack"]["properties"]["counts"]),
        [u8_keys]
    );
    // A key of its own takes keys by its own rule, which no pattern is made of.
    assert_eq!(keys(&properties["slots"]), ["^(0|[1-9][0-9]*)$"]);

    let rack = json!({"levels": {"255": {"-128": 1, "127": 2}}});
    let ran = outcome(
        &registry,
        "racks_fill",
        json!({"floors": {"4294967295": 1}, "offsets": {"-32768": 2}, "rack": rack, "spare": rack, "slots": {"1000": 3}, "stack": {"counts": {}}}),
    );
    assert!(ran.await.is_ok());
    let rack = json!({"levels": {"256": {}, "1": {"-129": 1, "128": 2, "-0": 3}}});
    let refused = outcome(
        &registry,
        "racks_fill",
        json!({"floors": {"0": 1, "-1": 1, "4294967296": 1}, "offsets": {"0": 2}, "rack": rack, "spare": {"levels": {}}, "slots": {}, "stack": {"counts": {"1": 1}, "below": {"counts": {"256": 1}}}}),
    )
    .await
    .unwrap_err();
    let words = |range: &str| {
        let minus = match range.starts_with('-') {
            true => " (after a minus if below zero)",
            false => "",
        };
        format!(
            "expected a key that is a whole number from {range}, in digits{minus} without a \
             leading zero"
        )
    };
    // Every fault at once, each at its key.
    assert_eq!(
        faults(&refused),
        [
            fault("floors.0", &words("1 to 4294967295")),
            fault("floors.-1", &words("1 to 4294967295")),
            fault("floors.4294967296", &words("1 to 4294967295")),
            fault("offsets.0", &words("-32768 to 32767 other than 0")),
            fault("rack.levels.256", &words("0 to 255")),
            fault("rack.levels.1.-129", &words("-128 to 127")),
            fault("rack.levels.1.128", &words("-128 to 127")),
            fault("rack.levels.1.-0", &words("-128 to 127")),
            fault("stack.below.counts.256", &words("0 to 255")),
        ]
    );
    // Past its own rule, a key of its own is refused by its type, at the key, as the
    // checker's keys are.
    let refused = outcome(
        &registry,
        "racks_fill",
        json!({"floors": {}, "offsets": {}, "rack": {"levels": {}}, "spare": {"levels": {}}, "slots": {"1001": 3}, "stack": {"counts": {}}}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault("slots.1001", "a slot is at most 1000")]
    );
}

/// Maps keyed by numbers under a type the schema of another stands for.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Small {
    /// By number.
    m: BTreeMap<u8, u8>,
}

/// Read as schemars is told a `Small` is.
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Big {
    m: BTreeMap<u32, u8>,
}

/// A key read as an `i64`, which schemars is told is a `u32`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[schemars(with = "u32")]
struct Offset(i64);

/// Takes maps whose schemas say other than their types.
#[tool]
async fn shared_take(
    /// A small one.
    a: Small,
    /// A big one, described as a small one.
    #[schemars(with = "Small")]
    b: Big,
    /// By offset.
    offsets: BTreeMap<Offset, u8>,
) -> String {
    format!("{a:?} {b:?} {offsets:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_is_advertised_no_more_than_its_type_and_its_schema_both_take() {
    let registry = Registry::builder().tool(SharedTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    // One schema for a `u8` key and a `u32` key: the schema's own pattern, which both take.
    for field in ["a", "b"] {
        let keys = &properties[field]["properties"]["m"]["patternProperties"];
        assert!(keys["^(0|[1-9][0-9]*)$"].is_object(), "{keys}");
    }
    // A key type read as signed that schemars says is unsigned: not widened to negatives.
    assert!(properties["offsets"]["patternProperties"]["^(0|[1-9][0-9]*)$"].is_object());
    let taken = outcome(
        &registry,
        "shared_take",
        json!({"a": {"m": {"255": 1}}, "b": {"m": {"256": 1}}, "offsets": {"5": 1}}),
    );
    assert!(taken.await.is_ok());
    let refused = outcome(
        &registry,
        "shared_take",
        json!({"a": {"m": {}}, "b": {"m": {}}, "offsets": {"-5": 1}}),
    )
    .await
    .unwrap_err();
    assert_eq!(faults(&refused), [fault("offsets.-5", UNSIGNED_ANY)]);
}

/// A struct of as many maps keyed by numbers as its fields are named.
macro_rules! wide {
    ($($field:ident)*) => {
        /// Many maps.
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[allow(dead_code)]
        struct ManyMaps {
            $(
                /// By number.
                $field: BTreeMap<u8, u8>,
            )*
        }
    };
}

wide!(f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20 f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31 f32 f33 f34 f35 f36 f37 f38 f39 f40 f41 f42 f43 f44 f45 f46 f47 f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59 f60 f61 f62 f63 f64 f65 f66 f67 f68 f69 f70 f71 f72 f73 f74 f75 f76 f77 f78 f79 f80 f81 f82 f83 f84 f85 f86 f87 f88 f89 f90 f91 f92 f93 f94 f95 f96 f97 f98 f99 f100 f101 f102 f103 f104 f105 f106 f107 f108 f109 f110 f111 f112 f113 f114 f115 f116 f117 f118 f119 f120 f121 f122 f123 f124 f125 f126 f127 f128 f129 f130 f131 f132 f133 f134 f135 f136 f137 f138 f139 f140 f141 f142 f143 f144 f145 f146 f147 f148 f149 f150 f151 f152 f153 f154 f155 f156 f157 f158 f159 f160 f161 f162 f163 f164 f165 f166 f167 f168 f169 f170 f171 f172 f173 f174 f175 f176 f177 f178 f179 f180 f181 f182 f183 f184 f185 f186 f187 f188 f189 f190 f191 f192 f193 f194 f195 f196 f197 f198 f199 f200 f201 f202 f203 f204 f205 f206 f207 f208 f209 f210 f211 f212 f213 f214 f215 f216 f217 f218 f219 f220 f221 f222 f223 f224 f225 f226 f227 f228 f229 f230 f231 f232 f233 f234 f235 f236 f237 f238 f239 f240 f241 f242 f243 f244 f245 f246 f247 f248 f249 f250 f251 f252 f253 f254 f255 f256 f257 f258 f259 f260 f261 f262 f263 f264 f265 f266 f267 f268 f269 f270 f271 f272 f273 f274 f275 f276 f277 f278 f279 f280 f281 f282 f283 f284 f285 f286 f287 f288 f289 f290 f291 f292 f293 f294 f295 f296 f297 f298 f299);

/// Takes many maps.
#[tool]
async fn many_take(#[input] maps: ManyMaps) -> String {
    format!("{}", maps.f0.len())
}

#[tokio::test]
async fn many_maps_keyed_by_numbers_are_taken_whether_or_not_their_ranges_were_asked() {
    let registry = Registry::builder().tool(ManyTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let properties = &exported[0]["inputSchema"]["properties"];
    // The first asked; past the work the asking of ranges has, a plain pattern.
    let keys = |field: &str| {
        properties[field]["patternProperties"]
            .as_object()
            .unwrap()
            .keys()
            .next()
            .cloned()
    };
    assert_eq!(
        keys("f0").as_deref(),
        Some("^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$")
    );
    assert_eq!(keys("f299").as_deref(), Some("^(0|[1-9][0-9]*)$"));
    let mut arguments = serde_json::Map::new();
    for at in 0..300 {
        arguments.insert(format!("f{at}"), json!({}));
    }
    arguments.insert("f0".into(), json!({"256": 1}));
    let refused = outcome(&registry, "many_take", serde_json::Value::Object(arguments))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "f0.256",
            "expected a key that is a whole number from 0 to 255, in digits without a leading zero"
        )]
    );
}

/// Counts by number, as a tool's whole input.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct CountsIn(BTreeMap<u8, u8>);

/// Takes counts by number as its whole input.
#[tool]
async fn counts_take(#[input] counts: CountsIn) -> String {
    format!("{counts:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_that_is_the_whole_input_is_advertised_and_held_to_its_range() {
    let registry = Registry::builder().tool(CountsTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let keys = exported[0]["inputSchema"]["patternProperties"]
        .as_object()
        .unwrap();
    assert_eq!(
        keys.keys().collect::<Vec<_>>(),
        ["^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"]
    );
    let refused = outcome(&registry, "counts_take", json!({"256": 1, "7": 300}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault(
                "256",
                "expected a key that is a whole number from 0 to 255, in digits without a \
                 leading zero"
            ),
            fault("7", "expected u8, received 300, which is out of range"),
        ]
    );
}

/// A side of a shelf, each with docs: schemars describes a map keyed by it as a map of any key.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum DocumentedSide {
    /// The side by the door.
    DoorSide,
    /// The far side.
    FarSide,
}

/// A key read as text by a rule no guess meets: three upper-case letters.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "String")]
#[schemars(with = "String")]
struct Code(String);

impl TryFrom<String> for Code {
    type Error = &'static str;

    fn try_from(text: String) -> Result<Code, &'static str> {
        match text.len() == 3 && text.bytes().all(|byte| byte.is_ascii_uppercase()) {
            true => Ok(Code(text)),
            false => Err("a code is three upper-case letters"),
        }
    }
}

/// Counts by side, then by bin.
type SidedBins = BTreeMap<DocumentedSide, BTreeMap<u8, u8>>;

/// Takes counts by number below maps keyed by a documented enum.
#[tool]
async fn sided_counts(
    /// By side, then by bin.
    by_side: BTreeMap<DocumentedSide, BTreeMap<u8, u8>>,
    /// By side, then by room, then by bin.
    by_room: Option<BTreeMap<String, SidedBins>>,
) -> String {
    format!("{by_side:?} {by_room:?}")
}

/// Takes counts by number below a map whose keys the registry cannot guess.
#[tool]
async fn coded_counts(
    /// By code, then by bin.
    by_code: BTreeMap<Code, BTreeMap<u8, u8>>,
) -> String {
    format!("{by_code:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_below_a_map_keyed_by_a_documented_enum_is_asked_through_it() {
    let registry = Registry::builder().tool(SidedCounts).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let by_side = &exported[0]["inputSchema"]["properties"]["by_side"];
    let bins = &by_side["additionalProperties"]["patternProperties"];
    assert!(
        bins["^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"].is_object(),
        "{by_side}"
    );
    let ran = outcome(
        &registry,
        "sided_counts",
        json!({"by_side": {"far_side": {"7": 1}}, "by_room": {"hall": {"door_side": {"255": 2}}}}),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("{FarSide: {7: 1}} Some({\"hall\": {DoorSide: {255: 2}}})")
    );
    let past = outcome(
        &registry,
        "sided_counts",
        json!({"by_side": {"far_side": {"256": 1}}, "by_room": null}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&past),
        [fault(
            "by_side.far_side.256",
            "expected a key that is a whole number from 0 to 255, in digits without a leading \
             zero"
        )]
    );
    // A key type that names none of the keys it takes leaves the map below unasked: refused.
    let unasked = refused(Registry::builder().tool(CodedCounts));
    assert_eq!(unasked.len(), 1, "{unasked:?}");
    assert_eq!(unasked[0].0, "by_code[]");
    assert!(
        unasked[0]
            .1
            .contains("inside a map the registry found no key to send to"),
        "{unasked:?}"
    );
}

/// Counts by bin, under a name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Bins {
    /// By bin.
    counts: BTreeMap<u8, u8>,
}

/// A shelf's name, and its bins by row, flattened beside it.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct NamedRows {
    /// The shelf's name.
    name: String,
    /// The bins of each row.
    #[serde(flatten)]
    rows: BTreeMap<String, Bins>,
}

/// Takes rows flattened beside a required name.
#[tool]
async fn rows_take(
    /// The shelf.
    shelf: NamedRows,
) -> String {
    format!("{shelf:?}")
}

#[test]
fn a_map_keyed_by_numbers_in_a_map_flattened_beside_a_field_is_refused_as_read_from_a_buffer() {
    // The asking sends the field beside the flattened map, as a call must: the reason given
    // is serde's buffer, not a field the asking left out.
    refused_as_buffered(Registry::builder().tool(RowsTake), "shelf.key.counts");
}

#[test]
fn every_schema_a_provider_is_shown_is_json_schema_2020_12() {
    // All but `WideTake`, which the registry refuses, and whose schema is copied past reason.
    let tools: [&dyn tool_core::tool::Tool; 26] = [
        &BinsStock,
        &ShelvesChange,
        &TallyFlattened,
        &LooseTake,
        &InsideTake,
        &BesideTake,
        &ShapedTake,
        &TreeTake,
        &MaybeFlattened,
        &EitherTake,
        &EverythingTake,
        &WrappedTake,
        &AnyEither,
        &AnyFlattened,
        &PaintTake,
        &AddressedTake,
        &CubedTake,
        &PairedTake,
        &FlattenedTake,
        &RacksFill,
        &SharedTake,
        &ManyTake,
        &CountsTake,
        &SidedCounts,
        &CodedCounts,
        &RowsTake,
    ];
    tool_tests::meta_schema::assert_tools_2020_12(&tools);
}
