//! Rules held to exactly what they say: bounds and multiples of integers past what a double
//! holds, multiples of decimals as they are written, `oneOf`'s one branch, and a schema
//! written by hand held whole whatever type its arguments are read into.

use serde_json::{Value, json};
use tool_core::call::{Arguments, Context, ToolCall};
use tool_core::tool::InputSchema;
use tool_core::{Registry, tool};
use tool_tests::{fault, faults, outcome};

/// Books a payment.
#[tool]
async fn pay(
    /// When, in nanoseconds since 1970.
    #[schemars(range(max = 1_800_000_000_000_000_000i64))]
    at: i64,
    /// How many cents, in fives.
    #[schemars(extend("multipleOf" = 5))]
    cents: u64,
    /// The price, to the cent.
    #[schemars(extend("multipleOf" = 0.01))]
    price: f64,
) -> String {
    format!("{at} {cents} {price}")
}

fn registry() -> Registry {
    Registry::builder().tool(Pay).build().unwrap()
}

#[tokio::test]
async fn a_tool_s_numbers_are_held_to_their_rules_exactly() {
    let registry = registry();
    let refused = outcome(
        &registry,
        "pay",
        json!({"at": 1_800_000_000_000_000_001i64, "cents": 5_000_000_001u64, "price": 10_000_000.005}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault(
                "at",
                "expected at most 1800000000000000000, received 1800000000000000001"
            ),
            fault("cents", "expected a multiple of 5, received 5000000001"),
            fault(
                "price",
                "expected a multiple of 0.01, received 10000000.005"
            ),
        ]
    );
    let paid = outcome(
        &registry,
        "pay",
        json!({"at": 1_800_000_000_000_000_000i64, "cents": 5_000_000_000u64, "price": 10_000_000.01}),
    )
    .await;
    assert_eq!(
        paid.as_deref(),
        Ok("1800000000000000000 5000000000 10000000.01")
    );
    // A decimal multiple that no quotient of doubles is whole for.
    let paid = outcome(&registry, "pay", json!({"at": 0, "cents": 5, "price": 0.3})).await;
    assert!(paid.is_ok(), "{paid:?}");
}

/// `schema` made ready, and `arguments` read into a `Value` held to it.
fn read(schema: Value, arguments: Value) -> Result<Value, Vec<(String, String)>> {
    let schema = InputSchema::new(schema.as_object().cloned().unwrap_or_default());
    schema
        .read::<Value>(&Arguments::from(arguments), "contact")
        .map_err(|refused| faults(&refused))
}

#[test]
fn a_hand_written_schema_is_held_whole_when_read_into_a_value() {
    let closed = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "order": {"enum": ["asc", "desc"]}},
        "required": ["name"],
        "additionalProperties": false,
    });
    assert_eq!(
        read(closed.clone(), json!({"nmae": 5, "order": "up"})),
        Err(vec![
            fault("nmae", "unknown field"),
            fault("name", "missing; expected string"),
            fault("order", r#"expected one of "asc", "desc", received "up""#),
        ])
    );
    assert_eq!(
        read(closed, json!({"name": "ada"})),
        Ok(json!({"name": "ada"}))
    );
}

#[test]
fn one_of_takes_a_value_that_fits_exactly_one_branch() {
    let schema = json!({
        "type": "object",
        "properties": {"phone": {"type": "string"}, "email": {"type": "string"}},
        "oneOf": [{"required": ["phone"]}, {"required": ["email"]}],
    });
    assert_eq!(
        read(schema.clone(), json!({"phone": "1", "email": "a@b.c"})),
        Err(vec![fault(
            "(arguments)",
            "fits both branch 1 and branch 2 of `oneOf`, which takes a value that fits exactly one"
        )])
    );
    assert!(read(schema.clone(), json!({"email": "a@b.c"})).is_ok());
    assert!(read(schema, json!({})).is_err());
}

/// A point on a plan.
#[derive(Debug, PartialEq, Eq, Hash, serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: i64,
    y: i64,
}

/// Marks points on a plan, each once.
#[tool]
async fn mark(points: std::collections::HashSet<Point>) -> usize {
    points.len()
}

