//! The server MCP's conformance suite (`@modelcontextprotocol/conformance`) is run against:
//! the tools its server scenarios call, by the names and with the answers they expect, written
//! with this framework as any user would. `tool-mcp/tests/conformance.rs` runs both pinned
//! versions of the suite against it, with sessions and without; the README's "Conformance"
//! section says how to run the suite by hand.
//!
//! ```sh
//! cargo run --example conformance_server -- --http 127.0.0.1:3001              # with sessions
//! cargo run --example conformance_server -- --http 127.0.0.1:3001 --stateless  # without
//! ```
//!
//! The suite's resources, prompts and completions are an rmcp handler of the example's
//! (`conformance/mod.rs`), served beside the tools. Nothing the suite checks is faked here:
//! what cannot pass (a 2025-11-25 question without a session, say) fails, and
//! `tool-mcp/tests/conformance/expected-failures.txt` lists it and says why.

mod conformance;

use std::net::SocketAddr;
use std::time::Duration;

use tool_core::call::{Arguments, BoxFuture, LogLevel, SamplingRequest};
use tool_core::outcome::{Content, Output};
use tool_core::tool::{InputSchema, Tool, ToolDefinition};
use tool_core::{Answer, Context, Provider, Refusal, Registry, tool};
use tool_mcp::McpServer;

/// A 1×1 PNG, the image the suite expects.
const PNG: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 252, 207, 192, 240, 31, 0,
    5, 5, 2, 0, 95, 200, 241, 210, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// A WAV of one silent sample, the audio the suite expects.
const WAV: [u8; 44] = [
    82, 73, 70, 70, 38, 0, 0, 0, 87, 65, 86, 69, 102, 109, 116, 32, 16, 0, 0, 0, 1, 0, 1, 0, 64,
    31, 0, 0, 0, 125, 0, 0, 2, 0, 16, 0, 100, 97, 116, 97, 2, 0, 0, 0,
];

/// Answers with one text block.
#[tool(readonly)]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Answers with one image block.
#[tool(readonly)]
async fn test_image_content() -> Content {
    Content::Image {
        data: PNG.to_vec(),
        mime_type: "image/png".to_owned(),
    }
}

/// Answers with a text resource, embedded whole.
#[tool(readonly)]
async fn test_embedded_resource() -> Content {
    Content::resource_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Answers with text, an image and an embedded resource.
#[tool(readonly)]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        Content::resource_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Answers with one audio block.
#[tool(readonly)]
async fn test_audio_content() -> Content {
    Content::Audio {
        data: WAV.to_vec(),
        mime_type: "audio/wav".to_owned(),
    }
}

/// Always fails, as a tool error the model reads.
#[tool(readonly)]
async fn test_error_handling() -> Result<String, Refusal> {
    Err(Refusal::new(
        "failed",
        "This tool intentionally returns an error for testing",
    ))
}

/// Reports progress three times, then answers.
#[tool(readonly)]
async fn test_tool_with_progress(ctx: &Context) -> &'static str {
    for done in [0.0, 50.0, 100.0] {
        ctx.progress(done, Some(100.0), None);
        if done < 100.0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    "Progress complete"
}

/// Who the client's user says they are.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the client's user who they are.
#[tool(readonly)]
async fn test_elicitation(
    /// What to ask.
    message: String,
    ctx: &Context,
) -> Result<String, Refusal> {
    let answer = ctx.ask::<UserInfo>(message).await?;
    Ok(match answer.given() {
        Some(info) => format!(
            "User response: action=accept, content={}",
            serde_json::json!({"username": info.username, "email": info.email})
        ),
        None => "User response: action=decline".to_owned(),
    })
}

/// A form whose every field has a default (SEP-1034).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Defaults {
    /// A name.
    #[schemars(default = "default_name")]
    name: String,
    /// An age.
    #[schemars(default = "default_age")]
    age: i64,
    /// A score.
    #[schemars(default = "default_score")]
    score: f64,
    /// A status.
    #[schemars(default = "default_status")]
    status: Status,
    /// Whether it is verified.
    #[schemars(default = "default_verified")]
    verified: bool,
}

