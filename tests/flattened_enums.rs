//! Inputs that are one of several objects: a struct that flattens an enum (its own fields
//! beside the variant's, the "shared fields and a kind" shape), and an enum taken as the whole
//! input with `#[input]`. Each is advertised as a union whose every variant holds the
//! object's fields and is closed, and each call that serde takes is taken.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tool_core::registry::RegistryError;
use tool_core::{Provider, Registry, tool};
use tool_tests::{fault, faults, outcome};

/// What a command does.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Action {
    /// Makes a note.
    Create {
        /// The note's title.
        title: String,
    },
    /// Puts a note away.
    Archive,
}

/// Where a command sends its answer: by name, or by number.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Reply {
    /// To a mailbox.
    Mailbox {
        /// Its name.
        mailbox: String,
    },
    /// To a queue.
    Queue {
        /// Its number.
        queue: u8,
    },
}

/// How urgent a command is, tagged by its key.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Urgency {
    /// Within this many minutes.
    Within(u16),
    /// Whenever.
    Whenever {
        /// Why not sooner.
        reason: String,
    },
}

/// A command's audience, tagged and held apart from its content.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "to", content = "who")]
#[allow(dead_code)]
enum Audience {
    /// Everyone.
    All,
    /// Only these people.
    Some(Vec<String>),
}

/// A command: its number, and what it does.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Command {
    /// The command's number.
    id: u32,
    /// What it does.
    #[serde(flatten)]
    action: Action,
}

/// A command with a reply, an urgency, an audience (perhaps) and an action.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Sent {
    /// The command's number.
    id: u32,
    /// Where it answers.
    #[serde(flatten)]
    reply: Reply,
}

/// A command with an urgency.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Urgent {
    /// The command's number.
    id: u32,
    /// How urgent it is.
    #[serde(flatten)]
    urgency: Urgency,
}

/// A command with an action and an audience, both flattened.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Addressed {
    /// The command's number.
    id: u32,
    /// What it does.
    #[serde(flatten)]
    action: Action,
    /// Who hears of it.
    #[serde(flatten)]
    audience: Audience,
}

/// A command whose audience may be left out.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct MaybeAddressed {
    /// The command's number.
    id: u32,
    /// Who hears of it, if anyone.
    #[serde(flatten)]
    audience: Option<Audience>,
}

/// Runs commands of every shape.
#[tool]
async fn commands_run(
    /// A command.
    command: Command,
    /// A command with a reply.
    sent: Sent,
    /// A command with an urgency.
    urgent: Urgent,
    /// A command with an audience.
    addressed: Addressed,
    /// A command that may have an audience.
    maybe: MaybeAddressed,
) -> String {
    format!("{command:?} {sent:?} {urgent:?} {addressed:?} {maybe:?}")
}

/// Runs one action, the whole input.
#[tool]
async fn action_run(#[input] action: Action) -> String {
    format!("{action:?}")
}

/// Runs a step, the whole input, tagged by its key: `{"Within": 5}`.
#[tool]
async fn step_run(#[input] step: Urgency) -> String {
    format!("{step:?}")
}

/// Runs one command, the whole input.
#[tool]
async fn command_run(#[input] command: Command) -> String {
    format!("{command:?}")
}

/// Good arguments of `commands_run`, with `addressed` as given.
fn commands(addressed: Value) -> Value {
    json!({
        "command": {"id": 1, "type": "create", "title": "Plan"},
        "sent": {"id": 2, "queue": 7},
        "urgent": {"id": 3, "Within": 15},
        "addressed": addressed,
        "maybe": {"id": 5}
    })
}

