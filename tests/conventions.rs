//! The conventions as parameter types: a dry run reaches the handler, a stale expected
//! revision is a `conflict` naming the current one, empty text is refused at its path, and
//! each type tells a model what it means.

use std::sync::Mutex;

use serde_json::{Value, json};
use tool_core::{
    Context, DryRun, ExpectedRevision, NonEmptyString, Provider, Refusal, Registry, ToolCall, code,
    tool,
};
use tool_tests::{fault, faults};

/// The first step of every task `task_add` added, so that a test can tell whether the handler
/// ran for its call while other tests call it too.
static ADDED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The revision every task is at.
const CURRENT: u64 = 7;

/// One step of a task.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Step {
    /// What to do.
    what: NonEmptyString,
}

/// Adds a task.
#[tool(destructive)]
async fn task_add(
    /// The task's title.
    title: NonEmptyString,
    /// Its steps.
    #[serde(default)]
    steps: Vec<Step>,
    revision: ExpectedRevision,
    dry_run: DryRun,
) -> Result<String, Refusal> {
    revision.check(CURRENT)?;
    if dry_run.is_set() {
        let steps: Vec<&str> = steps.iter().map(|step| &*step.what).collect();
        return Ok(format!("would add {:?} with steps {steps:?}", &*title));
    }
    let first = steps
        .first()
        .map(|step| String::from(&*step.what))
        .unwrap_or_default();
    ADDED.lock().unwrap().push(first);
    Ok(format!("added {:?}", title.into_string()))
}

fn registry() -> Registry {
    Registry::builder().tool(TaskAdd).build().unwrap()
}

async fn call(arguments: Value) -> Result<String, Refusal> {
    registry()
        .call(
            ToolCall::new("1", "task_add", arguments),
            &Context::default(),
        )
        .await
        .outcome
        .map(|output| output.as_text().into_owned())
}

#[tokio::test]
async fn a_dry_run_reaches_the_handler_set_or_not() {
    assert_eq!(
        call(json!({"title": "ship", "steps": [{"what": "test"}], "dry_run": true}))
            .await
            .unwrap(),
        r#"would add "ship" with steps ["test"]"#
    );
    for unset in [
        json!({"title": "ship", "dry_run": false}),
        json!({"title": "ship", "dry_run": null}),
        json!({"title": "ship"}),
    ] {
        assert_eq!(call(unset).await.unwrap(), r#"added "ship""#);
    }
}

#[tokio::test]
async fn a_dry_run_that_is_not_a_boolean_is_refused_at_its_path() {
    let refusal = call(json!({"title": "ship", "dry_run": "yes"}))
        .await
        .unwrap_err();
    assert_eq!(refusal.code, code::BAD_ARGUMENTS);
    assert_eq!(
        faults(&refusal),
        [fault("dry_run", r#"expected boolean, received "yes""#)],
        "{refusal}"
    );
}

#[tokio::test]
async fn a_stale_revision_is_a_conflict_carrying_the_current_revision() {
    let refusal = call(json!({"title": "ship", "revision": 5, "dry_run": true}))
        .await
        .unwrap_err();
    assert_eq!(refusal.code, code::CONFLICT);
    assert_eq!(code::CONFLICT, "conflict");
    assert_eq!(
        refusal.to_string(),
        "refused\tconflict\tthe item is at revision 7, not 5; read it again and retry\n\
         revision\t7"
    );
    assert_eq!(Refusal::parse(&refusal.to_string()), Some(refusal));
    for fresh in [
        json!({"title": "ship", "revision": 7, "dry_run": true}),
        json!({"title": "ship", "revision": null, "dry_run": true}),
        json!({"title": "ship", "dry_run": true}),
    ] {
        assert!(call(fresh).await.is_ok());
    }
}

#[tokio::test]
async fn empty_text_is_refused_at_its_path_before_the_handler_runs() {
    let refusal = call(json!({"title": "", "steps": [{"what": "plan the empty"}, {"what": ""}]}))
        .await
        .unwrap_err();
    assert_eq!(refusal.code, code::BAD_ARGUMENTS);
    assert_eq!(
        faults(&refusal),
        [
            fault("title", r#"expected text that is not empty, received """#),
            fault(
                "steps[1].what",
                r#"expected text that is not empty, received """#
            ),
        ]
    );
    let added = ADDED.lock().unwrap();
    assert!(
        !added.iter().any(|first| first == "plan the empty"),
        "the handler ran"
    );
}

#[tokio::test]
async fn text_of_spaces_is_not_empty() {
    assert_eq!(call(json!({"title": " "})).await.unwrap(), r#"added " ""#);
}

#[test]
fn read_without_a_registry_empty_text_has_its_own_message() {
    let error = serde_json::from_value::<NonEmptyString>(json!("")).unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"expected text that is not empty, received """#
    );
}

#[test]
fn the_schemas_tell_a_model_what_each_convention_means() {
    let registry = registry();
    let definitions = registry.definitions();
    let schema = &definitions[0].input_schema;
    assert_eq!(
        schema["required"],
        json!(["title"]),
        "dry run and revision are optional"
    );
    assert_eq!(
        schema["properties"]["dry_run"],
        json!({
            "type": "boolean",
            "description": "If true, check the call and say what would change, without changing anything."
        })
    );
    assert_eq!(
        schema["properties"]["revision"]["description"],
        "The revision you last read; the call is refused with `conflict` if the item has \
         changed since. Omit to skip the check."
    );
    assert_eq!(
        schema["properties"]["revision"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        schema["properties"]["title"],
        json!({"type": "string", "minLength": 1, "description": "The task's title."})
    );
    assert!(registry.check().is_ok(), "{:?}", registry.check());
    let openai = registry.export(Provider::OpenAi).unwrap();
    let parameters = &openai[0]["function"]["parameters"];
    assert_eq!(
        parameters["properties"]["dry_run"]["type"],
        json!(["boolean", "null"]),
        "OpenAI's strict mode: optional, so nullable"
    );
}
