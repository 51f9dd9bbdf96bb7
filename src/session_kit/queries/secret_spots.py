"""Where a file's text holds secrets, and the same text with them scrubbed: pure functions.

Owns: reading a text by its form — JSON Lines (each line's strings, decoded, as the kit shows
them), one JSON document (a meta file), or plain text (a spilled tool output, a shell
snapshot) — and naming each secret the redactor's rules find there (`redaction.engine.find_secrets`:
what `redact` would replace) with its line; and the scrubbed text: each secret replaced
where the file writes it (in a JSON string: its JSON-escaped form) by its marker at its
length in bytes (`[REDACTED:<kind>]` padded with `*`, or as much of `[REDACTED]`/`*` as
fits), every other byte kept, so lines, offsets and checkpoints stay true. A JSON line whose
shape a replacement would change is left as it is, and counted. Does not: read files,
decide which (`queries.secrets`), or write (`queries.scrub`).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from session_kit.base.layout import is_jsonl
from session_kit.redaction.engine import SEPARATOR, find_secrets, marker
from session_kit.redaction.printed import Commands, find_in_output

JSONL = "jsonl"
JSON = "json"
TEXT = "text"
MIN_TEXT = 8  # the redactor leaves shorter texts alone


@dataclass(frozen=True, slots=True)
class Spot:
    """A secret in a text: its line (from 0), kind, and where the text writes it (`start` and
    `end` in the line, or, inside a JSON string, -1 and the form the line writes it in)."""

    line: int
    kind: str
    start: int
    end: int
    written: str  # never shown: it is the secret

    def __repr__(self) -> str:  # a Spot in a failing test's output must not print its secret
        return f"Spot(line={self.line}, kind={self.kind!r})"


def form_of(name: str) -> str:
    """How a file's text is read, by its name."""
    if is_jsonl(name):  # set-aside copies of transcripts too (`<id>.jsonl.superseded-<ms>`)
        return JSONL
    return JSON if name.endswith(".json") else TEXT


def _readable_as(text: str, form: str) -> str:
    """A JSON document that does not parse is read as plain text."""
    if form == JSON:
        try:
            json.loads(text)
        except ValueError:
            return TEXT
    return form


def spots(text: str, form: str, commands: Commands | None = None) -> list[Spot]:
    """Every secret of `text`, in line order (a JSON document's all on its first line). A tool
    result's strings are read after its call's command when that is context
    (`redaction.printed`); `commands`: the calls of the lines before, for a file read in chunks."""
    form = _readable_as(text, form)
    if form == TEXT:
        return _plain(text, 0)
    lines = text.split("\n") if form == JSONL else [text]
    found: list[Spot] = []
    strings: list[str] = []
    owners: list[int] = []
    commands = commands if commands is not None else Commands()
    for index, line in enumerate(lines):
        if len(line) < MIN_TEXT:
            continue
        try:
            value = json.loads(line)
        except ValueError:  # not JSON (half-written, damaged): as written
            found.extend(_plain(line, index))
            continue
        command = commands.entry(value)
        outputs = output_texts(value) if command is not None else ()
        for string in _strings(value):
            if string in outputs:  # a command's output: read after it, alone
                found.extend(
                    _string_spot(index, f.kind, string[f.start : f.end]) for f in find_in_output(string, command)
                )
            elif len(string) >= MIN_TEXT:
                strings.append(string)
                owners.append(index)
    found.extend(_in_strings(strings, owners))
    found.sort(key=lambda s: s.line)
    return found


def output_texts(value: Any) -> set[str]:
    """The texts of a transcript line's tool result: its content's and its `toolUseResult`'s
    `stdout`/`stderr` (what a command printed)."""
    out: set[str] = set()
    message = value.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") == "tool_result":
            out.update(_strings(block.get("content")))
    result = value.get("toolUseResult")
    if isinstance(result, dict):
        out.update(v for k in ("stdout", "stderr") if isinstance(v := result.get(k), str))
    return out