/// A status, one of three.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

fn default_name() -> String {
    "John Doe".to_owned()
}
fn default_age() -> i64 {
    30
}
fn default_score() -> f64 {
    95.5
}
fn default_status() -> Status {
    Status::Active
}
fn default_verified() -> bool {
    true
}

/// Asks with a form of defaults.
#[tool(readonly)]
async fn test_elicitation_sep1034_defaults(ctx: &Context) -> Result<String, Refusal> {
    let answer = ctx.ask::<Defaults>("Please review your details").await?;
    Ok(match answer.given() {
        Some(given) => format!(
            "Elicitation completed: action=accept, content={}",
            serde_json::json!({
                "name": given.name,
                "age": given.age,
                "score": given.score,
                "status": given.status,
                "verified": given.verified,
            })
        ),
        None => "Elicitation completed: action=decline".to_owned(),
    })
}

/// One of three, untitled.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// One of three, each with a title.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
enum Titled {
    /// First Option
    #[serde(rename = "value1")]
    #[schemars(title = "First Option")]
    Value1,
    /// Second Option
    #[serde(rename = "value2")]
    #[schemars(title = "Second Option")]
    Value2,
    /// Third Option
    #[serde(rename = "value3")]
    #[schemars(title = "Third Option")]
    Value3,
}

/// One of three, titled in SEP-1330's legacy way (`enumNames`), which clients of 2025-06-18 show.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// A form of SEP-1330's enum shapes.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[allow(non_snake_case)]
struct Enums {
    /// One, untitled.
    untitledSingle: Untitled,
    /// One, titled.
    titledSingle: Titled,
    /// Many, untitled.
    untitledMulti: Vec<Untitled>,
    /// Many, titled.
    titledMulti: Vec<Titled>,
    /// One, titled the legacy way.
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacyEnum: Legacy,
}

/// Asks with a form of every kind of choice.
#[tool(readonly)]
async fn test_elicitation_sep1330_enums(ctx: &Context) -> Result<String, Refusal> {
    let answer = ctx.ask::<Enums>("Choose").await?;
    Ok(match answer.given() {
        Some(given) => format!(
            "Elicitation completed: action=accept, content={}",
            serde_json::to_string(&given).unwrap_or_default()
        ),
        None => "Elicitation completed: action=decline".to_owned(),
    })
}

/// Logs three messages at `info`, 50 ms apart, as it starts, works and ends.
#[tool(readonly)]
async fn test_tool_with_logging(ctx: &Context) -> &'static str {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    "Tool with logging executed successfully"
}

/// Logs one message, which reaches a 2026-07-28 client only when its request names a level.
#[tool(readonly)]
async fn test_logging_tool(ctx: &Context) -> &'static str {
    ctx.log(LogLevel::Info, "test_logging_tool ran");
    "Logged once"
}

/// Adds a tool, then takes it away again on the next call, so the tool list changes.
#[tool]
async fn test_trigger_tool_change(ctx: &Context) -> Result<String, Refusal> {
    let Some(registry) = ctx.get::<Registry>() else {
        return Err(Refusal::new(
            "internal",
            "the server's registry is not in the context",
        ));
    };
    if registry.remove("test_added_tool") {
        return Ok("Removed test_added_tool".to_owned());
    }
    registry
        .add(TestAddedTool)
        .map_err(|error| Refusal::new("internal", error.to_string()))?;
    Ok("Added test_added_tool".to_owned())
}

/// A tool that comes and goes with `test_trigger_tool_change`.
#[tool(readonly)]
async fn test_added_tool() -> &'static str {
    "Here for now"
}

/// Asks the client's model to answer `prompt`.
#[tool(readonly)]
async fn test_sampling(
    /// What to ask the model.
    prompt: String,
    ctx: &Context,
) -> Result<String, Refusal> {
    let sampled = ctx
        .sample(SamplingRequest::new(prompt).with_max_tokens(100))
        .await?;
    Ok(format!("LLM response: {}", sampled.text))
}

