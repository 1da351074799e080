//! The cargo features, as a user meets them, in crates outside this workspace that depend on
//! tool-core and tool-mcp with exactly the features they name (the crates patched in from
//! this checkout, at the versions this workspace locks):
//!
//! - the README's table lists every feature of both crates, and the crates each pulls in;
//! - with no features, a stdio server compiles and both crates' docs build with no broken
//!   link; a rule a feature checks (a pattern, a date-time format) is refused when the
//!   registry is made, naming the feature, and a setting whose feature is off is a compile
//!   error naming it;
//! - each documented feature alone compiles a crate that uses what it adds (`cargo check`:
//!   what a feature could leave out is a name or a type, which checking finds without the
//!   code generation and linking of a build).
//!
//! And the workspace's own builds (the lint and the tests) turn on every feature of each library
//! crate between them: they are the builds with all features.
//!
//! The crates share one target directory with the README's tour, so what they have in common
//! is built once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use tool_tests::user_crates::{self, root};

/// A manifest of this workspace, read.
fn manifest(path: &str) -> toml::Table {
    let text = std::fs::read_to_string(root().join(path)).expect("the manifest reads");
    text.parse().expect("the manifest is TOML")
}

/// A manifest's `[features]` table.
fn features_table(manifest: &toml::Table) -> &toml::Table {
    manifest["features"].as_table().expect("a [features] table")
}

/// The features of a library crate's manifest, each with the optional crates it adds.
fn features_of(path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let table = manifest(path);
    features_table(&table)
        .iter()
        .filter(|(name, _)| name.as_str() != "default")
        .map(|(name, enables)| {
            let pulls: BTreeSet<String> = enables
                .as_array()
                .expect("a list")
                .iter()
                .filter_map(|entry| entry.as_str()?.strip_prefix("dep:").map(str::to_owned))
                .collect();
            (name.clone(), pulls)
        })
        .collect()
}

/// The README's "Features" table: (crate, feature) → the crates its last column names.
fn readme_features() -> BTreeMap<(String, String), BTreeSet<String>> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README reads");
    let section = readme
        .split_once("\n## Features\n")
        .expect("the README has a Features section")
        .1;
    let section = section.split("\n## ").next().unwrap_or(section);
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(
                cells.len(),
                4,
                "a row of crate, feature, adds, pulls in: {line}"
            );
            let krate = ticked(cells[0]).concat();
            let feature = ticked(cells[1]).concat();
            ((krate, feature), ticked(cells[3]).into_iter().collect())
        })
        .collect()
}

#[test]
fn the_readme_lists_every_feature_and_the_crates_it_pulls_in() {
    let readme = readme_features();
    let mut manifests = BTreeMap::new();
    for (krate, manifest) in [
        ("tool-core", "tool-core/Cargo.toml"),
        ("tool-mcp", "tool-mcp/Cargo.toml"),
    ] {
        for (feature, pulls) in features_of(manifest) {
            manifests.insert((krate.to_owned(), feature), pulls);
        }
    }
    assert_eq!(
        readme.keys().collect::<Vec<_>>(),
        manifests.keys().collect::<Vec<_>>(),
        "the README's table and the manifests name other features"
    );
    for (key, pulls) in &manifests {
        assert_eq!(
            &readme[key], pulls,
            "{key:?}: the README says it pulls in other crates than its manifest's `dep:`s"
        );
    }
}

/// The features of `krate` (whose manifest is `table`) that `asked` turns on, each with what
/// it turns on in its turn, and the `other/feature`s of other crates among them.
fn turned_on(table: &toml::Table, asked: BTreeSet<String>) -> (BTreeSet<String>, BTreeSet<String>) {
    let features = features_table(table);
    let (mut own, mut others) = (BTreeSet::new(), BTreeSet::new());
    let mut next: Vec<String> = asked.into_iter().collect();
    while let Some(feature) = next.pop() {
        if !own.insert(feature.clone()) {
            continue;
        }
        let enables = features.get(&feature).and_then(|list| list.as_array());
        for entry in enables
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.as_str())
        {
            match entry.split_once('/') {
                Some(_) => drop(others.insert(entry.replace("?/", "/"))),
                None if !entry.starts_with("dep:") => next.push(entry.to_owned()),
                None => {}
            }
        }
    }
    (own, others)
}

