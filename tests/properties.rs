//! Property tests: what holds for every input, not just the ones we thought of.
//!
//! - For any value of a tool's input type (nested structs, externally and internally tagged
//!   enums, vectors, options, any strings and floats), serializing it, calling the tool with it
//!   and reading the handler's echo gives an equal value, whether the arguments arrive as JSON
//!   or as a string holding JSON.
//! - Any JSON at all, and any text, as a call's arguments gives exactly one result with the
//!   call's id and name; batches answer every call once, in order; `ToolCall::from_json` never
//!   panics and a call it reads is written back and read again unchanged.
//!
//! For any refusal, text form → `Refusal::parse` → the same refusal: that property lives with
//! the type, in `tool-core/src/refusal.rs` (`refusal_text_round_trips`, `parse_never_panics`).

use proptest::prelude::*;
use serde_json::Value;
use tool_core::call::Arguments;
use tool_core::{Context, Refusal, Registry, ToolCall, ToolResult, tool};

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Line {
    sku: String,
    qty: u32,
    tags: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shipping {
    Standard,
    Express { days: u8 },
    Pickup(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Package {
    Envelope { padded: bool },
    Box { sides: Vec<f64> },
    Bundle { parts: Vec<Package> },
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Filter {
    since: Option<u64>,
    inner: Option<Box<Filter>>,
}

/// The whole input of `order_echo`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Order {
    id: u64,
    lines: Vec<Line>,
    shipping: Shipping,
    package: Option<Package>,
    filter: Option<Filter>,
    note: Option<String>,
    ratio: f64,
    rush: bool,
    mark: Option<char>,
    offset: i8,
}

/// Hands back the order it was given.
#[tool(readonly)]
async fn order_echo(#[input] order: Order) -> Order {
    order
}

/// Counts stock by bin, and the tags seen.
#[tool(readonly)]
async fn bins_count(
    bins: std::collections::BTreeMap<u64, Vec<u8>>,
    tags: std::collections::BTreeSet<i64>,
) -> usize {
    bins.len() + tags.len()
}

fn registry() -> Registry {
    Registry::builder()
        .tool(OrderEcho)
        .tool(BinsCount)
        .providers([tool_core::Provider::Mcp])
        .build()
        .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Any finite float: JSON has no infinities or NaN.
fn any_f64() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("JSON numbers are finite", |f| f.is_finite())
}

fn any_line() -> impl Strategy<Value = Line> {
    (
        any::<String>(),
        any::<u32>(),
        prop::collection::vec(any::<String>(), 0..3),
    )
        .prop_map(|(sku, qty, tags)| Line { sku, qty, tags })
}

fn any_shipping() -> impl Strategy<Value = Shipping> {
    prop_oneof![
        Just(Shipping::Standard),
        any::<u8>().prop_map(|days| Shipping::Express { days }),
        prop::collection::vec(any::<String>(), 0..3).prop_map(Shipping::Pickup),
    ]
}

fn any_package() -> impl Strategy<Value = Package> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(|padded| Package::Envelope { padded }),
        prop::collection::vec(any_f64(), 0..4).prop_map(|sides| Package::Box { sides }),
    ];
    leaf.prop_recursive(4, 16, 3, |inner| {
        prop::collection::vec(inner, 0..3).prop_map(|parts| Package::Bundle { parts })
    })
}

fn any_filter() -> impl Strategy<Value = Filter> {
    let leaf = any::<Option<u64>>().prop_map(|since| Filter { since, inner: None });
    leaf.prop_recursive(4, 8, 1, |inner| {
        (any::<Option<u64>>(), proptest::option::of(inner)).prop_map(|(since, inner)| Filter {
            since,
            inner: inner.map(Box::new),
        })
    })
}

fn any_order() -> impl Strategy<Value = Order> {
    (
        (
            any::<u64>(),
            prop::collection::vec(any_line(), 0..4),
            any_shipping(),
            proptest::option::of(any_package()),
            proptest::option::of(any_filter()),
        ),
        (
            any::<Option<String>>(),
            any_f64(),
            any::<bool>(),
            any::<Option<char>>(),
            any::<i8>(),
        ),
    )
        .prop_map(
            |((id, lines, shipping, package, filter), (note, ratio, rush, mark, offset))| Order {
                id,
                lines,
                shipping,
                package,
                filter,
                note,
                ratio,
                rush,
                mark,
                offset,
            },
        )
}

/// Any JSON value: every type, nested, with any strings as keys and values.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any_f64().prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        // Names this tool's fields have, so some values come close to fitting.
        prop::sample::select(vec!["standard", "express", "kind", "box", "lines", "id"])
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        any::<String>(),
                        prop::sample::select(vec![
                            "id", "lines", "shipping", "package", "filter", "note", "ratio",
                            "rush", "mark", "offset", "sku", "qty", "kind", "inner"
                        ])
                        .prop_map(str::to_owned),
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

/// The tool's name, or any other.
fn any_name() -> impl Strategy<Value = String> {
    prop_oneof![Just("order_echo".to_owned()), any::<String>()]
}

/// A result's checks: the call's id and name, and a refusal that reads back from its text.
fn check_answer(result: &ToolResult, id: &str, name: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(&result.id, id);
    prop_assert_eq!(&result.name, name);
    if let Err(refusal) = &result.outcome {
        prop_assert!(
            ["bad-arguments", "unknown-tool"].contains(&refusal.code.as_str()),
            "{}",
            refusal
        );
        let read_back = Refusal::parse(&refusal.to_string());
        prop_assert_eq!(read_back.as_ref(), Some(refusal));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_handler_sees_an_equal_value_whatever_the_input(order in any_order()) {
        let registry = registry();
        let value = serde_json::to_value(&order).unwrap();
        let as_text = serde_json::to_string(&order).unwrap();
        let runtime = runtime();
        for arguments in [Arguments::from(value), Arguments::from(Value::String(as_text))] {
            let result = runtime.block_on(
                registry.call(ToolCall::new("p", "order_echo", arguments), &Context::default()),
            );
            let output = result
                .outcome
                .map_err(|refusal| TestCaseError::fail(refusal.to_string()))?;
            let seen: Order = serde_json::from_value(output.to_value()).unwrap();
            prop_assert_eq!(&seen, &order);
        }
    }

    #[test]
    fn any_json_as_arguments_gets_one_answer_with_the_calls_id(
        id in any::<String>(),
        name in any_name(),
        arguments in any_json(),
    ) {
        let registry = registry();
        let result = runtime().block_on(registry.call(
            ToolCall::new(id.clone(), name.clone(), arguments),
            &Context::default(),
        ));
        check_answer(&result, &id, &name)?;
    }

    #[test]
    fn any_text_as_arguments_gets_one_answer_with_the_calls_id(
        id in any::<String>(),
        text in prop_oneof![any::<String>(), any_json().prop_map(|value| value.to_string())],
    ) {
        let registry = registry();
        let result = runtime().block_on(registry.call(
            ToolCall::new(id.clone(), "order_echo", Arguments::from_text(text)),
            &Context::default(),
        ));
        check_answer(&result, &id, "order_echo")?;
    }

    #[test]
    fn a_batch_of_anything_answers_every_call_once_in_order(
        calls in prop::collection::vec((any::<String>(), any_name(), any_json()), 0..12),
    ) {
        let registry = registry();
        let batch: Vec<ToolCall> = calls
            .iter()
            .map(|(id, name, arguments)| ToolCall::new(id.clone(), name.clone(), arguments.clone()))
            .collect();
        let results = runtime().block_on(registry.call_all(batch, &Context::default()));
        prop_assert_eq!(results.len(), calls.len());
        for (result, (id, name, _)) in results.iter().zip(&calls) {
            check_answer(result, id, name)?;
        }
    }

    #[test]
    fn every_key_past_64_bits_is_told_at_the_key_and_a_repeat_at_both_places_as_first_sent(
        keys in prop::collection::btree_set(
            prop_oneof![
                any::<u64>().prop_map(|key| key.to_string()),
                (1..10u8, any::<u64>()).prop_map(|(lead, rest)| format!("{lead}{rest:020}")),
            ],
            0..8,
        ),
        tags in prop::collection::vec(
            prop_oneof![
                (-3..3i64).prop_map(|tag| tag.to_string()),
                (-3..3i64).prop_map(|tag| format!("{tag}.0")),
                Just("1e20".to_owned()),
                Just("100000000000000000000".to_owned()),
            ],
            0..6,
        ),
    ) {
        let registry = registry();
        let call = |bins: &str, tags: &str| {
            let text = format!(r#"{{"bins": {{{bins}}}, "tags": [{tags}]}}"#);
            let call = ToolCall::new("p", "bins_count", Arguments::from_text(text));
            runtime().block_on(registry.call(call, &Context::default()))
        };
        let faults = |result: &ToolResult| -> Vec<(String, String)> {
            let Err(refusal) = &result.outcome else { return Vec::new() };
            (refusal.lines.iter())
                .filter(|line| line.label == "fault")
                .map(|line| (line.cells[0].clone(), line.cells[1].clone()))
                .collect()
        };
        // Each key's value a list, empty or not: the key's fault is told at the key whatever
        // its value.
        let bins = (keys.iter().enumerate())
            .map(|(at, key)| format!("\"{key}\": [{}]", if at % 2 == 0 { "" } else { "1, 2" }))
            .collect::<Vec<_>>();
        let result = call(&bins.join(", "), "");
        check_answer(&result, "p", "bins_count")?;
        let past: Vec<(String, String)> = (keys.iter())
            .filter(|key| key.parse::<u64>().is_err())
            .map(|key| {
                let problem = format!("expected u64, received {key}, which is out of range");
                (format!("bins.{key}"), problem)
            })
            .collect();
        let mut told = faults(&result);
        told.sort();
        prop_assert_eq!(told, past);

        let result = call("", &tags.join(", "));
        check_answer(&result, "p", "bins_count")?;
        let read: Vec<f64> = tags.iter().map(|tag| tag.parse().unwrap()).collect();
        let repeat = (1..read.len()).find_map(|at| {
            (read[..at].iter()).position(|earlier| *earlier == read[at]).map(|earlier| (earlier, at))
        });
        let told = faults(&result);
        let unique: Vec<&(String, String)> = told.iter().filter(|(path, _)| path == "tags").collect();
        match repeat {
            Some((earlier, at)) => {
                let problem = format!(
                    "expected unique items, received {} at [{earlier}] and again at [{at}]",
                    tags[earlier]
                );
                prop_assert_eq!(unique, [&("tags".to_owned(), problem)]);
            }
            None => prop_assert!(unique.is_empty(), "{:?}", told),
        }
    }

    #[test]
    fn from_json_never_panics_and_what_it_reads_reads_back(
        text in prop_oneof![
            any::<String>(),
            any_json().prop_map(|value| value.to_string()),
            (any_json(), any_json(), any_json()).prop_map(|(id, name, arguments)| {
                serde_json::json!({"id": id, "name": name, "arguments": arguments}).to_string()
            }),
            (any::<String>(), any::<String>(), any_json()).prop_map(|(id, name, arguments)| {
                serde_json::json!({"id": id, "name": name, "arguments": arguments.to_string()})
                    .to_string()
            }),
        ],
    ) {
        match ToolCall::from_json(&text) {
            Err(refusal) => prop_assert_eq!(refusal.code, "bad-call"),
            Ok(call) => {
                let again = ToolCall::from_json(&serde_json::to_string(&call).unwrap()).unwrap();
                prop_assert_eq!(&again.id, &call.id);
                prop_assert_eq!(&again.name, &call.name);
                match (call.arguments.to_value(), again.arguments.to_value()) {
                    (Ok(before), Ok(after)) => prop_assert_eq!(before, after),
                    (Err(_), Err(_)) => prop_assert_eq!(
                        again.arguments.as_str().trim(),
                        call.arguments.as_str().trim()
                    ),
                    (before, after) => {
                        return Err(TestCaseError::fail(format!("{before:?} became {after:?}")));
                    }
                }
            }
        }
    }
}
