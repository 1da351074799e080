//! Debian's nginx, which the cluster tests put in front of several example servers: found on
//! the PATH (or in `/usr/sbin`, where Debian puts it), else installed with `apt-get` when the
//! tests run as root on a machine that has it, behind a file lock as the SDKs are. When it can
//! be neither found nor installed, every test that needs it fails with one line saying what to
//! install: never a skip.
//!
//! The nginx a test starts runs in the foreground (`daemon off;`, so that the test's guard
//! stops it) with its pid file, logs and temporary files in the test's own folder.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use super::clients::clients_dir;
use super::process::{ChildGuard, run_within};

/// How long installing nginx may take before it is given up.
const INSTALL_LIMIT: Duration = Duration::from_secs(600);

/// What a run without nginx is told to do.
const INSTALL_HINT: &str = "nginx was not found: install it (Debian: `apt-get install nginx`) \
                            and run `cargo test` again";

/// The nginx binary, installed first if need be (see the module's notes).
pub fn nginx() -> PathBuf {
    static NGINX: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match NGINX.get_or_init(find_or_install) {
        Ok(path) => path.clone(),
        Err(line) => panic!("{line}"),
    }
}

fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|folder| folder.join("nginx"))
        .find(|candidate| candidate.is_file())
}

fn find_or_install() -> Result<PathBuf, String> {
    if let Some(found) = find() {
        return Ok(found);
    }
    if !is_root() || !Path::new("/usr/bin/apt-get").exists() {
        return Err(INSTALL_HINT.to_owned());
    }
    let folder = clients_dir();
    fs::create_dir_all(&folder)
        .map_err(|error| format!("creating {}: {error}", folder.display()))?;
    let lock_path = folder.join("nginx.lock");
    let lock = File::create(&lock_path)
        .map_err(|error| format!("creating {}: {error}", lock_path.display()))?;
    lock.lock()
        .map_err(|error| format!("locking {}: {error}", lock_path.display()))?;
    // Another test binary may have installed it while this one waited for the lock.
    if let Some(found) = find() {
        return Ok(found);
    }
    let install = || {
        run_within(
            Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends", "nginx"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
            INSTALL_LIMIT,
            "apt-get install nginx",
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
            "nginx was not found and `apt-get install nginx` failed (it said `{said}`): \
             install nginx and run `cargo test` again"
        ));
    }
    find().ok_or_else(|| INSTALL_HINT.to_owned())
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

/// The `nginx.conf` the README shows, for `upstreams` (`127.0.0.1:PORT` each), listening on
/// `listen`, with every file nginx writes under `folder`.
pub fn config(folder: &Path, listen: &str, upstreams: &[String]) -> String {
    let folder = folder.display();
    let servers: String = upstreams
        .iter()
        .map(|upstream| format!("        server {upstream} max_fails=1 fail_timeout=10s;\n"))
        .collect();
    format!(
        "daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{README}
    server {{
        listen {listen};
{LOCATION}
    }}
}}
",
        README = UPSTREAM.replace("{servers}", &servers),
        LOCATION = LOCATION,
    )
}

/// The upstream block the README shows; `{servers}` is one `server` line a replica.
const UPSTREAM: &str = "    upstream mcp_replicas {
{servers}        keepalive 32;
    }";

/// The location block the README shows.
const LOCATION: &str = "        location /mcp {
            proxy_pass http://mcp_replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_set_header Host $host;
            # Progress reaches the client as the replica sends it.
            proxy_buffering off;
            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
            # A replica that refuses the connection is skipped; a call it was already
            # running is not sent again, since a tool may not be safe to run twice.
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 3;
            proxy_next_upstream_timeout 10s;
            # Which replica answered, for the tests (and a reader of a client's log).
            add_header X-Replica $upstream_addr always;
        }";

/// Starts nginx with `config` written into `folder` (its prefix too): the running nginx,
/// stopped when dropped. It waits until nginx accepts connections on `port`.
pub fn start(folder: &Path, config: &str, port: u16) -> ChildGuard {
    let path = folder.join("nginx.conf");
    fs::write(&path, config).unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
    let mut check = Command::new(nginx());
    check.arg("-t").arg("-p").arg(folder).arg("-c").arg(&path);
    let checked = run_within(&mut check, Duration::from_secs(30), "nginx -t");
    assert!(
        checked.status.success(),
        "nginx refused the test's config: {}",
        checked.stderr
    );
    let mut server = ChildGuard::spawn(
        Command::new(nginx())
            .arg("-p")
            .arg(folder)
            .arg("-c")
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        "nginx",
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = server.try_wait() {
            let log = fs::read_to_string(folder.join("error.log")).unwrap_or_default();
            panic!("nginx ended ({status}) before it listened; its log:\n{log}");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "nginx did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    server
}