#[tokio::test]
async fn unique_items_compares_objects_whatever_order_their_fields_come_in() {
    let registry = Registry::builder().tool(Mark).build().unwrap();
    let refused = outcome(
        &registry,
        "mark",
        json!({"points": [{"x": 1, "y": 2}, {"y": 2, "x": 1}]}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "points",
            "expected unique items, received an object at [0] and again at [1]"
        )]
    );
    let marked = outcome(
        &registry,
        "mark",
        json!({"points": [{"x": 1, "y": 2}, {"y": 1, "x": 2}]}),
    )
    .await;
    assert_eq!(marked.as_deref(), Ok("2"));
}

#[test]
fn numbers_are_equal_when_their_values_are_whatever_way_they_are_written() {
    let schema = json!({
        "type": "object",
        "properties": {
            "weights": {"type": "array", "items": {"type": "number"}, "uniqueItems": true},
            "pairs": {"type": "array", "items": {"type": "array"}, "uniqueItems": true},
            "scale": {"const": 1},
        },
    });
    let refused = read(
        schema.clone(),
        json!({"weights": [1, 2.5, 1.0], "pairs": [[0, 1], [0.0, 1.0]], "scale": 1.0}),
    );
    assert_eq!(
        refused,
        Err(vec![
            fault(
                "weights",
                "expected unique items, received 1 at [0] and again at [2]"
            ),
            fault(
                "pairs",
                "expected unique items, received an array at [0] and again at [1]"
            ),
        ])
    );
    assert!(read(schema, json!({"weights": [1, 1.5], "scale": 1})).is_ok());
}

/// A tree of names.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

