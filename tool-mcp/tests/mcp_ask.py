"""Drives the example MCP server's questions with the official Python `mcp` SDK's `Client` and
its `elicitation_callback`, and prints what it saw as one JSON document, for tests/asking.rs to
check.

    python mcp_ask.py MODE SCENARIO stdio /path/to/mcp_server
    python mcp_ask.py MODE SCENARIO http http://127.0.0.1:PORT/mcp

MODE is a mode of the `Client`: `legacy` (the initialize handshake, 2025-11-25: questions come
as `elicitation/create` requests), `auto` or `2026-07-28` (questions come as `input_required`
results, which the `Client` answers through the same callback and retries). SCENARIO is `ask`
(note_publish asks for a title and an audience), `confirm` (a server started with
`--confirm`, which asks before every note_write; over stdio the script starts the server with
`--confirm` itself) or `client` (note_summarize samples the client's model and note_sources
reads its roots, answered by `sampling_callback` and `list_roots_callback`).
"""

import contextlib
import json
import sys

import anyio
import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.client.streamable_http import streamable_http_client


def result_json(result):
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def call_or_error(client, name, arguments):
    """The call's result, or the JSON-RPC error it was answered with (a 2026-07-28 request for a
    capability the client did not declare is answered -32021)."""
    try:
        return result_json(await client.call_tool(name, arguments))
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.message, "data": error.data}}


def text_of(result):
    return result.content[0].text if result.content else ""


class User:
    """The person behind the client: answers each question as `next` says, and remembers it."""

    def __init__(self):
        self.next = ("decline", None)
        self.questions = []

    async def __call__(self, context, params):
        self.questions.append(
            {"message": params.message, "requestedSchema": params.requested_schema}
        )
        action, content = self.next
        return types.ElicitResult(action=action, content=content)


class Model:
    """The client's model and workspace: answers each sampling request, lists two roots, and
    remembers what it was asked."""

    def __init__(self):
        self.sampled = []

    async def sample(self, context, params):
        self.sampled.append(
            {
                "messages": [message.content.text for message in params.messages],
                "systemPrompt": params.system_prompt,
                "maxTokens": params.max_tokens,
            }
        )
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="a list of groceries"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def roots(self, context):
        return types.ListRootsResult(
            roots=[
                types.Root(uri="file:///home/alice/notes", name="notes"),
                types.Root(uri="file:///srv/shared"),
            ]
        )


@contextlib.asynccontextmanager
async def connect(mode, transport, target, server_args, user, model=None):
    """A connected `Client` in `mode`, with `user` as its elicitation callback (or none) and
    `model` answering sampling and roots (or nothing)."""
    async with contextlib.AsyncExitStack() as stack:
        if transport == "stdio":
            server = stdio_client(StdioServerParameters(command=target, args=server_args))
        else:
            # The example server grants a request without a caller only its read-only tools;
            # a named caller, as the proxy in front of it would name one, may use them all.
            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers={"x-caller": "alice"})
            )
            server = streamable_http_client(target, http_client=http)
        callbacks = {}
        if model is not None:
            callbacks = {"sampling_callback": model.sample, "list_roots_callback": model.roots}
        client = await stack.enter_async_context(
            Client(server, mode=mode, elicitation_callback=user, **callbacks)
        )
        yield client


async def ask(mode, transport, target):
    seen = {}
    user = User()
    async with connect(mode, transport, target, [], user) as client:
        seen["protocol_version"] = client.session.protocol_version
        written = await client.call_tool("note_write", {"text": "buy milk"})
        seen["written"] = result_json(written)
        for name, answer in [
            ("accepted", ("accept", {"title": "Groceries", "audience": "everyone"})),
            ("declined", ("decline", None)),
            ("cancelled", ("cancel", None)),
            ("wrong", ("accept", {"title": "Groceries", "audience": "the moon"})),
        ]:
            user.next = answer
            published = await client.call_tool("note_publish", {"id": 1})
            seen[name] = result_json(published)
    seen["questions"] = user.questions
    # A client without an elicitation callback declares no elicitation capability.
    async with connect(mode, transport, target, [], None) as client:
        await client.call_tool("note_write", {"text": "buy milk"})
        seen["unasked"] = await call_or_error(client, "note_publish", {"id": 1})
    return seen


async def confirm(mode, transport, target):
    seen = {}
    user = User()
    args = ["--confirm"]
    async with connect(mode, transport, target, args, user) as client:
        seen["protocol_version"] = client.session.protocol_version
        user.next = ("decline", None)
        seen["declined"] = result_json(await client.call_tool("note_write", {"text": "a"}))
        seen["after_declined"] = text_of(await client.call_tool("note_count", {}))
        user.next = ("accept", {"approve": False})
        seen["not_approved"] = result_json(await client.call_tool("note_write", {"text": "b"}))
        seen["after_not_approved"] = text_of(await client.call_tool("note_count", {}))
        user.next = ("accept", {"approve": True})
        seen["approved"] = result_json(await client.call_tool("note_write", {"text": "c"}))
        seen["after_approved"] = text_of(await client.call_tool("note_count", {}))
    seen["questions"] = user.questions
    async with connect(mode, transport, target, args, None) as client:
        seen["unasked"] = await call_or_error(client, "note_write", {"text": "d"})
        seen["after_unasked"] = text_of(await client.call_tool("note_count", {}))
    return seen


async def client_side(mode, transport, target):
    """A tool that samples the client's model and one that reads its roots, with a client that
    answers both and one that declared neither."""
    seen = {}
    model = Model()
    async with connect(mode, transport, target, [], None, model) as client:
        await client.call_tool("note_write", {"text": "buy milk, eggs and bread"})
        seen["summarized"] = result_json(await client.call_tool("note_summarize", {"id": 1}))
        seen["sources"] = result_json(await client.call_tool("note_sources", {}))
    seen["sampled"] = model.sampled
    async with connect(mode, transport, target, [], None) as client:
        await client.call_tool("note_write", {"text": "call mum"})
        seen["unsampled"] = await call_or_error(client, "note_summarize", {"id": 1})
        seen["unrooted"] = await call_or_error(client, "note_sources", {})
    return seen


def main():
    mode, scenario, transport, target = sys.argv[1:5]
    run = {"ask": ask, "confirm": confirm, "client": client_side}[scenario]
    seen = anyio.run(run, mode, transport, target)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
