"""The `usage` report: tokens and cost over a whole Claude root, grouped as asked.

Owns: finding every transcript of a root (sessions, agent logs of both layouts), reading only
their lines that carry usage, the per-file index that lets a second run read only what
changed, and the report (`usage_report`): rows by day, week, month, project, session, model
or agent, within `since`/`until` (local dates). One API message counts once across the whole
history (`transcript.tokens`' key): a resumed or copied file that repeats earlier messages
adds nothing; the file written first keeps them. Agents whose log is missing count with the
usage their `Agent` result reports. Does not print.

The index lives in the kit's state (`usage-index/<root hash>.json`, 0600): per file its
size, mtime, message keys and usage summed per (hour, model). It is a cache: a missing,
stale or unreadable one is rebuilt, never trusted over the transcripts.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from session_kit.files import open_regular, read_small
from session_kit.state.root import atomic_write, ensure_dir
from session_kit.transcript.agent_signals import spawn_result
from session_kit.transcript.entries import parse_timestamp
from session_kit.transcript.tokens import TokenUsage, Usage, assistant_usage, message_key, usage_of
from session_kit.usage.prices import Cost, PriceTable

BY = ("day", "week", "month", "project", "session", "model", "agent")
MAIN = "main"  # the agent group of a session's own conversation
INDEX_VERSION = 2
META_LIMIT = 1 << 20  # an agent's .meta.json is a few hundred bytes
_USAGE = b'"usage"'
_NO_HOUR = -1  # lines without a time


@dataclass(frozen=True, slots=True)
class FileUsage:
    """What the index keeps of one transcript file."""

    size: int
    mtime_ns: int
    session: str
    agent: str | None
    agent_type: str | None
    keys: tuple[str, ...]
    buckets: tuple[tuple[int, str, tuple[int, ...]], ...]  # (hour, model, Usage fields)
    results: tuple[tuple[str, int, str, tuple[int, ...]], ...]  # agents' usage from Agent results

    def to_row(self) -> list:
        return [
            self.size,
            self.mtime_ns,
            self.session,
            self.agent,
            self.agent_type,
            self.keys,
            self.buckets,
            self.results,
        ]

    @classmethod
    def from_row(cls, row: Any) -> FileUsage | None:
        """A row of the index, or None when it is not of the index's shape (it is read again)."""
        if not isinstance(row, list) or len(row) != 8:
            return None
        size, mtime, session, agent, kind, keys, buckets, results = row
        if not (
            _is_int(size)
            and _is_int(mtime)
            and isinstance(session, str)
            and isinstance(agent, (str, type(None)))
            and isinstance(kind, (str, type(None)))
            and isinstance(keys, list)
            and all(isinstance(k, str) for k in keys)
            and isinstance(buckets, list)
            and all(_is_bucket(b, 3) for b in buckets)
            and isinstance(results, list)
            and all(_is_bucket(r, 4) and isinstance(r[0], str) for r in results)
        ):
            return None
        return cls(size, mtime, session, agent, kind, tuple(keys), tuple(buckets), tuple(results))


@dataclass(frozen=True, slots=True)
class UsageRow:
    key: str
    tokens: TokenUsage
    cost: Cost
    sessions: int
    project: str | None = None  # for `by session`

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "project": self.project,
            "sessions": self.sessions,
            "tokens": self.tokens.as_dict(),
            "cost": self.cost.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class UsageReport:
    by: str
    since: date | None
    until: date | None
    rows: tuple[UsageRow, ...]
    total: UsageRow
    prices: PriceTable
    files: int
    files_read: int  # files read this run (the others came from the index)
    duplicates: int  # messages repeated by resumed or copied files, counted once

    def as_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "prices": self.prices.as_dict(),
            "rows": [r.as_dict() for r in self.rows],
            "total": self.total.as_dict(),
            "files": self.files,
            "files_read": self.files_read,
            "duplicate_messages": self.duplicates,
        }


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_bucket(value: Any, width: int) -> bool:
    """`[hour, model, [8 ints]]` (width 3) or `[agent, hour, model, [8 ints]]` (width 4)."""
    if not isinstance(value, list) or len(value) != width:
        return False
    hour, model, fields = value[-3:]
    return (
        _is_int(hour)
        and isinstance(model, str)
        and isinstance(fields, list)
        and len(fields) == 8
        and all(_is_int(v) for v in fields)
    )


# --- finding and reading the files ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _File:
    path: str
    project: str
    session: str | None  # None: a 2025 agent log, whose session is in its lines
    agent: str | None
    meta: str | None  # the agent's .meta.json, when there is one