impl Tree {
    fn names(&self) -> String {
        let children = self.children.iter().map(Tree::names);
        std::iter::once(self.name.clone())
            .chain(children)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Says a tree's names.
#[tool]
async fn tree_names(#[input] tree: Tree) -> String {
    tree.names()
}

#[tokio::test]
async fn a_type_that_holds_itself_is_held_to_its_schema_at_every_depth() {
    let registry = Registry::builder().tool(TreeNames).build().unwrap();
    let refused = outcome(
        &registry,
        "tree_names",
        json!({"name": "a", "children": [{"name": "b", "children": [], "nmae": "c"}]}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault("children[0].nmae", "unknown field")]
    );
    let counted = outcome(
        &registry,
        "tree_names",
        json!({"name": "a", "children": [{"name": "b", "children": []}]}),
    )
    .await;
    assert_eq!(counted.as_deref(), Ok("a b"));
    for provider in tool_core::Provider::ALL {
        let exported = registry.export(provider);
        assert!(exported.is_ok(), "{provider:?}: {exported:?}");
    }
}

#[test]
fn a_field_sent_as_null_is_absent_to_every_rule_and_to_the_handler() {
    let schema = json!({
        "type": "object",
        "properties": {
            "contact": {"enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "required": ["contact"],
        "if": {"properties": {"contact": {"const": "phone"}}},
        "then": {"required": ["phone"]},
        "additionalProperties": false,
    });
    assert_eq!(
        read(schema.clone(), json!({"contact": "phone", "phone": null})),
        Err(vec![fault(
            "phone",
            "missing (the schema's `then` asks for it, as the value fits its `if`)"
        )])
    );
    assert_eq!(
        read(
            schema,
            json!({"contact": "email", "email": "a@b.c", "phone": null})
        ),
        Ok(json!({"contact": "email", "email": "a@b.c"}))
    );
}

/// Files a report for a year.
#[tool]
async fn report_file(
    /// The year, in four digits.
    #[schemars(regex(pattern = r"^\d{4}$"))]
    year: String,
) -> String {
    year
}

#[tokio::test]
async fn a_pattern_s_digits_are_ascii_as_ecma_262_says() {
    let registry = Registry::builder().tool(ReportFile).build().unwrap();
    let refused = outcome(&registry, "report_file", json!({"year": "٢٠٢٦"}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "year",
            r#"expected text matching ^\d{4}$, received "٢٠٢٦""#
        )]
    );
    let filed = outcome(&registry, "report_file", json!({"year": "2026"})).await;
    assert_eq!(filed.as_deref(), Ok("2026"));
}

/// Who may see a note, when anyone is named.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[schemars(extend("minProperties" = 1))]
struct Audience {
    team: Option<String>,
    person: Option<String>,
}

/// Shares a note.
#[tool]
async fn note_share(
    /// How it is shared.
    #[schemars(extend("enum" = ["read", "edit"]))]
    mode: String,
    /// Who shares it.
    #[schemars(required)]
    sharer: Option<String>,
) -> String {
    format!("{mode} {sharer:?}")
}

/// Shares a note with an audience.
#[tool]
async fn note_show(#[input] audience: Audience) -> String {
    format!("{:?} {:?}", audience.team, audience.person)
}

#[tokio::test]
async fn rules_written_onto_a_type_are_held_beyond_what_serde_reads() {
    let registry = (Registry::builder().tool(NoteShare).tool(NoteShow))
        .build()
        .unwrap();
    let refused = outcome(&registry, "note_share", json!({"mode": "own"}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("mode", r#"expected one of "read", "edit", received "own""#),
            fault("sharer", "missing; expected string"),
        ]
    );
    let shared = outcome(
        &registry,
        "note_share",
        json!({"mode": "edit", "sharer": "ann"}),
    )
    .await;
    assert_eq!(shared.as_deref(), Ok(r#"edit Some("ann")"#));
    let refused = outcome(&registry, "note_show", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "(arguments)",
            "expected at least 1 fields, received 0"
        )]
    );
    let shown = outcome(&registry, "note_show", json!({"team": "ops"})).await;
    assert_eq!(shown.as_deref(), Ok(r#"Some("ops") None"#));
}

/// Signs a note.
#[tool]
async fn note_sign(
    /// Who signs it: `#[schemars(required)]` writes `String` and requires it.
    #[schemars(required)]
    signer: Option<String>,
) -> String {
    format!("{signer:?}")
}

/// Keeps a value.
#[tool(allow_any)]
async fn value_keep(
    /// Under what.
    key: String,
    /// What.
    value: serde_json::Value,
    /// What else, even if nothing: `#[schemars(required)]` on an `Option` of any value.
    #[schemars(required)]
    extra: Option<serde_json::Value>,
) -> String {
    format!("{key} {value} {extra:?}")
}

/// A line of a ledger.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Entry {
    /// What is paid for.
    item: String,
    /// Who approved it.
    #[schemars(required)]
    approver: Option<String>,
}

/// A ledger.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Ledger {
    entries: Vec<Entry>,
    /// Lines kept apart, by name.
    #[serde(default)]
    apart: std::collections::BTreeMap<String, Entry>,
    /// Where it is kept, if anywhere.
    shelf: Option<String>,
}

/// Files a ledger.
#[tool]
async fn ledger_file(#[input] ledger: Ledger) -> String {
    let entries = ledger.entries.iter().chain(ledger.apart.values());
    let approved = entries.map(|entry| format!("{} by {:?}", entry.item, entry.approver));
    format!(
        "{} on {:?}",
        approved.collect::<Vec<_>>().join(", "),
        ledger.shelf
    )
}

/// Lines of a ledger by their initial.
#[tool]
async fn initials_file(
    /// The lines.
    by_initial: std::collections::BTreeMap<char, Entry>,
) -> String {
    format!("{by_initial:?}")
}

#[tokio::test]
async fn an_option_its_schema_requires_is_refused_when_left_out_or_null() {
    let registry = (Registry::builder().tool(NoteSign).tool(LedgerFile))
        .tool(InitialsFile)
        .build()
        .unwrap();
    let definitions = registry.definitions();
    let signer = &(definitions.iter())
        .find(|definition| definition.name == "note_sign")
        .unwrap()
        .input_schema;
    assert_eq!(signer["properties"]["signer"]["type"], "string");
    assert_eq!(signer["required"], json!(["signer"]));
    for arguments in [json!({}), json!({"signer": null})] {
        let refused = outcome(&registry, "note_sign", arguments.clone())
            .await
            .unwrap_err();
        assert_eq!(
            faults(&refused),
            [fault("signer", "missing; expected string")],
            "{arguments}"
        );
    }
    let signed = outcome(&registry, "note_sign", json!({"signer": "ann"})).await;
    assert_eq!(signed.as_deref(), Ok(r#"Some("ann")"#));
    // A required field that takes any value, `null` too: one serde refuses when left out, and
    // one it would read as `None`.
    let keeper = Registry::builder().tool(ValueKeep).build().unwrap();
    for (arguments, left_out) in [
        (json!({"key": "k", "extra": 1}), "value"),
        (json!({"key": "k", "value": 1}), "extra"),
    ] {
        let refused = outcome(&keeper, "value_keep", arguments).await.unwrap_err();
        let missing = fault(left_out, "missing; expected any value");
        assert_eq!(faults(&refused), [missing]);
    }
    let kept = json!({"key": "k", "value": null, "extra": null});
    let kept = outcome(&keeper, "value_keep", kept).await;
    assert_eq!(kept.as_deref(), Ok("k null None"));
    // Under keys that are text and under keys that are characters.
    for (tool, arguments, left_out) in [
        (
            "ledger_file",
            json!({"entries": [{"item": "ink", "approver": "bo"}, {"item": "nib"}]}),
            "entries[1].approver",
        ),
        (
            "ledger_file",
            json!({"entries": [], "apart": {"a": {"item": "ink", "approver": null}}}),
            "apart.a.approver",
        ),
        (
            "initials_file",
            json!({"by_initial": {"i": {"item": "ink"}}}),
            "by_initial.i.approver",
        ),
    ] {
        let refused = outcome(&registry, tool, arguments).await.unwrap_err();
        let missing = fault(left_out, "missing; expected string");
        assert_eq!(faults(&refused), [missing]);
    }
    let ledger = json!({"entries": [{"item": "ink", "approver": "bo"}], "shelf": null});
    let filed = outcome(&registry, "ledger_file", ledger).await;
    assert_eq!(filed.as_deref(), Ok(r#"ink by Some("bo") on None"#));
}

/// Stacks boxes.
#[tool]
async fn boxes_stack(
    /// How many boxes.
    count: u32,
    /// Each box's size.
    sizes: Vec<u8>,
    /// How full each is.
    ratio: f64,
    /// Where to start, if not at the bottom.
    from: Option<i64>,
) -> String {
    format!("{count} {sizes:?} {ratio} {from:?}")
}

#[tokio::test]
async fn a_whole_number_written_with_a_fraction_is_an_integer() {
    let registry = Registry::builder().tool(BoxesStack).build().unwrap();
    let arguments = json!({"count": 3.0, "sizes": [1.0, 2, 2e1], "ratio": 1.0, "from": -4.0});
    let stacked = outcome(&registry, "boxes_stack", arguments).await;
    assert_eq!(stacked.as_deref(), Ok("3 [1, 2, 20] 1 Some(-4)"));
    let arguments = json!({"count": 3.5, "sizes": [256.0], "ratio": 1, "from": 1e19});
    let refused = outcome(&registry, "boxes_stack", arguments)
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("count", "expected u32, received 3.5"),
            fault(
                "sizes[0]",
                "expected u8, received 256.0, which is out of range"
            ),
            fault(
                "from",
                "expected i64 or null, received 1e+19, which is out of range"
            ),
        ]
    );
}

/// A count, or a share.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Amount {
    Count(u32),
    Share(f64),
}

/// A count, or a name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Pick {
    Count(u32),
    Name(String),
}

/// Weighs a load.
#[tool]
async fn load_weigh(
    /// How much.
    amount: Amount,
    /// Which.
    pick: Option<Pick>,
    /// In grams.
    grams: Option<u64>,
    /// Notes.
    #[serde(default)]
    notes: Vec<String>,
) -> String {
    let amount = match amount {
        Amount::Count(count) => format!("Count({count})"),
        Amount::Share(share) => format!("Share({share:?})"),
    };
    let pick = pick.map(|pick| match pick {
        Pick::Count(count) => format!("Count({count})"),
        Pick::Name(name) => format!("Name({name})"),
    });
    format!("{amount} {pick:?} {grams:?} {notes:?}")
}

/// A label, and any counts beside it.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Counts {
    /// What is counted.
    label: String,
    #[serde(flatten)]
    counts: std::collections::BTreeMap<String, u32>,
}

/// Tallies counts.
#[tool]
async fn counts_tally(#[input] counts: Counts) -> String {
    format!("{} {:?}", counts.label, counts.counts)
}

#[tokio::test]
async fn a_whole_number_is_read_as_serde_reads_it_as_sent_and_exactly() {
    let registry = Registry::builder().tool(LoadWeigh).build().unwrap();
    // Whether or not something else sends the call to the checker (a `null` for a list), an
    // untagged enum reads `3.0` as serde does: the first variant that takes it as sent.
    for notes in [json!([]), json!(null)] {
        let arguments = json!({"amount": 3.0, "pick": 4.0, "notes": notes});
        let weighed = outcome(&registry, "load_weigh", arguments).await;
        assert_eq!(
            weighed.as_deref(),
            Ok(r#"Share(3.0) Some("Count(4)") None []"#)
        );
    }
    // Past 2^52 a double is not always the number written: refused, saying what to write.
    let arguments = json!({"amount": 1, "grams": 9007199254740993.0_f64});
    let refused = outcome(&registry, "load_weigh", arguments)
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "grams",
            "expected u64 or null, received 9007199254740992.0, which, written with a fraction \
             or an exponent, may not be the integer meant past 2^52: write the integer in digits \
             alone"
        )]
    );
    let weighed = outcome(&registry, "load_weigh", json!({"amount": 1, "grams": 4e15})).await;
    assert_eq!(
        weighed.as_deref(),
        Ok("Count(1) None Some(4000000000000000) []")
    );
}

#[tokio::test]
async fn a_flattened_map_s_fields_are_advertised_and_taken_as_serde_takes_them() {
    let registry = Registry::builder().tool(CountsTally).build().unwrap();
    // Every provider's dialect takes it (OpenAI's not strict, Gemini's as JSON Schema).
    for provider in tool_core::Provider::ALL {
        assert!(registry.export(provider).is_ok(), "{provider:?}");
    }
    let tally = &registry.definitions()[0].input_schema;
    assert_eq!(
        tally["additionalProperties"]["type"], "integer",
        "{tally:?}"
    );
    let tallied = outcome(&registry, "counts_tally", json!({"label": "l", "a": 3.0})).await;
    assert_eq!(tallied.as_deref(), Ok(r#"l {"a": 3}"#));
    let refused = outcome(&registry, "counts_tally", json!({"label": "l", "a": "x"}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault("a", r#"expected u32, received "x""#)]
    );
}

/// Counts grains.
#[tool]
async fn grains_count(
    /// How many grains, in a 128-bit count.
    grains: u128,
    /// How many sacks.
    sacks: u8,
    /// How many scoops.
    scoops: u64,
    /// What is owed, in grains.
    debt: i128,
) -> String {
    format!("{grains} {sacks} {scoops} {debt}")
}

#[tokio::test]
async fn a_128_bit_integer_is_read_whole_past_what_64_bits_hold() {
    let registry = Registry::builder().tool(GrainsCount).build().unwrap();
    let call = |text: &str| outcome(&registry, "grains_count", Arguments::from_text(text));
    let counted =
        call(r#"{"grains": 18446744073709551621, "sacks": 3, "scoops": 1, "debt": -1}"#).await;
    assert_eq!(counted.as_deref(), Ok("18446744073709551621 3 1 -1"));
    // The checker runs (`sacks` and `scoops` are out of range) and takes the others whole,
    // `debt` just past the least `i64` too.
    let text = r#"{"grains": 18446744073709551621, "sacks": 300, "scoops": 1e20,
        "debt": -9223372036854775809}"#;
    let refused = call(text).await.unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("sacks", "expected u8, received 300, which is out of range"),
            fault(
                "scoops",
                "expected u64, received 1e20, which is out of range"
            ),
        ]
    );
    // A number past what a double holds, which serde_json reads not at all, at its path.
    let text = r#"{"grains": 1e400, "sacks": 3, "scoops": 1, "debt": -1}"#;
    assert_eq!(
        faults(&call(text).await.unwrap_err()),
        [fault(
            "grains",
            "received 1e400, which is out of range: no field takes a number past what a 64-bit \
             float holds (about ±1.8e308)"
        )]
    );
    // A number the checker holds as a double is told as sent: in digits past 64 bits, out of
    // range; with an exponent, maybe not the integer meant.
    let text = r#"{"grains": 1, "sacks": 3, "scoops": 18446744073709551616, "debt": -1}"#;
    assert_eq!(
        faults(&call(text).await.unwrap_err()),
        [fault(
            "scoops",
            "expected u64, received 18446744073709551616, which is out of range"
        )]
    );
    // Arguments the checker writes again (`3.0` taken as the integer 3) keep each 128-bit
    // integer as written.
    for (text, read) in [
        (
            r#"{"grains": 18446744073709551621, "sacks": 3.0, "scoops": 1, "debt": -9223372036854775809}"#,
            "18446744073709551621 3 1 -9223372036854775809",
        ),
        (
            r#"{"grains": 340282366920938463463374607431768211455, "sacks": 3, "scoops": 1e0,
                "debt": -170141183460469231731687303715884105728}"#,
            "340282366920938463463374607431768211455 3 1 -170141183460469231731687303715884105728",
        ),
    ] {
        assert_eq!(call(text).await.as_deref(), Ok(read), "{text}");
    }
}

/// What is owed.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Owed {
    /// So many grains.
    Exact(u128),
    /// About so many sacks.
    Rough(f64),
}

/// Counts grains in sacks, each a 128-bit count.
#[tool]
async fn sacks_count(
    /// Each sack's grains.
    sacks: Vec<u128>,
    /// What is owed, in grains.
    debt: i128,
    /// What else is owed.
    owed: Option<Owed>,
) -> String {
    format!("{sacks:?} {debt} {owed:?}")
}

#[tokio::test]
async fn a_128_bit_integer_written_with_a_fraction_or_an_exponent_is_refused_at_its_path() {
    let registry = (Registry::builder()
        .tool(GrainsCount)
        .tool(SacksCount)
        .build())
    .unwrap();
    let past = "which, written with a fraction or an exponent, may not be the integer meant past \
                2^52: write the integer in digits alone";
    for (tool, text, path, received) in [
        (
            "grains_count",
            r#"{"grains": 1e20, "sacks": 3, "scoops": 1, "debt": -1}"#,
            "grains",
            "1e20",
        ),
        (
            "grains_count",
            r#"{"grains": 4503599627370496.5, "sacks": 3, "scoops": 1, "debt": 0}"#,
            "grains",
            "4503599627370496.5",
        ),
        (
            "grains_count",
            r#"{"grains": 1, "sacks": 3, "scoops": 1,
            "debt": -1.5E+30}"#,
            "debt",
            "-1.5E+30",
        ),
        (
            "sacks_count",
            r#"{"sacks": [1, 2e30], "debt": 0}"#,
            "sacks[1]",
            "2e30",
        ),
        // Inside an enum's variant, where the traced read does not follow.
        (
            "sacks_count",
            r#"{"sacks": [1], "debt": 0, "owed": {"Exact": 1e20}}"#,
            "owed.Exact",
            "1e20",
        ),
        (
            "sacks_count",
            r#"{"owed": {"Exact": 1e20}, "sacks": [1], "debt": 0}"#,
            "owed.Exact",
            "1e20",
        ),
    ] {
        let call = ToolCall::new("1", tool, Arguments::from_text(text));
        let refused = registry
            .call(call, &Context::default())
            .await
            .outcome
            .unwrap_err();
        let problem = format!("expected an integer, received {received}, {past}");
        assert_eq!(faults(&refused), [fault(path, &problem)], "{text}");
    }
    // Below 2^52, such a number is the integer it is, as for any integer type.
    let call = ToolCall::new(
        "1",
        "sacks_count",
        Arguments::from_text(r#"{"sacks": [1e3, 2.0], "debt": -4e0}"#),
    );
    let counted = registry.call(call, &Context::default()).await.outcome;
    let counted = counted.map(|output| output.as_text().into_owned());
    assert_eq!(counted.as_deref(), Ok("[1000, 2] -4 None"));
}

#[test]
fn a_null_a_field_takes_leaves_the_arguments_as_written() {
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Grains {
        big: u128,
        note: Option<String>,
    }
    let schema = json!({
        "type": "object",
        "properties": {"big": {"type": "integer", "minimum": 0}, "note": {"type": ["string", "null"]}},
        "required": ["big"],
        "additionalProperties": false,
    });
    let schema = InputSchema::new(schema.as_object().cloned().unwrap_or_default());
    let text = r#"{"big": 123456789012345678901234567890, "note": null}"#;
    let read = schema.read::<Grains>(&Arguments::from_text(text), "grains");
    assert_eq!(
        read.ok(),
        Some(Grains {
            big: 123456789012345678901234567890,
            note: None
        })
    );
}

#[test]
fn an_enum_a_const_and_a_type_each_hold() {
    let schema = json!({
        "type": "object",
        "properties": {
            "size": {"type": "string", "enum": ["s", 1]},
            "mode": {"enum": ["a", "b"], "const": "a"},
        },
    });
    assert_eq!(
        read(schema.clone(), json!({"size": 1, "mode": "b"})),
        Err(vec![
            fault("size", "expected string, received 1"),
            fault("mode", r#"expected "a", received "b""#),
        ])
    );
    assert!(read(schema, json!({"size": "s", "mode": "a"})).is_ok());
}

/// A colour.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Blue,
}

/// A count that may be unknown.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Maybe(Option<u32>);

/// Paints a payload.
#[tool(allow_any)]
async fn payload_paint(
    /// Anything to paint.
    payload: Value,
    /// The colour.
    colour: Colour,
    /// How many coats, if known.
    coats: Maybe,
) -> String {
    format!("{payload} {colour:?} {:?}", coats.0)
}

#[tokio::test]
async fn a_null_is_taken_where_its_field_takes_null_whatever_else_the_tool_takes() {
    let registry = Registry::builder().tool(PayloadPaint).build().unwrap();
    let painted = outcome(
        &registry,
        "payload_paint",
        json!({"payload": null, "colour": "red", "coats": null}),
    )
    .await;
    assert_eq!(painted.as_deref(), Ok("null Red None"));
    let refused = outcome(
        &registry,
        "payload_paint",
        json!({"payload": 1, "colour": "green", "coats": null}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "colour",
            r#"expected one of "red", "blue", received "green""#
        )]
    );
}

