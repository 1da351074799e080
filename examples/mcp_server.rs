//! The quickstart's note tools as an MCP server: over stdio by default, or over streamable
//! HTTP with `--http [ADDR]` (default `127.0.0.1:8000`, served at `/mcp`).
//!
//! ```sh
//! cargo run --example mcp_server                 # stdio, for an MCP host to start
//! cargo run --example mcp_server -- --http       # http://127.0.0.1:8000/mcp
//! cargo run --example mcp_server -- --confirm    # ask the client's user before note_write
//! cargo run --example mcp_server -- --task-ttl-ms 2000   # a task may run, and its result is kept, for 2 s
//! cargo run --example mcp_server -- --http 127.0.0.1:8001 --stateless   # one of several replicas
//! cargo run --example mcp_server -- --http 127.0.0.1:8001 --stateless --redis redis://127.0.0.1:6379
//! cargo run --example mcp_server -- --http 127.0.0.1:8000 \
//!     --oauth-issuer https://auth.example.com --resource https://notes.example.com/mcp
//! ```
//!
//! With `--stateless` (HTTP only), it serves without sessions, so that replicas behind a load
//! balancer can each answer any request (the README's "Running several replicas"); each
//! replica keeps its own notes. With `--redis URL`, the state of tasks over HTTP is kept in
//! that Redis, so that each replica answers `tasks/*` for a task any of them started.
//!
//! With `--confirm` (before or after `--http`), every call of a destructive tool (`note_write`)
//! waits for the client's user to approve it, shown the call's arguments; a client that cannot
//! ask its user gets a `declined` refusal instead of a silent write. `note_publish` asks its
//! user for a title and an audience whether or not `--confirm` is given.
//!
//! Servers named in `TOOL_MCP_SERVERS` (`cmd args :: cmd args`) join the registry too, behind
//! the same grants. Over HTTP, an `x-caller` header names the caller, as a proxy in front of
//! the server would set it: a caller named `guest` may only search and count (a grant of
//! `note_search` and `note_count`), any other named caller may use every tool, and a request
//! without the header only the read-only tools. Over stdio the peer is the process that
//! started the server, and it may use every tool.
//!
//! With `--oauth-issuer ISSUER_URL --resource RESOURCE_URI` (HTTP only), every request needs a
//! bearer token of that issuer for that resource instead: the token's subject is the caller
//! (the `x-caller` header is not read), the read-only tools need the scope `notes:read`, the
//! others `notes:write` (a remote server's tools too, as their hints say), and the protected-resource metadata is served at
//! `/.well-known/oauth-protected-resource/mcp`.

mod notes;

use std::net::SocketAddr;

