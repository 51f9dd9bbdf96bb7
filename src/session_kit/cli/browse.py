"""`sessions`, `show`, `events` and `search`: looking through sessions from outside them.

Owns: these commands' options and their text output. Listing sessions is `sessions.store` and
`sessions.overview`'s; the summary, the timeline and the search are `queries.report`,
`queries.timeline` and `queries.search`'s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.outcomes import agent_status, call_outcome
from session_kit.cli.output import (
    clip,
    emit_json,
    human_duration,
    human_size,
    local_time,
    summary_text,
    warn_skipped,
)
from session_kit.cli.session_arg import resolve, session_argument
from session_kit.cli.tokens import agent_tokens, human_tokens, usage_lines
from session_kit.errors import EXIT_CODES_HELP, KitError

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


@click.command(epilog=EXIT_CODES_HELP)
@project_options("Sessions of every project.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N sessions (newest first).")
@click.option(
    "--tokens",
    "with_tokens",
    is_flag=True,
    help="Add each session's tokens and cost (agents included): reads whole files, once, then the usage index.",
)
@no_redact_option
@shared_options
@pass_kit
def sessions(kit: Kit, project_path: Path | None, all_projects: bool, limit: int | None, with_tokens: bool) -> None:
    """List sessions, newest first, with start, duration, branch, title (else the first
    prompt) and size.

    Reads only the head and tail of each file, so it stays fast on large histories; --tokens
    adds tokens and cost, counted as `session-kit usage` counts them.
    """
    refs = _sessions_of(kit, project_path, all_projects)
    if limit is not None:
        refs = refs[:limit]
    rows = list(api.overviews(refs))
    usage = _session_usage(kit) if with_tokens else None
    if kit.as_json:
        listed = [r.as_dict() for r in rows]
        if usage is not None:
            for item in listed:
                row = usage.get(item["id"])
                item["tokens"] = row.tokens.total.as_dict() if row else None
                item["cost"] = row.cost.as_dict() if row else None
        emit_json("sessions", {"claude_root": str(kit.root), "sessions": listed})
        return
    if not rows:
        click.echo("No sessions.")
        return
    extra = f"  {'TOKENS':>8}  {'COST':>9}" if usage is not None else ""
    click.echo(
        f"{'SESSION':<36}  {'START':<16}  {'DURATION':>8}  {'SIZE':>7}  {'AGENTS':>6}{extra}  {'BRANCH':<16}  TITLE / FIRST PROMPT"
    )
    for r in rows:
        if usage is not None:
            row = usage.get(r.ref.id)
            tokens = human_tokens(row.tokens.total.tokens) if row else "-"
            extra = f"  {tokens:>8}  {row.cost.display() if row else '-':>9}"
        click.echo(
            f"{r.ref.id:<36}  {local_time(r.start):<16}  {human_duration(r.duration_s):>8}  "
            f"{human_size(r.ref.size):>7}  {r.agents:>6}{extra}  {clip(r.branch, 16):<16}  {clip(r.title or r.first_prompt, 60)}"
        )


def _session_usage(kit: Kit) -> dict:
    """Each session's usage row (agents included), by session id."""
    report = api.usage_report(str(kit.root), api.load_prices(), by="session", state_root=api.state_root())
    return {row.key: row for row in report.rows}


@click.command(epilog=EXIT_CODES_HELP)
@session_argument
@no_redact_option
@shared_options
@pass_kit
def show(kit: Kit, session: str) -> None:
    """Summarise a session: requests, tools, failures, compactions, agents, tokens.

    SESSION defaults to `current`; `--session` is the same.
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
    for req in r.requests:
        click.echo(f"  {local_time(req.timestamp)}  {clip(req.text, 100)}")
    tools = ", ".join(f"{k} {v}" for k, v in r.tools.items()) or "none"
    click.echo(f"Tools ({len(r.calls)} calls): {tools}")
    click.echo(f"Failures ({len(r.failures)}):")
    for call in r.failures:
        code = f" exit {call.exit_code}" if call.exit_code is not None else ""
        click.echo(f"  line {call.line}  {call.name}{code}: {clip(call.summary, 60)} — {clip(call.error, 100)}")
    click.echo(f"Compactions ({len(r.compactions)}):")
    for comp in r.compactions:
        trigger = f" ({comp.trigger})" if comp.trigger else ""
        click.echo(
            f"  line {comp.line}  {local_time(comp.timestamp)}{trigger}  {clip(summary_text(comp.summary), 100)}"
        )
    click.echo(f"Agents ({len(r.agents)}):")
    for agent in r.agents:
        click.echo(
            f"  {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}  "
            f"{len(agent.calls)} calls, {agent_status(agent, error_chars=60)}, {agent_tokens(r.usage, agent.agent_id)}"
        )


@click.command(epilog=EXIT_CODES_HELP)
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
        click.echo(f"{local_time(c.started)}  {took:>7}  {mark:<4}{code}  {where}{c.name:<12} {clip(c.summary, 90)}")
        if c.failed and c.error:
            click.echo(f"{'':>27}└ {clip(c.error, 110)}")


@click.command(epilog=EXIT_CODES_HELP)
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
        click.echo(f"    {h.snippet}")
    click.echo(f"{len(hits)} hits in {len(targets)} files.")


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
