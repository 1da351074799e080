"""Drives the example MCP server with the official Python `mcp` SDK and prints what it saw as
one JSON document, for tests/mcp_python.rs to check.

    python3 mcp_client.py stdio /path/to/mcp_server
    python3 mcp_client.py http http://127.0.0.1:PORT/mcp
"""

import asyncio
import json
import sys
import time

import anyio
import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def result_json(result):
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def exercise(session, seen):
    await session.initialize()
    tools = await session.list_tools()
    seen["tools"] = [
        tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools.tools
    ]

    good = await session.call_tool(
        "note_write", {"text": "buy milk", "tags": ["shopping"]}
    )
    seen["good"] = result_json(good)

    bad = await session.call_tool(
        "note_search", {"filter": {"tags": ["shopping", 7]}, "limit": 1000, "colour": "red"}
    )
    seen["bad"] = result_json(bad)

    unknown = await session.call_tool("note_delete", {"id": 1})
    seen["unknown"] = result_json(unknown)

    progress = []

    async def on_progress(done, total, message):
        progress.append({"progress": done, "total": total, "message": message})

    reindexed = await session.call_tool(
        "note_reindex", {"pace_ms": 10, "passes": 3}, progress_callback=on_progress
    )
    seen["reindexed"] = result_json(reindexed)
    seen["progress"] = progress

    started = time.monotonic()
    with anyio.move_on_after(0.3):
        await session.call_tool("note_reindex", {"pace_ms": 1000, "passes": 30})
    seen["cancel_waited"] = time.monotonic() - started
    # The server drops the cancelled call's future: its running count goes back to zero.
    count_text = ""
    for _ in range(50):
        count = await session.call_tool("note_count", {})
        count_text = count.content[0].text
        if count_text.endswith(" 0 reindexing"):
            break
        await anyio.sleep(0.02)
    seen["after_cancel"] = count_text


async def over_stdio(command):
    seen = {}
    params = StdioServerParameters(command=command, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, seen)
    return seen


async def over_http(url):
    seen = {}
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await exercise(session, seen)
    # A caller the host names `guest` sees and runs only what its grant allows.
    async with httpx2.AsyncClient(headers={"x-caller": "guest"}) as client:
        async with streamable_http_client(url, http_client=client) as (read, write, *_):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                seen["guest_tools"] = [tool.name for tool in tools.tools]
                refused = await session.call_tool("note_write", {"text": "x"})
                seen["guest_write"] = result_json(refused)
    return seen


def main():
    mode, target = sys.argv[1], sys.argv[2]
    runner = over_stdio if mode == "stdio" else over_http
    seen = anyio.run(runner, target)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