/// Asks the client's model a question, in an `input_required` round (2026-07-28).
#[tool(readonly)]
async fn test_input_required_result_sampling(ctx: &Context) -> Result<String, Refusal> {
    let sampled = ctx
        .sample(SamplingRequest::new("What is the capital of France?").with_max_tokens(100))
        .await?;
    Ok(format!("The model answered: {}", sampled.text))
}

/// Reads the client's roots.
#[tool(readonly)]
async fn test_input_required_result_list_roots(ctx: &Context) -> Result<String, Refusal> {
    let roots = ctx.roots().await?;
    let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("The client's roots: {}", uris.join(", ")))
}

/// Needs the client's model, whether or not the client declared one.
#[tool(readonly)]
async fn test_missing_capability(ctx: &Context) -> Result<String, Refusal> {
    let sampled = ctx.sample(SamplingRequest::new("Say hello.")).await?;
    Ok(sampled.text)
}

/// Asks whatever its client can answer: its user, else its model.
#[tool(readonly)]
async fn test_input_required_result_capabilities(ctx: &Context) -> Result<String, Refusal> {
    if ctx.can_ask() {
        let answer = ctx.ask::<UserName>("What is your name?").await?;
        return Ok(match answer.given() {
            Some(UserName { name }) => format!("Hello, {name}!"),
            None => "Hello!".to_owned(),
        });
    }
    if ctx.can_sample() {
        let sampled = ctx.sample(SamplingRequest::new("Say hello.")).await?;
        return Ok(sampled.text);
    }
    Ok("Nothing to ask".to_owned())
}

/// A name, as a form (asked for as `user_name`, its type's name).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct UserName {
    /// Your name.
    name: String,
}

/// Asks the caller's name, then greets them.
#[tool(readonly)]
async fn test_input_required_result_elicitation(ctx: &Context) -> Result<String, Refusal> {
    let answer = ctx.ask::<UserName>("What is your name?").await?;
    Ok(match answer.given() {
        Some(UserName { name }) => format!("Hello, {name}!"),
        None => "Hello, whoever you are!".to_owned(),
    })
}

/// Asks its user's name, the client's model for a greeting and the client's roots, all in
/// one round.
#[tool(readonly)]
async fn test_input_required_result_multiple_inputs(ctx: &Context) -> Result<String, Refusal> {
    let (name, greeting, roots) = tokio::join!(
        ctx.ask::<UserName>("What is your name?"),
        ctx.sample(SamplingRequest::new("Generate a greeting").with_max_tokens(50)),
        ctx.roots(),
    );
    let name = name?
        .given()
        .map_or_else(|| "someone".to_owned(), |user| user.name);
    Ok(format!(
        "{} {name} ({} roots)",
        greeting?.text,
        roots?.len()
    ))
}

/// A yes, as a form.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Whether to go on.
    ok: bool,
}

/// Asks for a confirmation; the answer comes back under the round's `requestState`, which
/// names the suspended call (a forged or altered one names nothing and is refused).
#[tool(readonly)]
async fn test_input_required_result_request_state(ctx: &Context) -> Result<String, Refusal> {
    let confirmed = ctx.ask::<Confirm>("Please confirm").await?;
    Ok(match confirmed.given() {
        Some(Confirm { ok: true }) => "state-ok: confirmed".to_owned(),
        _ => "state-ok: not confirmed".to_owned(),
    })
}

/// The same as `test_input_required_result_request_state`, for the suite to tamper with.
#[tool(readonly)]
async fn test_input_required_result_tampered_state(ctx: &Context) -> Result<String, Refusal> {
    let confirmed = ctx.ask::<Confirm>("Please confirm").await?;
    Ok(format!(
        "confirmed: {}",
        confirmed.given().is_some_and(|c| c.ok)
    ))
}

/// A favourite colour, as a form.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Colour {
    /// Your favourite colour.
    color: String,
}