def transcript_files(root: str) -> list[_File]:
    """Every transcript under `<root>/projects`: sessions, `subagents/` logs (workflow ones
    too) and 2025 `agent-*.jsonl` logs beside the sessions."""
    found: list[_File] = []
    projects = os.path.join(root, "projects")
    try:
        project_names = sorted(os.listdir(projects))
    except OSError:
        return found
    for project in project_names:
        folder = os.path.join(projects, project)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name.endswith(".jsonl") and not e.is_dir():
                if e.name.startswith("agent-"):
                    found.append(_File(e.path, project, None, e.name[6:-6], None))
                else:
                    found.append(_File(e.path, project, e.name[:-6], None, None))
            elif e.is_dir():
                _agent_logs(os.path.join(e.path, "subagents"), project, e.name, found)
    return found


def _agent_logs(folder: str, project: str, session: str, found: list[_File]) -> None:
    for dirpath, dirnames, names in os.walk(folder):
        dirnames.sort()
        for name in sorted(names):
            if name.startswith("agent-") and name.endswith(".jsonl"):
                meta = os.path.join(dirpath, name[:-6] + ".meta.json")
                found.append(_File(os.path.join(dirpath, name), project, session, name[6:-6], meta))


def _scan(path: str, owned: set[str] | None = None) -> tuple[dict, dict, str | None]:
    """`(messages, agent results, first session id)` of a file's usage lines: per message key
    its last line's `(hour, model, Usage)`; `owned`: only those keys."""
    messages: dict[str, tuple[int, str, Usage]] = {}
    results: dict[str, tuple[int, str, Usage]] = {}
    session = None
    for n, line in enumerate(_lines(path)):
        if _USAGE not in line:
            continue
        try:
            raw = json.loads(line)
        except ValueError:
            continue  # a malformed or half-written line
        if not isinstance(raw, dict):
            continue
        if session is None and isinstance(raw.get("sessionId"), str):
            session = raw["sessionId"]
        found = assistant_usage(raw)
        if found is not None:
            key = message_key(raw) or f"{path}:{n}"
            if owned is None or key in owned:
                messages[key] = (_hour(raw.get("timestamp")), found[0], found[1])
        elif raw.get("type") == "user":
            _agent_result(raw, results)
    return messages, results, session


def _lines(path: str) -> Iterator[bytes]:
    """The file's lines, read a buffer at a time (memory stays bounded by the longest line); a
    file that cannot be read has none."""
    try:
        with open_regular(path) as fh:  # a FIFO or a device named `x.jsonl` is no transcript
            yield from fh
    except OSError:
        return


def _buckets(messages: Mapping[str, tuple[int, str, Usage]]) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
    buckets: dict[tuple[int, str], Usage] = {}
    for hour, model, usage in messages.values():
        buckets[(hour, model)] = buckets.get((hour, model), Usage()) + usage
    return tuple((h, m, _tuple(u)) for (h, m), u in sorted(buckets.items()))


def read_file_usage(f: _File, size: int, mtime_ns: int) -> FileUsage:
    """The usage lines of one file, the last line of each API message kept, summed per
    (hour, model); plus the usage `Agent` results report of their agents."""
    messages, results, session = _scan(f.path)
    return FileUsage(
        size=size,
        mtime_ns=mtime_ns,
        session=f.session or session or "?",
        agent=f.agent,
        agent_type=_agent_type(f.meta),
        keys=tuple(messages),
        buckets=_buckets(messages),
        results=tuple((aid, h, m, _tuple(u)) for aid, (h, m, u) in sorted(results.items())),
    )


def _agent_result(raw: Mapping[str, Any], out: dict[str, tuple[int, str, Usage]]) -> None:
    """An `Agent` result's usage, read as the agent model reads it (`agent_signals`): only the
    agent's last request, so a floor of what it used."""
    extra = raw.get("toolUseResult")
    if not isinstance(extra, Mapping):
        return
    said = spawn_result(extra, "", is_error=False)
    if said.agent_id and said.usage is not None:
        out[said.agent_id] = (_hour(raw.get("timestamp")), said.model or "(unknown)", usage_of(said.usage))


