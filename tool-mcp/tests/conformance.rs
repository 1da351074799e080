//! MCP's own conformance suite (`@modelcontextprotocol/conformance`), both pinned versions with
//! `--suite all`, against `examples/conformance_server.rs` served with sessions and without
//! (`--stateless`). Every check the suite reports as failed or warned of must be listed in
//! `tests/conformance/expected-failures.txt`, under a heading that says why; a listed check
//! that now passes fails the test too, so the list stays the truth.
//!
//! The client scenarios run `examples/conformance_client.rs` (a remote toolkit in a registry)
//! against the suite's own servers: every one of each version but the suite's extensions (the
//! OAuth ones among them, with the authorization-code and client-credentials grants), and the
//! extension of the client-credentials grant. Each must pass whole, but those listed in
//! `CLIENT_EXPECTED_FAILURES` with why, and the list is held to the suite's own listing, so a
//! scenario a new version adds is not passed over.
//!
//! The suite needs Node.js 22 or later and is installed, with a Node.js where the machine's is
//! older, into `target/test-clients/` on first use (`support::clients`).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use support::clients::{CONFORMANCE_SUITES, conformance_suite, node22};
use support::process::{ChildGuard, run_within};

/// One run of the suite at a time: they share the machine's two cores, and the suite's own
/// checks of progress and streams wait on the server.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// How long one whole run of a suite may take (each scenario has its own limit inside it).
const RUN_LIMIT: Duration = Duration::from_secs(1200);

/// The conformance server on a free local port, with sessions or without.
fn conformance_server(stateless: bool) -> (ChildGuard, String) {
    let args: &[&str] = if stateless { &["--stateless"] } else { &[] };
    support::http_server(
        support::example("conformance_server"),
        args,
        "the conformance server",
    )
}

/// The scenario a result folder of the suite is for: `server-<scenario>-<timestamp>`.
fn scenario_of(folder: &str) -> Option<&str> {
    let rest = folder.strip_prefix("server-")?;
    // The timestamp is ISO 8601 with `:` and `.` made `-`: `2026-12-01T16-20-00-000Z`.
    let at = rest.char_indices().rev().find_map(|(at, _)| {
        let tail = &rest[at..];
        (tail.len() > 12
            && tail.starts_with('-')
            && tail[1..5].bytes().all(|b| b.is_ascii_digit())
            && tail.as_bytes().get(11) == Some(&b'T'))
        .then_some(at)
    })?;
    Some(&rest[..at])
}

