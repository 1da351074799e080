"""Drives the example MCP server (one, or several behind nginx) with the official Python `mcp`
SDK from several sessions at once, for tests/cluster.rs to check.

    python mcp_cluster.py URL SESSIONS CALLS [SIGNAL_AFTER]

It opens SESSIONS sessions at once, half of MCP 2025-11-25 (`ClientSession`, with the initialize
handshake) and half of 2026-07-28 (`Client`, a protocol version on every request), and shares
CALLS calls among them; call `i` is the same call whichever session makes it, so two runs'
answers can be compared call by call. Every call is bounded: one that has no answer within
CALL_LIMIT seconds is recorded as timed out, never waited for longer. After SIGNAL_AFTER calls
have been answered it prints `signal` on a line of its own (the test kills a replica then);
at the end it prints one JSON document: every call's result or error, in call order, how many
answers each replica gave (nginx's `X-Replica` header), and the protocol versions the sessions
agreed on.
"""

import contextlib
import json
import sys
import time
from collections import Counter

import anyio
import httpx2
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client

# Seconds a call may take before it is given up: well past a reindex, well short of the test's
# own limit on the whole script.
CALL_LIMIT = 20
# Seconds a session may take to connect.
CONNECT_LIMIT = 20


def call_of(i):
    """The tool and arguments of call `i`: readonly calls whose answers do not depend on which
    replica gives them (no replica has notes), good and bad alike."""
    kind = i % 4
    if kind == 0:
        return "note_search", {"filter": {"tags": [f"t{i % 7}"]}, "limit": 1 + i % 5}
    if kind == 1:
        return "note_search", {"filter": {"tags": ["a", 7]}, "limit": 1000}
    if kind == 2:
        return "note_reindex", {"pace_ms": 20, "passes": 1 + i % 3}
    return "note_frobnicate", {"id": i}


async def session_run(url, revision, indices, calls, replicas, answered, signal, versions):
    async def count_replica(response):
        replica = response.headers.get("x-replica")
        if replica:
            replicas[replica] += 1

    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            # A named caller, as the proxy in front of the replicas would name it: a request
            # without one may use only the read-only tools.
            httpx2.AsyncClient(
                headers={"x-caller": "alice"},
                event_hooks={"response": [count_replica]},
                timeout=httpx2.Timeout(CALL_LIMIT),
            )
        )
        transport = streamable_http_client(url, http_client=http)
        try:
            if revision == "2025-11-25":
                read, write, *_ = await stack.enter_async_context(transport)
                session = await stack.enter_async_context(ClientSession(read, write))
                with anyio.fail_after(CONNECT_LIMIT):
                    await session.initialize()
            else:
                # Entered outside a cancel scope, as it opens tasks that outlive this block;
                # its requests are bounded by the HTTP client's timeout.
                session = await stack.enter_async_context(Client(transport, mode=revision))
        except Exception as error:  # noqa: BLE001 - each call records why it failed
            for i in indices:
                calls[i] = {"error": f"connecting: {type(error).__name__}: {error}"}
            return
        low_level = session if revision == "2025-11-25" else session.session
        versions.append(str(low_level.protocol_version))
        for i in indices:
            name, arguments = call_of(i)
            progress = []

            async def on_progress(done, total, message, progress=progress):
                progress.append(done)

            started = time.monotonic()
            try:
                with anyio.fail_after(CALL_LIMIT):
                    result = await session.call_tool(name, arguments, progress_callback=on_progress)
                calls[i] = {
                    "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
                    "progress": progress,
                }
            except TimeoutError:
                calls[i] = {"error": f"no answer within {CALL_LIMIT} s", "timed_out": True}
            except Exception as error:  # noqa: BLE001 - recorded for the test to judge
                calls[i] = {"error": f"{type(error).__name__}: {error}"}
            calls[i]["seconds"] = time.monotonic() - started
            answered[0] += 1
            if answered[0] == signal:
                print("signal", flush=True)


async def run(url, sessions, total, signal):
    calls = [None] * total
    replicas = Counter()
    answered = [0]
    versions = []
    async with anyio.create_task_group() as group:
        for s in range(sessions):
            # Half the sessions speak 2025-11-25 (initialize first), half 2026-07-28 (a
            # protocol version on every request).
            revision = "2025-11-25" if s % 2 == 0 else "2026-07-28"
            group.start_soon(
                session_run,
                url,
                revision,
                range(s, total, sessions),
                calls,
                replicas,
                answered,
                signal,
                versions,
            )
    return {"calls": calls, "replicas": dict(replicas), "versions": sorted(set(versions))}


def main():
    url, sessions, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    signal = int(sys.argv[4]) if len(sys.argv) > 4 else -1
    seen = anyio.run(run, url, sessions, total, signal)
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    main()