#[tokio::test]
async fn a_struct_that_flattens_an_enum_takes_the_variants_fields_beside_its_own() {
    let registry = Registry::builder().tool(CommandsRun).build().unwrap();
    let ran = outcome(
        &registry,
        "commands_run",
        commands(json!({"id": 4, "type": "archive", "to": "Some", "who": ["ann"]})),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("Command { id: 1, action: Create { title: \"Plan\" } } \
            Sent { id: 2, reply: Queue { queue: 7 } } \
            Urgent { id: 3, urgency: Within(15) } \
            Addressed { id: 4, action: Archive, audience: Some([\"ann\"]) } \
            MaybeAddressed { id: 5, audience: None }")
    );
    // Every pairing of two flattened enums' variants.
    for (action, audience) in [
        (
            json!({"type": "create", "title": "x"}),
            json!({"to": "All"}),
        ),
        (json!({"type": "archive"}), json!({"to": "All"})),
        (
            json!({"type": "create", "title": "x"}),
            json!({"to": "Some", "who": []}),
        ),
    ] {
        let mut addressed = json!({"id": 4});
        addressed.as_object_mut().unwrap().extend(
            (action.as_object().unwrap().clone().into_iter())
                .chain(audience.as_object().unwrap().clone()),
        );
        let ran = outcome(&registry, "commands_run", commands(addressed.clone()));
        assert!(ran.await.is_ok(), "{addressed}");
    }
    let refused = outcome(
        &registry,
        "commands_run",
        json!({
            "command": {"id": 1, "type": "create", "title": "Plan", "colour": "red"},
            "sent": {"id": 2, "queue": 700},
            "urgent": {"id": 3, "Never": true},
            "addressed": {"id": 4, "type": "archive"},
            "maybe": {"id": 5, "to": "Nobody"}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("command.colour", "unknown field"),
            // The variant whose own field was sent, not the command's number every one has.
            fault(
                "sent.queue",
                "expected u8, received 700, which is out of range"
            ),
            fault(
                "urgent",
                "expected object with fields id, Within or object with fields id, Whenever, \
                 received an object"
            ),
            fault("addressed.to", "missing; expected one of \"All\", \"Some\""),
            fault(
                "maybe",
                "expected object with fields id, to: \"All\" or object with fields id, to: \
                 \"Some\", who or object with fields id, received an object"
            ),
        ]
    );
}

#[tokio::test]
async fn a_struct_that_flattens_an_enum_is_advertised_as_its_variants_each_closed() {
    let registry = Registry::builder().tool(CommandsRun).build().unwrap();
    for provider in [Provider::Mcp, Provider::OpenAi, Provider::Anthropic] {
        let exported = json!(registry.export(provider).unwrap());
        let schema = match provider {
            Provider::OpenAi => &exported[0]["function"]["parameters"],
            Provider::Mcp => &exported[0]["inputSchema"],
            _ => &exported[0]["input_schema"],
        };
        let command = &schema["properties"]["command"];
        // No object around the variants: one of no fields, closed, would take none of them.
        for keyword in ["type", "properties", "additionalProperties"] {
            assert!(command.get(keyword).is_none(), "{provider:?}: {command}");
        }
        let variants = (command.get("oneOf").or(command.get("anyOf")))
            .and_then(Value::as_array)
            .unwrap();
        assert_eq!(variants.len(), 2, "{command}");
        for variant in variants {
            assert_eq!(variant["additionalProperties"], false, "{variant}");
            assert!(variant["properties"]["id"].is_object(), "{variant}");
            assert!(
                variant["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("id")),
                "{variant}"
            );
        }
        // Two tagged enums: each pairing of their variants, told apart by both tags.
        let addressed = &schema["properties"]["addressed"];
        let pairings = addressed.get("oneOf").or(addressed.get("anyOf"));
        assert_eq!(
            pairings.and_then(Value::as_array).map(Vec::len),
            Some(4),
            "{addressed}"
        );
    }
    // Gemini, which takes no `oneOf` and closes nothing, is shown the same variants.
    let exported = json!(registry.export(Provider::Gemini).unwrap());
    let command = &exported[0]["parameters"]["properties"]["command"];
    let variants = command["anyOf"].as_array().unwrap();
    assert_eq!(variants.len(), 2, "{command}");
    assert!(
        variants
            .iter()
            .all(|variant| variant["properties"]["id"].is_object())
    );
}

#[tokio::test]
async fn an_enum_or_a_struct_that_flattens_one_is_shown_to_every_host_as_one_object() {
    // Anthropic refuses a whole request whose tools hold a union at the top of an input, and
    // Claude's clients send MCP tools on to it; OpenAI refuses it too, and Gemini would be shown
    // nothing to send.
    let registry = Registry::builder()
        .tool(ActionRun)
        .tool(CommandRun)
        .tool(StepRun)
        .build()
        .unwrap();
    for provider in Provider::ALL {
        let exported = json!(registry.export(provider).unwrap());
        for tool in exported.as_array().unwrap() {
            let schema = match provider {
                Provider::OpenAi => &tool["function"]["parameters"],
                Provider::Mcp => &tool["inputSchema"],
                Provider::Anthropic => &tool["input_schema"],
                _ => &tool["parameters"],
            };
            assert!(schema["properties"].is_object(), "{provider:?}: {tool}");
            for union in ["oneOf", "anyOf", "allOf"] {
                assert!(schema.get(union).is_none(), "{provider:?}: {tool}");
            }
        }
    }
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let command = exported
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "command_run");
    assert_eq!(
        command.unwrap()["inputSchema"],
        json!({
            "type": "object",
            "description": "A command: its number, and what it does.\n\nTakes the fields of one \
                of these: {id, type: \"create\", title} (Makes a note.); {id, type: \"archive\"} \
                (Puts a note away.).",
            "properties": {
                "id": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The command's number.",
                    "maximum": 4294967295u32
                },
                "type": {"type": "string", "enum": ["create", "archive"]},
                "title": {"type": "string", "description": "The note's title."}
            },
            "required": ["id", "type"],
            "additionalProperties": false
        })
    );
    let ran = outcome(
        &registry,
        "action_run",
        json!({"type": "create", "title": "t"}),
    );
    assert_eq!(ran.await.as_deref(), Ok("Create { title: \"t\" }"));
    let ran = outcome(&registry, "step_run", json!({"Within": 5}));
    assert_eq!(ran.await.as_deref(), Ok("Within(5)"));
    let ran = outcome(
        &registry,
        "command_run",
        json!({"id": 3, "type": "archive"}),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("Command { id: 3, action: Archive }")
    );
    let refused = outcome(
        &registry,
        "action_run",
        json!({"type": "archive", "title": "t"}),
    )
    .await
    .unwrap_err();
    assert_eq!(faults(&refused), [fault("title", "unknown field")]);
    // The fields a model may send, every variant's.
    let fields = refused.lines.iter().find(|line| line.label == "fields");
    assert_eq!(fields.unwrap().cells, ["type", "title"]);
    let refused = outcome(&registry, "command_run", json!({"id": 3, "type": "delete"}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault(
            "type",
            "expected one of \"create\", \"archive\", received \"delete\""
        )]
    );
}