def _plain(text: str, first: int) -> list[Spot]:
    found = find_secrets(text)
    if not found:
        return []
    starts = list(accumulate(len(part) + 1 for part in text.split("\n")[:-1]))  # of lines after the first
    out = []
    for item in found:
        index = bisect_right(starts, item.start)
        begin = starts[index - 1] if index else 0
        out.append(Spot(first + index, item.kind, item.start - begin, item.end - begin, text[item.start : item.end]))
    return out


def _in_strings(strings: list[str], owners: list[int]) -> list[Spot]:
    """The secrets of many strings, in one pass of the rules (joined as `redact_many` joins)."""
    batch = [i for i, s in enumerate(strings) if SEPARATOR not in s]
    alone = [i for i, s in enumerate(strings) if SEPARATOR in s]
    out: list[Spot] = []
    if batch:
        joined = SEPARATOR.join(strings[i] for i in batch)
        starts = [0, *accumulate(len(strings[i]) + 1 for i in batch[:-1])]
        for item in find_secrets(joined):
            k = bisect_right(starts, item.start) - 1
            out.append(_string_spot(owners[batch[k]], item.kind, joined[item.start : item.end]))
    for i in alone:
        out.extend(_string_spot(owners[i], f.kind, strings[i][f.start : f.end]) for f in find_secrets(strings[i]))
    return out


def _string_spot(line: int, kind: str, secret: str) -> Spot:
    return Spot(line, kind, -1, -1, json.dumps(secret, ensure_ascii=False)[1:-1])


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


# --- scrubbing --------------------------------------------------------------------------------


def fitted(kind: str, size: int) -> str:
    """A marker `size` bytes long: the secret's place, its length kept."""
    full = marker(kind)
    if size >= len(full):
        return full + "*" * (size - len(full))
    short = "[REDACTED]"
    return short + "*" * (size - len(short)) if size >= len(short) else "*" * size


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def scrubbed(text: str, form: str, *, only: set[int] | None = None) -> tuple[str, int, int]:
    """`text` with its secrets replaced by fitted markers (only in the lines, from 1, of
    `only`, when given); (text, secrets scrubbed, secrets left)."""
    form = _readable_as(text, form)
    found = [s for s in spots(text, form) if only is None or s.line + 1 in only]
    if not found:
        return text, 0, 0
    lines = [text] if form == JSON else text.split("\n")
    by_line: dict[int, list[Spot]] = {}
    for spot in found:
        by_line.setdefault(spot.line, []).append(spot)
    done = left = 0
    for index, line_spots in by_line.items():
        new = _scrub_line(lines[index], line_spots)
        if new is None:
            left += len(line_spots)
        else:
            lines[index] = new
            done += len(line_spots)
    return "\n".join(lines), done, left


def _by_span(line: str, found: list[Spot]) -> str:
    pieces, done = [], 0
    for spot in sorted(found, key=lambda s: s.start):
        if spot.start < done:
            continue
        pieces += [line[done : spot.start], fitted(spot.kind, _size(spot.written))]
        done = spot.end
    pieces.append(line[done:])
    return "".join(pieces)


def _scrub_line(line: str, found: list[Spot]) -> str | None:
    """One JSON line (or document) scrubbed with its shape kept; None when it cannot be."""
    if all(s.start >= 0 for s in found):  # not JSON: by position
        return _by_span(line, found)
    before = json.loads(line)
    out = line
    for spot in sorted(found, key=lambda s: -len(s.written)):  # a longer secret before a part of it
        if spot.written not in line:
            return None  # written otherwise than json writes it (an escape of another style)
        out = out.replace(spot.written, fitted(spot.kind, _size(spot.written)))
    try:
        after = json.loads(out)
    except ValueError:
        return None
    return out if _shape(after) == _shape(before) else None


def _shape(value: Any) -> Any:
    """A JSON value with its strings blanked: what a scrub must not change."""
    if isinstance(value, str):
        return ""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value
