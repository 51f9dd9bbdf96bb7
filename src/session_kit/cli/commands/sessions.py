"""`session-kit sessions`: the sessions of a project or of every one, latest activity first.

Owns: its options, its table (rows fitted to the terminal, spooled until the widths are known)
and its `--json` stream. Which sessions and their order are `sessions.listing`'s (the scope
checked there); a row's facts `sessions.overview`'s; tokens and cost `usage`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, project_options, shared_options
from session_kit.cli.envelope import emit_json, emit_json_list, emit_json_parts, json_items
from session_kit.cli.errors import worded
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import SHORT_ID, id_width, terminal_width
from session_kit.cli.tables import Column, capped_cells, table_lines, widest
from session_kit.cli.team import only_local, print_sessions, team_option
from session_kit.cli.text import clip, human_duration, human_size, local_time, plural
from session_kit.cli.timespan import When
from session_kit.cli.tokens import human_tokens
from session_kit.errors import EXIT_NOT_FOUND, TEAM_CODES, NotFound

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.sessions.lost import LostSession
    from session_kit.sessions.overview import SessionOverview

SPOOL_ROWS = 2000  # rows a table holds in memory before they wait in a temporary file
WARMUP_PROMPT = "warmup"  # 2.0.x clients started sessions of their own with this prompt


@click.command(
    epilog=epilog(
        "session-kit sessions                      # this project's sessions",
        "session-kit sessions --all --since 7d     # every project, active in the last week",
        "session-kit sessions --until 2026-11-01 --limit 5",
        "session-kit sessions --json | jq -r '.sessions[].id'",
        "session-kit sessions --lost --all         # sessions only history.jsonl remembers",
        "session-kit sessions --team --limit 20    # the team's, each with its machine",
        codes=(EXIT_NOT_FOUND, *TEAM_CODES),
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
@click.option(
    "--lost",
    is_flag=True,
    help="Sessions whose transcript is gone (not archived either) that the client's history.jsonl "
    "still remembers: their prompts, project and time.",
)
@team_option
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
    lost: bool,
    team: bool,
) -> None:
    """List sessions, latest activity first, with last activity, duration, size, agents,
    branch, title (else the first prompt).

    LAST ACTIVE is the last time written in the transcript (never the file's mtime, which a
    copy changes), in UTC like --json; a session with no time shows `-` and is listed last.
    Warmup sessions of 2.0.x clients are marked `(warmup)`. Rows fit the terminal: the title
    is cut, and on a narrow one the AGENTS, BRANCH, SIZE and DURATION columns are left out in
    that order, then PROJECT is cut from its start and left out, then the title; ids are never
    cut. Reads only the head and
    tail of each file, and prints each row in its turn (memory stays flat on any number of
    sessions); from 200 sessions on, what it read is kept in the index, and a file of the same
    size, mtime and inode is not read again. --tokens adds tokens and cost, counted as
    `session-kit usage` counts them. Sessions whose transcript the client deleted and only the
    kit's archive holds are listed below the table, marked `archived only`.

    --lost lists instead the sessions the client deleted before the kit archived them, as its
    `history.jsonl` remembers them: each with its project, time and the prompts typed
    (`search --lost` searches them).

    --team lists the team database's sessions (`session-kit sync`), every machine's and CI
    run's, each with its machine and origin.
    """
    if team:
        only_local(lost=lost, tokens=with_tokens, project=project_path is not None)
        utc = [w.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") if w else None for w in (since, until)]
        print_sessions(kit, api.team_sessions(state_root=api.state_root(), since=utc[0], until=utc[1], limit=limit))
        return
    if lost:
        if with_tokens:
            raise click.UsageError("--lost and --tokens exclude each other", click.get_current_context())
        _lost(kit, project_path, all_projects, since, until, limit)
        return
    # Ordered now, each row made as it is printed: the listing's memory does not grow with
    # the number of sessions (1,000 or 30,000: the same peak RSS).
    try:
        found = api.latest_first(
            kit.root, project_path=project_path, all_projects=all_projects, since=since, until=until, limit=limit
        )
    except NotFound as exc:
        if kit.as_json:  # a program reading stdout gets a document either way; the exit code says why
            emit_json("sessions", {"claude_root": str(kit.root), "sessions": [], "error": worded(exc)})
        raise
    usage = _session_usage(kit) if with_tokens else None
    if kit.as_json:
        # The rows' JSON is made in the listing's batches, on two cores for a long listing.
        parts = found.map_batches(lambda rows: json_items(list(_listed(rows, usage)), [r.shown for r in rows]))
        gone = [s.as_dict() for s in _archived_only(kit, project_path, all_projects)]
        emit_json_parts("sessions", {"claude_root": str(kit.root), "archived_only": gone}, "sessions", parts)
        return
    columns = [
        Column("SESSION", prefix=SHORT_ID if id_width() == SHORT_ID else None),  # below 120 columns: a prefix
        Column("LAST ACTIVE"),
        Column("DURATION", right=True, drop=4),
        Column("SIZE", right=True, drop=3),
        Column("AGENTS", right=True, drop=1),
        *([Column("TOKENS", right=True), Column("COST", right=True)] if usage is not None else []),
        Column("BRANCH", drop=2, cap=16),
        *([Column("PROJECT", cap=40, drop=5, shrink=12)] if all_projects else []),
        Column("TITLE / FIRST PROMPT", flex=True),
    ]

    def cells(rows: list[SessionOverview]) -> list[list[str]]:
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

    # A column is as wide as its widest cell: the rows wait (`Spool`) until every one is
    # made, then the table is laid out.
    natural = widest(columns, [])
    with Spool() as spool:
        for part in found.map_batches(cells):
            widest(columns, part, natural)
            spool.add(part)
        if not spool.count:
            click.echo("No sessions.")
        for line in table_lines(columns, spool.rows(), natural, width=terminal_width()) if spool.count else ():
            click.echo(line)
    _print_archived_only(_archived_only(kit, project_path, all_projects))


def _archived_only(kit: Kit, project_path: Path | None, all_projects: bool) -> list:
    return api.archived_only(kit.root, api.state_root(), project_path=project_path, all_projects=all_projects)


def _print_archived_only(gone: list) -> None:
    """Below the table, marked as such: the sessions whose transcript only the archive has."""
    if not gone:
        return
    say(
        f"Only in the kit's archive ({plural(len(gone), 'session')}: the client deleted the transcripts; "
        "`session-kit show ID` reads one, `session-kit restore ID` puts it back):"
    )
    width = id_width()
    for s in gone:
        when = local_time(s.last_written) if s.last_written else "-"
        click.echo(f"  {s.session_id[:width]}  {when}  {human_size(s.size):>6}  archived only")


class Spool:
    """A table's rows until it is laid out: in memory up to `SPOOL_ROWS`, then in a temporary
    file, so memory stays flat however many sessions there are and a short table never loads
    `tempfile` (with its shutil and random, ~3 ms of a start)."""

    def __init__(self) -> None:
        self.count = 0
        self.held: list[list[str]] = []
        self.file: IO[str] | None = None

    def add(self, part: list[list[str]]) -> None:
        self.count += len(part)
        self.held.extend(part)
        if len(self.held) > SPOOL_ROWS:
            self._spill()

    def rows(self) -> Iterator[list[str]]:
        if self.file is None:
            return iter(self.held)
        self._spill()
        self.file.seek(0)
        return map(json.loads, self.file)

    def _spill(self) -> None:
        if self.file is None:
            import tempfile  # only a long table

            self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed on exit
        self.file.writelines(json.dumps(row) + "\n" for row in self.held)
        self.held.clear()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()


def _lost(
    kit: Kit,
    project_path: Path | None,
    all_projects: bool,
    since: datetime | None,
    until: datetime | None,
    limit: int | None,
) -> None:
    found: Iterable[LostSession] = (
        s
        for s in api.lost_sessions(kit.root, api.state_root(), project_path=project_path, all_projects=all_projects)
        if (since is None or (s.end is not None and s.end >= since))
        and (until is None or (s.start is not None and s.start <= until))
    )
    found = islice(found, limit) if limit else found
    # Written as each session's prompts are read back: the history's text is never held.
    if kit.as_json:
        emit_json_list("sessions-lost", {"claude_root": str(kit.root)}, "sessions", (s.as_dict() for s in found))
        return
    ids = id_width()
    count = 0
    for s in found:
        count += 1
        prompts = plural(s.count, "prompt")
        say(
            f"{(s.id or '(no session id)')[:ids]}  {local_time(s.start)} .. {local_time(s.end)}  {prompts}  {s.project or '-'}"
        )
        for p in s.prompts:
            say(f"    {local_time(p.timestamp)}  {clip(p.text, 2000)}")
    if not count:
        click.echo(_no_lost(kit.root, project_path, all_projects))
        return
    click.echo(f"{plural(count, 'lost session')} (only history.jsonl remembers them).")


def _no_lost(root: Path, project_path: Path | None, all_projects: bool) -> str:
    """Why `--lost` lists nothing: no history.jsonl, none in this project (but elsewhere), or none."""
    if not (root / "history.jsonl").is_file():
        return f"No lost sessions: there is no history.jsonl in {root} (the client writes it as you type)."
    if not all_projects:
        elsewhere = sum(1 for _ in api.lost_sessions(root, api.state_root(), all_projects=True))
        if elsewhere:
            return (
                f"No lost sessions in this project; {plural(elsewhere, 'lost session')} in others (--all lists them)."
            )
    return "No lost sessions: every session history.jsonl names has a transcript or an archived copy."


def _listed(rows: Iterable[SessionOverview], usage: dict | None) -> Iterator[dict[str, Any]]:
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


def _title(row: SessionOverview) -> str:
    prompt = clip(row.title or row.first_prompt, 2000)
    if not row.title and (row.first_prompt or "").strip().lower() == WARMUP_PROMPT:
        return "(warmup)"
    return prompt
