"""The `--json` documents: one envelope, its strings redacted.

Owns: printing the envelope (its fields, and values JSON cannot hold: `documents.py`,
which the MCP server shares), indented on a terminal and compact into a pipe, a long list
written as its items come (a batch redacted at a time, byte for byte what one document would
be). Redaction goes through `api.shown_value`, before anything is written.
Does not: decide a document's fields (each command's `as_dict`, documented in
docs/reference/json.md) or print text (`text`, `tables`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from session_kit import api
from session_kit.cli import style


def emit_json(kind: str, payload: dict[str, Any], *, redact: bool = True) -> None:
    """One JSON document on stdout: `{"version": 2, "kind": kind, **payload}`, its strings
    redacted (`redact=False`: for documents that carry no transcript text)."""
    document = api.json_document(kind, payload, redact=redact)
    # Compact for programs on purpose: with `indent`, json falls back to its slow pure-Python
    # encoder; a person at a terminal gets it indented (as `gh` and `uv` do).
    indent = 2 if style.isatty(sys.stdout) else None
    sys.stdout.write(_dumps(document, indent) + "\n")


JSON_LIST_BATCH = 128  # items redacted in one pass: a pass costs about the same for 1 as for 100


def emit_json_list(kind: str, payload: dict[str, Any], key: str, items: Iterable[dict[str, Any]]) -> None:
    """`emit_json(kind, {**payload, key: list(items)})`, byte for byte, written as the items
    come (redacted a batch at a time): a list of thousands is never held, nor its text."""
    emit_json_parts(kind, payload, key, map(json_items, _batched(items, JSON_LIST_BATCH)))


def json_items(batch: list[dict[str, Any]], shown: list[bool] | None = None) -> list[str]:
    """The items of a list as `emit_json_parts` writes them: redacted, as JSON (indented for a
    terminal, as `emit_json` would; else the batch as one text, joined as the list joins
    them). `shown`: which items the caller has already made as shown, every string redacted
    (`sessions.overview.shown_overviews`): those are only written."""
    indent = 2 if style.isatty(sys.stdout) else None
    if shown is not None and any(shown):
        todo = [item for item, done in zip(batch, shown) if not done]
        redacted = iter(_shown_items(todo) if todo else [])
        batch = [item if done else next(redacted) for item, done in zip(batch, shown)]
    else:
        batch = _shown_items(batch)
    if indent:
        return [_dumps(item, indent, depth=2).replace("\n", "\n    ") for item in batch]
    if not batch:
        return []
    try:  # one call for the batch: the list's items as `emit_json_parts` joins them
        return [json.dumps(batch, ensure_ascii=False, allow_nan=False)[1:-1]]
    except (ValueError, RecursionError):
        return [_dumps(item, indent, depth=2) for item in batch]


def emit_json_parts(kind: str, payload: dict[str, Any], key: str, parts: Iterable[list[str]]) -> None:
    """`emit_json_list`, its items already made by `json_items`, a part at a time."""
    indent = 2 if style.isatty(sys.stdout) else None
    head = _dumps(api.json_document(kind, payload), indent)
    name = json.dumps(key, ensure_ascii=False)
    # The document without its closing brace, then the list as json.dumps lays one out.
    if indent:
        start, first, between, end, empty = f"{head[:-2]},\n  {name}: [", "\n    ", ",\n    ", "\n  ]\n}", "]\n}"
    else:
        start, first, between, end, empty = f"{head[:-1]}, {name}: [", "", ", ", "]}", "]}"
    out = sys.stdout
    out.write(start)
    wrote = False
    for texts in parts:
        if texts:
            out.write((between if wrote else first) + between.join(texts))
            wrote = True
    out.write((end if wrote else empty) + "\n")


_SCALARS = (str, int, float, bool, type(None))


def _shown_items(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`api.shown_value(batch)`; items of plain values (a listing's rows) have each distinct
    string redacted once (a project's name, cwd and branch repeat on every row of it)."""
    if any(type(value) not in _SCALARS for item in batch for value in item.values()) or any(
        api.is_secret_name(key) for key in {key for item in batch for key in item}
    ):
        return api.shown_value(batch)
    texts = list(dict.fromkeys(value for item in batch for value in item.values() if type(value) is str))
    shown = dict(zip(texts, api.shown_many(texts)))
    return [{key: shown[value] if type(value) is str else value for key, value in item.items()} for item in batch]


def _batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _dumps(value: Any, indent: int | None, depth: int = 0) -> str:
    """One value as `emit_json` writes it; `depth`: where it sits in the document."""
    return api.json_text(value, indent, depth)
