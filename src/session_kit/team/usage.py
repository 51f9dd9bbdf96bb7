"""The team's tokens and cost: the `usage` report over every machine's pushed rows.

Owns: reading the team database's usage rows by the rules of a machine's own report
(`index.usage`): only files present on their machine at its last push; each API message once
(a message several files hold belongs to the file written first: `files.modified`, then the
machine and the path); the usage `Agent` results report for agents none of those files is the
log of (once per agent, its first file's). Grouping, dating and pricing are `usage.history`'s
(`tally`), with two more groups: `machine` and `user`. So one machine's rows of a team report
by machine are what that machine's own `usage` reports. Does not: connect (`sync`) or print.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from session_kit.usage.history import MAIN, NO_LOG, TEAM_BY, Counted, UsageReport, tally
from session_kit.usage.prices import PriceTable

_TOKENS = "input, output, cache_read, cache_write_5m, cache_write_1h, web_search, web_fetch"
_SUMS = ", ".join(f"coalesce(sum({c.strip()}), 0)::bigint" for c in _TOKENS.split(","))
_EACH = ", ".join(f"coalesce({c.strip()}, 0)" for c in _TOKENS.split(","))
_FILES = """
SELECT f.id, f.machine, f.user_name, f.project, f.session, f.agent, a.type,
       rank() OVER (ORDER BY coalesce(f.modified, 0), f.machine, f.path)
FROM files f LEFT JOIN agents a ON a.machine = f.machine AND a.session = f.session AND a.agent_id = f.agent
WHERE f.present
"""
# Each message once: its first file's (the file order of `_FILES`), summed per file, hour and model.
_MESSAGES = f"""
WITH ordered AS (
    SELECT DISTINCT ON (m.key) m.*
    FROM messages m JOIN files f ON f.id = m.file_id
    WHERE f.present
    ORDER BY m.key, coalesce(f.modified, 0), f.machine, f.path
)
SELECT file_id, hour, model, {_SUMS}, count(*) FROM ordered GROUP BY file_id, hour, model
"""
_HELD = "SELECT count(*) - count(DISTINCT m.key) FROM messages m JOIN files f ON f.id = m.file_id WHERE f.present"
_RESULTS = f"""
SELECT r.file_id, r.agent_id, r.hour, r.model, {_EACH}
FROM agent_results r JOIN files f ON f.id = r.file_id WHERE f.present
"""


def team_usage(
    team: Any, prices: PriceTable, *, by: str = "day", since: date | None = None, until: date | None = None
) -> UsageReport:
    """The report over every file the team database holds as present."""
    if by not in TEAM_BY:
        raise ValueError(f"by must be one of {', '.join(TEAM_BY)}")
    files = {row[0]: row[1:] for row in team.execute(_FILES)}
    items: list[Counted] = []
    for file_id, hour, model, *fields in team.execute(_MESSAGES):
        machine, user, project, session, agent, agent_type, _rank = files[file_id]
        group = MAIN if agent is None else (agent_type or "agent")
        labels = {"machine": machine, "user": user or "?"}
        items.append((hour, model, fields, project or "?", session, group, False, labels))
    logged = {f[4] for f in files.values() if f[4]}
    first: dict[str, tuple] = {}
    for file_id, agent_id, hour, model, *tokens in team.execute(_RESULTS):
        if agent_id in logged:
            continue
        if agent_id not in first or files[file_id][6] < files[first[agent_id][0]][6]:
            first[agent_id] = (file_id, hour, model, (*tokens, 1))
    for file_id, hour, model, fields in first.values():
        machine, user, project, session, *_ = files[file_id]
        labels = {"machine": machine, "user": user or "?"}
        items.append((hour, model, fields, project or "?", session, NO_LOG, True, labels))
    repeated = team.execute(_HELD).fetchone()[0]
    team.commit()
    rows, total, from_results = tally(items, prices, by=by, since=since, until=until)
    return UsageReport(by, since, until, rows, total, prices, len(files), 0, repeated, agents_from_results=from_results)
