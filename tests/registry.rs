//! The registry: building, calling, and what handlers' own outcomes become.

use serde_json::json;
use tool_core::outcome::Output;
use tool_core::registry::RegistryError;
use tool_core::{Context, Refusal, Registry, ToolCall, tool};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Written {
    revision: u64,
}

/// Writes a note.
#[tool(name = "note_write", destructive)]
async fn note_write(text: String, revision: Option<u64>) -> Result<Written, Refusal> {
    match revision {
        Some(7) | None => Ok(Written {
            revision: 8 + text.len() as u64,
        }),
        Some(_) => Err(
            Refusal::new("conflict", "the note has moved on; read it again")
                .line("revision", ["7"]),
        ),
    }
}

/// Reads a file.
#[tool(readonly)]
async fn file_read(path: String) -> std::io::Result<String> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!("no file at {path}"),
    ))
}

/// Also called note_write.
#[tool(name = "note_write")]
async fn impostor() {}

/// Checks a note, answering the check's own outcome as its output.
#[tool]
async fn note_check(id: u64) -> Result<Result<u64, String>, Refusal> {
    Ok(if id == 0 {
        Err("empty".to_owned())
    } else {
        Ok(id)
    })
}

#[tokio::test]
async fn a_result_written_inside_the_result_is_the_output_as_written() {
    let registry = Registry::builder().tool(NoteCheck).build().unwrap();
    let failed = call(&registry, "note_check", json!({"id": 0})).await;
    assert!(!failed.is_refused(), "{}", failed.text());
    assert_eq!(failed.text(), r#"{"Err":"empty"}"#);
    let passed = call(&registry, "note_check", json!({"id": 3})).await;
    assert_eq!(passed.text(), r#"{"Ok":3}"#);
}

async fn call(
    registry: &Registry,
    name: &str,
    arguments: serde_json::Value,
) -> tool_core::ToolResult {
    registry
        .call(ToolCall::new("c", name, arguments), &Context::default())
        .await
}

#[test]
fn two_tools_of_one_name_are_an_error_not_a_panic() {
    let error = Registry::builder()
        .tool(NoteWrite)
        .tool(FileRead)
        .tool(Impostor)
        .build()
        .unwrap_err();
    let RegistryError::DuplicateName { name, toolkits, .. } = &error else {
        panic!("{error}")
    };
    assert_eq!(name, "note_write");
    assert_eq!(toolkits, &["note_write", "note_write"]);
    assert_eq!(
        error.to_string(),
        "two tools are named `note_write`, one on its own, one on its own; tool names must be \
         unique within a registry: rename one with `#[tool(name = \"...\")]`, or, if a tool \
         or toolkit is added twice, add it once"
    );
    // Each from a toolkit: the two are named.
    let error = Registry::builder()
        .toolkit(Scribe)
        .tool(NoteWrite)
        .build()
        .unwrap_err();
    assert!(
        error.to_string().starts_with(
            "two tools are named `note_write`, one of toolkit `scribe`, one on its own;"
        ),
        "{error}"
    );
    let merged = Registry::builder().tool(NoteWrite).build().unwrap();
    let other = Registry::builder().toolkit(Scribe).build().unwrap();
    let error = merged
        .merge(&other, tool_core::Collision::Error)
        .unwrap_err();
    assert!(
        error.to_string().starts_with(
            "two tools are named `note_write`, one on its own, one of toolkit `scribe`;"
        ),
        "{error}"
    );
}

/// Writes and scribbles.
struct Scribe;

#[tool_core::toolkit(name = "scribe")]
impl Scribe {
    /// Writes a note, as another tool of that name does.
    #[tool(name = "note_write")]
    async fn write(&self) {}
}

#[tokio::test]
async fn structured_output_is_json() {
    let registry = Registry::builder().tool(NoteWrite).build().unwrap();
    let result = call(&registry, "note_write", json!({"text": "hi"})).await;
    assert_eq!(result.outcome, Output::json(&json!({"revision": 10})));
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"id": "c", "name": "note_write", "output": {"revision": 10}})
    );
    let definition = &registry.definitions()[0];
    assert_eq!(
        definition.output_schema.as_ref().unwrap()["required"],
        json!(["revision"])
    );
}

#[tokio::test]
async fn a_handler_refusal_passes_through_with_its_code() {
    let registry = Registry::builder().tool(NoteWrite).build().unwrap();
    let result = call(
        &registry,
        "note_write",
        json!({"text": "hi", "revision": 3}),
    )
    .await;
    assert_eq!(
        result.text(),
        "refused\tconflict\tthe note has moved on; read it again\nrevision\t7"
    );
    assert_eq!(
        serde_json::to_value(&result).unwrap()["refusal"]["code"],
        "conflict"
    );
}

#[tokio::test]
async fn a_handler_error_becomes_failed_its_message_shown_only_if_configured() {
    // An error's message is written for developers, not for a model: logged, not shown,
    // unless the registry says otherwise (see SECURITY.md).
    let registry = Registry::builder().tool(FileRead).build().unwrap();
    let result = call(&registry, "file_read", json!({"path": "/x"})).await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "failed");
    assert_eq!(refusal.message, "the tool failed; the details were logged");

    let shown = registry.with_error_messages(true);
    let result = call(&shown, "file_read", json!({"path": "/x"})).await;
    let refusal = result.refusal().unwrap();
    assert_eq!(refusal.code, "failed");
    assert_eq!(refusal.message, "no file at /x");
}

#[tokio::test]
async fn results_carry_the_call_id_and_name() {
    let registry = Registry::builder().tool(FileRead).build().unwrap();
    let call = ToolCall::from_json(r#"{"id": 42, "name": "nope"}"#).unwrap();
    let result = registry.call(call, &Context::default()).await;
    assert_eq!((result.id.as_str(), result.name.as_str()), ("42", "nope"));
    assert_eq!(result.refusal().unwrap().code, "unknown-tool");
}

/// In a copy of this test binary started by the test below: one failing call, with a
/// subscriber installed or not as `TOOL_TESTS_LOG` says.
fn fail_once_in_a_child() {
    let registry = Registry::builder().tool(FileRead).build().unwrap();
    let call = || async {
        let result = call(&registry, "file_read", json!({"path": "/missing"})).await;
        assert_eq!(result.refusal().unwrap().code, "failed");
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    match std::env::var("TOOL_TESTS_LOG").as_deref() {
        Ok("subscriber") => {
            let subscriber = tracing_subscriber::fmt()
                .with_writer(std::io::stdout)
                .finish();
            tracing::subscriber::with_default(subscriber, || runtime.block_on(call()));
        }
        _ => runtime.block_on(call()),
    }
}

#[test]
fn the_details_a_model_is_told_were_logged_reach_the_host_without_a_subscriber() {
    const NAME: &str =
        "the_details_a_model_is_told_were_logged_reach_the_host_without_a_subscriber";
    if std::env::var_os("TOOL_TESTS_LOG").is_some() {
        return fail_once_in_a_child();
    }
    let run = |log: &str| {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
            .env("TOOL_TESTS_LOG", log)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    // No subscriber: the error's message goes to standard error, naming the tool.
    let (_, stderr) = run("none");
    assert!(
        stderr
            .contains("tool-core: the tool `file_read` failed with an error: no file at /missing"),
        "{stderr}"
    );
    // A subscriber: it gets the message, and standard error does not.
    let (stdout, stderr) = run("subscriber");
    assert!(stdout.contains("no file at /missing"), "{stdout}");
    assert!(!stderr.contains("no file at /missing"), "{stderr}");
}
