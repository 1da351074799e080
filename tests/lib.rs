//! Integration tests of `tool-core` live in this package's test targets; this library holds
//! what more than one of them reads.

use std::sync::{Arc, Mutex};

use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::tool::{Tool, ToolDefinition};
use tool_core::{Context, Refusal, Registry, ToolCall};

/// The `fault` lines of a refusal, as (path, problem) pairs, in order.
pub fn faults(refusal: &Refusal) -> Vec<(String, String)> {
    refusal
        .lines
        .iter()
        .filter(|line| line.label == "fault")
        .map(|line| (line.cells[0].clone(), line.cells[1].clone()))
        .collect()
}

/// A `fault` line's (path, problem) pair, as [`faults`] gives them.
pub fn fault(path: &str, problem: &str) -> (String, String) {
    (path.to_owned(), problem.to_owned())
}

/// What `registry` answers a call of `name` with `arguments` (a value, or text as sent): the
/// output's text, or the refusal.
pub async fn outcome(
    registry: &Registry,
    name: &str,
    arguments: impl Into<Arguments>,
) -> Result<String, Refusal> {
    registry
        .call(ToolCall::new("1", name, arguments), &Context::default())
        .await
        .outcome
        .map(|output| output.as_text().into_owned())
}

/// A tool written by hand, with whatever definition a test gives it; it reads nothing and
/// answers nothing.
pub struct Raw(pub ToolDefinition);

impl Tool for Raw {
    fn definition(&self) -> ToolDefinition {
        self.0.clone()
    }

    fn call<'a>(
        &'a self,
        _arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async { Ok(Output::Empty) })
    }
}

/// Runs `future` to its end on a runtime of the calling thread, for tests that must stay on
/// one thread (a default `tracing` subscriber is the thread's).
pub fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// The rounds of a wait for something that happens in its own time (a handler dropped, a
/// record handed over): as many as fit in two minutes, so that a loaded machine is waited for
/// and a fast one is not. The caller sleeps between rounds.
pub fn patiently() -> impl Iterator<Item = ()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    std::iter::from_fn(move || (std::time::Instant::now() < deadline).then_some(()))
}

/// Whether `holds` comes to hold, looked at every few milliseconds for as long as
/// [`patiently`] waits.
pub async fn until(mut holds: impl FnMut() -> bool) -> bool {
    for () in patiently() {
        if holds() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    holds()
}

/// Records the events `tracing` receives, as text: one line each, its level and its fields.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    /// Every event so far, one a line.
    pub fn text(&self) -> String {
        self.events().join("\n")
    }

    /// The events that name `tool` (a field `tool=...`).
    pub fn of(&self, tool: &str) -> Vec<String> {
        let mark = format!("tool={tool} ");
        self.events()
            .into_iter()
            .filter(|event| event.contains(&mark))
            .collect()
    }

    fn events(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

struct Fields<'a>(&'a mut String);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write as _;
        let _ = write!(self.0, "{}={:?} ", field.name(), value);
    }
}

impl tracing::Subscriber for Log {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut line = format!("{} ", event.metadata().level());
        event.record(&mut Fields(&mut line));
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(line);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A structured output of any size with an output schema, for the tests of large outputs in
/// this package and in `tool-mcp`'s.
pub mod table {
    use tool_core::tool;

    /// A table of rows: structured output, with an output schema.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    pub struct Table {
        /// The rows, in order.
        pub rows: Vec<Row>,
    }

    /// One row.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    pub struct Row {
        /// Its number.
        pub n: u32,
        /// Its name.
        pub name: String,
    }

    /// A table of `rows` rows, named `row 0000` on.
    pub fn table(rows: u32) -> Table {
        Table {
            rows: (0..rows)
                .map(|n| Row {
                    n,
                    name: format!("row {n:04}"),
                })
                .collect(),
        }
    }

    /// Lists a table's rows.
    #[tool(readonly)]
    pub async fn table_dump(rows: u32) -> Table {
        table(rows)
    }
}

/// Structured output that is not an object, as MCP 2026-07-28 allows (SEP-2106): a list and a
/// number, for `outputs.rs` and tool-mcp's `output_values.rs`.
pub mod tags {
    use serde_json::{Value, json};
    use tool_core::tool;