/// The features of a manifest's `[features]` table, `default` among them.
fn all_features(table: &toml::Table) -> BTreeSet<String> {
    features_table(table).keys().cloned().collect()
}

#[test]
fn the_workspace_s_builds_turn_on_every_feature_of_each_library_crate() {
    // `cargo clippy --workspace` and `cargo test --workspace` build each library crate with
    // every feature its members ask for between them: CI's lint and test builds are the builds
    // with all features, which it then need not check apart.
    let workspace = manifest("Cargo.toml");
    let members = workspace["workspace"]["members"]
        .as_array()
        .expect("a members list");
    let mut asked: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for member in members.iter().filter_map(|member| member.as_str()) {
        let table = manifest(&format!("{member}/Cargo.toml"));
        for section in ["dependencies", "dev-dependencies"] {
            let Some(dependencies) = table.get(section).and_then(|deps| deps.as_table()) else {
                continue;
            };
            for krate in ["tool-core", "tool-mcp"] {
                let Some(dependency) = dependencies.get(krate).and_then(|dep| dep.as_table())
                else {
                    continue;
                };
                let features = dependency.get("features").and_then(|list| list.as_array());
                let names = features
                    .into_iter()
                    .flatten()
                    .filter_map(|name| name.as_str());
                let wanted = asked.entry(krate).or_default();
                wanted.extend(names.map(str::to_owned));
                let defaults = dependency
                    .get("default-features")
                    .and_then(|on| on.as_bool());
                if defaults != Some(false) {
                    wanted.insert("default".to_owned());
                }
            }
        }
    }
    let mut others = BTreeSet::new();
    for (krate, path) in [("tool-core", "tool-core"), ("tool-mcp", "tool-mcp")] {
        let table = manifest(&format!("{path}/Cargo.toml"));
        let (own, theirs) = turned_on(&table, asked.remove(krate).unwrap_or_default());
        assert_eq!(
            own,
            all_features(&table),
            "the features of {krate} the workspace turns on"
        );
        others.extend(theirs);
    }
    let macros = manifest("tool-macros/Cargo.toml");
    let on: BTreeSet<String> = (others.iter())
        .filter_map(|feature| feature.strip_prefix("tool-core-macros/"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        on,
        all_features(&macros),
        "the features of tool-core-macros the workspace turns on"
    );
}

/// A crate outside the workspace, named `name`, depending on tool-core (and tool-mcp) with
/// exactly `features`, whose `src/main.rs` is `main`.
fn user_crate(name: &str, core: &[&str], mcp: Option<&[&str]>, main: &str) -> PathBuf {
    let root = root();
    let dir = root.join("target").join("feature-crates").join(name);
    std::fs::create_dir_all(dir.join("src")).expect("target/ is writable");
    let list = |features: &[&str]| {
        features
            .iter()
            .map(|feature| format!("{feature:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut manifest = format!(
        "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n\
         tool-core = {{ version = \"0.1\", default-features = false, features = [{}] }}\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\
         schemars = \"1\"\ntokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n\
         anyhow = \"1\"\n",
        list(core)
    );
    if let Some(mcp) = mcp {
        manifest.push_str(&format!(
            "tool-mcp = {{ version = \"0.1\", default-features = false, features = [{}] }}\n",
            list(mcp)
        ));
    }
    for (krate, folder) in [
        ("tool-core", "tool-core"),
        ("tool-core-macros", "tool-macros"),
        ("tool-mcp", "tool-mcp"),
    ] {
        if krate == "tool-core" {
            manifest.push_str("\n[patch.crates-io]\n");
        }
        manifest.push_str(&format!(
            "{krate} = {{ path = {:?} }}\n",
            root.join(folder).display()
        ));
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writes");
    std::fs::write(dir.join("src").join("main.rs"), main).expect("writes");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copies");
    dir
}

/// Runs `cargo <verb>` in `dir`, in the target directory users' crates share.
fn cargo(dir: &Path, verb: &str) -> Output {
    user_crates::cargo(dir, verb).output().expect("cargo runs")
}

/// What rustc says checking `main` in a crate named `name` with no features of tool-core's and
/// `mcp` of tool-mcp's, which must not compile.
fn refused_to_compile(name: &str, mcp: Option<&[&str]>, main: &str) -> String {
    let checked = cargo(&user_crate(name, &[], mcp, main), "check");
    assert!(!checked.status.success(), "{name} compiled");
    String::from_utf8_lossy(&checked.stderr).into_owned()
}

/// A `main` that builds an empty registry, `registry`, then runs `lines`.
fn main_over_a_registry(lines: &str) -> String {
    format!(
        "fn main() {{\n    let registry = tool_core::Registry::builder().build().unwrap();\n    {lines}\n}}\n"
    )
}

/// A tool written by hand with the input schema `field` for its one field `value`.
const RAW_TOOL: &str = r#"
struct Raw(&'static str, serde_json::Value);

impl tool_core::tool::Tool for Raw {
    fn definition(&self) -> tool_core::tool::ToolDefinition {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"value": self.1},
            "additionalProperties": false
        });
        tool_core::tool::ToolDefinition::new(self.0, "A tool.", schema.as_object().unwrap().clone())
    }

    fn call<'a>(
        &'a self,
        _: &'a tool_core::call::Arguments,
        _: &'a tool_core::Context,
    ) -> tool_core::call::BoxFuture<'a, Result<tool_core::outcome::Output, tool_core::Refusal>> {
        Box::pin(async { Ok(tool_core::outcome::Output::Empty) })
    }
}
"#;

