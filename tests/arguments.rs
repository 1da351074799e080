//! Argument parsing through the registry: nulls, unknown fields, paths, every fault at once.

use serde_json::{Value, json};
use tool_core::call::Arguments;
use tool_core::outcome::Line;
use tool_core::{Context, Refusal, Registry, ToolCall, tool};
use tool_tests::{fault, faults, outcome};

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Item {
    /// Stock-keeping unit.
    sku: String,
    /// How many.
    qty: u32,
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Filter {
    /// Only orders newer than this, in seconds since the epoch.
    since: Option<u64>,
    tag: String,
}

/// What `order_place` received, given back so tests can see what the handler saw.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Seen {
    items: Vec<Item>,
    filter: Option<Filter>,
    note: Option<String>,
    priority: u8,
}

/// Places an order.
#[tool]
async fn order_place(
    /// The order's lines.
    items: Vec<Item>,
    /// Which orders to merge with.
    filter: Option<Filter>,
    /// A note for the packer.
    note: Option<String>,
    /// Higher ships sooner.
    #[serde(default = "default_priority")]
    priority: u8,
) -> Seen {
    Seen {
        items,
        filter,
        note,
        priority,
    }
}

fn default_priority() -> u8 {
    5
}

/// The whole input of `note_find`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct FindArgs {
    /// Words to look for.
    query: String,
    /// At most this many results.
    #[serde(default)]
    limit: Option<u32>,
}

/// Finds notes.
#[tool(readonly)]
async fn note_find(#[input] args: FindArgs) -> String {
    format!("{}:{:?}", args.query, args.limit)
}

fn registry() -> Registry {
    Registry::builder()
        .tool(OrderPlace)
        .tool(NoteFind)
        .build()
        .unwrap()
}

async fn call(name: &str, arguments: impl Into<Arguments>) -> Result<String, Refusal> {
    call_text(name, arguments).await
}

/// The JSON the handler of `order_place` saw.
async fn seen(arguments: Value) -> Value {
    let text = call_text("order_place", arguments).await.unwrap();
    serde_json::from_str(&text).unwrap()
}

async fn call_text(name: &str, arguments: impl Into<Arguments>) -> Result<String, Refusal> {
    let result = registry()
        .call(ToolCall::new("id-1", name, arguments), &Context::default())
        .await;
    assert_eq!(result.id, "id-1");
    result.outcome.map(|output| output.as_text().into_owned())
}

#[tokio::test]
async fn good_arguments_reach_the_handler() {
    let seen = seen(json!({"items": [{"sku": "a", "qty": 2}], "note": "fragile"})).await;
    assert_eq!(
        seen,
        json!({"items": [{"sku": "a", "qty": 2}], "filter": null, "note": "fragile", "priority": 5})
    );
}

#[tokio::test]
async fn null_counts_as_absent() {
    // An optional field set to null is None; a defaulted field set to null gets its default.
    let seen_nulls =
        seen(json!({"items": [], "note": null, "filter": null, "priority": null})).await;
    assert_eq!(
        seen_nulls,
        json!({"items": [], "filter": null, "note": null, "priority": 5})
    );

    // A required field set to null is reported missing.
    let refusal = call("order_place", json!({"items": null}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [fault(
            "items",
            "missing; expected array of object with fields sku, qty"
        )]
    );

    // Nested: an optional field of a nested struct set to null is absent too.
    let nested = seen(json!({"items": [], "filter": {"since": null, "tag": "x"}})).await;
    assert_eq!(nested["filter"], json!({"since": null, "tag": "x"}));
}

#[tokio::test]
async fn unknown_field_lists_accepted_fields() {
    for value in [json!("red"), Value::Null] {
        let refusal = call("order_place", json!({"items": [], "colour": value}))
            .await
            .unwrap_err();
        assert_eq!(refusal.code, "bad-arguments");
        assert_eq!(faults(&refusal), [fault("colour", "unknown field")]);
        assert_eq!(
            refusal.find_line("fields"),
            Some(&Line::new(
                "fields",
                ["items", "filter", "note", "priority"]
            ))
        );
    }
}

#[tokio::test]
async fn nested_fault_has_path() {
    let refusal = call(
        "order_place",
        json!({
            "items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": "x"}],
            "filter": {"since": "yesterday", "tag": "t"}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault("items[2].qty", "expected u32, received \"x\""),
            fault(
                "filter.since",
                "expected u64 or null, received \"yesterday\""
            ),
        ]
    );
}

