"""An MCP server on the official Python `mcp` SDK, over stdio, whose tools take what pydantic
writes for the types MCP servers commonly take (dicts of anything, unions, tuples, literals,
bounds, a model that holds itself, a tagged union), for tests/remote_schemas.rs.

    python mcp_pydantic_server.py
"""

from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer

server = MCPServer("pydantic")


class Colour(str, Enum):
    RED = "red"
    BLUE = "blue"


class Node(BaseModel):
    """A node of a tree."""

    label: str
    children: list["Node"] = []


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = Field(ge=0, le=9)


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Filter(BaseModel):
    """What to search for."""

    field: str = Field(description="The field.", examples=["title"])
    value: Union[int, str]
    weight: Annotated[float, Field(gt=0, le=1, multiple_of=0.25)] = 0.5


@server.tool()
def search(
    query: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^<>]*$")],
    filters: list[Filter] = [],
    metadata: dict[str, Any] = {},
    labels: Optional[dict[str, str]] = None,
    extra: Any = None,
    rows: list[Any] = [],
    limit: Annotated[int, Field(gt=0, lt=101)] = 10,
    colour: Optional[Colour] = None,
    mode: Literal["fast", "exact"] = "fast",
    point: tuple[float, float] = (0.0, 0.0),
) -> str:
    """Searches the index."""
    return "found"


@server.tool()
def tree_count(root: Node) -> int:
    """Counts a tree's nodes."""
    return 1


@server.tool()
def pet_add(pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]) -> str:
    """Adds a pet."""
    return pet.kind


server.run("stdio")
