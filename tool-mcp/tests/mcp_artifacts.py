"""Calls a tool with an outputSchema whose output is over the server's artifact threshold, with
the official Python `mcp` SDK's `Client` in each of its modes `auto` (MCP 2026-07-28 with this
server) and `legacy` (2025-11-25), then reads the start of the artifact with `artifact_read`;
prints what it saw as one JSON document for tests/artifacts.rs to check.

    python mcp_artifacts.py http://127.0.0.1:PORT/mcp TOOL ARGUMENTS_JSON

Printed: for each mode, `output_schema` (the tool's, as listed), `result` (call_tool's answer)
or `error` (what it raised), and `read` (artifact_read's answer for the handle the result's
text names) or `read_error`.
"""

import contextlib
import json
import re
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def result_json(result):
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def exercise(mode, url, tool, arguments):
    seen = {}
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx2.AsyncClient())
        server = streamable_http_client(url, http_client=http)
        client = await stack.enter_async_context(Client(server, mode=mode))
        # Listing first lets the client check results against each tool's outputSchema.
        tools = await client.list_tools()
        listed = [t for t in tools.tools if t.name == tool]
        seen["output_schema"] = listed[0].output_schema if listed else None
        try:
            seen["result"] = result_json(await client.call_tool(tool, arguments))
        except Exception as error:  # what the SDK raised is what the test reports
            seen["error"] = f"{type(error).__name__}: {error}"
            return seen
        content = seen["result"].get("content") or [{}]
        found = re.search(r"artifact `([^`]+)`", content[0].get("text", ""))
        if found:
            try:
                read = await client.call_tool(
                    "artifact_read", {"handle": found.group(1), "offset": 0}
                )
                seen["read"] = result_json(read)
            except Exception as error:
                seen["read_error"] = f"{type(error).__name__}: {error}"
    return seen


async def run(url, tool, arguments):
    return {mode: await exercise(mode, url, tool, arguments) for mode in ("auto", "legacy")}


def main():
    url, tool, arguments = sys.argv[1:4]
    print(json.dumps(anyio.run(run, url, tool, json.loads(arguments))))


if __name__ == "__main__":
    main()
