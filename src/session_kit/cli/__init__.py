"""The `session-kit` command line: parses, calls the core, prints.

Owns: options, output formatting (text and `--json`) and the mapping of errors to one line
on stderr and an exit code. The only module that imports click; no logic of its own beyond
presentation.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from session_kit import __version__
from session_kit.claude import paths
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
            click.echo(f"session-kit: {worded(exc)}", err=True)
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


# The library's option names, as the command line spells them.
FLAGS = {
    "to_stdout": "--stdout",
    "output_dir": "--output-dir",
    "max_tokens": "--max-tokens",
    "distill": "--distill",
    "prefix": "--prefix",
    "filtering": "--no-filtering",
}


def worded(error: KitError) -> str:
    """A core error in the command line's words: its flags, and what to try."""
    from session_kit.errors import InvalidOptions, NoScratchDir, NoSessionsHere

    if isinstance(error, InvalidOptions):
        return error.describe(FLAGS)
    if isinstance(error, NoSessionsHere):
        return f"{error.message} (try --all)"
    if isinstance(error, NoScratchDir):
        return f"{error.message}; give --output-dir"
    return error.message


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


def call_outcome(call: Any) -> tuple[str, str, str]:
    """(duration, mark, exit code) of a tool call as the text outputs show them."""
    took = f"{call.duration_s:.1f}s" if call.duration_s is not None else "-"
    mark = {"ok": "ok", "error": "FAIL", "pending": "…"}[call.status]
    code = f" exit {call.exit_code}" if call.exit_code is not None and call.failed else ""
    return took, mark, code


def agent_status(run: Any, *, error_chars: int | None = None) -> str:
    """`ok`, or `FAILED (N failed calls, ended in error[: why])`; the why only with `error_chars`."""
    if not run.failed:
        return "ok"
    why = []
    if run.failures:
        why.append(f"{len(run.failures)} failed call{'s' if len(run.failures) != 1 else ''}")
    if run.ended_in_error:
        why.append("ended in error" + (f": {clip(run.error, error_chars)}" if error_chars else ""))
    return f"FAILED ({', '.join(why)})"


def root_of(claude_dir: Path | None) -> Path:
    return paths.claude_root(claude_dir)


def resolve(session: str, claude_dir: Path | None):
    from session_kit.sessions.resolve import resolve_session

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
    """Where the Claude root and the kit's state are, what they hold, and what is installed.

    Exits 0 when the kit is installed and current for the user (or this project), else 1
    with a line saying what to run.
    """
    from session_kit.queries.doctor import ROOT_FROM_OPTION, doctor_report, root_source

    root = root_of(claude_dir)
    report = doctor_report(claude_root=root, root_source=root_source(claude_dir is not None), project=Path.cwd())
    installed, state_root, log_path, hook_errors = (
        report["installed"], report["state_root"], report["hook_log"], report["hook_log_lines"]
    )
    ok = report["ok"]
    if report["claude_root_source"] == ROOT_FROM_OPTION:
        report["claude_root_source"] = "--claude-dir"
    if as_json:
        emit_json("doctor", report)
    else:
        click.echo(f"session-kit {__version__} ({sys.executable})")
        missing = "" if report["claude_root_exists"] else "  (missing: Claude Code has not run here yet)"
        click.echo(f"Claude root: {root} [{report['claude_root_source']}]{missing}")
        click.echo(f"Projects: {report['projects']}, sessions: {report['sessions']}")
        click.echo(f"Kit state:   {state_root}")
        if not installed:
            click.echo("Installed:   nothing (run `session-kit install`)")
        for item in installed:
            hooks = ", ".join(sorted(item["hooks"])) or "no hooks"
            current = "current" if item["current"] else "OUTDATED or incomplete (run `session-kit install`)"
            click.echo(f"Installed ({item['scope']}): {item['settings_path']}: {hooks}; {current}")
            if item["commands"]:
                click.echo(f"  slash commands: {', '.join('/' + c for c in item['commands'])}")
            if item["error"]:
                click.echo(f"  problem: {item['error']}")
        if hook_errors:
            click.echo(f"Hook log: {hook_errors} problem lines in {log_path}")
    if not ok:
        sys.exit(1)


