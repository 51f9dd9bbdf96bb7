"""Reading the team database: its sessions, one session's card, one session's agents.

Owns: the listing (latest activity first, each with its provenance: machine, origin, user;
filtered by machine and by time, as ISO text), finding one session by id or unique prefix
(`NotFound`, `Ambiguous`), and what `show --team` and `debug-agent --team` read of it: its
facts and tokens, its tool calls counted per tool, its failures, and its agents with their
calls. Each is a frozen value with `as_dict`. Does not: connect, search (`search`), count
usage (`usage`) or print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from session_kit.errors import Ambiguous, NotFound

_SESSION = (
    "id, machine, origin, user_name, project, cwd, title, first_request, started, ended, branch, version,"
    " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, agents, compactions"
)


@dataclass(frozen=True, slots=True)
class TeamSession:
    id: str
    machine: str
    origin: str
    user: str | None
    project: str | None
    cwd: str | None
    title: str | None
    first_request: str | None
    started: str | None
    ended: str | None
    branch: str | None
    version: str | None
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    agents: int
    compactions: int

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class TeamCall:
    agent: str | None
    line: int | None
    tool: str | None
    summary: str | None
    status: str | None
    exit_code: int | None
    error: str | None
    started: str | None
    duration_s: float | None

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class TeamAgent:
    agent_id: str
    type: str | None
    description: str | None
    calls: tuple[TeamCall, ...]

    @property
    def failed(self) -> tuple[TeamCall, ...]:
        return tuple(c for c in self.calls if c.status == "error")

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "type": self.type,
            "description": self.description,
            "calls": len(self.calls),
            "failed": [c.as_dict() for c in self.failed],
        }


@dataclass(frozen=True, slots=True)
class TeamCard:
    session: TeamSession
    tools: tuple[tuple[str, int, int], ...]  # (tool, calls, failed), most used first
    failures: tuple[TeamCall, ...]
    agents: tuple[TeamAgent, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.session.as_dict(),
            "tools": [{"tool": t, "calls": n, "failed": f} for t, n, f in self.tools],
            "failures": [c.as_dict() for c in self.failures],
            "agents": [a.as_dict() for a in self.agents],
        }


def _session(row: tuple) -> TeamSession:
    return TeamSession(*row[:12], *(int(v or 0) for v in row[12:]))


def team_sessions(
    team: Any,
    *,
    machine: str | None = None,
    since: str | None = None,
    until: str | None = None,
    limit: int | None = None,
) -> list[TeamSession]:
    """The team's sessions, latest activity first: `since` active at or after, `until` begun
    at or before (ISO text)."""
    clauses, args = [], []
    if machine:
        clauses.append("machine = %s")
        args.append(machine)
    if since:
        clauses.append("coalesce(ended, started) >= %s")
        args.append(since)
    if until:
        clauses.append("started <= %s")
        args.append(until)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    limited = " LIMIT %s" if limit else ""
    rows = team.execute(
        f"SELECT {_SESSION} FROM sessions {where} ORDER BY coalesce(ended, started) DESC NULLS LAST, id{limited}",
        [*args, limit] if limit else args,
    ).fetchall()
    team.commit()
    return [_session(r) for r in rows]


def find_session(team: Any, given: str) -> TeamSession:
    """The session whose id is `given` or starts with it."""
    given = given.strip()
    if not given:
        raise NotFound("no session given")
    rows = team.execute(
        f"SELECT {_SESSION} FROM sessions WHERE id = %s OR starts_with(id, %s) ORDER BY id LIMIT 11", (given, given)
    ).fetchall()
    exact = [r for r in rows if r[0] == given]
    if exact or len(rows) == 1:
        return _session((exact or rows)[0])
    if not rows:
        raise NotFound(f"no session {given!r} in the team database")
    ids = [r[0] for r in rows]
    raise Ambiguous(f"{given!r} is the start of several sessions in the team database", ids)


def _calls(team: Any, session: str, where: str = "", args: tuple = ()) -> list[TeamCall]:
    rows = team.execute(
        "SELECT c.agent, c.line, c.tool, c.summary, c.status, c.exit_code, c.error, c.started, c.duration_s"
        " FROM calls c JOIN files f ON f.id = c.file_id JOIN sessions s ON s.id = c.session"
        f" WHERE c.session = %s AND f.machine = s.machine {where} ORDER BY c.started NULLS LAST, c.line",
        (session, *args),
    ).fetchall()
    return [TeamCall(*r) for r in rows]


def team_card(team: Any, given: str) -> TeamCard:
    """What `show --team` says of a session: its facts, tools, failures and agents (the rows
    its own machine pushed)."""
    session = find_session(team, given)
    calls = _calls(team, session.id)
    counts: dict[str, list[int]] = {}
    for c in calls:
        n = counts.setdefault(c.tool or "?", [0, 0])
        n[0] += 1
        n[1] += c.status == "error"
    tools = tuple(sorted(((t, n, f) for t, (n, f) in counts.items()), key=lambda x: (-x[1], x[0])))
    agents = _agents(team, session, calls)
    team.commit()
    return TeamCard(session, tools, tuple(c for c in calls if c.status == "error"), agents)


def _agents(team: Any, session: TeamSession, calls: list[TeamCall]) -> tuple[TeamAgent, ...]:
    rows = team.execute(
        "SELECT agent_id, type, description FROM agents WHERE session = %s AND machine = %s ORDER BY agent_id",
        (session.id, session.machine),
    ).fetchall()
    known = {r[0]: r for r in rows}
    for c in calls:  # an agent whose log pushed no agents row still has its calls
        if c.agent and c.agent not in known:
            known[c.agent] = (c.agent, None, None)
    return tuple(
        TeamAgent(agent_id, kind, description, tuple(c for c in calls if c.agent == agent_id))
        for agent_id, kind, description in sorted(known.values())
    )


def team_agents(team: Any, given: str, agent: str | None = None) -> tuple[TeamSession, tuple[TeamAgent, ...]]:
    """What `debug-agent --team` reads: the session and its agents (those whose id starts
    with `agent`, or whose type it is, when given)."""
    session = find_session(team, given)
    agents = _agents(team, session, _calls(team, session.id))
    team.commit()
    if agent:
        agents = tuple(a for a in agents if a.agent_id.startswith(agent) or (a.type or "").lower() == agent.lower())
        if not agents:
            raise NotFound(f"no agent {agent!r} in session {session.id} in the team database")
    return session, agents
