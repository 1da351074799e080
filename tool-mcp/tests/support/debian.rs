//! Programs the tests start that come from Debian packages (nginx, redis-server, curl): found
//! on the PATH or in `/usr/sbin` and `/usr/bin`, else installed with `apt-get` when the tests
//! run as root on a machine that has it, behind a file lock as the SDKs are, so that several
//! test binaries install a package once. When a program can be neither found nor installed,
//! every test that needs it fails with one line saying what to install: never a skip.

use std::collections::HashMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use super::clients::clients_dir;
use super::process::run_within;

/// How long installing a package may take before it is given up.
const INSTALL_LIMIT: Duration = Duration::from_secs(600);

/// The path of `program`, from Debian's `package`, installed first if need be (see the
/// module's notes); the test panics with one line saying what to install otherwise.
pub fn program(program: &str, package: &str) -> PathBuf {
    static FOUND: Mutex<Option<HashMap<String, Result<PathBuf, String>>>> = Mutex::new(None);
    let mut found = FOUND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let answer = found
        .get_or_insert_with(HashMap::new)
        .entry(program.to_owned())
        .or_insert_with(|| find_or_install(program, package))
        .clone();
    drop(found);
    match answer {
        Ok(path) => path,
        Err(line) => panic!("{line}"),
    }
}

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|folder| folder.join(program))
        .find(|candidate| candidate.is_file())
}

fn find_or_install(program: &str, package: &str) -> Result<PathBuf, String> {
    let hint = format!(
        "{program} was not found: install it (Debian: `apt-get install {package}`) and run \
         `cargo test` again"
    );
    if let Some(found) = find(program) {
        return Ok(found);
    }
    if !is_root() || !Path::new("/usr/bin/apt-get").exists() {
        return Err(hint);
    }
    let folder = clients_dir();
    fs::create_dir_all(&folder)
        .map_err(|error| format!("creating {}: {error}", folder.display()))?;
    let lock_path = folder.join(format!("{package}.lock"));
    let lock = File::create(&lock_path)
        .map_err(|error| format!("creating {}: {error}", lock_path.display()))?;
    lock.lock()
        .map_err(|error| format!("locking {}: {error}", lock_path.display()))?;
    // Another test binary may have installed it while this one waited for the lock.
    if let Some(found) = find(program) {
        return Ok(found);
    }
    let what = format!("apt-get install {package}");
    let install = || {
        run_within(
            Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends", package])
                .env("DEBIAN_FRONTEND", "noninteractive"),
            INSTALL_LIMIT,
            &what,
        )
    };
    let mut finished = install();
    if !finished.status.success() && finished.stderr.contains("Unable to locate package") {
        // A fresh machine has no package lists yet.
        run_within(
            Command::new("apt-get").arg("update"),
            INSTALL_LIMIT,
            "apt-get update",
        );
        finished = install();
    }
    if !finished.status.success() {
        let said = finished
            .stderr
            .lines()
            .rev()
            .map(str::trim)
            .find(|line| !line.is_empty())
            .unwrap_or("nothing");
        return Err(format!(
            "{program} was not found and `{what}` failed (it said `{said}`): install {package} \
             and run `cargo test` again"
        ));
    }
    find(program).ok_or(hint)
}

fn is_root() -> bool {
    // `Uid:` is followed by the real, effective, saved and filesystem ids.
    fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}
