"""Checks requests against the request types of OpenAI's own Python package (`openai`), for
adapter_async_openai.rs: the Chat Completions request (`CompletionCreateParamsNonStreaming`)
and the Responses request (`ResponseCreateParamsNonStreaming`).

    python openai_types.py '[{"api": "chat", "request": {...}}, {"api": "responses", ...}]'

Prints one JSON list, a verdict per request in order: `{"valid": true, "errors": []}`, or
`{"valid": false, "errors": [{"loc": [...], "msg": "..."}, ...]}` with pydantic's errors.

The types are TypedDicts, read with pydantic, strictly, and with keys the types do not name
refused (the API refuses them too). Two things pydantic does not do for these types unasked:
- Their lists are typed `Iterable[...]`, which pydantic checks lazily, item by item as a
  consumer iterates, so a list of wrong items would pass. Here an `Iterable` is checked as the
  list it is in JSON, every item at once.
- A TypedDict's own config cannot be set from outside; wrapping the request in a list lets one
  config (`extra="forbid"`) reach every TypedDict within, none of which sets its own.
"""

import json
import sys

from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
from pydantic import ConfigDict, TypeAdapter, ValidationError
from pydantic._internal import _generate_schema
from pydantic_core import core_schema

if not hasattr(_generate_schema.GenerateSchema, "_iterable_schema"):
    sys.exit(
        "this pydantic builds Iterable validators elsewhere: pin the pydantic the tests name "
        "(tool-mcp/tests/support/clients.rs, PYTHON_PACKAGES)"
    )


def _iterable_as_list(self, type_):
    return core_schema.list_schema(self.generate_schema(self._get_first_arg_or_any(type_)))


_generate_schema.GenerateSchema._iterable_schema = _iterable_as_list

REQUESTS = {
    "chat": CompletionCreateParamsNonStreaming,
    "responses": ResponseCreateParamsNonStreaming,
}


def verdict(api, request):
    adapter = TypeAdapter(list[REQUESTS[api]], config=ConfigDict(extra="forbid"))
    try:
        adapter.validate_python([request], strict=True)
    except ValidationError as error:
        errors = [
            # The first location is the wrapping list's index.
            {"loc": [str(part) for part in fault["loc"][1:]], "msg": fault["msg"]}
            for fault in error.errors()
        ]
        return {"valid": False, "errors": errors}
    return {"valid": True, "errors": []}


def main():
    checks = json.loads(sys.argv[1])
    print(json.dumps([verdict(check["api"], check["request"]) for check in checks]))


if __name__ == "__main__":
    main()