@main.command(epilog=EXIT_CODES_HELP)
@click.option("--scope", type=click.Choice(["user", "project", "local"]), default="user", show_default=True,
              help="user: ~/.claude/settings.json; project: .claude/settings.json; local: .claude/settings.local.json.")
@click.option("--dry-run", is_flag=True, help="Say what would change; change nothing.")
@claude_dir_option
@json_option
def install(scope: str, dry_run: bool, claude_dir: Path | None, as_json: bool) -> None:
    """Install the kit's hooks and slash commands into Claude Code.

    Only the kit's own hook entries (marked `# claude-session-kit`) are added or replaced;
    installing twice is the same as once. The settings file is backed up, locked and
    replaced atomically; an invalid one is left as it was (exit 5). A slash-command file of
    yours with the same name is never overwritten.
    """
    from session_kit.install import installer as kit_install

    result = kit_install.install(scope=scope, claude_root=root_of(claude_dir), project=Path.cwd(), dry_run=dry_run)
    _report_install(result, as_json, verb="install")


@main.command(epilog=EXIT_CODES_HELP)
@click.option("--scope", type=click.Choice(["user", "project", "local"]), default="user", show_default=True)
@click.option("--dry-run", is_flag=True, help="Say what would change; change nothing.")
@claude_dir_option
@json_option
def uninstall(scope: str, dry_run: bool, claude_dir: Path | None, as_json: bool) -> None:
    """Remove the kit's hooks and slash commands: the settings become what they were."""
    from session_kit.install import installer as kit_install

    result = kit_install.uninstall(scope=scope, claude_root=root_of(claude_dir), project=Path.cwd(), dry_run=dry_run)
    _report_install(result, as_json, verb="uninstall")


def _report_install(result: Any, as_json: bool, *, verb: str) -> None:
    if as_json:
        emit_json(verb, result.as_dict())
        return
    would = "would be " if result.dry_run else ""
    if result.changed:
        click.echo(f"{result.settings_path}: hooks {would}{'installed' if verb == 'install' else 'removed'}")
    else:
        click.echo(f"{result.settings_path}: already {'current' if verb == 'install' else 'without the kit'}")
    if result.backup:
        click.echo(f"  backup of the previous file: {result.backup}")
    for name in result.commands_installed:
        click.echo(f"  slash command /{name} {would}installed")
    for name in result.commands_skipped:
        click.echo(f"  slash command /{name} skipped: a file of yours has that name", err=True)
    for name in result.commands_removed:
        click.echo(f"  slash command /{name} {would}removed")


# --- scratch ---------------------------------------------------------------------------------


@main.group(cls=KitGroup, context_settings=CONTEXT, epilog=EXIT_CODES_HELP)
def scratch() -> None:
    """The session's scratch directory and its work state (values and notes).

    The session is --session, else $SESSION_CONTEXT / $CLAUDE_CODE_SESSION_ID (the kit's
    hooks export them), else the current project's `current-session-id` pointer. The work
    state is put back into the model's context after a compaction.
    """


def session_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--session", "session_id", default=None, help="Session id (default: from the environment).")(func)


def _scratch_for(session_id: str | None):
    from session_kit.state import root as state
    from session_kit.state.current import current_session_id
    from session_kit.state.ids import InvalidSessionId, check_session_id
    from session_kit.state.scratch import SessionScratch

    root = state.state_root()
    found = (session_id, "option") if session_id else current_session_id(state_root=root)
    if not found:
        raise NotFound("no session: pass --session, or run inside a Claude Code session with the kit's hooks installed")
    try:
        sid = check_session_id(found[0])
    except InvalidSessionId as exc:
        raise KitError(str(exc)) from None
    exported = os.environ.get("SESSION_KIT_SCRATCH")
    if exported and os.path.basename(exported.rstrip("/")) == sid:
        key = os.path.basename(os.path.dirname(os.path.dirname(exported.rstrip("/"))))
        return SessionScratch(root, key, sid, exported.rstrip("/"))
    return SessionScratch.for_session(sid, project_path=os.environ.get("CLAUDE_PROJECT_DIR"), root=root)


