// Drives the example MCP server with the official TypeScript SDK (`@modelcontextprotocol/sdk`
// 1.32.2) and prints what it saw as one JSON document on stdout. It mirrors tests/mcp_client.py
// step for step and reports the same keys and shapes, so one Rust check applies to both clients.
//
//     node mcp_client.mjs stdio /path/to/mcp_server
//     node mcp_client.mjs http http://127.0.0.1:PORT/mcp
//
// Run it from a directory whose node_modules holds the SDK: imports resolve by package name.
// Extra keys next to the Python ones:
//   protocol_version  the version the server answered `initialize` with
//   warnings          every line the SDK wrote through console.warn / console.error (ajv, which
//                     compiles each tool's outputSchema, warns e.g. `unknown format "uint64" ignored`)
// On failure it writes a short message to stderr and exits non-zero (2 when the safety timeout fires).

import { format } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const SAFETY_TIMEOUT_MS = 60_000;

// Replaced before any client exists: ajv, which the client uses to compile each outputSchema,
// logs through the global console, as do the SDK's own complaints.
const warnings = [];
const originalError = console.error.bind(console);
for (const level of ['warn', 'error']) {
    console[level] = (...args) => {
        const line = format(...args);
        warnings.push(line);
        originalError(`[sdk ${level}] ${line}`);
    };
}

// Everything opened, so that the safety timeout can still kill a stdio child that hangs.
const opened = [];

function fail(message, code) {
    // Straight to the stream: console.error is captured above.
    process.stderr.write(`mcp_client.mjs: ${message}\n`);
    for (const { transport } of opened) {
        // A stdio child would notice our stdin closing, but a hung one is not waited for.
        if (transport instanceof StdioClientTransport && transport.pid) {
            try {
                process.kill(transport.pid, 'SIGKILL');
            } catch {
                // already gone
            }
        }
    }
    process.exit(code);
}

const safety = setTimeout(() => fail(`gave up after ${SAFETY_TIMEOUT_MS / 1000}s`, 2), SAFETY_TIMEOUT_MS);
// The timer alone must not keep the process alive.
safety.unref();

/** Like pydantic's `model_dump(by_alias=True, exclude_none=True)`: no null or absent keys. */
function dropNulls(value) {
    if (Array.isArray(value)) {
        return value.map(dropNulls);
    }
    if (value !== null && typeof value === 'object') {
        return Object.fromEntries(
            Object.entries(value)
                .filter(([, v]) => v !== null && v !== undefined)
                .map(([k, v]) => [k, dropNulls(v)])
        );
    }
    return value;
}

/** A tool result as plain JSON; `isError` always there, since the checks compare it to false. */
function resultJson(result) {
    return { ...dropNulls(result), isError: result.isError ?? false };
}

/**
 * Connects a client over `transport`, noting the negotiated protocol version in `seen` (unless
 * null), and returns the `{ client, transport }` pair that `close` takes.
 */
async function connect(transport, seen) {
    const client = new Client({ name: 'tool-mcp-node-test', version: '0.0.0' });
    // Not silent: a protocol error the SDK swallows (say a progress notification for an unknown
    // token) should at least show up on stderr.
    client.onerror = error => process.stderr.write(`mcp_client.mjs: client error: ${error}\n`);
    const session = { client, transport };
    opened.push(session);
    // The client keeps the negotiated version only inside HTTP transports; the initialize
    // response carries it for both. Protocol.connect chains a handler set before it.
    transport.onmessage = message => {
        const version = message?.result?.protocolVersion;
        if (seen && typeof version === 'string' && seen.protocol_version === undefined) {
            seen.protocol_version = version;
        }
    };
    await client.connect(transport);
    return session;
}