/// Runs suite `package` against `url`, and returns each check it failed or warned of, as
/// `version mode scenario check`, with the number of scenarios it ran.
fn failed_checks(package: &'static str, mode: &str, url: &str) -> (BTreeSet<String>, usize) {
    let version = package.rsplit('@').next().unwrap_or(package);
    let out = std::env::temp_dir().join(format!(
        "tool-mcp-conformance-{version}-{mode}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let suite = conformance_suite(package);
    let finished = run_within(
        Command::new(node22())
            .arg(&suite)
            .args(["server", "--url", url, "--suite", "all", "-o"])
            .arg(&out),
        RUN_LIMIT,
        "the conformance suite",
    );
    let mut failed = BTreeSet::new();
    let mut scenarios = 0;
    for entry in std::fs::read_dir(&out).unwrap_or_else(|error| {
        panic!(
            "the conformance suite wrote no results to {} ({error}); it said:\n{}\n{}",
            out.display(),
            String::from_utf8_lossy(&finished.stdout),
            finished.stderr
        )
    }) {
        let folder = entry.expect("a result folder").path();
        let name = folder
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        let Some(scenario) = scenario_of(name) else {
            continue;
        };
        scenarios += 1;
        for check in checks_in(&folder.join("checks.json")) {
            let status = check["status"].as_str().unwrap_or("");
            if status == "FAILURE" || status == "WARNING" {
                let id = check["id"].as_str().unwrap_or("(no id)");
                failed.insert(format!("{version} {mode} {scenario} {id}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    (failed, scenarios)
}

fn checks_in(file: &Path) -> Vec<serde_json::Value> {
    let text =
        std::fs::read_to_string(file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()))
}

/// The expected failures: every line `version mode scenario check` below a `## why` heading.
fn expected_failures() -> (BTreeSet<String>, PathBuf) {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/expected-failures.txt");
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
    let mut why = None;
    let mut expected = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if let Some(heading) = line.strip_prefix("## ") {
            why = Some(heading);
        } else if !line.is_empty() && !line.starts_with('#') {
            assert!(
                why.is_some(),
                "{}: `{line}` is under no `## why` heading",
                file.display()
            );
            assert_eq!(
                line.split(' ').count(),
                4,
                "{}: `{line}` is not `version mode scenario check`",
                file.display()
            );
            expected.insert(line.to_owned());
        }
    }
    (expected, file)
}

/// Runs `package` against the server in `mode` and holds what failed to the expected list.
fn holds(package: &'static str, stateless: bool) {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poison| poison.into_inner());
    let mode = if stateless { "stateless" } else { "sessions" };
    let version = package.rsplit('@').next().unwrap_or(package);
    let (_server, url) = conformance_server(stateless);
    let (failed, scenarios) = failed_checks(package, mode, &url);
    assert!(
        scenarios >= 30,
        "the conformance suite {version} ran {scenarios} scenarios; expected every server scenario"
    );
    let (expected, file) = expected_failures();
    let prefix = format!("{version} {mode} ");
    let expected: BTreeSet<String> = expected
        .into_iter()
        .filter(|line| line.starts_with(&prefix))
        .collect();
    let unexpected: Vec<&String> = failed.difference(&expected).collect();
    let stale: Vec<&String> = expected.difference(&failed).collect();
    assert!(
        unexpected.is_empty() && stale.is_empty(),
        "conformance {version} ({mode}), against {}:\nfailed, and not expected ({}):\n{}\n\
         expected to fail, and passed (take them out) ({}):\n{}",
        file.display(),
        unexpected.len(),
        lines(&unexpected),
        stale.len(),
        lines(&stale),
    );
}

fn lines(items: &[&String]) -> String {
    items
        .iter()
        .map(|item| format!("  {item}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn suite_0_1_16_with_sessions() {
    holds(CONFORMANCE_SUITES[0], false);
}

#[test]
fn suite_0_1_16_without_sessions() {
    holds(CONFORMANCE_SUITES[0], true);
}

#[test]
fn suite_0_2_0_alpha_12_with_sessions() {
    holds(CONFORMANCE_SUITES[1], false);
}

#[test]
fn suite_0_2_0_alpha_12_without_sessions() {
    holds(CONFORMANCE_SUITES[1], true);
}

/// The client scenarios of each suite version the client is held to: every one the suite lists
/// but its extensions, in the suite's order.
const CLIENT_SCENARIOS: [&[&str]; 2] = [
    &[
        "initialize",
        "tools_call",
        "elicitation-sep1034-client-defaults",
        "sse-retry",
        "auth/metadata-default",
        "auth/metadata-var1",
        "auth/metadata-var2",
        "auth/metadata-var3",
        "auth/basic-cimd",
        "auth/scope-from-www-authenticate",
        "auth/scope-from-scopes-supported",
        "auth/scope-omitted-when-undefined",
        "auth/scope-step-up",
        "auth/scope-retry-limit",
        "auth/token-endpoint-auth-basic",
        "auth/token-endpoint-auth-post",
        "auth/token-endpoint-auth-none",
        "auth/pre-registration",
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback",
        "auth/resource-mismatch",
        "auth/offline-access-scope",
        "auth/offline-access-not-supported",
    ],
    &[
        "initialize",
        "tools_call",
        "elicitation-sep1034-client-defaults",
        "sse-retry",
        "request-metadata",
        "auth/metadata-default",
        "auth/metadata-var1",
        "auth/metadata-var2",
        "auth/metadata-var3",
        "auth/basic-cimd",
        "auth/scope-from-www-authenticate",
        "auth/scope-from-scopes-supported",
        "auth/scope-omitted-when-undefined",
        "auth/scope-step-up",
        "auth/scope-retry-limit",
        "auth/token-endpoint-auth-basic",
        "auth/token-endpoint-auth-post",
        "auth/token-endpoint-auth-none",
        "auth/pre-registration",
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback",
        "auth/resource-mismatch",
        "auth/offline-access-scope",
        "auth/offline-access-not-supported",
        "auth/authorization-server-migration",
        "auth/iss-supported",
        "auth/iss-not-advertised",
        "auth/iss-supported-missing",
        "auth/iss-wrong-issuer",
        "auth/iss-unexpected",
        "auth/iss-normalized",
        "auth/metadata-issuer-mismatch",
        "sep-2322-client-request-state",
        "http-standard-headers",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "json-schema-ref-no-deref",
        "json-schema-2020-12-preservation",
    ],
];

/// The extensions' client scenarios the client is held to as well: those of the grants the
/// remote toolkit takes (the others need a client signing its own JWTs, DPoP proofs, or an
/// identity provider's assertions, none of which it makes).
const CLIENT_EXTENSIONS: [&str; 1] = ["auth/client-credentials-basic"];

/// The client scenarios expected to fail, by suite version, each with why: the test fails when
/// one passes, so that the list shrinks as the suite is mended.
const CLIENT_EXPECTED_FAILURES: [(&str, &str, &str); 1] = [(
    "0.1.16",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "the suite's authorization server answers its well-known metadata with another issuer \
     (`…/oauth`) than the one the address is made from, which RFC 8414 (section 3.3) has a \
     client refuse; 0.2.0-alpha.12's version of the scenario passes",
)];

/// The client scenarios `package` lists, but its extensions': `  - name [revisions]`.
fn listed_client_scenarios(package: &'static str) -> Vec<String> {
    let listed = run_within(
        Command::new(node22())
            .arg(conformance_suite(package))
            .args(["list", "--client"]),
        Duration::from_secs(120),
        "the conformance suite's listing",
    );
    String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|line| line.trim().strip_prefix("- "))
        .filter(|entry| !entry.ends_with("[extension]"))
        .filter_map(|entry| entry.split(' ').next())
        .map(str::to_owned)
        .collect()
}

/// The `checks.json` of each result folder under `out`: `out/<scenario>-<time>/`, or, for a
/// scenario named with a slash (`auth/metadata-default`), `out/auth/metadata-default-<time>/`.
fn checks_files(out: &Path) -> Vec<PathBuf> {
    let folders = |at: &Path| -> Vec<PathBuf> {
        (std::fs::read_dir(at).into_iter().flatten().flatten())
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .collect()
    };
    let mut files = Vec::new();
    for folder in folders(out) {
        let file = folder.join("checks.json");
        if file.exists() {
            files.push(file);
        } else {
            let nested = folders(&folder)
                .into_iter()
                .map(|inner| inner.join("checks.json"));
            files.extend(nested.filter(|file| file.exists()));
        }
    }
    files
}

/// Runs each client scenario of `package` with the conformance client, and asks that every
/// one passes whole: the suite's verdict, at least one check, and none failed or warned of.
fn client_holds(package: &'static str, scenarios: &[&str]) {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poison| poison.into_inner());
    let version = package.rsplit('@').next().unwrap_or(package);
    assert_eq!(
        listed_client_scenarios(package),
        scenarios,
        "the client scenarios of conformance {version} (but its extensions) are not the ones \
         this test runs"
    );
    let client = support::example("conformance_client");
    let suite = conformance_suite(package);
    let mut failures = Vec::new();
    let expected: Vec<&str> = (CLIENT_EXPECTED_FAILURES.iter())
        .filter(|(at, _, _)| *at == version)
        .map(|(_, scenario, _)| *scenario)
        .collect();
    for scenario in scenarios.iter().chain(&CLIENT_EXTENSIONS) {
        let out = std::env::temp_dir().join(format!(
            "tool-mcp-conformance-client-{version}-{}-{}",
            scenario.replace('/', "-"),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&out);
        let finished = run_within(
            Command::new(node22())
                .arg(&suite)
                .arg("client")
                .arg("--command")
                .arg(&client)
                .args(["--scenario", scenario, "-o"])
                .arg(&out),
            RUN_LIMIT,
            "the conformance suite",
        );
        let checks: Vec<serde_json::Value> = checks_files(&out)
            .iter()
            .flat_map(|file| checks_in(file))
            .collect();
        let bad: Vec<String> = checks
            .iter()
            .filter(|check| matches!(check["status"].as_str(), Some("FAILURE" | "WARNING")))
            .map(|check| {
                format!(
                    "{} ({})",
                    check["id"].as_str().unwrap_or("(no id)"),
                    check["errorMessage"].as_str().unwrap_or("")
                )
            })
            .collect();
        let passed = checks
            .iter()
            .filter(|check| check["status"] == "SUCCESS")
            .count();
        let whole = finished.status.success() && passed > 0 && bad.is_empty();
        if expected.contains(scenario) {
            if whole {
                failures.push(format!(
                    "{scenario} is expected to fail (CLIENT_EXPECTED_FAILURES) and passed: \
                     take it off the list"
                ));
            }
        } else if !whole {
            failures.push(format!(
                "{scenario}: exit {}, {passed} checks passed, failed: {bad:?}\n{}",
                finished.status, finished.stderr
            ));
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(
        failures.is_empty(),
        "conformance {version}, client scenarios:\n{}",
        failures.join("\n")
    );
}

#[test]
fn client_scenarios_0_1_16() {
    client_holds(CONFORMANCE_SUITES[0], CLIENT_SCENARIOS[0]);
}

#[test]
fn client_scenarios_0_2_0_alpha_12() {
    client_holds(CONFORMANCE_SUITES[1], CLIENT_SCENARIOS[1]);
}

#[test]
fn result_folders_name_their_scenario() {
    assert_eq!(
        scenario_of("server-tools-call-simple-text-2026-12-01T16-20-00-000Z"),
        Some("tools-call-simple-text")
    );
    assert_eq!(
        scenario_of("server-ping-2026-12-01T16-20-00-000Z"),
        Some("ping")
    );
    assert_eq!(scenario_of("client-ping-2026"), None);
}
