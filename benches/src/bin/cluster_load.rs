//! A load generator for the example MCP server served without sessions (`--stateless`): calls
//! per second through nginx to 1, 2 and 3 replicas, and the latency of one call at a time
//! through nginx against a direct call to one replica. It starts the replicas and nginx itself
//! (nginx with the README's config, in a folder of its own) and stops them when it ends.
//!
//! ```sh
//! cargo build --release -p tool-examples --example mcp_server
//! cargo run --release -p tool-benches --bin cluster_load -- [SECONDS] [CONCURRENCY]
//! ```
//!
//! Each call is a `tools/call` of `note_search` POSTed on its own, as a 2025-11-25 client
//! without a session sends it, and read to its end (an SSE stream holding the result).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tool_benches::load::Load;

type Error = Box<dyn std::error::Error>;

/// A child process, killed and reaped when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| "SECONDS is a whole number, as 10")?,
        None => 10,
    };
    let concurrency: usize = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| "CONCURRENCY is a whole number, as 32")?,
        None => 32,
    };
    let window = Duration::from_secs(seconds);
    // ring's provider, which rustls deprecates for its lack of post-quantum key exchange:
    // what tool-mcp installs when a host chooses none, so the load is measured on it.
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;

    let server = example_server()?;
    let nginx = nginx()?;
    let mut replicas = Vec::new();
    let mut upstreams = Vec::new();
    for _ in 0..3 {
        let (guard, authority) = replica(&server)?;
        replicas.push(guard);
        upstreams.push(authority);
    }
    let folder = std::env::temp_dir().join(format!("cluster-load-{}", std::process::id()));
    std::fs::create_dir_all(&folder)?;

    println!("| replicas behind nginx | calls/s ({concurrency} at once, {seconds} s) |");
    println!("|---|---|");
    for count in 1..=3 {
        let (_nginx, url) = start_nginx(&nginx, &folder, &upstreams[..count])?;
        let load = runtime.block_on(drive(&url, concurrency, window))?;
        println!("| {count} | {:.0} |", load.per_second);
    }

    println!();
    println!("| one call at a time ({seconds} s) | p50 | p99 | calls |");
    println!("|---|---|---|---|");
    let direct = format!("http://{}/mcp", upstreams[0]);
    let alone = runtime.block_on(drive(&direct, 1, window))?;
    println!(
        "| direct to one replica | {:?} | {:?} | {} |",
        alone.p50, alone.p99, alone.calls
    );
    let (_nginx, url) = start_nginx(&nginx, &folder, &upstreams)?;
    let through = runtime.block_on(drive(&url, 1, window))?;
    println!(
        "| through nginx (3 replicas) | {:?} | {:?} | {} |",
        through.p50, through.p99, through.calls
    );
    drop(replicas);
    let _ = std::fs::remove_dir_all(&folder);
    Ok(())
}

/// Makes calls to `url` from `concurrency` loops at once for `window`, after a second of
/// warming up; any call not answered with a result stops the run with its error.
async fn drive(url: &str, concurrency: usize, window: Duration) -> Result<Load, Error> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()?;
    let url: std::sync::Arc<str> = url.into();
    let ids = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let call = move || {
        let (client, url, ids) = (client.clone(), url.clone(), ids.clone());
        async move {
            let id = ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            call(&client, &url, id).await
        }
    };
    Ok(tool_benches::load::drive(concurrency, Duration::from_secs(1), window, call).await?)
}

async fn call(client: &reqwest::Client, url: &str, id: usize) -> Result<(), String> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"note_search","arguments":{{"filter":{{"tags":["x"]}}}}}}}}"#
    );
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .body(body)
        .send()
        .await
        .map_err(|error| format!("a call to {url} failed: {error}"))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|error| format!("reading an answer from {url} failed: {error}"))?;
    if !status.is_success() || !text.contains(r#""result""#) || text.contains(r#""isError":true"#) {
        return Err(format!("{url} answered {status} without a result: {text}"));
    }
    Ok(())
}

/// The example server, built beside this binary.
fn example_server() -> Result<PathBuf, Error> {
    let binary = std::env::current_exe()?
        .parent()
        .map(|profile| profile.join("examples").join("mcp_server"))
        .ok_or("this binary has no folder")?;
    if !binary.exists() {
        return Err(format!(
            "{} is missing: build it first with `cargo build --release -p tool-examples \
             --example mcp_server`",
            binary.display()
        )
        .into());
    }
    Ok(binary)
}

fn nginx() -> Result<PathBuf, Error> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|folder| folder.join("nginx"))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| "nginx was not found: install it (Debian: `apt-get install nginx`)".into())
}

/// A stateless replica on a free loopback port, and its `HOST:PORT`.
fn replica(server: &Path) -> Result<(Guard, String), Error> {
    let mut child = Guard(
        Command::new(server)
            .args(["--http", "127.0.0.1:0", "--stateless"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let stdout = child
        .0
        .stdout
        .take()
        .ok_or("the replica's stdout is piped")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let authority = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .ok_or_else(|| format!("expected `listening on URL` from the replica, got {line:?}"))?
        .to_owned();
    Ok((child, authority))
}

/// nginx in front of `upstreams`, in `folder`, with the README's config; waits until it
/// listens.
fn start_nginx(
    nginx: &Path,
    folder: &Path,
    upstreams: &[String],
) -> Result<(Guard, String), Error> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let servers: String = upstreams
        .iter()
        .map(|upstream| format!("server {upstream} max_fails=1 fail_timeout=10s;\n"))
        .collect();
    let prefix = folder.display();
    let config = format!(
        "daemon off; worker_processes 1; pid {prefix}/nginx.pid; error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {prefix}/client_body; proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
  upstream mcp_replicas {{ {servers} keepalive 32; }}
  server {{
    listen 127.0.0.1:{port};
    location /mcp {{
      proxy_pass http://mcp_replicas; proxy_http_version 1.1;
      proxy_set_header Connection \"\"; proxy_set_header Host $host;
      proxy_buffering off; proxy_connect_timeout 2s; proxy_read_timeout 60s;
      proxy_next_upstream error timeout; proxy_next_upstream_tries 3;
      proxy_next_upstream_timeout 10s;
    }}
  }}
}}
"
    );
    let path = folder.join("nginx.conf");
    std::fs::write(&path, config)?;
    let mut child = Guard(
        Command::new(nginx)
            .arg("-p")
            .arg(folder)
            .arg("-c")
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.0.try_wait()? {
            return Err(format!("nginx ended ({status}); see {prefix}/error.log").into());
        }
        if Instant::now() > deadline {
            return Err(format!("nginx did not listen within 10 s; see {prefix}/error.log").into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok((child, format!("http://127.0.0.1:{port}/mcp")))
}
