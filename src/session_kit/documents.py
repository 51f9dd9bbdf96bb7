"""The `--json` documents' envelope, shared by the command line and the MCP server.

Owns: the envelope's version and fields (`version`, `kind`: the command's name; see
docs/reference/json.md), its strings redacted (`redact.shown_value`), and values JSON cannot
hold made null or cut (`json_safe`). Does not: decide a document's fields (each query's
`as_dict`) or write it anywhere (`cli/envelope.py` prints it, `mcp_server/answers.py`
hands it to the model).
"""

from __future__ import annotations

import json
from typing import Any

from session_kit.redaction.engine import shown_value

JSON_VERSION = 2  # 2: kinds are the command names (see docs/reference/json.md)
JSON_DEPTH = 100  # deeper values (a transcript's tool input nested for spite) are cut


def json_document(kind: str, payload: dict[str, Any], *, redact: bool = True) -> dict[str, Any]:
    """`{"version": 2, "kind": kind, **payload}`, its strings redacted (`redact=False`: for
    documents that carry no transcript text)."""
    return {"version": JSON_VERSION, "kind": kind, **(shown_value(payload) if redact else payload)}


def json_text(value: Any, indent: int | None = None, depth: int = 0) -> str:
    """`value` as JSON (`depth`: where it sits in the document), what JSON cannot hold made safe."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
    except (ValueError, RecursionError):  # a value JSON cannot hold, copied from a transcript
        return json.dumps(json_safe(value, depth), ensure_ascii=False, allow_nan=False, indent=indent)


def json_safe(value: Any, depth: int = 0) -> Any:
    """`value` with what valid JSON cannot hold made null (1e400, integers past 4,300 digits)
    and anything nested deeper than JSON_DEPTH replaced by "…"."""
    if isinstance(value, float):
        return value if value - value == 0 else None  # inf - inf and nan - nan are nan
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 10**4000 else None
    if isinstance(value, (dict, list, tuple)):
        if depth >= JSON_DEPTH:
            return "…"
        if isinstance(value, dict):
            return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
        return [json_safe(v, depth + 1) for v in value]
    return value
