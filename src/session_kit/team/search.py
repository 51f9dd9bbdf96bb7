"""Searching the team database: PostgreSQL's own full-text search.

Owns: the query as a `tsquery` (the words in order, the last one a prefix, as the local index
searches: `phraseto_tsquery` for all but the last word, `to_tsquery('…':*)` for the last, both
with the `simple` configuration the `texts.tsv` column is made with, so the GIN index answers
and nothing is scanned), the filters (machine, tool, errors only, since/until, agent), the
order (the kit's own echoes last and only when asked, then `ts_rank`, then the newest) and the
hits, each naming the machine (and origin) its text was pushed from. The snippet is cut from
the stored, redacted text (`index.query.snippet`). Does not: connect or print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from session_kit.errors import KitError
from session_kit.index.query import DEFAULT_LIMIT, snippet


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


def tsquery(text: str) -> tuple[str, list[str]]:
    """The SQL of the query's `tsquery` and its parameters: the words in order, the last a prefix."""
    words = text.split()
    if not words:
        raise KitError("empty query")
    last = words[-1].replace("\\", "\\\\").replace("'", "''")
    prefix = "to_tsquery('simple', %s)"
    if len(words) == 1:
        return prefix, [f"'{last}':*"]
    return f"(phraseto_tsquery('simple', %s) <-> {prefix})", [" ".join(words[:-1]), f"'{last}':*"]


def _where(filters: TeamFilters) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    if filters.machine:
        clauses.append("f.machine = %s")
        args.append(filters.machine)
    if filters.tool:
        clauses.append("lower(t.tool) = lower(%s)")
        args.append(filters.tool)
    if filters.errors_only:
        clauses.append("t.status = 'error'")
    if filters.since:
        clauses.append("t.ts >= %s")
        args.append(filters.since)
    if filters.until:
        clauses.append("t.ts < %s")
        args.append(filters.until)
    if filters.agent:
        clauses.append("(t.agent LIKE %s OR t.agent IN (SELECT agent_id FROM agents WHERE lower(type) = lower(%s)))")
        args.extend([filters.agent.replace("%", "").replace("_", "\\_") + "%", filters.agent])
    return clauses, args


def search_team(team: Any, text: str, filters: TeamFilters = TeamFilters(), *, limit: int = DEFAULT_LIMIT) -> TeamHits:
    """The best hits (at most `limit`), how many there are, and how many the kit's own echoes make."""
    query, query_args = tsquery(text)
    clauses, args = _where(filters)
    base = (
        f"FROM (SELECT {query} AS q) q, texts t JOIN files f ON f.id = t.file_id"
        f" LEFT JOIN sessions s ON s.id = t.session WHERE {' AND '.join(['t.tsv @@ q.q', *clauses])}"
    )
    params = [*query_args, *args]
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
    hits = tuple(TeamHit(*row[:11], snippet(row[11], text), row[12], bool(row[13])) for row in rows)
    return TeamHits(hits, total, echoes)