/// A note, once called a memo.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Memo {
    /// Its title.
    #[serde(alias = "heading")]
    title: String,
}

/// A shelf.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Shelf {
    /// Its label.
    #[serde(alias = "tag")]
    label: String,
}

/// Files a memo.
#[tool]
async fn memo_file(#[input] memo: Memo) -> String {
    memo.title
}

/// Labels a shelf.
#[tool]
async fn shelf_label(shelf: Shelf) -> String {
    shelf.label
}

#[tokio::test]
async fn a_name_serde_takes_that_the_schema_does_not_show_is_refused_at_every_depth() {
    let registry = Registry::builder()
        .tool(MemoFile)
        .tool(ShelfLabel)
        .build()
        .unwrap();
    let filed = outcome(&registry, "memo_file", json!({"title": "t"}));
    assert_eq!(filed.await.as_deref(), Ok("t"));
    let labelled = outcome(&registry, "shelf_label", json!({"shelf": {"label": "l"}}));
    assert_eq!(labelled.await.as_deref(), Ok("l"));
    // The schemas show `title` and `label` alone, and take no other field.
    let refused = outcome(&registry, "memo_file", json!({"heading": "t"}));
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [
            fault("heading", "unknown field"),
            fault("title", "missing; expected string")
        ]
    );
    let refused = outcome(&registry, "shelf_label", json!({"shelf": {"tag": "l"}}));
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [
            fault("shelf.tag", "unknown field"),
            fault("shelf.label", "missing; expected string")
        ]
    );
}