/// A tagged enum of two.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Kind {
    /// With a number.
    A {
        /// The number.
        a: u8,
    },
    /// Without.
    B,
}

/// An untagged enum of two, told apart by their fields.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Either {
    /// A number.
    X {
        /// The number.
        x: u8,
    },
    /// A text.
    Y {
        /// The text.
        y: String,
    },
}

/// A tagged and an untagged enum, flattened together.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Both {
    /// Its number.
    id: u32,
    /// Its kind.
    #[serde(flatten)]
    kind: Kind,
    /// Its either.
    #[serde(flatten)]
    either: Either,
}

/// A struct that flattens an enum, wrapped by a variant of another.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Inner {
    /// Its own number.
    my_id: u32,
    /// Its kind.
    #[serde(flatten)]
    kind: Kind,
}

/// A tagged enum one of whose variants wraps a struct that flattens an enum.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "k")]
#[allow(dead_code)]
enum Wrapper {
    /// The struct.
    Cmd(Inner),
    /// A number.
    Plain {
        /// The number.
        z: u8,
    },
}

/// Beside the wrapper.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Wrapped {
    /// Its number.
    id: u32,
    /// The wrapper.
    #[serde(flatten)]
    wrapper: Wrapper,
}

/// A tagged variant wrapping an untagged enum whose variants overlap.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Overlapping {
    /// The untagged enum.
    Nested(Either),
    /// Nothing.
    Other,
}

/// Beside the overlapping enum.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Over {
    /// Its number.
    id: u32,
    /// The enum.
    #[serde(flatten)]
    overlapping: Overlapping,
}

/// A flattened enum beside a flattened map of notes, which serde hands every field the struct
/// does not name (the enum's tag too).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Counted {
    /// Its number.
    id: u32,
    /// Its kind.
    #[serde(flatten)]
    kind: Kind,
    /// Any other notes.
    #[serde(flatten)]
    notes: BTreeMap<String, String>,
}

/// Takes every harder shape of flattened enum.
#[tool]
async fn shapes_take(
    /// Two enums side by side.
    both: Both,
    /// A variant wrapping a struct that flattens an enum.
    wrapped: Wrapped,
    /// A tagged variant wrapping an untagged enum.
    over: Over,
    /// An enum beside a map.
    counted: Counted,
) -> String {
    format!("{both:?} {wrapped:?} {over:?} {counted:?}")
}

#[tokio::test]
async fn enums_side_by_side_within_each_other_and_beside_a_map_take_what_serde_takes() {
    let registry = Registry::builder().tool(ShapesTake).build().unwrap();
    let ran = outcome(
        &registry,
        "shapes_take",
        json!({
            "both": {"id": 1, "type": "A", "a": 1, "y": "s"},
            "wrapped": {"id": 1, "k": "Cmd", "myId": 2, "type": "B"},
            "over": {"id": 1, "type": "Nested", "x": 1},
            "counted": {"id": 1, "type": "B", "colour": "red"},
        }),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("Both { id: 1, kind: A { a: 1 }, either: Y { y: \"s\" } } \
            Wrapped { id: 1, wrapper: Cmd(Inner { my_id: 2, kind: B }) } \
            Over { id: 1, overlapping: Nested(X { x: 1 }) } \
            Counted { id: 1, kind: B, notes: {\"colour\": \"red\", \"type\": \"B\"} }")
    );
    let refused = outcome(
        &registry,
        "shapes_take",
        json!({
            "both": {"id": 1, "type": "B", "x": 1},
            "wrapped": {"id": 1, "k": "Cmd", "myId": 2, "type": "A"},
            "over": {"id": 1, "type": "Other"},
            "counted": {"id": 1, "type": "B", "colour": 3},
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault("wrapped.a", "missing; expected u8"),
            fault("counted.colour", "expected string, received 3"),
        ]
    );
}

/// Seven tags of one letter.
macro_rules! seven {
    ($name:ident, $tag:literal) => {
        /// Seven variants.
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(tag = $tag)]
        #[allow(dead_code)]
        enum $name {
            /// One.
            V1,
            /// Two.
            V2,
            /// Three.
            V3,
            /// Four.
            V4,
            /// Five.
            V5,
            /// Six.
            V6,
            /// Seven.
            V7,
        }
    };
}
seven!(First, "s1");
seven!(Second, "s2");
seven!(Third, "s3");

