"""Checks Gemini function declarations against the types of Google's own Python SDK
(`google-genai`), for providers.rs and tool-mcp's remote_schemas.rs: `FunctionDeclaration`,
whose `parameters` is the SDK's `Schema`, each a pydantic model that refuses a field it does
not name. The SDK takes any value as `parametersJsonSchema`: that one is held to JSON Schema
2020-12's meta-schema instead (with `jsonschema`, which the MCP SDK installs).

    python gemini_types.py FILE   # FILE: [{"name": ..., "parameters": {...}}, ...]

Prints one JSON list, a verdict per declaration in order: `{"valid": true, "errors": []}`, or
`{"valid": false, "errors": [{"loc": [...], "msg": "..."}, ...]}` with pydantic's errors.
"""

import json
import sys

from google.genai.types import FunctionDeclaration
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import ValidationError


def verdict(declaration):
    try:
        FunctionDeclaration.model_validate(declaration)
    except ValidationError as error:
        errors = [
            {"loc": [str(part) for part in fault["loc"]], "msg": fault["msg"]}
            for fault in error.errors()
        ]
        return {"valid": False, "errors": errors}
    schema = declaration.get("parametersJsonSchema")
    if schema is not None:
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            loc = ["parametersJsonSchema", *(str(part) for part in error.path)]
            return {"valid": False, "errors": [{"loc": loc, "msg": error.message}]}
    return {"valid": True, "errors": []}


with open(sys.argv[1], encoding="utf-8") as declarations:
    print(json.dumps([verdict(declaration) for declaration in json.load(declarations)]))
