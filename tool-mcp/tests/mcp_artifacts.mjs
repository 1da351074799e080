// Calls a tool with an outputSchema whose output is over the server's artifact threshold, with
// the official TypeScript SDK's default `Client` (`@modelcontextprotocol/sdk` 1.32.2), then
// reads the start of the artifact with `artifact_read`; prints what it saw as one JSON document
// for tests/artifacts.rs to check.
//
//     node mcp_artifacts.mjs http://127.0.0.1:PORT/mcp TOOL ARGUMENTS_JSON
//
// Run it from a directory whose node_modules holds the SDK. Printed keys: `output_schema` (the
// tool's, as listed), `result` (callTool's answer) or `error` (what callTool threw), and `read`
// (artifact_read's answer for the handle the result's text names) or `read_error`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const SAFETY_TIMEOUT_MS = 60_000;

const safety = setTimeout(() => {
    process.stderr.write(`mcp_artifacts.mjs: gave up after ${SAFETY_TIMEOUT_MS / 1000}s\n`);
    process.exit(2);
}, SAFETY_TIMEOUT_MS);
safety.unref();

async function main() {
    const [url, tool, args] = process.argv.slice(2);
    const client = new Client({ name: 'tool-mcp-artifacts-test', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const seen = {};
    // Listing first is what makes callTool check a result against the tool's outputSchema:
    // it throws for a result of such a tool without structuredContent.
    const { tools } = await client.listTools();
    seen.output_schema = tools.find(listed => listed.name === tool)?.outputSchema ?? null;
    try {
        seen.result = await client.callTool({ name: tool, arguments: JSON.parse(args) });
    } catch (error) {
        seen.error = String(error);
    }
    const handle = seen.result?.content?.[0]?.text?.match(/artifact `([^`]+)`/)?.[1];
    if (handle) {
        try {
            seen.read = await client.callTool({ name: 'artifact_read', arguments: { handle, offset: 0 } });
        } catch (error) {
            seen.read_error = String(error);
        }
    }
    client.onerror = undefined;
    await transport.terminateSession().catch(() => {});
    await client.close();
    process.stdout.write(JSON.stringify(seen));
}

main().catch(error => {
    process.stderr.write(`mcp_artifacts.mjs: ${error?.stack ?? error}\n`);
    process.exit(1);
});