    /// A tag and how often it is used.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    pub struct Tag {
        /// Its name.
        pub name: String,
        /// How many notes carry it.
        pub uses: u32,
    }

    /// Lists the tags.
    #[tool(readonly, task)]
    pub async fn tags_list() -> Vec<Tag> {
        vec![Tag {
            name: "rust".into(),
            uses: 2,
        }]
    }

    /// Counts the tags.
    #[tool(readonly)]
    pub async fn tags_count() -> u32 {
        1
    }

    /// What `tags_list` answers, as JSON.
    pub fn tags() -> Value {
        json!([{"name": "rust", "uses": 2}])
    }
}

/// The tools and views the async-openai and genai adapters' tests (`adapter_async_openai.rs`,
/// `adapter_genai.rs`) share: an order (strict in OpenAI's export), a label printer (a map,
/// which strict mode cannot take) and a shell command granted to no model.
pub mod adapters_fixture {
    use std::collections::BTreeMap;

    use serde_json::Value;
    use tool_core::{Grant, Registry, tool};

    /// One line of an order.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Line {
        /// Stock-keeping unit.
        pub sku: String,
        /// How many.
        #[schemars(range(min = 1, max = 99))]
        pub qty: u32,
    }

    /// Places an order.
    #[tool(destructive)]
    pub async fn order_place(
        /// The order's lines.
        lines: Vec<Line>,
        /// A note for the packer.
        note: Option<String>,
    ) -> String {
        let count: u32 = lines.iter().map(|line| line.qty).sum();
        let skus: Vec<&str> = lines.iter().map(|line| line.sku.as_str()).collect();
        let note = note.map_or(String::new(), |note| format!(" ({note})"));
        format!("placed {count} of {}{note}", skus.join(", "))
    }

    /// Prints labels for a box: a map, which OpenAI's strict mode cannot take.
    #[tool]
    pub async fn label_print(
        /// Label text by position.
        labels: BTreeMap<String, String>,
    ) -> String {
        format!("printed {} labels", labels.len())
    }

    /// Runs a shell command; registered, but granted to no model here.
    #[tool(destructive)]
    pub async fn shell_run(
        /// The command line.
        command: String,
    ) -> String {
        format!("ran {command}")
    }

    /// `order_place`, `label_print` and `shell_run`, in that order.
    pub fn registry() -> Registry {
        Registry::builder()
            .tool(OrderPlace)
            .tool(LabelPrint)
            .tool(ShellRun)
            .build()
            .expect("the tools are exportable")
    }

    /// What a model may use: everything but the shell.
    pub fn granted(registry: &Registry) -> Registry {
        registry.scoped(Grant::new().tool("order_place").tool("label_print"))
    }

    /// The keys of a JSON object, sorted.
    pub fn keys(value: &Value) -> Vec<&str> {
        let mut keys: Vec<&str> = value
            .as_object()
            .map(|object| object.keys().map(String::as_str).collect())
            .unwrap_or_default();
        keys.sort_unstable();
        keys
    }
}

/// A genai tool call (`genai::chat::ToolCall`) of an id, a tool's name and its arguments (a
/// `serde_json::Value`), as genai hands one over from a model's turn:
/// `genai_call!("call_1", "order_place", json!({..}))`. A macro rather than a fn because genai
/// is a dependency of the test targets only, not of this library: it expands where `::genai`
/// is.
#[macro_export]
macro_rules! genai_call {
    ($id:expr, $name:expr, $arguments:expr $(,)?) => {
        ::genai::chat::ToolCall {
            call_id: ::std::borrow::ToOwned::to_owned($id),
            fn_name: ::std::borrow::ToOwned::to_owned($name),
            fn_arguments: $arguments,
            thought_signatures: ::std::option::Option::None,
        }
    };
}

/// Crates a user would write, made outside the workspace by the tests of what a user meets
/// (the README's tour, each feature alone) and built by the cargo that runs the tests.
pub mod user_crates {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// The workspace's root.
    pub fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("tests/ is in the workspace")
            .to_path_buf()
    }

    /// `cargo <verb> --quiet` in the user's crate `dir`. Every such crate builds in one target
    /// directory, so what they have in common is built once; without debug info or incremental
    /// caches, which no test of them reads and which would take a CI machine's disk.
    pub fn cargo(dir: &Path, verb: &str) -> Command {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut command = Command::new(cargo);
        command
            .args([verb, "--quiet"])
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target())
            .env("CARGO_PROFILE_DEV_DEBUG", "0")
            .env("CARGO_INCREMENTAL", "0");
        command
    }

    /// The target directory the users' crates share.
    pub fn target() -> PathBuf {
        root().join("target").join("user-crates")
    }
}

