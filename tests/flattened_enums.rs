//! Inputs that are one of several objects: a struct that flattens an enum (its own fields
//! beside the variant's, the "shared fields and a kind" shape), and an enum taken as the whole
//! input with `#[input]`. Each is advertised as a union whose every variant holds the
//! object's fields and is closed, and each call that serde takes is taken.

use serde_json::{Value, json};
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
            fault(
                "sent",
                "expected object with fields mailbox, id or object with fields queue, id, \
                 received an object"
            ),
            fault(
                "urgent",
                "expected object with fields Within, id or object with fields Whenever, id, \
                 received an object"
            ),
            fault("addressed.to", "missing; expected one of \"All\", \"Some\""),
            // Fits none of the audiences, and no audience is one of the ways.
            fault("maybe.to", "unknown field"),
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
        let addressed = &schema["properties"]["addressed"]["anyOf"];
        assert_eq!(addressed.as_array().unwrap().len(), 4, "{addressed}");
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
async fn an_enum_or_a_struct_that_flattens_one_is_taken_as_the_whole_input() {
    let registry = Registry::builder()
        .tool(ActionRun)
        .tool(CommandRun)
        .tool(StepRun)
        .build()
        .unwrap();
    let exported = json!(registry.export(Provider::Mcp).unwrap());
    for tool in exported.as_array().unwrap() {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
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