use notes::NoteStore;
use tool_core::{Collision, Context, Grant, Registry};
use tool_mcp::auth::BearerAuth;
use tool_mcp::{McpServer, RedisTaskStore, RemoteToolkit};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::prelude::*;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The host's log: what a model is not shown (a handler's error, a panic's text), on stderr,
    // since over stdio stdout carries the protocol; without colour codes, which a host that
    // keeps the log in a file would keep too. rmcp tells of every session and every stateless
    // request at INFO: only its warnings.
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(false),
        )
        .with(
            Targets::new()
                .with_default(LevelFilter::INFO)
                .with_target("rmcp", LevelFilter::WARN),
        )
        .init();
    let registry = notes::registry();
    for remote in RemoteToolkit::from_env().await? {
        // A remote server's tools need the scopes the notes' tools need, as their hints say:
        // told nothing, they would need none, and any token could call them.
        let remote = remote.with_scopes(|tool| match tool.annotations.read_only {
            true => ["notes:read"],
            false => ["notes:write"],
        });
        // The remote tools keep their connection open for as long as they are registered.
        let remote_tools = remote.add_to(Registry::builder()).build()?;
        registry.merge(&remote_tools, Collision::Error)?;
        eprintln!("serving the tools of `{}` too", remote.name());
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let issuer = take_value(&mut args, "--oauth-issuer", "https://auth.example.com")?;
    let resource = take_value(&mut args, "--resource", "https://notes.example.com/mcp")?;
    let server = McpServer::new(registry)
        .with_name("notes", env!("CARGO_PKG_VERSION"))
        .with_context(Context::new().with_extension(NoteStore::default()));
    let oauth = issuer.is_some();
    let server = match (issuer, resource) {
        // The token says who calls and, by its scopes, what it may call.
        (Some(issuer), Some(resource)) => {
            server.with_bearer_auth(BearerAuth::jwt(issuer, resource))
        }
        (None, None) => server
            .with_caller(|request| {
                request
                    .headers
                    .get("x-caller")
                    .and_then(|value| value.to_str().ok())
                    .map(str::to_owned)
            })
            // Every named caller gets every tool but `guest`, who may only search and count; a
            // request naming no caller only reads. What a caller is not granted it neither sees
            // nor runs. The header is trusted as the name of an authenticated user: a proxy in
            // front must set it, and take out one a client sent; a server reached without one
            // names its callers by token instead (--oauth-issuer).
            .with_grant(|caller| match caller {
                "guest" => Grant::names(["note_search", "note_count"]),
                _ => Grant::all(),
            })
            .with_anonymous(Grant::read_only()),
        _ => return Err("--oauth-issuer and --resource go together: give both".into()),
    };

    let server = match take_flag(&mut args, "--confirm") {
        true => server.with_confirmation(std::time::Duration::from_secs(300)),
        false => server,
    };
    let stateless = take_flag(&mut args, "--stateless");
    let server = match stateless {
        true => server.stateless(),
        false => server,
    };
    let server = match take_value(&mut args, "--task-ttl-ms", "2000")? {
        Some(ms) => {
            let ttl = ms.parse().map_err(
                |_| "--task-ttl-ms takes a whole number of milliseconds, as --task-ttl-ms 2000",
            )?;
            server.with_task_ttl(std::time::Duration::from_millis(ttl))
        }
        None => server,
    };
    let redis = take_value(&mut args, "--redis", "redis://127.0.0.1:6379")?;
    let shared = redis.is_some();
    let server = match redis {
        Some(url) => server.with_task_store(RedisTaskStore::open(&url)?),
        None => server,
    };
    let mut args = args.into_iter();
    match args.next().as_deref() {
        None if stateless => {
            return Err("--stateless is for HTTP: add --http [ADDR]".into());
        }
        None if oauth => {
            return Err("--oauth-issuer is for HTTP (over stdio the peer started the server): add --http [ADDR]".into());
        }
        // A stdio connection's tasks are its own, kept in memory.
        None if shared => {
            return Err(
                "--redis is for HTTP (a stdio connection's tasks are its own): add --http [ADDR]"
                    .into(),
            );
        }
        None => server.serve_stdio().await?,
        Some("--http") => {
            let addr = args.next().unwrap_or_else(|| "127.0.0.1:8000".to_owned());
            let addr: SocketAddr = addr.parse().map_err(|error| {
                format!("--http takes HOST:PORT, as --http 127.0.0.1:8000, not `{addr}`: {error}")
            })?;
            if let Some(other) = args.next() {
                return Err(unknown(&other).into());
            }
            let (bound, serving) = server.bind_http(addr, shutdown()).await?;
            // The tests read this line to learn the port when asked for port 0.
            println!("listening on http://{bound}/mcp");
            serving.await?;
        }
        Some(other) => return Err(unknown(other).into()),
    }
    Ok(())
}

/// What an argument this server does not take is answered with.
fn unknown(argument: &str) -> String {
    format!(
        "unknown argument `{argument}`; use [--confirm] [--task-ttl-ms MS] [--redis URL] \
         [--http [ADDR] [--stateless] [--oauth-issuer URL --resource URI]]"
    )
}

/// Ends at Ctrl-C, so that the calls running then end first; never, if Ctrl-C cannot be
/// listened for (the server would otherwise stop as soon as it started).
async fn shutdown() {
    if let Err(error) = tokio::signal::ctrl_c().await {
        eprintln!("cannot listen for Ctrl-C ({error}); stop the server another way");
        std::future::pending::<()>().await;
    }
}

/// Whether `flag` was given, taking it out of `args`.
fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let at = args.iter().position(|arg| arg == flag);
    at.map(|at| args.remove(at)).is_some()
}

/// The value given after `option`, if it was given, taking both out of `args`.
fn take_value(
    args: &mut Vec<String>,
    option: &str,
    example: &str,
) -> Result<Option<String>, String> {
    let Some(at) = args.iter().position(|arg| arg == option) else {
        return Ok(None);
    };
    if args.get(at + 1).is_none_or(|value| value.starts_with("--")) {
        return Err(format!("{option} takes a value, as {option} {example}"));
    }
    let value = args.remove(at + 1);
    args.remove(at);
    Ok(Some(value))
}
