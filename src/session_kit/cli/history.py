"""`archive`, `restore` and `search`: the kit's copy of every session, putting one back, and
finding it again through the index.

Owns: these commands' options and output. What is archived and how (incremental gzip
members, manifests, 0700/0600) is `archive.store`'s; which files and the retention is
`queries.history`'s; the index is `index/`'s; `search --scan` is `browse`'s exact scan.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import click

from session_kit import api
from session_kit.cli.browse import project_options
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.helptext import epilog
from session_kit.cli.output import clip, echo, emit_json, highlight, local_time
from session_kit.errors import KitError

PROGRESS_EVERY_S = 0.2


@click.command(
    epilog=epilog(
        "session-kit archive                     # copy what was added since the last copy",
        "session-kit archive --prune             # and drop what the retention settings let go",
        codes=(3, 5),
    )
)
@click.option("--prune", is_flag=True, help="Also drop archived sessions the retention settings let go.")
@shared_options
@pass_kit
def archive(kit: Kit, prune: bool) -> None:
    """Copy every session's transcript, agent logs, meta and plan files into the kit's archive.

    Only bytes added since the last copy are compressed and appended; a file that was replaced
    is copied again. The client deletes transcripts older than `cleanupPeriodDays` (30 by
    default); the archive keeps them (`restore` puts one back). The hooks archive each session
    as it ends; this command catches up on everything already on disk.
    """
    progress = _progress() if sys.stderr.isatty() and not kit.as_json else None
    run = api.archive_all(kit.root, api.state_root(), progress=progress, prune=prune)
    if progress is not None:
        progress(-1, -1)
    if kit.as_json:
        emit_json("archive", run.as_dict(), redact=False)
        return
    for error in run.errors:
        click.echo(f"session-kit: skipped {error}", err=True)
    pruned = f"; {run.pruned} archived sessions dropped" if prune else ""
    click.echo(f"Archived {run.bytes} new bytes in {run.files} files into {api.archive_dir(api.state_root())}{pruned}")


def _progress() -> Callable[[int, int], None]:
    last = 0.0

    def show(files: int, copied: int) -> None:
        nonlocal last
        if files < 0:
            sys.stderr.write("\r\033[K")
            return
        now = time.monotonic()
        if now - last > PROGRESS_EVERY_S:
            last = now
            sys.stderr.write(f"\rarchived {files} files, {copied / 1e6:.1f} MB")
            sys.stderr.flush()

    return show


@click.command(
    epilog=epilog(
        "session-kit restore 3f2a                # then: cd <project> && claude --resume <id>",
        codes=(3, 4),
    )
)
@click.argument("session")
@shared_options
@pass_kit
def restore(kit: Kit, session: str) -> None:
    """Put an archived session (id or unique prefix) back where `claude --resume` finds it.

    Its transcript, agent logs, meta and plan files are written under the Claude root; files
    already there are left as they are. Restored files get the current time, so the client's
    clean-up does not delete them again at its next start.
    """
    restored = api.restore_session(session, kit.root, api.state_root())
    if kit.as_json:
        emit_json(
            "restore",
            {
                "session_id": restored.session_id,
                "written": list(restored.written),
                "kept": list(restored.kept),
                "transcript": restored.transcript,
            },
            redact=False,
        )
        return
    click.echo(f"Restored {len(restored.written)} files of {restored.session_id} ({len(restored.kept)} already there)")
    if restored.transcript:
        click.echo(f"  {restored.transcript}")
        cwd = api.session_cwd(restored.transcript)
        import shlex  # here, not at the top: no other line of the command needs it

        where = f"cd {shlex.quote(cwd)} && " if cwd else ""
        click.echo(f"Resume it: {where}claude --resume {restored.session_id}")


def _iso_day(value: str | None, name: str) -> str | None:
    """`--since`/`--until`: a date or ISO time, kept as text (the index compares ISO text)."""
    if value is None:
        return None
    from datetime import datetime

    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD) or ISO time", param_hint=name) from None
    return parsed.strftime("%Y-%m-%dT%H:%M:%S") if parsed.tzinfo is None else parsed.isoformat()


@click.command(
    epilog=epilog(
        "session-kit search 'parser crash' --all",
        "session-kit search pytest --errors --since 2026-01-01 --tool Bash",
        "session-kit search ENTINEL_FAIL --all --scan   # any substring, every transcript read",
        codes=(3,),
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
@no_redact_option
@shared_options
@click.pass_context
def search(
    ctx: click.Context,
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
) -> None:
    """Case-insensitive search in messages, tool inputs and tool outputs (agents included).

    Uses the kit's index (brought up to date first: only what was added since is read), ranks
    the hits and prints, for each, the command that resumes its session. Sessions the client
    deleted stay found (their resume command restores them first). The index holds words:
    QUERY's words in order, the last one a prefix. --scan reads every transcript instead and
    finds QUERY as a substring; so does --no-redact, since the index holds only redacted text.
    """
    kit = ctx.ensure_object(Kit)
    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")
    if not query.strip():
        raise KitError("empty query")
    if scan or not api.redaction_enabled() or not any(c.isalnum() for c in query):
        if errors_only or since or until or agent:
            raise KitError("--errors, --since, --until and --agent need the index (drop --scan and --no-redact)")
        from session_kit.cli.browse import search as scan_search

        ctx.invoke(
            scan_search,
            query=query,
            project_path=project_path,
            all_projects=all_projects,
            tool_name=tool_name,
            limit=limit,
        )
        return
    project = None
    if not all_projects:
        projects = api.projects_in_scope(kit.root, project_path=project_path)
        if not projects:
            api.sessions_in_scope(kit.root, project_path=project_path)  # says why, as the listing does
        project = projects[0].name if projects else None
    filters = api.SearchFilters(
        project=project,
        tool=tool_name,
        errors_only=errors_only,
        since=_iso_day(since, "--since"),
        until=_iso_day(until, "--until"),
        agent=agent,
    )
    found = api.search_history(query, kit.root, api.state_root(), filters, limit=limit or 20)
    if kit.as_json:
        emit_json("search", {"query": query, "mode": "index", **found.as_dict()})
        return
    if not found.hits:
        click.echo(f"No match for {query!r} in the index.")
        return
    for h in found.hits:
        who = h.session_id + (f"/{h.agent_id}" if h.agent_id else "")
        tool = f" {h.tool}" if h.tool else ""
        failed = " (failed)" if h.status == "error" else ""
        title = f"  {clip(api.shown(h.title), 60)}" if h.title else ""
        click.echo(f"{who}:{h.line}  {_when(h.timestamp)}  {h.where}{tool}{failed}{title}")
        echo(f"    {highlight(api.shown(h.snippet), query)}")
        if h.resume is None:
            click.echo("    resume: not possible (its transcript is gone, and the archive has no copy)")
        elif h.resume.startswith("session-kit show "):
            click.echo(f"    read:   {h.resume}  (no transcript to resume, here or in the archive)")
        else:
            click.echo(f"    resume: {h.resume}")
    more = f" of {found.total}" if found.total > len(found.hits) else ""
    click.echo(f"{len(found.hits)}{more} hits (best first).")


def _when(stamp: str | None) -> str:
    if not stamp:
        return "-"
    from datetime import datetime

    try:
        return local_time(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
    except ValueError:
        return stamp


@click.command(
    epilog=epilog(
        "session-kit export --output-dir history/ --source laptop",
        "session-kit export --output-dir history/ --format parquet",
        codes=(3,),
    )
)
@click.option(
    "--output-dir",
    "output_dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder to write sessions, texts, calls and agents into (one file per table).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help="JSON Lines, or Parquet (needs the parquet extra).",
)
@click.option(
    "--source", default=None, help="A name for this machine or runner, on every row (default: the host name)."
)
@shared_options
@pass_kit
def export(kit: Kit, output_dir: Path, fmt: str, source: str | None) -> None:
    """Write the index's tables (sessions, texts, calls, agents) as JSON Lines or Parquet.

    The index is brought up to date first. Text is redacted (it is indexed redacted). Load
    many people's or CI runners' exports into one engine, e.g. DuckDB:
    `SELECT * FROM read_json_auto('*/texts.jsonl')`. Columns: docs/json.md. Parquet needs the
    optional extra: `pip install 'claude-session-kit[parquet]'`.
    """
    import socket

    written = api.export_history(
        kit.root, api.state_root(), str(output_dir), source=source or socket.gethostname(), fmt=fmt
    )
    if kit.as_json:
        emit_json("export", {"output_dir": str(output_dir), "format": fmt, "rows": written}, redact=False)
        return
    for table, count in written.items():
        click.echo(f"{output_dir / f'{table}.{fmt}'}: {count} rows")