// The Python environment tool-mcp's tests install, which has OpenAI's package too: one
// installer, one environment, for both crates' tests.
#[allow(dead_code)] // Only the Python environment is used here.
#[path = "../tool-mcp/tests/support/clients.rs"]
mod clients;
/// The README's fenced blocks, read as tool-mcp's test of the README's HTTP session reads them.
#[path = "../tool-mcp/tests/support/fenced.rs"]
pub mod fenced;
#[allow(dead_code)]
#[path = "../tool-mcp/tests/support/process.rs"]
mod process;

/// The function declaration type of Google's own Python SDK (`google-genai`), judging the
/// declarations the Gemini export writes (`gemini_types.py` beside this file).
pub mod gemini_types {
    use serde_json::{Map, Value};

    /// The fields of Gemini's `Schema` (its OpenAPI subset, as the Gemini API's reference lists
    /// them), alphabetically: it refuses a whole request for a declaration's `parameters` with
    /// any other, at any depth. Google's SDK types take three more (`additionalProperties`,
    /// `defs`, `ref`), which the Gemini API refuses there.
    const GEMINI_SCHEMA_FIELDS: [&str; 22] = [
        "anyOf",
        "default",
        "description",
        "enum",
        "example",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "nullable",
        "pattern",
        "properties",
        "propertyOrdering",
        "required",
        "title",
        "type",
    ];

    /// Calls `visit` on each schema of a Gemini declaration's `parameters`, with its path.
    fn gemini_schemas(
        schema: &Value,
        path: &str,
        visit: &mut dyn FnMut(&str, &Map<String, Value>),
    ) {
        let Value::Object(map) = schema else {
            panic!("{path}: a schema that is no object: {schema}");
        };
        visit(path, map);
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (name, property) in properties {
                gemini_schemas(property, &format!("{path}.{name}"), visit);
            }
        }
        if let Some(items) = map.get("items") {
            gemini_schemas(items, &format!("{path}[]"), visit);
        }
        if let Some(Value::Array(branches)) = map.get("anyOf") {
            for branch in branches {
                gemini_schemas(branch, path, visit);
            }
        }
    }

    /// Asserts what Gemini takes of every schema in `parameters`: only its fields, one type, an
    /// object's properties listed and its required names among them, an array's items said.
    pub fn assert_in_subset(parameters: &Value) {
        gemini_schemas(parameters, "", &mut |path, schema| {
            for key in schema.keys() {
                assert!(
                    GEMINI_SCHEMA_FIELDS.contains(&key.as_str()),
                    "{path}: `{key}` is no field of Gemini's Schema: {schema:?}"
                );
            }
            if let Some(types) = schema.get("type") {
                assert!(types.is_string(), "{path}: a type array: {types}");
            }
            if let Some(Value::Array(values)) = schema.get("enum") {
                assert!(
                    values.iter().all(Value::is_string),
                    "{path}: a non-string enum: {values:?}"
                );
            }
            let kind = schema.get("type").and_then(Value::as_str);
            let properties = schema.get("properties").and_then(Value::as_object);
            if kind == Some("object") && !path.is_empty() {
                assert!(
                    properties.is_some_and(|p| !p.is_empty()),
                    "{path}: no properties"
                );
            }
            if properties.is_some() {
                assert!(
                    matches!(kind, Some("object") | None),
                    "{path}: properties on {kind:?}"
                );
            }
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = name.as_str().unwrap();
                assert!(
                    properties.is_some_and(|p| p.contains_key(name)),
                    "{path}: `{name}` is required but not defined"
                );
            }
            if kind == Some("array") {
                assert!(schema.contains_key("items"), "{path}: an array of no items");
            }
            if schema.contains_key("anyOf") {
                assert_eq!(
                    schema.len(),
                    1,
                    "{path}: `anyOf` beside other fields: {schema:?}"
                );
            }
            if !path.is_empty() {
                assert!(
                    kind.is_some() || schema.contains_key("anyOf"),
                    "{path}: a schema of no type: {schema:?}"
                );
            }
        });
    }

    /// Asserts that every `$ref` of a declaration's JSON Schema points into its `$defs` (the
    /// only definitions Gemini's JSON Schema is documented to follow), at one it has, and that
    /// it holds no draft-07 `definitions` nor `$schema`.
    fn assert_refs_into_defs(schema: &Value) {
        assert!(
            schema.get("definitions").is_none() && schema.get("$schema").is_none(),
            "{schema}"
        );
        fn each_ref(value: &Value, visit: &mut dyn FnMut(&str)) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(reference)) = map.get("$ref") {
                        visit(reference);
                    }
                    map.values().for_each(|value| each_ref(value, visit));
                }
                Value::Array(items) => items.iter().for_each(|item| each_ref(item, visit)),
                _ => {}
            }
        }
        each_ref(schema, &mut |reference| {
            let name = reference.strip_prefix("#/$defs/");
            assert!(
                name.is_some_and(|name| schema["$defs"][name].is_object()),
                "`$ref` {reference} points at no definition of `$defs`: {schema}"
            );
        });
    }

    /// Asserts that the SDK takes every declaration of `declarations`, saying which it
    /// refuses and why; and that a declaration in JSON Schema is a 2020-12 schema whose every
    /// `$ref` points into the `$defs` beside it.
    pub fn assert_taken(declarations: &[Value]) {
        for declaration in declarations {
            if let Some(schema) = declaration.get("parametersJsonSchema") {
                assert_refs_into_defs(schema);
            }
        }
        let verdicts = crate::judge::verdicts(
            "gemini_types.py",
            "the Gemini SDK's declaration type (gemini_types.py)",
            declarations,
        );
        for (declaration, verdict) in declarations.iter().zip(&verdicts) {
            assert_eq!(
                verdict["valid"], true,
                "Google's SDK refuses {}: {}\n{declaration}",
                declaration["name"], verdict["errors"]
            );
        }
    }
}

