"""`session-kit search`: finding text in sessions, by the index or by an exact scan.

Owns: its options and both engines' text output (and the scan's progress line). Which engine
answers, the scope and the checks are `queries.search_engine`'s; the index's search
`queries.indexed`'s and `index/`'s; the scan `queries.search`'s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, project_options, shared_options
from session_kit.cli.envelope import emit_json, emit_json_list
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import highlight
from session_kit.cli.team import only_local, print_hits, team_option
from session_kit.cli.text import clip, local_time, plural
from session_kit.errors import TEAM_CODES

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.sessions.lost import Prompt

PROGRESS_AFTER_S = 1.0  # a scan that ends sooner shows no progress line


def _iso_day(value: str | None, name: str) -> str | None:
    """`--since`/`--until`: a date or ISO time, kept as text (the index compares ISO text)."""
    try:
        return api.iso_moment(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD) or ISO time", param_hint=name) from None


@click.command(
    epilog=epilog(
        "session-kit search 'parser crash' --all",
        "session-kit search pytest --errors --since 2026-01-01 --tool Bash",
        "session-kit search ENTINEL_FAIL --all --scan   # any substring, every transcript read",
        "session-kit search 'migration' --all --lost    # prompts of sessions only history.jsonl remembers",
        "session-kit search 'deploy failed' --team      # every machine's and CI run's sessions",
        codes=(3, *TEAM_CODES),
    )
)
@click.argument("query")
@project_options("Search every project.")
@click.option("--tool", "tool_name", default=None, help="Only inputs and outputs of this tool.")
@click.option("--errors", "errors_only", is_flag=True, help="Only the output of failed tool calls.")
@click.option("--since", default=None, metavar="DATE", help="Only what was written at or after DATE (ISO).")
@click.option("--until", default=None, metavar="DATE", help="Only what was written before DATE (ISO).")
@click.option("--agent", default=None, metavar="ID|TYPE", help="Only subagents: an id prefix or a type (Explore…).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N hits (index: 20 by default).")
@click.option("--scan", is_flag=True, help="Read every transcript instead of the index (exact substring search).")
@click.option(
    "--lost",
    is_flag=True,
    help="Search instead the prompts of sessions only the client's history.jsonl remembers (see `sessions --lost`).",
)
@click.option(
    "--kit",
    "with_kit",
    is_flag=True,
    help="Also the kit's own slash commands and what they expanded into (left out by default), after the rest.",
)
@team_option
@no_redact_option
@shared_options
@pass_kit
def search(
    kit: Kit,
    query: str,
    project_path: Path | None,
    all_projects: bool,
    tool_name: str | None,
    errors_only: bool,
    since: str | None,
    until: str | None,
    agent: str | None,
    limit: int | None,
    scan: bool,
    lost: bool,
    with_kit: bool,
    team: bool,
) -> None:
    """Case-insensitive search in messages, tool inputs and tool outputs (agents included).

    Uses the kit's index (brought up to date first: only what was added since is read; when
    that is much, as on a first search, it is indexed in the background and those files are
    scanned meanwhile), ranks the hits and prints, for each, the command that resumes its
    session. Sessions the client
    deleted stay found (their resume command restores them first). The index holds words:
    QUERY's words in order, the last one a prefix. --scan reads every transcript instead and
    finds QUERY as a substring; so does --no-redact, since the index holds only redacted text.
    --lost searches the prompts (typed and pasted) of the sessions whose transcripts are gone
    and were never archived, as `history.jsonl` keeps them: a substring, any case.

    The kit's own slash commands (`/sessions-search …`) and what they expanded into, their
    commands' output included, are left out unless --kit, then listed after the rest.

    --team searches the team database (`session-kit sync`) with PostgreSQL's full-text
    search, the same way (words in order, the last a prefix): every machine's and CI run's
    sessions, each hit naming the machine it came from.
    """
    if team:
        only_local(scan=scan, lost=lost, project=project_path is not None)
        filters = api.TeamFilters(
            tool=tool_name,
            errors_only=errors_only,
            since=_iso_day(since, "--since"),
            until=_iso_day(until, "--until"),
            agent=agent,
            kit=with_kit,
        )
        print_hits(kit, query, api.search_team(query, filters, state_root=api.state_root(), limit=limit or 20))
        return
    if lost:
        if scan or errors_only or since or until or agent or tool_name:
            raise click.UsageError(
                "--lost searches prompts only: no --scan, --errors, --since, --until, --agent or --tool",
                click.get_current_context(),
            )
        _lost(kit, query, project_path=project_path, all_projects=all_projects, limit=limit)
        return
    engine = api.search_engine(
        query,
        scan=scan,
        project_path=project_path,
        all_projects=all_projects,
        errors_only=errors_only,
        since=since,
        until=until,
        agent=agent,
    )
    if engine == api.SEARCH_SCAN:
        _scan(
            kit,
            query,
            project_path=project_path,
            all_projects=all_projects,
            tool_name=tool_name,
            limit=limit,
            with_kit=with_kit,
        )
        return
    project = api.index_project(kit.root, project_path=project_path, all_projects=all_projects)
    filters = api.SearchFilters(
        project=project,
        tool=tool_name,
        errors_only=errors_only,
        since=_iso_day(since, "--since"),
        until=_iso_day(until, "--until"),
        agent=agent,
        kit=with_kit,
    )
    found = api.search_history(query, kit.root, api.state_root(), filters, limit=limit or 20)
    if kit.as_json:
        emit_json("search", {"query": query, "mode": "index", **found.as_dict()})
        return
    hidden = _kit_note(0 if with_kit else found.kit_hits)
    if not found.hits:
        say(f"No match for {query!r} in the index{hidden}.")
        return
    for h in found.hits:
        who = h.session_id + (f"/{h.agent_id}" if h.agent_id else "")
        tool = f" {h.tool}" if h.tool else ""
        failed = " (failed)" if h.status == "error" else ""
        title = f"  {clip(api.shown(h.title), 60)}" if h.title else ""
        mark = " (the kit's own)" if h.kit else ""
        say(f"{who}:{h.line}  {_when(h.timestamp)}  {h.where}{tool}{failed}{mark}{title}")
        say(f"    {highlight(api.shown(h.snippet), query)}")
        if h.resume is None:
            say("    resume: not possible (its transcript is gone, and the archive has no copy)")
        elif h.resume.startswith("session-kit show "):
            # a command to copy stays on one line, however wide (the terminal wraps it, not the kit)
            click.echo(f"    read:   {h.resume}  (no transcript to resume, here or in the archive)")
        else:
            click.echo(f"    resume: {h.resume}")
    more = f" of {found.total}" if found.total > len(found.hits) else ""
    say(f"{len(found.hits)}{more} {'hit' if found.total == 1 else 'hits'} (best first){hidden}.")


def _kit_note(hidden: int) -> str:
    """What a search left out of the kit's own echoes, and how to see them."""
    if not hidden:
        return ""
    return f"; {hidden} more in the kit's own commands (--kit shows {'it' if hidden == 1 else 'them'})"


