"""The `session-kit` command line: parses, calls the core, prints.

Owns: options, output formatting (text and `--json`) and the mapping of errors to one line
on stderr and an exit code. The only module that imports click; no logic of its own beyond
presentation.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from session_kit import __version__, paths
from session_kit.errors import EXIT_CODES_HELP, EXIT_INTERNAL, KitError, NotFound

JSON_VERSION = 1
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --- plumbing ------------------------------------------------------------------------------


class KitGroup(click.Group):
    """Turns KitError into one line and its exit code; anything else into `internal error`."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KitError as exc:
            click.echo(f"session-kit: {exc.message}", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            # `session-kit sessions | head`: the reader left; that is not an error.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(0)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("session-kit: interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:  # a bug: say so in one line, never a traceback
            if os.environ.get("SESSION_KIT_DEBUG"):
                raise
            click.echo(
                f"session-kit: internal error: {type(exc).__name__}: {exc} "
                "(set SESSION_KIT_DEBUG=1 for a traceback)",
                err=True,
            )
            ctx.exit(EXIT_INTERNAL)


def claude_dir_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--claude-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Claude root to read (default: $CLAUDE_CONFIG_DIR, else ~/.claude).",
    )(func)


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/json.md).")(func)


def emit_json(kind: str, payload: dict[str, Any]) -> None:
    document = {"version": JSON_VERSION, "kind": kind, **payload}
    # Compact on purpose: with `indent`, json falls back to its slow pure-Python encoder.
    sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")


def local_time(value: datetime | None) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M") if value else "-"


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "K", "M", "G"):
        if value < 1024 or unit == "G":
            return f"{value:.0f}{unit}" if unit == "B" else f"{value:.1f}{unit}"
        value /= 1024
    return f"{size}B"