def _scratch_call(action: Callable[[], Any]) -> Any:
    from session_kit.state.scratch import ScratchError

    try:
        return action()
    except ScratchError as exc:
        raise KitError(str(exc)) from None


@scratch.command("path")
@session_option
def scratch_path(session_id: str | None) -> None:
    """Print the scratch directory (created if missing)."""
    click.echo(_scratch_for(session_id).create().path)


@scratch.command("set")
@click.argument("key")
@click.argument("value")
@session_option
def scratch_set(key: str, value: str, session_id: str | None) -> None:
    """Save VALUE under KEY (`-` reads the value from stdin)."""
    if value == "-":
        value = sys.stdin.read()
    s = _scratch_for(session_id)
    _scratch_call(lambda: s.set(key, value))
    click.echo(f"saved {key} ({len(value)} chars) in {s.path}")


@scratch.command("get")
@click.argument("key")
@session_option
def scratch_get(key: str, session_id: str | None) -> None:
    """Print the value saved under KEY (exit 3 when there is none)."""
    value = _scratch_for(session_id).get(key)
    if value is None:
        raise NotFound(f"no value saved under {key!r}")
    click.echo(value)


@scratch.command("unset")
@click.argument("key")
@session_option
def scratch_unset(key: str, session_id: str | None) -> None:
    """Forget the value saved under KEY."""
    if not _scratch_for(session_id).unset(key):
        raise NotFound(f"no value saved under {key!r}")


@scratch.command("note")
@click.argument("text")
@session_option
def scratch_note(text: str, session_id: str | None) -> None:
    """Append a timestamped note (`-` reads it from stdin)."""
    if text == "-":
        text = sys.stdin.read()
    s = _scratch_for(session_id)
    _scratch_call(lambda: s.note(text))
    click.echo(f"noted in {s.path}")


@scratch.command("show")
@session_option
@json_option
def scratch_show(session_id: str | None, as_json: bool) -> None:
    """The work state: values and notes."""
    from session_kit.state.scratch import render_state

    s = _scratch_for(session_id)
    current = s.read_state()
    if as_json:
        emit_json("scratch", {"session_id": s.session_id, "path": s.path, **current})
        return
    click.echo(render_state(current, session_id=s.session_id, scratch_path=s.path, limit=10**9, heading="Work state"))


@scratch.command("list")
@json_option
def scratch_list(as_json: bool) -> None:
    """Every session's scratch directory, newest activity first."""
    from session_kit.state import root as state
    from session_kit.state.scratch import SessionScratch, iter_scratch_dirs, last_activity

    root = state.state_root()
    rows = []
    for key, sid, path in iter_scratch_dirs(root):
        try:
            st = SessionScratch(root, key, sid, path).read_state()
            rows.append({"session_id": sid, "project": key, "path": path, "last_activity": last_activity(path),
                         "values": len(st["values"]), "notes": len(st["notes"])})
        except (OSError, ValueError):
            continue
    rows.sort(key=lambda r: r["last_activity"], reverse=True)
    if as_json:
        for r in rows:
            r["last_activity"] = datetime.fromtimestamp(r["last_activity"]).astimezone().isoformat()
        emit_json("scratch-list", {"state_root": root, "sessions": rows})
        return
    if not rows:
        click.echo(f"No scratch directories under {root}.")
    for r in rows:
        when = datetime.fromtimestamp(r["last_activity"]).strftime("%Y-%m-%d %H:%M")
        click.echo(f"{r['session_id']:<36}  {when}  {r['values']:>3} values  {r['notes']:>3} notes  {r['project']}")


def _duration(text: str) -> float:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
    try:
        return float(text[:-1]) * units[text[-1]] if text and text[-1] in units else float(text) * 86400
    except ValueError:
        raise KitError(f"not a duration: {text!r} (e.g. 7d, 12h, 30m)") from None