def _agent_type(meta: str | None) -> str | None:
    if meta is None:
        return None
    try:
        data = json.loads(read_small(meta, META_LIMIT))
    except (OSError, ValueError):
        return None
    kind = data.get("agentType") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def _hour(stamp: Any) -> int:
    parsed = parse_timestamp(stamp)
    return int(parsed.timestamp() // 3600) if parsed is not None else _NO_HOUR


def _tuple(u: Usage) -> tuple[int, ...]:
    return (u.input, u.output, u.cache_read, u.cache_write_5m, u.cache_write_1h, u.web_search, u.web_fetch, u.messages)


# --- the index --------------------------------------------------------------------------------


def index_path(state_root: str, root: str) -> str:
    digest = hashlib.sha1(os.path.abspath(root).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return os.path.join(state_root, "usage-index", f"{digest}.json")


def _load_index(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("version") != INDEX_VERSION or not isinstance(doc.get("files"), dict):
        return {}
    return doc["files"]


def _save_index(path: str, files: Mapping[str, list]) -> None:
    try:
        ensure_dir(os.path.dirname(path))
        data = json.dumps({"version": INDEX_VERSION, "files": files}, separators=(",", ":"))
        atomic_write(path, data.encode("utf-8"))
    except OSError:
        pass  # a cache that cannot be written costs only the next run's time


def history_usage(root: str, *, state_root: str | None) -> tuple[list[tuple[_File, FileUsage]], int]:
    """Every file's usage, from the index where the file has not changed; and how many files
    were read. Without `state_root` nothing is cached."""
    path = index_path(state_root, root) if state_root else None
    cached = _load_index(path) if path else {}
    fresh: dict[str, list] = {}
    out = []
    read = 0
    for f in transcript_files(root):
        try:
            st = os.stat(f.path)
        except OSError:
            continue
        usage = FileUsage.from_row(cached.get(f.path))
        if usage is None or usage.size != st.st_size or usage.mtime_ns != st.st_mtime_ns:
            usage = read_file_usage(f, st.st_size, st.st_mtime_ns)
            read += 1
        fresh[f.path] = usage.to_row()
        out.append((f, usage))
    if path and (read or len(fresh) != len(cached)):
        _save_index(path, fresh)
    return out, read


# --- the report -------------------------------------------------------------------------------


def parse_day(text: str) -> date:
    """`2026-11-23` or `20261123` (ValueError otherwise)."""
    text = text.strip()
    if len(text) == 8 and text.isdigit():
        text = f"{text[:4]}-{text[4:6]}-{text[6:]}"
    return date.fromisoformat(text)


class _Days:
    """Local day of an hour bucket, computed once per hour."""

    def __init__(self) -> None:
        self._cache: dict[int, date | None] = {}

    def __call__(self, hour: int) -> date | None:
        day = self._cache.get(hour, False)
        if day is False:
            day = None if hour == _NO_HOUR else datetime.fromtimestamp(hour * 3600).date()
            self._cache[hour] = day
        return day  # type: ignore[return-value]


def _group(by: str, day: date | None, project: str, session: str, model: str, agent: str) -> str:
    if by == "day":
        return day.isoformat() if day else "(no time)"
    if by == "week":  # weeks start on Monday
        return (day - timedelta(days=day.weekday())).isoformat() if day else "(no time)"
    if by == "month":
        return day.strftime("%Y-%m") if day else "(no time)"
    if by == "project":
        return project
    if by == "session":
        return session
    if by == "model":
        return model
    return agent


def usage_report(
    root: str,
    prices: PriceTable,
    *,
    by: str = "day",
    since: date | None = None,
    until: date | None = None,
    state_root: str | None = None,
) -> UsageReport:
    if by not in BY:
        raise ValueError(f"by must be one of {', '.join(BY)}")
    files, read = history_usage(root, state_root=state_root)
    # The file written first keeps a message that later files repeat.
    files.sort(key=lambda fu: (fu[1].mtime_ns, fu[0].path))
    logged_agents = {u.agent for _, u in files if u.agent}
    days = _Days()
    sums: dict[str, dict[str, list[int]]] = {}
    sessions: dict[str, set[str]] = {}
    projects: dict[str, str] = {}
    seen: set[str] = set()
    duplicates = 0

    def add(hour: int, model: str, fields: Iterable[int], f: _File, usage: FileUsage) -> None:
        day = days(hour)
        if (since and (day is None or day < since)) or (until and (day is None or day > until)):
            return
        agent = MAIN if usage.agent is None else (usage.agent_type or "agent")
        group = _group(by, day, f.project, usage.session, model, agent)
        row = sums.setdefault(group, {}).setdefault(model, [0] * 8)
        for i, v in enumerate(fields):
            row[i] += v
        sessions.setdefault(group, set()).add(usage.session)
        projects.setdefault(usage.session, f.project)

    for f, usage in files:
        repeated = seen.intersection(usage.keys)
        seen.update(usage.keys)
        buckets = usage.buckets
        if repeated:  # this file repeats messages an earlier file holds: count only its own
            duplicates += len(repeated)
            buckets = _buckets(_scan(f.path, set(usage.keys) - repeated)[0])
        for hour, model, fields in buckets:
            add(hour, model, fields, f, usage)
        for aid, hour, model, fields in usage.results:
            if aid not in logged_agents:
                add(hour, model, fields, f, FileUsage(0, 0, usage.session, aid, "agent (no log)", (), (), ()))
    rows = []
    total_tokens = TokenUsage()
    for group in sorted(sums):
        tokens = TokenUsage(tuple(sorted((m, Usage(*v)) for m, v in sums[group].items())))
        total_tokens = total_tokens + tokens
        project = projects.get(group) if by == "session" else None
        rows.append(UsageRow(group, tokens, prices.cost(tokens), len(sessions[group]), project))
    all_sessions = set().union(*sessions.values()) if sessions else set()
    total = UsageRow("total", total_tokens, prices.cost(total_tokens), len(all_sessions))
    return UsageReport(by, since, until, tuple(rows), total, prices, len(files), read, duplicates)