/// Moves a counter.
#[tool]
async fn counter_move(
    /// How far.
    by: i64,
) -> i64 {
    by
}

/// A byte, or more.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Either {
    Byte(u8),
    Wide(u64),
}

/// Splits a ledger.
#[tool]
async fn ledger_split(
    /// Amounts by name.
    by_name: std::collections::BTreeMap<String, i64>,
    /// Either.
    either: Either,
) -> String {
    format!("{by_name:?} {either:?}")
}

#[tokio::test]
async fn an_integer_in_digits_below_the_least_i64_is_not_told_it_was_written_with_a_fraction() {
    let registry = Registry::builder().tool(CounterMove).build().unwrap();
    // serde_json reads these digits as the double at the least i64, as it reads `-9.2e18`-like
    // numbers written with an exponent: the text as sent tells which it was.
    let call = |text: &str| outcome(&registry, "counter_move", Arguments::from_text(text));
    let refused = call(r#"{"by": -9223372036854775809}"#).await.unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "by",
            "expected i64, received -9223372036854775809, which is out of range"
        )]
    );
    let refused = call(r#"{"by": -9.223372036854775809e18}"#)
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "by",
            "expected i64, received -9.223372036854775809e18, which, written with a fraction or \
             an exponent, may not be the integer meant past 2^52: write the integer in digits \
             alone"
        )]
    );
    // Each copy of a key sent twice told as it was sent; a union's fault too.
    let registry = Registry::builder().tool(LedgerSplit).build().unwrap();
    let text = r#"{"by_name": {"k": -9.223372036854775808e18, "k": -9223372036854775809},
        "either": 18446744073709551616}"#;
    let refused = outcome(&registry, "ledger_split", Arguments::from_text(text)).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [
            fault(
                "by_name.k",
                "expected i64, received -9.223372036854775808e18, which, written with a fraction \
                 or an exponent, may not be the integer meant past 2^52: write the integer in \
                 digits alone"
            ),
            fault(
                "by_name.k",
                "expected i64, received -9223372036854775809, which is out of range"
            ),
            fault(
                "either",
                "expected u8 or u64, received 18446744073709551616"
            ),
        ]
    );
    let registry = Registry::builder().tool(CounterMove).build().unwrap();
    let call = |text: &str| outcome(&registry, "counter_move", Arguments::from_text(text));
    let moved = call(r#"{"by": -9223372036854775808}"#).await;
    assert_eq!(moved.as_deref(), Ok("-9223372036854775808"));
}