def _lost(kit: Kit, query: str, *, project_path: Path | None, all_projects: bool, limit: int | None) -> None:
    """The prompts of lost sessions holding QUERY (`sessions.lost`)."""
    if not query.strip():
        raise click.UsageError("empty query", click.get_current_context())
    hits: Iterable[Prompt] = api.search_lost(
        query, kit.root, api.state_root(), project_path=project_path, all_projects=all_projects
    )
    hits = islice(hits, limit) if limit else hits
    # Written as they are found: the history is read once, and its text never held.
    if kit.as_json:
        items = ({"session_id": h.session, "project": h.project, **h.as_dict()} for h in hits)
        emit_json_list("search", {"query": query, "mode": "lost"}, "hits", items)
        return
    count = 0
    for h in hits:
        count += 1
        say(f"{h.session or '(no session id)'}  {local_time(h.timestamp)}  lost  {h.project or '-'}")
        say(f"    {highlight(clip(h.text, 300), query)}")
    if not count:
        say(f"No match for {query!r} in the prompts of lost sessions.")
        return
    say(f"{plural(count, 'prompt')} of lost sessions, from history.jsonl.")


def _when(stamp: str | None) -> str:
    if not stamp:
        return "-"
    from datetime import datetime

    try:
        return local_time(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
    except ValueError:
        return stamp


def _scan(
    kit: Kit,
    query: str,
    *,
    project_path: Path | None,
    all_projects: bool,
    tool_name: str | None,
    limit: int | None,
    with_kit: bool,
) -> None:
    """The exact scan: every transcript of the scope read (agent logs whose session file is gone
    too), QUERY found as a substring; the kit's own echoes after the rest, with --kit."""
    targets = api.scan_targets(kit.root, project_path=project_path, all_projects=all_projects)
    progress = _progress_printer() if sys.stderr.isatty() and not kit.as_json else None
    hits, echoes = api.scan_hits(targets, query, tool=tool_name, limit=limit, progress=progress)
    if progress is not None:
        progress(-1, -1)
    shown_echoes = echoes[: max(0, limit - len(hits))] if limit is not None else echoes
    if with_kit:
        hits += shown_echoes
    if kit.as_json:
        document = {"query": query, "files": len(targets), "kit_hits": len(echoes)}
        emit_json("search", {**document, "hits": [h.as_dict() for h in hits]})
        return
    hidden = _kit_note(0 if with_kit else len(echoes))
    if not hits:
        say(f"No match for {query!r} in {plural(len(targets), 'file')}{hidden}.")
        return
    for h in hits:
        who = h.session_id + (f"/{h.agent_id}" if h.agent_id else "")
        tool = f" {h.tool}" if h.tool else ""
        mark = " (the kit's own)" if h.kit else ""
        say(f"{who}:{h.line}  {local_time(h.timestamp)}  {h.where}{tool}{mark}")
        say(f"    {highlight(h.snippet, query)}")
    say(f"{plural(len(hits), 'hit')} in {plural(len(targets), 'file')}{hidden}.")


def _progress_printer() -> Callable[[int, int], None]:
    """Prints `searched N/M files` on the terminal once a search has run for a second;
    `(-1, -1)` clears the line."""
    began = time.monotonic()
    shown = False

    def show_progress(done: int, total: int) -> None:
        nonlocal shown
        if done < 0:
            if shown:
                sys.stderr.write("\r\033[K")
            return
        if time.monotonic() - began > PROGRESS_AFTER_S:
            shown = True
            sys.stderr.write(f"\rsearched {done}/{total} files")
            sys.stderr.flush()

    return show_progress
