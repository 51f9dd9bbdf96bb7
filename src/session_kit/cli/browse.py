"""`sessions`, `show`, `events` and `search`: looking through sessions from outside them.

Owns: these commands' options and their text output. Listing sessions is `sessions.store` and
`sessions.overview`'s; the summary, the timeline and the search are `queries.report`,
`queries.timeline` and `queries.search`'s.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.helptext import epilog
from session_kit.cli.outcomes import agent_calls, agent_duration, agent_status, call_outcome
from session_kit.cli.output import (
    FAILURE,
    Column,
    capped,
    capped_cells,
    clip,
    echo,
    emit_json,
    emit_json_parts,
    highlight,
    human_duration,
    human_size,
    json_items,
    local_time,
    paint,
    plural,
    summary_text,
    table_lines,
    terminal_width,
    warn_skipped,
    widest,
)
from session_kit.cli.session_arg import resolve, session_argument
from session_kit.cli.timespan import When
from session_kit.cli.tokens import agent_tokens, human_tokens, usage_lines
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_NOT_FOUND, KitError

PROGRESS_AFTER_S = 1.0  # a search that ends sooner shows no progress line


def project_options(all_help: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """`--project PATH` and `--all`: the sessions to look at (default: the current project's)."""

    def add(func: Callable[..., None]) -> Callable[..., None]:
        func = click.option("--all", "all_projects", is_flag=True, help=all_help)(func)
        return click.option(
            "--project",
            "project_path",
            type=click.Path(path_type=Path),
            help="Project directory (default: the current one).",
        )(func)

    return add


def _check_scope(project_path: Path | None, all_projects: bool) -> None:
    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")


def _sessions_of(kit: Kit, project_path: Path | None, all_projects: bool) -> list[api.SessionRef]:
    _check_scope(project_path, all_projects)
    return api.sessions_in_scope(kit.root, project_path=project_path, all_projects=all_projects)


SESSION_CODES = (EXIT_NOT_FOUND, EXIT_AMBIGUOUS)  # a command about one session: none or several match
WARMUP_PROMPT = "warmup"  # 2.0.x clients started sessions of their own with this prompt


@click.command(
    epilog=epilog(
        "session-kit sessions                      # this project's sessions",
        "session-kit sessions --all --since 7d     # every project, active in the last week",
        "session-kit sessions --until 2026-11-01 --limit 5",
        "session-kit sessions --json | jq -r '.sessions[].id'",
        codes=(EXIT_NOT_FOUND,),
    )
)
@project_options("Sessions of every project (adds a PROJECT column).")
@click.option(
    "--since", type=When(), default=None, help="Only sessions active at or after WHEN (a date, or an age: 7d, 12h)."
)
@click.option("--until", type=When(), default=None, help="Only sessions that began at or before WHEN.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N sessions (the latest active).")
@click.option(
    "--tokens",
    "with_tokens",
    is_flag=True,
    help="Add each session's tokens and cost (agents included): reads whole files, once, then the usage index.",
)
@no_redact_option
@shared_options
@pass_kit
def sessions(
    kit: Kit,
    project_path: Path | None,
    all_projects: bool,
    since: datetime | None,
    until: datetime | None,
    limit: int | None,
    with_tokens: bool,
) -> None:
    """List sessions, latest activity first, with last activity, duration, size, agents,
    branch, title (else the first prompt).

    LAST ACTIVE is the last time written in the transcript (never the file's mtime, which a
    copy changes), in UTC like --json; a session with no time shows `-` and is listed last.
    Warmup sessions of 2.0.x clients are marked `(warmup)`. Rows fit the terminal: the title
    is cut, and on a narrow one the AGENTS, BRANCH, SIZE and DURATION columns are left out in
    that order; ids are never cut. Reads only the head and
    tail of each file, and prints each row in its turn (memory stays flat on any number of
    sessions); --tokens adds tokens and cost, counted as `session-kit usage` counts them.
    """
    _check_scope(project_path, all_projects)
    # Ordered now, each row made as it is printed: the listing's memory does not grow with
    # the number of sessions (1,000 or 30,000: the same peak RSS).
    found = api.latest_first(
        kit.root, project_path=project_path, all_projects=all_projects, since=since, until=until, limit=limit
    )
    usage = _session_usage(kit) if with_tokens else None
    if kit.as_json:
        # The rows' JSON is made in the listing's batches, on two cores for a long listing.
        parts = found.map_batches(lambda rows: json_items(list(_listed(rows, usage))))
        emit_json_parts("sessions", {"claude_root": str(kit.root)}, "sessions", parts)
        return
    columns = [
        Column("SESSION"),
        Column("LAST ACTIVE"),
        Column("DURATION", right=True, drop=4),
        Column("SIZE", right=True, drop=3),
        Column("AGENTS", right=True, drop=1),
        *([Column("TOKENS", right=True), Column("COST", right=True)] if usage is not None else []),
        Column("BRANCH", drop=2, cap=16),
        *([Column("PROJECT", cap=40)] if all_projects else []),
        Column("TITLE / FIRST PROMPT", flex=True),
    ]

    def cells(rows: list[api.SessionOverview]) -> list[list[str]]:
        return [
            capped_cells(
                columns,
                [
                    r.ref.id,
                    local_time(r.end),  # `-` when the transcript has no time (never the mtime)
                    human_duration(r.duration_s),
                    human_size(r.ref.size),
                    str(r.agents),
                    *(_usage_cells(usage.get(r.ref.id)) if usage is not None else []),
                    clip(r.branch, None) or "-",
                    *([clip(r.cwd or r.ref.project.name, None)] if all_projects else []),
                    _title(r),
                ],
            )
            for r in rows
        ]

    # A column is as wide as its widest cell: the rows wait in a file until every one is
    # made (memory stays flat however many sessions there are), then the table is laid out.
    natural = widest(columns, [])
    import tempfile  # here: only this table needs it (with shutil and random, ~3 ms of a start)

    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        for part in found.map_batches(cells):
            widest(columns, part, natural)
            spool.writelines(json.dumps(row) + "\n" for row in part)
        if not spool.tell():
            click.echo("No sessions.")
            return
        spool.seek(0)
        for line in table_lines(columns, map(json.loads, spool), natural, width=terminal_width()):
            click.echo(line)


def _listed(rows: Iterable[api.SessionOverview], usage: dict | None) -> Iterator[dict[str, Any]]:
    """Each row as `--json` gives it, with its tokens and cost when `usage` is given."""
    for r in rows:
        item = r.as_dict()
        if usage is not None:
            row = usage.get(item["id"])
            item["tokens"] = row.tokens.total.as_dict() if row else None
            item["cost"] = row.cost.as_dict() if row else None
        yield item


def _usage_cells(row: object | None) -> list[str]:
    if row is None:
        return ["-", "-"]
    return [human_tokens(row.tokens.total.tokens), row.cost.display()]  # type: ignore[attr-defined]


def _session_usage(kit: Kit) -> dict:
    """Each session's usage row (agents included), by session id."""
    report = api.usage_report(str(kit.root), api.load_prices(), by="session", state_root=api.state_root())
    return {row.key: row for row in report.rows}


def _title(row: api.SessionOverview) -> str:
    prompt = clip(row.title or row.first_prompt, 2000)
    if not row.title and (row.first_prompt or "").strip().lower() == WARMUP_PROMPT:
        return "(warmup)"
    return prompt


SHOW_LIMIT = 20  # items of each list `show` prints without --full


@click.command(
    epilog=epilog(
        "session-kit show                 # the current session",
        "session-kit show 3f2a            # a session by id prefix",
        "session-kit show ~/old.jsonl --full",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option(
    "--full", is_flag=True, help=f"Every item of each list (by default the first {SHOW_LIMIT} and a count of the rest)."
)
@no_redact_option
@shared_options
@pass_kit
def show(kit: Kit, session: str, full: bool) -> None:
    """Summarise a session: requests, tools, failures, compactions, agents, tokens.

    SESSION defaults to `current`; `--session` is the same. Each list shows its first
    items and how many more there are; --full lists all (--json always has all).
    """
    r = api.session_report(resolve(kit, session))
    if kit.as_json:
        emit_json("show", r.as_dict())
        return
    warn_skipped(r.read, r.ref.path)
    click.echo(f"Session {r.ref.id}")
    if r.title:
        click.echo(f"  title:     {clip(r.title, 100)}")
    click.echo(f"  file:      {r.ref.path} ({human_size(r.ref.size)})")
    click.echo(f"  cwd:       {r.cwd or '-'}   branch: {r.branch or '-'}   client: {r.version or '-'}")
    click.echo(f"  time:      {local_time(r.start)} → {local_time(r.end)} ({human_duration(r.duration_s)})")
    types = ", ".join(f"{k} {v}" for k, v in r.entry_types.items())
    click.echo(f"  entries:   {sum(r.entry_types.values())} ({types})")
    for line in usage_lines(r.usage):
        click.echo(line)
    click.echo(f"Requests ({len(r.requests)}):")
    requests, more = capped(r.requests, full=full, limit=SHOW_LIMIT)
    for req in requests:
        click.echo(f"  {local_time(req.timestamp)}  {clip(req.text, 100)}")
    _more(more)
    tools = ", ".join(f"{k} {v}" for k, v in r.tools.items()) or "none"
    click.echo(f"Tools ({plural(len(r.calls), 'call')}): {tools}")
    click.echo(f"Failures ({len(r.failures)}):")
    failures, more = capped(r.failures, full=full, limit=SHOW_LIMIT)
    for call in failures:
        code = f" exit {call.exit_code}" if call.exit_code is not None else ""
        echo(
            f"  line {call.line}  {paint(call.name + code, FAILURE)}: {clip(call.summary, 60)} — {clip(call.error, 100)}"
        )
    _more(more)
    click.echo(f"Compactions ({len(r.compactions)}):")
    compactions, more = capped(r.compactions, full=full, limit=SHOW_LIMIT)
    for comp in compactions:
        trigger = f" ({comp.trigger})" if comp.trigger else ""
        click.echo(
            f"  line {comp.line}  {local_time(comp.timestamp)}{trigger}  {clip(summary_text(comp.summary), 100)}"
        )
    _more(more)
    click.echo(f"Agents ({len(r.agents)}):")
    agents, more = capped(r.agents, full=full, limit=SHOW_LIMIT)
    for agent in agents:
        status = agent_status(agent, error_chars=60)
        echo(
            f"  {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}  "
            f"{agent_calls(agent)}, {agent_duration(agent)}, {paint(status, FAILURE) if agent.failed else status}, "
            f"{agent_tokens(r.usage, agent.agent_id)}"
        )
    _more(more)


def _more(line: str | None) -> None:
    if line:
        click.echo(f"  {line}")


@click.command(
    epilog=epilog(
        "session-kit events --errors             # the failed calls of the current session",
        "session-kit events 3f2a --tool Bash --main-only",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--errors", "errors_only", is_flag=True, help="Only failed calls.")
@click.option("--tool", "tool_name", default=None, help="Only calls of this tool (case-insensitive).")
@click.option("--main-only", is_flag=True, help="Leave out the calls made inside subagents.")
@no_redact_option
@shared_options
@pass_kit
def events(kit: Kit, session: str, errors_only: bool, tool_name: str | None, main_only: bool) -> None:
    """The tool-call timeline, subagents' calls included: each call with its input summary,
    duration and outcome.

    SESSION defaults to `current`; `--session` is the same.
    """
    ref = resolve(kit, session)
    timeline = api.session_timeline(ref, with_agents=not main_only, errors_only=errors_only, tool=tool_name)
    if kit.as_json:
        emit_json("events", timeline.as_dict())
        return
    warn_skipped(timeline.read, ref.path)
    if not timeline.calls:
        click.echo("No matching tool calls.")
        return
    for c in timeline.calls:
        took, mark, code = call_outcome(c)
        where = f"[{c.agent_id[:8]}] " if c.agent_id else ""
        outcome = f"{mark:<4}{code}"
        echo(
            f"{local_time(c.started)}  {took:>7}  {paint(outcome, FAILURE) if c.failed else outcome}  "
            f"{where}{c.name:<12} {clip(c.summary, 90)}"
        )
        if c.failed and c.error:
            echo(f"{'':>31}└ {paint(clip(c.error, 110), FAILURE)}")


@click.command(
    epilog=epilog(
        "session-kit search 'ModuleNotFoundError'          # this project's sessions",
        "session-kit search --all --tool Bash 'pytest -x' --limit 20",
        codes=(EXIT_NOT_FOUND,),
    )
)
@click.argument("query")
@project_options("Search every project.")
@click.option("--tool", "tool_name", default=None, help="Only inputs and outputs of this tool.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N hits.")
@no_redact_option
@shared_options
@pass_kit
def search(
    kit: Kit, query: str, project_path: Path | None, all_projects: bool, tool_name: str | None, limit: int | None
) -> None:
    """Case-insensitive search in messages, tool inputs and tool outputs (agents included).

    Agent logs whose session file is gone are searched too.
    """
    _check_scope(project_path, all_projects)
    if not query.strip():
        raise KitError("empty query")
    refs = _sessions_of(kit, project_path, all_projects)
    projects = api.projects_in_scope(kit.root, project_path=project_path, all_projects=all_projects)
    targets = list(api.session_targets(refs, orphans_of=projects))
    progress = _progress_printer() if sys.stderr.isatty() and not kit.as_json else None
    hits: list[api.SearchHit] = []
    for hit in api.search(targets, api.Query(query), tool=tool_name, progress=progress, limit=limit):
        hits.append(hit)
        if limit is not None and len(hits) >= limit:
            break
    if progress is not None:
        progress(-1, -1)
    if kit.as_json:
        emit_json("search", {"query": query, "files": len(targets), "hits": [h.as_dict() for h in hits]})
        return
    if not hits:
        click.echo(f"No match for {query!r} in {len(targets)} files.")
        return
    for h in hits:
        who = h.session_id + (f"/{h.agent_id}" if h.agent_id else "")
        tool = f" {h.tool}" if h.tool else ""
        click.echo(f"{who}:{h.line}  {local_time(h.timestamp)}  {h.where}{tool}")
        echo(f"    {highlight(h.snippet, query)}")
    click.echo(f"{plural(len(hits), 'hit')} in {plural(len(targets), 'file')}.")


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