/// Asks two questions, one round each.
#[tool(readonly)]
async fn test_input_required_result_multi_round(ctx: &Context) -> Result<String, Refusal> {
    let name = ctx.ask::<UserName>("Step 1: What is your name?").await?;
    let colour = ctx
        .ask::<Colour>("Step 2: What is your favorite color?")
        .await?;
    Ok(match (name.given(), colour.given()) {
        (Some(UserName { name }), Some(Colour { color })) => {
            format!("Hello, {name}! Your favorite color is {color}.")
        }
        _ => "Not everything was answered".to_owned(),
    })
}

/// Greets someone by name.
#[tool(readonly)]
async fn greet(
    /// Whom to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Answers after a moment, for the suite to watch its answer's stream (SEP-1699).
#[tool(readonly)]
async fn test_reconnection() -> &'static str {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed"
}

/// Answers with its value, which a 2026-07-28 client also sends as the `Mcp-Param-Value`
/// header (SEP-2243); the server refuses a request whose header and argument differ.
#[tool(readonly)]
async fn test_custom_header(
    /// Any text.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
) -> String {
    value
}

/// Works for `seconds` (one unless said), then answers; a task when the client can follow one,
/// which `tasks/cancel` stops.
#[tool(readonly, task)]
async fn slow_compute(
    ctx: &Context,
    /// How long to work.
    seconds: Option<f64>,
    /// What to call the work in the answer.
    label: Option<String>,
) -> Result<String, Refusal> {
    let seconds = seconds.unwrap_or(1.0).clamp(0.0, 3600.0);
    let label = label.unwrap_or_else(|| "compute".to_owned());
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => {
            Ok(format!("slow_compute({label}) done after {seconds}s"))
        }
        () = ctx.cancellation().cancelled() => Err(Refusal::cancelled()),
    }
}

/// Runs only as a task, and ends in a refusal of its own: the task completes, its result an
/// error (`isError`).
#[tool(readonly, task = "required")]
async fn failing_job() -> Result<String, Refusal> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(Refusal::failed(
        "failing_job: intentional tool execution error",
    ))
}

/// A task that goes wrong inside (as a panic would): the task fails, with no result.
#[tool(readonly, task)]
async fn protocol_error_job() -> Result<String, Refusal> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    Err(Refusal::new(
        tool_core::code::INTERNAL,
        "protocol_error_job: intentional protocol-level failure",
    ))
}

/// Whether to delete, as a form.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct DeleteConfirm {
    /// Whether to go ahead.
    confirm: bool,
}

/// Runs only as a task, and asks before it deletes: the task waits, `input_required`, for the
/// answer a `tasks/update` brings.
#[tool(destructive, task = "required")]
async fn confirm_delete(
    ctx: &Context,
    /// The file.
    filename: Option<String>,
) -> Result<String, Refusal> {
    let filename = filename.unwrap_or_else(|| "file.txt".to_owned());
    let confirmed = match ctx
        .ask::<DeleteConfirm>(format!("Delete {filename}?"))
        .await?
    {
        Answer::Given(DeleteConfirm { confirm }) => confirm,
        Answer::Declined | Answer::Cancelled => false,
    };
    Ok(format!(
        "confirm_delete({filename}): confirmed = {confirmed}"
    ))
}

/// One value, as a form.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Given {
    /// The value.
    value: String,
}

/// Runs only as a task, and asks two questions at once: both wait in the task together.
#[tool(readonly, task = "required")]
async fn multi_input(ctx: &Context) -> Result<String, Refusal> {
    let (a, b) = tokio::join!(
        ctx.ask::<Given>("Provide value A"),
        ctx.ask::<Given>("Provide value B"),
    );
    let given = |answer: Answer<Given>| match answer {
        Answer::Given(Given { value }) => value,
        Answer::Declined | Answer::Cancelled => "(none)".to_owned(),
    };
    Ok(format!("multi_input: a = {}, b = {}", given(a?), given(b?)))
}

/// Asks for a name while its client waits (an `input_required` round), then greets as a task
/// once the name comes (SEP-2663's composition of a round and a task).
#[tool(readonly, task = "after_input")]
async fn test_tool_with_task(ctx: &Context) -> Result<String, Refusal> {
    let name = match ctx.ask::<UserName>("What is your name?").await? {
        Answer::Given(UserName { name }) => name,
        Answer::Declined | Answer::Cancelled => "friend".to_owned(),
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}! (async)"))
}

