"""Drives the example MCP server with the official Python `mcp` SDK and prints what it saw as
one JSON document, for tests/sdk_clients.rs to check.

    python mcp_client.py CLIENT stdio /path/to/mcp_server
    python mcp_client.py CLIENT http http://127.0.0.1:PORT/mcp

CLIENT is `session` (the low-level `ClientSession`, with the initialize handshake), or a mode of
the high-level `Client`: `auto` (its default: `server/discover`, so MCP 2026-07-28 with a server
that speaks it), `legacy` (the initialize handshake, 2025-11-25) or a pinned version such as
`2026-07-28`.
"""

import contextlib
import json
import sys
import time

import anyio
import httpx2
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def result_json(result):
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def exercise(client, seen):
    tools = await client.list_tools()
    seen["tools"] = [
        tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools.tools
    ]

    good = await client.call_tool("note_write", {"text": "buy milk", "tags": ["shopping"]})
    seen["good"] = result_json(good)

    bad = await client.call_tool(
        "note_search", {"filter": {"tags": ["shopping", 7]}, "limit": 1000, "colour": "red"}
    )
    seen["bad"] = result_json(bad)

    unknown = await client.call_tool("note_delete", {"id": 1})
    seen["unknown"] = result_json(unknown)

    progress = []

    async def on_progress(done, total, message):
        progress.append({"progress": done, "total": total, "message": message})

    reindexed = await client.call_tool(
        "note_reindex", {"pace_ms": 10, "passes": 3}, progress_callback=on_progress
    )
    seen["reindexed"] = result_json(reindexed)
    seen["progress"] = progress

    started = time.monotonic()
    with anyio.move_on_after(0.3):
        await client.call_tool("note_reindex", {"pace_ms": 1000, "passes": 30})
    seen["cancel_waited"] = time.monotonic() - started
    # The server drops the cancelled call's future: its running count goes back to zero, which
    # is waited for as long as the call could not have ended on its own (its 30 passes take
    # 30 s).
    count_text = ""
    while time.monotonic() - started < 20:
        count = await client.call_tool("note_count", {})
        count_text = count.content[0].text
        if count_text.endswith(" 0 reindexing"):
            break
        await anyio.sleep(0.02)
    seen["after_cancel"] = count_text


@contextlib.asynccontextmanager
async def connect(kind, transport, target, caller="alice"):
    """A connected client of `kind` (`session`, or a `Client` mode) and its protocol version.

    Over HTTP it is the `caller` the `x-caller` header names, as the proxy in front of the
    example server would name it: a request without one may use only the read-only tools.
    """
    async with contextlib.AsyncExitStack() as stack:
        if transport == "stdio":
            server = stdio_client(StdioServerParameters(command=target, args=[]))
        else:
            headers = {"x-caller": caller} if caller else {}
            http = await stack.enter_async_context(httpx2.AsyncClient(headers=headers))
            server = streamable_http_client(target, http_client=http)
        if kind == "session":
            read, write, *_ = await stack.enter_async_context(server)
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            yield session, session.protocol_version
        else:
            client = await stack.enter_async_context(Client(server, mode=kind))
            yield client, client.session.protocol_version


async def run(kind, transport, target):
    seen = {}
    async with connect(kind, transport, target) as (client, version):
        seen["protocol_version"] = version
        await exercise(client, seen)
    if transport == "http":
        # A caller the host names `guest` sees and runs only what its grant allows.
        async with connect(kind, transport, target, caller="guest") as (client, _):
            tools = await client.list_tools()
            seen["guest_tools"] = [tool.name for tool in tools.tools]
            refused = await client.call_tool("note_write", {"text": "x"})
            seen["guest_write"] = result_json(refused)
    return seen


def main():
    kind, transport, target = sys.argv[1:4]
    seen = anyio.run(run, kind, transport, target)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
