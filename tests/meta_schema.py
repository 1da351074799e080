"""Checks schemas against JSON Schema 2020-12's meta-schema, as Anthropic's API holds every
tool's `input_schema` to it (refusing the whole request, every tool with it, for one that fails)
and as Claude's clients send MCP tools on to it: `jsonschema`'s `Draft202012Validator`. Two
things the meta-schema does not say are refused too:
- a `$schema` naming another dialect, or one below the root: the schemas are read as 2020-12's,
  and MCP's SDK clients refuse a tool whose schema "declares an unsupported dialect";
- a `$ref` into the schema (`#...`) that points at nothing in it.

    python meta_schema.py FILE   # FILE: [schema, ...]

Prints one JSON list, a verdict per schema in order: `{"valid": true, "errors": []}`, or
`{"valid": false, "errors": [{"loc": [...], "msg": "..."}]}`.
"""

import json
import sys
from urllib.parse import unquote

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The keywords whose value is a schema, a list of schemas, or a map of names to schemas: the
# walk goes through these alone, so a field named `$schema` or `$ref` is never taken for one.
ONE = {
    "not", "if", "then", "else", "items", "additionalProperties", "contains",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
    "contentSchema",
}
LIST = {"allOf", "anyOf", "oneOf", "prefixItems"}
MAP = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}


def subschemas(schema, loc):
    """Each subschema of `schema` (an object), with its place."""
    for key, value in schema.items():
        if key in ONE:
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield item, loc + [key, str(index)]
            else:
                yield value, loc + [key]
        elif key in LIST and isinstance(value, list):
            for index, item in enumerate(value):
                yield item, loc + [key, str(index)]
        elif key in MAP and isinstance(value, dict):
            for name, item in value.items():
                yield item, loc + [key, name]


def pointed_at(root, reference):
    """Whether the local `$ref` `reference` points at something in `root`."""
    fragment = unquote(reference[1:])
    if fragment == "":
        return True
    if not fragment.startswith("/"):
        return False  # an anchor: none of these schemas names one
    at = root
    for step in fragment[1:].split("/"):
        step = step.replace("~1", "/").replace("~0", "~")
        if isinstance(at, dict) and step in at:
            at = at[step]
        elif isinstance(at, list) and step.isascii() and step.isdigit() and int(step) < len(at):
            at = at[int(step)]
        else:
            return False
    return True


def faults(schema, root, loc):
    """What is wrong with `schema` (at `loc` in `root`) that the meta-schema does not say."""
    if not isinstance(schema, dict):
        return
    named = schema.get("$schema")
    if named is not None and loc:
        yield {"loc": loc + ["$schema"], "msg": "a `$schema` below the root"}
    elif named is not None and named.rstrip("#") != DIALECT:
        yield {"loc": loc + ["$schema"], "msg": f"{named!r} is not 2020-12's dialect"}
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#"):
        if not pointed_at(root, reference):
            yield {"loc": loc + ["$ref"], "msg": f"{reference!r} points at nothing"}
    for inner, place in subschemas(schema, loc):
        yield from faults(inner, root, place)


def verdict(schema):
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        loc = [str(part) for part in error.path]
        return {"valid": False, "errors": [{"loc": loc, "msg": error.message}]}
    found = list(faults(schema, schema, []))
    return {"valid": not found, "errors": found}


with open(sys.argv[1], encoding="utf-8") as schemas:
    print(json.dumps([verdict(schema) for schema in json.load(schemas)]))