/// A judge of this crate's `tests/` (a Python script) run on JSON values.
mod judge {
    use std::path::Path;
    use std::process::Command;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use serde_json::Value;

    use crate::clients;

    /// The verdicts `script` prints, one per value of `values` (handed to it in a file, as a
    /// command line holds no more than some hundred kilobytes); `what` names the judge when it
    /// cannot run.
    pub(crate) fn verdicts(script: &str, what: &str, values: &[Value]) -> Vec<Value> {
        static ASKED: AtomicUsize = AtomicUsize::new(0);
        let asked = std::env::temp_dir().join(format!(
            "judged-{}-{}.json",
            std::process::id(),
            ASKED.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&asked, Value::Array(values.to_vec()).to_string())
            .unwrap_or_else(|error| panic!("writing {}: {error}", asked.display()));
        let mut command = Command::new(clients::python());
        command
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
            .arg(&asked);
        let verdicts = clients::client_session(&mut command, what);
        let _ = std::fs::remove_file(&asked);
        match verdicts {
            Value::Array(verdicts) if verdicts.len() == values.len() => verdicts,
            other => panic!("{script} printed no verdict per value: {other}"),
        }
    }
}

pub mod meta_schema;

/// The request types of OpenAI's own Python package (`openai`), judging the requests the
/// adapters' hosts send (`openai_types.py` beside this file).
pub mod openai_types {
    use std::path::Path;
    use std::process::Command;

    use serde_json::{Value, json};

    use crate::clients;

    /// The verdict on each `(api, request)`, in order: `api` is `chat` (a Chat Completions
    /// request) or `responses` (a Responses request); a verdict is `{"valid": true, "errors":
    /// []}` or `valid: false` with pydantic's errors, each a `loc` and a `msg`.
    pub fn verdicts(checks: &[(&str, &Value)]) -> Vec<Value> {
        let asked: Vec<Value> = checks
            .iter()
            .map(|(api, request)| json!({"api": api, "request": request}))
            .collect();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("openai_types.py");
        let mut command = Command::new(clients::python());
        command.arg(script).arg(Value::Array(asked).to_string());
        match clients::client_session(&mut command, "OpenAI's request types (openai_types.py)") {
            Value::Array(verdicts) if verdicts.len() == checks.len() => verdicts,
            other => panic!("openai_types.py printed no verdict per request: {other}"),
        }
    }

    /// A copy of `request` with `key` taken out of the object at `pointer` (a JSON pointer),
    /// which has it.
    pub fn without(request: &Value, pointer: &str, key: &str) -> Value {
        let mut copy = request.clone();
        let taken = copy
            .pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .and_then(|object| object.remove(key));
        assert!(taken.is_some(), "no `{key}` at {pointer} to take out");
        copy
    }

    /// The verdict that takes a request.
    pub fn valid() -> Value {
        json!({"valid": true, "errors": []})
    }

    /// Whether a verdict refuses its request with a fault at a location naming `key`.
    pub fn refused_at(verdict: &Value, key: &str) -> bool {
        verdict["valid"] == false
            && verdict["errors"].as_array().is_some_and(|errors| {
                errors.iter().any(|error| {
                    error["loc"]
                        .as_array()
                        .is_some_and(|loc| loc.iter().any(|part| part == key))
                })
            })
    }
}