/// A tool whose input schema is JSON Schema 2020-12 written by hand, as the suite writes it:
/// published as written, and every call held to all of it (`if`/`then`/`else` and the `anyOf`
/// of required fields included) before it runs.
struct JsonSchema2020Tool(InputSchema);

impl JsonSchema2020Tool {
    const NAME: &str = "json_schema_2020_12_tool";

    fn new() -> Self {
        let schema = serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        });
        JsonSchema2020Tool(InputSchema::new(
            schema.as_object().cloned().unwrap_or_default(),
        ))
    }
}

impl Tool for JsonSchema2020Tool {
    fn definition(&self) -> ToolDefinition {
        ToolDefinition::new(
            Self::NAME,
            "Tool with JSON Schema 2020-12 features",
            self.0.schema().clone(),
        )
        .as_written()
    }

    fn call<'a>(
        &'a self,
        arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async move {
            let contact: serde_json::Value = self.0.read(arguments, Self::NAME)?;
            Ok(Output::text(format!("contact: {contact}")))
        })
    }
}

/// The registry, in the order the suite reads it: `test_simple_text` first.
fn registry() -> Result<Registry, tool_core::registry::RegistryError> {
    // Served over MCP only: Gemini has no form for the 2020-12 tool's `if`.
    Registry::builder()
        .providers([Provider::Mcp])
        .tool(TestSimpleText)
        .tool(TestImageContent)
        .tool(TestAudioContent)
        .tool(TestEmbeddedResource)
        .tool(TestMultipleContentTypes)
        .tool(TestErrorHandling)
        .tool(TestToolWithProgress)
        .tool(TestElicitation)
        .tool(TestElicitationSep1034Defaults)
        .tool(TestElicitationSep1330Enums)
        .tool(TestToolWithLogging)
        .tool(TestLoggingTool)
        .tool(TestTriggerToolChange)
        .tool(TestInputRequiredResultElicitation)
        .tool(TestSampling)
        .tool(TestInputRequiredResultSampling)
        .tool(TestInputRequiredResultListRoots)
        .tool(TestMissingCapability)
        .tool(TestInputRequiredResultCapabilities)
        .tool(TestInputRequiredResultMultipleInputs)
        .tool(TestInputRequiredResultRequestState)
        .tool(TestInputRequiredResultTamperedState)
        .tool(TestInputRequiredResultMultiRound)
        .tool(Greet)
        .tool(TestCustomHeader)
        .tool(TestReconnection)
        .tool(JsonSchema2020Tool::new())
        .tool(SlowCompute)
        .tool(FailingJob)
        .tool(ProtocolErrorJob)
        .tool(ConfirmDelete)
        .tool(MultiInput)
        .tool(TestToolWithTask)
        .build()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let mut args = std::env::args().skip(1);
    let usage = "use --http ADDR [--stateless]";
    if args.next().as_deref() != Some("--http") {
        return Err(usage.into());
    }
    let addr: SocketAddr = args.next().ok_or(usage)?.parse()?;
    let stateless = match args.next().as_deref() {
        None => false,
        Some("--stateless") => true,
        Some(other) => return Err(format!("unknown argument `{other}`; {usage}").into()),
    };
    let registry = registry()?;
    let server = McpServer::new(registry.clone())
        .with_name("tool-core-conformance", env!("CARGO_PKG_VERSION"))
        .with_context(Context::new().with_extension(registry))
        .with_handler(conformance::SuiteContent::default());
    let server = if stateless {
        // The suite's stream scenarios resume a broken answer stream.
        server.stateless().with_resumable_streams()
    } else {
        server
    };
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let (bound, serving) = server.bind_http(addr, shutdown).await?;
    // The tests read this line to learn the port when asked for port 0.
    println!("listening on http://{bound}/mcp");
    serving.await?;
    Ok(())
}
