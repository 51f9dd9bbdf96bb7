"""The `usage` report: tokens and cost over a whole Claude root, grouped as asked.

Owns: the report (`usage_report`; `tally`, its grouping, dating and pricing, which the team
database's report shares: `team.usage`): rows by day, week, month, project, session, model or
agent, within `since`/`until` (local dates), from the index (`index.usage`: each file's
messages, kept per message by `transcript.tokens`' rule, brought up to date first, for usage
alone: `index.update`'s `texts=False`, so that only files that changed are read, and those
without their texts). One API message counts once across the whole history: a
resumed or copied file that repeats earlier messages adds nothing; the file written first
keeps them. Agents whose log is missing count with the usage their `Agent` result reports
(the agent's last request only: a floor). Only the files on disk now are counted (the
index also keeps sessions the client deleted). Does not print, or read transcripts itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from session_kit.transcript.tokens import TokenUsage, Usage
from session_kit.usage.prices import Cost, PriceTable

BY = ("day", "week", "month", "project", "session", "model", "agent")
TEAM_BY = (*BY, "machine", "user")  # a team database's report also groups by who pushed
MAIN = "main"  # the agent group of a session's own conversation
NO_LOG = "agent (no log)"  # the agent group of agents counted from their Agent result
_NO_HOUR = -1  # lines without a time
_OLD_CACHE = "usage-index"  # the JSON cache earlier versions kept beside the index


@dataclass(frozen=True, slots=True)
class UsageRow:
    key: str
    tokens: TokenUsage
    cost: Cost
    sessions: int
    project: str | None = None  # for `by session`
    floor: bool = False  # some of it is agents' Agent results (their last request only): at least this

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "project": self.project,
            "sessions": self.sessions,
            "tokens": self.tokens.as_dict(),
            "cost": self.cost.as_dict(),
            "floor": self.floor,
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
    agents_from_results: int = 0  # agents whose log is gone, counted from their Agent results

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
            "agents_from_results": self.agents_from_results,
        }


# --- reading the index --------------------------------------------------------------------


def _index_rows(root: str, state_root: str) -> tuple[Any, int, int]:
    """`(index.usage.UsageRows, files listed, files read)` of the files under `root` now,
    the index brought up to date first."""
    from session_kit.index import db
    from session_kit.index.files import files_to_index
    from session_kit.index.update import update
    from session_kit.index.usage import usage_rows

    def work(conn: Any) -> tuple[Any, int, int]:
        known = dict(conn.execute("SELECT path, session FROM files"))
        files = list(files_to_index(Path(root), known.get))
        listed = [f.path for f in files]
        read = update(conn, Path(root), files=files, texts=False).files  # usage alone: no texts
        with db.snapshot(conn):  # every row of one state of the index
            return usage_rows(conn, listed), len(listed), read

    return db.use(state_root, work, claude_root=root)


def _rows_anywhere(root: str, state_root: str | None) -> tuple[Any, int, int]:
    """`_index_rows` with the index in the kit's state, or, when there is none or it cannot
    be opened or written, in a throw-away folder (every transcript read, nothing kept)."""
    import sqlite3

    if state_root is not None:
        try:
            return _index_rows(root, state_root)
        except (OSError, sqlite3.OperationalError):  # the kit's state cannot hold it: count all the same
            pass
    import tempfile  # here: a run with the index never needs it

    with tempfile.TemporaryDirectory(prefix="session-kit-usage-") as scratch:
        return _index_rows(root, scratch)


def _forget_old_cache(state_root: str) -> None:
    """The JSON cache of earlier versions: the index holds what it held."""
    folder = os.path.join(state_root, _OLD_CACHE)
    if os.path.isdir(folder) and not os.path.islink(folder):
        import shutil  # here: once, and never again

        shutil.rmtree(folder, ignore_errors=True)


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


def _group(
    by: str, day: date | None, project: str, session: str, model: str, agent: str, labels: Mapping[str, str] | None
) -> str:
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
    if by == "agent":
        return agent
    return (labels or {}).get(by) or "?"  # the team's: machine, user


# One count: (hour, model, the 7 token fields and the messages, project, session, agent group,
# from an Agent result (a floor), other labels a team report groups by: machine, user).
Counted = tuple[int, str, Sequence[int], str, str, str, bool, "Mapping[str, str] | None"]


def tally(
    items: Iterable[Counted], prices: PriceTable, *, by: str, since: date | None, until: date | None
) -> tuple[tuple[UsageRow, ...], UsageRow, int]:
    """The report's rows, its total and how many agent results were counted, from counts (the
    one grouping, dating and pricing rule, for a machine's index and a team's database alike)."""
    days = _Days()
    sums: dict[str, dict[str, list[int]]] = {}
    sessions: dict[str, set[str]] = {}
    projects: dict[str, str] = {}
    floors: set[str] = set()  # groups that hold agents' Agent results
    from_results = 0
    for hour, model, fields, project, session, agent, from_result, labels in items:
        day = days(hour)
        if (since and (day is None or day < since)) or (until and (day is None or day > until)):
            continue
        group = _group(by, day, project, session, model, agent, labels)
        row = sums.setdefault(group, {}).setdefault(model, [0] * 8)
        for i, v in enumerate(fields):
            row[i] += v
        sessions.setdefault(group, set()).add(session)
        projects.setdefault(session, project)
        if from_result:
            floors.add(group)
            from_results += 1
    rows = []
    total_tokens = TokenUsage()
    for group in sorted(sums):
        tokens = TokenUsage(tuple(sorted((m, Usage(*v)) for m, v in sums[group].items())))
        total_tokens = total_tokens + tokens
        project = projects.get(group) if by == "session" else None
        rows.append(UsageRow(group, tokens, prices.cost(tokens), len(sessions[group]), project, group in floors))
    all_sessions = set().union(*sessions.values()) if sessions else set()
    total = UsageRow("total", total_tokens, prices.cost(total_tokens), len(all_sessions), floor=bool(floors))
    return tuple(rows), total, from_results


def usage_report(
    root: str,
    prices: PriceTable,
    *,
    by: str = "day",
    since: date | None = None,
    until: date | None = None,
    state_root: str | None = None,
) -> UsageReport:
    """The report over `root`; without `state_root` (or when the index there cannot be
    opened or written) the index is made in a throw-away folder: every transcript read,
    nothing kept."""
    if by not in BY:
        raise ValueError(f"by must be one of {', '.join(BY)}")
    from session_kit.sessions.store import require_claude_root

    require_claude_root(Path(root))
    found, listed, read = _rows_anywhere(root, state_root)
    if state_root is not None:
        _forget_old_cache(state_root)
    items: list[Counted] = []
    for file_id, hour, model, fields in found.messages:
        f = found.files[file_id]
        agent = MAIN if f.agent is None else (f.agent_type or "agent")
        items.append((hour, model, fields, f.project or "?", f.session, agent, False, None))
    for file_id, _agent_id, hour, model, _source, fields in found.agent_results:
        f = found.files[file_id]
        items.append((hour, model, fields, f.project or "?", f.session, NO_LOG, True, None))
    rows, total, from_results = tally(items, prices, by=by, since=since, until=until)
    return UsageReport(
        by, since, until, rows, total, prices, listed, read, found.repeated, agents_from_results=from_results
    )
