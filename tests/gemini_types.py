"""Checks Gemini function declarations against the types of Google's own Python SDK
(`google-genai`), for providers.rs and tool-mcp's remote_schemas.rs: `FunctionDeclaration`,
whose `parameters` is the SDK's `Schema`, each a pydantic model that refuses a field it does
not name.

    python gemini_types.py '[{"name": ..., "parameters": {...}}, ...]'

Prints one JSON list, a verdict per declaration in order: `{"valid": true, "errors": []}`, or
`{"valid": false, "errors": [{"loc": [...], "msg": "..."}, ...]}` with pydantic's errors.
"""

import json
import sys

from google.genai.types import FunctionDeclaration
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
    return {"valid": True, "errors": []}


print(json.dumps([verdict(declaration) for declaration in json.loads(sys.argv[1])]))
