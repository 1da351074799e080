//! The client MCP's conformance suite (`@modelcontextprotocol/conformance`) runs for its client
//! scenarios: a [`RemoteToolkit`] connected to the suite's server, its tools in a registry,
//! called through the registry as any host calls them. The suite appends the server's URL
//! and names the scenario in `MCP_CONFORMANCE_SCENARIO` (with the revision to speak in
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` and the calls to make in `MCP_CONFORMANCE_CONTEXT`);
//! `tool-mcp/tests/conformance.rs` runs it for both pinned versions of the suite.
//!
//! ```sh
//! MCP_CONFORMANCE_SCENARIO=tools_call cargo run --example conformance_client -- http://127.0.0.1:3001/mcp
//! ```
//!
//! What the suite's server asks while a call runs (a form, a message from the client's
//! model, the client's roots) reaches the calling context's asker, here [`Scripted`]: it
//! accepts every form with the defaults the form gives, and answers as a model and with one
//! root would.

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tool_core::call::{Asker, BoxFuture, Offers, Question, Reply, Root, Sampled, SamplingRequest};
use tool_core::{Context, Refusal, Registry, ToolCall};
use tool_mcp::{AuthorizationCode, RemoteAuth, RemoteToolkit, Revision};

/// How long one scenario may take; the suite gives a client thirty seconds.
const SCENARIO_LIMIT: Duration = Duration::from_secs(25);

/// The asker of the client's context: a person who takes every default, a model that
/// answers in one line, one root.
struct Scripted;

impl Asker for Scripted {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        Box::pin(async move {
            let defaults: Map<String, Value> = question
                .form
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(field, schema)| Some((field.clone(), schema.get("default")?.clone())))
                .collect();
            Ok(Reply::Accept(defaults))
        })
    }

    fn offers(&self) -> Offers {
        Offers {
            forms: true,
            sampling: true,
            roots: true,
        }
    }

    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        Box::pin(async move {
            Ok(Sampled {
                text: format!("An answer to {} messages.", request.messages.len()),
                model: "conformance-client".to_owned(),
                stop_reason: Some("endTurn".to_owned()),
            })
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        Box::pin(async {
            Ok(vec![Root {
                uri: "file:///workspace".to_owned(),
                name: Some("workspace".to_owned()),
            }])
        })
    }
}

/// A call the suite names in its context.
#[derive(serde::Deserialize)]
struct Named {
    name: String,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct SuiteContext {
    #[serde(default)]
    tool_calls: Vec<Named>,
    /// A client registered beforehand (the auth scenarios' pre-registration and client
    /// credentials).
    #[serde(default, alias = "client_id")]
    client_id: Option<String>,
    #[serde(default, alias = "client_secret")]
    client_secret: Option<String>,
}

/// Where the suite's authorization server sends the user back to.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The client's metadata document, by the URL the suite's authorization server takes (SEP-991).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The user's part of the authorization-code grant, done without a browser: the suite's
/// authorization server answers the authorization URL with its redirect at once.
async fn authorize_headless(url: String) -> Result<String, String> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| error.to_string())?;
    let answer = http
        .get(&url)
        .send()
        .await
        .map_err(|error| error.to_string())?;
    let location = answer
        .headers()
        .get("location")
        .and_then(|value| value.to_str().ok());
    location.map(str::to_owned).ok_or_else(|| {
        format!(
            "the authorization URL answered {} without a redirect",
            answer.status()
        )
    })
}

