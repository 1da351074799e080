"""Reaches the example MCP server, which checks OAuth bearer tokens, with the official Python
`mcp` SDK's client-credentials support: the server's 401 leads the SDK to its
protected-resource metadata, then to the authorization server's metadata and its token
endpoint, and the SDK retries with the token it got. Prints what it saw as one JSON document,
for tests/oauth.rs to check.

    python mcp_oauth.py http://127.0.0.1:PORT/mcp ISSUER CLIENT_ID CLIENT_SECRET SCOPE
"""

import json
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client


class Memory:
    """Tokens kept for the length of the run."""

    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


async def run(url, issuer, client_id, client_secret, scope):
    auth = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=Memory(),
        client_id=client_id,
        client_secret=client_secret,
        scope=scope,
        issuer=issuer,
    )
    seen = {}
    async with httpx2.AsyncClient(auth=auth) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            seen["protocol_version"] = client.session.protocol_version
            tools = await client.list_tools()
            seen["tools"] = [tool.name for tool in tools.tools]
            counted = await client.call_tool("note_count", {})
            seen["count"] = counted.model_dump(mode="json", by_alias=True, exclude_none=True)
    return seen


def main():
    print(json.dumps(anyio.run(run, *sys.argv[1:6])))


if __name__ == "__main__":
    main()
