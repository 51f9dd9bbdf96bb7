"""What the `--team` commands share: the option, and the text of each team answer.

Owns: `team_option` (`--team`: read the team database instead of this machine: its address
from `$SESSION_KIT_TEAM_URL` or `team.url` in the kit's config file, as `sync` finds it), the
check that `--team` goes with none of the options only this machine can answer, and the text
and `--json` output of `search`, `sessions`, `show` and `debug-agent` with `--team` (each hit,
row or card names the machine it was pushed from). The answers are the core's
(`session_kit.team`, through `api`); `usage --team` prints with `usage`'s own table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from session_kit import api
from session_kit.cli.context import Kit
from session_kit.cli.envelope import emit_json
from session_kit.cli.layout import say
from session_kit.cli.style import highlight, terminal_width
from session_kit.cli.tables import Column, table
from session_kit.cli.text import clip, plural

F = TypeVar("F", bound=Callable[..., Any])

TEAM_HELP = "Read the team database ($SESSION_KIT_TEAM_URL, or team.url in the config file) instead of this machine."


def team_option(func: F) -> F:
    return click.option("--team", "team", is_flag=True, help=TEAM_HELP)(func)


def only_local(**given: object) -> None:
    """A usage error when an option only this machine can answer comes with `--team`."""
    clash = [name for name, value in given.items() if value]
    if clash:
        flags = ", ".join("--" + name.replace("_", "-") for name in clash)
        raise click.UsageError(f"--team does not go with {flags}", click.get_current_context())


def _when(stamp: str | None) -> str:
    return (stamp or "-")[:19].replace("T", " ") + ("Z" if stamp else "")


def print_hits(kit: Kit, query: str, found: Any) -> None:
    if kit.as_json:
        emit_json("search", {"query": query, "mode": "team", **found.as_dict()})
        return
    if not found.hits:
        say(f"No match for {query!r} in the team database.")
        return
    for h in found.hits:
        who = h.session_id + (f"/{h.agent_id}" if h.agent_id else "")
        tool = f" {h.tool}" if h.tool else ""
        failed = " (failed)" if h.status == "error" else ""
        title = f"  {clip(h.title, 60)}" if h.title else ""
        say(f"{h.machine}  {who}:{h.line}  {_when(h.timestamp)}  {h.where}{tool}{failed}{title}")
        say(f"    {highlight(api.shown(h.snippet), query)}")
        if h.origin and h.origin != f"machine:{h.machine}":
            say(f"    origin: {h.origin}")
    more = f" of {found.total}" if found.total > len(found.hits) else ""
    say(f"{len(found.hits)}{more} {'hit' if found.total == 1 else 'hits'} in the team database (best first).")


def print_sessions(kit: Kit, rows: list[Any]) -> None:
    if kit.as_json:
        emit_json("sessions", {"team": True, "sessions": [s.as_dict() for s in rows]})
        return
    if not rows:
        say("No sessions in the team database.")
        return
    columns = [
        Column("LAST ACTIVE"),
        Column("MACHINE"),
        Column("SESSION"),
        Column("PROJECT", drop=2),
        Column("ORIGIN", drop=1),
        Column("TITLE", flex=True),
    ]
    cells = [
        [_when(s.ended or s.started), s.machine, s.id, s.project or "-", s.origin, clip(s.title or s.first_request, 80)]
        for s in rows
    ]
    for line in table(columns, cells, width=terminal_width(), flex_min=0):
        say(line)
    say(f"{plural(len(rows), 'session')} in the team database.")


def _session_lines(s: Any) -> None:
    say(f"Session {s.id}")
    if s.title:
        say(f"  title:     {clip(s.title, 100)}")
    say(f"  machine:   {s.machine}   user: {s.user or '-'}   origin: {s.origin}")
    say(
        f"  project:   {s.project or '-'}   cwd: {s.cwd or '-'}   branch: {s.branch or '-'}   client: {s.version or '-'}"
    )
    say(f"  time:      {_when(s.started)} → {_when(s.ended)}")
    say(
        f"  tokens:    input {s.input_tokens}, output {s.output_tokens}, cache read {s.cache_read_tokens},"
        f" cache write {s.cache_write_tokens}"
    )


def print_card(kit: Kit, card: Any) -> None:
    if kit.as_json:
        emit_json("show", {"team": True, **card.as_dict()})
        return
    _session_lines(card.session)
    if card.session.first_request:
        say(f"  request:   {clip(card.session.first_request, 100)}")
    tools = ", ".join(f"{t} {n}" for t, n, _f in card.tools) or "none"
    say(f"Tools ({plural(sum(n for _t, n, _f in card.tools), 'call')}): {tools}")
    say(f"Failures ({len(card.failures)}):")
    for c in card.failures:
        code = f" exit {c.exit_code}" if c.exit_code is not None else ""
        where = f"{c.agent}: " if c.agent else ""
        say(f"  {where}line {c.line}  {c.tool}{code}: {clip(c.summary, 60)} — {clip(c.error, 100)}")
    say(f"Agents ({len(card.agents)}):")
    for a in card.agents:
        failed = f", {len(a.failed)} failed" if a.failed else ""
        say(f"  {a.agent_id}  [{a.type or '?'}] {clip(a.description, 50)}  {plural(len(a.calls), 'call')}{failed}")


def print_agents(kit: Kit, session: Any, agents: tuple[Any, ...], *, all_agents: bool) -> None:
    shown = agents if all_agents else tuple(a for a in agents if a.failed) or ()
    if kit.as_json:
        emit_json("debug-agent", {"team": True, "session": session.as_dict(), "agents": [a.as_dict() for a in shown]})
        return
    _session_lines(session)
    for a in shown:
        say(f"Agent {a.agent_id} [{a.type or '?'}] {clip(a.description, 80)}: {plural(len(a.calls), 'call')}")
        for c in a.failed:
            code = f" exit {c.exit_code}" if c.exit_code is not None else ""
            say(f"  line {c.line}  {c.tool}{code}: {clip(c.summary, 60)} — {clip(c.error, 300)}")
    rest = len(agents) - len(shown)
    if rest:
        say(f"{plural(rest, 'more agent')} without a failure (--all shows them).")
    elif not agents:
        say("No agents in this session.")
