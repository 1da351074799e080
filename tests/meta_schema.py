"""Checks schemas against JSON Schema 2020-12's meta-schema, as Anthropic's API holds every
tool's `input_schema` to it (refusing the whole request, every tool with it, for one that fails)
and as Claude's clients send MCP tools on to it: `jsonschema`'s `Draft202012Validator`, which the
MCP SDK installs. A `$schema` naming another dialect is refused too, and one below the root: the
schemas are read as 2020-12's, and MCP's SDK clients refuse a tool whose schema "declares an
unsupported dialect".

    python meta_schema.py FILE   # FILE: [schema, ...]

Prints one JSON list, a verdict per schema in order: `{"valid": true, "errors": []}`, or
`{"valid": false, "errors": [{"loc": [...], "msg": "..."}]}`.
"""

import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def other_dialect(value, loc):
    """Where `value` names a dialect other than 2020-12's in a `$schema`, or names one below
    the root, if anywhere."""
    if isinstance(value, dict):
        named = value.get("$schema")
        if named is not None and loc:
            return {"loc": loc + ["$schema"], "msg": "a `$schema` below the root"}
        if named is not None and named.rstrip("#") != DIALECT:
            return {"loc": loc + ["$schema"], "msg": f"{named!r} is not 2020-12's dialect"}
        for key, inner in value.items():
            if key in ("const", "default", "enum", "examples"):
                continue
            found = other_dialect(inner, loc + [key])
            if found:
                return found
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found = other_dialect(inner, loc + [str(index)])
            if found:
                return found
    return None


def verdict(schema):
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        loc = [str(part) for part in error.path]
        return {"valid": False, "errors": [{"loc": loc, "msg": error.message}]}
    found = other_dialect(schema, [])
    if found:
        return {"valid": False, "errors": [found]}
    return {"valid": True, "errors": []}


with open(sys.argv[1], encoding="utf-8") as schemas:
    print(json.dumps([verdict(schema) for schema in json.load(schemas)]))