@scratch.command("clean")
@click.option("--older-than", "older_than", default="30d", show_default=True, help="Idle for longer than this (s, m, h, d, w).")
@click.option("--dry-run", is_flag=True, help="List what would be removed.")
def scratch_clean(older_than: str, dry_run: bool) -> None:
    """Remove scratch directories idle for longer than --older-than; never the current session's."""
    from session_kit.state import root as state
    from session_kit.state.scratch import clean

    removed = clean(state.state_root(), older_than_s=_duration(older_than), dry_run=dry_run)
    for path in removed:
        click.echo(("would remove " if dry_run else "removed ") + path)
    if not removed:
        click.echo("nothing to clean")


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
    from session_kit.sessions.overview import overviews
    from session_kit.sessions.store import sessions_in_scope

    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")
    root = root_of(claude_dir)
    refs = sessions_in_scope(root, project_path=project_path, all_projects=all_projects)
    if limit is not None:
        refs = refs[:limit]
    rows = list(overviews(refs))
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
    from session_kit.queries.report import session_report

    report = session_report(resolve(session, claude_dir))
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
        click.echo(
            f"  {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}  "
            f"{len(agent.calls)} calls, {agent_status(agent, error_chars=60)}"
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
    from session_kit.queries.timeline import session_timeline

    ref = resolve(session, claude_dir)
    timeline = session_timeline(ref, with_agents=not main_only, errors_only=errors_only, tool=tool_name)
    calls = timeline.calls
    if as_json:
        emit_json("events", timeline.as_dict())
        return
    warn_skipped(timeline.read, ref.path)
    if not calls:
        click.echo("No matching tool calls.")
        return
    for c in calls:
        took, mark, code = call_outcome(c)
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
    from session_kit.sessions.store import sessions_in_scope
    from session_kit.queries.search import Query, search as run_search, session_targets

    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")
    if not query.strip():
        raise KitError("empty query")
    root = root_of(claude_dir)
    refs = sessions_in_scope(root, project_path=project_path, all_projects=all_projects)
    targets = list(session_targets(refs))
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


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("session")
@click.option("--no-agents", is_flag=True, help="Leave out the session's subagents.")
@click.option(
    "--no-filtering",
    is_flag=True,
    help="Only drop noise: no pruning, truncation, deduplication, log-discovery removal, "
    "nor the empty/warmup check.",
)
@click.option("--thinking", is_flag=True, help="Keep the model's thinking blocks.")
@click.option(
    "--max-tokens",
    type=click.IntRange(min=100),
    default=None,
    help="Split into documents of at most N tokens (4 characters each), between entries.",
)
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the documents (default: the session's scratch dir).",
)
@click.option("--prefix", default="session", show_default=True, help="Files are PREFIX-SESSIONID-partN.xml.")
@click.option("--stdout", "to_stdout", is_flag=True, help="Write one document (agents inside) to stdout instead.")
@click.option("--no-redact", is_flag=True, help="Keep secrets (keys, tokens, passwords) instead of redacting them.")
@click.option(
    "--distill",
    is_flag=True,
    help="Also give each document to a small model through `claude -p` ($SESSION_KIT_CLAUDE, else "
    "claude on PATH) and write its reduction beside it as .distilled.xml.",
)
@claude_dir_option
@json_option
def preprocess(
    session: str,
    no_agents: bool,
    no_filtering: bool,
    thinking: bool,
    max_tokens: int | None,
    output_dir: Path | None,
    prefix: str,
    to_stdout: bool,
    no_redact: bool,
    distill: bool,
    claude_dir: Path | None,
    as_json: bool,
) -> None:
    """Turn a session and its agents into compact XML documents for an LLM to read.

    Prints the paths written, one per line, and the reduction on stderr (see
    docs/preprocess.md). An empty or warmup session writes nothing and exits 6.
    """
    from session_kit.errors import EXIT_NOTHING_TO_DO
    from session_kit.preprocess import PreprocessOptions, preprocess_session

    if to_stdout and as_json:
        raise KitError("--stdout and --json both write to stdout; choose one")
    options = PreprocessOptions(
        agents=not no_agents,
        filtering=not no_filtering,
        thinking=thinking,
        redact=not no_redact,
        max_tokens=max_tokens,
        output_dir=output_dir,
        prefix=prefix,
        to_stdout=to_stdout,
        distill=distill,
    )
    ref = resolve(session, claude_dir)
    result = preprocess_session(ref, options, stream=sys.stdout if to_stdout else None)
    if as_json:
        emit_json("preprocess", result.as_dict())
    else:
        warn_skipped(result.read, ref.path)
        for path in result.paths:
            click.echo(str(path))
        click.echo(f"session-kit: {result.reduction.describe()}", err=True)
        if result.redactions:
            redacted = ", ".join(f"{kind} {n}" for kind, n in sorted(result.redactions.items()))
            click.echo(f"session-kit: redacted {redacted}", err=True)
    if not result.ok:
        raise KitError(
            f"session {ref.id} is {result.status} ({result.reason}): nothing written "
            "(--no-filtering writes it anyway)",
            exit_code=EXIT_NOTHING_TO_DO,
        )


# --- inside a session: debug-agent, plan, info ------------------------------------------------

ERROR_LIMIT = 500  # characters of an error shown in a list of agents (--full: all)
DETAIL_ERROR_LIMIT = 2000  # … and for one agent shown in detail
TEXT_LIMIT = 300  # a prompt or answer in a list of agents
OTHERS_NAMED = 10  # agents named on the "not shown" line


def in_session_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--session",
        "session",
        default="current",
        show_default=True,
        help="Session id, prefix or .jsonl path; empty or `current`: this session.",
    )(func)