/// Three enums of seven, flattened together: 343 pairings.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct ThreeWays {
    /// Its number.
    id: u32,
    /// The first.
    #[serde(flatten)]
    first: First,
    /// The second.
    #[serde(flatten)]
    second: Second,
    /// The third.
    #[serde(flatten)]
    third: Third,
}

/// Takes three ways at once.
#[tool]
async fn ways_take(
    /// The ways.
    ways: ThreeWays,
) -> String {
    format!("{ways:?}")
}

#[test]
fn enums_flattened_into_too_many_pairings_are_refused_when_the_registry_is_made() {
    let Err(RegistryError::Unexportable { errors }) = Registry::builder().tool(WaysTake).build()
    else {
        panic!("a registry was made that no call fits");
    };
    assert_eq!(errors[0].path, "$defs.ThreeWays", "{errors:?}");
    assert!(
        errors[0]
            .problem
            .contains("more than 256 pairings of variants")
            && errors[0].problem.contains("flatten fewer enums"),
        "{errors:?}"
    );
}

/// A kind whose first variant names a field the struct around it names too.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Shadowed {
    /// Never read: serde gives `id` to the struct, and misses it here.
    A {
        /// A name.
        id: String,
    },
    /// Read.
    B,
}

/// A number beside a kind that names it too.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Clash {
    /// Its number.
    id: u32,
    /// Its kind.
    #[serde(flatten)]
    kind: Shadowed,
}

/// Takes a clash.
#[tool]
async fn clash_take(
    /// The clash.
    clash: Clash,
) -> String {
    format!("{clash:?}")
}

#[tokio::test]
async fn a_variant_requiring_a_field_the_struct_names_is_not_advertised() {
    // serde itself refuses the variant whatever is sent.
    let read = serde_json::from_value::<Clash>(json!({"id": 1, "type": "A"}));
    assert!(read.unwrap_err().to_string().contains("missing field `id`"));
    let registry = Registry::builder().tool(ClashTake).build().unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    // The one variant read is the struct itself.
    let clash = &exported[0]["inputSchema"]["properties"]["clash"];
    assert_eq!(clash["properties"]["type"]["const"], "B", "{clash}");
    assert_eq!(clash["properties"]["id"]["type"], "integer", "{clash}");
    let ran = outcome(
        &registry,
        "clash_take",
        json!({"clash": {"id": 1, "type": "B"}}),
    );
    assert_eq!(ran.await.as_deref(), Ok("Clash { id: 1, kind: B }"));
    let refused = outcome(
        &registry,
        "clash_take",
        json!({"clash": {"id": 1, "type": "A"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault("clash.type", "expected \"B\", received \"A\"")]
    );
}

/// What a job does next, tagged by its key, with unit variants.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Next {
    /// Runs again after a wait.
    Retry {
        /// Seconds to wait.
        after: u16,
    },
    /// Puts the job away.
    Archive,
    /// Stops the job.
    Stop,
}

/// A job and what it does next.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Job {
    /// The job's number.
    id: u32,
    /// What it does next.
    #[serde(flatten)]
    next: Next,
}

/// Moves a job on.
#[tool]
async fn job_move(job: Job) -> String {
    format!("{job:?}")
}

/// Moves on, the whole input.
#[tool]
async fn next_take(#[input] next: Next) -> String {
    format!("{next:?}")
}

#[tokio::test]
async fn a_flattened_enums_unit_variants_are_their_names_as_fields_of_null() {
    // schemars writes a unit variant as its name, a text no object fits: it was left out, and
    // with one variant left the struct required `Retry`.
    let registry = Registry::builder()
        .tool(JobMove)
        .tool(NextTake)
        .build()
        .unwrap();
    for (arguments, taken) in [
        (
            json!({"job": {"id": 1, "Archive": null}}),
            "Job { id: 1, next: Archive }",
        ),
        (
            json!({"job": {"id": 2, "Stop": null}}),
            "Job { id: 2, next: Stop }",
        ),
        (
            json!({"job": {"id": 3, "Retry": {"after": 5}}}),
            "Job { id: 3, next: Retry { after: 5 } }",
        ),
    ] {
        let ran = outcome(&registry, "job_move", arguments).await;
        assert_eq!(ran.as_deref(), Ok(taken));
    }
    let refused = outcome(
        &registry,
        "job_move",
        json!({"job": {"id": 1, "Archive": 1}}),
    );
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [fault("job.Archive", "expected null, received 1")]
    );
    let ran = outcome(&registry, "next_take", json!({"Stop": null}));
    assert_eq!(ran.await.as_deref(), Ok("Stop"));
    // Shown as what serde reads.
    let exported = json!(registry.export(Provider::Anthropic).unwrap());
    let next = &exported[1]["input_schema"];
    assert_eq!(
        next["description"],
        "What a job does next, tagged by its key, with unit variants.\n\nTakes the fields of \
         one of these: {Retry} (Runs again after a wait.); {Archive: null} (Puts the job \
         away.); {Stop: null} (Stops the job.)."
    );
    assert_eq!(next["properties"]["Archive"], json!({"type": "null"}));
}

