//! Debian's nginx, which the cluster tests put in front of several example servers (found or
//! installed as [`super::debian`] says).
//!
//! The nginx a test starts runs in the foreground (`daemon off;`, so that the test's guard
//! stops it) with its pid file, logs and temporary files in the test's own folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::process::{ChildGuard, run_within};

/// The nginx binary, installed first if need be (see [`super::debian`]).
pub fn nginx() -> PathBuf {
    super::debian::program("nginx", "nginx")
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