#[test]
fn without_a_feature_its_rules_are_refused_and_its_settings_do_not_compile() {
    // A rule a feature checks, on a registry built without it: refused, naming the feature.
    let main = format!(
        "{RAW_TOOL}\nfn main() {{\n    let error = tool_core::Registry::builder()\n        \
         .tool(Raw(\"tag_read\", serde_json::json!({{\"type\": \"string\", \"pattern\": \"^a\"}})))\n        \
         .tool(Raw(\"day_read\", serde_json::json!({{\"type\": \"string\", \"format\": \"date-time\"}})))\n        \
         .build()\n        .err()\n        .expect(\"refused\");\n    println!(\"{{error}}\");\n}}\n"
    );
    let dir = user_crate("no-features", &[], None, &main);
    let ran = cargo(&dir, "run");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success(), "{ran:?}");
    assert!(
        stdout.contains("`tag_read`: value: the pattern \"^a\" is checked with tool-core's `patterns` feature, which is off"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`day_read`: value: the format `date-time` is checked with tool-core's `formats` feature, which is off"),
        "{stdout}"
    );

    // A setting whose feature is off: a compile error naming it.
    let settings = [
        (
            "off-rate-limits",
            "let limit = tool_core::RateLimit::per_caller(std::num::NonZeroU32::MIN, std::time::Duration::from_secs(1));\n    let _ = registry.with_rate_limit(limit);",
            "rate limits need tool-core's `rate-limits` feature",
        ),
        (
            "off-search",
            "let _ = registry.search(\"a note\", 5);",
            "search and deferred loading need tool-core's `search` feature",
        ),
        (
            "off-deferred",
            "let _ = registry.with_deferred_loading([\"note_read\"]);",
            "search and deferred loading need tool-core's `search` feature",
        ),
        (
            "off-call-records",
            "let _ = registry.with_observer(|record: tool_core::CallRecord| drop(record));",
            "call records need tool-core's `call-records` feature",
        ),
        (
            "off-artifacts",
            "let _ = tool_core::Artifacts::over(16 * 1024);",
            "the item is gated behind the `artifacts` feature",
        ),
        ("off-rig", RIG, "the item is gated behind the `rig` feature"),
        (
            "off-async-openai",
            ASYNC_OPENAI,
            "the item is gated behind the `async-openai` feature",
        ),
        (
            "off-genai",
            GENAI,
            "the item is gated behind the `genai` feature",
        ),
        (
            "off-testing",
            "let _ = tool_core::testing::call(&registry, \"a\", serde_json::json!({}));",
            "the item is gated behind the `testing` feature",
        ),
        (
            "off-artifacts-setting",
            "let _ = registry.with_artifacts(());",
            "artifacts need tool-core's `artifacts` feature, which is off",
        ),
        (
            "off-snapshot",
            "tool_core::assert_exports_snapshot!(registry);",
            "`assert_exports_snapshot!` needs tool-core's `testing` feature, which is off",
        ),
    ];
    for (name, code, said) in settings {
        let stderr = refused_to_compile(name, None, &main_over_a_registry(code));
        assert!(stderr.contains(said), "{name}: {stderr}");
    }
    // With none of tool-mcp's features, a stdio server compiles: what each case below lacks
    // is its feature, not a crate that builds.
    let stdio = "#[tokio::main]\nasync fn main() {\n    let registry = tool_core::Registry::builder().build().unwrap();\n    \
                 let _ = tool_mcp::McpServer::new(registry).serve_stdio().await;\n}\n";
    let dir = user_crate("no-mcp-features", &[], Some(&[]), stdio);
    let checked = cargo(&dir, "check");
    assert!(
        checked.status.success(),
        "a stdio server with no features: {checked:?}"
    );
    // And that user's `cargo doc` of both crates has no link to an item a feature left out.
    let documented = user_crates::cargo(&dir, "doc")
        .args(["--no-deps", "-p", "tool-core", "-p", "tool-mcp"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    assert!(
        documented.status.success(),
        "the docs with no features: {}",
        String::from_utf8_lossy(&documented.stderr)
    );
    // tool-mcp's HTTP and asking settings over a build with neither.
    let server = "let server = tool_mcp::McpServer::new(registry);";
    const HTTP: &[&str] = &[
        "need tool-mcp's `http` feature, which is off",
        "features = [\"http\"]",
    ];
    const ASKING: &[&str] = &[
        "putting questions to the client needs tool-mcp's `asking` feature, which is off",
        "features = [\"asking\"]",
    ];
    let stdio_only: [(&str, &str, &[&str]); 10] = [
        (
            "off-http-serve",
            "let _ = server.serve_http(\"127.0.0.1:0\".parse().unwrap(), async {});",
            HTTP,
        ),
        ("off-http-stateless", "let _ = server.stateless();", HTTP),
        (
            "off-http-resumable",
            "let _ = server.with_resumable_streams();",
            HTTP,
        ),
        (
            "off-http-caller",
            "let _ = server.with_caller(|_| Some(\"alice\".to_owned()));",
            HTTP,
        ),
        (
            "off-http-grant",
            "let _ = server.with_grant(|_| tool_core::Grant::all());",
            HTTP,
        ),
        (
            "off-http-anonymous",
            "let _ = server.with_anonymous(tool_core::Grant::read_only());",
            HTTP,
        ),
        (
            "off-http-read-timeout",
            "let _ = server.with_read_timeout(std::time::Duration::from_secs(5));",
            HTTP,
        ),
        (
            "off-asking-confirmation",
            "let _ = server.with_confirmation(std::time::Duration::from_secs(60));",
            ASKING,
        ),
        (
            "off-asking-waiting",
            "let _ = server.with_waiting_calls(());",
            ASKING,
        ),
        (
            "off-asking-waiting-calls",
            "let _ = tool_mcp::WaitingCalls::default();",
            &["the item is gated behind the `asking` feature"],
        ),
    ];
    for (name, code, said) in stdio_only {
        let main = main_over_a_registry(&format!("{server}\n    {code}"));
        let stderr = refused_to_compile(name, Some(&[]), &main);
        assert!(
            said.iter().all(|said| stderr.contains(said)),
            "{name}: {stderr}"
        );
    }
    // Bearer tokens over a build with HTTP and without `oauth`.
    let main = main_over_a_registry(&format!(
        "{server}\n    let _ = server.with_bearer_auth(tool_mcp::auth::BearerAuth::jwt(\"a\", \"b\"));"
    ));
    let stderr = refused_to_compile("off-oauth", Some(&["http"]), &main);
    assert!(
        stderr.contains("the item is gated behind the `oauth` feature"),
        "{stderr}"
    );
    let pattern = "/// Reads a note.\n#[tool_core::tool]\nasync fn note_read(\n    /// Its tag.\n    \
                   #[schemars(regex(pattern = \"^a\"))]\n    tag: String,\n) -> String {\n    tag\n}\n\nfn main() {}\n";
    let stderr = refused_to_compile("off-patterns", None, pattern);
    assert!(
        stderr.contains("`regex(..)` is checked with tool-core's `patterns` feature, which is off"),
        "{stderr}"
    );
    // A handler returning anyhow's errors: one error, naming the feature.
    let anyhow = "/// Reads a note.\n#[tool_core::tool]\nasync fn note_read(id: u64) -> \
                  anyhow::Result<String> {\n    Ok(id.to_string())\n}\n\nfn main() {}\n";
    let stderr = refused_to_compile("off-anyhow", None, anyhow);
    assert!(
        stderr
            .contains("returning anyhow's errors needs tool-core's `anyhow` feature, which is off")
            && stderr.contains("due to 1 previous error"),
        "{stderr}"
    );
}

/// What a user of each adapter writes first: the registry's tools in the framework's types.
const RIG: &str = "let _ = tool_core::adapters::rig::tools(&registry);";
const ASYNC_OPENAI: &str = "let _ = tool_core::adapters::async_openai::chat_tools(&registry);";
const GENAI: &str = "let _ = tool_core::adapters::genai::tools(&registry);";

#[test]
fn each_documented_feature_alone_compiles_a_crate_that_uses_it() {
    let registry = "let registry = tool_core::Registry::builder().build().unwrap();";
    let core: [(&str, String); 11] = [
        (
            "search",
            format!(
                "{registry}\n    let _ = registry.search(\"a note\", 5);\n    let _ = registry.with_deferred_loading([\"note_read\"]);"
            ),
        ),
        (
            "rate-limits",
            format!(
                "{registry}\n    let _ = registry.with_rate_limit(tool_core::RateLimit::per_caller(std::num::NonZeroU32::MIN, std::time::Duration::from_secs(1)));"
            ),
        ),
        (
            "call-records",
            format!(
                "{registry}\n    let _ = registry.with_observer(|record: tool_core::CallRecord| drop(record));"
            ),
        ),
        (
            "artifacts",
            format!(
                "{registry}\n    let _ = registry.with_artifacts(tool_core::Artifacts::over(16 * 1024));"
            ),
        ),
        (
            "formats",
            "let _ = tool_core::Registry::builder().tool(Raw(\"day_read\", serde_json::json!({\"type\": \"string\", \"format\": \"date-time\"}))).build().unwrap();".to_owned(),
        ),
        (
            "patterns",
            "let _ = tool_core::Registry::builder().tool(Raw(\"tag_read\", serde_json::json!({\"type\": \"string\", \"pattern\": \"^a\"}))).build().unwrap();".to_owned(),
        ),
        (
            "anyhow",
            "let _ = tool_core::Registry::builder().tool(NoteRead).build().unwrap();".to_owned(),
        ),
        ("rig", format!("{registry}\n    {RIG}")),
        ("async-openai", format!("{registry}\n    {ASYNC_OPENAI}")),
        ("genai", format!("{registry}\n    {GENAI}")),
        (
            "testing",
            format!(
                "{registry}\n    let _ = tool_core::testing::call(&registry, \"a\", serde_json::json!({{}}));\n    tool_core::assert_exports_snapshot!(registry);"
            ),
        ),
    ];
    let anyhow_tool = "/// Reads a note.\n#[tool_core::tool]\nasync fn note_read(id: u64) -> anyhow::Result<String> {\n    Ok(id.to_string())\n}\n";
    let documented: BTreeSet<String> = readme_features()
        .into_keys()
        .filter(|(_, feature)| feature != "full")
        .map(|(krate, feature)| format!("{krate}/{feature}"))
        .collect();
    let mut built = BTreeSet::new();
    for (feature, body) in &core {
        let main = format!("{RAW_TOOL}\n{anyhow_tool}\nfn main() {{\n    {body}\n}}\n");
        let main = if *feature == "anyhow" {
            main
        } else {
            main.replace(anyhow_tool, "")
        };
        let checked = cargo(
            &user_crate(&format!("alone-{feature}"), &[feature], None, &main),
            "check",
        );
        assert!(checked.status.success(), "{feature}: {checked:?}");
        built.insert(format!("tool-core/{feature}"));
    }
    let mcp = [
        (
            "http",
            "let server = tool_mcp::McpServer::new(tool_core::Registry::builder().build().unwrap());\n    let _ = server.stateless().http_service();",
        ),
        ("remote", "let _ = tool_mcp::RemoteToolkit::from_env();"),
        (
            "redis",
            "let _ = tool_mcp::RedisTaskStore::open(\"redis://127.0.0.1:6379\");",
        ),
        (
            "remote-oauth",
            "let code = tool_mcp::AuthorizationCode::new(\"http://127.0.0.1:9/callback\", |url: String| async move { Ok::<_, String>(url) });\n    let _ = tool_mcp::RemoteToolkit::connect_http_authorized(\"a\", \"http://127.0.0.1:9/mcp\", tool_mcp::Revision::default(), tool_mcp::RemoteAuth::AuthorizationCode(code));",
        ),
        (
            "asking",
            "let server = tool_mcp::McpServer::new(tool_core::Registry::builder().build().unwrap());\n    let _ = server.with_confirmation(std::time::Duration::from_secs(60)).with_waiting_calls(tool_mcp::WaitingCalls::default());",
        ),
        (
            "testing",
            "let _ = tool_mcp::testing::connect(tool_mcp::McpServer::new(tool_core::Registry::builder().build().unwrap()));",
        ),
        (
            "oauth",
            "let server = tool_mcp::McpServer::new(tool_core::Registry::builder().build().unwrap());\n    let auth = tool_mcp::auth::BearerAuth::jwt(\"https://auth.example.com\", \"https://notes.example.com/mcp\");\n    let _ = server.with_bearer_auth(auth).http_router();",
        ),
    ];
    for (feature, body) in mcp {
        let main = format!("#[tokio::main]\nasync fn main() {{\n    {body}\n}}\n");
        let checked = cargo(
            &user_crate(
                &format!("alone-mcp-{feature}"),
                &[],
                Some(&[feature]),
                &main,
            ),
            "check",
        );
        assert!(checked.status.success(), "tool-mcp {feature}: {checked:?}");
        built.insert(format!("tool-mcp/{feature}"));
    }
    assert_eq!(built, documented, "every documented feature is built alone");
}

#[test]
fn without_asking_a_tool_that_asks_over_mcp_is_told_which_feature_to_turn_on() {
    // A server built without `asking`, its tool asking its user, called by an MCP client that
    // declares form elicitation (so that a server built to ask would ask it), over the lines
    // stdio carries.
    let main = r#"
use tool_core::{Context, Refusal};
use tool_mcp::rmcp::ServiceExt;
use tool_mcp::rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};

/// Publishes a note once its user says so.
#[tool_core::tool]
async fn note_publish(ctx: &Context) -> Result<String, Refusal> {
    ctx.ask::<bool>("Publish the note?").await?;
    Ok("asked".to_owned())
}

#[tokio::main]
async fn main() {
    let registry = tool_core::Registry::builder().tool(NotePublish).build().unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (reader, writer) = tokio::io::split(server_end);
    tokio::spawn(tool_mcp::McpServer::new(registry).serve_lines(reader, writer));
    let capabilities = ClientCapabilities::builder().enable_elicitation().build();
    let client = ClientConfig::new(capabilities, Implementation::new("asked", "1.0"))
        .serve(client_end)
        .await
        .unwrap();
    let answer = client.call_tool(CallToolRequestParams::new("note_publish")).await.unwrap();
    println!("{}", tool_mcp::testing::text(&answer));
}
"#;
    let dir = user_crate("off-asking-run", &[], Some(&["testing"]), main);
    let ran = cargo(&dir, "run");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success(), "{ran:?}");
    assert!(
        stdout.contains("cannot-ask")
            && stdout.contains("built without tool-mcp's `asking` feature")
            && stdout.contains("features = [\"asking\"]"),
        "{stdout}"
    );
}