/// A label set, by number or by name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Labelled {
    /// One numbered label.
    Numbered {
        /// Its number.
        id: u8,
    },
    /// Labels by name.
    Named(BTreeMap<String, String>),
}

/// Labels, the whole input.
#[tool]
async fn labels_take(#[input] labels: Labelled) -> String {
    format!("{labels:?}")
}

#[tokio::test]
async fn an_enum_taken_whole_whose_variant_is_a_map_takes_other_fields() {
    // The registry's closing of the input was written into the map's variant, which then took
    // no field at all.
    let registry = Registry::builder().tool(LabelsTake).build().unwrap();
    let ran = outcome(&registry, "labels_take", json!({"colour": "red"}));
    assert_eq!(ran.await.as_deref(), Ok("Named({\"colour\": \"red\"})"));
    let ran = outcome(&registry, "labels_take", json!({"id": 3}));
    assert_eq!(ran.await.as_deref(), Ok("Numbered { id: 3 }"));
    let refused = outcome(&registry, "labels_take", json!({"colour": 1}));
    assert!(refused.await.is_err());
    // Shown as one object whose other fields are the map's.
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    let schema = &exported[0]["inputSchema"];
    assert_eq!(schema["additionalProperties"], json!({"type": "string"}));
    assert_eq!(
        schema["properties"]["id"],
        json!({"anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 255, "description": "Its number."},
            {"type": "string"}
        ]})
    );
}

/// A message's body, as text or as parts.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Body {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// Parts, in order.
    Parts {
        /// The parts.
        parts: Vec<String>,
    },
}

/// What sending takes.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct SendArgs {
    /// Who to.
    to: String,
    /// What.
    #[serde(flatten)]
    body: Body,
}

/// A mail command, tagged by `op`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)]
enum MailCommand {
    /// Sends a message.
    Send(SendArgs),
    /// Deletes one.
    Delete {
        /// Its number.
        id: u32,
    },
}

/// Labels by number or by name, and counts of other fields.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Tallied {
    /// The set's number.
    id: u32,
    /// The labels.
    #[serde(flatten)]
    labels: Labelled,
    /// Every field left, counted.
    #[serde(flatten)]
    counts: BTreeMap<String, u32>,
}

/// Runs a mail command.
#[tool]
async fn mail_run(command: MailCommand) -> String {
    format!("{command:?}")
}

/// Counts.
#[tool]
async fn tallied_take(tallied: Tallied) -> String {
    format!("{tallied:?}")
}

#[tokio::test]
async fn a_variant_wrapping_a_struct_that_flattens_an_enum_takes_its_fields() {
    // The variant took the struct's own fields but not its enum's: `text` was refused.
    let registry = Registry::builder()
        .tool(MailRun)
        .providers([Provider::Mcp])
        .build()
        .unwrap();
    let ran = outcome(
        &registry,
        "mail_run",
        json!({"command": {"op": "send", "to": "ann", "text": "hi"}}),
    );
    assert_eq!(
        ran.await.as_deref(),
        Ok("Send(SendArgs { to: \"ann\", body: Text { text: \"hi\" } })")
    );
    let refused = outcome(
        &registry,
        "mail_run",
        json!({"command": {"op": "send", "to": "ann", "text": 1}}),
    );
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [fault(
            "command",
            "expected object with fields op: \"send\", to, text or object with fields op: \
             \"send\", to, parts or object with fields op: \"delete\", id, received an object"
        )]
    );
}

#[tokio::test]
async fn a_field_left_beside_two_maps_must_fit_both() {
    // serde hands a field no one names to the labels' map and to the counts: text fits the
    // first and not the second, a number the second and not the first.
    let registry = Registry::builder().tool(TalliedTake).build().unwrap();
    for (field, expected) in [
        (json!("red"), "expected u32, received \"red\""),
        (json!(5), "expected string, received 5"),
    ] {
        let called = json!({"tallied": {"id": 1, "colour": field}});
        let refused = outcome(&registry, "tallied_take", called).await;
        assert_eq!(
            faults(&refused.unwrap_err()),
            [fault("tallied.colour", expected)]
        );
    }
    // `id` is the struct's, so `Numbered` is never read; with no field left, both maps are
    // empty.
    let ran = outcome(&registry, "tallied_take", json!({"tallied": {"id": 1}}));
    assert_eq!(
        ran.await.as_deref(),
        Ok("Tallied { id: 1, labels: Named({}), counts: {} }")
    );
}

