"""Searching the team database: PostgreSQL's own full-text search.

Owns: the query as a `tsquery` (its words in order, the last one a prefix, punctuation a
separator: as the local index searches with FTS5; the `simple` configuration `texts.tsv` is
made with, so the GIN index answers and nothing is scanned), the filters (machine, tool, errors only, since/until, agent), the
order (the kit's own echoes last and only when asked, then `ts_rank`, then the newest) and the
hits, each naming the machine (and origin) its text was pushed from. The snippet is cut from
the stored, redacted text (`index.query.snippet`). Does not: connect or print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from session_kit.errors import KitError
from session_kit.index.query import call_filters

DEFAULT_LIMIT = 20  # hits, as the local search shows


@dataclass(frozen=True, slots=True)
class TeamFilters:
    machine: str | None = None
    tool: str | None = None
    errors_only: bool = False
    since: str | None = None  # ISO-8601, compared as text (as the index does)
    until: str | None = None
    agent: str | None = None  # an agent id prefix or an agent type
    kit: bool = False


@dataclass(frozen=True, slots=True)
class TeamHit:
    session_id: str
    agent_id: str | None
    machine: str
    origin: str | None
    user: str | None
    project: str | None
    line: int | None
    timestamp: str | None
    where: str | None
    tool: str | None
    status: str | None
    snippet: str
    title: str | None
    kit: bool

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class TeamHits:
    hits: tuple[TeamHit, ...]
    total: int
    kit_hits: int

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "kit_hits": self.kit_hits, "hits": [h.as_dict() for h in self.hits]}


# ASCII punctuation and white space: what `texts.tsv` reads as a separator ([[:punct:]]).
_SEPARATORS = re.compile(r"[\s!-/:-@\[-`{-~]+")


def tsquery(text: str) -> str:
    """The query as `to_tsquery` text: its words in order, the last one a prefix; punctuation
    is a separator (`SENTINEL_fail` finds `SENTINEL_FAILURE`, `notes.txt` a path ending so)."""
    words = [w for w in _SEPARATORS.split(text) if w]
    if not words:
        raise KitError(f"nothing to search for in {text!r} (the team database searches words)")
    return " <-> ".join(f"'{w}'" for w in words) + ":*"


def _where(filters: TeamFilters) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    if filters.machine:
        clauses.append("f.machine = %s")
        args.append(filters.machine)
    more, more_args = call_filters(filters, "%s")
    return clauses + more, args + more_args


def search_team(team: Any, text: str, filters: TeamFilters = TeamFilters(), *, limit: int = DEFAULT_LIMIT) -> TeamHits:
    """The best hits (at most `limit`), how many there are, and how many the kit's own echoes make."""
    clauses, args = _where(filters)
    base = (
        "FROM (SELECT to_tsquery('simple', %s) AS q) q, texts t JOIN files f ON f.id = t.file_id"
        f" LEFT JOIN sessions s ON s.id = t.session WHERE {' AND '.join(['t.tsv @@ q.q', *clauses])}"
    )
    params = [tsquery(text), *args]
    total, echoes = team.execute(f"SELECT count(*), count(*) FILTER (WHERE t.kit) {base}", params).fetchone()
    order = "ORDER BY t.kit, ts_rank(t.tsv, q.q) DESC, t.ts DESC NULLS LAST"
    if not filters.kit:
        base, total = base + " AND NOT t.kit", total - echoes
        order = order.replace("t.kit, ", "")
    rows = team.execute(
        "SELECT t.session, t.agent, f.machine, s.origin, f.user_name, coalesce(s.project, f.project), t.line, t.ts,"
        f" t.kind, t.tool, t.status, t.text, s.title, t.kit {base}"
        f" {order} LIMIT %s",
        [*params, limit],
    ).fetchall()
    team.commit()
    from session_kit.index.query import snippet  # the one snippet rule; here: it loads the index's modules

    hits = tuple(TeamHit(*row[:11], snippet(row[11], text), row[12], bool(row[13])) for row in rows)
    return TeamHits(hits, total, echoes)