/// How the toolkit gets its token in an auth scenario, or `None` for a scenario without.
fn auth_for(scenario: &str, suite: &SuiteContext) -> Option<RemoteAuth> {
    if !scenario.starts_with("auth/") {
        return None;
    }
    let registered = |default: &str| {
        suite
            .client_id
            .clone()
            .unwrap_or_else(|| default.to_owned())
    };
    Some(match scenario {
        "auth/client-credentials-basic" => RemoteAuth::ClientCredentials {
            client_id: registered("conformance-test-client"),
            client_secret: (suite.client_secret.clone())
                .unwrap_or_else(|| "conformance-test-secret".to_owned()),
            scopes: Vec::new(),
        },
        "auth/pre-registration" => RemoteAuth::AuthorizationCode(
            AuthorizationCode::new(REDIRECT_URI, authorize_headless).with_client(
                registered("conformance-test-client"),
                suite.client_secret.clone(),
            ),
        ),
        _ => RemoteAuth::AuthorizationCode(
            AuthorizationCode::new(REDIRECT_URI, authorize_headless)
                .with_client_name("tool-mcp conformance client")
                .with_client_metadata_url(CLIENT_METADATA_URL),
        ),
    })
}

/// Arguments for a tool the suite did not say how to call: each required field given a
/// value of its type.
fn arguments_for(schema: &Value) -> Value {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let arguments: Map<String, Value> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(field, _)| required.contains(&field.as_str()))
        .map(|(field, property)| {
            let value = match property["type"].as_str() {
                Some("number") => json!(1.0),
                Some("integer") => json!(1),
                Some("boolean") => json!(true),
                Some("object") => json!({}),
                Some("array") => json!([]),
                _ => json!("test"),
            };
            (field.clone(), value)
        })
        .collect();
    Value::Object(arguments)
}

async fn run(scenario: &str, url: &str) -> Result<(), Box<dyn std::error::Error>> {
    let revision = match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").as_deref() {
        Ok(version) if version >= "2026-07-28" => Revision::V2026_07_28,
        _ => Revision::V2025_11_25,
    };
    let suite: SuiteContext = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|context| serde_json::from_str(&context).ok())
        .unwrap_or_default();
    let remote = match auth_for(scenario, &suite) {
        Some(auth) => RemoteToolkit::connect_http_authorized("suite", url, revision, auth).await?,
        None => RemoteToolkit::connect_http_with("suite", url, revision).await?,
    };
    // The tools are called here and offered to no model, so no provider's limits apply (the
    // suite lists a tool whose schema refers outside itself, which none would take).
    let registry = remote.add_to(Registry::builder().providers([])).build()?;
    let ctx = Context::new().with_asker(Scripted);

    let calls: Vec<(String, Value)> = match scenario {
        // Connecting lists the tools, which is all these ask.
        "initialize" | "json-schema-ref-no-deref" => Vec::new(),
        // The focal tool's schema sent back as this client holds it.
        "json-schema-2020-12-preservation" => {
            let schema = remote
                .definitions()
                .iter()
                .find(|definition| definition.name == "json_schema_2020_12_tool")
                .map(|definition| definition.input_schema.clone())
                .ok_or("the server lists no `json_schema_2020_12_tool`")?;
            vec![("json_schema_echo".to_owned(), json!({ "schema": schema }))]
        }
        _ if !suite.tool_calls.is_empty() => suite
            .tool_calls
            .into_iter()
            .map(|call| (call.name, Value::Object(call.arguments.unwrap_or_default())))
            .collect(),
        _ => remote
            .definitions()
            .iter()
            .map(|definition| {
                let arguments = arguments_for(&Value::Object(definition.input_schema.clone()));
                (definition.name.clone(), arguments)
            })
            .collect(),
    };
    for (at, (name, arguments)) in calls.into_iter().enumerate() {
        let result = registry
            .call(ToolCall::new(at.to_string(), &name, arguments), &ctx)
            .await;
        match &result.outcome {
            Ok(output) => eprintln!("{name}: {output:?}"),
            Err(refusal) => eprintln!("{name} refused: {refusal}"),
        }
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("use: conformance_client URL (with MCP_CONFORMANCE_SCENARIO set)");
        return ExitCode::FAILURE;
    };
    match tokio::time::timeout(SCENARIO_LIMIT, run(&scenario, &url)).await {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(error)) => {
            eprintln!("{scenario}: {error}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("{scenario}: not done in {SCENARIO_LIMIT:?}");
            ExitCode::FAILURE
        }
    }
}