def clock(value: datetime | None) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M:%S") if value else "-"


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0, 9), *range(11, 32), 127)}


def visible(text: str | None) -> str:
    """Control characters written out (`\\x1b`): a transcript must not drive the terminal."""
    return (text or "").translate(_CONTROL)


def as_is(text: str | None, limit: int | None, indent: str) -> list[str]:
    """Text kept as written (lines, markup and all; control characters made visible), cut
    after `limit` characters."""
    text = visible(text).rstrip()
    cut = ""
    if limit is not None and len(text) > limit:
        cut = f"… [{len(text) - limit} more characters; --full shows all]"
        text = text[:limit]
    lines = text.splitlines() or [""]
    if cut:
        lines[-1] += cut
    return [indent + line for line in lines]


def _calls_of(run: Any, tool_name: str | None) -> list[Any]:
    from session_kit.queries.agent_tree import calls_of_tool

    return calls_of_tool(run.calls, tool_name)


def _agent_head(node: Any) -> str:
    run = node.run  # the error itself is printed under the head
    return f"{run.agent_id}  [{run.agent_type or '?'}] {clip(run.description, 70)}  {agent_status(run)}"


def _print_agent(node: Any, *, detail: bool, every_call: bool, full: bool, tool_name: str | None) -> None:
    run = node.run
    pad = "  " * node.depth
    inner = pad + "  "
    click.echo(pad + _agent_head(node))
    spawned = f"agent {run.parent_agent_id}" if run.parent_agent_id else "the main conversation"
    click.echo(
        f"{inner}ran {clock(run.start)} → {clock(run.end)} ({human_duration(run.duration_s)}), "
        f"model {run.model or '-'}, spawned by {spawned}"
        + (f" ({run.tool_use_id})" if run.tool_use_id else "")
    )
    if detail:
        click.echo(f"{inner}log: {run.log.path} ({run.log.layout} layout)")
        if node.children:
            click.echo(f"{inner}spawned: {', '.join(node.children)}")
        click.echo(f"{inner}prompt:")
        for line in as_is(run.prompt, None if full else DETAIL_ERROR_LIMIT, inner + "  "):
            click.echo(line)
    else:
        click.echo(f"{inner}asked: {visible(clip(run.prompt, 10**9 if full else TEXT_LIMIT))}")
    limit = None if full else (DETAIL_ERROR_LIMIT if detail else ERROR_LIMIT)
    if run.ended_in_error:
        click.echo(f"{inner}ended in error:")
        for line in as_is(run.error, limit, inner + "  "):
            click.echo(line)
    calls = _calls_of(run, tool_name)
    failed = [c for c in calls if c.failed]
    listed = calls if every_call else failed
    what = f" of {tool_name}" if tool_name else ""
    click.echo(f"{inner}tool calls{what}: {len(calls)} ({len(failed)} failed)" + (":" if listed else ""))
    for c in listed:
        took, mark, code = call_outcome(c)
        click.echo(f"{inner}  {mark}{code}  {c.name}  {took}  {visible(c.summary)}")
        if c.failed and c.error:
            for line in as_is(c.error, limit, inner + "      "):
                click.echo(line)
    if detail:
        click.echo(f"{inner}final answer:")
        for line in as_is(run.final_answer or "(none)", None, inner + "  "):
            click.echo(line)
    else:
        click.echo(f"{inner}answer: {visible(clip(run.final_answer, 10**9 if full else TEXT_LIMIT)) or '(none)'}")


