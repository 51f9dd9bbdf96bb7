"""One file's tokens counted the status line's way, from where the last count stopped. Standard
library only (plus `transcript.follow` and `transcript.usagefields`): the status line and the
budget per subagent (`hooks.live`, before each of a subagent's tool calls) load it.

Owns: a file's record (the line follower's checkpoint, per API message its usage with the
message's last line winning, the `Agent`/`Task` calls still without a result and the agents
launched in the background, the usage `Agent` results report, the compactions) and bringing
it up to date with the whole lines the file gained (`count_file`; a file replaced or rewritten
since is counted again); the tokens a record counts (`record_tokens`). Does not price, keep
the records anywhere, or render (that is `usage.statusline`).
"""

from __future__ import annotations

import os

from session_kit.base import fastjson
from session_kit.base.follow import Checkpoint, Follow, unchanged
from session_kit.base.tools import SPAWNS_AGENT
from session_kit.transcript.usagefields import agent_result_fields, assistant_usage, count_key


def count_file(path: str, seen: dict, main: bool, *, keep: int | None = None) -> dict:
    """Count the whole lines `path` gained since the checkpoint `seen` holds; returns the
    file's new record (a file replaced or rewritten since is counted again from the start).
    `keep`: only the last `keep` messages are kept one by one (a later line of theirs still
    wins), the older ones added up per model into `folded`, so a long session's record stays
    small (the budgets, which read it before every tool call)."""
    try:
        st = os.stat(path)
    except OSError:
        return seen
    if seen and unchanged(Checkpoint.from_text(seen.get("checkpoint")), st):
        return seen
    try:
        with Follow(path, Checkpoint.from_text(seen.get("checkpoint"))) as f:
            record = seen if seen and f.offset else _empty_record()
            messages, pending, background = record["messages"], set(record["pending"]), set(record["background"])
            results = record.setdefault("results", {})
            compactions = record["compactions"]
            for lines in f.blocks():
                at = f.offset
                for line in lines:
                    at += len(line) + 1  # `line-at:` names a message without an id by where it ends
                    compactions += _count_line(line, messages, pending, background, main=main, at=at, results=results)
            cp = f.checkpoint()
    except OSError:
        return seen
    if keep is not None and len(messages) > keep:
        folded = record.setdefault("folded", {})
        for key in list(messages)[: len(messages) - keep]:
            model, *fields = messages.pop(key)
            total = folded.setdefault(model, [0] * len(fields))
            for i, v in enumerate(fields):
                total[i] += v
    record.update(
        checkpoint=cp.to_text(),
        offset=cp.offset,
        pending=sorted(pending),
        background=sorted(background),
        compactions=compactions,
    )
    return record


def record_tokens(record: dict) -> int:
    """The tokens a file's record counts (input, output, cache reads and writes: the line's
    `tok`), each API message once."""
    kept = sum(sum(fields[1:6]) for fields in (record.get("messages") or {}).values())
    return kept + sum(sum(fields[:5]) for fields in (record.get("folded") or {}).values())


def record_models(record: dict) -> dict:
    """The record's usage fields per model (`usagefields.FIELDS` order), folded ones included."""
    per_model = {model: list(fields) for model, fields in (record.get("folded") or {}).items()}
    for model, *fields in (record.get("messages") or {}).values():
        total = per_model.setdefault(model, [0] * len(fields))
        for i, v in enumerate(fields):
            total[i] += v
    return per_model


def _empty_record() -> dict:
    return {
        "checkpoint": None,
        "offset": 0,
        "messages": {},
        "results": {},
        "pending": [],
        "background": [],
        "compactions": 0,
    }


def _count_line(
    line: bytes, messages: dict, pending: set, background: set, *, main: bool, at: int, results: dict | None = None
) -> int:
    """Count one complete line; returns 1 for a compaction boundary, else 0. `results`: the
    usage `Agent` results report of their agents (`transcript.tokens.agent_result_usage`)."""
    usage_line = b'"usage"' in line and b'"assistant"' in line
    spawn_line = main and (b'"tool_use"' in line or b'"tool_result"' in line)
    compact_line = main and b'"compact_boundary"' in line
    if not (usage_line or spawn_line or compact_line):
        return 0
    try:
        raw = fastjson.loads(line.decode("utf-8", "replace"))
    except ValueError:
        return 0
    if not isinstance(raw, dict):
        return 0
    found = assistant_usage(raw) if usage_line else None
    if found is not None:
        key = count_key(raw) or f"line-at:{at}"
        messages.pop(key, None)  # the message's last line wins, and makes it the latest
        messages[key] = [found[0], *found[1]]
    if spawn_line:
        _track_agents(raw, pending, background)
        if results is not None:
            _agent_result(raw, results)
    return int(compact_line and raw.get("type") == "system" and raw.get("subtype") == "compact_boundary")


def _track_agents(raw: dict, pending: set, background: set) -> None:
    message = raw.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use" and block.get("name") in SPAWNS_AGENT and isinstance(block.get("id"), str):
            pending.add(block["id"])
        elif block.get("type") == "tool_result" and block.get("tool_use_id") in pending:
            pending.discard(block["tool_use_id"])
            extra = raw.get("toolUseResult")
            if (
                isinstance(extra, dict)
                and extra.get("status") == "async_launched"
                and isinstance(extra.get("agentId"), str)
            ):
                background.add(extra["agentId"])


def _agent_result(raw: dict, results: dict) -> None:
    """The usage a user line's `Agent` result reports of its agent (`usagefields`' rule, which
    `transcript.tokens` shares), in plain values."""
    found = agent_result_fields(raw) if raw.get("type") == "user" else None
    if found is not None:
        agent_id, model, fields = found
        results[agent_id] = [model, *fields]
