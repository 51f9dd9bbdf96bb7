"""What the `--team` commands ask the team database: each call opens it, asks, closes.

Owns: the entry points `session_kit.api` lists for `search`, `sessions`, `usage`, `show` and
`debug-agent` with `--team`: the address as `sync` finds it (`$SESSION_KIT_TEAM_URL`, the
config file), the schema checked (a database no kit pushed to is `NotFound`; a newer kit's,
`TeamSchemaNewer`), and every failure of the driver as the kit's one-line error. The answers
are `search`'s, `reads`' and `usage`'s. Does not: write rows (a read makes no tables; it
brings an older kit's schema up to date as a push would).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from session_kit.team import connection
from session_kit.team.connection import team_database


def _open(state_root: str | None) -> Any:
    return team_database(connection.team_url(None, state_root), write=False)


def search_team(text: str, filters: Any, *, state_root: str | None, limit: int = 20) -> Any:
    """`search --team`: `search.TeamHits`."""
    from session_kit.team.search import search_team as search

    with _open(state_root) as team:
        return search(team, text, filters, limit=limit)


def team_sessions(
    *,
    state_root: str | None,
    machine: str | None = None,
    since: str | None = None,
    until: str | None = None,
    limit: int | None = None,
) -> list[Any]:
    """`sessions --team`: `reads.TeamSession`s, latest activity first."""
    from session_kit.team.reads import team_sessions as listing

    with _open(state_root) as team:
        return listing(team, machine=machine, since=since, until=until, limit=limit)


def team_card(session: str, *, state_root: str | None) -> Any:
    """`show --team`: `reads.TeamCard`."""
    from session_kit.team.reads import team_card as card

    with _open(state_root) as team:
        return card(team, session)


def team_agents(session: str, agent: str | None = None, *, state_root: str | None) -> Any:
    """`debug-agent --team`: the session and its agents."""
    from session_kit.team.reads import team_agents as agents

    with _open(state_root) as team:
        return agents(team, session, agent)


def team_usage(
    prices: Any, *, state_root: str | None, by: str = "day", since: date | None = None, until: date | None = None
) -> Any:
    """`usage --team`: a `usage.history.UsageReport` over the team's rows."""
    from session_kit.team.usage import team_usage as report

    with _open(state_root) as team:
        return report(team, prices, by=by, since=since, until=until)