/// Which keys a filter keeps.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum KeyFilter {
    /// Keys every one of these keeps.
    And(Vec<KeyFilter>),
    /// Keys this one drops.
    Not(Box<KeyFilter>),
    /// Keys equal to a value.
    Eq {
        /// The value.
        value: String,
    },
    /// Every key.
    Always,
}

/// Filters keys, the whole input.
#[tool]
async fn keys_filter(#[input] filter: KeyFilter) -> String {
    format!("{filter:?}")
}

#[tokio::test]
async fn an_enum_taken_whole_that_holds_itself_takes_its_unit_variants_below_the_top_as_serde_does()
{
    // The top of the input is an object, so a unit variant there is `{"Always": null}`; below
    // it serde reads the variant's name, as the type's definition must say.
    let registry = Registry::builder()
        .providers([Provider::Mcp, Provider::Anthropic])
        .tool(KeysFilter)
        .build()
        .unwrap();
    for (arguments, taken) in [
        (json!({"Always": null}), "Always"),
        (json!({"Not": "Always"}), "Not(Always)"),
        (
            json!({"And": ["Always", {"Eq": {"value": "a"}}, {"Not": "Always"}]}),
            "And([Always, Eq { value: \"a\" }, Not(Always)])",
        ),
    ] {
        let ran = outcome(&registry, "keys_filter", arguments).await;
        assert_eq!(ran.as_deref(), Ok(taken));
    }
    let refused = outcome(&registry, "keys_filter", json!({"Not": "Never"}));
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [fault(
            "Not",
            "expected object with fields And or object with fields Not or object with fields \
             Eq or \"Always\", received \"Never\""
        )]
    );
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    assert_eq!(
        exported[0]["inputSchema"]["$defs"]["KeyFilter"]["oneOf"][3],
        json!({"type": "string", "const": "Always", "description": "Every key."})
    );
}

/// How a job halts.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "how")]
#[allow(dead_code)]
enum Halt {
    /// At once.
    Now,
    /// After a wait.
    Later {
        /// Minutes to wait.
        minutes: u16,
    },
}

/// Which job, by name or by number.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Which {
    /// By name.
    ByName {
        /// The job's name.
        name: String,
    },
    /// By number.
    ById {
        /// The job's number.
        id: u32,
    },
}

/// How fast a job runs.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Pace {
    /// As fast as it can.
    Fast,
    /// Held back.
    Slow {
        /// By how much.
        by: u8,
    },
}

/// A step of a job, some of whose variants wrap an enum.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum JobStep {
    /// Runs a command.
    Run {
        /// The command.
        cmd: String,
    },
    /// Halts the job.
    Halt(Halt),
    /// Picks a job.
    Pick(Which),
    /// Sets the pace.
    Pace(Pace),
}

/// Asserts that serde reads each value as `T` written with `Debug` as given, and that the
/// registry's tool `tool`, taking it as its one field `field`, runs with the same.
async fn taken_as_serde_takes<T: serde::de::DeserializeOwned + std::fmt::Debug>(
    registry: &Registry,
    (tool, field): (&str, &str),
    cases: &[(Value, &str)],
) {
    for (value, taken) in cases {
        let read = serde_json::from_value::<T>(value.clone()).map(|read| format!("{read:?}"));
        assert_eq!(read.as_deref().ok(), Some(*taken), "serde: {value}");
        let ran = outcome(registry, tool, json!({ field: value })).await;
        assert_eq!(ran.as_deref(), Ok(*taken), "{value}");
    }
}

/// Takes a step.
#[tool]
async fn step_take(step: JobStep) -> String {
    format!("{step:?}")
}