@main.command("debug-agent", epilog=EXIT_CODES_HELP)
@click.argument("agent", required=False)
@in_session_option
@click.option("--all", "all_agents", is_flag=True, help="Every agent, not only the failed ones.")
@click.option("--type", "agent_type", default=None, help="Only agents of this type (Plan, general-purpose…).")
@click.option("--tool", "tool_name", default=None, help="Only agents that called this tool, and only those calls.")
@click.option("--full", is_flag=True, help="Errors, prompts and answers whole, never cut.")
@claude_dir_option
@json_option
def debug_agent(
    agent: str | None,
    session: str,
    all_agents: bool,
    agent_type: str | None,
    tool_name: str | None,
    full: bool,
    claude_dir: Path | None,
    as_json: bool,
) -> None:
    """What the session's subagents were asked, what they did, what failed and why.

    By default the failed agents (a tool call failed, or the agent ended in error), then one
    line naming the rest; AGENT (an id prefix) shows one agent in detail; --all shows every
    agent. An agent started by an agent is shown under it. Error text is printed as written,
    cut at a few hundred characters unless --full (--json never cuts).
    """
    from session_kit.queries.agent_tree import debug_agents

    ref = resolve(session or "current", claude_dir)
    report = debug_agents(ref, agent=agent, all_agents=all_agents, agent_type=agent_type, tool=tool_name)
    picked = report.selection
    if as_json:
        emit_json("debug-agent", report.as_dict())
        return
    warn_skipped(report.read, ref.path)
    click.echo(f"Session {ref.id}: {picked.total} agents, {picked.failed} failed")
    if not picked.total:
        click.echo("No subagents in this session.")
        return
    for node in picked.shown:
        click.echo("")
        _print_agent(node, detail=agent is not None, every_call=agent is not None or all_agents, full=full, tool_name=tool_name)
    if picked.others:
        named = ", ".join(
            f"{n.run.agent_id} [{n.run.agent_type or '?'}] {clip(n.run.description, 40)} ({'FAILED' if n.run.failed else 'ok'})"
            for n in picked.others[:OTHERS_NAMED]
        )
        more = f" and {len(picked.others) - OTHERS_NAMED} more" if len(picked.others) > OTHERS_NAMED else ""
        click.echo("")
        label = "not shown" if agent or agent_type or tool_name else "not failed"
        click.echo(f"{len(picked.others)} other agent{'s' if len(picked.others) != 1 else ''} ({label}): {named}{more}")
        if not agent and not all_agents:
            click.echo("(`session-kit debug-agent --all` shows every agent; `session-kit debug-agent ID` one in detail)")


_PLAN_SOURCES = {"exit_plan_mode": "ExitPlanMode", "plan_agent": "Plan agent", "plan_file": "plan file"}