def clip(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def root_of(claude_dir: Path | None) -> Path:
    return paths.claude_root(claude_dir)


def resolve(session: str, claude_dir: Path | None):
    from session_kit.discovery import resolve_session

    return resolve_session(session, root_of(claude_dir))


def warn_skipped(stats, path: Path) -> None:
    described = stats.describe()
    if described:
        click.echo(f"session-kit: note: {path.name}: skipped {described}", err=True)


# --- commands ------------------------------------------------------------------------------


@click.group(
    cls=KitGroup,
    context_settings=CONTEXT,
    epilog=EXIT_CODES_HELP,
    help=(
        "Inspect Claude Code sessions: list, summarise, trace tool calls and search them.\n\n"
        "SESSION arguments take a full id, a unique id prefix, a path to a .jsonl file, or "
        "`current` (the session in $SESSION_CONTEXT or $CLAUDE_CODE_SESSION_ID, else the "
        "newest session of the current directory's project)."
    ),
)
@click.version_option(__version__, prog_name="session-kit")
def main() -> None:
    pass


@main.command(epilog=EXIT_CODES_HELP)
@claude_dir_option
@json_option
def doctor(claude_dir: Path | None, as_json: bool) -> None:
    """Where the Claude root is, what is in it, and what the kit has installed."""
    from session_kit.discovery import list_project_dirs, list_sessions

    root = root_of(claude_dir)
    projects = list_project_dirs(root)
    sessions = sum(len(list_sessions(p)) for p in projects)
    report = {
        "kit_version": __version__,
        "python": sys.executable,
        "claude_root": str(root),
        "claude_root_exists": root.is_dir(),
        "claude_root_source": (
            "--claude-dir" if claude_dir else "CLAUDE_CONFIG_DIR" if os.environ.get("CLAUDE_CONFIG_DIR") else "default"
        ),
        "projects": len(projects),
        "sessions": sessions,
        "installed": {},
    }
    if as_json:
        emit_json("doctor", report)
        return
    click.echo(f"session-kit {__version__} ({sys.executable})")
    state = "" if report["claude_root_exists"] else "  (missing: Claude Code has not run here yet)"
    click.echo(f"Claude root: {root} [{report['claude_root_source']}]{state}")
    click.echo(f"Projects: {len(projects)}, sessions: {sessions}")
    click.echo("Installed: nothing yet (hooks and slash commands come with `session-kit install`).")


@main.command(epilog=EXIT_CODES_HELP)
@click.option("--project", "project_path", type=click.Path(path_type=Path), help="Project directory (default: the current one).")
@click.option("--all", "all_projects", is_flag=True, help="Sessions of every project.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N sessions (newest first).")
@claude_dir_option
@json_option
def sessions(project_path: Path | None, all_projects: bool, limit: int | None, claude_dir: Path | None, as_json: bool) -> None:
    """List sessions, newest first, with start, duration, branch, first prompt and size.

    Reads only the head and tail of each file, so it stays fast on large histories.
    """
    from session_kit.discovery import find_project, legacy_agent_index, list_all_sessions, list_sessions, overview

    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")
    root = root_of(claude_dir)
    if all_projects:
        if not paths.projects_dir(root).is_dir():
            raise NotFound(f"no Claude projects folder at {paths.projects_dir(root)}")
        refs = list_all_sessions(root)
    else:
        where = project_path or Path.cwd()
        project = find_project(root, where)
        if project is None:
            raise NotFound(f"no Claude Code sessions for {where} under {root} (try --all)")
        refs = list_sessions(project)
    if limit is not None:
        refs = refs[:limit]
    indexes: dict[Path, dict[str, list[Path]]] = {}
    rows = []
    for ref in refs:
        if ref.project not in indexes:
            indexes[ref.project] = legacy_agent_index(ref.project)
        rows.append(overview(ref, legacy_index=indexes[ref.project]))
    if as_json:
        emit_json("sessions", {"claude_root": str(root), "sessions": [r.as_dict() for r in rows]})
        return
    if not rows:
        click.echo("No sessions.")
        return
    click.echo(f"{'SESSION':<36}  {'START':<16}  {'DURATION':>8}  {'SIZE':>7}  {'AGENTS':>6}  {'BRANCH':<16}  FIRST PROMPT")
    for r in rows:
        click.echo(
            f"{r.ref.id:<36}  {local_time(r.start):<16}  {human_duration(r.duration_s):>8}  "
            f"{human_size(r.ref.size):>7}  {r.agents:>6}  {clip(r.branch, 16):<16}  {clip(r.first_prompt, 60)}"
        )


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("session")
@claude_dir_option
@json_option
def show(session: str, claude_dir: Path | None, as_json: bool) -> None:
    """Summarise a session: requests, tools, failures, compactions, agents, tokens."""
    from session_kit.report import build_report

    report = build_report(resolve(session, claude_dir))
    if as_json:
        emit_json("session", report.as_dict())
        return
    warn_skipped(report.read, report.ref.path)
    r = report
    click.echo(f"Session {r.ref.id}")
    click.echo(f"  file:      {r.ref.path} ({human_size(r.ref.size)})")
    click.echo(f"  cwd:       {r.cwd or '-'}   branch: {r.branch or '-'}   client: {r.version or '-'}")
    click.echo(f"  time:      {local_time(r.start)} → {local_time(r.end)} ({human_duration(r.duration_s)})")
    types = ", ".join(f"{k} {v}" for k, v in r.entry_types.items())
    click.echo(f"  entries:   {sum(r.entry_types.values())} ({types})")
    t = r.tokens
    click.echo(
        f"  tokens:    {t['total']} (input {t['input']}, output {t['output']}, cache write "
        f"{t['cache_creation']}, cache read {t['cache_read']}; {t['messages']} API messages)"
    )
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
        click.echo(f"  line {comp.line}  {local_time(comp.timestamp)}{trigger}  {clip(comp.summary, 80)}")
    click.echo(f"Agents ({len(r.agents)}):")
    for agent in r.agents:
        status = f"FAILED ({len(agent.failures)} failed calls)" if agent.failed else "ok"
        click.echo(
            f"  {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}  "
            f"{len(agent.calls)} calls, {status}"
        )


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("session")
@click.option("--errors", "errors_only", is_flag=True, help="Only failed calls.")
@click.option("--tool", "tool_name", default=None, help="Only calls of this tool (case-insensitive).")
@click.option("--main-only", is_flag=True, help="Leave out the calls made inside subagents.")
@claude_dir_option
@json_option
def events(
    session: str, errors_only: bool, tool_name: str | None, main_only: bool, claude_dir: Path | None, as_json: bool
) -> None:
    """The tool-call timeline, subagents' calls included: each call with its input summary,
    duration and outcome."""
    from session_kit.jsonl import ReadStats
    from session_kit.report import session_calls

    ref = resolve(session, claude_dir)
    stats = ReadStats()
    calls = session_calls(ref, stats, with_agents=not main_only)
    if errors_only:
        calls = [c for c in calls if c.failed]
    if tool_name:
        calls = [c for c in calls if c.name.lower() == tool_name.lower()]
    if as_json:
        emit_json("events", {"session_id": ref.id, "path": str(ref.path), "events": [c.as_dict() for c in calls], "read": stats.as_dict()})
        return
    warn_skipped(stats, ref.path)
    if not calls:
        click.echo("No matching tool calls.")
        return
    for c in calls:
        took = f"{c.duration_s:.1f}s" if c.duration_s is not None else "-"
        mark = {"ok": "ok", "error": "FAIL", "pending": "…"}[c.status]
        code = f" exit {c.exit_code}" if c.exit_code is not None and c.failed else ""
        where = f"[{c.agent_id[:8]}] " if c.agent_id else ""
        click.echo(f"{local_time(c.started)}  {took:>7}  {mark:<4}{code}  {where}{c.name:<12} {clip(c.summary, 90)}")
        if c.failed and c.error:
            click.echo(f"{'':>27}└ {clip(c.error, 110)}")


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("query")
@click.option("--project", "project_path", type=click.Path(path_type=Path), help="Project directory (default: the current one).")
@click.option("--all", "all_projects", is_flag=True, help="Search every project.")
@click.option("--tool", "tool_name", default=None, help="Only inputs and outputs of this tool.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N hits.")
@claude_dir_option
@json_option
def search(query: str, project_path: Path | None, all_projects: bool, tool_name: str | None, limit: int | None, claude_dir: Path | None, as_json: bool) -> None:
    """Case-insensitive search in messages, tool inputs and tool outputs (agents included)."""
    from session_kit.discovery import find_agent_logs, find_project, legacy_agent_index, list_all_sessions, list_sessions
    from session_kit.search import Query, SearchTarget, search as run_search

    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")
    if not query.strip():
        raise KitError("empty query")
    root = root_of(claude_dir)
    if all_projects:
        if not paths.projects_dir(root).is_dir():
            raise NotFound(f"no Claude projects folder at {paths.projects_dir(root)}")
        refs = list_all_sessions(root)
    else:
        where = project_path or Path.cwd()
        project = find_project(root, where)
        if project is None:
            raise NotFound(f"no Claude Code sessions for {where} under {root} (try --all)")
        refs = list_sessions(project)
    targets = []
    indexes: dict[Path, dict[str, list[Path]]] = {}
    for ref in refs:
        targets.append(SearchTarget(ref.path, ref.id))
        if ref.project not in indexes:
            indexes[ref.project] = legacy_agent_index(ref.project)
        for log in find_agent_logs(ref, legacy_index=indexes[ref.project], with_meta=False):
            targets.append(SearchTarget(log.path, ref.id, log.agent_id))
    progress = _progress_printer() if sys.stderr.isatty() and not as_json else None
    hits = []
    for hit in run_search(targets, Query(query), tool=tool_name, progress=progress):
        hits.append(hit)
        if limit is not None and len(hits) >= limit:
            break
    if progress is not None:
        progress(-1, -1)
    if as_json:
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
    """Prints `searched N/M files` on the terminal once a search has run for a second."""
    began = time.monotonic()
    shown = [False]

    def show(done: int, total: int) -> None:
        if done < 0:
            if shown[0]:
                sys.stderr.write("\r\033[K")
            return
        if time.monotonic() - began > 1.0:
            shown[0] = True
            sys.stderr.write(f"\rsearched {done}/{total} files")
            sys.stderr.flush()

    return show


if __name__ == "__main__":  # pragma: no cover
    main()