#[tokio::test]
async fn a_tagged_variant_wrapping_an_enum_takes_the_enums_variants() {
    // The variant is its tag beside a `$ref` to the enum, whose variants were never taken in:
    // closed beside them, it fitted no call.
    let registry = Registry::builder().tool(StepTake).build().unwrap();
    let cases = [
        (json!({"op": "Halt", "how": "Now"}), "Halt(Now)"),
        (
            json!({"op": "Halt", "how": "Later", "minutes": 5}),
            "Halt(Later { minutes: 5 })",
        ),
        (
            json!({"op": "Pick", "name": "a"}),
            "Pick(ByName { name: \"a\" })",
        ),
        (json!({"op": "Pick", "id": 3}), "Pick(ById { id: 3 })"),
        (json!({"op": "Pace", "Fast": null}), "Pace(Fast)"),
        (
            json!({"op": "Pace", "Slow": {"by": 2}}),
            "Pace(Slow { by: 2 })",
        ),
        (json!({"op": "Run", "cmd": "ls"}), "Run { cmd: \"ls\" }"),
    ];
    taken_as_serde_takes::<JobStep>(&registry, ("step_take", "step"), &cases).await;
    for (step, expected) in [
        (
            json!({"op": "Halt", "how": "Later"}),
            fault("step.minutes", "missing; expected u16"),
        ),
        (
            json!({"op": "Halt", "how": "Now", "minutes": 5}),
            fault("step.minutes", "unknown field"),
        ),
        (
            json!({"op": "Hlt", "how": "Now"}),
            fault(
                "step.op",
                "expected one of \"Run\", \"Halt\", \"Pick\", \"Pace\", received \"Hlt\"; did \
                 you mean \"Halt\"?",
            ),
        ),
        // The outer tag names two variants; the inner tag says which.
        (
            json!({"op": "Halt"}),
            fault("step.how", "missing; expected one of \"Now\", \"Later\""),
        ),
        (
            json!({"op": "Halt", "how": "Latter", "minutes": 5}),
            fault(
                "step.how",
                "expected one of \"Now\", \"Later\", received \"Latter\"; did you mean \"Later\"?",
            ),
        ),
    ] {
        let refused = outcome(&registry, "step_take", json!({ "step": step })).await;
        assert_eq!(faults(&refused.unwrap_err()), [expected], "{step}");
    }
    // Advertised as one union of every tagged variant, each with its words; the untagged
    // enum's variants stay a union of their own, which takes the first that fits, as serde
    // does.
    let definitions = registry.definitions();
    let variants = &definitions[0].input_schema["$defs"]["JobStep"]["oneOf"];
    let words: Vec<&str> = (variants.as_array().unwrap().iter())
        .map(|variant| variant["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        words,
        [
            "Runs a command.",
            "Halts the job. At once.",
            "Halts the job. After a wait.",
            "Picks a job.",
            "Sets the pace. As fast as it can.",
            "Sets the pace. Held back."
        ]
    );
}

/// A halt, as its own type.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
#[allow(dead_code)]
struct HaltOnly(Halt);

/// Halts, the whole input.
#[tool]
async fn halt_take(#[input] halt: HaltOnly) -> String {
    format!("{halt:?}")
}

#[tokio::test]
async fn a_transparent_struct_wrapping_an_enum_is_taken_whole_as_the_enum() {
    // schemars writes it as a `$ref` to the enum; the `properties` every input is given beside
    // it made the registry refuse it, blaming fields the user never wrote.
    let registry = Registry::builder().tool(HaltTake).build().unwrap();
    let ran = outcome(
        &registry,
        "halt_take",
        json!({"how": "Later", "minutes": 3}),
    );
    assert_eq!(ran.await.as_deref(), Ok("HaltOnly(Later { minutes: 3 })"));
    let refused = outcome(&registry, "halt_take", json!({"how": "Soon"}));
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [fault(
            "how",
            "expected one of \"Now\", \"Later\", received \"Soon\""
        )]
    );
}

/// A chain of internally tagged enums, each wrapping the next.
macro_rules! chain {
    ($name:ident, $tag:literal, $next:ident) => {
        /// One link of the chain.
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(tag = $tag)]
        #[allow(dead_code)]
        enum $name {
            /// Goes down a link.
            Down($next),
            /// Stops here.
            Stop {
                /// A value.
                v: u8,
            },
        }
    };
}
chain!(Link0, "t0", Link1);
chain!(Link1, "t1", Link2);
chain!(Link2, "t2", Link3);
chain!(Link3, "t3", Link4);
chain!(Link4, "t4", Link5);
chain!(Link5, "t5", Link6);
chain!(Link6, "t6", Link7);
chain!(Link7, "t7", Link8);
chain!(Link8, "t8", Link9);

/// The chain's end.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "t9")]
#[allow(dead_code)]
enum Link9 {
    /// The end.
    End,
}

/// Follows a chain.
#[tool]
async fn chain_follow(link: Link0) -> String {
    format!("{link:?}")
}

#[tokio::test]
async fn ten_tagged_enums_each_wrapping_the_next_are_taken_to_the_end() {
    let registry = Registry::builder().tool(ChainFollow).build().unwrap();
    let end = json!({"t0": "Down", "t1": "Down", "t2": "Down", "t3": "Down", "t4": "Down",
        "t5": "Down", "t6": "Down", "t7": "Down", "t8": "Down", "t9": "End"});
    let ran = outcome(&registry, "chain_follow", json!({ "link": end })).await;
    assert_eq!(
        ran.as_deref(),
        Ok("Down(Down(Down(Down(Down(Down(Down(Down(Down(End)))))))))")
    );
    let stop = json!({"t0": "Down", "t1": "Down", "t2": "Stop", "v": 3});
    let ran = outcome(&registry, "chain_follow", json!({ "link": stop })).await;
    assert_eq!(ran.as_deref(), Ok("Down(Down(Stop { v: 3 }))"));
}

