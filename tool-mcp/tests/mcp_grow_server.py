"""An MCP server on the official Python `mcp` SDK, served over streamable HTTP in the SDK's
default mode (sessions, answers as event streams), for tests/remote_python.rs: `add` adds two
numbers; `grow` adds the tool `twice` and tells the client its tools changed, as a notification
of the session, which the SDK sends on the stream the client opened with a GET.

    python mcp_grow_server.py PORT
"""

import sys

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("grow")


def twice(n: int) -> int:
    """Doubles a number."""
    return 2 * n


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


@server.tool()
async def grow(ctx: Context) -> str:
    """Adds the tool `twice`."""
    server.add_tool(twice)
    await ctx.session.send_tool_list_changed()
    return "grown"


server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
