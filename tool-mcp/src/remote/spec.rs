//! The servers `TOOL_MCP_SERVERS` names: a command line each, and the toolkit name each is
//! given.
//!
//! Most MCP servers are started through a launcher (`npx -y @scope/server-notes`, `uvx
//! mcp-server-fetch`, `python server.py`): named after the program, every such toolkit would
//! be called `npx` or `uvx`, and two of them could not be told apart in a grant. A launcher's
//! toolkit is named after what it launches instead.

use super::error::RemoteError;

/// Programs that start the server named by their first argument that is no option.
const LAUNCHERS: [&str; 13] = [
    "npx", "pnpx", "bunx", "uvx", "pipx", "node", "deno", "bun", "python", "python3", "uv",
    "docker", "podman",
];

/// The launchers' words that name what they do, not the server (`uv run`, `docker run`,
/// `deno run`, `pipx run`).
const VERBS: [&str; 2] = ["run", "tool"];

/// The launchers' options whose value is the next word (`docker run -e TOKEN`, `uv run --with
/// mcp`), which names no server.
const VALUED: [&str; 17] = [
    "-e",
    "--env",
    "--env-file",
    "-v",
    "--volume",
    "--mount",
    "--name",
    "--network",
    "-p",
    "--publish",
    "-w",
    "--workdir",
    "--user",
    "--entrypoint",
    "--with",
    "--from",
    "--python",
];

/// One server of the spec: the toolkit's name, the program and its arguments.
pub(super) struct Server<'s> {
    pub(super) name: String,
    pub(super) program: &'s str,
    pub(super) args: Vec<&'s str>,
}

/// The servers of a spec (`cmd1 args :: cmd2 args`, arguments split on whitespace, no
/// quoting), each named after its program's file name, or what a launcher starts; a name
/// taken already gets `_2`, `_3`, ….
pub(super) fn servers(spec: &str) -> Result<Vec<Server<'_>>, RemoteError> {
    let mut servers: Vec<Server<'_>> = Vec::new();
    for line in spec.split("::").map(str::trim) {
        let mut words = line.split_whitespace();
        let Some(program) = words.next() else {
            continue;
        };
        let args: Vec<&str> = words.collect();
        let named = name_of(program, &args).ok_or_else(|| RemoteError::Environment {
            reason: format!("`{program}` has no file name"),
        })?;
        let mut name = named.clone();
        let mut nth = 1;
        while servers.iter().any(|server| server.name == name) {
            nth += 1;
            name = format!("{named}_{nth}");
        }
        servers.push(Server {
            name,
            program,
            args,
        });
    }
    Ok(servers)
}

/// The toolkit name of `program args`: the file name of what a launcher starts, or of the
/// program, without its extension, version or package scope, in `[A-Za-z0-9_]`.
fn name_of(program: &str, args: &[&str]) -> Option<String> {
    let stem = |word: &str| {
        let file = std::path::Path::new(word).file_stem()?.to_str()?.to_owned();
        Some(file)
    };
    let launcher = stem(program)?;
    let launched = LAUNCHERS
        .contains(&launcher.as_str())
        .then(|| launched(args))
        .flatten();
    let name = launched.unwrap_or(launcher);
    let name = name.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    (!name.is_empty()).then_some(name)
}

/// The name of what a launcher's arguments start: the first that is no option, no option's
/// value and no verb.
fn launched(args: &[&str]) -> Option<String> {
    let mut value_next = false;
    for arg in args {
        let skipped = value_next || arg.starts_with('-') || VERBS.contains(arg);
        value_next = VALUED.contains(arg);
        if !skipped {
            return package_name(arg);
        }
    }
    None
}

/// A package or file's own name: `@scope/server-notes@1.2` → `server-notes`,
/// `mcp/fetch:latest` → `fetch`, `build/index.js` → `index`.
fn package_name(arg: &str) -> Option<String> {
    let unversioned = match arg.strip_prefix('@') {
        Some(scoped) => scoped.split('@').next().unwrap_or(scoped),
        None => arg.split('@').next().unwrap_or(arg),
    };
    let untagged = match unversioned.rsplit_once(':') {
        Some((image, _tag)) if !image.is_empty() => image,
        _ => unversioned,
    };
    let last = untagged.rsplit('/').next().unwrap_or(untagged);
    let file = std::path::Path::new(last).file_stem()?.to_str()?;
    (!file.is_empty()).then(|| file.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(spec: &str) -> Vec<String> {
        let servers = servers(spec).unwrap();
        servers.into_iter().map(|server| server.name).collect()
    }

    #[test]
    fn a_launcher_s_toolkit_is_named_after_what_it_starts() {
        assert_eq!(
            names(
                "npx -y @modelcontextprotocol/server-everything :: uvx mcp-server-fetch :: \
                 python3 -u servers/notes.py :: docker run -i --rm -e TOKEN mcp/github:latest \
                 :: npx -y @acme/files@1.2.0 :: uv run --with mcp weather.py :: \
                 python -m mcp_server_git"
            ),
            [
                "server_everything",
                "mcp_server_fetch",
                "notes",
                "github",
                "files",
                "weather",
                "mcp_server_git"
            ]
        );
    }

    #[test]
    fn a_program_s_toolkit_is_named_after_its_file_and_a_name_taken_is_numbered() {
        assert_eq!(
            names("/usr/local/bin/notes-server --stdio :: ./notes-server :: npx"),
            ["notes_server", "notes_server_2", "npx"]
        );
        assert!(names(" :: ").is_empty());
        assert!(servers("/").is_err());
    }
}