/// Tags a shipment.
#[tool]
async fn shipment_tag(tags: std::collections::BTreeSet<u64>) -> usize {
    tags.len()
}

#[tokio::test]
async fn a_repeated_item_is_told_at_both_places_as_sent() {
    let registry = Registry::builder().tool(ShipmentTag).build().unwrap();
    let text = r#"{"tags": [7, 1e20, 100000000000000000000]}"#;
    let refused = outcome(&registry, "shipment_tag", Arguments::from_text(text)).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [
            fault(
                "tags",
                "expected unique items, received 1e20 at [1] and again at [2]"
            ),
            fault(
                "tags[1]",
                "expected u64, received 1e20, which is out of range"
            ),
            fault(
                "tags[2]",
                "expected u64, received 100000000000000000000, which is out of range"
            ),
        ]
    );
}

/// Counts stock by bin.
#[tool]
async fn stock_count(
    by_bin: std::collections::BTreeMap<u64, u32>,
    moved: std::collections::HashMap<i64, u32>,
    lots: Option<std::collections::BTreeMap<u64, Vec<u8>>>,
) -> usize {
    by_bin.len() + moved.len() + lots.map_or(0, |lots| lots.len())
}

#[tokio::test]
async fn a_key_past_64_bits_is_told_at_the_key_as_sent_each_in_one_call() {
    let registry = Registry::builder().tool(StockCount).build().unwrap();
    let text = r#"{"by_bin": {"1": 2, "18446744073709551616": 3, "340282366920938463463374607431768211456": 4},
        "moved": {"-9223372036854775809": 1, "-5": 6, "9223372036854775808": 7},
        "lots": {"18446744073709551617": [1]}}"#;
    let refused = outcome(&registry, "stock_count", Arguments::from_text(text)).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [
            fault(
                "by_bin.18446744073709551616",
                "expected u64, received 18446744073709551616, which is out of range"
            ),
            fault(
                "by_bin.340282366920938463463374607431768211456",
                "expected u64, received 340282366920938463463374607431768211456, which is out of \
                 range"
            ),
            fault(
                "moved.-9223372036854775809",
                "expected i64, received -9223372036854775809, which is out of range"
            ),
            // Past `i64::MAX`, but what a `u64` holds.
            fault(
                "moved.9223372036854775808",
                "expected i64, received 9223372036854775808, which is out of range"
            ),
            fault(
                "lots.18446744073709551617",
                "expected u64, received 18446744073709551617, which is out of range"
            ),
        ]
    );
    let counted = outcome(
        &registry,
        "stock_count",
        Arguments::from_text(
            r#"{"by_bin": {"18446744073709551615": 1}, "moved": {"-9223372036854775808": 2}}"#,
        ),
    )
    .await;
    assert_eq!(counted.as_deref(), Ok("2"));
}

#[test]
fn every_schema_a_provider_is_shown_is_json_schema_2020_12() {
    let tools: [&dyn tool_core::tool::Tool; 22] = [
        &Pay,
        &Mark,
        &TreeNames,
        &ReportFile,
        &NoteShare,
        &NoteShow,
        &NoteSign,
        &ValueKeep,
        &LedgerFile,
        &InitialsFile,
        &BoxesStack,
        &LoadWeigh,
        &CountsTally,
        &GrainsCount,
        &SacksCount,
        &PayloadPaint,
        &MemoFile,
        &ShelfLabel,
        &CounterMove,
        &LedgerSplit,
        &ShipmentTag,
        &StockCount,
    ];
    tool_tests::meta_schema::assert_tools_2020_12(&tools);
}