@main.command(epilog=EXIT_CODES_HELP)
@in_session_option
@click.option("--all", "all_plans", is_flag=True, help="Every plan of the session, oldest first.")
@claude_dir_option
@json_option
def plan(session: str, all_plans: bool, claude_dir: Path | None, as_json: bool) -> None:
    """The session's latest plan, or all of them in order (--all).

    Plans come from ExitPlanMode calls (the session's and its agents'), the final answers of
    Plan agents, and plan files that this session named or wrote (the `plansDirectory`
    setting, else the Claude root's plans/); never another session's. No plan: a line
    saying so, exit 0.
    """
    from session_kit.queries.plans import session_plans

    root = root_of(claude_dir)
    ref = resolve(session or "current", claude_dir)
    plans = session_plans(ref, root=root)
    chosen = plans if all_plans else plans[-1:]
    if as_json:
        emit_json("plans", {"session_id": ref.id, "path": str(ref.path), "count": len(plans), "plans": [p.as_dict() for p in chosen]})
        return
    if not plans:
        click.echo(f"No plan in session {ref.id}: no ExitPlanMode call, Plan agent answer or plan file of its own.")
        return
    for number, p in enumerate(chosen, start=len(plans) - len(chosen) + 1):
        who = f"agent {p.agent_id}" if p.agent_id else "the main conversation"
        where = f"{p.path}" + (f" (linked by {p.linked_by})" if p.linked_by else "") if p.source == "plan_file" else who
        status = f", {'refused' if p.status == 'error' else p.status}" if p.status and p.status != "ok" else ""
        if number > len(plans) - len(chosen) + 1:
            click.echo("")
        click.echo(f"Plan {number} of {len(plans)} — {_PLAN_SOURCES[p.source]}, {where}, {clock(p.timestamp)}{status}")
        click.echo("")
        click.echo(visible(p.text).rstrip())


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("session", default="current", required=False)
@claude_dir_option
@json_option
def info(session: str, claude_dir: Path | None, as_json: bool) -> None:
    """A session's card: id, transcript, project, scratch dir, time, compactions, agents
    (with failures), plans and the keys of its work state. SESSION defaults to `current`."""
    from session_kit.queries.card import session_card

    ref = resolve(session or "current", claude_dir)
    card = session_card(ref, root=root_of(claude_dir))
    if as_json:
        emit_json("info", card.as_dict())
        return
    r = card.report
    warn_skipped(r.read, ref.path)
    click.echo(f"Session {ref.id}")
    click.echo(f"  transcript:  {ref.path} ({human_size(ref.size)})")
    click.echo(f"  project:     {ref.project.name} (cwd {r.cwd or '-'}, branch {r.branch or '-'})")
    ws = card.work_state
    if ws is None:
        click.echo("  scratch dir: - (the session id cannot name one)")
    else:
        click.echo(f"  scratch dir: {ws.path}" + ("" if ws.exists else " (not created yet)"))
    click.echo(f"  time:        {clock(r.start)} → {clock(r.end)} ({human_duration(r.duration_s)})")
    click.echo(f"  compactions: {len(r.compactions)}")
    for comp in r.compactions:
        trigger = f" ({comp.trigger})" if comp.trigger else ""
        click.echo(f"    line {comp.line}  {clock(comp.timestamp)}{trigger}")
    failed = [a for a in r.agents if a.failed]
    click.echo(f"  agents:      {len(r.agents)}, {len(failed)} failed")
    for agent in r.agents:
        nested = f" (in {agent.parent_agent_id})" if agent.parent_agent_id else ""
        click.echo(
            f"    {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}{nested}  "
            f"{agent_status(agent, error_chars=80)}"
        )
    latest = card.plans[-1] if card.plans else None
    if latest is None:
        click.echo("  plans:       0")
    else:
        first = next((line.strip() for line in latest.text.splitlines() if line.strip()), "")
        click.echo(f"  plans:       {len(card.plans)}; latest ({_PLAN_SOURCES[latest.source]}, {clock(latest.timestamp)}): {clip(first, 80)}")
    if ws is not None and ws.exists:
        keys = ", ".join(ws.keys) or "none"
        click.echo(f"  work state:  keys: {keys}; {ws.notes} notes")
    else:
        click.echo("  work state:  none saved")



if __name__ == "__main__":  # pragma: no cover
    main()