/// A kind of shape, tagged by the same field as the enum that wraps it.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Drawn {
    /// A dot.
    Dot,
    /// A line.
    Line {
        /// Its length.
        length: u8,
    },
}

/// What to do, one variant wrapping an enum tagged by `op` too.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Drawing {
    /// Draws.
    Draw(Drawn),
    /// Erases.
    Erase {
        /// What.
        what: u8,
    },
}

/// A drawing with a field of its own named as the enum it flattens is tagged.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Sketch {
    /// The sketch's own operation.
    op: String,
    /// What is drawn.
    #[serde(flatten)]
    drawn: Drawn,
}

/// Draws.
#[tool]
async fn drawing_do(drawing: Drawing) -> String {
    format!("{drawing:?}")
}

/// Sketches.
#[tool]
async fn sketch_do(sketch: Sketch) -> String {
    format!("{sketch:?}")
}

/// What a sketch holds, by shape alone.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Held {
    /// A shape with its own operation.
    Shape {
        /// The operation.
        op: String,
        /// Its size.
        size: u8,
    },
    /// Nothing.
    Nothing,
}

/// A sketch with an operation of its own, beside what it holds.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Holding {
    /// The sketch's own operation.
    op: String,
    /// What it holds.
    #[serde(flatten)]
    held: Held,
}

/// Holds.
#[tool]
async fn holding_do(holding: Holding) -> String {
    format!("{holding:?}")
}

#[test]
fn an_enum_every_variant_of_which_needs_a_field_the_object_takes_is_refused_when_made() {
    // serde reads `op` as the outer enum's tag (or the struct's field), and the inner enum,
    // missing its tag, is never read: the schema took `{"op": "Draw"}` and serde refused it.
    for (builder, path) in [
        (Registry::builder().tool(DrawingDo), "$defs.Drawing"),
        (Registry::builder().tool(SketchDo), "$defs.Sketch"),
        // A variant no object fits (`null`) is none the object is read as.
        (Registry::builder().tool(HoldingDo), "$defs.Holding"),
    ] {
        let Err(RegistryError::Unexportable { errors }) = builder.build() else {
            panic!("built, at {path}")
        };
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert_eq!(errors[0].path, path, "{errors:#?}");
        assert!(
            errors[0]
                .problem
                .starts_with("every variant of the enum beside this object's fields requires `op`"),
            "{}",
            errors[0].problem
        );
    }
    // What serde answers the call the schema took.
    assert_eq!(
        serde_json::from_value::<Drawing>(json!({"op": "Draw"}))
            .unwrap_err()
            .to_string(),
        "missing field `op`"
    );
    for holding in [json!({"op": "x"}), json!({"op": "x", "size": 1})] {
        assert!(serde_json::from_value::<Holding>(holding).is_err());
    }
}

/// A gear, of unit variants without words of their own.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Gear {
    Low,
    High,
}

/// A change to a car, one variant wrapping the gear.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum CarEdit {
    /// Shifts gear.
    Shift(Gear),
    /// Steers.
    Steer {
        /// By how many degrees.
        by: i8,
    },
}

/// Changes a car.
#[tool]
async fn car_change(change: CarEdit) -> String {
    format!("{change:?}")
}

#[tokio::test]
async fn a_tagged_variant_wrapping_an_enum_of_unit_variants_alone_takes_each_as_a_field_of_null() {
    // schemars writes such an enum as its names (`"enum": ["Low", "High"]`), which the variant
    // did not take in: the registry refused the tool ("`type` is written beside `$ref`").
    let registry = Registry::builder().tool(CarChange).build().unwrap();
    let cases = [
        (json!({"op": "Shift", "High": null}), "Shift(High)"),
        (json!({"op": "Steer", "by": -3}), "Steer { by: -3 }"),
    ];
    taken_as_serde_takes::<CarEdit>(&registry, ("car_change", "change"), &cases).await;
    let refused = outcome(
        &registry,
        "car_change",
        json!({"change": {"op": "Shift", "Top": null}}),
    );
    assert_eq!(
        faults(&refused.await.unwrap_err()),
        [fault(
            "change",
            "expected object with fields op: \"Shift\", Low: null or object with fields op: \
             \"Shift\", High: null or object with fields op: \"Steer\", by, received an object"
        )]
    );
}

#[test]
fn every_schema_a_provider_is_shown_is_json_schema_2020_12() {
    let tools: [&dyn tool_core::tool::Tool; 20] = [
        &CommandsRun,
        &ActionRun,
        &StepRun,
        &CommandRun,
        &ShapesTake,
        &WaysTake,
        &ClashTake,
        &JobMove,
        &NextTake,
        &LabelsTake,
        &MailRun,
        &TalliedTake,
        &KeysFilter,
        &StepTake,
        &HaltTake,
        &ChainFollow,
        &DrawingDo,
        &SketchDo,
        &HoldingDo,
        &CarChange,
    ];
    tool_tests::meta_schema::assert_tools_2020_12(&tools);
}