async function close({ client, transport }) {
    // Closing aborts the HTTP transport's standalone SSE stream, which it reports as an error
    // ("SSE stream disconnected: AbortError"); that one is expected, so stop listening first.
    client.onerror = undefined;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        // As the Python client does on leaving: DELETE the session so the server can drop it.
        try {
            await transport.terminateSession();
        } catch (error) {
            process.stderr.write(`mcp_client.mjs: terminating the session failed: ${error}\n`);
        }
    }
    // Closes the transport too; for stdio that ends the child (stdin EOF, then SIGTERM, SIGKILL).
    await client.close();
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function exercise(client, seen) {
    // listTools also makes the client compile each outputSchema, which later callTool results
    // are validated against.
    const tools = await client.listTools();
    seen.tools = tools.tools.map(dropNulls);

    const good = await client.callTool({
        name: 'note_write',
        arguments: { text: 'buy milk', tags: ['shopping'] }
    });
    seen.good = resultJson(good);

    // Comes back as a result with isError, not a thrown error: the SDK validates structured
    // output only when structuredContent is present, and lets an isError result go without it.
    const bad = await client.callTool({
        name: 'note_search',
        arguments: { filter: { tags: ['shopping', 7] }, limit: 1000, colour: 'red' }
    });
    seen.bad = resultJson(bad);

    const unknown = await client.callTool({ name: 'note_delete', arguments: { id: 1 } });
    seen.unknown = resultJson(unknown);

    const progress = [];
    const reindexed = await client.callTool(
        { name: 'note_reindex', arguments: { pace_ms: 10, passes: 3 } },
        undefined,
        {
            // The Python callback receives all three, None included; keep the same shape.
            onprogress: ({ progress: done, total, message }) =>
                progress.push({ progress: done, total: total ?? null, message: message ?? null })
        }
    );
    seen.reindexed = resultJson(reindexed);
    seen.progress = progress;

    // Aborting rejects the pending call at once (with the signal's reason) and sends
    // notifications/cancelled; whether the server stops the work shows in note_count below.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 300);
    const started = performance.now();
    try {
        await client.callTool(
            { name: 'note_reindex', arguments: { pace_ms: 1000, passes: 30 } },
            undefined,
            { signal: abort.signal }
        );
        throw new Error('the long note_reindex finished although it was cancelled');
    } catch (error) {
        if (!abort.signal.aborted) {
            throw error;
        }
    } finally {
        clearTimeout(timer);
    }
    seen.cancel_waited = (performance.now() - started) / 1000;
    // If the server stopped the cancelled call, its running count goes back to zero, which is
    // waited for as long as the call could not have ended on its own (its 30 passes take 30 s).
    let countText = '';
    while ((performance.now() - started) / 1000 < 20) {
        const count = await client.callTool({ name: 'note_count', arguments: {} });
        countText = count.content[0].text;
        if (countText.endsWith(' 0 reindexing')) {
            break;
        }
        await sleep(20);
    }
    seen.after_cancel = countText;
}

async function overStdio(command) {
    const seen = {};
    // stderr inherited: the server's log lands next to ours, which the Rust test shows on failure.
    const session = await connect(
        new StdioClientTransport({ command, args: [], stderr: 'inherit' }),
        seen
    );
    try {
        await exercise(session.client, seen);
    } finally {
        await close(session);
    }
    return seen;
}

async function overHttp(url) {
    const seen = {};
    // A named caller, as the proxy in front of the server would name it: a request without
    // one may use only the read-only tools.
    const session = await connect(
        new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { 'x-caller': 'alice' } }
        }),
        seen
    );
    try {
        await exercise(session.client, seen);
    } finally {
        await close(session);
    }
    // A caller the host names `guest` sees and runs only what its grant allows.
    const guest = await connect(
        new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { 'x-caller': 'guest' } }
        }),
        null
    );
    try {
        const tools = await guest.client.listTools();
        seen.guest_tools = tools.tools.map(tool => tool.name);
        const refused = await guest.client.callTool({ name: 'note_write', arguments: { text: 'x' } });
        seen.guest_write = resultJson(refused);
    } finally {
        await close(guest);
    }
    return seen;
}

async function main() {
    const [mode, target] = process.argv.slice(2);
    if (!['stdio', 'http'].includes(mode) || !target) {
        fail('usage: node mcp_client.mjs stdio /path/to/mcp_server | http http://HOST:PORT/mcp', 64);
    }
    const seen = mode === 'stdio' ? await overStdio(target) : await overHttp(target);
    seen.warnings = warnings;
    // Exit explicitly once stdout has taken the document: fetch keep-alive sockets or a
    // lingering child must not hold the process open.
    process.stdout.write(`${JSON.stringify(seen)}\n`, () => process.exit(0));
}

main().catch(error => {
    // fetch hides the real reason (refused, reset...) in `cause`.
    const cause = error?.cause ? ` (${error.cause.message ?? error.cause})` : '';
    fail(`${error?.message ?? error}${cause}`, 1);
});