#[tokio::test]
async fn a_struct_sent_as_an_array_is_refused_as_its_schema_says() {
    // serde_json would read a struct from an array, field by field in order; the schema says
    // an object, and the call is refused as it says.
    let refusal = call(
        "order_place",
        json!({"items": [["a", 1]], "filter": [null, "t"]}),
    )
    .await
    .unwrap_err();
    let paths: Vec<String> = faults(&refusal).into_iter().map(|(path, _)| path).collect();
    assert_eq!(paths, ["items[0]", "filter"], "{refusal}");
}

#[tokio::test]
async fn all_faults_reported_at_once() {
    let refusal = call(
        "order_place",
        json!({
            "colour": "red",
            "size": null,
            // `Item` does not deny unknown fields, but its schema is closed: `gift` is refused
            // at its path, as a field unknown at the top is, not dropped as serde would.
            "items": [{"qty": -1}, {"sku": 7, "qty": 1, "gift": true}],
            "priority": 300,
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        refusal.message,
        "7 faults in the arguments of order_place; nothing ran"
    );
    assert_eq!(
        faults(&refusal),
        [
            fault("colour", "unknown field"),
            fault("size", "unknown field"),
            fault("items[0].sku", "missing; expected string"),
            fault(
                "items[0].qty",
                "expected u32, received -1, which is out of range"
            ),
            fault("items[1].gift", "unknown field"),
            fault("items[1].sku", "expected string, received 7"),
            fault(
                "priority",
                "expected u8, received 300, which is out of range"
            ),
        ]
    );
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_refused() {
    for (arguments, received) in [
        (json!([1, 2]), "an array"),
        (json!(3), "3"),
        (json!(true), "true"),
        (Value::String("\"x\"".into()), "\"x\""),
    ] {
        let refusal = call("order_place", arguments).await.unwrap_err();
        assert_eq!(refusal.code, "bad-arguments");
        assert_eq!(
            faults(&refusal),
            [fault(
                "(arguments)",
                &format!("expected an object, received {received}")
            )]
        );
    }
}

#[tokio::test]
async fn arguments_that_are_not_json_are_refused_with_the_call_id() {
    let refusal = call("order_place", Arguments::from_text("{\"items\": ["))
        .await
        .unwrap_err();
    assert_eq!(refusal.code, "bad-arguments");
    assert!(
        faults(&refusal)[0]
            .1
            .starts_with("not valid JSON: EOF while parsing"),
        "{refusal}"
    );
}

#[tokio::test]
async fn arguments_may_arrive_as_a_string_holding_an_object() {
    let call = ToolCall::from_json(
        r#"{"id":"c","name":"order_place","arguments":"{\"items\":[{\"sku\":\"a\",\"qty\":1}]}"}"#,
    )
    .unwrap();
    let result = registry().call(call, &Context::default()).await;
    let seen: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(seen["items"], json!([{"sku": "a", "qty": 1}]));
}

#[tokio::test]
async fn input_structs_refuse_unknown_fields_and_take_null_as_absent() {
    assert_eq!(
        call("note_find", json!({"query": "milk", "limit": null})).await,
        Ok("milk:None".to_owned())
    );
    let refusal = call("note_find", json!({"query": 1, "lmit": 3}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault("lmit", "unknown field; did you mean limit?"),
            fault("query", "expected string, received 1"),
        ]
    );
    assert_eq!(
        refusal.find_line("fields"),
        Some(&Line::new("fields", ["query", "limit"]))
    );
}

#[tokio::test]
async fn unknown_tool_lists_every_tool() {
    let refusal = call("order_cancel", json!({})).await.unwrap_err();
    assert_eq!(refusal.code, "unknown-tool");
    assert_eq!(
        refusal.find_line("tools"),
        Some(&Line::new("tools", ["order_place", "note_find"]))
    );
}

#[tokio::test]
async fn a_refusal_reads_back_from_its_text() {
    let refusal = call(
        "order_place",
        json!({"items": [{"sku": "a\tb", "qty": "\n"}]}),
    )
    .await
    .unwrap_err();
    let text = refusal.to_string();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(Refusal::parse(&text), Some(refusal));
}

/// How urgent a ticket is.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Urgency {
    Low,
    High,
}

/// Files a ticket.
#[tool]
async fn ticket_file(
    /// What is wrong.
    body: String,
    /// How urgent it is.
    urgency: Urgency,
) -> String {
    format!("{body}: {urgency:?}")
}

#[tokio::test]
async fn near_misses_are_suggested_and_far_ones_are_not() {
    let registry = Registry::builder()
        .tool(TicketFile)
        .tool(NoteFind)
        .build()
        .unwrap();
    let ctx = Context::default();
    let arguments = json!({"bdy": "broken", "urgency": "HIGH", "weather": "fine"});
    let result = registry
        .call(ToolCall::new("1", "ticket_file", arguments), &ctx)
        .await;
    assert_eq!(
        faults(result.refusal().unwrap()),
        [
            fault("bdy", "unknown field; did you mean body?"),
            fault("weather", "unknown field"),
            fault("body", "missing; expected string"),
            fault(
                "urgency",
                r#"expected one of "low", "high", received "HIGH"; did you mean "high"?"#
            ),
        ]
    );

    // A field sent under its own name is not suggested for a near one sent beside it.
    let arguments = json!({"body": "x", "bdy": "y", "urgency": "low"});
    let result = registry
        .call(ToolCall::new("2", "ticket_file", arguments), &ctx)
        .await;
    assert_eq!(
        faults(result.refusal().unwrap()),
        [fault("bdy", "unknown field")]
    );

    let result = registry
        .call(ToolCall::new("3", "ticket_fil", json!({})), &ctx)
        .await;
    assert!(
        result
            .text()
            .starts_with("refused\tunknown-tool\tthere is no tool named `ticket_fil`; did you mean `ticket_file`? "),
        "{}",
        result.text()
    );

    // A name behind a namespace a model writes, and a tool's words in another order (as its
    // fn may be named).
    for (sent, meant) in [
        ("functions.ticket_file", "ticket_file"),
        ("file_ticket", "ticket_file"),
    ] {
        let result = registry
            .call(ToolCall::new("3", sent, json!({})), &ctx)
            .await;
        let told = format!(
            "refused\tunknown-tool\tthere is no tool named `{sent}`; did you mean `{meant}`? "
        );
        assert!(result.text().starts_with(&told), "{}", result.text());
    }

    // Arguments wrapped one level too deep: the wrapper says which fields belong outside it.
    for wrapper in ["arguments", "ticket_file"] {
        let arguments = json!({wrapper: {"body": "broken", "urgency": "low", "when": 1}});
        let result = registry
            .call(ToolCall::new("5", "ticket_file", arguments), &ctx)
            .await;
        let wrapped = format!(
            "unknown field; `body`, `urgency` inside it are fields of this object: send them \
             without `{wrapper}` around them"
        );
        assert_eq!(
            faults(result.refusal().unwrap()),
            [
                fault(wrapper, &wrapped),
                fault("body", "missing; expected string"),
                fault("urgency", r#"missing; expected one of "low", "high""#),
            ]
        );
    }
    // Not when the field sent at this level already: only what is missing here is named.
    let arguments = json!({"body": "broken", "extra": {"body": "x", "urgency": "low"}});
    let result = registry
        .call(ToolCall::new("6", "ticket_file", arguments), &ctx)
        .await;
    let wrapped = "unknown field; `urgency` inside it is a field of this object: send it \
                   without `extra` around it";
    assert_eq!(
        faults(result.refusal().unwrap())[0],
        fault("extra", wrapped)
    );

    // Many unknown fields: each told, the first 64 compared for a near miss, the rest not (each
    // comparison costs the product of two names' lengths).
    let mut many = serde_json::Map::new();
    for at in 0..100 {
        many.insert(format!("k{at}"), json!(1));
    }
    many.insert("bdy".to_owned(), json!("broken"));
    let result = registry
        .call(ToolCall::new("7", "ticket_file", Value::Object(many)), &ctx)
        .await;
    let told = faults(result.refusal().unwrap());
    assert_eq!(told.len(), 101 + 2, "{told:?}");
    assert!(told.contains(&fault("bdy", "unknown field")), "{told:?}");
    let result = registry
        .call(
            ToolCall::new("8", "ticket_file", json!({"bdy": "broken", "k0": 1})),
            &ctx,
        )
        .await;
    assert!(
        faults(result.refusal().unwrap())
            .contains(&fault("bdy", "unknown field; did you mean body?"))
    );

    // A scoped view suggests only what it grants.
    let view = registry.scoped(tool_core::Grant::names(["note_find"]));
    let result = view
        .call(ToolCall::new("4", "ticket_fil", json!({})), &ctx)
        .await;
    let text = result.text();
    assert!(!text.contains("ticket_file"), "{text}");
    assert!(text.contains("call one of the tools listed"), "{text}");
}

/// Labels a thing.
#[tool]
async fn label(
    /// What kind of label.
    r#type: String,
    /// How many.
    count: Option<u32>,
) -> String {
    format!("{}:{count:?}", r#type)
}

/// A tool whose parameters carry no `#[serde]` attribute has its input read by the
/// `Deserialize` that `#[tool]` writes (`order_place`, with one, keeps serde's derive): it reads
/// what serde's would, and refuses what serde's would.
#[tokio::test]
async fn plain_parameters_are_read_as_serde_reads_them() {
    let registry = Registry::builder().tool(Label).build().unwrap();
    let schema = serde_json::to_value(&registry.definitions()[0].input_schema).unwrap();
    // A raw identifier is named without its `r#`, in the schema and in the arguments.
    assert_eq!(schema["required"], json!(["type"]));
    let output = async |arguments: &str| {
        let call = ToolCall::new("1", "label", Arguments::from_text(arguments));
        let result = registry.call(call, &Context::default()).await;
        result.outcome.map(|output| output.as_text().into_owned())
    };
    assert_eq!(output(r#"{"type": "a"}"#).await.unwrap(), "a:None");
    assert_eq!(
        output(r#"{"count": 2, "type": "b"}"#).await.unwrap(),
        "b:Some(2)"
    );
    assert_eq!(
        output(r#"{"type": "c", "count": null}"#).await.unwrap(),
        "c:None"
    );
    let cases = [
        (r#"{"count": 1}"#, fault("type", "missing; expected string")),
        (
            r#"{"type": "a", "colour": 1}"#,
            fault("colour", "unknown field"),
        ),
        (
            r#"{"type": "a", "type": "b"}"#,
            fault(
                "type",
                "duplicate field `type`: sent more than once; send it once",
            ),
        ),
        (
            r#"{"type": "a", "count": -1}"#,
            fault(
                "count",
                "expected u32 or null, received -1, which is out of range",
            ),
        ),
    ];
    for (arguments, expected) in cases {
        let refusal = output(arguments).await.unwrap_err();
        assert_eq!(faults(&refusal), [expected], "{arguments}");
    }
}

/// Someone, by name.
#[derive(Debug, PartialEq, Eq, Hash, serde::Deserialize, schemars::JsonSchema)]
struct Person(String);

/// Someone's level, by a number or a name.
#[derive(Debug, PartialEq, Eq, Hash, serde::Deserialize, schemars::JsonSchema)]
enum Level {
    /// The lowest.
    Low,
    /// The highest.
    High,
}

/// A note, which may not read "bad": a rule serde holds and the schema does not say.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "String")]
#[allow(dead_code)] // made to be refused, never read
struct Note(String);

impl TryFrom<String> for Note {
    type Error = String;

    fn try_from(text: String) -> Result<Note, String> {
        match text.as_str() {
            "bad" => Err("a note may not be bad".into()),
            _ => Ok(Note(text)),
        }
    }
}

/// Keeps notes on people.
#[tool]
async fn notes_keep(
    /// Each person's note.
    by_person: std::collections::HashMap<Person, Note>,
    /// Each level's note.
    by_level: std::collections::HashMap<Level, Note>,
) -> String {
    format!("{} {}", by_person.len(), by_level.len())
}

#[tokio::test]
async fn a_fault_only_serde_finds_after_a_key_of_a_newtype_or_an_enum_is_found_at_its_path() {
    let registry = Registry::builder().tool(NotesKeep).build().unwrap();
    for (arguments, at) in [
        (
            json!({"by_person": {"ann": "fine", "bob": "bad"}, "by_level": {}}),
            "by_person.bob",
        ),
        (
            json!({"by_person": {}, "by_level": {"High": "bad"}}),
            "by_level.High",
        ),
    ] {
        let refused = outcome(&registry, "notes_keep", arguments)
            .await
            .unwrap_err();
        assert_eq!(faults(&refused), [fault(at, "a note may not be bad")]);
    }
}

/// Marks on a grid, by letter.
#[tool]
async fn marks_set(
    /// Each letter's mark.
    by_letter: std::collections::BTreeMap<char, u8>,
    /// Anything, by level.
    loose: std::collections::HashMap<Level, Value>,
    /// Levels, by whether they are on.
    switched: Option<std::collections::BTreeMap<bool, Level>>,
) -> String {
    format!("{by_letter:?} {} {switched:?}", loose.len())
}

#[tokio::test]
async fn a_key_only_serde_refuses_is_found_at_its_own_path() {
    // The schema takes any key of a `char`, and of a map of any value by a documented enum
    // (whose keys are not advertised: a field of any value needs `allow_any`); serde refuses
    // the key itself, which the fault names.
    let registry = Registry::builder().tool(MarksSet).build().unwrap();
    for (arguments, expected) in [
        (
            json!({"by_letter": {"a": 1, "ab": 2}, "loose": {}}),
            fault(
                "by_letter.ab",
                "invalid value: string \"ab\", expected a character",
            ),
        ),
        (
            json!({"by_letter": {}, "loose": {"Low": [1], "Top": null}}),
            fault(
                "loose.Top",
                "unknown variant `Top`, expected `Low` or `High`",
            ),
        ),
        (
            json!({"by_letter": {}, "loose": {"Low": {"x": {"High": 1}}, "[a.b]": 1}}),
            fault(
                "loose[\"[a.b]\"]",
                "unknown variant `[a.b]`, expected `Low` or `High`",
            ),
        ),
    ] {
        let refused = outcome(&registry, "marks_set", arguments.clone()).await;
        assert_eq!(faults(&refused.unwrap_err()), [expected], "{arguments}");
    }
    let loose = &registry.definitions()[0].input_schema["properties"]["loose"];
    assert_eq!(loose["additionalProperties"], json!(true), "{loose}");
}

#[tokio::test]
async fn the_keys_of_a_map_keyed_by_a_documented_enum_or_a_bool_are_advertised_and_each_held() {
    // schemars describes both as maps of any key; the type, asked, names the keys it takes.
    let registry = (Registry::builder().tool(NotesKeep).tool(MarksSet))
        .build()
        .unwrap();
    let definitions = registry.definitions();
    let properties = |tool: usize, field: &str| {
        let map = &definitions[tool].input_schema["properties"][field];
        assert_eq!(map["additionalProperties"], json!(false), "{map}");
        let names: Vec<&String> = map["properties"].as_object().unwrap().keys().collect();
        names
    };
    assert_eq!(properties(0, "by_level"), ["Low", "High"]);
    assert_eq!(properties(1, "switched"), ["true", "false"]);
    // A newtype of text and a `char` take keys no list names.
    let keys = &definitions[0].input_schema["properties"]["by_person"];
    assert!(keys["additionalProperties"].is_object(), "{keys}");
    let keys = &definitions[1].input_schema["properties"]["by_letter"];
    assert!(keys["additionalProperties"].is_object(), "{keys}");
    // Every key refused in one call, each at its own path, where serde told one a call (a
    // `bool`'s at the map, in serde_json's words for the key less its first letter).
    let arguments =
        json!({"by_person": {}, "by_level": {"High": "fine", "Middle": "fine", "Top": "fine"}});
    let refused = outcome(&registry, "notes_keep", arguments).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [
            fault("by_level.Middle", "unknown field"),
            fault("by_level.Top", "unknown field"),
        ]
    );
    let arguments = json!({"by_letter": {}, "loose": {}, "switched": {"true": "Low", "yes": "High", "no": "Low"}});
    let refused = outcome(&registry, "marks_set", arguments).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [
            fault("switched.yes", "unknown field"),
            fault("switched.no", "unknown field"),
        ]
    );
    let arguments = json!({
        "by_letter": {"a": 1},
        "loose": {"High": [1]},
        "switched": {"true": "Low", "false": "High"},
    });
    let taken = outcome(&registry, "marks_set", arguments).await;
    assert_eq!(
        taken.as_deref(),
        Ok(r#"{'a': 1} 1 Some({false: High, true: Low})"#)
    );
}

/// Reads a note, trusting the schema never to send `null` for it.
fn never_null<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<String>, D::Error> {
    let read: Option<String> = serde::Deserialize::deserialize(de)?;
    Ok(Some(read.expect("the schema says text")))
}

/// Signs with a note the schema requires.
#[tool]
async fn note_sign(
    /// The note, required though an `Option`.
    #[schemars(required)]
    #[serde(deserialize_with = "never_null")]
    note: Option<String>,
) -> String {
    format!("{note:?}")
}

#[tokio::test]
async fn a_type_whose_own_code_panics_on_a_value_it_is_asked_about_still_makes_a_registry() {
    // The type is asked, while its schema is prepared, whether it reads `null` for the note:
    // its code panics on it, which is taken as a refusal, not the end of the program.
    let registry = Registry::builder().tool(NoteSign).build().unwrap();
    let ran = outcome(&registry, "note_sign", json!({"note": "hi"})).await;
    assert_eq!(ran.as_deref(), Ok("Some(\"hi\")"));
}

/// Something to do with a note.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // made to be refused, never read
enum Act {
    /// Writes it.
    Write {
        /// The note.
        note: Note,
    },
    /// Pins it, then writes it.
    Pin(u8, Note),
}

/// Does something with a note.
#[tool]
async fn note_act(
    /// What to do.
    act: Act,
) -> String {
    format!("{act:?}")
}

#[tokio::test]
async fn a_fault_only_serde_finds_inside_an_enum_s_variant_is_found_at_its_path() {
    let registry = Registry::builder().tool(NoteAct).build().unwrap();
    for (arguments, at) in [
        (json!({"act": {"Write": {"note": "bad"}}}), "act.Write.note"),
        (json!({"act": {"Pin": [1, "bad"]}}), "act.Pin[1]"),
    ] {
        let refused = outcome(&registry, "note_act", arguments).await.unwrap_err();
        assert_eq!(faults(&refused), [fault(at, "a note may not be bad")]);
    }
}

/// A type of the user's own named `Context`, which a tool takes by value as an argument.
mod own {
    /// What the caller knows of the note.
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    pub struct Context {
        /// The note's topic.
        pub topic: String,
    }
}

/// Files a note under its topic.
#[tool]
async fn note_file(
    /// Which note.
    id: u64,
    /// What the caller knows of it.
    context: own::Context,
    ctx: &Context,
) -> String {
    let _ = ctx;
    format!("{id} under {}", context.topic)
}

#[tokio::test]
async fn a_type_of_one_s_own_named_context_is_an_argument_when_taken_by_value() {
    let registry = Registry::builder().tool(NoteFile).build().unwrap();
    let schema = &registry.definitions()[0].input_schema;
    assert_eq!(schema["required"], json!(["id", "context"]), "{schema:?}");
    let filed = outcome(
        &registry,
        "note_file",
        json!({"id": 3, "context": {"topic": "rust"}}),
    );
    assert_eq!(filed.await.unwrap(), json!("3 under rust"));
}

/// A shelf, its name read in any case: a key type of its own that names its keys and takes
/// more.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, schemars::JsonSchema)]
struct Shelf(String);

impl<'de> serde::Deserialize<'de> for Shelf {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Shelf, D::Error> {
        let text = String::deserialize(de)?;
        match text.to_lowercase().as_str() {
            name @ ("top" | "bottom") => Ok(Shelf(name.to_owned())),
            _ => Err(serde::de::Error::unknown_variant(&text, &["top", "bottom"])),
        }
    }
}

/// Stocks shelves.
#[tool]
async fn shelves_stock(
    /// How many on each shelf.
    counts: std::collections::BTreeMap<Shelf, u8>,
) -> String {
    format!("{counts:?}")
}

#[tokio::test]
async fn a_key_type_that_takes_more_than_it_names_keeps_the_schema_of_any_key() {
    let registry = Registry::builder().tool(ShelvesStock).build().unwrap();
    let counts = &registry.definitions()[0].input_schema["properties"]["counts"];
    assert!(counts["additionalProperties"].is_object(), "{counts}");
    let stocked = outcome(&registry, "shelves_stock", json!({"counts": {"TOP": 1}})).await;
    assert_eq!(stocked.as_deref(), Ok(r#"{Shelf("top"): 1}"#));
}

/// A note's page, and a count past 64 bits.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // made to be refused, read only in Debug
struct Page {
    /// The note on it.
    note: Note,
    /// A second note.
    margin: Option<Note>,
    /// Grains on it.
    grains: Option<u128>,
}

/// Files pages.
#[tool]
async fn pages_file(
    /// The pages.
    pages: Vec<Page>,
    /// A note on the whole.
    cover: Option<Note>,
) -> String {
    format!("{pages:?} {cover:?}")
}

#[tokio::test]
async fn every_fault_only_serde_finds_is_told_in_one_call() {
    let registry = Registry::builder()
        .tool(NotesKeep)
        .tool(PagesFile)
        .build()
        .unwrap();
    let arguments = json!({"by_person": {"ann": "bad", "bob": "fine", "cy": "bad"}, "by_level": {"High": "bad"}});
    let refused = outcome(&registry, "notes_keep", arguments)
        .await
        .unwrap_err();
    let bad = "a note may not be bad";
    assert_eq!(
        faults(&refused),
        [
            fault("by_person.ann", bad),
            fault("by_person.cy", bad),
            fault("by_level.High", bad)
        ]
    );
    // Each fault is found with the field that holds the one before taken out of the text as
    // sent (a count past 64 bits kept as written, not read as a double).
    let text = r#"{"pages": [{"note": "fine", "margin": "bad", "grains": 340282366920938463463374607431768211455},
        {"note": "fine", "margin": "bad"}], "cover": "bad"}"#;
    let refused = outcome(&registry, "pages_file", Arguments::from_text(text)).await;
    let refused = refused.unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("pages[0].margin", bad),
            fault("pages[1].margin", bad),
            fault("cover", bad)
        ]
    );
    // A key sent twice, one copy right after the other, is taken out whole, and the fault
    // after it found.
    let text = r#"{"by_person": {"ann": "bad", "ann": "bad"}, "by_level": {"High": "bad"}}"#;
    let refused = outcome(&registry, "notes_keep", Arguments::from_text(text)).await;
    assert_eq!(
        faults(&refused.unwrap_err()),
        [fault("by_person.ann", bad), fault("by_level.High", bad)]
    );
    // At most 16, each a read of the whole arguments.
    let people: serde_json::Map<String, Value> = (0..20)
        .map(|at| (format!("p{at:02}"), json!("bad")))
        .collect();
    let arguments = json!({"by_person": people, "by_level": {}});
    let refused = outcome(&registry, "notes_keep", arguments)
        .await
        .unwrap_err();
    let told: Vec<String> = faults(&refused).into_iter().map(|(at, _)| at).collect();
    let first: Vec<String> = (0..16).map(|at| format!("by_person.p{at:02}")).collect();
    assert_eq!(told, first);
    // Large arguments get fewer: the reads together stop at 8 MiB.
    let people: serde_json::Map<String, Value> = (0..10_000)
        .map(|at| {
            let note = if at % 500 == 0 {
                "bad".to_owned()
            } else {
                format!("fine {at:060}")
            };
            (format!("p{at:05}"), json!(note))
        })
        .collect();
    let arguments = json!({"by_person": people, "by_level": {}});
    let refused = outcome(&registry, "notes_keep", arguments)
        .await
        .unwrap_err();
    let told = faults(&refused).len();
    assert!((2..16).contains(&told), "{told} of 20 told");
    // A field serde then misses, taken out, says nothing of the call: not told, and its
    // object's field (here the list holding it) taken out in turn; an item's fault takes out
    // its list's field.
    for arguments in [
        json!({"pages": [{"note": "bad"}], "cover": "bad"}),
        json!({"pages": [{"note": "bad"}, {"note": "bad"}], "cover": "bad"}),
    ] {
        let refused = outcome(&registry, "pages_file", arguments).await;
        let told = faults(&refused.unwrap_err());
        assert_eq!(told, [fault("pages[0].note", bad), fault("cover", bad)]);
    }
}

/// A slug: lowercase letters and dashes, at least four; a key type with a rule of its own.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "String")]
struct Slug(String);

impl TryFrom<String> for Slug {
    type Error = String;

    fn try_from(text: String) -> Result<Slug, String> {
        match text.len() >= 4
            && text
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte == b'-')
        {
            true => Ok(Slug(text)),
            false => Err(format!("{text:?} is no slug")),
        }
    }
}

/// A truth, named as a `bool` key is.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema)]
enum Truth {
    /// Yes.
    #[serde(rename = "true")]
    Yes,
    /// No.
    #[serde(rename = "false")]
    No,
}

/// Counts by one key or another.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // read only in Debug
enum ByEither {
    /// By level.
    Levels(std::collections::HashMap<Level, u32>),
    /// By truth.
    Truths(std::collections::BTreeMap<Truth, u64>),
}

/// Counts pages by slug, and by either key.
#[tool]
async fn pages_count(
    /// Pages by slug.
    by_slug: std::collections::BTreeMap<Slug, u32>,
    /// Pages by level or by truth.
    by_either: Option<ByEither>,
) -> String {
    format!("{by_slug:?} {by_either:?}")
}

#[tokio::test]
async fn a_map_whose_key_type_refuses_keys_another_way_keeps_the_schema_of_any_key() {
    let registry = Registry::builder().tool(PagesCount).build().unwrap();
    let schema = &registry.definitions()[0].input_schema;
    // Neither a `bool`'s refusal (a rule of the type's own) nor a refusal told where the map
    // sits by an untagged enum around it names the keys.
    assert!(
        schema["properties"]["by_slug"]["additionalProperties"].is_object(),
        "{schema:?}"
    );
    let arguments = json!({"by_slug": {"hello-world": 1}, "by_either": {"High": 2}});
    let counted = outcome(&registry, "pages_count", arguments).await;
    assert_eq!(
        counted.as_deref(),
        Ok(r#"{Slug("hello-world"): 1} Some(Levels({High: 2}))"#)
    );
}
